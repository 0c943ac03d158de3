import os
import pathlib
import unittest

MODE = os.environ.get("TESTGATE_FIXTURE", "pass")
COUNTER = pathlib.Path(__file__).resolve().parent.parent / ".flaky-count"
STATE = {"polluted": False}


def first_run():
    runs = int(COUNTER.read_text()) + 1 if COUNTER.exists() else 1
    COUNTER.write_text(str(runs))
    # testgate puts the tree back between attempts and numbers them: the
    # runs of earlier attempts (one each) come before this attempt's.
    n = runs + int(os.environ.get("TESTGATE_ATTEMPT", "1")) - 1
    return n == 1


class Many(unittest.TestCase):
    pass


for n in range(20):
    setattr(Many, f"test_many_{n:02}", lambda self, n=n: self.assertGreaterEqual(n, 0))


class RerunTest(unittest.TestCase):
    def test_fails(self):
        self.assertNotEqual(MODE, "fail")

    # Its name starts with the failing one's: a retry must not run it.
    def test_fails_not(self):
        pass

    def test_a_pollutes(self):
        STATE["polluted"] = True

    def test_b_victim(self):
        self.assertFalse(MODE == "order" and STATE["polluted"], "polluted by test_a_pollutes")

    def test_sometimes(self):
        if MODE == "flaky":
            self.assertFalse(first_run(), "first run")


class Box(unittest.TestCase):
    def test_unicode_ünï(self):
        self.assertNotEqual(MODE, "fail")

    def test_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertFalse(MODE == "fail" and i == 1)
