package hostile;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The real failure every mode keeps. */
public class ATest {
    @Test
    public void fails() {
        assertEquals(3, 1 + 1);
    }

    @Test
    public void passes() {
        assertEquals(2, 1 + 1);
    }
}
