#!/usr/bin/env bash
# Real open-source projects of PHPUnit, RSpec, minitest, ctest and
# GoogleTest (issue 39), as fetched from their public repositories at a
# pinned commit, run by Debian 12's packages alone (Packagist and RubyGems
# are not reachable here): each one's suite passes, then fails after one
# scripted break (an assertion inverted, a data set's expectation changed).
#
# For each project and each of the two trees (as fetched, broken):
#   1. the bare runner with its own machine-readable report (PHPUnit's
#      --log-junit, RSpec's JSON formatter, minitest's Result through the
#      recording plugin of capture/minitest/, ctest's --output-junit,
#      GoogleTest's GTEST_OUTPUT=xml): the console is kept as the parser
#      fixture tests/fixtures/<runner>/real_<project>[_broken].log, with its
#      .expected and .outcomes from that report (the failing tests' and,
#      where the console names every test, every test's outcome);
#   2. `testgate check` as a user runs it (root, default options) with the
#      command and without one (zero-config), under bubblewrap and under
#      Landlock: the verdict must be Pass on the tree as fetched and Fail
#      naming exactly the report's failing tests on the broken one.
# Prints one line per check and exits non-zero if any verdict is wrong.
# Today (docs/scale.md, "Real projects"): every verdict right but thor's
# under Landlock (under bubblewrap it was Inconclusive `tree_changed` until a
# new plain executable stopped counting: its specs copy an executable
# fixture into spec/sandbox/ and never remove it): Fail (Thor::Runner's Thorfile lookup lists every folder
# up to `/`, which Landlock refuses: one example fails on the warnings, and
# the run stops after 614 of its 911 examples, before the broken one).
#
# The projects (git snapshots, e.g. by the `fetch` tool: github:OWNER/NAME
# gives /work/.mirror/OWNER+NAME/repo; another place by the variable):
#   PHPUnit 9   nikic/PHP-Parser v4.19.5 (51bd93cc741b), 1708 tests     PHP_PARSER_REPO
#               (`composer dump-autoload --dev`, offline: its only dev
#               dependencies are PHPUnit, Debian's, and php-yacc, unused)
#   RSpec 3.12  rails/thor d89dd720c877 (main, 2026-05-15), 911 examples  THOR_REPO
#               (spec/helper.rb's Coveralls formatter removed: coveralls
#               is no Debian package; SimpleCov and WebMock are Debian's)
#   minitest 5  Shopify/liquid v5.6.0 (b4667adadff0), `rake test` runs     LIQUID_REPO
#               minitest four times (813 + 813 + 630 + 630 tests)
#               (Debian's ruby-stackprof for one test)
#   ctest       fmtlib/fmt 12.1.0 (407c905e45ad), 21 GoogleTest binaries  FMT_REPO
#               built once into build/ (release, as fmt sets it), ctest
#               --test-dir build; zero-config (which builds from scratch,
#               some 20 minutes here) is run on cJSON instead:
#               DaveGamble/cJSON v1.7.19 (c859b25da029), 19 Unity tests  CJSON_REPO
#   GoogleTest  fmt's build/bin/format-test alone (its gtest is fmt's own
#               copy, test/gtest/gmock-gtest-all.cc); no zero-config (a binary has no
#               project file to find)
#
# Packages: php-cli phpunit composer ruby ruby-rspec ruby-minitest rake
# ruby-simplecov ruby-webmock ruby-stackprof cmake g++ make (scripts/setup
# has all but the last three Ruby ones). usage: real-projects.sh [PROJECT…]
# (php-parser thor liquid fmt cjson; default all) with TESTGATE=binary
# (default: the release build under CARGO_TARGET_DIR or target/).
# `real-projects.sh --prepare-only [PROJECT…]` only lays the trees as
# fetched and prepared (scripts/runner-cost times them); after a full run
# they are left as fetched too (each break is undone, fmt rebuilt).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
fixtures="$crate/tests/fixtures"
mirror="${MIRROR:-/work/.mirror}"
testgate="${TESTGATE:-${CARGO_TARGET_DIR:-$root/target}/release/testgate}"
# A fixed place, so that the paths in messages do not change.
work=/tmp/testgate-capture/real
mkdir -p "$work"
wrong=0
unset GTEST_OUTPUT GTEST_FILTER GTEST_BRIEF GTEST_COLOR CTEST_OUTPUT_ON_FAILURE \
    CTEST_PARALLEL_LEVEL SPEC_OPTS TESTOPTS RUBYOPT COVERAGE CI || true

