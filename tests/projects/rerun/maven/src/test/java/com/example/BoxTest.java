package com.example;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** A class of its own, not a nested one: testgate-parse names an outer
 *  class's failure under its nested class on Surefire 3.5.2 (issue 42). */
class BoxTest {
    @Test void ünïcodeFails() {
        assertFalse("fail".equals(System.getenv("TESTGATE_FIXTURE")), "ünïcode");
    }
}
