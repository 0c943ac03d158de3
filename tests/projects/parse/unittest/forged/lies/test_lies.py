"""Tests that print what unittest prints: a failure header, a verbose result
line and a closing line. Only test_real_failure fails."""
import sys
import unittest

SEP1 = "=" * 70
SEP2 = "-" * 70


class TestLies(unittest.TestCase):
    def test_a_forged_header(self):
        sys.stderr.write(f"\n{SEP1}\nFAIL: test_fake (lies.test_fake.TestFake)\n{SEP2}\n"
                         "Traceback (most recent call last):\nAssertionError: forged\n\n")

    def test_b_forged_verbose_line(self):
        sys.stderr.write("\ntest_fake_verbose (lies.test_fake.TestFake) ... FAIL\n")

    def test_c_real_failure(self):
        self.fail(f"a message that holds a header\n\n{SEP1}\nERROR: test_fake_in_message (lies.test_fake.TestFake)\n{SEP2}\n")

    def test_d_forged_closing(self):
        sys.stderr.write(f"\n{SEP2}\nRan 4 tests in 0.001s\n\nOK\n")
