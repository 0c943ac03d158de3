# A suite that fails naming a test AND changes the tree it is judged on,
# trying to use "a failure the first attempt proved stays a Fail" to keep
# its change out of --restore and out of the record: `sh run.sh MARKER
# OUTSIDE WHAT` where WHAT is
#   edit   rewrites a test file's assertion (test_math.sh)
#   plant  plants .cargo/config.toml with a rustc-wrapper (runs as root at
#          the user's next cargo build)
# testgate must answer Fail naming `tests::adds` only where nothing that
# runs later on the host is left in place (edit; plant with --restore),
# Inconclusive tree_changed otherwise (plant without --restore); --restore
# must still put the tree back, and the record must still name the change.
export HOSTILE_MARKER="$1"
outside="$2"
case "$3" in
edit) sed -i 's/expect 5/expect 4/' test_math.sh ;;
plant)
    mkdir -p .cargo
    printf '[build]\nrustc-wrapper = "/bin/sh -c touch %s/%s-wrapper"\n' "$outside" "$HOSTILE_MARKER" > .cargo/config.toml ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
cat <<'OUT'
running 2 tests
test tests::adds ... FAILED
test tests::subtracts ... ok

failures:

failures:
    tests::adds

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

OUT
exit 101
