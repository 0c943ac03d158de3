"""Arithmetic that fails on purpose."""
import pytest


def add(a, b):
    return a + b


def test_add_ok():
    assert add(1, 2) == 3


def test_add_wrong():
    assert add(2, 2) == 5


class TestAdd:
    def test_pos(self):
        assert add(1, 1) == 2

    @pytest.mark.parametrize("a,b", [(1, 2), (-1, -2)])
    def test_neg(self, a, b):
        assert add(-a, -b) == -(a + b) + (1 if a == 1 else 0)
