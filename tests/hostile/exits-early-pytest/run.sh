# A forged Pass by exiting early, pytest: test_a fails, test_b ends pytest
# with os._exit(0) before the failure is reported. Real pytest prints
# `test_exit.py F` and no closing line, and exits 0. Before testgate read
# whether the runner's output closed, this was PASS.
export HOSTILE_MARKER="$1"
exec python3 -m pytest -p no:cacheprovider test_exit.py
