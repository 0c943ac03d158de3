package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A failure in an outer class that has a @Nested class, and one in the
 *  nested class: Surefire 3.x reports the outer class's methods after the
 *  nested class's. */
class CalcTest {
    @Test void adds() { assertEquals(4, Calc.add(2, 2)); }

    @Test void addsNegative() { assertEquals(0, Calc.add(1, -2)); }

    @Nested
    class BigTest {
        @Test void bigNumbers() { assertEquals(2_000_000, Calc.add(1_000_000, 1_000_000)); }

        @Test void overflows() { assertEquals(1, Calc.add(Integer.MAX_VALUE, 1)); }
    }

    @Test void subtracts() { assertEquals(1, Calc.add(2, -1)); }
}
