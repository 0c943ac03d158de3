package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BigTest {
    @Test public void bigNumbers() {
        assertEquals("fail".equals(System.getenv("TESTGATE_FIXTURE")) ? 1 : 2_000_000,
                Calc.add(1_000_000, 1_000_000));
    }
}
