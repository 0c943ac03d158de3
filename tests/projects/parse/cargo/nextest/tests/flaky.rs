//! A test that fails on its first try only, and one that always fails.

use std::path::PathBuf;

fn counter() -> PathBuf {
    // The capture script deletes this file before each run.
    std::env::var_os("FLAKY_COUNTER")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".flaky-counter"))
}

#[test]
fn fails_once() {
    let path = counter();
    let tries: u32 = std::fs::read_to_string(&path)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    std::fs::write(&path, (tries + 1).to_string()).unwrap();
    assert!(tries >= 1, "first try fails");
}

#[test]
fn always_fails() {
    panic!("never works");
}
