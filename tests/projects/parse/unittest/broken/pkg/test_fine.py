import unittest


class TestFine(unittest.TestCase):
    def test_fine(self):
        pass
