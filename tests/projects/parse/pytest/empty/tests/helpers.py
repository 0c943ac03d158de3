"""Not a test module: pytest collects nothing here."""


def helper():
    return 1
