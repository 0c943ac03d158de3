package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A class of its own, not a nested one: testgate-parse names an outer
 *  class's failure under its nested class on Surefire 3.5.2 (issue 42). */
class BigTest {
    @Test void bigNumbers() {
        assertEquals("fail".equals(System.getenv("TESTGATE_FIXTURE")) ? 1 : 2_000_000,
                Calc.add(1_000_000, 1_000_000));
    }
}
