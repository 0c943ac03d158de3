#!/usr/bin/env bash
# Reruns RSpec over tests/projects/parse/rspec/* and rewrites
# tests/fixtures/rspec/<case>.log (stdout+stderr as they came),
# <case>.expected (the failing examples' full descriptions from RSpec's own
# JSON formatter, written by the same run beside the console's formatter,
# kept as <case>.report.json without its backtraces),
# <case>.outcomes (every example's status by the same JSON) and, for
# rspec-retry, <case>.flaky (the places rspec-retry's `retry_callback`
# retried whose example the JSON gives as passed).
#
# RSpec 3.12 and rspec-retry 0.6 from Debian 12's packages
# (`apt-get install ruby ruby-rspec ruby-rspec-retry`, scripts/setup).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
crate="$(cd "$here/../.." && pwd)"
root="$(cd "$crate/../.." && pwd)"
projects="$root/tests/projects/parse/rspec"
out="$crate/tests/fixtures/rspec"
# A fixed place, so that the paths in backtraces do not change from one
# capture to the next.
work=/tmp/testgate-capture/rspec
rm -rf "$work"
mkdir -p "$work" "$out"
cp -r "$projects"/. "$work/"

# capture CASE PROJECT FORMAT: runs `rspec --format FORMAT` in PROJECT with
# the JSON formatter beside it, and writes the case's files.
capture() {
    local case="$1" project="$2" format="$3"
    local dir="$work/$project" json="$work/$case.json" retried="$work/$case.retried"
    rm -f "$json" "$retried"
    : >"$retried"
    (cd "$dir" && TG_RETRIED="$retried" rspec --no-color --format "$format" \
        --format json --out "$json" >"$out/$case.log" 2>&1) || true
    rm -f "$out/$case.flaky"
    # The report itself, pretty and without backtraces (RSpec's own lines,
    # long and of no use to the names), for the parser of the report.
    ruby -rjson -e 'r = JSON.parse(File.read(ARGV[0]))
      r["examples"].each { |e| e["exception"]&.delete("backtrace") }
      File.write(ARGV[1], JSON.pretty_generate(r) + "\n")' "$json" "$out/$case.report.json"
    ruby -rjson - "$json" "$retried" "$out/$case" <<'RUBY'
json, retried, stem = ARGV
report = JSON.parse(File.read(json))
what = "RSpec's JSON formatter, same run"
failed = report["examples"].select { |e| e["status"] == "failed" }
# A file that did not load is no example: the JSON gives it only in
# RSpec's message, `An error occurred while loading ./spec/x_spec.rb.`
unloaded = report["messages"].to_a.flat_map do |m|
  m.scan(/^An error occurred while loading (\S+)\.$/).map(&:first)
end
places = File.readlines(retried, chomp: true).uniq
failed_places = failed.map { |e| "#{e["file_path"]}:#{e["line_number"]}" }
flaky = places - failed_places
File.open("#{stem}.expected", "w") do |f|
  f.puts "# source: #{what}; names: each failed example's full_description, and each file RSpec's message says did not load"
  failed.each { |e| f.puts e["full_description"] }
  unloaded.each { |path| f.puts path }
end
File.open("#{stem}.outcomes", "w") do |f|
  f.puts "# source: #{what}; every example's status; a file that did not load failed; a flaky place (below) is flaky"
  report["examples"].each do |e|
    outcome = { "passed" => "passed", "failed" => "failed", "pending" => "skipped" }.fetch(e["status"])
    f.puts "#{outcome} #{e["full_description"]}"
  end
  unloaded.each { |path| f.puts "failed #{path}" }
  flaky.each { |place| f.puts "flaky #{place}" }
end
unless places.empty?
  File.open("#{stem}.flaky", "w") do |f|
    f.puts "# source: rspec-retry's retry_callback (the places retried) less the places RSpec's JSON gives as failed, same run"
    flaky.each { |p| f.puts p }
  end
end
RUBY
}

capture progress calc progress
capture documentation calc documentation
capture all_pass pass progress
capture load_error load_error progress
capture retry retry progress
capture retry_documentation retry documentation
echo "captured into $out"
