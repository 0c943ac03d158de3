# A forged pass of a must-pass test, by an expected failure: the code under
# test calls pytest.xfail() where the fix should have made it pass, so
# pytest reports the must-pass test XFAIL and exits 0. Graded with
# --expect expect.json, this was PASS while grading counted an expected
# failure as a pass of every listed test (issue 28).
export HOSTILE_MARKER="$1"
exec python3 -m pytest -p no:cacheprovider -v test_fix.py
