package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class GreetTest {
    static final String MODE = System.getenv().getOrDefault("TESTGATE_FIXTURE", "pass");
    static final Path COUNTER = Path.of(".flaky-count");

    /** testgate puts the tree back between attempts and numbers them: the
     *  runs of earlier attempts (one each) come before this attempt's. */
    static boolean oddRun() throws IOException {
        int runs = Files.exists(COUNTER)
                ? Integer.parseInt(Files.readString(COUNTER, StandardCharsets.UTF_8).trim()) + 1
                : 1;
        Files.writeString(COUNTER, Integer.toString(runs), StandardCharsets.UTF_8);
        int attempt = Integer.parseInt(System.getenv().getOrDefault("TESTGATE_ATTEMPT", "1"));
        return (runs + attempt - 1) % 2 == 1;
    }

    @Test void greets() {
        assertEquals(MODE.equals("fail") ? "hi ada" : "hello ada", Greet.greet("ada"));
    }

    @Test void greetsNobody() { assertEquals("hello ", Greet.greet("")); }

    @Test void sometimes() throws IOException {
        if (MODE.equals("flaky")) {
            assertFalse(oddRun(), "odd-numbered run");
        }
    }
}
