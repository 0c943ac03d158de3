#!/usr/bin/env bash
# Recaptures tests/fixtures/gradle/*.log from real `gradle test` runs over
# tests/projects/parse/gradle/junit4 (the JUnit 4 tests of the Maven
# fixture project): Debian's Gradle 4.4.1, offline, JUnit 4.13 from
# Debian's Maven repository (/usr/share/maven-repo; `apt-get install
# gradle maven-repo-helper junit4`). A project's own `gradlew` cannot
# download its distribution here.
#
# Each case's .expected and .outcomes come from the TEST-*.xml reports
# Gradle wrote in the same run (build/test-results/test, emptied before
# the run), read with python3: a testcase is `classname#name`, or
# `classname` alone for Gradle's `classMethod` (a failure outside any
# test). <case>.junit.xml is those reports joined under one <testsuites>
# root, their <properties> left out. No argument.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/gradle"
out="$crate/tests/fixtures/gradle"
work=/tmp/testgate-capture/gradle
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$projects"/. "$work/"
unset CRASH LIES JAVA_TOOL_OPTIONS GRADLE_OPTS || true

xml_outcomes() {
    python3 - "$1" <<'PY'
import glob, os, sys
import xml.etree.ElementTree as ET
seen = set()
for path in sorted(glob.glob(os.path.join(sys.argv[1], "build/test-results/test/TEST-*.xml"))):
    for case in ET.parse(path).getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        test = cls if name in ("", cls, "classMethod") else f"{cls}#{name}"
        if test in seen:
            continue
        seen.add(test)
        tags = {child.tag for child in case}
        what = "failed" if tags & {"failure", "error"} else "skipped" if "skipped" in tags else "passed"
        print(what, test)
PY
}

xml_joined() {
    python3 - "$1" <<'PY'
import glob, os, re, sys
print('<?xml version="1.0" encoding="UTF-8"?>')
print("<testsuites>")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "build/test-results/test/TEST-*.xml"))):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"<\?xml[^>]*\?>\s*", "", text)
    text = re.sub(r"<properties/>\s*", "", text)
    print(text.rstrip())
print("</testsuites>")
PY
}

# capture CASE [ENV=VALUE...] -- GRADLE-ARGS...
capture() {
    local case="$1"
    shift
    local env=()
    while [[ "$1" != "--" ]]; do env+=("$1"); shift; done
    shift
    local dir="$work/junit4" what="gradle test --offline --no-daemon $* ${env[*]}"
    rm -rf "$dir/build" "$dir/.gradle"
    echo "gradle/$case: $what" >&2
    (cd "$dir" && env "${env[@]}" gradle test --offline --no-daemon "$@" >"$out/$case.log" 2>&1) || true
    local outcomes
    outcomes="$(xml_outcomes "$dir")"
    {
        echo "# source: Gradle's TEST-*.xml of this run ($what)"
        grep -E '^failed ' <<<"$outcomes" | cut -d' ' -f2- || true
    } >"$out/$case.expected"
    {
        echo "# source: Gradle's TEST-*.xml of this run ($what)"
        echo "$outcomes"
    } >"$out/$case.outcomes"
    rm -f "$out/$case.junit.xml"
    if [[ -n "$outcomes" ]]; then
        xml_joined "$dir" >"$out/$case.junit.xml"
    fi
    # A compile task that failed, by Gradle's own `Execution failed for
    # task ':compileTestJava'.` (no test ran, no report): named by its task.
    local task
    task="$(sed -n "s/^Execution failed for task '\(.*:compile[A-Za-z]*\(Java\|Kotlin\)\)'\.$/\1/p" "$out/$case.log")"
    if [[ -n "$task" ]]; then
        {
            echo "# source: Gradle's own \`Execution failed for task '$task'.\` (no test ran)"
            echo "$task"
        } >>"$out/$case.expected"
        echo "failed $task" >>"$out/$case.outcomes"
    fi
}

# Every failure shape of the JUnit 4 project (CrashTest and LiarTest pass).
capture junit4 --
# The tests' own output shown, and LiarTest printing Surefire's and
# Gradle's lines of a failure.
capture lies_streams LIES=1 -- -Pstreams --tests com.example.LiarTest
# One test passing.
capture pass -- --tests 'com.example.CalcTest.adds'
# Every failure shape again with the JVM's option testgate sets under
# Landlock: each JVM prints "Picked up JAVA_TOOL_OPTIONS", the test
# worker's often glued to the `:test` header.
capture landlock_fail JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=/tmp --
# A test that does not compile.
echo 'class Broken { int x = "no"; }' >"$work/junit4/src/test/java/com/example/Broken.java"
capture compile_error --
rm "$work/junit4/src/test/java/com/example/Broken.java"
