# A pytest suite with a failing test that, on its way out, leaves a
# `setup.cfg` testgate reads to target the retry of `--rerun failed`
# (whether pytest-cov is in use): with HOSTILE_CONFIG=fifo a FIFO with no
# writer (a blocking read hangs testgate for good, deaf to SIGTERM), with
# HOSTILE_CONFIG=zero a link to /dev/zero (an unbounded read grows testgate
# until the machine runs out of memory). pytest itself reads pytest.ini,
# which comes first, and never opens setup.cfg. Only the first attempt
# plants it.
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_sessionfinish(session, exitstatus):
    path = os.path.join(HERE, "setup.cfg")
    if os.path.lexists(path):
        return
    mode = os.environ.get("HOSTILE_CONFIG")
    if mode == "fifo":
        os.mkfifo(path)
    elif mode == "zero":
        os.symlink("/dev/zero", path)
