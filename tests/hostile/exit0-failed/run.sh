# Exit 0 while printing that a test FAILED: the status and the output
# contradict each other.
export HOSTILE_MARKER="$1"
cat <<'OUT'
running 2 tests
test good ... ok
test bad ... FAILED

failures:

failures:
    bad

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

OUT
exit 0
