"""Parametrize ids with spaces, ' - ', brackets and unicode."""
import pytest


@pytest.mark.parametrize("v", [1, 2], ids=["a - b", "plain"])
def test_x(v):
    assert v == 2


@pytest.mark.parametrize("v", [1], ids=["ünï"])
def test_y(v):
    assert v == 0, "ünïcode - message [x]"


@pytest.mark.parametrize("a,b", [(1, 2)])
def test_z(a, b):
    assert a == b


@pytest.mark.parametrize("v", [1], ids=["with space [and] - dash"])
def test_w(v):
    raise ValueError("boom - with ] bracket")
