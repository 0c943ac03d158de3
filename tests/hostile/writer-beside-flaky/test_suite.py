"""An honest suite: one test regenerates a tracked fixture file, another
is flaky for reasons outside the tree (here: it fails on the first
attempt, read from testgate's `TESTGATE_ATTEMPT`, unset counting as the
first). With `-k 2` the retry must run and find the flakiness."""

import os
import pathlib


def test_regenerates_its_fixture():
    pathlib.Path("fixture.json").write_text('{"generated": "by the test"}\n')


def test_flaky_elsewhere():
    assert os.environ.get("TESTGATE_ATTEMPT", "1") != "1", "first attempt"