# snapshot REPO COMMIT DIR: the tree of COMMIT, every file (git archive
# would leave out what .gitattributes marks export-ignore: PHP-Parser's
# tests), without touching REPO.
snapshot() {
    local repo="$1" commit="$2" dir="$3"
    [[ -d "$repo" ]] || { echo "no repository at $repo (fetch it first)" >&2; return 1; }
    rm -rf "$dir"
    mkdir -p "$dir"
    GIT_INDEX_FILE="$work/index.$$" git --git-dir="$repo" --work-tree="$dir" read-tree "$commit"
    GIT_INDEX_FILE="$work/index.$$" git --git-dir="$repo" --work-tree="$dir" checkout-index -a
    rm -f "$work/index.$$"
}

# names REPORT KIND STEM: writes STEM.expected and STEM.outcomes from the
# runner's own report. KIND: phpunit, ctest, gtest (JUnit XML), rspec
# (JSON), minitest (the recording plugin's JSON lines). COMPLETE=yes when
# the console names every test.
names() {
    python3 - "$@" "${COMPLETE:-no}" <<'PY'
import json, sys, xml.etree.ElementTree as ET
report, kind, stem, what, complete = sys.argv[1:]
outcomes = {}
if kind in ("phpunit", "ctest", "gtest"):
    risky = {"PHPUnit\\Framework\\RiskyTestError", "PHPUnit\\Framework\\OutputError"}
    for case in ET.parse(report).iter("testcase"):
        if kind == "phpunit":
            name = case.get("class") + "::" + case.get("name")
        elif kind == "gtest":
            name = case.get("classname") + "." + case.get("name")
        else:
            name = case.get("name")
        kids = {k.tag: k for k in case}
        if kind == "ctest":
            outcome = {"fail": "failed", "run": "passed"}.get(case.get("status"), "skipped")
        elif "failure" in kids or "warning" in kids:
            outcome = "failed"
        elif "error" in kids and kids["error"].get("type") not in risky:
            outcome = "error"
        elif "skipped" in kids or case.get("status") == "notrun" or case.get("result") == "skipped":
            outcome = "skipped"
        else:
            outcome = "passed"
        # A name run twice (liquid's four runs) keeps its worst outcome.
        if outcomes.get(name) not in ("failed", "error"):
            outcomes[name] = outcome
elif kind == "rspec":
    for e in json.load(open(report))["examples"]:
        outcome = {"passed": "passed", "failed": "failed", "pending": "skipped"}[e["status"]]
        if outcomes.get(e["full_description"]) != "failed":
            outcomes[e["full_description"]] = outcome
elif kind == "minitest":
    for line in open(report):
        r = json.loads(line)
        if outcomes.get(r["name"]) not in ("failed", "error"):
            outcomes[r["name"]] = r["outcome"]
failing = [n for n, o in outcomes.items() if o in ("failed", "error")]
with open(stem + ".expected", "w") as f:
    f.write(f"# source: {what}; names: the runner's own report of the same run\n")
    for n in failing:
        f.write(n + "\n")
with open(stem + ".outcomes", "w") as f:
    f.write(f"# source: {what}; the runner's own report of the same run\n")
    if complete == "yes":
        f.write("# complete\n")
        listed = outcomes.items()
    else:
        # The console names the failing tests only: the passing ones (all
        # but a few) are left out to keep the fixture small.
        f.write("# the failing tests only: this console names no passing test\n")
        listed = [(n, o) for n, o in outcomes.items() if o in ("failed", "error")]
    for n, o in listed:
        f.write(f"{o} {n}\n")
PY
}

