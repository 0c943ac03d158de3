#!/usr/bin/env bash
# Reruns PHPUnit 9 (Debian 12's `phpunit`, `apt-get install php-cli phpunit
# composer`) over tests/projects/parse/phpunit/* and rewrites
# tests/fixtures/phpunit/<case>.log (stdout+stderr as they came),
# <case>.expected (the failing tests as PHPUnit's own JUnit report, asked for
# with `--log-junit` outside the project, names them: `class::name` of each
# <testcase> with a <failure> or an <error> that is not a risky test's),
# <case>.outcomes (every case's outcome by the same report), <case>.risky
# (the cases with a risky test's <error>) and <case>.warned (those with a
# <warning>: PHPUnit 9 fails a run on it only under failOnWarning), and
# <case>.exit (PHPUnit's exit status). A run that dies writes no report:
# its .expected says so and holds what the --debug console said was
# running.
#
# Also sebastian/diff 4.0.6 (a real PHPUnit 9 library with no runtime
# dependency), from its git history (`fetch github:sebastianbergmann/diff`,
# DIFF_REPO), as released (its integration tests error: symfony/process is
# not installed) and with a bug put in its Differ.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/phpunit"
out="$crate/tests/fixtures/phpunit"
# A fixed place, so that the paths in messages do not change.
work=/tmp/testgate-capture/phpunit
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$projects"/. "$work/"

write_record() {
    local case="$1" report="$2" what="$3" complete="$4"
    python3 - "$report" "$out/$case" "$what" "$complete" <<'PY'
import os, sys, xml.etree.ElementTree as ET
report, stem, what, complete = sys.argv[1:]
RISKY = {
    "PHPUnit\\Framework\\RiskyTestError", "PHPUnit\\Framework\\OutputError",
    "PHPUnit\\Framework\\UnintentionallyCoveredCodeError",
    "PHPUnit\\Framework\\CoveredCodeNotExecutedException",
    "PHPUnit\\Framework\\MissingCoversAnnotationException",
    "PHPUnit\\Framework\\InvalidCoversTargetException",
}
outcomes = {}
apart = {"risky": [], "warned": []}
several = set()
if os.path.exists(report) and os.path.getsize(report) > 0:
    for case in ET.parse(report).iter("testcase"):
        name = case.get("class") + "::" + case.get("name")
        kids = {k.tag: k for k in case}
        if "failure" in kids:
            outcome = "failed"
        elif "error" in kids and kids["error"].get("type") not in RISKY:
            outcome = "error"
        elif "skipped" in kids:
            outcome = "skipped"
        else:
            outcome = "passed"
            if "error" in kids:
                apart["risky"].append(name)
            elif "warning" in kids:
                apart["warned"].append(name)
        if "\n" in name:
            # The console prints such a name over several lines: its line
            # names the method.
            method = name.split(" with data set ")[0]
            several.add(method)
            name = method
            if outcomes.get(name) in ("failed", "error"):
                continue
        outcomes[name] = outcome
    source = f"{what}; names: PHPUnit's --log-junit report, same run"
else:
    source = f"{what}; PHPUnit died before writing its --log-junit report: hand-checked"
with open(stem + ".expected", "w", encoding="utf-8") as f:
    f.write(f"# source: {source}\n")
    for name, outcome in outcomes.items():
        if outcome in ("failed", "error"):
            if name in several:
                f.write("# a data set whose name holds a newline: named by its method\n")
            f.write(name + "\n")
with open(stem + ".outcomes", "w", encoding="utf-8") as f:
    f.write(f"# source: {source}\n")
    if complete == "yes":
        f.write("# complete\n")
    for name, outcome in outcomes.items():
        f.write(f"{outcome} {name}\n")
for kind, names in apart.items():
    path = f"{stem}.{kind}"
    if names:
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"# source: {source}; {kind} (not failed: a failure only under failOn{'Risky' if kind == 'risky' else 'Warning'})\n")
            f.writelines(n + "\n" for n in names)
    elif os.path.exists(path):
        os.remove(path)
PY
}

