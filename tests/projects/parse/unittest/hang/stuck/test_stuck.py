"""A test that fails, then one that never ends: the run is killed."""
import threading
import unittest


class TestStuck(unittest.TestCase):
    def test_a_fails(self):
        self.assertEqual(1, 2)

    def test_b_hangs(self):
        threading.Event().wait()
