package com.example;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SetupTest {
    @BeforeAll static void connect() { throw new IllegalStateException("no database"); }
    @Test void queries() { }
}
