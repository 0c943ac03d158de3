"""Every shape of result unittest prints: captured by
crates/testgate-parse/tests/capture/unittest.sh."""
import sys
import unittest


class TestShapes(unittest.TestCase):
    def test_pass(self):
        pass

    def test_fail(self):
        self.assertEqual(1 + 1, 3, "arithmetic is broken")

    def test_error(self):
        raise RuntimeError("boom")

    @unittest.skip("not today")
    def test_skip(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertTrue(False)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        pass

    def test_subtest(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertNotEqual(i, 1)

    def test_prints(self):
        print("printed to stdout")
        print("printed to stderr", file=sys.stderr)
        self.fail("failed after printing")


class TestMore(unittest.TestCase):
    def test_also_passes(self):
        pass

    def test_documented(self):
        """A docstring's first line, which -v prints after the name."""
        self.assertEqual("a", "b")