# verdict DIR LABEL EXPECTED -- [testgate check args…]: runs a check as a
# user would and compares its verdict and failing names with EXPECTED (a
# .expected file, or "pass").
verdict() {
    local dir="$1" label="$2" expected="$3"
    shift 4
    local json="$work/check.$$.json" rc=0
    (cd "$dir" && "$testgate" check --json "$@" >"$json" 2>"$work/check.$$.log") || rc=$?
    python3 - "$json" "$expected" "$label" "$rc" <<'PY' || { wrong=1; tail -20 "$work/check.$$.log" >&2; }
import json, sys
doc_path, expected, label, rc = sys.argv[1:]
try:
    doc = json.load(open(doc_path))
except Exception as e:
    print(f"WRONG {label}: no check document ({e}), exit {rc}")
    sys.exit(1)
verdict = doc["verdict"]
failing = sorted(doc["failing"])
if expected == "pass":
    want_verdict, want = "pass", []
else:
    want_verdict = "fail"
    want = sorted(l.rstrip("\n") for l in open(expected) if l.strip() and not l.startswith("#"))
ok = verdict.lower() == want_verdict and failing == want
print(f"{'ok   ' if ok else 'WRONG'} {label}: {verdict}, exit {rc}, {len(failing)} failing"
      + ("" if ok else f" {failing} (want {want_verdict} {want}); cause {doc.get('cause')}: {doc.get('reason')}"))
sys.exit(0 if ok else 1)
PY
}

# checks DIR NAME EXPECTED ZERO COMMAND…: the four checks (two sandboxes,
# with and without the command; ZERO=no skips the zero-config one).
checks() {
    local dir="$1" name="$2" expected="$3" zero="$4"
    shift 4
    for sandbox in bwrap landlock; do
        verdict "$dir" "$name, $sandbox, -- $*" "$expected" -- --sandbox "$sandbox" -- "$@"
        if [[ "$zero" == yes ]]; then
            verdict "$dir" "$name, $sandbox, zero-config" "$expected" -- --sandbox "$sandbox"
        fi
    done
}

# broken FILE…: keeps each FILE as it was, for `mended`.
broken() {
    for file in "$@"; do cp "$file" "$file.as-fetched"; done
}

# mended FILE…: puts each FILE back as it was fetched.
mended() {
    # touched: a build must see it newer than what the broken one built.
    for file in "$@"; do mv "$file.as-fetched" "$file" && touch "$file"; done
}

php_parser() {
    local dir="$work/php-parser" out="$fixtures/phpunit"
    snapshot "${PHP_PARSER_REPO:-$mirror/nikic+PHP-Parser/repo}" 51bd93cc741b7fc3d63d20b6bdcd99fdaa359837 "$dir"
    (cd "$dir" && composer dump-autoload --dev -q)
    [[ "$prepare_only" == no ]] || return 0
    local what="phpunit (nikic/PHP-Parser v4.19.5, PHPUnit $(phpunit --version | head -1 | cut -d' ' -f2))"
    (cd "$dir" && phpunit --log-junit "$work/pp.xml" >/dev/null 2>&1)
    checks "$dir" php-parser pass yes phpunit
    broken "$dir/test/PhpParser/Node/Scalar/StringTest.php" "$dir/test/PhpParser/CommentTest.php"
    # The break: one data set's expectation, and one assertion.
    sed -i 's/\["\\x1B",           /["\\x1C",           /' "$dir/test/PhpParser/Node/Scalar/StringTest.php"
    sed -i "0,/assertSame('\/\* Some comment \*\/', \$comment->getText())/s//assertNotSame('\/* Some comment *\/', \$comment->getText())/" \
        "$dir/test/PhpParser/CommentTest.php"
    (cd "$dir" && phpunit --log-junit "$work/pp.xml" >"$out/real_php_parser_broken.log" 2>&1) || true
    names "$work/pp.xml" phpunit "$out/real_php_parser_broken" "$what, broken"
    checks "$dir" php-parser-broken "$out/real_php_parser_broken.expected" yes phpunit
    mended "$dir/test/PhpParser/Node/Scalar/StringTest.php" "$dir/test/PhpParser/CommentTest.php"
}

