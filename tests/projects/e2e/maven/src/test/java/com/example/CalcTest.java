package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CalcTest {
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

    /** An honest test's temporary file, where the JVM puts it
     *  (`java.io.tmpdir`, which is no `TMPDIR`). */
    @Test void adds() throws IOException {
        assertTrue(Files.deleteIfExists(Files.createTempFile("calc", ".txt")));
        assertEquals(4, Calc.add(2, 2));
    }

    /** A test that ends its JVM: Surefire's fork dies. */
    @Test void exits() {
        if (MODE.equals("crash")) {
            System.exit(3);
        }
    }

    @Test void addsNegative() {
        assertEquals(MODE.equals("fail") ? 0 : -1, Calc.add(1, -2));
    }

    @Test void sometimes() throws IOException {
        if (MODE.equals("flaky")) {
            assertFalse(oddRun(), "odd-numbered run");
        }
    }

    @Test void hangs() throws InterruptedException {
        if (MODE.equals("hang")) {
            Thread.sleep(3_600_000);
        }
    }
}
