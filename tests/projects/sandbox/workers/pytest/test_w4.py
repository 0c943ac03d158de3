import os
def test_worker_4():
    assert os.getpid() > 0
