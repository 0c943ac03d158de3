//! Every runner's parser, and `Format::Auto`, on arbitrary bytes.
//!
//! Input layout: byte 0 picks the runner (its index in `Runner::ALL`, modulo
//! its length, so a new runner is fuzzed without a new target); the rest is
//! the output. A parser never panics (libFuzzer catches that by itself); on
//! top of it the report must be self-consistent whatever the bytes.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use testgate_parse::{Format, Report, Runner, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&runner, output)) = data.split_first() else {
        return;
    };
    check_format(Runner::ALL[usize::from(runner) % Runner::ALL.len()], output);
});

/// Parses `data` as `format` and as `Format::Auto`, and checks both reports.
fn check_format(format: Runner, data: &[u8]) {
    let explicit = parse(format, data);
    check_report(&explicit, data);
    // An explicit format names itself or nothing.
    assert!(
        explicit.format.is_none() || explicit.format == Some(format),
        "parse({format}) reported {:?}",
        explicit.format
    );
    for test in &explicit.failing {
        assert_eq!(test.format, format, "{test:?} found by the {format} parser");
    }

    let auto = parse(Format::Auto, data);
    check_report(&auto, data);
    // Auto runs every recogniser, this one included: whatever this format's
    // parser alone detects, Auto detects something too.
    if explicit.format.is_some() {
        assert!(
            auto.format.is_some(),
            "{format} detected alone, not by Auto"
        );
    }
}

fn check_report(report: &Report, data: &[u8]) {
    // A name is the test's identity within its context: two files may
    // each have a failing test of one title (docs/formats.md).
    let mut seen = HashSet::new();
    for test in &report.failing {
        assert!(
            seen.insert((test.name.as_str(), test.context.as_deref())),
            "{:?} in {:?} reported twice",
            test.name,
            test.context
        );
    }
    assert!(
        report.lines <= data.len() as u64 + 1,
        "{} lines from {} bytes",
        report.lines,
        data.len()
    );
    assert!(report.long_lines <= report.lines);
    if report.no_tests_ran {
        assert!(report.failing.is_empty(), "no tests ran, yet {report:?}");
    }
}
