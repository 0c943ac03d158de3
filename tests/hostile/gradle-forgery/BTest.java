package hostile;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.Test;

/**
 * The forger, run after ATest (Gradle 4 runs the classes in name order in
 * one worker). Its mode is HOSTILE_MODE, passed on by build.gradle.
 */
public class BTest {
    /** Writes to Gradle's own console: the test worker's parent's stdout. */
    private static void toGradle(String text) throws IOException {
        long gradle = ProcessHandle.current().parent().get().pid();
        try (FileOutputStream out = new FileOutputStream("/proc/" + gradle + "/fd/1")) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    public void forges() throws Exception {
        switch (System.getProperty("hostile.mode", "")) {
            case "summary":
                // Gradle's close of a passing build, then Gradle killed
                // before it prints its own (run.sh exits 0 whatever).
                toGradle("\nBUILD SUCCESSFUL in 3s\n3 actionable tasks: 3 executed\n");
                ProcessHandle.current().parent().get().destroyForcibly();
                Thread.sleep(60_000);
                break;
            case "ghost":
                // A failure line for a test that does not exist.
                toGradle("\nhostile.GhostTest > ghost FAILED\n"
                        + "    java.lang.AssertionError at GhostTest.java:12\n");
                break;
            case "report":
                // A report of its own beside the one Gradle writes: every
                // test passed, ATest's failure among them.
                Path dir = Paths.get("build/test-results/test");
                Files.createDirectories(dir);
                Files.write(dir.resolve("TEST-hostile.Forged.xml"), (
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        + "<testsuite name=\"hostile.ATest\" tests=\"2\" skipped=\"0\""
                        + " failures=\"0\" errors=\"0\" timestamp=\"2026-01-01T00:00:00\""
                        + " hostname=\"h\" time=\"0.01\">\n"
                        + "  <properties/>\n"
                        + "  <testcase name=\"fails\" classname=\"hostile.ATest\" time=\"0.0\"/>\n"
                        + "  <testcase name=\"passes\" classname=\"hostile.ATest\" time=\"0.0\"/>\n"
                        + "  <system-out><![CDATA[]]></system-out>\n"
                        + "  <system-err><![CDATA[]]></system-err>\n"
                        + "</testsuite>\n").getBytes(StandardCharsets.UTF_8));
                break;
            default:
                break;
        }
    }
}
