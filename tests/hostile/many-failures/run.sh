# A cargo-test-like suite that fails $3 distinct tests: the names are data
# testgate must keep, but neither time nor memory may grow faster than them.
export HOSTILE_MARKER="$1"
echo "running $3 tests"
seq 1 "$3" | sed 's/.*/test t_& ... FAILED/'
echo
echo "test result: FAILED. 0 passed; $3 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"
exit 101
