def test_fine():
    assert True


def test_wrong():
    assert 1 == 2
