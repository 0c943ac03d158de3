//! The runner's output made safe to stream to testgate's terminal.
//!
//! The code under test writes to a terminal that is testgate's: an OSC 52
//! there writes the user's clipboard, an OSC 0 their window's title, a
//! cursor hidden or SGR 8 (conceal) left on hides testgate's own verdict.
//! [`TerminalFilter`] passes text, the layout controls (tab, newline,
//! carriage return, backspace) and colours (CSI … `m` but SGR 8); every
//! other escape sequence and control is shown as visible text instead
//! (`ESC ] 52 ;…` as `^[]52;…`). It is a byte-at-a-time state machine, so a
//! sequence split across chunks is judged whole; what it holds back is one
//! CSI sequence, at most [`MAX_CSI`] bytes. Off a terminal the CLI does not
//! use it: pipes and files get the bytes unchanged.

/// The longest CSI sequence judged whole; a longer one is shown as text.
pub(crate) const MAX_CSI: usize = 64;

/// What ends every attempt's stream on a terminal, before testgate's own
/// lines: all attributes off (SGR 0) and the cursor shown.
pub(crate) const RESET: &[u8] = b"\x1b[0m\x1b[?25h";

/// Where the filter is in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Text.
    Ground,
    /// After ESC.
    Escape,
    /// Inside `ESC [`, the bytes so far in `csi`.
    Csi,
    /// After the UTF-8 lead byte 0xC2, which starts a C1 control when the
    /// next byte is 0x80–0x9F.
    C2,
}

/// Filters a stream of output for a terminal; see the module's
/// documentation.
#[derive(Debug, Clone)]
pub(crate) struct TerminalFilter {
    state: State,
    /// The CSI sequence held back, without its `ESC [`.
    csi: Vec<u8>,
}

impl Default for TerminalFilter {
    fn default() -> TerminalFilter {
        TerminalFilter::new()
    }
}

impl TerminalFilter {
    /// A filter at the start of a stream.
    pub(crate) fn new() -> TerminalFilter {
        TerminalFilter {
            state: State::Ground,
            csi: Vec::with_capacity(MAX_CSI),
        }
    }

    /// Appends to `out` what the terminal may be shown of `chunk`.
    pub(crate) fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        for &byte in chunk {
            self.byte(byte, out);
        }
    }

    /// Ends the stream: what is held back (bytes 0x20–0x3F of a CSI
    /// sequence, already text) is shown, and the filter
    /// is back at the start.
    pub(crate) fn finish(&mut self, out: &mut Vec<u8>) {
        match self.state {
            State::Ground => {}
            State::Escape => out.extend_from_slice(b"^["),
            State::Csi => {
                out.extend_from_slice(b"^[[");
                out.extend_from_slice(&self.csi);
                self.csi.clear();
            }
            State::C2 => out.push(0xC2),
        }
        self.state = State::Ground;
    }

    fn byte(&mut self, byte: u8, out: &mut Vec<u8>) {
        match self.state {
            State::Ground => self.ground(byte, out),
            State::Escape => {
                self.state = State::Ground;
                if byte == b'[' {
                    self.state = State::Csi;
                } else {
                    // OSC, DCS, APC, PM, SOS, a charset, RIS, a keypad
                    // mode: none reaches the terminal. Without its ESC the
                    // rest of a string sequence is text.
                    out.extend_from_slice(b"^[");
                    self.ground(byte, out);
                }
            }
            State::Csi => match byte {
                0x20..=0x3F if self.csi.len() < MAX_CSI => self.csi.push(byte),
                0x40..=0x7E => {
                    if byte == b'm' && is_colour(&self.csi) {
                        out.extend_from_slice(b"\x1b[");
                        out.extend_from_slice(&self.csi);
                        out.push(b'm');
                    } else {
                        out.extend_from_slice(b"^[[");
                        out.extend_from_slice(&self.csi);
                        out.push(byte);
                    }
                    self.csi.clear();
                    self.state = State::Ground;
                }
                // Too long, or broken by a control or a non-ASCII byte:
                // what came so far is text, and the byte starts afresh.
                _ => {
                    out.extend_from_slice(b"^[[");
                    out.extend_from_slice(&self.csi);
                    self.csi.clear();
                    self.state = State::Ground;
                    self.ground(byte, out);
                }
            },
            State::C2 => {
                self.state = State::Ground;
                if (0x80..=0x9F).contains(&byte) {
                    // U+0080–U+009F: C1 controls (U+009B is CSI, U+009D
                    // OSC on terminals that take them in UTF-8).
                    out.extend_from_slice(format!("\\u{{{byte:x}}}").as_bytes());
                } else {
                    out.push(0xC2);
                    self.ground(byte, out);
                }
            }
        }
    }

    fn ground(&mut self, byte: u8, out: &mut Vec<u8>) {
        match byte {
            0x1B => self.state = State::Escape,
            0xC2 => self.state = State::C2,
            b'\t' | b'\n' | b'\r' | 0x08 => out.push(byte),
            0x00..=0x1F | 0x7F => caret(byte, out),
            _ => out.push(byte),
        }
    }
}

