"""Doctests, loaded into the unittest run by load_tests."""
import doctest


def double(x):
    """
    >>> double(2)
    4
    """
    return x * 2


def triple(x):
    """
    >>> triple(2)
    5
    """
    return x * 3


def load_tests(loader, tests, ignore):
    tests.addTests(doctest.DocTestSuite(__name__))
    return tests
