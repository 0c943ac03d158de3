//! `parse_junit` and `parse_json_report` on arbitrary bytes: they never
//! panic, and what they give is consistent (every failing name is among the
//! tests, each once).
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
        let mut names = std::collections::HashSet::new();
        for test in &report.tests {
            assert!(names.insert(test.name.as_str()), "{} twice", test.name);
        }
        for failing in &report.failing {
            assert!(names.contains(failing.name.as_str()) || report.tests_omitted > 0);
        }
    }
});
