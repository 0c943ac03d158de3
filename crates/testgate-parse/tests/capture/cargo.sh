#!/usr/bin/env bash
# Recaptures tests/fixtures/cargo/*.log from real `cargo test` runs over the
# fixture projects in tests/projects/parse/cargo/, and writes each case's
# .expected from libtest's JSON output (`--format json -Z unstable-options`)
# of an identical second run, extracted with python3. No argument.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
projects="$root/tests/projects/parse/cargo"
out="$root/crates/testgate-parse/tests/fixtures/cargo"
mkdir -p "$out"

# Builds land outside the repository; a stable environment keeps logs stable.
export CARGO_TARGET_DIR="${TMPDIR:-/tmp}/testgate-parse-fixtures-target"
export RUST_BACKTRACE=0 CARGO_TERM_COLOR=never
unset RUSTFLAGS CARGO_BUILD_JOBS RUST_TEST_THREADS NO_COLOR || true

# Names from libtest JSON lines on stdin, one per line: with `failures`,
# the failing tests and those a dying binary had in flight; with `running`,
# only those in flight (started, no result).
json_names() {
    python3 -c '
import json, sys
in_flight = []
for line in sys.stdin:
    # Under --nocapture an event can follow printed text on its line.
    start = line.find("{")
    while start >= 0:
        try:
            event = json.loads(line[start:])
            break
        except ValueError:
            start = line.find("{", start + 1)
    if start < 0 or not isinstance(event, dict):
        continue
    kind, what = event.get("type"), event.get("event")
    if kind == "suite":
        # A suite that starts before the last one ended: that binary died,
        # and the tests it had started and not ended died with it.
        for name in in_flight:
            print(name)
        in_flight = []
    elif kind == "test" and what == "started":
        in_flight.append(event["name"])
    elif kind == "test" and what in ("ok", "failed", "ignored"):
        in_flight = [n for n in in_flight if n != event["name"]]
        if what == "failed" and sys.argv[1] == "failures":
            print(event["name"])
for name in in_flight:
    print(name)
' "$1"
}

# Every test's outcome from libtest JSON lines on stdin, `OUTCOME NAME` per
# line (passed, failed, skipped, running): a test started and not ended is
# running, then one that failed in any binary failed, then its last result.
json_outcomes() {
    python3 -c '
import json, sys
outcome, in_flight = {}, []
def settle(names):
    for name in names:
        outcome[name] = "running"
for line in sys.stdin:
    start = line.find("{")
    while start >= 0:
        try:
            event = json.loads(line[start:])
            break
        except ValueError:
            start = line.find("{", start + 1)
    if start < 0 or not isinstance(event, dict):
        continue
    kind, what = event.get("type"), event.get("event")
    if kind == "suite":
        settle(in_flight)
        in_flight = []
    elif kind == "test" and what == "started":
        in_flight.append(event["name"])
    elif kind == "test" and what in ("ok", "failed", "ignored"):
        name = event["name"]
        in_flight = [n for n in in_flight if n != name]
        if outcome.get(name) in ("running", "failed"):
            continue
        outcome[name] = {"ok": "passed", "failed": "failed", "ignored": "skipped"}[what]
settle(in_flight)
for name, what in outcome.items():
    print(what, name)
'
}

# CASE.outcomes from a run's libtest JSON: libtest's text output names every
# test it runs, so the list is complete. TARGETS (optional): failed targets
# libtest named no test of (see target_failures), each `failed SELECTOR`.
write_outcomes() {
    local case="$1" json="$2" what="$3" targets="${4:-}"
    {
        echo "# source: $what"
        echo "# complete"
        json_outcomes <<<"$json"
        if [[ -n "$targets" ]]; then sed 's/^/failed /' <<<"$targets"; fi
    } >"$out/$case.outcomes"
}

# The targets cargo said failed (`error: test failed, to rerun pass `SEL``
# in the STDERR file of a run) that libtest names no failing test of, one
# selector a line: each is run alone with libtest's JSON, and counts only if
# that run fails (a target can print cargo's line and pass: its exit status
# is the proof) and its JSON names no failing or dying test (a target
# without libtest's harness prints none).
target_failures() {
    local project="$1" stderr="$2"
    shift 2
    local harness=("$@") sel alone rc
    { grep -o 'to rerun pass `[^`]*`' "$stderr" || true; } | sed -e 's/^to rerun pass `//' -e 's/`$//' | awk '!seen[$0]++' |
        while IFS= read -r sel; do
            rc=0
            # shellcheck disable=SC2086 # a selector is words: --test it
            alone="$(cd "$projects/$project" && RUSTC_BOOTSTRAP=1 cargo test $sel -- "${harness[@]}" --format json -Z unstable-options 2>/dev/null)" || rc=$?
            if [[ $rc -ne 0 && -z "$(json_names failures <<<"$alone")" ]]; then
                echo "$sel"
            fi
        done
}

