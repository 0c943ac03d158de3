#!/bin/sh
# Seeds fuzz/corpus/<target>/ with the captured runner logs.
#
# Each parser target gets its own format's logs and every other format's
# (Auto runs on all of them, and a log a parser must NOT claim is as useful
# a seed as one it must); stream_chunks gets every log behind a header that
# picks a format and a few chunk sizes; policy_driver starts from a handful
# of hand-made records. Safe to run again: it only adds files.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
fixtures="$here/../crates/testgate-parse/tests/fixtures"
corpus="$here/corpus"

# One parser target per runner (`fuzz_targets/parse_<runner>.rs`), found
# here rather than listed, so that a new runner's target is seeded too.
for source in "$here"/fuzz_targets/parse_*.rs; do
    target=$(basename "$source" .rs)
    [ "$target" = parse_junit ] && continue
    mkdir -p "$corpus/$target"
    for log in "$fixtures"/*/*.log; do
        [ -e "$log" ] || continue
        format=$(basename "$(dirname "$log")")
        cp "$log" "$corpus/$target/${format}_$(basename "$log")"
    done
done

# The captured JUnit and JSON reports seed parse_junit.
mkdir -p "$corpus/parse_junit"
for xml in "$fixtures"/*/*.junit.xml "$fixtures"/*/*.report.json; do
    [ -e "$xml" ] || continue
    cp "$xml" "$corpus/parse_junit/$(basename "$(dirname "$xml")")_$(basename "$xml")"
done

# Header: format byte (0 = auto, 1 cargo, 2 nextest, 3 pytest, 4 go, 5 jest,
# 6 vitest: the index in `Format::ALL`; a runner not named here is seeded
# as auto), a count of chunk sizes, the sizes.
mkdir -p "$corpus/stream_chunks"
for log in "$fixtures"/*/*.log; do
    [ -e "$log" ] || continue
    format=$(basename "$(dirname "$log")")
    case "$format" in
        cargo) f='\001' ;; nextest) f='\002' ;; pytest) f='\003' ;;
        go) f='\004' ;; jest) f='\005' ;; vitest) f='\006' ;; *) f='\000' ;;
    esac
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
