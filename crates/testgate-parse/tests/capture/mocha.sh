#!/usr/bin/env bash
# Reruns mocha over the fixture projects in tests/projects/parse/node/mocha-*
# and rewrites crates/testgate-parse/tests/fixtures/mocha/<case>.{log,expected,outcomes}.
#
# Each case is run twice, identically: once as testgate runs it (CI=true, no
# TTY, stdout and stderr merged) for the .log, once with mocha's json
# reporter writing to a file for the .expected and .outcomes, whose names
# come from that report (python3), never from our parser. Needs node >= 20,
# npm and python3; installs the locked mocha with `npm ci`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
node_dir=$repo/tests/projects/parse/node
out=$here/../fixtures/mocha
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$node_dir"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
mocha=$node_dir/node_modules/.bin/mocha
mkdir -p "$out"

# The json reporter's names: `fullTitle`, the suites' titles and the test's
# joined with spaces (a failing hook's title names the hook). Failures for
# the .expected; every test's status for the .outcomes (pending is skipped;
# a test that passed on a retry is passed, as every reporter prints it).
from_report() {
    python3 - "$1" "$2" <<'PY'
import json, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
if sys.argv[2] == "failing":
    for test in report["failures"]:
        print(test["fullTitle"])
else:
    result = {}
    for what, key in (("passed", "passes"), ("skipped", "pending"), ("failed", "failures")):
        for test in report[key]:
            result[test["fullTitle"]] = what
    for name, what in result.items():
        print(what, name)
PY
}

# capture CASE PROJECT [mocha args ...]
capture() {
    local case=$1 project=$2
    shift 2
    (cd "$node_dir/$project" && env -u FORCE_COLOR -u NO_COLOR CI=true "$mocha" "$@" \
        </dev/null >"$out/$case.log" 2>&1) || true
    rm -f "$scratch/report.json"
    # The reporter given last wins: the case's own is replaced by json.
    (cd "$node_dir/$project" && env -u FORCE_COLOR -u NO_COLOR CI=true "$mocha" "$@" \
        --reporter json --reporter-option "output=$scratch/report.json" \
        </dev/null >/dev/null 2>&1) || true
    {
        echo "# source: mocha $("$mocha" --version) json reporter, an identical second run of: mocha $*"
        from_report "$scratch/report.json" failing
    } >"$out/$case.expected"
    {
        echo "# source: the same json run"
        # The spec and tap reporters print a line for every test that ran.
        [[ " $* " != *" dot "* ]] && echo "# complete"
        from_report "$scratch/report.json" outcomes
    } >"$out/$case.outcomes"
    echo "mocha/$case: $(grep -vc '^#' "$out/$case.expected" || true) failing"
}

capture failing mocha-failing
capture failing-dot mocha-failing --reporter dot
capture failing-tap mocha-failing --reporter tap
capture all-pass mocha-pass
capture lies mocha-lies
capture lies-tap mocha-lies --reporter tap
capture only mocha-only
# Titles with leading, trailing and doubled spaces: kept byte for byte.
capture spaces mocha-spaces
