//! A test that fails when it first runs and passes when nextest retries it
//! (issue 28): under `--retries 2 --status-level none --final-status-level
//! none` nextest's console shows no try, only `2 passed (1 flaky)` in its
//! summary; its JUnit report records the failed try (`flakyFailure`).

#[cfg(test)]
mod tests {
    #[test]
    fn fails_then_passes_on_retry() {
        let tries = concat!(env!("CARGO_MANIFEST_DIR"), "/.tries");
        let before = std::fs::read_to_string(tries).unwrap_or_default();
        std::fs::write(tries, format!("{before}x")).expect("count the try");
        assert!(!before.is_empty(), "the first try fails");
    }

    #[test]
    fn honest() {
        assert_eq!(1 + 1, 2);
    }
}
