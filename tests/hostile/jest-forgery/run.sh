# A forged Pass, jest (issue 28): `forged.test.js` fails a test, then a
# test prints jest's green summary as jest prints it and ends jest with
# `process.reallyExit(0)` before jest reported the file (one test file: jest
# runs it in its own process). The console shows a closed, passing run and
# jest exits 0: PASS before testgate asked jest for its `--json` report,
# which a run ended so never writes. The driver runs jest itself (`npx
# jest`, `npx jest --verbose`, `npm test`), with the shared node_modules
# linked in; this script is the same run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec npx --no-install jest "$@"
