#!/usr/bin/env bash
# Reruns `node --test` over the fixture projects in
# tests/projects/parse/node/node-* and rewrites
# crates/testgate-parse/tests/fixtures/node/<case>.{log,expected,outcomes}.
#
# Each case is run twice, identically: once as testgate runs it (CI=true, no
# TTY, stdout and stderr merged) for the .log, once with node's junit
# reporter writing to a file for the .expected and .outcomes, whose names
# come from that report (python3), never from our parser; the report is
# kept as <case>.junit.xml. Needs node >= 20
# and python3.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
node_dir=$repo/tests/projects/parse/node
out=$here/../fixtures/node
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"

# The junit reporter's names: the titles of the nested <testsuite>s (a
# describe, a test with subtests) and the <testcase>'s joined with " > ".
# Failed cases (a <failure>) for the .expected; every case's outcome for
# the .outcomes (<skipped>, skip and todo alike, is skipped).
from_report() {
    python3 - "$1" "$2" <<'PY'
import sys
import xml.etree.ElementTree as ET

def walk(node, path, out):
    for child in node:
        if child.tag == "testsuite":
            walk(child, path + [child.get("name")], out)
        elif child.tag == "testcase":
            name = " > ".join(path + [child.get("name")])
            if child.find("failure") is not None:
                out.append(("failed", name))
            elif child.find("skipped") is not None:
                out.append(("skipped", name))
            else:
                out.append(("passed", name))

out = []
walk(ET.parse(sys.argv[1]).getroot(), [], out)
for what, name in out:
    if sys.argv[2] == "failing":
        if what == "failed":
            print(name)
    else:
        print(what, name)
PY
}

# node's junit report leaves out a suite whose hook failed (an `after`
# hook's failure is in no <testcase>): those come from node's own events,
# through a reporter of the test runner's stream (`test:fail` of a suite
# whose error is `hookFailed`), named as junit names, titles joined with
# " > ".
cat >"$scratch/hooks.mjs" <<'JS'
export default async function* reporter(source) {
  const stack = [];
  for await (const event of source) {
    const data = event.data;
    if (event.type === 'test:start') {
      stack.length = data.nesting;
      stack.push(data.name);
    } else if (event.type === 'test:fail') {
      const error = data.details && data.details.error;
      if (data.details.type === 'suite' && error && error.failureType === 'hookFailed') {
        yield [...stack.slice(0, data.nesting), data.name].join(' > ') + '\n';
      }
    }
  }
}
JS

# capture CASE PROJECT [node args ...]
capture() {
    local case=$1 project=$2
    shift 2
    (cd "$node_dir/$project" && env -u FORCE_COLOR -u NO_COLOR CI=true node --test "$@" \
        </dev/null >"$out/$case.log" 2>&1) || true
    rm -f "$scratch/report.xml"
    # The same run with junit into a file as its one reporter.
    local same=()
    for arg in "$@"; do
        [[ $arg == --test-reporter=* ]] || same+=("$arg")
    done
    (cd "$node_dir/$project" && env -u FORCE_COLOR -u NO_COLOR CI=true node --test ${same[@]+"${same[@]}"} \
        --test-reporter=junit --test-reporter-destination="$scratch/report.xml" \
        --test-reporter="$scratch/hooks.mjs" --test-reporter-destination="$scratch/hooks.txt" \
        </dev/null >/dev/null 2>&1) || true
    # The junit report itself: the fixture testgate's junit reader reads
    # (the run testgate asks for it as it asks node, docs/formats.md).
    cp "$scratch/report.xml" "$out/$case.junit.xml"
    {
        echo "# source: node $(node --version) junit reporter, and the suites whose hook failed by node's own events (hooks.mjs), an identical second run of: node --test $*"
        from_report "$scratch/report.xml" failing
        cat "$scratch/hooks.txt"
    } >"$out/$case.expected"
    {
        echo "# source: the same junit run, and the same events"
        echo "# complete"
        from_report "$scratch/report.xml" outcomes
        sed 's/^/failed /' "$scratch/hooks.txt"
    } >"$out/$case.outcomes"
    echo "node/$case: $(grep -vc '^#' "$out/$case.expected" || true) failing"
}

# node 20 and 22 write tap where stdout is no terminal, spec on one (node
# 23 writes spec everywhere): both are captured.
capture failing-tap node-failing
capture failing-spec node-failing --test-reporter=spec
capture all-pass node-pass
capture all-pass-spec node-pass --test-reporter=spec
capture lies-tap node-lies
capture lies-spec node-lies --test-reporter=spec
capture only node-only --test-only
# Titles holding `#` and `\`, which tap escapes (`\#`, `\\`).
capture escapes-tap node-escapes
capture escapes-spec node-escapes --test-reporter=spec
# A suite's failing `before` hook (its test cancelled), a `beforeEach`
# (its test failed) and an `after` (its tests passed).
capture hooks-tap node-hooks
capture hooks-spec node-hooks --test-reporter=spec
