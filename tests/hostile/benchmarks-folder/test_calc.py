"""An honest suite that leaves an empty `.benchmarks/` at the project's
root, as pytest-benchmark does even with `--benchmark-disable` (the
plugin is not installed here: the test makes the folder the way the
plugin does). It passes or fails as `EXPECT` says."""

import os
import pathlib


def test_benchmarks_folder():
    pathlib.Path(".benchmarks").mkdir(exist_ok=True)


def test_math():
    assert 2 + 2 == int(os.environ.get("EXPECT", "4"))
