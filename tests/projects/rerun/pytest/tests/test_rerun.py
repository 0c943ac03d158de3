import os
import pathlib

import pytest

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


@pytest.mark.parametrize("n", range(20))
def test_many(n):
    assert n >= 0


@pytest.mark.parametrize("case", ["with space [and] - dash", "a.b*(c)|d", "plain"])
def test_named(case):
    assert not (MODE in ("fail", "nomatch") and case != "plain"), case


class TestBox:
    def test_unicode_ünï(self):
        assert MODE not in ("fail", "nomatch")


def test_a_pollutes():
    STATE["polluted"] = True


def test_b_victim():
    assert not (MODE == "order" and STATE["polluted"]), "polluted by test_a_pollutes"


def test_sometimes():
    if MODE == "flaky":
        assert not first_run(), "first run"
