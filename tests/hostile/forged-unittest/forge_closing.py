# A failing test that hides its failure: it prints unittest's green closing
# (its progress dot, the rule, `Ran 2 tests`, `OK`) and ends the run with
# os._exit(0) before unittest reports it. The console closes as a green run
# would, with exit status 0.
import os
import sys
import unittest


class Forge(unittest.TestCase):
    def test_a_passes(self):
        pass

    def test_b_fails(self):
        try:
            self.assertEqual(1 + 1, 3)
        except AssertionError:
            sys.stderr.write(".\n" + "-" * 70 + "\nRan 2 tests in 0.001s\n\nOK\n")
            sys.stderr.flush()
            os._exit(0)
