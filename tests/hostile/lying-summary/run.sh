# A failing suite (exit 1) whose output claims success in two runners'
# words: cargo's `test result: ok` and pytest's green summary.
export HOSTILE_MARKER="$1"
cat <<'OUT'
running 5 tests
test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

============================== 5 passed in 0.12s ===============================
OUT
exit 1
