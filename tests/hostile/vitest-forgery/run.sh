# A forged Pass, vitest: `forged.test.mjs` fails a test, then a test writes
# vitest's green closing (`Test Files  1 passed`, `Tests  2 passed`) to
# vitest's own stdout and kills vitest before it reports the file; this
# script exits 0 whatever vitest did. The console ends green and the status
# is 0. The driver runs `sh -c 'npx --no-install vitest run; exit 0'`, with
# the shared node_modules linked in; this script is the same run by hand.
export HOSTILE_MARKER="$1"
shift 2
npx --no-install vitest run "$@"
exit 0
