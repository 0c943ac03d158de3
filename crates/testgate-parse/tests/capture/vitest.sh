#!/usr/bin/env bash
# Reruns vitest over the fixture projects in tests/projects/parse/node/vitest-*
# and rewrites crates/testgate-parse/tests/fixtures/vitest/<case>.{log,expected}.
#
# Each case is run twice, identically: once as testgate runs it (CI=true, no
# TTY, stdout and stderr merged) for the .log, once with vitest's json and
# junit reporters for the .expected, whose names come from those reports
# (python3), never from our parser. Needs node >= 20, npm and python3;
# installs the locked vitest with `npm ci`.
#
# `vitest.sh CASE...` recaptures only the cases named (all without one).
set -euo pipefail
only=" $* "

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
node_dir=$repo/tests/projects/parse/node
out=$here/../fixtures/vitest
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$node_dir"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
vitest=$node_dir/node_modules/.bin/vitest
mkdir -p "$out"

# The names of the failing tests, spelled as vitest's `FAIL  <file> > …`
# headers spell them after the file: ancestor titles and title joined by
# " > ". The json reporter names failed tests; the junit reporter also names
# what json cannot: a suite whose hook failed (by its describe path) and a
# file that failed to load (by its path relative to the root). Every name
# json gives must be among junit's, or the script stops.
names_from_reports() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET

report = json.load(open(sys.argv[1], encoding="utf-8"))
root = sys.argv[3]

# A name is the test's identity: a title that failing tests of two files
# share is the same name in each, never carrying the file (docs/formats.md).
from_json = [
    " > ".join(test["ancestorTitles"] + [test["title"]])
    for suite in report["testResults"]
    for test in suite["assertionResults"]
    if test["status"] == "failed"
]
cases = [
    case
    for case in ET.parse(sys.argv[2]).getroot().iter("testcase")
    if case.find("failure") is not None or case.find("error") is not None
]
from_junit = [c.get("name") for c in cases]
missing = set(from_json) - set(from_junit)
if missing:
    sys.exit(f"json names missing from junit: {sorted(missing)}")
for name in from_junit:
    print(name)
PY
}

# Every test's outcome, `OUTCOME NAME` per line: the json reporter's
# statuses (passed, failed, skipped for skipped, pending and todo; flaky for
# a passed test with the failure messages of a retried try), then junit's
# failures and errors json does not name (a suite whose hook failed, a file
# that failed to load) as failed.
outcomes_from_reports() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET

report = json.load(open(sys.argv[1], encoding="utf-8"))
root = sys.argv[3]
words = {"passed": "passed", "failed": "failed", "pending": "skipped", "skipped": "skipped", "todo": "skipped"}
result = {}
for suite in report["testResults"]:
    for test in suite["assertionResults"]:
        name = " > ".join(test["ancestorTitles"] + [test["title"]])
        if result.get(name) != "failed":
            result[name] = words[test["status"]]
            if test["status"] == "passed" and test.get("failureMessages"):
                result[name] = "flaky"
for case in ET.parse(sys.argv[2]).getroot().iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        result[case.get("name")] = "failed"
for name, what in result.items():
    print(what, name)
PY
}

# The flaky tests of the json reporter's report: passed, with the failure
# messages of the tries vitest --retry retried.
flaky_from_report() {
    python3 - "$1" <<'PY'
import json, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
for suite in report["testResults"]:
    for test in suite["assertionResults"]:
        if test["status"] == "passed" and test.get("failureMessages"):
            print(" > ".join(test["ancestorTitles"] + [test["title"]]))
PY
}

# A run killed just before its failure sections (a timeout):
# failing-verbose.log up to the first section rule. The verbose `×` lines
# before it name every failed test (not the suite whose hook failed: its
# tests show as skipped), so the names are the json reporter's failed tests.
cut_before_sections() {
    local log=$out/failing-verbose.log case=cut-before-sections
    local first_rule
    first_rule=$(grep -n -m1 'Failed \(Tests\|Suites\) [0-9]' "$log" | cut -d: -f1)
    head -n "$((first_rule - 1))" "$log" >"$out/$case.log"
    {
        echo "# hand-made: failing-verbose.log cut before its first failure section, as a timeout leaves it; names: the json reporter's failed tests of that run"
        python3 - "$scratch/failing-verbose.json" <<'PY'
import json, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
for suite in report["testResults"]:
    for test in suite["assertionResults"]:
        if test["status"] == "failed":
            print(" > ".join(test["ancestorTitles"] + [test["title"]]))
PY
    } >"$out/$case.expected"
    echo "vitest/$case: $(grep -vc '^#' "$out/$case.expected" || true) failing"
}

