# A hook forgery, pytest (issue 40): `conftest.py` turns failed reports
# into passed ones. The driver commits calc.py and test_calc.py (the
# trusted revision: the honest test), then adds this conftest.py as the
# submission, and runs pytest itself (`python3 -m pytest -q`): PASS as
# submitted; with `--trusted HEAD` the revision has no conftest.py, the
# view has none either, and the bug is a Fail. This script is the same
# run by hand.
export HOSTILE_MARKER="$1"
exec python3 -m pytest -q
