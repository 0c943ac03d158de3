"""A test that fails however often it is rerun."""


def test_always_fails():
    assert False, "never works"
