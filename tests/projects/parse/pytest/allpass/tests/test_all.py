import pytest


def test_one():
    assert 1 + 1 == 2


@pytest.mark.parametrize("n", range(3))
def test_many(n):
    assert n >= 0
