import os
def test_worker_1():
    assert os.getpid() > 0
