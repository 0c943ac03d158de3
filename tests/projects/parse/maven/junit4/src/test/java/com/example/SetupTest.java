package com.example;

import org.junit.BeforeClass;
import org.junit.Test;

public class SetupTest {
    @BeforeClass public static void connect() { throw new IllegalStateException("no database"); }
    @Test public void queries() { }
}
