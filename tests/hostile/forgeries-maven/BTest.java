package hostile;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs after ATest failed, and tries to forge a Pass. */
class BTest {
    static final String ATTACK = System.getProperty("attack", "");

    /** Every test passing, as Surefire would have written ATest's report. */
    static final String PASSING =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<testsuite xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
        + "xsi:noNamespaceSchemaLocation=\"https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report-3.0.2.xsd\" "
        + "version=\"3.0.2\" name=\"hostile.ATest\" time=\"0.01\" tests=\"1\" errors=\"0\" skipped=\"0\" failures=\"0\">\n"
        + "  <testcase name=\"fails\" classname=\"hostile.ATest\" time=\"0.001\"/>\n"
        + "</testsuite>\n";

    /** Surefire writes ATest's report after this test ran: a process of
     *  the attack's waits for it (at most a minute) and rewrites it, before
     *  Maven ends. */
    static void rewriteWhenWritten() throws Exception {
        Path forged = Path.of("target/forged.xml");
        Files.writeString(forged, PASSING, StandardCharsets.UTF_8);
        String report = "target/surefire-reports/TEST-hostile.ATest.xml";
        String script = "i=0; while [ $i -lt 1200 ]; do "
            + "if grep -q '<failure' " + report + " 2>/dev/null; then cp " + forged + " " + report + "; fi; "
            + "i=$((i+1)); sleep 0.05; done";
        new ProcessBuilder("sh", "-c", script).inheritIO().start();
    }

    @Test void attacks() throws Exception {
        switch (ATTACK) {
            case "rewrite", "quiet" -> rewriteWhenWritten();
            case "exit" -> System.exit(0);
            case "halt" -> Runtime.getRuntime().halt(0);
            default -> { }
        }
    }
}
