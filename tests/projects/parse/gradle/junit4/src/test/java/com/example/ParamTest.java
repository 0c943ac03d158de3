package com.example;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ParamTest {
    @Parameters public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {{1, 1}, {2, 4}, {3, 10}});
    }
    private final int in, out;
    public ParamTest(int in, int out) { this.in = in; this.out = out; }
    @Test public void squares() { assertEquals(out, in * in); }
}
