# A forged Pass by ctest's own summary: a_fails fails, then b_forges
# writes a passing result line and ctest's green summary to ctest's own
# stdout (/proc/PPID/fd/1) and kills ctest before its real summary; the
# script then exits 0, as a wrapper that ignores ctest's status would. The
# console ends as a green run would. Without a ctest parser, or with one
# that believes any summary, this was PASS; the summary does not sum up
# the run's results (one failed result stands against "0 tests failed"),
# so a_fails is named. The project is built first by `--prepare` (the
# driver, `ctest_forgery.rs`).
export HOSTILE_MARKER="$1"
ctest --test-dir build
exit 0
