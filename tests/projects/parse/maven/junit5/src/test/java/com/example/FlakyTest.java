package com.example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FlakyTest {
    private static int tries;
    /** Fails on its first try in a JVM, passes on a rerun. */
    @Test void eventually() { assertTrue(tries++ > 0, "try " + tries); }
}
