package com.example;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class ManyTest {
    @Test public void m00() { assertTrue(true); }
    @Test public void m01() { assertTrue(true); }
    @Test public void m02() { assertTrue(true); }
    @Test public void m03() { assertTrue(true); }
    @Test public void m04() { assertTrue(true); }
    @Test public void m05() { assertTrue(true); }
    @Test public void m06() { assertTrue(true); }
    @Test public void m07() { assertTrue(true); }
    @Test public void m08() { assertTrue(true); }
    @Test public void m09() { assertTrue(true); }
    @Test public void m10() { assertTrue(true); }
    @Test public void m11() { assertTrue(true); }
    @Test public void m12() { assertTrue(true); }
    @Test public void m13() { assertTrue(true); }
    @Test public void m14() { assertTrue(true); }
    @Test public void m15() { assertTrue(true); }
    @Test public void m16() { assertTrue(true); }
    @Test public void m17() { assertTrue(true); }
    @Test public void m18() { assertTrue(true); }
    @Test public void m19() { assertTrue(true); }
}
