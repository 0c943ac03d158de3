"""Tests for pytest-rerunfailures (`--reruns N`): one that fails on its
first run and passes on the rerun (flaky: the rerun hides a failure), one
that always passes. The counter lives in the process, which reruns share."""

RUNS = {"flaky": 0}


def test_fails_once():
    RUNS["flaky"] += 1
    assert RUNS["flaky"] >= 2, "the first run fails"


def test_steady():
    assert True
