# Forgeries, node --test. `ghost.test.js`: a test fails for real, a passing
# test prints a `not ok` block and a `✖` line for a test that does not
# exist. `forged.test.js`: a test fails, the next writes node's green
# closing to the runner's own stdout and kills it; behind `sh -c 'node
# --test forged.test.js; exit 0'` the status is 0, and node's junit report,
# which testgate asks for, is left cut: Inconclusive `truncated` (PASS
# before node was asked for it). `report.test.js`: a test fails, the next
# writes a complete passing junit report where the runner's command line
# says and kills it: the console, cut before its summary, refuses it
# (`truncated`; `HOSTILE_LET_RUN=1`: node writes its own report over it;
# `HOSTILE_CONSOLE=1`: a forged tap console too, a Pass no check refuses,
# docs/formats.md). The driver (hostile/node_forgery.rs) runs
# `node --test FILE` and that `sh -c`; this script is the bare run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec node --test "$@"
