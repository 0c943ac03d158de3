#!/usr/bin/env bash
# Reruns minitest over tests/projects/parse/minitest/* and rewrites
# tests/fixtures/minitest/<case>.log (stdout+stderr as they came),
# <case>.expected (the failed and errored tests as minitest's own Result
# records them: a reporter plugin, put on the load path from outside the
# project by minitest/minitest/tg_record_plugin.rb through RUBYOPT, writes
# each result as JSON) and <case>.outcomes (every test's outcome by the
# same record).
#
# minitest 5.15 and rake 13 from Debian 12's packages (`apt-get install
# ruby ruby-minitest rake`, scripts/setup). `--seed 1`: one order.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/minitest"
out="$crate/tests/fixtures/minitest"
work=/tmp/testgate-capture/minitest
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$projects"/. "$work/"
export RUBYOPT="-I$here/minitest"

# capture CASE PROJECT COMMAND…: runs COMMAND in PROJECT, recording.
capture() {
    local case="$1" project="$2"
    shift 2
    local record="$work/$case.record"
    rm -f "$record"
    : >"$record"
    (cd "$work/$project" && TG_MINITEST_RECORD="$record" "$@" >"$out/$case.log" 2>&1) || true
    ruby -rjson - "$record" "$out/$case" <<'RUBY'
record, stem = ARGV
what = "minitest's Result, recorded by a reporter plugin, same run"
results = File.readlines(record).map { |l| JSON.parse(l) }
File.open("#{stem}.expected", "w") do |f|
  f.puts "# source: #{what}; names: Class#name of each failed or errored test"
  results.each { |r| f.puts r["name"] if %w[failed error].include?(r["outcome"]) }
end
File.open("#{stem}.outcomes", "w") do |f|
  f.puts "# source: #{what}; every test's outcome"
  results.each { |r| f.puts "#{r["outcome"]} #{r["name"]}" }
end
RUBY
}

capture default calc ruby -Itest test/calc_test.rb --seed 1
capture verbose calc ruby -Itest test/calc_test.rb -v --seed 1
capture all_pass pass ruby -Itest test/pass_test.rb --seed 1
capture rake_test calc rake test TESTOPTS="-v --seed=1"
echo "captured into $out"
