# `forged.spec.js`: a test fails, then a test prints mocha's green
# epilogue (`2 passing`) as the spec reporter prints it and ends mocha with
# `process.reallyExit(0)` before mocha's own epilogue. The console ends
# with a passing epilogue and mocha exits 0; testgate's recorder wrote the
# failure and no `end`: Inconclusive `truncated` (docs/formats.md, mocha).
# `early.spec.js`: the same epilogue and exit at the file's top level,
# before mocha runs anything: no report at all, `truncated`.
# `after.spec.js`: a test fails; after mocha's own epilogue an exit handler
# prints a green one and exits 0: the report names the failure and ends,
# Inconclusive `contradiction`.
# `erased.spec.js`: a test fails; the next deletes, empties or appends an
# `unserved` line to the recorder's report (HOSTILE_ERASE) and exits 0
# after a green epilogue: `truncated`; `HOSTILE_ERASE=end` appends a green
# run's `end`: `contradiction`. `plant.spec.js`: a failing test
# rewrites the recorder and plants a file beside it in attempt 1; the
# retry's recorder is testgate's, in a fresh directory: Fail.
# `worker.spec.js` (`--parallel`): a test fails, the next kills its
# worker: Fail naming mocha's `Uncaught error outside test suite`.
# `ghost.spec.js`: every test but one real failure passes, and a passing
# test prints an inline failure mark, an epilogue and a failure list naming
# a test that does not exist. The drivers run mocha itself (`npx mocha
# ghost.spec.js`, `forged.spec.js`, …), with the shared node_modules
# linked in; this script is the same run by hand.
export HOSTILE_MARKER="$1"
shift 2
exec npx --no-install mocha "$@"
