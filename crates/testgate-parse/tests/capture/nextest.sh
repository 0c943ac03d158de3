#!/usr/bin/env bash
# Recaptures tests/fixtures/nextest/*.log from real `cargo nextest run` runs
# over the fixture projects in tests/projects/parse/cargo/, and writes each
# case's .expected from the JUnit report of the same run (profile `ci` of the
# project's .config/nextest.toml), extracted with python3. No argument.
#
# A test that failed in any try is a failing test (testgate's retries exist
# to detect flakiness), so a JUnit testcase with <failure>, <error>,
# <flakyFailure> or <flakyError> counts. <case>.flaky, where there is one:
# the testcases with a flaky failure or error and no failure or error (a
# retry passed).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
projects="$root/tests/projects/parse/cargo"
out="$root/crates/testgate-parse/tests/fixtures/nextest"
mkdir -p "$out"

export CARGO_TARGET_DIR="${TMPDIR:-/tmp}/testgate-parse-fixtures-target"
export RUST_BACKTRACE=0 CARGO_TERM_COLOR=never
unset RUSTFLAGS NO_COLOR NEXTEST_RETRIES NEXTEST_PROFILE || true

# The failing names of a nextest JUnit report, one per line.
junit_failures() {
    python3 -c '
import sys
import xml.etree.ElementTree as ET
failing = {"failure", "error", "flakyFailure", "flakyError"}
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if any(child.tag in failing for child in case):
        print(case.get("name"))
' "$1"
}

# The flaky names of a nextest JUnit report (failed, then passed on a retry).
junit_flaky() {
    python3 -c '
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    tags = {child.tag for child in case}
    if tags & {"flakyFailure", "flakyError"} and not tags & {"failure", "error"}:
        print(case.get("name"))
' "$1"
}

# Every test's outcome in a nextest JUnit report, `OUTCOME NAME` per line:
# failed (a failure or error), flaky (failed, then passed on a retry),
# skipped, passed.
junit_outcomes() {
    python3 -c '
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    tags = {child.tag for child in case}
    if tags & {"failure", "error"}:
        what = "failed"
    elif tags & {"flakyFailure", "flakyError"}:
        what = "flaky"
    elif "skipped" in tags:
        what = "skipped"
    else:
        what = "passed"
    print(what, case.get("name"))
' "$1"
}

# capture CASE PROJECT [ENV=VALUE...] -- NEXTEST-ARGS...
capture() {
    local case="$1" project="$2"
    shift 2
    local env=()
    while [[ "$1" != "--" ]]; do env+=("$1"); shift; done
    shift
    local dir="$projects/$project"
    # nextest keeps its store (and the JUnit file) under the project's own
    # target/, whatever CARGO_TARGET_DIR says.
    local junit="$dir/target/nextest/ci/junit.xml"
    rm -f "$junit" "$dir/.flaky-counter"
    echo "nextest/$case: cargo nextest run --profile ci $*" >&2
    (cd "$dir" && env "${env[@]}" cargo nextest run --profile ci "$@" >"$out/$case.log" 2>&1) || true
    {
        if [[ -f "$junit" ]]; then
            echo "# source: nextest JUnit of this run (cargo nextest run --profile ci $*)"
            junit_failures "$junit"
        else
            echo "# source: nextest wrote no JUnit report: no test ran (cargo nextest run --profile ci $*)"
        fi
    } >"$out/$case.expected"
    rm -f "$out/$case.outcomes" "$out/$case.junit.xml"
    if [[ -f "$junit" ]]; then
        # The report itself, which `testgate parse` reads too.
        cp "$junit" "$out/$case.junit.xml"
        {
            echo "# source: nextest JUnit of this run (cargo nextest run --profile ci $*)"
            # nextest's default status level prints every test's result.
            echo "# complete"
            junit_outcomes "$junit"
        } >"$out/$case.outcomes"
    fi
    rm -f "$out/$case.flaky"
    if [[ -f "$junit" ]] && [[ -n "$(junit_flaky "$junit")" ]]; then
        {
            echo "# source: nextest JUnit of this run (cargo nextest run --profile ci $*): flaky testcases"
            junit_flaky "$junit"
        } >"$out/$case.flaky"
    fi
    rm -rf "$dir/target" "$dir/.flaky-counter"
}

