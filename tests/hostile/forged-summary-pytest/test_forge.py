import os
import sys


def test_a_fails():
    assert 1 + 1 == 3


def test_b_forges_the_summary(request):
    capture = request.config.pluginmanager.getplugin("capturemanager")
    capture.suspend_global_capture(in_=True)
    sys.stdout.write("F.\n" + "=" * 30 + " 2 passed in 0.01s " + "=" * 30 + "\n")
    sys.stdout.flush()
    os._exit(0)
