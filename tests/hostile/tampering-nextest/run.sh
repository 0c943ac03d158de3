# Tampering with nextest, the runner that writes the report (issue 28): a
# test starts a helper that tries to ptrace nextest, write into its memory
# or take its stdout, as it would to rewrite the JUnit report at nextest's
# exit and set its status to 0. Passes when the seccomp filter refused each
# (the test fails unless every call was refused with EPERM).
export HOSTILE_MARKER="$1"
export CARGO_TARGET_DIR="$PWD/target"
exec cargo nextest run --offline
