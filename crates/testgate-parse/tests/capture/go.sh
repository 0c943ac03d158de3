#!/usr/bin/env bash
# Reruns `go test` over the module tests/projects/parse/go/mod and rewrites
# tests/fixtures/go/<case>.log (stdout+stderr as they came) and
# <case>.expected: the `Test` of every test2json `fail` event of an identical
# `go test -json` run (the same run for the -json case), kept only where the
# package's own final event is `fail` too, or where no later `pass` of the
# test passed over it (go judges a package by its binary's exit status). go 1.19's test2json reads the
# test binary's text, so a passing test that prints `--- FAIL: TestFake`
# produces a fail event for TestFake; the package's final `pass` is what
# go itself decided. <case>.flaky, where there is one: the tests with both a
# `fail` and a `pass` event in one package (`-count=N`). <case>.running,
# where there is one: the tests with a `run` event and no result in a
# package that did not pass (a test that hung past -timeout), for -v and
# -json logs (plain output prints no `=== RUN`). <case>.crashes, where there
# is one: the packages whose final event is fail, with no `fail` event of a
# test and an output line starting `panic: ` (a binary a panic ended).
# ONLY=CASE captures only that case (and keeps the other fixtures).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
out="$crate/tests/fixtures/go"
# A fixed place, so that file paths in panic traces stay the same.
work=/tmp/testgate-capture/go
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$root/tests/projects/parse/go/mod" "$work/mod"

export GOCACHE="$work/cache" GOPATH="$work/gopath" GOFLAGS= GOPROXY=off \
    GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=0 GOWORK=off
unset GOARCH GOOS || true

extract='import json, sys
failed, verdict, order, ran, standing = [], {}, [], set(), set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not line.startswith("{"):
        continue  # go < 1.24: build errors are text even under -json
    event = json.loads(line)
    action, pkg, test = event.get("Action"), event.get("Package"), event.get("Test")
    if test is None and action in ("pass", "fail", "skip"):
        verdict[pkg] = action
    elif test is not None and action == "run":
        ran.add((pkg, test))
    elif test is not None and action == "fail" and (pkg, test) in ran:
        # go 1.19 test2json turns a printed `--- FAIL:` into a fail event;
        # only a test go ran (its `run` event) can fail.
        failed.append((pkg, test))
        standing.add((pkg, test))
    elif test is not None and action == "pass":
        standing.discard((pkg, test))
seen = set()
for pkg, test in failed:
    # go judges a package by its binary exit status: a failure no later
    # pass of its test passed over stands in a package that "passed" too.
    kept = verdict.get(pkg) == "fail" or (pkg, test) in standing
    if kept and test not in seen:
        seen.add(test)
        print(test)'

flaky='import json, sys
outcomes, order = {}, []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not line.startswith("{"):
        continue
    event = json.loads(line)
    test, action = event.get("Test"), event.get("Action")
    if test is None or action not in ("pass", "fail"):
        continue
    key = (event.get("Package"), test)
    if key not in outcomes:
        outcomes[key] = set()
        order.append(key)
    outcomes[key].add(action)
seen = set()
for key in order:
    if outcomes[key] == {"pass", "fail"} and key[1] not in seen:
        seen.add(key[1])
        print(key[1])'

crashes='import json, sys
verdict, named, panicked, order = {}, set(), set(), []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not line.startswith("{"):
        continue
    event = json.loads(line)
    action, pkg, test = event.get("Action"), event.get("Package"), event.get("Test")
    if pkg not in order:
        order.append(pkg)
    if test is None and action in ("pass", "fail", "skip"):
        verdict[pkg] = action
    elif test is not None and action == "fail":
        named.add(pkg)
    elif action == "output" and event.get("Output", "").startswith("panic: "):
        panicked.add(pkg)
for pkg in order:
    if verdict.get(pkg) == "fail" and pkg in panicked and pkg not in named:
        print(pkg)'

