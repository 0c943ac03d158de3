# Forgeries, node --test. `ghost.test.js`: a test fails for real, a passing
# test prints a `not ok` block and a `✖` line for a test that does not
# exist. `forged.test.js`: a test fails, the next writes node's green
# closing to the runner's own stdout and kills it; behind `sh -c 'node
# --test forged.test.js; exit 0'` the status is 0, and node's junit report,
# which testgate asks for, is left cut: Inconclusive `truncated` (PASS
# before node was asked for it). The driver (hostile/node_forgery.rs) runs
# `node --test FILE` and that `sh -c`; this script is the bare run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec node --test "$@"
