//! A calculator whose tests testgate's end-to-end tests run.

/// Adds two numbers.
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The fixture mode: pass, fail, flaky or hang.
pub fn mode() -> String {
    std::env::var("TESTGATE_FIXTURE").unwrap_or_else(|_| "pass".into())
}

/// Counts this run in `.flaky-count`; true on odd-numbered runs.
pub fn odd_run() -> bool {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.flaky-count");
    let n: u64 = std::fs::read_to_string(path).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0) + 1;
    std::fs::write(path, n.to_string()).expect("write .flaky-count");
    // testgate puts the tree back between attempts and numbers them: the
    // runs of earlier attempts (one each) come before this attempt's.
    let n = n + std::env::var("TESTGATE_ATTEMPT").ok().and_then(|a| a.parse::<u64>().ok()).unwrap_or(1) - 1;
    n % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn adds_negative() {
        let expected = if mode() == "fail" { 0 } else { -1 };
        assert_eq!(add(1, -2), expected);
    }

    #[test]
    fn sometimes() {
        if mode() == "flaky" {
            assert!(!odd_run(), "odd-numbered run");
        }
    }

    #[test]
    fn hangs() {
        if mode() == "hang" {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}