running='import json, sys
started, ended, verdict, order, standing = {}, set(), {}, [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not line.startswith("{"):
        continue
    event = json.loads(line)
    action, pkg, test = event.get("Action"), event.get("Package"), event.get("Test")
    if test is None:
        if action in ("pass", "fail", "skip"):
            verdict[pkg] = action
        continue
    if action == "run" and (pkg, test) not in started:
        started[(pkg, test)] = True
        order.append((pkg, test))
    elif action in ("pass", "fail", "skip"):
        ended.add((pkg, test))
        if action == "fail" and (pkg, test) in started:
            standing.add((pkg, test))
        elif action == "pass":
            standing.discard((pkg, test))
# A package that "passed" over a standing failure did not pass.
for pkg, _ in standing:
    verdict[pkg] = "fail"
for key in order:
    if key not in ended and verdict.get(key[0]) != "pass":
        print(key[1])'

# Every test'"'"'s outcome, `OUTCOME NAME` per line: flaky (a fail and a pass in
# one package), then running (as above), then failed (a fail event in a
# package whose final event is fail, or that no later pass of the test
# passed over), then its last pass or skip; a fail event of a test that
# never ran was printed by a test and gives nothing.
outcomes='import json, sys
seen, verdict, order = {}, {}, []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not line.startswith("{"):
        continue
    event = json.loads(line)
    action, pkg, test = event.get("Action"), event.get("Package"), event.get("Test")
    if test is None:
        if action in ("pass", "fail", "skip"):
            verdict[pkg] = action
        continue
    if action not in ("run", "pass", "fail", "skip"):
        continue
    if action != "run" and (pkg, test) not in seen:
        continue  # a printed result line of a test go never ran
    if (pkg, test) not in seen:
        seen[(pkg, test)] = []
        order.append((pkg, test))
    seen[(pkg, test)].append(action)
# A package that "passed" over a standing failure (a fail event of a test
# that ran, no pass of it since) did not pass: go judged its exit status.
for (pkg, test), actions in seen.items():
    ends = [a for a in actions if a in ("pass", "fail")]
    if ends and ends[-1] == "fail":
        verdict[pkg] = "fail"
rank = {"flaky": 4, "running": 3, "failed": 2}
result = {}
for key in order:
    pkg, test = key
    actions = seen[key]
    ends = [a for a in actions if a != "run"]
    if "fail" in ends and "pass" in ends:
        what = "flaky"
    elif actions.count("run") > len(ends) and verdict.get(pkg) != "pass":
        what = "running"
    elif "fail" in ends and verdict.get(pkg) == "fail":
        what = "failed"
    else:
        last = [a for a in ends if a != "fail"]
        if not last:
            continue
        what = {"pass": "passed", "skip": "skipped"}[last[-1]]
    if test not in result or rank.get(what, 0) > rank.get(result[test], 0):
        result[test] = what
for test, what in result.items():
    print(what, test)'

# capture CASE GO-TEST-ARGS... : the log from `go test ARGS`, the names from
# `go test -json ARGS-without--v` (or the same run when ARGS has -json).
# With -v=test2json (the test binaries' ^V framing, which testgate converts
# as -json would: GoFraming) the log is <case>.framing, not a .log: the
# console's parser does not read it unconverted.
capture() {
    local case="$1"
    shift
    if [[ -n "${ONLY:-}" && "$case" != "$ONLY" ]]; then return 0; fi
    local json="$work/$case.json"
    local log="$out/$case.log"
    if [[ " $* " == *" -v=test2json "* ]]; then log="$out/$case.framing"; fi
    (cd "$work/mod" && go test "$@" >"$log" 2>&1) || true
    local source
    if [[ " $* " == *" -json "* ]]; then
        cp "$out/$case.log" "$json"
        source="go test $*: fail events of this run"
    else
        local args=()
        local a
        for a in "$@"; do [[ "$a" == "-v" || "$a" == "-v=test2json" ]] || args+=("$a"); done
        (cd "$work/mod" && go test -json "${args[@]}" >"$json" 2>/dev/null) || true
        source="go test -json ${args[*]} (second identical run): fail events"
    fi
    {
        echo "# source: $source with Test, in packages whose final event is fail; log: go test $*"
        python3 -c "$extract" "$json"
    } >"$out/$case.expected"
    {
        echo "# source: $source: every test's outcome; log: go test $*"
        # -v and -json print every test's result; plain output only failures.
        if [[ " $* " == *" -v "* || " $* " == *" -json "* || " $* " == *" -v=test2json "* ]]; then echo "# complete"; fi
        python3 -c "$outcomes" "$json"
    } >"$out/$case.outcomes"
    rm -f "$out/$case.running"
    local hung=""
    if [[ " $* " == *" -v "* || " $* " == *" -json "* || " $* " == *" -v=test2json "* ]]; then
        hung="$(python3 -c "$running" "$json")"
    fi
    if [[ -n "$hung" ]]; then
        {
            echo "# source: $source: tests with a run event and no result, in packages that did not pass; log: go test $*"
            echo "$hung"
        } >"$out/$case.running"
    fi
    rm -f "$out/$case.crashes"
    local died
    died="$(python3 -c "$crashes" "$json")"
    if [[ -n "$died" ]]; then
        {
            echo "# source: $source: packages that failed with a panic and no test's fail event; log: go test $*"
            echo "$died"
        } >"$out/$case.crashes"
    fi
    rm -f "$out/$case.flaky"
    local names
    names="$(python3 -c "$flaky" "$json")"
    if [[ -n "$names" ]]; then
        {
            echo "# source: $source: tests with both a fail and a pass event in one package; log: go test $*"
            echo "$names"
        } >"$out/$case.flaky"
    fi
}

capture plain -count=1 ./...
capture verbose -count=1 -v ./...
capture json -count=1 -json ./...
capture parallel_verbose -count=1 -v ./parallel
capture panic -count=1 ./panics
capture panic_verbose -count=1 -v ./panics
capture build_failure -count=1 ./buildfail ./allpass
capture setup_failure -count=1 ./setupfail ./allpass
capture json_build_failure -count=1 -json ./buildfail ./setupfail ./failing
capture fake_lines_verbose -count=1 -v ./liar
capture fake_lines_json -count=1 -json ./liar
# A forged failure of a test that never ran, in a package that really fails
# (behind a tag: plain output, without -v, cannot tell it from a real one).
capture fake_lines_failing_verbose -count=1 -v -tags liarfail ./liarfail
capture fake_lines_failing_json -count=1 -json -tags liarfail ./liarfail
capture no_test_files -count=1 ./notests
# -count=3: a test that fails on its first run and passes on the others.
capture count_flaky_verbose -count=3 -v ./flaky
capture count_flaky_json -count=3 -json ./flaky
# (Without -v or -json go prints only the failed run: nothing tells the
# flake from a steady failure. docs/formats.md says so.)
# go 1.19 names no test when one hangs past -timeout: neither text nor JSON.
capture timeout_verbose -count=1 -v -tags timeout -timeout 1s ./timeout
capture no_tests_to_run -count=1 -v -run NoSuchTest ./allpass ./notests
# A panic in a goroutine a test started kills the binary with no `--- FAIL:`
# line and no test's fail event: the package fails naming no test, and the
# report's crash says which test was running (-v, -json) and which test
# started the goroutine (the trace's `created by`).
capture goroutine_panic -count=1 ./goroutinepanic
capture goroutine_panic_verbose -count=1 -v ./goroutinepanic
capture goroutine_panic_json -count=1 -json ./goroutinepanic
# A failing test, then one that prints `PASS`/`ok` and calls
# syscall.Exit(0): plain go says `ok`; the events keep TestA's failure
# and TestZ's run without a result.
capture exit0_forged_json -count=1 -json -tags exitearly ./exitearly
# The test binaries' ^V framing (`go test -v=test2json`, go 1.20+), which
# testgate asks for instead of -json and converts itself (GoFraming); the
# names from a second identical -json run.
capture framing -count=1 -v=test2json ./...
capture fake_lines_framing -count=1 -v=test2json ./liar
capture fake_lines_failing_framing -count=1 -v=test2json -tags liarfail ./liarfail
capture count_flaky_framing -count=3 -v=test2json ./flaky
capture goroutine_panic_framing -count=1 -v=test2json ./goroutinepanic
capture exit0_forged_framing -count=1 -v=test2json -tags exitearly ./exitearly
capture timeout_framing -count=1 -v=test2json -tags timeout -timeout 1s ./timeout
capture framing_build_failure -count=1 -v=test2json ./buildfail ./setupfail ./failing
capture no_tests_to_run_framing -count=1 -v=test2json -run NoSuchTest ./allpass ./notests
# Warm the cache, then capture the cached run.
if [[ -z "${ONLY:-}" || "$ONLY" == all_pass_cached ]]; then
    (cd "$work/mod" && go test ./allpass >/dev/null 2>&1) || true
fi
capture all_pass_cached ./allpass
echo "go fixtures written to $out"
