//! The end of a log, where a test runner puts its summary.

/// How far past the cut `tail` looks for a line start to begin at.
const LINE_START_SLACK: usize = 240;

/// The last `max` bytes of `text` at most, cut at a char boundary, and
/// starting at a line start when one lies within a short distance after the
/// cut (so the first line is whole).
///
/// A test runner prints its summary last, so the tail of its output is what
/// a reader of a failure needs; its head is mostly passing tests.
///
/// ```
/// let log = "test a ... ok\ntest b ... ok\ntest result: FAILED. 2 passed; 1 failed\n";
/// assert_eq!(testgate_parse::tail(log, 45), "test result: FAILED. 2 passed; 1 failed\n");
/// assert_eq!(testgate_parse::tail("héllo", 4), "llo");
/// assert_eq!(testgate_parse::tail("short", 100), "short");
/// ```
pub fn tail(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let slack = LINE_START_SLACK.min(max / 2);
    let window_end = (start + slack).min(text.len());
    if start > 0
        && text.as_bytes()[start - 1] != b'\n'
        && let Some(nl) = memchr::memchr(b'\n', &text.as_bytes()[start..window_end])
        && start + nl + 1 < text.len()
    {
        start += nl + 1;
    }
    &text[start..]
}

#[cfg(test)]
mod tests {
    use super::tail;

    #[test]
    fn never_exceeds_max_and_is_a_suffix() {
        let text = "αβγ\nline two\nline three with ünïcode\n";
        for max in 0..text.len() + 2 {
            let t = tail(text, max);
            assert!(t.len() <= max, "max {max}: {t:?}");
            assert!(text.ends_with(t));
        }
    }

    #[test]
    fn prefers_a_line_start_close_to_the_cut() {
        let text = format!("{}\nsummary line\n", "x".repeat(1000));
        assert_eq!(tail(&text, 20), "summary line\n");
    }

    #[test]
    fn keeps_a_partial_line_when_no_line_start_is_close() {
        let text = "y".repeat(5000);
        assert_eq!(tail(&text, 100).len(), 100);
    }
}
