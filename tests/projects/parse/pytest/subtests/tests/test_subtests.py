"""Subtests (pytest >= 9 reports them itself): a unittest `subTest` that
fails inside a test whose own line says PASSED, and the `subtests`
fixture's, whose test pytest fails."""
import unittest


class TestParts(unittest.TestCase):
    def test_one_part_fails(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertNotEqual(i, 1)

    def test_every_part_passes(self):
        for i in range(2):
            with self.subTest(i=i):
                self.assertGreaterEqual(i, 0)


def test_fixture_part_fails(subtests):
    for i in range(2):
        with subtests.test(msg="part", i=i):
            assert i == 0


def test_plain():
    assert True
