package com.example;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@TestMethodOrder(MethodOrderer.MethodName.class)
class RerunTest {
    static final String MODE = System.getenv().getOrDefault("TESTGATE_FIXTURE", "pass");
    static final Path COUNTER = Path.of(".flaky-count");
    static boolean polluted;

    /** testgate puts the tree back between attempts and numbers them: the
     *  runs of earlier attempts (one each) come before this attempt's. */
    static boolean firstRun() throws IOException {
        int runs = Files.exists(COUNTER)
                ? Integer.parseInt(Files.readString(COUNTER, StandardCharsets.UTF_8).trim()) + 1
                : 1;
        Files.writeString(COUNTER, Integer.toString(runs), StandardCharsets.UTF_8);
        int attempt = Integer.parseInt(System.getenv().getOrDefault("TESTGATE_ATTEMPT", "1"));
        return runs + attempt - 1 == 1;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
    void many(int n) { assertTrue(n >= 0); }

    @Test void fails() { assertFalse(MODE.equals("fail"), "fails"); }

    /** Its name starts with a failing test's: a retry must not run it. */
    @Test void failsNot() { assertTrue(true); }

    @Test void aPollutes() { polluted = true; }

    @Test void bVictim() {
        assertFalse(MODE.equals("order") && polluted, "polluted by aPollutes");
    }

    @Test void sometimes() throws IOException {
        if (MODE.equals("flaky")) {
            assertFalse(firstRun(), "first run");
        }
    }
}
