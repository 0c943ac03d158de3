package com.example.app;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AppTest {
    @Test public void doubles() { assertEquals(4, App.twice(2)); }
    @Test public void halves() { assertEquals(3, App.twice(2)); }
}
