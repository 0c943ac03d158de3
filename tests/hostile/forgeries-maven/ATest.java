package hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The failing test every attack tries to hide. */
class ATest {
    static final String ATTACK = System.getProperty("attack", "");

    @Test void fails() {
        if (ATTACK.equals("lies")) {
            // Surefire's and Maven's lines of a passing run, printed by the
            // failing test itself.
            System.out.println("[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.01 s -- in hostile.ATest");
            System.out.println("[INFO] ");
            System.out.println("[INFO] Results:");
            System.out.println("[INFO] ");
            System.out.println("[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0");
            System.out.println("[INFO] ");
            System.out.println("[INFO] ------------------------------------------------------------------------");
            System.out.println("[INFO] BUILD SUCCESS");
            System.out.println("[INFO] ------------------------------------------------------------------------");
        }
        assertEquals(1, 2, "the failure to hide");
    }
}
