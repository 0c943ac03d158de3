# A forged Pass, PHPUnit (issue 39): `ForgeryTest.php` fails a test,
# then (HOSTILE_MODE=exit) a test prints PHPUnit's time line and green
# summary and ends PHP with `exit(0)` before PHPUnit's own summary. The
# console shows a closed, passing run and PHPUnit exits 0: PASS before
# testgate knew PHPUnit (an unrecognised runner's exit 0). PHPUnit writes
# its `--log-junit` report when the run ends, so a run ended so leaves none.
# HOSTILE_MODE=ghost: a passing test prints a defect list naming a test
# that does not exist. The driver runs `phpunit` itself; this script is the
# same run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec phpunit "$@"
