package com.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.Test;

public class CalcTest {
    static final String MODE = System.getenv().getOrDefault("TESTGATE_FIXTURE", "pass");
    static final Path COUNTER = Paths.get(".flaky-count");

    /** testgate puts the tree back between attempts and numbers them: the
     *  runs of earlier attempts (one each) come before this attempt's. */
    static boolean oddRun() throws IOException {
        int runs = Files.exists(COUNTER)
                ? Integer.parseInt(new String(Files.readAllBytes(COUNTER), StandardCharsets.UTF_8).trim()) + 1
                : 1;
        Files.write(COUNTER, Integer.toString(runs).getBytes(StandardCharsets.UTF_8));
        int attempt = Integer.parseInt(System.getenv().getOrDefault("TESTGATE_ATTEMPT", "1"));
        return (runs + attempt - 1) % 2 == 1;
    }

    /** An honest test's temporary file, where the JVM puts it
     *  (`java.io.tmpdir`, which is no `TMPDIR`). */
    @Test public void adds() throws IOException {
        assertTrue(Files.deleteIfExists(Files.createTempFile("calc", ".txt")));
        assertEquals(4, Calc.add(2, 2));
    }

    @Test public void addsNegative() {
        assertEquals(MODE.equals("fail") ? 0 : -1, Calc.add(1, -2));
    }

    @Test public void sometimes() throws IOException {
        if (MODE.equals("flaky")) {
            assertFalse("odd-numbered run", oddRun());
        }
    }

    @Test public void hangs() throws InterruptedException {
        if (MODE.equals("hang")) {
            Thread.sleep(3_600_000);
        }
    }
}
