#!/usr/bin/env bash
# Recaptures tests/fixtures/gtest/*.log from real runs of the GoogleTest
# binary of tests/projects/parse/gtest (Debian's GoogleTest 1.12, cmake
# and g++: `apt-get install cmake g++ libgtest-dev`), built under /tmp,
# and of GoogleTest's own samples as Debian ships them (`samples`).
#
# Each case's .expected and .outcomes come from the XML report GoogleTest
# wrote in the same run (`GTEST_OUTPUT=xml:FILE`, kept as
# <case>.junit.xml): a testcase with a <failure> failed, one with
# <skipped> or `status="notrun"` (disabled) was skipped. Two cases say
# what the XML cannot: under --gtest_repeat GoogleTest writes the XML of
# the last iteration only, so `repeat`'s .flaky is the fixture's design
# (Flaky.SecondTime fails the first time it runs in a process), and a
# binary that aborts writes no XML, so `crash`'s names are those of the
# same filter's run without the abort plus the test it aborted in, whose
# RUN line has no result. No argument.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
project="$root/tests/projects/parse/gtest"
out="$crate/tests/fixtures/gtest"
work=/tmp/testgate-capture/gtest
rm -rf "$work"
mkdir -p "$work" "$out"
unset GTEST_OUTPUT GTEST_FILTER GTEST_BRIEF GTEST_REPEAT GTEST_TOTAL_SHARDS \
    GTEST_SHARD_INDEX GTEST_COLOR GTEST_FIXTURE || true
cmake -S "$project" -B "$work/build" >/dev/null
cmake --build "$work/build" >/dev/null
binary="$work/build/console_test"

outcomes_of() {
    python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    name = case.get("classname") + "." + case.get("name")
    if case.find("failure") is not None:
        what = "failed"
    elif case.find("skipped") is not None or case.get("status") == "notrun":
        what = "skipped"
    else:
        what = "passed"
    print(what, name)
PY
}

# GoogleTest's own samples 1 to 8 (Debian's /usr/src/googletest, the
# upstream project's tests: typed, type-parameterised, value-parameterised
# and Combine()d tests among them), built into one binary.
samples=/usr/src/googletest/googletest/samples
g++ -O0 -o "$work/samples_test" -I"$samples" \
    "$samples"/sample{1,2,4}.cc "$samples"/sample{1,2,3,4,5,6,7,8}_unittest.cc \
    -lgtest_main -lgtest -pthread

# The paths and times of the capture: the build dir as /tmp/build, the
# checkout as /src.
clean() {
    sed "s#$work/build#/tmp/build#g; s#$root/#/src/#g" "$1"
}

# capture CASE ENV-ASSIGNMENTS... -- BINARY-ARGS...
capture() {
    local case="$1"
    shift
    local assignments=()
    while [[ "$1" != "--" ]]; do
        assignments+=("$1")
        shift
    done
    shift
    local what="${assignments[*]:+${assignments[*]} }$(basename "${program:-$binary}") $*"
    echo "gtest/$case: $what" >&2
    rm -f "$work/report.xml"
    (cd "$work/build" && env "${assignments[@]}" GTEST_OUTPUT="xml:$work/report.xml" \
        "${program:-$binary}" "$@" >"$work/log" 2>&1) || true
    clean "$work/log" >"$out/$case.log"
    rm -f "$out/$case.flaky" "$out/$case.junit.xml"
    if [[ ! -f "$work/report.xml" ]]; then
        return 1
    fi
    clean "$work/report.xml" >"$out/$case.junit.xml"
    local outcomes
    outcomes="$(outcomes_of "$work/report.xml")"
    {
        echo "# source: GoogleTest's GTEST_OUTPUT=xml: of this run ($what)"
        grep -E '^failed ' <<<"$outcomes" | cut -d' ' -f2- || true
    } >"$out/$case.expected"
    {
        echo "# source: GoogleTest's GTEST_OUTPUT=xml: of this run ($what)"
        # --gtest_brief's console names only the failures.
        [[ "$case" == brief ]] || echo "# complete"
        echo "$outcomes"
    } >"$out/$case.outcomes"
}

