import os
def test_worker_2():
    assert os.getpid() > 0
