# A forged Pass by exiting early, libtest: `a_fails` still runs when its
# sibling calls std::process::exit(0), so real libtest prints `running 2
# tests` and no `test result:`; cargo goes on to the integration test,
# which passes, and exits 0. Before testgate read whether the runner's
# output closed, this was PASS (one test counted as passed).
export HOSTILE_MARKER="$1"
export CARGO_TARGET_DIR="$PWD/target"
exec cargo test --offline --quiet
