def test_fine():
    assert 2 + 2 == 4


def test_broken():
    assert 2 + 2 == 5