/// A control byte in caret notation: ESC as `^[`, BEL as `^G`, DEL as `^?`.
fn caret(byte: u8, out: &mut Vec<u8>) {
    out.push(b'^');
    out.push(byte ^ 0x40);
}

/// Whether the parameters of a CSI … `m` (SGR) only set colours and
/// attributes a reader can see: digits, `;` and `:` only (no private
/// marker, no intermediate), and no conceal (a standalone 8). The
/// parameters of an extended colour (`38;5;8`, `48;2;r;g;b`) are skipped,
/// so that colour 8 is not taken for conceal.
fn is_colour(params: &[u8]) -> bool {
    if !params
        .iter()
        .all(|b| b.is_ascii_digit() || *b == b';' || *b == b':')
    {
        return false;
    }
    let mut fields = params.split(|&b| b == b';');
    while let Some(field) = fields.next() {
        match field {
            b"38" | b"48" | b"58" => match fields.next() {
                Some(b"5") => {
                    fields.next();
                }
                Some(b"2") => {
                    fields.next();
                    fields.next();
                    fields.next();
                }
                _ => {}
            },
            // Leading zeros are the same number to a terminal, and a
            // sub-parameter does not make 8 another attribute.
            field => {
                let number = field.split(|&b| b == b':').next().unwrap_or_default();
                let digits = number
                    .iter()
                    .position(|&b| b != b'0')
                    .map_or(&b""[..], |at| &number[at..]);
                if digits == b"8" {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filtered(chunks: &[&[u8]]) -> Vec<u8> {
        let mut filter = TerminalFilter::new();
        let mut out = Vec::new();
        for chunk in chunks {
            filter.feed(chunk, &mut out);
        }
        filter.finish(&mut out);
        out
    }

    /// Every expectation, whole and split at every byte: the result is the
    /// same.
    fn check(input: &[u8], expected: &[u8]) {
        assert_eq!(
            String::from_utf8_lossy(&filtered(&[input])),
            String::from_utf8_lossy(expected),
            "whole"
        );
        for at in 0..=input.len() {
            let (a, b) = input.split_at(at);
            assert_eq!(
                String::from_utf8_lossy(&filtered(&[a, b])),
                String::from_utf8_lossy(expected),
                "split at {at}"
            );
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(filtered(&bytes), expected, "byte by byte");
    }

    #[test]
    fn text_layout_and_utf8_pass() {
        check(b"test a ... ok\r\n\tb\x08c", b"test a ... ok\r\n\tb\x08c");
        check(
            "caf\u{e9} \u{2713} \u{a0}".as_bytes(),
            "caf\u{e9} \u{2713} \u{a0}".as_bytes(),
        );
    }

    #[test]
    fn colours_pass() {
        for sgr in [
            &b"\x1b[31m"[..],
            b"\x1b[0m",
            b"\x1b[m",
            b"\x1b[1;32m",
            b"\x1b[38;5;8m",
            b"\x1b[48;2;8;8;8m",
            b"\x1b[38:5:8m",
            b"\x1b[4:3m",
        ] {
            check(sgr, sgr);
        }
    }

    #[test]
    fn conceal_is_shown_as_text() {
        check(b"\x1b[8m", b"^[[8m");
        check(b"\x1b[1;8m", b"^[[1;8m");
        check(b"\x1b[08m", b"^[[08m");
        check(b"\x1b[38;5;1;8m", b"^[[38;5;1;8m");
    }

    #[test]
    fn strings_and_other_escapes_are_shown_as_text() {
        check(b"\x1b]52;c;cHduZWQ=\x07", b"^[]52;c;cHduZWQ=^G");
        check(b"\x1b]0;title\x1b\\", b"^[]0;title^[\\");
        check(
            b"\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
            b"^[]8;;https://evil.example/^[\\link^[]8;;^[\\",
        );
        check(b"\x1bPq#0\x1b\\", b"^[Pq#0^[\\");
        check(b"\x1b_apc\x1b\\", b"^[_apc^[\\");
        check(b"\x1bc", b"^[c");
        check(b"\x1b(0", b"^[(0");
        check(b"\x1b7\x1b8", b"^[7^[8");
    }

    #[test]
    fn cursor_screen_and_mode_controls_are_shown_as_text() {
        check(b"\x1b[?25l", b"^[[?25l");
        check(b"\x1b[?1049h", b"^[[?1049h");
        check(b"\x1b[2J\x1b[H", b"^[[2J^[[H");
        check(b"\x1b[5A\x1b[K", b"^[[5A^[[K");
        check(b"\x1b[>4;1m", b"^[[>4;1m");
        check(b"\x1b[1 q", b"^[[1 q");
    }

    #[test]
    fn controls_and_c1_are_shown_as_text() {
        check(b"\x00\x07\x0e\x0f\x7f", b"^@^G^N^O^?");
        check("\u{9b}2J \u{9d}0;t".as_bytes(), b"\\u{9b}2J \\u{9d}0;t");
        // A lone 0xC2 (invalid UTF-8) and 0xC2 before ESC are passed and
        // judged on.
        check(b"\xc2\x1b[8m", b"\xc2^[[8m");
    }

    #[test]
    fn broken_and_endless_sequences_are_text_and_bounded() {
        check(b"\x1b[31\nx", b"^[[31\nx");
        check(b"\x1b[31", b"^[[31");
        check(b"\x1b", b"^[");
        check(b"\x1b\x1b[31m", b"^[\x1b[31m");
        let long = [b"\x1b[".as_slice(), &[b'1'; 200], b"m"].concat();
        let out = filtered(&[&long]);
        assert!(!out.contains(&0x1b), "{}", String::from_utf8_lossy(&out));
        assert!(out.ends_with(b"1m"));
        let mut filter = TerminalFilter::new();
        let mut sink = Vec::new();
        filter.feed(&long[..150], &mut sink);
        assert!(filter.csi.len() <= MAX_CSI);
    }

    /// Any bytes: no panic, and nothing but a colour's ESC reaches the
    /// output.
    #[test]
    fn no_escape_but_colours_survives_any_input() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..2_000 {
            let mut input = Vec::new();
            for _ in 0..64 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = b"\x1b[]0;8m?25lP\\\x07\xc2\x9b\x9d 1a";
                input.push(pick[(seed % pick.len() as u64) as usize]);
            }
            let out = filtered(&[&input]);
            let mut rest = &out[..];
            while let Some(at) = rest.iter().position(|&b| b == 0x1b) {
                let tail = &rest[at..];
                let end = tail.iter().position(|&b| b == b'm').expect("an SGR");
                assert!(
                    is_colour(&tail[2..end]),
                    "{}",
                    String::from_utf8_lossy(tail)
                );
                rest = &tail[end..];
            }
        }
    }
}
