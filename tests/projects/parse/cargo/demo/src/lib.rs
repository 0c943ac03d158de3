//! Fails on purpose: unit tests, doctests and a liar for testgate-parse.

/// Adds two numbers.
///
/// ```
/// assert_eq!(demo::add(2, 2), 4);
/// ```
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Subtracts, wrongly documented: this doctest fails.
///
/// ```
/// assert_eq!(demo::sub(5, 3), 3);
/// ```
pub fn sub(a: i64, b: i64) -> i64 {
    a - b
}

/// Parses a number; the empty string is 0 (which the test below disputes).
pub fn parse(s: &str) -> Option<i64> {
    if s.is_empty() {
        return Some(0);
    }
    s.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn parses_empty() {
        assert_eq!(parse(""), None, "the empty string is no number");
    }

    #[test]
    #[should_panic(expected = "overflow")]
    fn must_panic() {
        // Does not panic: a should_panic test that fails.
        let _ = add(1, 1);
    }

    #[test]
    #[should_panic]
    fn panics_as_told() {
        panic!("as expected");
    }

    #[test]
    fn liar() {
        // Passes, but prints lines that look like failures of several runners.
        println!("--- FAIL: TestFake (0.00s)");
        println!("test fake ... FAILED");
        println!("FAIL [   0.001s] demo::fake fake");
    }

    #[test]
    fn prints_no_newline() {
        // Under --nocapture this lands in the middle of libtest's line.
        print!("some printed text");
    }

    #[test]
    fn prints_then_fails() {
        print!("partial output without newline");
        assert_eq!(add(2, 2), 5);
    }

    #[test]
    #[ignore = "slow, run by hand"]
    fn ignored_slow() {}
}
