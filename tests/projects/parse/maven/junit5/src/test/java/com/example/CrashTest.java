package com.example;

import org.junit.jupiter.api.Test;

class CrashTest {
    /** With CRASH set, ends the forked JVM as a test that calls exit would. */
    @Test void exits() {
        if (System.getenv("CRASH") != null) {
            System.exit(0);
        }
    }
}
