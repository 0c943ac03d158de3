"""The must-pass test checks three parts; the second still fails."""
import unittest


def double(n):
    return n * 2 if n != 1 else 3


class TestDouble(unittest.TestCase):
    def test_fixed(self):
        for n in range(3):
            with self.subTest(n=n):
                self.assertEqual(double(n), n * 2)

    def test_kept(self):
        self.assertEqual(double(0), 0)
