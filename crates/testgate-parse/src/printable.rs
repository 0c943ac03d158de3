//! Output made safe to show: what a terminal or a JSON reader can take.

use std::fmt::Write as _;

use crate::line::strip_ansi;

/// `output` as printable text: ANSI and OSC escape sequences removed,
/// invalid UTF-8 replaced by U+FFFD, `\r\n` made `\n`, and every other
/// control character — C0 (NUL, a lone `\r`, BS, BEL, …), DEL, C1 — and
/// every bidirectional-text control (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069) shown *visibly* as its escape, `\u{d}`,
/// `\u{202e}`: a reason quoting a test's output, or a test's name, can
/// neither drive the reader's terminal (`evil\rPASS` printing "PASS" over
/// the line) nor reorder what the reader sees (U+202E), and the reader
/// sees that something was there. Newlines and tabs stay.
///
/// ```
/// let shown = testgate_parse::printable(b"\x1b[31mFAIL\x1b[0m a\x00b\r\n\xff\n");
/// assert_eq!(shown, "FAIL a\\u{0}b\n\u{fffd}\n");
/// let shown = testgate_parse::printable("evil\rPASS \u{202e}txt.exe".as_bytes());
/// assert_eq!(shown, "evil\\u{d}PASS \\u{202e}txt.exe");
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
            c if is_hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether `c` acts on the reader's display instead of showing: a control
/// character or a bidirectional-text control. [`printable`] shows each as
/// its visible escape (`\u{202e}`), except `\n` and `\t`, which it keeps.
///
/// ```
/// assert!(testgate_parse::is_hidden('\r'));
/// assert!(testgate_parse::is_hidden('\u{202e}'));
/// assert!(!testgate_parse::is_hidden('é'));
/// ```
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn shows_every_control_character_but_newline_and_tab_as_its_escape() {
        let all: Vec<u8> = (0u8..=0x7f).collect();
        let shown = printable(&all);
        assert!(
            shown
                .chars()
                .all(|c| !c.is_control() || c == '\n' || c == '\t')
        );
        assert!(shown.contains("ABC"));
        assert!(shown.starts_with("\\u{0}\\u{1}"), "{shown}");
        assert!(shown.contains("\\u{7f}"), "{shown}");
    }

    #[test]
    fn by_table() {
        for (input, shown) in [
            ("evil\rPASS", "evil\\u{d}PASS"),
            ("a\u{8}b", "a\\u{8}b"),
            ("line\r\n", "line\n"),
            ("\u{202e}gnp.exe", "\\u{202e}gnp.exe"),
            ("\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
            (
                "\u{202a}\u{202b}\u{202c}\u{202d}",
                "\\u{202a}\\u{202b}\\u{202c}\\u{202d}",
            ),
            ("\u{2067}\u{2068}", "\\u{2067}\\u{2068}"),
            ("\u{200e}\u{200f}\u{61c}", "\\u{200e}\\u{200f}\\u{61c}"),
            ("c1\u{85}\u{9b}", "c1\\u{85}\\u{9b}"),
            ("ünï\tcode\nline", "ünï\tcode\nline"),
            ("名前 😀 é", "名前 😀 é"),
        ] {
            assert_eq!(printable(input.as_bytes()), shown, "{input:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_nothing_hidden_is_left(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..256)) {
            let shown = printable(&bytes);
            proptest::prop_assert!(shown.chars().all(|c| !super::is_hidden(c) || c == '\n' || c == '\t'));
        }
    }
}
