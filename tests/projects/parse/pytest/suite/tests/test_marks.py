"""Skips and expected failures: none of these is a failing test."""
import sys

import pytest


@pytest.mark.skip(reason="not today")
def test_skipped():
    assert False


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False


@pytest.mark.xfail(reason="fixed already")
def test_xpass():
    assert True


@pytest.mark.xfail(strict=True, reason="strict")
def test_xpass_strict():
    assert True


@pytest.mark.skipif(sys.version_info > (2,), reason="py3")
def test_skipif():
    pass
