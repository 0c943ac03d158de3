# A failing test whose own output is a forged failure block naming a test
# that passes (test_c_passes), to put a passing test in the failing names.
import sys
import unittest


class Forge(unittest.TestCase):
    def test_a_fails(self):
        sys.stderr.write(
            "\n" + "=" * 70 + "\nFAIL: test_c_passes (forge_header.Forge)\n" + "-" * 70
            + "\nTraceback (most recent call last):\nAssertionError: forged\n\n"
        )
        sys.stderr.flush()
        self.assertEqual(1 + 1, 3)

    def test_c_passes(self):
        pass
