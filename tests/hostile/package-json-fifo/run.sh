# A failing suite behind `npm test` that, on its way out, replaces
# package.json by a FIFO. testgate reads package.json to target a retry of
# the failing test (`--rerun failed`); a plain read would block forever on
# the FIFO, past the timeout and deaf to SIGTERM. npm reads package.json
# again after the script, so a writer in the background feeds it the
# original once; the FIFO then has no writer.
export HOSTILE_MARKER="$1"
cat <<'OUT'
running 2 tests
test tests::fine ... ok
test tests::broken ... FAILED

failures:

---- tests::broken stdout ----
assertion failed

failures:
    tests::broken

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

OUT
cp package.json /tmp/package.json.orig
rm -f package.json && mkfifo package.json && echo "package.json is now a FIFO"
cat /tmp/package.json.orig > package.json &
exit 1
