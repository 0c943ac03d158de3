# A forged Pass, mocha: `forged.spec.js` fails a test, then a test prints
# mocha's green epilogue (`2 passing`) as the spec reporter prints it and
# ends mocha with `process.reallyExit(0)` before mocha's own epilogue. The
# console ends with a passing epilogue and mocha exits 0: PASS today (no
# report is asked of mocha; docs/formats.md, mocha, "Not refused"), so no
# driver runs it yet.
# `ghost.spec.js`: every test but one real failure passes, and a passing
# test prints an inline failure mark, an epilogue and a failure list naming
# a test that does not exist. The driver runs mocha itself (`npx mocha
# ghost.spec.js`), with the shared node_modules
# linked in; this script is the same run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec npx --no-install mocha "$@"
