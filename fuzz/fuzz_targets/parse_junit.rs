//! `parse_junit` and `parse_json_report` on arbitrary bytes: they never
//! panic, and what they give is consistent (every failing test is among the
//! tests, each (name, context) once).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = testgate_parse::is_junit(data);
    let _ = testgate_parse::is_json_report(data);
    let reports = [
        testgate_parse::parse_junit(data),
        testgate_parse::parse_json_report(data),
    ];
    for report in reports.into_iter().flatten() {
        // A test is its name within its context (two files may each hold
        // a test of one title).
        let mut tests = std::collections::HashSet::new();
        for test in &report.tests {
            assert!(
                tests.insert((test.name.as_str(), test.context.as_deref())),
                "{} in {:?} twice",
                test.name,
                test.context
            );
        }
        for failing in &report.failing {
            assert!(
                tests.contains(&(failing.name.as_str(), failing.context.as_deref()))
                    || report.tests_omitted > 0
            );
        }
    }
});
