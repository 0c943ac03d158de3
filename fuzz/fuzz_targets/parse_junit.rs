//! `parse_junit` on arbitrary bytes: it never panics, and what it gives is
//! consistent (every failing name is among the tests, each once).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = testgate_parse::is_junit(data);
    if let Ok(report) = testgate_parse::parse_junit(data) {
        let mut names = std::collections::HashSet::new();
        for test in &report.tests {
            assert!(names.insert(test.name.as_str()), "{} twice", test.name);
        }
        for failing in &report.failing {
            assert!(names.contains(failing.name.as_str()) || report.tests_omitted > 0);
        }
    }
});
