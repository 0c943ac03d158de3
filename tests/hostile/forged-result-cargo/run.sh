# A forged Pass by printing the runner's closing line (issue 28): a test
# fails, and its sibling writes libtest's `test result: ok. 2 passed; …`
# through `io::stdout()` and calls `std::process::exit(0)`. cargo's status
# is 0 and the last binary's output ends in a green result. Before testgate
# checked that a result agrees with the run it closes, this was PASS in
# every console mode. $3 is the mode: default, quiet (`-q`) or terse.
export HOSTILE_MARKER="$1"
export CARGO_TARGET_DIR="$PWD/target"
case "${3:-default}" in
    quiet) exec cargo test --offline --quiet ;;
    terse) exec cargo test --offline -- --format terse ;;
    *) exec cargo test --offline ;;
esac
