package com.example;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class BoxTest {
    @Test public void ünïcodeFails() {
        assertFalse("ünïcode", "fail".equals(System.getenv("TESTGATE_FIXTURE")));
    }
}