# capture CASE PROJECT [PHPUNIT ARGS...]
capture() {
    local case="$1" project="$2"
    shift 2
    local report="$work/$case.junit.xml"
    rm -f "$report"
    local status=0
    (cd "$work/$project" && { [[ -d vendor ]] || composer dump-autoload --dev -q; } &&
        phpunit --log-junit "$report" "$@" >"$out/$case.log" 2>&1) || status=$?
    echo "$status" >"$out/$case.exit"
    write_record "$case" "$report" "phpunit${*:+ $*} (project $project, PHPUnit $(phpunit --version | head -1 | cut -d' ' -f2))" no
    if [[ " $* " == *" --testdox "* ]]; then
        # testdox prints prettified names (`Pairs with data set "x"` under
        # `Calc (Demo\Tests\Calc)`), not PHPUnit's: the report names them.
        for names in "$out/$case".{expected,risky,warned}; do
            if [[ -f "$names" ]]; then sed -i '2,$ s/^/# not on the console (testdox prettifies names): /' "$names"; fi
        done
    fi
}

capture default suite
# Its report, kept: the JUnit reader's test (junit.rs) reads it against
# default.expected.
cp "$work/default.junit.xml" "$out/default.junit.xml"
capture verbose suite -v
capture debug suite --debug
capture testdox suite --testdox
capture stop_on_failure suite --stop-on-failure
capture all_pass allpass
capture all_pass_debug allpass --debug
capture no_tests empty
capture lies forged
capture lies_debug forged --debug
capture exits_early exits
capture fatal_debug fatal --debug
capture fatal fatal
# Risky tests under failOnRisky (phpunit.xml.dist; one risky by
# beStrictAboutOutputDuringTests): exit 1, nothing failed. A warning:
# exit 0, and 1 under --fail-on-warning. The reports are kept: junit.rs's
# test reads them against <case>.risky and <case>.warned.
capture fail_on_risky risky
cp "$work/fail_on_risky.junit.xml" "$out/fail_on_risky.junit.xml"
capture warnings warns
capture fail_on_warning warns --fail-on-warning
# A risky, a warned, an incomplete and a skipped test in one run, under
# each setting PHPUnit 9.6 fails such a run on (flags here; the facade reads
# the same from phpunit.xml): exit 0 without, 1 with any. Which setting
# failed it only the command and the configuration tell: the facade names
# the risky tests under failOnRisky and the warned ones under
# failOnWarning alone (attempt.rs's test reads these cases).
capture apart apart
capture apart_fail_on_risky apart --fail-on-risky
capture apart_fail_on_warning apart --fail-on-warning
capture apart_fail_on_risky_and_warning apart --fail-on-risky --fail-on-warning
capture apart_fail_on_incomplete apart --fail-on-incomplete
capture apart_fail_on_skipped apart --fail-on-skipped
# Two methods testdox prints as one sentence: why its console names none.
capture testdox_prose prose --testdox
cp "$work/fail_on_warning.junit.xml" "$out/fail_on_warning.junit.xml"
# What the console named running when the run died (no report was written).
printf '%s\n' "# source: the --debug console's last 'started' line without its 'ended'; PHPUnit wrote no report" \
    'Demo\Tests\FatalTest::testBRecursesForever' >"$out/fatal_debug.running"
echo 'running Demo\Tests\FatalTest::testBRecursesForever' >>"$out/fatal_debug.outcomes"
# The test that exited wrote no report: its failure shows on the console
# as an F only.
sed -i '1a # on the console as an F only (no defect list): Demo\\Tests\\ExitTest::testAFails' "$out/exits_early.expected"

repo="${DIFF_REPO:-/work/.mirror/sebastianbergmann+diff/repo}"
if [[ -d "$repo" ]]; then
    for project in diff diff_broken; do
        mkdir -p "$work/$project"
        for path in $(git -C "$repo" ls-tree -r --name-only 4.0.6 -- src tests phpunit.xml composer.json); do
            mkdir -p "$work/$project/$(dirname "$path")"
            git -C "$repo" show "4.0.6:$path" >"$work/$project/$path"
        done
    done
    # A bug: the common prefix is no longer kept.
    sed -i 's/            \$diff\[\] = \[\$token, self::OLD\];/            $diff[] = [$token, self::REMOVED]; \/\/ a bug/' \
        "$work/diff_broken/src/Differ.php"
    grep -q '// a bug' "$work/diff_broken/src/Differ.php"
    capture diff diff
    capture diff_broken diff_broken
    capture diff_broken_testdox diff_broken --testdox tests/DifferTest.php
else
    echo "no sebastian/diff repository at $repo: its cases not captured" >&2
fi
echo "phpunit fixtures written to $out"
