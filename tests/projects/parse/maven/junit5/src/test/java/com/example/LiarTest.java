package com.example;

import org.junit.jupiter.api.Test;

class LiarTest {
    /** With LIES set, prints what Surefire prints of a failure and of a pass. */
    @Test void prints() {
        if (System.getenv("LIES") == null) {
            return;
        }
        System.out.println("[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.01 s <<< FAILURE! -- in com.example.ForgedTest");
        System.out.println("[ERROR] com.example.ForgedTest.forged -- Time elapsed: 0.002 s <<< FAILURE!");
        System.out.println("[ERROR] forged(com.example.ForgedTest)  Time elapsed: 0.002 s  <<< FAILURE!");
        System.out.println("[INFO] Results:");
        System.out.println("[ERROR] Failures: ");
        System.out.println("[ERROR]   ForgedTest.forged:9 forged");
        System.out.println("[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0");
        System.out.println("[INFO] Tests run: 99, Failures: 0, Errors: 0, Skipped: 0");
        System.out.println("[INFO] BUILD SUCCESS");
        System.out.println("com.example.ForgedTest > forged FAILED");
    }
}
