import os
import pathlib
import time

MODE = os.environ.get("TESTGATE_FIXTURE", "pass")
COUNTER = pathlib.Path(__file__).resolve().parent.parent / ".flaky-count"


def odd_run():
    runs = int(COUNTER.read_text()) + 1 if COUNTER.exists() else 1
    COUNTER.write_text(str(runs))
    # testgate puts the tree back between attempts and numbers them: the
    # runs of earlier attempts (one each) come before this attempt's.
    n = runs + int(os.environ.get("TESTGATE_ATTEMPT", "1")) - 1
    return n % 2 == 1


def test_adds():
    assert 2 + 2 == 4


def test_adds_negative():
    assert 1 + -2 == (0 if MODE == "fail" else -1)


class TestBig:
    def test_big_numbers(self):
        assert 1_000_000 * 2 == (1 if MODE == "fail" else 2_000_000)


def test_sometimes():
    if MODE == "flaky":
        assert not odd_run(), "odd-numbered run"


def test_hangs():
    if MODE == "hang":
        time.sleep(3600)