# capture CASE PROJECT [VAR=value ...] -- [vitest args ...]
capture() {
    local case=$1 project=$2
    shift 2
    local vars=()
    while [[ $1 != -- ]]; do
        vars+=("$1")
        shift
    done
    shift
    if [[ $only != "  " && $only != *" $case "* ]]; then return; fi
    local args=(run --root "$project" "$@")
    env -u FORCE_COLOR -u NO_COLOR CI=true "${vars[@]}" "$vitest" "${args[@]}" \
        </dev/null >"$out/$case.log" 2>&1 || true
    rm -f "$scratch/report.json" "$scratch/report.xml"
    env -u FORCE_COLOR -u NO_COLOR CI=true "${vars[@]}" "$vitest" "${args[@]}" \
        --reporter=json --reporter=junit \
        --outputFile.json="$scratch/report.json" --outputFile.junit="$scratch/report.xml" \
        </dev/null >/dev/null 2>&1 || true
    cp "$scratch/report.json" "$scratch/$case.json" 2>/dev/null || true
    # The junit and json reports themselves, which `testgate parse` reads too.
    rm -f "$out/$case.junit.xml" "$out/$case.report.json"
    cp "$scratch/report.xml" "$out/$case.junit.xml" 2>/dev/null || true
    cp "$scratch/report.json" "$out/$case.report.json" 2>/dev/null || true
    {
        echo "# source: $("$vitest" --version | sed 's/ .*//') json + junit reporters, an identical second run of: ${vars[*]:+${vars[*]} }vitest ${args[*]}"
        if [[ -s $scratch/report.json && -s $scratch/report.xml ]]; then
            names_from_reports "$scratch/report.json" "$scratch/report.xml" "$node_dir/$project"
        fi
    } >"$out/$case.expected"
    {
        echo "# source: the same json + junit run"
        # The verbose reporter prints every test's line, passing ones included.
        [[ " $* " == *" --reporter=verbose "* ]] && echo "# complete"
        if [[ -s $scratch/report.json && -s $scratch/report.xml ]]; then
            outcomes_from_reports "$scratch/report.json" "$scratch/report.xml" "$node_dir/$project"
        fi
    } >"$out/$case.outcomes"
    rm -f "$out/$case.flaky"
    if [[ -s $scratch/report.json && -n "$(flaky_from_report "$scratch/report.json")" ]]; then
        {
            echo "# source: the same json run: passed, with the failure messages of a retried try"
            flaky_from_report "$scratch/report.json"
        } >"$out/$case.flaky"
    fi
    echo "vitest/$case: $(grep -vc '^#' "$out/$case.expected" || true) failing"
}

capture failing vitest-failing --
capture failing-verbose vitest-failing -- --reporter=verbose
[[ $only == "  " ]] && cut_before_sections
capture failing-no-color vitest-failing NO_COLOR=1 --
capture failing-color vitest-failing FORCE_COLOR=1 --
capture load-failure vitest-broken --
capture no-tests vitest-empty --
capture no-tests-pass vitest-empty -- --passWithNoTests
capture lies vitest-lies --
capture all-pass vitest-pass --
# --retry under the verbose reporter and the default one: a test that fails
# once, then passes on its retry (vitest exits 0). vitest 4 prints `(retry
# x1)` under the verbose reporter only; the json reporter keeps the failed
# try's message on the passed test.
capture retry-verbose vitest-retry -- --retry 2 --reporter=verbose
capture retry vitest-retry -- --retry 2
if [[ -f $out/retry.flaky ]]; then
    sed -i '1a # report only: the default reporter shows no retry' "$out/retry.flaky"
fi
# Two files whose failing tests share a title: the same name twice, each in its file.
capture shared vitest-shared --
capture shared-verbose vitest-shared -- --reporter=verbose
