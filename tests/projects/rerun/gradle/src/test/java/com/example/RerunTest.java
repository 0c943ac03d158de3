package com.example;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class RerunTest {
    static final String MODE = System.getenv().getOrDefault("TESTGATE_FIXTURE", "pass");
    static final Path COUNTER = Paths.get(".flaky-count");
    static boolean polluted;

    /** testgate puts the tree back between attempts and numbers them: the
     *  runs of earlier attempts (one each) come before this attempt's. */
    static boolean firstRun() throws IOException {
        int runs = Files.exists(COUNTER)
                ? Integer.parseInt(new String(Files.readAllBytes(COUNTER), StandardCharsets.UTF_8).trim()) + 1
                : 1;
        Files.write(COUNTER, Integer.toString(runs).getBytes(StandardCharsets.UTF_8));
        int attempt = Integer.parseInt(System.getenv().getOrDefault("TESTGATE_ATTEMPT", "1"));
        return runs + attempt - 1 == 1;
    }

    @Test public void fails() { assertFalse("fails", MODE.equals("fail")); }

    /** Its name starts with a failing test's: a retry must not run it. */
    @Test public void failsNot() { assertTrue(true); }

    @Test public void aPollutes() { polluted = true; }

    @Test public void bVictim() {
        assertFalse("polluted by aPollutes", MODE.equals("order") && polluted);
    }

    @Test public void sometimes() throws IOException {
        if (MODE.equals("flaky")) {
            assertFalse("first run", firstRun());
        }
    }
}
