#!/usr/bin/env bash
# Recaptures tests/fixtures/maven/*.log from real `mvn test` runs over the
# fixture projects in tests/projects/parse/maven/ (a JUnit 4 and a JUnit 5
# project made for the failure shapes, a two-module reactor, an outer class
# with a @Nested class), each case on
# Surefire 2.22 (`_s2`) and 3.x (`_s3`): `-Dsurefire.version=` sets the
# plugin's version in the projects' poms.
#
# Each case's .expected, .outcomes and .flaky come from the TEST-*.xml
# reports Surefire wrote in the same run (every module's
# target/surefire-reports, emptied before the run), read with python3: a
# testcase is `classname#name`, or `classname` alone where Surefire names
# the class itself (a failure outside any test: `name=""` in 3.x, the class
# again in 2.22). A testcase with <failure> or <error> is a failing name;
# one with only <flakyFailure>/<flakyError> failed and then passed on a
# rerun (`-Dsurefire.rerunFailingTestsCount`): flaky. <case>.junit.xml is
# those reports joined under one <testsuites> root, their <properties>
# (the machine's paths and environment) left out.
#
# Needs Maven and a JDK; the first run fills ~/.m2 from Maven Central (the
# captures themselves run offline, -o, so that no download line is in a log).
# No argument. With COMMONS_CLI=PATH, a checkout of apache/commons-cli at
# rel/commons-cli-1.6.0 (Apache-2.0), a real library is captured too.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/maven"
out="$crate/tests/fixtures/maven"
# A fixed place, so that the paths in the logs do not change from one
# capture to the next.
work=/tmp/testgate-capture/maven
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$projects"/. "$work/"
unset MAVEN_OPTS MAVEN_ARGS JAVA_TOOL_OPTIONS CRASH LIES || true

S2=2.22.2
S3=3.5.2

# `OUTCOME NAME` for every testcase of the reports under $1.
xml_outcomes() {
    python3 - "$1" <<'PY'
import glob, os, sys
import xml.etree.ElementTree as ET
for path in sorted(glob.glob(os.path.join(sys.argv[1], "**/target/surefire-reports/TEST-*.xml"), recursive=True)):
    for case in ET.parse(path).getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        test = cls if name in ("", cls) else f"{cls}#{name}"
        tags = {child.tag for child in case}
        if "failure" in tags:
            what = "failed"
        elif "error" in tags:
            what = "error"
        elif tags & {"flakyFailure", "flakyError"}:
            what = "flaky"
        elif "skipped" in tags:
            what = "skipped"
        else:
            what = "passed"
        print(what, test)
PY
}

# The reports under $1 joined under one root, without their properties.
xml_joined() {
    python3 - "$1" <<'PY'
import glob, os, re, sys
print('<?xml version="1.0" encoding="UTF-8"?>')
print("<testsuites>")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "**/target/surefire-reports/TEST-*.xml"), recursive=True)):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"<\?xml[^>]*\?>\s*", "", text)
    text = re.sub(r"<properties>.*?</properties>\s*", "", text, flags=re.S)
    print(text.rstrip())
print("</testsuites>")
PY
}

# What no report says, from Maven's own errors in the log of CASE (no
# test's output: both come after every test ran or before any did):
# a module that did not compile (`Failed to execute goal …compiler… on
# project M: Compilation failure`) is a failing name of that module, added
# to .expected (and .outcomes); a forked JVM that died (`The forked VM terminated without
# properly saying goodbye`) is a crash of the module, in .crashes.
maven_errors() {
    local case="$1" log="$out/$1.log" modules
    modules="$(sed -n 's/^\[ERROR\] Failed to execute goal [^ ]*:maven-compiler-plugin:.* on project \([^:]*\): Compilation failure.*/\1/p' "$log")"
    if [[ -n "$modules" ]]; then
        {
            echo "# source: Maven's own \`Failed to execute goal …maven-compiler-plugin… on project M: Compilation failure\` (no test of M ran)"
            echo "$modules"
        } >>"$out/$case.expected"
        sed 's/^/failed /' <<<"$modules" >>"$out/$case.outcomes"
        # The reports do not know of it: no joined report to check.
        rm -f "$out/$case.junit.xml"
    fi
    rm -f "$out/$case.crashes"
    if grep -q '^\[ERROR\] The forked VM terminated without properly saying goodbye' "$log"; then
        {
            echo "# source: Maven's own \`The forked VM terminated without properly saying goodbye\` in the module's failed goal"
            sed -n 's/^\[ERROR\] Failed to execute goal [^ ]*:maven-surefire-plugin:.* on project \([^:]*\):.*/\1/p' "$log"
        } >"$out/$case.crashes"
    fi
}

# capture CASE PROJECT SUREFIRE [ENV=VALUE...] -- MVN-ARGS...
capture() {
    local case="$1" project="$2" surefire="$3"
    shift 3
    local env=()
    while [[ "$1" != "--" ]]; do env+=("$1"); shift; done
    shift
    local dir="$work/$project"
    # `-`: the project's own Surefire.
    local version=()
    [[ "$surefire" == - ]] || version=("-Dsurefire.version=$surefire")
    local what="mvn -B -o test ${version[*]} $* ${env[*]}"
    find "$dir" -name target -type d -prune -exec rm -rf {} +
    echo "maven/$case: $what" >&2
    (cd "$dir" && env "${env[@]}" mvn -B -o test "${version[@]}" "$@" >"$out/$case.log" 2>&1) || true
    local outcomes
    outcomes="$(xml_outcomes "$dir")"
    {
        echo "# source: Surefire's TEST-*.xml of this run ($what)"
        grep -E '^(failed|error) ' <<<"$outcomes" | cut -d' ' -f2- || true
    } >"$out/$case.expected"
    {
        echo "# source: Surefire's TEST-*.xml of this run ($what)"
        echo "$outcomes"
    } >"$out/$case.outcomes"
    rm -f "$out/$case.flaky" "$out/$case.junit.xml"
    if grep -q '^flaky ' <<<"$outcomes"; then
        {
            echo "# source: Surefire's TEST-*.xml of this run ($what): flakyFailure/flakyError without failure/error"
            grep '^flaky ' <<<"$outcomes" | cut -d' ' -f2-
        } >"$out/$case.flaky"
    fi
    if [[ -n "$outcomes" ]]; then
        xml_joined "$dir" >"$out/$case.junit.xml"
    fi
    maven_errors "$case"
}