thor() {
    local dir="$work/thor" out="$fixtures/rspec"
    snapshot "${THOR_REPO:-$mirror/rails+thor/repo}" d89dd720c8774e6ba354d9df195ef003c3bbd465 "$dir"
    sed -i -e '/require "coveralls"/d' \
        -e 's/SimpleCov.formatters = .*/SimpleCov.formatters = [SimpleCov::Formatter::HTMLFormatter]/' \
        -e 's/WebMock.disable_net_connect!(allow: "coveralls.io")/WebMock.disable_net_connect!/' "$dir/spec/helper.rb"
    [[ "$prepare_only" == no ]] || return 0
    local what="rspec (rails/thor d89dd720c877, RSpec $(rspec --version | sed -n 's/ *- rspec-core //p'))"
    checks "$dir" thor pass yes rspec
    broken "$dir/spec/util_spec.rb"
    sed -i 's/expect(Thor::Util.namespace_from_thor_class("Foo::Bar::Baz")).to eq/expect(Thor::Util.namespace_from_thor_class("Foo::Bar::Baz")).not_to eq/' \
        "$dir/spec/util_spec.rb"
    (cd "$dir" && rspec --format progress --format json --out "$work/thor.json" >"$out/real_thor_broken.log" 2>&1) || true
    # SimpleCov's last line names the project's place and its coverage: kept.
    names "$work/thor.json" rspec "$out/real_thor_broken" "$what, broken"
    checks "$dir" thor-broken "$out/real_thor_broken.expected" yes rspec
    mended "$dir/spec/util_spec.rb"
}

liquid() {
    local dir="$work/liquid" out="$fixtures/minitest"
    snapshot "${LIQUID_REPO:-$mirror/Shopify+liquid/repo}" b4667adadff0b648b33678d5db958e59b59c7f80 "$dir"
    [[ "$prepare_only" == no ]] || return 0
    local what="rake test (Shopify/liquid v5.6.0, minitest $(ruby -e 'require "minitest"; puts Minitest::VERSION'))"
    checks "$dir" liquid pass yes rake test
    broken "$dir/test/unit/lexer_unit_test.rb"
    sed -i '16s/assert_equal(/refute_equal(/' "$dir/test/unit/lexer_unit_test.rb"
    grep -q refute_equal "$dir/test/unit/lexer_unit_test.rb"
    : >"$work/liquid.record"
    (cd "$dir" && RUBYOPT="-I$here/minitest" TG_MINITEST_RECORD="$work/liquid.record" \
        rake test TESTOPTS=--seed=1 >"$out/real_liquid_broken.log" 2>&1) || true
    names "$work/liquid.record" minitest "$out/real_liquid_broken" "$what --seed=1, broken"
    checks "$dir" liquid-broken "$out/real_liquid_broken.expected" yes rake test
    mended "$dir/test/unit/lexer_unit_test.rb"
}

