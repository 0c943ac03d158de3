#!/usr/bin/env bash
# Reruns pytest over tests/projects/parse/pytest/* and rewrites
# tests/fixtures/pytest/<case>.log (stdout+stderr as they came) and
# <case>.expected (the failing node ids as pytest's own reports record them:
# a tiny plugin loaded with -p writes `report.nodeid` of every failed test
# report and collection report of the same run), and <case>.flaky where a
# test was rerun (pytest-rerunfailures' `rerun` reports) and then passed.
# Needs pytest-rerunfailures (pip install pytest-rerunfailures).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/pytest"
out="$crate/tests/fixtures/pytest"
# A fixed place, so that the rootdir line of the logs does not change from
# one capture to the next.
work=/tmp/testgate-capture/pytest
rm -rf "$work"
mkdir -p "$work/plugin" "$out"
cp -r "$projects"/. "$work/"
# The hostile suite of a forged Pass, captured as it is.
cp -r "$root/tests/hostile/exits-early-pytest" "$work/exits_early"

cat >"$work/plugin/tg_record.py" <<'PY'
"""Records pytest's own verdicts: the node id of every failed report, and
of every test that passed after a `rerun` report (pytest-rerunfailures)."""
import os

RERUN = set()


def _record(nodeid, variable="TG_RECORD"):
    with open(os.environ[variable], "a", encoding="utf-8") as f:
        f.write(nodeid + "\n")


def pytest_runtest_logstart(nodeid, location):
    if "TG_RUNNING" in os.environ:
        _record("+" + nodeid, "TG_RUNNING")


def pytest_runtest_logfinish(nodeid, location):
    if "TG_RUNNING" in os.environ:
        _record("-" + nodeid, "TG_RUNNING")


def pytest_runtest_logreport(report):
    if "TG_OUTCOMES" in os.environ:
        xfail = int(hasattr(report, "wasxfail"))
        _record(f"{report.when} {report.outcome} {xfail} {report.nodeid}", "TG_OUTCOMES")
    if report.failed:
        _record(report.nodeid)
    elif report.outcome == "rerun":
        RERUN.add(report.nodeid)
    elif report.when == "call" and report.passed and report.nodeid in RERUN:
        _record(report.nodeid, "TG_FLAKY")


def pytest_collectreport(report):
    if report.failed:
        _record(report.nodeid)
        if "TG_OUTCOMES" in os.environ:
            _record(f"collect failed 0 {report.nodeid}", "TG_OUTCOMES")
PY

# Stable output: 80 columns, no CI detection (it changes how the short
# summary trims messages), no bytecode or cache written into the projects.
export COLUMNS=80 PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0
export PYTHONPATH="$work/plugin"
unset CI BUILD_NUMBER PYTEST_ADDOPTS PYTEST_XDIST_AUTO_NUM_WORKERS || true

# The recorded names, deduplicated, first appearance first (a test failing
# in call and erroring in teardown has two reports).
dedupe() {
    python3 -c 'import sys
seen = set()
for line in open(sys.argv[1], encoding="utf-8"):
    name = line.rstrip("\n")
    if name and name not in seen:
        seen.add(name)
        print(name)' "$1"
}

# CASE.running: the ids the plugin saw start (pytest_runtest_logstart) and
# not finish, written as they happen (none: no file).
write_running() {
    local case="$1" events="$2" what="$3" names
    rm -f "$out/$case.running"
    names="$(python3 -c 'import sys
started, done = [], set()
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("+"):
        started.append(line[1:])
    elif line.startswith("-"):
        done.add(line[1:])
for nodeid in started:
    if nodeid not in done:
        print(nodeid)' "$events")"
    if [[ -n "$names" ]]; then
        {
            echo "# source: $what: ids the plugin saw start and not finish, same run"
            echo "$names"
        } >"$out/$case.running"
    fi
}

