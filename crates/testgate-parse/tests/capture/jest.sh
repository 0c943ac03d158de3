#!/usr/bin/env bash
# Reruns jest over the fixture projects in tests/projects/parse/node/jest-*
# and rewrites crates/testgate-parse/tests/fixtures/jest/<case>.{log,expected}.
#
# Each case is run twice, identically: once as testgate runs it (CI=true, no
# TTY, stdout and stderr merged) for the .log, once with --json for the
# .expected, whose names come from jest's own JSON (python3), never from our
# parser. Needs node >= 20, npm and python3; installs the locked jest with
# `npm ci`.
#
# `jest.sh CASE...` recaptures only the cases named (all without one).
set -euo pipefail
only=" $* "

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
node_dir=$repo/tests/projects/parse/node
out=$here/../fixtures/jest
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$node_dir"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
jest=$node_dir/node_modules/.bin/jest
mkdir -p "$out"

# The names of the failing tests in a jest --json file, spelled as jest's
# `●` headers spell them: ancestor titles and title joined by " › ". A suite
# that failed to run (no test to name) is named by its path relative to the
# working directory, as jest's `FAIL <path>` line prints it.
names_from_json() {
    python3 - "$1" "$node_dir" <<'PY'
import json, os, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
failing = []
for suite in report["testResults"]:
    for test in suite["assertionResults"]:
        if test["status"] == "failed":
            failing.append((" › ".join(test["ancestorTitles"] + [test["title"]]), os.path.relpath(suite["name"], sys.argv[2])))
# A name is the test's identity: a title that failing tests of two files
# share is printed once per file, never carrying it (docs/formats.md).
for name, file in failing:
    print(name)
for suite in report["testResults"]:
    if suite["status"] == "failed" and "● Test suite failed to run" in suite["message"]:
        print(os.path.relpath(suite["name"], sys.argv[2]))
PY
}

# Every test's outcome in a jest --json file, `OUTCOME NAME` per line
# (passed, failed, skipped for pending and todo, flaky for passed after more
# than one invocation; a suite that failed to run failed, by its path),
# named as above.
outcomes_from_json() {
    python3 - "$1" "$node_dir" <<'PY'
import json, os, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
words = {"passed": "passed", "failed": "failed", "pending": "skipped", "skipped": "skipped", "todo": "skipped"}
result = {}
for suite in report["testResults"]:
    for test in suite["assertionResults"]:
        name = " › ".join(test["ancestorTitles"] + [test["title"]])
        if result.get(name) != "failed":
            result[name] = words[test["status"]]
            # jest.retryTimes: passed after a failed invocation.
            if test["status"] == "passed" and ((test.get("invocations") or 1) > 1 or test.get("retryReasons")):
                result[name] = "flaky"
    if suite["status"] == "failed" and "● Test suite failed to run" in suite["message"]:
        result[os.path.relpath(suite["name"], sys.argv[2])] = "failed"
for name, what in result.items():
    print(what, name)
PY
}

# (The tree prints no duration for a test under 1 ms, so there a title that
# ends like one, `takes (5 ms)`, reads as `takes`: the tree alone cannot tell.
# The committed cut log is of a run where that test took 1 ms; a recapture
# where it took less changes its name, and the check says so.)
# A run killed between the first block's --verbose tree and its `●` headers
# (a timeout): failing-verbose.log up to its first header. The names are
# those jest --json gives for the first file, whose tree the cut log keeps.
cut_before_headers() {
    local log=$out/failing-verbose.log case=cut-before-headers
    local first_header file
    first_header=$(grep -n -m1 '^  ● ' "$log" | cut -d: -f1)
    file=$(head -n1 "$log" | sed 's/^FAIL //')
    head -n "$((first_header - 1))" "$log" >"$out/$case.log"
    {
        echo "# hand-made: failing-verbose.log cut before its first ● header, as a timeout leaves it; names: jest --json of that run, the failures of $file"
        python3 - "$scratch/failing-verbose.json" "$node_dir" "$file" <<'PY'
import json, os, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
for suite in report["testResults"]:
    if os.path.relpath(suite["name"], sys.argv[2]) == sys.argv[3]:
        for test in suite["assertionResults"]:
            if test["status"] == "failed":
                print(" › ".join(test["ancestorTitles"] + [test["title"]]))
PY
    } >"$out/$case.expected"
    echo "jest/$case: $(grep -vc '^#' "$out/$case.expected" || true) failing"
}

