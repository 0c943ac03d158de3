package com.example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class OuterTest {
    @Test void outside() { assertTrue(true); }

    @Nested
    class InnerTest {
        @Test void holds() { assertTrue(true); }
        @Test void breaks() { assertTrue(false, "inner"); }
    }
}
