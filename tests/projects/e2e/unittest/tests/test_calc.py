import os
import pathlib
import time
import unittest

MODE = os.environ.get("TESTGATE_FIXTURE", "pass")
COUNTER = pathlib.Path(__file__).resolve().parent.parent / ".flaky-count"


def odd_run():
    runs = int(COUNTER.read_text()) + 1 if COUNTER.exists() else 1
    COUNTER.write_text(str(runs))
    # testgate puts the tree back between attempts and numbers them: the
    # runs of earlier attempts (one each) come before this attempt's.
    n = runs + int(os.environ.get("TESTGATE_ATTEMPT", "1")) - 1
    return n % 2 == 1


class CalcTest(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(2 + 2, 4)

    def test_adds_negative(self):
        self.assertEqual(1 + -2, 0 if MODE == "fail" else -1)

    def test_sometimes(self):
        if MODE == "flaky":
            self.assertFalse(odd_run(), "odd-numbered run")

    def test_hangs(self):
        if MODE == "hang":
            time.sleep(3600)


class TestBig(unittest.TestCase):
    def test_big_numbers(self):
        self.assertEqual(1_000_000 * 2, 1 if MODE == "fail" else 2_000_000)