# CASE.outcomes: every test's outcome from the plugin's reports (`WHEN
# OUTCOME WASXFAIL NODEID`) and start/finish events: flaky (rerun, then
# passed), running (started, not finished), failed (a failed call), error (a
# failed setup, teardown or collection), xfailed/xpassed, skipped, passed.
# `# complete` where the console names every test (see names_every_test).
write_outcomes() {
    local case="$1" reports="$2" events="$3" what="$4" complete="$5"
    {
        echo "# source: $what: every test's outcome from its reports via a -p plugin, same run"
        [[ "$complete" == yes ]] && echo "# complete"
        python3 -c 'import sys
result, order, rerun = {}, [], set()
def put(nodeid, what):
    if nodeid not in result:
        order.append(nodeid)
    result[nodeid] = what
for line in open(sys.argv[1], encoding="utf-8"):
    when, outcome, xfail, nodeid = line.rstrip("\n").split(" ", 3)
    now = result.get(nodeid)
    if outcome == "rerun":
        rerun.add(nodeid)
    elif when == "collect":
        put(nodeid, "error")
    elif when == "call" and outcome == "failed":
        put(nodeid, "failed")
    elif outcome == "failed":
        if now != "failed":
            put(nodeid, "error")
    elif when == "call" and outcome == "passed":
        # A test whose subtest failed (a failed call report of its id
        # before its own) failed, whatever its own report says.
        if now != "failed":
            put(nodeid, "flaky" if nodeid in rerun else ("xpassed" if xfail == "1" else "passed"))
    elif outcome == "skipped":
        put(nodeid, "xfailed" if xfail == "1" else "skipped")
started, done = [], set()
for line in open(sys.argv[2], encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("+"):
        started.append(line[1:])
    elif line.startswith("-"):
        done.add(line[1:])
for nodeid in started:
    if nodeid not in done:
        put(nodeid, "running")
for nodeid in order:
    print(result[nodeid], nodeid)' "$reports" "$events"
    } >"$out/$case.outcomes"
}

# Whether pytest ARGS print every test's result on the console: -v or -vv,
# without -s (a test's output lands between its id and its result). -rA
# names skipped tests by file and line only.
names_every_test() {
    local a verbose=1
    for a in "$@"; do
        case "$a" in
        -v | -vv) verbose=0 ;;
        -s | --capture=no) return 1 ;;
        esac
    done
    return $verbose
}

# capture CASE PROJECT [PYTEST ARGS...]
capture() {
    local case="$1" project="$2"
    shift 2
    local record="$work/$case.record" flaky="$work/$case.flaky" events="$work/$case.events"
    local reports="$work/$case.reports" complete=no
    : >"$record"
    : >"$flaky"
    : >"$events"
    : >"$reports"
    (cd "$work/$project" && TG_RECORD="$record" TG_FLAKY="$flaky" TG_RUNNING="$events" \
        TG_OUTCOMES="$reports" \
        python3 -m pytest -p no:cacheprovider -p tg_record "$@" >"$out/$case.log" 2>&1) || true
    write_running "$case" "$events" "pytest $* (project $project)"
    names_every_test "$@" && complete=yes
    write_outcomes "$case" "$reports" "$events" "pytest $* (project $project)" "$complete"
    {
        echo "# source: pytest $* (project $project); names: report.nodeid of failed reports via a -p plugin, same run"
        dedupe "$record"
    } >"$out/$case.expected"
    rm -f "$out/$case.flaky"
    if [[ -s "$flaky" ]]; then
        {
            echo "# source: pytest $* (project $project); names: report.nodeid of a passed call after a rerun report, same run"
            dedupe "$flaky"
        } >"$out/$case.flaky"
    fi
}

