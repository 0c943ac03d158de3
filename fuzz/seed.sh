#!/bin/sh
# Seeds fuzz/corpus/<target>/ with the captured runner logs.
#
# parse_runner gets every log behind every runner's byte; go_events every
# log; go_framing go's captured `-v=test2json` outputs; stream_chunks every log behind a header that picks a format and a few
# chunk sizes; parse_junit the captured reports; policy_driver starts from a
# handful of hand-made records. Safe to run again: it only adds files.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/../crates/testgate-parse/tests/fixtures"
corpus="$here/corpus"

# The runners in `Runner::ALL`'s order (read from runner.rs; each runner's
# name is its variant's in lowercase): parse_runner's first byte and
# stream_chunks' format byte index them.
runners=$(sed -n '/pub const ALL: \[Runner;/,/\];/p' "$here/../crates/testgate-parse/src/runner.rs" |
    grep -o 'Runner::[A-Za-z]*' | sed 's/Runner:://' | tr 'A-Z' 'a-z')

# parse_runner: every log behind every runner's byte (a log a parser must
# NOT claim is as useful a seed as one it must); go_events: every log.
mkdir -p "$corpus/parse_runner" "$corpus/go_events"
for log in "$fixtures"/*/*.log; do
    [ -e "$log" ] || continue
    format=$(basename "$(dirname "$log")")
    name="${format}_$(basename "$log" .log)"
    cp "$log" "$corpus/go_events/$name"
    i=0
    for runner in $runners; do
        { printf "$(printf '\\%03o' "$i")"; cat "$log"; } >"$corpus/parse_runner/${runner}_$name"
        i=$((i + 1))
    done
done

# go_framing: go's captured `-v=test2json` outputs, behind a chunk-size
# byte (7 bytes, then 64).
mkdir -p "$corpus/go_framing"
for framing in "$fixtures"/go/*.framing; do
    [ -e "$framing" ] || continue
    name=$(basename "$framing" .framing)
    { printf '\006'; cat "$framing"; } >"$corpus/go_framing/${name}_7"
    { printf '\077'; cat "$framing"; } >"$corpus/go_framing/${name}_64"
done

# The captured JUnit and JSON reports seed parse_junit.
mkdir -p "$corpus/parse_junit"
for xml in "$fixtures"/*/*.junit.xml "$fixtures"/*/*.report.json; do
    [ -e "$xml" ] || continue
    cp "$xml" "$corpus/parse_junit/$(basename "$(dirname "$xml")")_$(basename "$xml")"
done

# Header: format byte (0 = auto, then each runner at its index in
# `Format::ALL`: 1 + its place in `Runner::ALL`), a count of chunk sizes, the
# sizes.
mkdir -p "$corpus/stream_chunks"
for log in "$fixtures"/*/*.log; do
    [ -e "$log" ] || continue
    format=$(basename "$(dirname "$log")")
    f='\000'
    i=1
    for runner in $runners; do
        [ "$runner" = "$format" ] && f=$(printf '\\%03o' "$i")
        i=$((i + 1))
    done
    name="${format}_$(basename "$log" .log)"
    { printf '\000\003\001\007\100'; cat "$log"; } >"$corpus/stream_chunks/auto_$name"
    { printf "$f"'\002\003\021'; cat "$log"; } >"$corpus/stream_chunks/own_$name"
done

# Policy records: retries, rerun, then per attempt the ending, the
# selection bit, the flags and the failing list (see policy_driver.rs).
mkdir -p "$corpus/policy_driver"
printf '\000\000\000\000\004\000' >"$corpus/policy_driver/pass_once"
printf '\003\000\002\001\000\004\001\000' >"$corpus/policy_driver/fail_same_name"
printf '\003\001\002\001\000\004\002\000\001\000\000\004\000' >"$corpus/policy_driver/rerun_failed_flaky"
printf '\002\000\005\007\000\004\000' >"$corpus/policy_driver/timeout"
