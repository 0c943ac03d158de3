#!/usr/bin/env bash
# Imports older and odd `go test` outputs from go-junit-report's testdata
# (github.com/jstemmer/go-junit-report, MIT, Copyright (c) 2012 Joel
# Stemmer) as tests/fixtures/go/gjr_<case>.log, and writes <case>.expected
# from the JUnit report go-junit-report itself expects for that output
# (testdata/NNN-report.xml: the names of test cases with a <failure> or
# <error>). Cases whose report names pseudo-tests (`[build failed]`,
# `Failure`) are left out: testgate names no test there (docs/formats.md).
# Usage: go-junit-report.sh PATH-TO-A-CHECKOUT
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../fixtures/go"
repo="${1:?usage: go-junit-report.sh PATH-TO-A-CHECKOUT-OF-jstemmer/go-junit-report}"
commit="$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)"

for case in 001-pass-fail-skip 008-parallel 011-go_1_5 012-subtests 016-repeated-names \
    017-race 022-bench 036-benchfail 037-legacy-fail; do
    number="${case%%-*}"
    cp "$repo/testdata/$case.txt" "$out/gjr_$case.log"
    {
        echo "# source: go-junit-report testdata/$number-report.xml at $commit (MIT): test cases with a <failure> or <error>"
        python3 -c '
import sys, xml.etree.ElementTree as ET
seen = []
for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        if case.get("name") not in seen:
            seen.append(case.get("name"))
print("\n".join(seen))' "$repo/testdata/$number-report.xml"
    } | sed '/^$/d' >"$out/gjr_$case.expected"
done
echo "go-junit-report fixtures written to $out"
