package com.example;

import org.junit.Test;

public class CrashTest {
    /** With CRASH set, ends the forked JVM as a test that calls exit would. */
    @Test public void exits() {
        if (System.getenv("CRASH") != null) {
            System.exit(0);
        }
    }
}