# capture CASE PROJECT [ENV=VALUE...] -- CARGO-TEST-ARGS... [-- HARNESS-ARGS...]
# Runs `cargo test ARGS` in PROJECT into CASE.log, then the same with
# libtest's JSON format added to the harness arguments, into CASE.expected.
capture() {
    local case="$1" project="$2"
    shift 2
    local env=()
    while [[ "$1" != "--" ]]; do env+=("$1"); shift; done
    shift
    local args=("$@") harness=()
    local i
    for i in "${!args[@]}"; do
        if [[ "${args[$i]}" == "--" ]]; then
            harness=("${args[@]:$((i + 1))}")
            args=("${args[@]:0:$i}")
            break
        fi
    done
    # KILL_AFTER=SECONDS: the run (and the JSON run) killed then, as a
    # timeout kills it.
    local kill=()
    [[ -n "${KILL_AFTER:-}" ]] && kill=(timeout -s KILL "$KILL_AFTER")
    echo "cargo/$case: ${kill[*]} cargo test ${args[*]} -- ${harness[*]}" >&2
    (cd "$projects/$project" && env "${env[@]}" "${kill[@]}" cargo test "${args[@]}" -- "${harness[@]}" >"$out/$case.log" 2>&1) || true
    local json stderr targets
    stderr="$(mktemp)"
    json="$(cd "$projects/$project" && RUSTC_BOOTSTRAP=1 "${kill[@]}" cargo test "${args[@]}" -- "${harness[@]}" --format json -Z unstable-options 2>"$stderr" || true)"
    targets="$(target_failures "$project" "$stderr" "${harness[@]}")"
    rm -f "$stderr"
    {
        echo "# source: libtest JSON of an identical run: ${kill[*]} RUSTC_BOOTSTRAP=1 cargo test ${args[*]} -- ${harness[*]} --format json -Z unstable-options"
        if [[ -n "$targets" ]]; then
            echo "# and the targets its cargo said failed that fail alone with no failing test in their libtest JSON"
        fi
        json_names failures <<<"$json"
        if [[ -n "$targets" ]]; then echo "$targets"; fi
    } >"$out/$case.expected"
    write_running "$case" "$json"
    write_outcomes "$case" "$json" "libtest JSON of the .expected run" "$targets"
}

# CASE.running from a run's libtest JSON, where a test started and never
# ended (none: no file).
write_running() {
    local case="$1" json="$2" names
    rm -f "$out/$case.running"
    names="$(json_names running <<<"$json")"
    if [[ -n "$names" ]]; then
        {
            echo "# source: the libtest JSON of the .expected run: tests started and not ended"
            echo "$names"
        } >"$out/$case.running"
    fi
}


# Build everything once so that the logs hold no `Compiling` lines.
for p in demo empty nextest ../../../hostile/exits-early-cargo hang harness; do (cd "$projects/$p" && cargo test --no-run -q >/dev/null 2>&1); done

# Three binaries (unit tests, tests/it.rs, doctests), should_panic, a liar
# whose fake failure lines stay captured.
capture several_binaries demo -- --no-fail-fast
# The default: cargo stops after the first binary that fails.
capture fail_fast demo --
capture doctest demo -- --doc
# Output printed without a newline lands mid-line; the liar's fake lines
# (`test fake ... FAILED`) reach the log and the `failures:` list drops them.
capture nocapture demo -- --lib -- --nocapture --test-threads=1
# Only passing tests, one printing fake failures: `test result: ok` wins.
capture lies demo -- --lib -- --nocapture --test-threads=1 liar prints_no_newline adds
capture colour demo CARGO_TERM_COLOR=always -- --no-fail-fast -- --color always
# Every test filtered out, in every binary.
capture filtered_out demo -- --no-fail-fast -- no_such_test
capture zero_tests empty --
# A test that aborts kills its binary: no result, no `failures:` list; the
# test in flight is the one that failed.
capture crash nextest -- --test signals -- --test-threads=1 aborts
capture compile_error broken --
# A forged Pass by exiting early (tests/hostile/exits-early-cargo): a test
# fails, its sibling calls std::process::exit(0); cargo exits 0 and the
# binary's `running 2 tests` has no `test result:`.
capture exits_early ../../../hostile/exits-early-cargo -- -- --test-threads=1
# A test that hangs, the run killed as a timeout kills it: the log ends
# with `test b_hangs ... `.
KILL_AFTER=5 capture hang hang -- -- --test-threads=1
# Targets without libtest's harness: `panics` fails printing only its panic,
# named by cargo's selector (`--test panics`); `liar` prints cargo's failure
# lines for itself and passes. --no-fail-fast: cargo's closing list decides;
# the default: cargo stops at `panics`, its last word.
capture harness_false harness -- --no-fail-fast
capture harness_false_fail_fast harness --

# libtest's JSON itself: the log is the machine-readable output.
echo "cargo/json: cargo test --no-fail-fast -- --format json -Z unstable-options" >&2
(cd "$projects/demo" && RUSTC_BOOTSTRAP=1 cargo test --no-fail-fast -- --format json -Z unstable-options >"$out/json.log" 2>&1) || true
{
    echo "# source: libtest JSON of this very log (RUSTC_BOOTSTRAP=1 cargo test --no-fail-fast -- --format json -Z unstable-options)"
    json_names failures <"$out/json.log"
} >"$out/json.expected"
write_outcomes json "$(cat "$out/json.log")" "libtest JSON of this very log"

# Machine paths out of the logs: the target directory and the checkout.
sed -i -e "s|$CARGO_TARGET_DIR|/tmp/target|g" -e "s|$root|/repo|g" "$out"/*.log
