"""A test fails; the next prints unittest's closing `OK` and ends the
process with status 0 before unittest's own summary (a forged Pass)."""
import os
import sys
import unittest


class TestEarly(unittest.TestCase):
    def test_a_fails(self):
        self.assertEqual(1, 2)

    def test_b_lies(self):
        sys.stderr.write("\n" + "-" * 70 + "\nRan 2 tests in 0.001s\n\nOK\n")
        sys.stderr.flush()
        os._exit(0)
