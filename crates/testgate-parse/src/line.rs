//! Cutting a byte stream into lines: bounded length, CR and ANSI escapes
//! removed, invalid UTF-8 replaced.

use std::borrow::Cow;

/// The longest line kept, in bytes. Past it a line is read only up to here,
/// so that a runaway line with no newline costs this much memory, no more.
/// Every marker the parsers look for fits well within it.
pub const MAX_LINE: usize = 64 * 1024;

/// One line of output as the format parsers see it.
#[derive(Debug)]
pub(crate) struct Line<'a> {
    /// The text, with ANSI escape sequences and the trailing `\r` removed and
    /// invalid UTF-8 replaced by U+FFFD.
    pub(crate) text: Cow<'a, str>,
    /// The line's index in the output, from 0.
    pub(crate) index: u64,
}

impl<'a> Line<'a> {
    /// Cleans `raw` (a line without its `\n`) for the parsers.
    pub(crate) fn clean(raw: &'a [u8], index: u64) -> Line<'a> {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let bytes: Cow<'a, [u8]> = if memchr::memchr(0x1b, raw).is_some() {
            Cow::Owned(strip_ansi(raw))
        } else {
            Cow::Borrowed(raw)
        };
        let text = match bytes {
            Cow::Borrowed(b) => String::from_utf8_lossy(b),
            Cow::Owned(b) => Cow::Owned(match String::from_utf8(b) {
                Ok(s) => s,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            }),
        };
        Line { text, index }
    }
}

/// `raw` without ANSI escape sequences: CSI (`ESC [ … final`), OSC
/// (`ESC ] … BEL` or `ESC ] … ESC \`) and two-byte escapes.
pub(crate) fn strip_ansi(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if b != 0x1b {
            out.push(b);
            i += 1;
            continue;
        }
        match raw.get(i + 1) {
            Some(b'[') => {
                // CSI: parameters and intermediates, then one final byte 0x40..=0x7e.
                let mut j = i + 2;
                while j < raw.len() && !(0x40..=0x7e).contains(&raw[j]) {
                    j += 1;
                }
                i = j + 1;
            }
            Some(b']') => {
                // OSC: up to BEL or ST (ESC \).
                let mut j = i + 2;
                loop {
                    match raw.get(j) {
                        None => break,
                        Some(0x07) => {
                            j += 1;
                            break;
                        }
                        Some(0x1b) if raw.get(j + 1) == Some(&b'\\') => {
                            j += 2;
                            break;
                        }
                        Some(_) => j += 1,
                    }
                }
                i = j;
            }
            Some(_) => {
                // nF escapes such as `ESC ( B` (the end of terminfo's sgr0,
                // which libtest's colours use): intermediates, then a final byte.
                let mut j = i + 1;
                while j < raw.len() && (0x20..=0x2f).contains(&raw[j]) {
                    j += 1;
                }
                i = j + 1;
            }
            None => i += 1,
        }
    }
    out
}

/// Splits a stream of chunks into lines of at most [`MAX_LINE`] bytes,
/// holding at most one partial line between calls.
#[derive(Debug, Default)]
pub(crate) struct LineSplitter {
    partial: Vec<u8>,
    /// The current line passed `MAX_LINE`; the rest of it up to `\n` is dropped.
    overlong: bool,
    /// Lines that passed `MAX_LINE`.
    pub(crate) long_lines: u64,
}

impl LineSplitter {
    /// Feeds `chunk`, calling `each` with every line it completes (without
    /// its `\n`).
    pub(crate) fn feed(&mut self, mut chunk: &[u8], mut each: impl FnMut(&[u8])) {
        while !chunk.is_empty() {
            match memchr::memchr(b'\n', chunk) {
                Some(end) => {
                    let piece = &chunk[..end];
                    chunk = &chunk[end + 1..];
                    if self.partial.is_empty() && !self.overlong {
                        if piece.len() > MAX_LINE {
                            self.long_lines += 1;
                            each(&piece[..MAX_LINE]);
                        } else {
                            each(piece);
                        }
                    } else {
                        self.push_partial(piece);
                        each(&self.partial);
                        self.partial.clear();
                        self.overlong = false;
                    }
                }
                None => {
                    self.push_partial(chunk);
                    chunk = &[];
                }
            }
        }
    }

    /// Ends the stream, calling `each` with a last line that had no `\n`.
    pub(crate) fn finish(&mut self, mut each: impl FnMut(&[u8])) {
        if !self.partial.is_empty() || self.overlong {
            each(&self.partial);
        }
        self.partial.clear();
        self.overlong = false;
    }

    fn push_partial(&mut self, piece: &[u8]) {
        if self.overlong {
            return;
        }
        let room = MAX_LINE - self.partial.len();
        if piece.len() > room {
            self.partial.extend_from_slice(&piece[..room]);
            self.overlong = true;
            self.long_lines += 1;
        } else {
            self.partial.extend_from_slice(piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, |l| out.push(l.to_vec()));
        }
        s.finish(|l| out.push(l.to_vec()));
        out
    }

    #[test]
    fn splits_across_chunks() {
        assert_eq!(
            split(&[b"ab", b"c\nde", b"f\n", b"g"]),
            [b"abc".to_vec(), b"def".to_vec(), b"g".to_vec()]
        );
    }

    #[test]
    fn caps_long_lines() {
        let long = vec![b'x'; MAX_LINE * 3];
        let mut s = LineSplitter::default();
        let mut lens = Vec::new();
        for c in long.chunks(1000) {
            s.feed(c, |l| lens.push(l.len()));
        }
        s.feed(b"\nshort\n", |l| lens.push(l.len()));
        assert_eq!(lens, [MAX_LINE, 5]);
        assert_eq!(s.long_lines, 1);
        assert!(s.partial.capacity() <= 2 * MAX_LINE);
    }

    #[test]
    fn strips_colour_osc_and_cr() {
        let line = Line::clean(
            b"\x1b[31mFAIL\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x1b\\ end\r",
            0,
        );
        assert_eq!(line.text, "FAIL link end");
    }

    #[test]
    fn strips_charset_designation() {
        let line = Line::clean(b"test a ... \x1b[32mok\x1b(B\x1b[m", 0);
        assert_eq!(line.text, "test a ... ok");
        // A two-byte escape still takes one byte after ESC, no more.
        assert_eq!(Line::clean(b"\x1b7keep", 0).text, "keep");
    }

    #[test]
    fn replaces_invalid_utf8() {
        let line = Line::clean(b"test \xff ... FAILED", 3);
        assert_eq!(line.text, "test \u{fffd} ... FAILED");
        assert_eq!(line.index, 3);
    }
}
