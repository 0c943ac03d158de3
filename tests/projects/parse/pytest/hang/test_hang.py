"""A test that never ends, between two that do: the capture script kills
the run, as a timeout does, and the log ends inside test_b_hangs."""
import time


def test_a_passes():
    pass


def test_b_hangs():
    while True:
        time.sleep(60)


def test_c_never_starts():
    pass
