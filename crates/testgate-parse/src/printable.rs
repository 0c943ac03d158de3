//! Output made safe to show: what a terminal or a JSON reader can take.

use crate::line::strip_ansi;

/// `output` as printable text: ANSI and OSC escape sequences removed,
/// invalid UTF-8 replaced by U+FFFD, `\r\n` made `\n`, and every other
/// control character (NUL, a lone `\r`, BEL, …) replaced by U+FFFD, so that
/// a reason quoting a test's output cannot drive the reader's terminal.
/// Newlines and tabs stay.
///
/// ```
/// let shown = testgate_parse::printable(b"\x1b[31mFAIL\x1b[0m a\x00b\r\n\xff\n");
/// assert_eq!(shown, "FAIL a\u{fffd}b\n\u{fffd}\n");
/// ```
pub fn printable(output: &[u8]) -> String {
    let stripped = strip_ansi(output);
    let text = String::from_utf8_lossy(&stripped);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\t' => out.push(c),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn removes_every_control_character_but_newline_and_tab() {
        let all: Vec<u8> = (0u8..=0x7f).collect();
        let shown = printable(&all);
        assert!(
            shown
                .chars()
                .all(|c| !c.is_control() || c == '\n' || c == '\t')
        );
        assert!(shown.contains("ABC"));
    }

    #[test]
    fn keeps_unicode_and_lines() {
        assert_eq!(printable("ünï\tcode\nline".as_bytes()), "ünï\tcode\nline");
    }
}