# capture CASE PROJECT [VAR=value ...] -- [jest args ...]
capture() {
    local case=$1 project=$2
    shift 2
    if [[ $only != "  " && $only != *" $case "* ]]; then return; fi
    local vars=()
    while [[ $1 != -- ]]; do
        vars+=("$1")
        shift
    done
    shift
    # A private cache keeps the order of the suites independent of earlier runs.
    local args=(--rootDir "$project" --runInBand "$@")
    local cache=(--cacheDirectory "$scratch/cache-$case")
    env -u FORCE_COLOR -u NO_COLOR CI=true "${vars[@]}" "$jest" "${args[@]}" "${cache[@]}" \
        </dev/null >"$out/$case.log" 2>&1 || true
    env -u FORCE_COLOR -u NO_COLOR CI=true "${vars[@]}" "$jest" "${args[@]}" "${cache[@]}" \
        --json --outputFile="$scratch/$case.json" </dev/null >/dev/null 2>&1 || true
    {
        echo "# source: jest $("$jest" --version) --json, an identical second run of: ${vars[*]:+${vars[*]} }jest ${args[*]}"
        if [[ -s $scratch/$case.json ]]; then
            names_from_json "$scratch/$case.json"
        fi
    } >"$out/$case.expected"
    {
        echo "# source: the same jest --json run"
        # --verbose prints every test's line, passing ones included.
        [[ " $* " == *" --verbose "* ]] && echo "# complete"
        if [[ -s $scratch/$case.json ]]; then
            outcomes_from_json "$scratch/$case.json"
        fi
    } >"$out/$case.outcomes"
    # The JSON report itself, which `testgate parse` reads too.
    rm -f "$out/$case.report.json"
    if [[ -s $scratch/$case.json ]]; then cp "$scratch/$case.json" "$out/$case.report.json"; fi
    rm -f "$out/$case.flaky"
    if [[ -s $scratch/$case.json && -n "$(flaky_from_json "$scratch/$case.json")" ]]; then
        {
            echo "# source: the same jest --json run: passed after more than one invocation"
            flaky_from_json "$scratch/$case.json"
        } >"$out/$case.flaky"
    fi
    echo "jest/$case: $(grep -vc '^#' "$out/$case.expected" || true) failing"
}

# The flaky tests of a jest --json file: passed after more than one
# invocation (jest.retryTimes), named as above.
flaky_from_json() {
    python3 - "$1" <<'PY'
import json, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
for suite in report["testResults"]:
    for test in suite["assertionResults"]:
        if test["status"] == "passed" and ((test.get("invocations") or 1) > 1 or test.get("retryReasons")):
            print(" › ".join(test["ancestorTitles"] + [test["title"]]))
PY
}

capture failing jest-failing --
capture failing-verbose jest-failing -- --verbose
[[ $only == "  " ]] && cut_before_headers
capture failing-color jest-failing FORCE_COLOR=1 --
capture suite-failed-to-run jest-broken --
capture no-tests jest-empty --
capture no-tests-pass jest-empty -- --passWithNoTests
capture lies jest-lies --
capture all-pass jest-pass --
# jest.retryTimes with logErrorsBeforeRetry: a test that fails once, then
# passes on its retry (jest exits 0).
capture retry jest-retry --
# jest.retryTimes without logErrorsBeforeRetry: the console shows no trace
# of the failed try; jest's --json report counts its invocations.
capture retry-quiet jest-retry-quiet --
if [[ -f $out/retry-quiet.flaky ]]; then
    sed -i '1a # report only: the console shows no failed try without logErrorsBeforeRetry' "$out/retry-quiet.flaky"
fi
# Two files whose failing tests share a title: the same name twice, each in its file.
capture shared jest-shared --
capture shared-verbose jest-shared -- --verbose
