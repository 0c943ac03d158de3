"""A passing test that prints lines that look like pytest's own."""


def test_prints_fake_failures():
    print("FAILED tests/test_fake.py::test_fake - AssertionError: lie")
    print("ERROR tests/test_fake.py::test_fake_error")
    print("tests/test_fake.py::test_fake_verbose FAILED")
    print("=========================== short test summary info ============================")
    print("FAILED tests/test_fake.py::test_in_fake_summary - x")
    assert True
