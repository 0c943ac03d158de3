# A failing test, then a test that ends the run with os._exit(0): no
# closing line, exit status 0.
import os
import unittest


class Exits(unittest.TestCase):
    def test_a_fails(self):
        self.assertEqual(1 + 1, 3)

    def test_b_exits(self):
        os._exit(0)
