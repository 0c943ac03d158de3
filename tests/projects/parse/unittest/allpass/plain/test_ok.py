"""A suite that passes, with a skip and an expected failure."""
import unittest


class TestOk(unittest.TestCase):
    def test_one(self):
        self.assertEqual(1, 1)

    def test_two(self):
        self.assertIn("a", "abc")

    @unittest.skip("later")
    def test_skipped(self):
        pass

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(1, 2)
