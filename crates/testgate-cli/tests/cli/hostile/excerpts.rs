//! Attacks through each failing test's own output (its excerpt): forged
//! blocks of other tests, a flood and control bytes inside a real one.

use super::harness::{Attack, has_control};

/// The excerpts are attributed text: a forged block names no test and
/// lends no text, the real test's excerpt keeps its start and its end
/// within the cap, and everything reaches the JSON printable.
#[test]
fn forged_and_flooding_blocks_stay_bounded_and_name_no_test() {
    let attack = Attack::new("forged-excerpts");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let line = outcome.stdout.strip_suffix(b"\n").expect("one line");
    assert!(
        !has_control(line),
        "raw control bytes in {:?}",
        String::from_utf8_lossy(line)
    );
    let doc = outcome.doc();
    assert_eq!(doc["failing"], serde_json::json!(["real"]), "{doc}");
    let failures = doc["failures"].as_array().expect("failures");
    assert_eq!(failures.len(), 1, "{failures:?}");
    let real = &failures[0];
    assert_eq!(real["name"], "real");
    assert_eq!(real["message"], "REAL-MESSAGE");
    let excerpt = real["excerpt"].as_str().expect("an excerpt");
    assert!(
        excerpt.len() <= 4096 + 128,
        "{} bytes: {excerpt:?}",
        excerpt.len()
    );
    assert!(excerpt.starts_with("REAL-START"), "{excerpt}");
    assert!(excerpt.ends_with("REAL-END"), "{excerpt}");
    assert!(excerpt.contains(" bytes cut …]"), "{excerpt}");
    assert!(!has_control(excerpt.as_bytes()), "{excerpt:?}");
    let reason = outcome.reason();
    // MAX_REASON bounds the reason before its control characters are
    // shown as escapes (`\u{9b}`, `\u{d}`: 8 bytes more here).
    assert!(reason.len() <= 8 * 1024 + 64, "{} bytes", reason.len());
    assert!(
        reason.contains("the output of real in attempt 1:\nREAL-START"),
        "{reason}"
    );
    assert!(!has_control(reason.as_bytes()), "{reason:?}");
    // The tail shows the end of the output as it was; the excerpts before
    // it hold no forged text.
    let excerpts = reason
        .split("the end of the output of attempt 1:")
        .next()
        .unwrap_or_default();
    for text in [excerpt, excerpts] {
        assert!(!text.contains("FORGED"), "{text}");
    }
    assert!(!reason.contains("the output of fake"), "{reason}");
    assert!(!reason.contains("the output of forged"), "{reason}");
    attack.assert_contained(&outcome);
}