# Every shape of name and result, the liar's forged lines among them.
capture default -- --gtest_color=no
# Failures' results and the closing only: no RUN, no list. Without the
# liar: under --gtest_brief its forged result cannot be told from a real
# one on the console (docs/formats.md; the XML report judges there).
capture brief -- --gtest_brief=1 --gtest_filter=-Liar.*
# One shard of two, as a sharding harness runs it.
capture shard GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=1 --
# Passing tests only, selected as testgate's retries select.
capture pass -- --gtest_filter=Calc.Adds:Calc.Skips:Num/1.FitsAByte
# No test selected.
capture no_tests -- --gtest_filter=Nothing.Here
# Two iterations: Flaky.SecondTime fails in the first, passes in the second.
capture repeat -- --gtest_repeat=2 --gtest_filter=Flaky.*:Calc.Adds
# The XML is the last iteration's: the flaky test's failure is the first's.
sed -i '/^passed Flaky.SecondTime$/s/^passed/flaky/' "$out/repeat.outcomes"
{
    echo "# source: the fixture's design (Flaky.SecondTime fails the first time it runs in a process); GoogleTest's XML keeps the last iteration only"
    echo "Flaky.SecondTime"
} >"$out/repeat.flaky"
# The upstream samples, every test passing.
program="$work/samples_test" capture samples -- --gtest_color=no
# An abort mid-test: no XML. The names: the same filter's run without the
# abort (its XML), plus the test that aborted.
capture crash_without_abort -- --gtest_filter=Calc.*
if capture crash GTEST_FIXTURE=crash -- --gtest_filter=Calc.*; then
    echo "gtest/crash: the binary wrote its XML: it did not abort" >&2
    exit 1
fi
{
    echo "# source: GoogleTest's XML of the same filter's run without the abort (crash_without_abort.junit.xml), and the test whose RUN line has no result"
    grep -v '^#' "$out/crash_without_abort.expected"
    echo "Calc.Crashes"
} >"$out/crash.expected"
{
    echo "# source: as crash.expected"
    grep -v '^#' "$out/crash_without_abort.outcomes" | sed 's/^passed Calc.Crashes$/running Calc.Crashes/'
} >"$out/crash.outcomes"
{
    echo "# source: the crash's console: Calc.Crashes's RUN line has no result"
    echo "Calc.Crashes"
} >"$out/crash.running"
rm -f "$out"/crash_without_abort.*
# Two binaries behind one wrapper, asked as testgate asks
# (`GTEST_OUTPUT=xml:DIR/`, a file for each binary): the samples pass and
# write samples_test.xml, the second aborts in Calc.Crashes and writes
# none. The names: the samples' file's failures (none) and crash's names
# (the same binary and filter); the log is the wrapper's console.
echo "gtest/wrapper_crash: sh -c 'samples_test; GTEST_FIXTURE=crash console_test --gtest_filter=Calc.*'" >&2
rm -rf "$work/reports"
(cd "$work/build" && GTEST_OUTPUT="xml:$work/reports/" sh -c \
    '"$1" --gtest_color=no; GTEST_FIXTURE=crash "$2" --gtest_filter=Calc.*' \
    sh "$work/samples_test" "$binary" >"$work/log" 2>&1) || true
clean "$work/log" >"$out/wrapper_crash.log"
if [[ "$(ls "$work/reports")" != samples_test.xml ]]; then
    echo "gtest/wrapper_crash: expected samples_test.xml alone in the report directory" >&2
    exit 1
fi
{
    echo "# source: the samples' GTEST_OUTPUT=xml:DIR/ file of this run (samples_test.xml), and crash.expected (the aborting binary writes no file)"
    outcomes_of "$work/reports/samples_test.xml" | grep -E '^failed ' | cut -d' ' -f2- || true
    grep -v '^#' "$out/crash.expected"
} >"$out/wrapper_crash.expected"
{
    echo "# source: as wrapper_crash.expected"
    outcomes_of "$work/reports/samples_test.xml"
    grep -v '^#' "$out/crash.outcomes"
} >"$out/wrapper_crash.outcomes"
cp "$out/crash.running" "$out/wrapper_crash.running"