fmt() {
    local dir="$work/fmt"
    # Its build takes long (some 20 minutes on two busy cores): a tree
    # already laid and built here is reused, only brought up to date.
    if [[ ! -f "$dir/build/CMakeCache.txt" ]]; then
        snapshot "${FMT_REPO:-$mirror/fmtlib+fmt/repo}" 407c905e45ad75fc29bf0f9bb7c5c2fd3475976f "$dir"
        (cd "$dir" && cmake -S . -B build >/dev/null)
    fi
    (cd "$dir" && cmake --build build -j"$(nproc)" >/dev/null)
    [[ "$prepare_only" == no ]] || return 0
    local gtest_what="format-test (fmtlib/fmt 12.1.0, its own GoogleTest)"
    local ctest_what="ctest (fmtlib/fmt 12.1.0, ctest $(ctest --version | head -1 | cut -d' ' -f3))"
    checks "$dir" fmt pass no ctest --test-dir build
    checks "$dir" fmt-format-test pass no build/bin/format-test
    broken "$dir/test/format-test.cc"
    # The break: one assertion of format_test.escape inverted.
    sed -i '0,/EXPECT_EQ(fmt::format("{{"), "{");/s//EXPECT_NE(fmt::format("{{"), "{");/' "$dir/test/format-test.cc"
    (cd "$dir" && cmake --build build --target format-test >/dev/null)
    (cd "$dir" && GTEST_OUTPUT="xml:$work/fmt-gtest.xml" build/bin/format-test \
        >"$fixtures/gtest/real_fmt_format_test_broken.log" 2>&1) || true
    COMPLETE=yes names "$work/fmt-gtest.xml" gtest "$fixtures/gtest/real_fmt_format_test_broken" "$gtest_what, broken"
    (cd "$dir" && ctest --test-dir build --output-junit "$work/fmt-ctest.xml" \
        >"$fixtures/ctest/real_fmt_broken.log" 2>&1) || true
    COMPLETE=yes names "$work/fmt-ctest.xml" ctest "$fixtures/ctest/real_fmt_broken" "$ctest_what, broken"
    checks "$dir" fmt-broken "$fixtures/ctest/real_fmt_broken.expected" no ctest --test-dir build
    checks "$dir" fmt-format-test-broken "$fixtures/gtest/real_fmt_format_test_broken.expected" no build/bin/format-test
    mended "$dir/test/format-test.cc"
    (cd "$dir" && cmake --build build --target format-test >/dev/null)
}

cjson() {
    local dir="$work/cjson"
    snapshot "${CJSON_REPO:-$mirror/DaveGamble+cJSON/repo}" c859b25da02955fef659d658b8f324b5cde87be3 "$dir"
    [[ "$prepare_only" == no ]] || return 0
    # Zero-config builds it itself (testgate-build/): the tree as fetched.
    for sandbox in bwrap landlock; do
        verdict "$dir" "cjson, $sandbox, zero-config" pass -- --sandbox "$sandbox"
    done
    # The break: one assertion of parse_number's tests inverted.
    sed -i '0,/assert_is_number(item);/s//TEST_ASSERT_FALSE(cJSON_IsNumber(item));/' "$dir/tests/parse_number.c"
    grep -q 'TEST_ASSERT_FALSE(cJSON_IsNumber(item))' "$dir/tests/parse_number.c"
    (cd "$dir" && cmake -S . -B "$work/cjson-build" >/dev/null && cmake --build "$work/cjson-build" >/dev/null &&
        ctest --test-dir "$work/cjson-build" --output-junit "$work/cjson.xml" >/dev/null 2>&1) || true
    COMPLETE=yes names "$work/cjson.xml" ctest "$work/cjson_broken" "ctest (DaveGamble/cJSON v1.7.19), broken"
    for sandbox in bwrap landlock; do
        verdict "$dir" "cjson-broken, $sandbox, zero-config" "$work/cjson_broken.expected" -- --sandbox "$sandbox"
    done
}

prepare_only=no
if [[ "${1:-}" == --prepare-only ]]; then
    prepare_only=yes
    shift
fi
[[ "$prepare_only" == yes || -x "$testgate" ]] || { echo "$testgate: build it first (cargo build --release -p testgate-cli)" >&2; exit 2; }
projects=("$@")
[[ ${#projects[@]} -gt 0 ]] || projects=(php-parser thor liquid fmt cjson)
for project in "${projects[@]}"; do
    case "$project" in
        php-parser) php_parser ;;
        thor) thor ;;
        liquid) liquid ;;
        fmt) fmt ;;
        cjson) cjson ;;
        *) echo "unknown project $project" >&2; exit 2 ;;
    esac
done
exit "$wrong"
