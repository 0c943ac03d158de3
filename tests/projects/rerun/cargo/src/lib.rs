//! Tests for testgate's targeted retries (see ../README.md).

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    static POLLUTED: AtomicBool = AtomicBool::new(false);

    fn mode() -> String {
        std::env::var("TESTGATE_FIXTURE").unwrap_or_else(|_| "pass".into())
    }

    fn first_run() -> bool {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.flaky-count");
        let n: u64 = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
            + 1;
        std::fs::write(path, n.to_string()).expect("write .flaky-count");
        // testgate puts the tree back between attempts and numbers them: the
        // runs of earlier attempts (one each) come before this attempt's.
        let n = n + std::env::var("TESTGATE_ATTEMPT").ok().and_then(|a| a.parse::<u64>().ok()).unwrap_or(1) - 1;
        n == 1
    }

    macro_rules! many {
        ($($name:ident)*) => { $( #[test] fn $name() {} )* };
    }
    many!(m00 m01 m02 m03 m04 m05 m06 m07 m08 m09 m10 m11 m12 m13 m14 m15 m16 m17 m18 m19);

    #[test]
    fn fails() {
        assert_ne!(mode(), "fail");
    }

    #[test]
    fn ünïcode_fails() {
        assert_ne!(mode(), "fail");
    }

    /// `fails` is a prefix of its name: without `--exact` it would run too.
    #[test]
    fn fails_not() {}

    #[test]
    fn a_pollutes() {
        POLLUTED.store(true, Ordering::SeqCst);
    }

    #[test]
    fn b_victim() {
        assert!(
            !(mode() == "order" && POLLUTED.load(Ordering::SeqCst)),
            "polluted by a_pollutes"
        );
    }

    #[test]
    fn sometimes() {
        if mode() == "flaky" {
            assert!(!first_run(), "first run");
        }
    }
}
