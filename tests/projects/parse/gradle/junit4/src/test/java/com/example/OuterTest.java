package com.example;

import static org.junit.Assert.assertTrue;

import org.junit.Test;
import org.junit.experimental.runners.Enclosed;
import org.junit.runner.RunWith;

@RunWith(Enclosed.class)
public class OuterTest {
    public static class InnerTest {
        @Test public void holds() { assertTrue(true); }
        @Test public void breaks() { assertTrue("inner", false); }
    }
}
