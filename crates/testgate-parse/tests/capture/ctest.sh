#!/usr/bin/env bash
# Recaptures tests/fixtures/ctest/*.log from real ctest runs over
# tests/projects/parse/ctest/basic (Debian's cmake 3.25 and gcc: `apt-get
# install cmake gcc make`) and tests/projects/parse/ctest/gtest (GoogleTest
# 1.12 through gtest_discover_tests: `apt-get install g++ libgtest-dev`),
# configured and built into a build dir under /tmp.
#
# Each case's .expected and .outcomes come from the JUnit file ctest wrote
# in the same run (`--output-junit`, kept as <case>.junit.xml): a testcase
# with status `fail` failed, `notrun`/`disabled` was skipped. ctest's JUnit
# file records only a repeated test's last result, so the tests that
# failed and then passed (`--repeat until-pass:N`) come from the same run's
# Testing/Temporary/LastTest.log, which records every attempt: a `.flaky`
# file, and `flaky` in .outcomes. No argument.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
project="$root/tests/projects/parse/ctest/basic"
out="$crate/tests/fixtures/ctest"
work=/tmp/testgate-capture/ctest
rm -rf "$work"
mkdir -p "$work" "$out"
unset CTEST_OUTPUT_ON_FAILURE CTEST_PARALLEL_LEVEL || true

configure() {
    rm -rf "$work/build"
    cmake -S "$project" -B "$work/build" "$@" >/dev/null
    cmake --build "$work/build" >/dev/null
}

# The flaky tests of LastTest.log: a `Test Failed.` then a `Test Passed.`
# for one name.
flaky_of() {
    python3 - "$1" <<'PY'
import re, sys
failed, flaky, name = set(), [], None
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"^\d+/\d+ Test: (.*)$", line.rstrip("\n"))
    if m:
        name = m.group(1)
    elif line.startswith("Test Failed.") and name:
        failed.add(name)
    elif line.startswith("Test Passed.") and name in failed and name not in flaky:
        flaky.append(name)
for name in flaky:
    print(name)
PY
}

outcomes_of() {
    python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET
flaky = set(open(sys.argv[2]).read().split("\n")) - {""}
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    status, name = case.get("status"), case.get("name")
    what = {"fail": "failed", "run": "passed"}.get(status, "skipped")
    if name in flaky and what == "passed":
        what = "flaky"
    print(what, name)
PY
}

# capture CASE CTEST-ARGS...
capture() {
    local case="$1"
    shift
    local what="ctest $*"
    rm -f "$work/build/flaky.flag" "$work/junit.xml"
    rm -rf "$work/build/Testing"
    echo "ctest/$case: $what" >&2
    (cd "$work/build" && ctest --output-junit "$work/junit.xml" "$@" >"$work/log" 2>&1) || true
    # The build dir's and the checkout's paths are the capture's: written as
    # /tmp/build and /src.
    sed "s#$work/build#/tmp/build#g; s#$root/#/src/#g" "$work/log" >"$out/$case.log"
    flaky_of "$work/build/Testing/Temporary/LastTest.log" >"$work/flaky"
    local outcomes
    outcomes="$(outcomes_of "$work/junit.xml" "$work/flaky")"
    {
        echo "# source: ctest's --output-junit of this run ($what)"
        grep -E '^failed ' <<<"$outcomes" | cut -d' ' -f2- || true
    } >"$out/$case.expected"
    {
        echo "# source: ctest's --output-junit of this run ($what), LastTest.log for the retries"
        echo "# complete"
        echo "$outcomes"
    } >"$out/$case.outcomes"
    rm -f "$out/$case.flaky"
    if [[ -s "$work/flaky" ]]; then
        {
            echo "# source: Testing/Temporary/LastTest.log of this run ($what)"
            cat "$work/flaky"
        } >"$out/$case.flaky"
    fi
    sed "s#$work/build#/tmp/build#g; s#$root/#/src/#g" "$work/junit.xml" >"$out/$case.junit.xml"
}

configure
# Every shape of the project, ctest's default console.
capture default
# The failing tests' output shown: the forger's summary and list among it.
capture output_on_failure --output-on-failure
# Every test's output, each line prefixed `N: `: the liar's lines among it.
capture verbose -V
# ctest's own retries: the flaky test passes on its second try.
capture repeat --repeat until-pass:3 --output-on-failure
# Two at a time: results out of order.
capture parallel -j2
# One test passing, selected as testgate's retries select.
capture pass -R '^math\.adds$'
# No test selected.
capture no_tests -R '^nothing$'
# A test killed by its TIMEOUT.
configure -DHANG=1
capture timeout -R 'hangs|math'
# GoogleTest's tests run by ctest (gtest_discover_tests): ctest's names.
project="$root/tests/projects/parse/ctest/gtest"
configure
capture gtest_discovered --output-on-failure