# Fill ~/.m2 with what every case needs (both Surefire versions, their
# JUnit 4 and JUnit Platform providers), output dropped.
for project in junit4 junit5 multi nested; do
    for surefire in $S2 $S3; do
        (cd "$work/$project" && mvn -B -q test -fae -Dsurefire.version=$surefire -Dsurefire.rerunFailingTestsCount=1 >/dev/null 2>&1) || true
    done
done

for s in 2 3; do
    v="S$s"
    v="${!v}"
    # Every failure shape: a failure, an error, a skip, parameterized cases,
    # a nested class, a class whose @BeforeClass/@BeforeAll threw, a flaky
    # test that no rerun saves.
    capture "junit4_s$s" junit4 "$v" --
    capture "junit5_s$s" junit5 "$v" --
    # Surefire's reruns: the flaky test passes on its second run (Surefire
    # 2.22 reruns JUnit 4 only).
    capture "junit4_rerun_s$s" junit4 "$v" -- -Dsurefire.rerunFailingTestsCount=2
    capture "junit5_rerun_s$s" junit5 "$v" -- -Dsurefire.rerunFailingTestsCount=2
    # A test that ends the forked JVM with System.exit(0). Surefire
    # writes no report of its class, which was running.
    capture "junit5_crash_s$s" junit5 "$v" CRASH=1 --
    {
        echo "# source: CRASH=1 makes com.example.CrashTest#exits end the JVM (the project's own code); Surefire wrote no report of it"
        echo "com.example.CrashTest"
    } >"$out/junit5_crash_s$s.running"
    echo "running com.example.CrashTest" >>"$out/junit5_crash_s$s.outcomes"
    # A passing test that prints Surefire's lines of a failure and a pass.
    capture "junit5_lies_s$s" junit5 "$v" LIES=1 -- -Dtest=LiarTest
    # A reactor: core fails, app is skipped; with -fae app runs too.
    capture "multi_s$s" multi "$v" --
    capture "multi_fae_s$s" multi "$v" -- -fae
    # An outer class's failures beside its @Nested class's: 3.x names them
    # under the nested class's result.
    capture "nested_s$s" nested "$v" --
done
# One test passing, on Maven's default (colour, not batch) output.
capture "pass_color_s3" junit5 "$S3" -- -Dtest='CalcTest#adds' -Dstyle.color=always
# Quiet: only Surefire's errors and warnings.
capture "junit5_quiet_s3" junit5 "$S3" -- -q -Dsurefire.rerunFailingTestsCount=2
# A test that does not compile: no test runs.
cat >"$work/junit5/src/test/java/com/example/BrokenTest.java" <<'JAVA'
package com.example;

class BrokenTest {
    @org.junit.jupiter.api.Test void broken() { int x = "not a number"; }
}
JAVA
capture "compile_error_s3" junit5 "$S3" --
rm "$work/junit5/src/test/java/com/example/BrokenTest.java"
# A module that does not compile in a reactor (-fae): core's tests fail,
# app does not build.
echo 'class Broken { int x = "no"; }' >"$work/multi/app/src/main/java/com/example/app/Broken.java"
capture "multi_compile_error_s3" multi "$S3" -- -fae
rm "$work/multi/app/src/main/java/com/example/app/Broken.java"

# A real library with its own pom (Surefire 3.1.2 from commons-parent 64;
# JUnit 4 tests through the vintage engine beside JUnit 5 ones): as
# released (every test passes, 59 skipped), and with a JUnit 4 and a
# JUnit 5 assertion broken.
if [[ -n "${COMMONS_CLI:-}" ]]; then
    cp -r "$COMMONS_CLI" "$work/commons-cli"
    rm -rf "$work/commons-cli/.git"
    (cd "$work/commons-cli" && mvn -B -q test >/dev/null 2>&1) || true
    capture commons_cli_pass commons-cli - --
    tests="$work/commons-cli/src/test/java/org/apache/commons/cli"
    sed -i 's/assertEquals("foo", Util.stripLeadingAndTrailingQuotes("\\"foo\\""));/assertEquals("fooo", Util.stripLeadingAndTrailingQuotes("\\"foo\\""));/' "$tests/UtilTest.java"
    sed -i '78s/IllegalArgumentException/IllegalStateException/' "$tests/OptionTest.java"
    capture commons_cli_fail commons-cli - --
fi

# Air-gapped: Debian's packages alone (libsurefire-java 2.22.3,
# libmaven-compiler-plugin-java, libmaven-resources-plugin-java, junit4),
# `mvn -o -Dmaven.repo.local=/usr/share/maven-repo`, where installed.
debian=/usr/share/maven-repo
if [[ -d "$debian/org/apache/maven/plugins/maven-surefire-plugin/2.22.3" ]]; then
    capture junit4_debian_s2 junit4 2.22.3 -- "-Dmaven.repo.local=$debian" \
        -Dcompiler.version=3.10.1 -Dresources.version=3.3.0 -Djunit4.version=4.x
fi
