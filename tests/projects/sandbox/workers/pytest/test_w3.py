import os
def test_worker_3():
    assert os.getpid() > 0