for p in demo nextest empty; do (cd "$projects/$p" && cargo test --no-run -q >/dev/null 2>&1); done

# Plain failures over two binaries: FAIL lines, the closing summary.
capture fail demo --
# --fail-fast: nextest cancels the run after the first failure.
capture fail_fast demo -- --fail-fast --test-threads 1
# A test that fails once then passes (FLAKY), one that always fails.
capture retries nextest -- --retries 2 -E 'binary(flaky)'
# The flaky test alone: nextest passes the run (exit 0), FLAKY in its summary.
capture flaky_only nextest -- --retries 2 -E 'binary(flaky) & test(fails_once)'
# SIGABRT and SIGSEGV, long status names.
capture signals nextest -- -E 'binary(signals)'
# slow-timeout with terminate-after: TIMEOUT.
capture timeout nextest -- -E 'binary(slow)'
# A leak alone passes (LEAK); leak-timeout result = "fail" fails (LEAK-FAIL).
capture leak nextest -- -E 'binary(leaky)'
# A test that never ends, the run killed as a timeout kills it, after
# nextest said SLOW of it (slow-timeout 500ms for binary(hang) in profile
# ci). No JUnit is written when nextest is killed: .expected and .running
# come from nextest's libtest-json-plus messages of an identical killed run
# (NEXTEST_EXPERIMENTAL_LIBTEST_JSON=1): started without a result.
capture_killed() {
    local case="$1" project="$2" seconds="$3"
    shift 3
    local dir="$projects/$project"
    echo "nextest/$case: timeout -s KILL $seconds cargo nextest run --profile ci $*" >&2
    (cd "$dir" && timeout -s KILL "$seconds" cargo nextest run --profile ci "$@" >"$out/$case.log" 2>&1) || true
    local json
    json="$(cd "$dir" && NEXTEST_EXPERIMENTAL_LIBTEST_JSON=1 timeout -s KILL "$seconds" \
        cargo nextest run --profile ci --message-format libtest-json-plus "$@" 2>/dev/null || true)"
    local running
    running="$(python3 -c '
import json, sys
started, ended = [], set()
for line in sys.stdin:
    try:
        event = json.loads(line)
    except ValueError:
        continue
    if event.get("type") != "test":
        continue
    name = event["name"].split("$", 1)[-1].split("#", 1)[0]
    if event.get("event") == "started":
        started.append(name)
    else:
        ended.add(name)
for name in started:
    if name not in ended:
        print(name)
' <<<"$json")"
    {
        echo "# source: nextest libtest-json-plus of an identical run killed after ${seconds}s: no test ended failing"
    } >"$out/$case.expected"
    {
        echo "# source: the same libtest-json-plus: tests started and not ended"
        echo "$running"
    } >"$out/$case.running"
    rm -f "$out/$case.flaky"
    rm -rf "$dir/target"
}
capture_killed hang nextest 4 -E 'binary(hang)'

# Everything at once with a retry and colour: the short statuses of retries
# (TRY 2 SEGV, TRY 2 TMT, TRY 2 LKFAIL, ...).
capture colour nextest CARGO_TERM_COLOR=always -- --retries 1 --color always -E 'not binary(hang)'
# Passing tests, one printing fake failure lines with --no-capture.
capture lies nextest -- --no-capture -E 'test(liar) | test(=tests::doubles)'
capture all_pass demo -- -E 'test(=tests::adds) | binary(it) & test(passes)'
# No test at all.
capture no_tests empty --

sed -i -e "s|$CARGO_TARGET_DIR|/tmp/target|g" -e "s|$root|/repo|g" "$out"/*.log
