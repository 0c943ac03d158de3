# Forgeries, node --test. `ghost.test.js`: a test fails for real, a passing
# test prints a `not ok` block and a `✖` line for a test that does not
# exist. `forged.test.js`: a test fails, the next writes node's green
# closing to the runner's own stdout and kills it; behind `sh -c 'node
# --test forged.test.js; exit 0'` the status is 0: PASS today (node is
# asked for no report; docs/formats.md, node --test, "Not refused"), so no
# driver runs it yet. The driver runs `node --test ghost.test.js`; this
# script is the same run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec node --test "$@"