# capture_junit CASE PROJECT [PYTEST ARGS...]: CASE.junit.xml, pytest's own
# --junitxml report of a run identical to CASE's (which `testgate parse`
# reads too); its names are checked against CASE.expected.
capture_junit() {
    local case="$1" project="$2"
    shift 2
    rm -f "$out/$case.junit.xml"
    (cd "$work/$project" && python3 -m pytest -p no:cacheprovider "$@" \
        --junitxml="$out/$case.junit.xml" >/dev/null 2>&1) || true
}

capture default suite
capture verbose suite -v
capture very_verbose suite -vv
capture quiet suite -q
capture report_all suite -rA
capture color suite --color=yes
capture capture_off_verbose suite -s -v
capture xdist suite -n 2 -p xdist
capture xdist_verbose suite -n 2 -v -p xdist
capture collection_error broken
capture collection_error_quiet broken -q
capture no_tests empty
capture no_tests_quiet empty -q
capture all_pass allpass -v
# A forged Pass by exiting early (tests/hostile/exits-early-pytest): a test
# fails, the next ends pytest with os._exit(0) before any summary.
capture exits_early_verbose exits_early -v
# pytest-rerunfailures: a test that passes on its rerun (exit 0), named with
# -v, only counted (`1 rerun`) with -q; then with one that always fails.
capture rerun_verbose rerun -v --reruns 2 -p rerunfailures test_rerun.py
capture rerun_quiet rerun -q --reruns 2 -p rerunfailures test_rerun.py
capture rerun_fail rerun -v --reruns 1 -p rerunfailures
# Verbose lines alone (no short summary), and pytest's default \x escaping of
# non-ASCII parametrize ids.
capture verbose_no_summary suite -v -rN
capture escaped_ids suite -o disable_test_id_escaping_and_forfeit_all_rights_to_community_support=false
# Subtests: a failed unittest subTest under a PASSED test, the subtests
# fixture's; verbose, default and under xdist.
capture subtests_verbose subtests -v
capture subtests subtests
capture subtests_xdist_verbose subtests -n 2 -v -p xdist
# A CI log: two pytest sessions, one after the other, in one log.
capture_two() {
    local case=two_sessions record="$work/two_sessions.record"
    : >"$record"
    {
        (cd "$work/broken" && TG_RECORD="$record" TG_FLAKY=/dev/null python3 -m pytest -p no:cacheprovider -p tg_record -q) || true
        (cd "$work/suite" && TG_RECORD="$record" TG_FLAKY=/dev/null python3 -m pytest -p no:cacheprovider -p tg_record -v) || true
    } >"$out/$case.log" 2>&1
    {
        echo "# source: pytest -q (project broken) then pytest -v (project suite) in one log; names: report.nodeid of failed reports via a -p plugin, same runs"
        dedupe "$record"
    } >"$out/$case.expected"
}
capture_two

# A test that hangs, pytest killed as a timeout kills it.
capture_killed() {
    local case="$1" project="$2" seconds="$3"
    shift 3
    local record="$work/$case.record" events="$work/$case.events" reports="$work/$case.reports"
    : >"$record"
    : >"$events"
    : >"$reports"
    (cd "$work/$project" && TG_RECORD="$record" TG_FLAKY=/dev/null TG_RUNNING="$events" \
        TG_OUTCOMES="$reports" \
        timeout -s KILL "$seconds" python3 -m pytest -p no:cacheprovider -p tg_record "$@" >"$out/$case.log" 2>&1) || true
    write_outcomes "$case" "$reports" "$events" "pytest $* (project $project), killed after ${seconds}s" yes
    {
        echo "# source: pytest $* (project $project), killed after ${seconds}s; names: report.nodeid of failed reports via a -p plugin, same run"
        dedupe "$record"
    } >"$out/$case.expected"
    write_running "$case" "$events" "pytest $* (project $project), killed after ${seconds}s"
}
capture_killed hang_verbose hang 5 -v
capture_junit default suite
capture_junit verbose suite -v
capture_junit collection_error broken
echo "pytest fixtures written to $out"
