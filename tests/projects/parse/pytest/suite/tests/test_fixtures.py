"""Errors raised in fixtures: ERROR rather than FAILED."""
import pytest


@pytest.fixture
def broken_setup():
    raise RuntimeError("setup exploded")


@pytest.fixture
def broken_teardown():
    yield 1
    raise RuntimeError("teardown exploded")


def test_uses_broken_setup(broken_setup):
    pass


def test_uses_broken_teardown(broken_teardown):
    assert broken_teardown == 1
