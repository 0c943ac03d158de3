# A forged pass of a must-pass test, by a subtest: the must-pass test's
# unittest subTest fails; pytest (>= 9) prints `SUBFAILED(i=1) <id>` in its
# summary while the test's own verbose line says PASSED, and exits 1.
# Graded with --expect expect.json (the exit status does not decide there),
# this was PASS while the parser read only the test's own line (issue 28).
export HOSTILE_MARKER="$1"
exec python3 -m pytest -p no:cacheprovider -v test_parts.py
