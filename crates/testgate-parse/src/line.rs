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
        let raw = after_leading_apc(raw);
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

/// `raw` after the APC sequences it starts with (`ESC _ … BEL`, or ended
/// by `ESC \`): Buildkite's timestamp on every line of its logs, taken off
/// so that a line with no other escape is not copied.
fn after_leading_apc(mut raw: &[u8]) -> &[u8] {
    while let Some(body) = raw.strip_prefix(b"\x1b_") {
        let Some(end) = memchr::memchr2(0x07, 0x1b, body) else {
            return raw;
        };
        raw = match body.get(end..) {
            Some([0x07, rest @ ..]) => rest,
            Some([0x1b, b'\\', rest @ ..]) => rest,
            _ => return raw,
        };
    }
    raw
}

/// `raw` without ANSI escape sequences: CSI (`ESC [ … final`), the
/// control strings OSC, APC, DCS, PM and SOS (`ESC ] … BEL` or
/// `ESC ] … ESC \`; Buildkite prefixes each line with the APC
/// `ESC _ bk;t=1764756000123 BEL`) and two-byte escapes.
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
            Some(b']' | b'_' | b'P' | b'^' | b'X') => {
                // A control string (OSC, APC, DCS, PM, SOS): up to BEL or
                // ST (ESC \).
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

/// Splits a stream of chunks into cleaned lines of at most [`MAX_LINE`]
/// bytes, holding at most one partial line between calls.
///
/// The common case, a run of whole lines that are valid UTF-8 without an
/// escape byte, is checked once per run rather than once per line: each
/// line of it is then a `&str` slice, with no copy and no second pass.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineSplitter {
    partial: Vec<u8>,
    /// The current line passed `MAX_LINE`; the rest of it up to `\n` is dropped.
    overlong: bool,
    /// Lines that passed `MAX_LINE`.
    pub(crate) long_lines: u64,
}

impl LineSplitter {
    /// Feeds `chunk`, calling `each` with every line it completes, cleaned
    /// as [`Line::clean`] cleans it.
    pub(crate) fn feed(&mut self, mut chunk: &[u8], mut each: impl FnMut(&str)) {
        if !self.partial.is_empty() || self.overlong {
            let Some(end) = memchr::memchr(b'\n', chunk) else {
                self.push_partial(chunk);
                return;
            };
            self.push_partial(&chunk[..end]);
            each(&clean_text(&self.partial));
            self.partial.clear();
            self.overlong = false;
            chunk = &chunk[end + 1..];
        }
        match memchr::memrchr(b'\n', chunk) {
            Some(last) => {
                self.whole_lines(&chunk[..=last], &mut each);
                self.push_partial(&chunk[last + 1..]);
            }
            None => self.push_partial(chunk),
        }
    }

    /// Ends the stream, calling `each` with a last line that had no `\n`.
    pub(crate) fn finish(&mut self, mut each: impl FnMut(&str)) {
        if !self.partial.is_empty() || self.overlong {
            each(&clean_text(&self.partial));
        }
        self.partial.clear();
        self.overlong = false;
    }

    /// Reads `lines`, whole lines each ending in `\n`, the first starting
    /// at `lines[0]`.
    fn whole_lines(&mut self, mut lines: &[u8], each: &mut impl FnMut(&str)) {
        while !lines.is_empty() {
            let (clean, dirty_at) = clean_prefix(lines);
            // Every line that ends before the first dirty byte is clean.
            let mut start = 0;
            for end in memchr::memchr_iter(b'\n', clean.as_bytes()) {
                let line = clean.get(start..end).unwrap_or_default();
                if line.len() > MAX_LINE {
                    self.long_lines += 1;
                    each(&clean_text(&line.as_bytes()[..MAX_LINE]));
                } else {
                    let line = line.strip_suffix('\r').unwrap_or(line);
                    each(&after_leading_apc_str(line));
                }
                start = end + 1;
            }
            let Some(rest) = lines.get(start..).filter(|rest| !rest.is_empty()) else {
                return;
            };
            // The line holding the dirty byte (the clean part's `\n`s are
            // all behind), cleaned the slow way; `lines` ends in `\n`, so
            // it has one.
            let dirty_end = memchr::memchr(b'\n', &rest[dirty_at - start..])
                .map_or(rest.len() - 1, |i| dirty_at - start + i);
            let line = &rest[..dirty_end];
            if line.len() > MAX_LINE {
                self.long_lines += 1;
                each(&clean_text(&line[..MAX_LINE]));
            } else {
                each(&clean_text(line));
            }
            lines = &rest[dirty_end + 1..];
        }
    }

    /// The bytes of the partial line held (at most [`MAX_LINE`]).
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.partial.len()
    }

    fn push_partial(&mut self, piece: &[u8]) {
        if self.overlong || piece.is_empty() {
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

/// The longest prefix of `bytes` that is valid UTF-8 with no escape byte
/// but the first byte of a line that starts an APC (`ESC _`: Buildkite's
/// timestamp on every line, which each line of the run steps over in
/// [`after_leading_apc_str`]), and where it ends (`bytes.len()` when all
/// of it is).
fn clean_prefix(bytes: &[u8]) -> (&str, usize) {
    let mut from = 0;
    let esc = loop {
        let Some(at) = memchr::memchr(0x1b, &bytes[from..]).map(|at| from + at) else {
            break bytes.len();
        };
        let line_start = at == 0 || bytes.get(at - 1) == Some(&b'\n');
        if !(line_start && bytes.get(at + 1) == Some(&b'_')) {
            break at;
        }
        from = at + 2;
    };
    let candidate = &bytes[..esc];
    match std::str::from_utf8(candidate) {
        Ok(text) => (text, esc),
        Err(e) => {
            let valid = e.valid_up_to();
            // Valid by the error's own word; the fallback is never taken.
            let text = std::str::from_utf8(&candidate[..valid]).unwrap_or_default();
            (text, valid)
        }
    }
}

/// A line of a clean run (its `\r` off) without the APCs it starts with,
/// as [`Line::clean`] takes them off: a first byte compared on every line.
/// The run holds no escape byte but a line's first (see [`clean_prefix`]),
/// so a line whose APCs end leaves no escape; one left open is cleaned the
/// slow way.
fn after_leading_apc_str(line: &str) -> Cow<'_, str> {
    if line.as_bytes().first() != Some(&0x1b) {
        return Cow::Borrowed(line);
    }
    let rest = after_leading_apc(line.as_bytes()).len();
    // An APC ends in BEL or `\`, ASCII: the rest starts at a character.
    match line.get(line.len() - rest..) {
        Some(rest) if !rest.starts_with('\u{1b}') => Cow::Borrowed(rest),
        Some(_) | None => clean_text(line.as_bytes()),
    }
}

/// `raw` (a line without its `\n`) cleaned for the parsers; see [`Line::text`].
fn clean_text(raw: &[u8]) -> Cow<'_, str> {
    Line::clean(raw, 0).text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut s = LineSplitter::default();
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, |l| out.push(l.as_bytes().to_vec()));
        }
        s.finish(|l| out.push(l.as_bytes().to_vec()));
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

    /// The lines of `bytes` the slow, obvious way: split, cap, clean.
    fn reference(bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if bytes.is_empty() || bytes.ends_with(b"\n") {
            lines.pop();
        }
        lines
            .into_iter()
            .map(|l| {
                Line::clean(&l[..l.len().min(MAX_LINE)], 0)
                    .text
                    .as_bytes()
                    .to_vec()
            })
            .collect()
    }

    #[test]
    fn the_clean_run_fast_path_cleans_as_line_clean_does() {
        let long = format!("{}\x1b[0m\n", "é".repeat(MAX_LINE / 2 + 1));
        let inputs: [&[u8]; 13] = [
            b"\x1b_bk;t=1\x07test a ... ok\r\n\x1b_bk;t=2\x07\x1b_bk;t=3\x1b\\b\n",
            b"\x1b_bk;t=1\x07\x1b[31mred\n\x1b_bk;t=2\x07\xff\n\x1b_open\nnext\x07\n",
            b"mid \x1b_bk;t=1\x07line\n\x1b_bk;t=2\x07\r\n\x1b_cut\x1b",
            &[b"\x1b_".as_slice(), &[b'x'; 200], b"\x07long APC\n"].concat(),
            b"",
            b"plain\nlines\r\n\nlast",
            b"ok\n\x1b[31mred\x1b[0m\nok again\n",
            b"ok\nbad \xff byte\nok\n\xe2\x9c\n\xe2\x9c\x93 tick\n",
            b"esc at end \x1b\nutf8 cut \xc3\x1b[1m\n",
            b"\x1b]8;;http://x\x07link\x1b]8;;\x1b\\\r\n",
            long.as_bytes(),
            &[b'x'; MAX_LINE + 1],
            b"\n\n\r\n",
        ];
        for input in inputs {
            assert_eq!(
                split(&[input]),
                reference(input),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Whatever the chunking, the lines are those of the obvious way:
        /// the recognisers see the same text streamed or not.
        #[test]
        fn lines_in_any_chunking_are_the_reference_lines(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000),
            long in 0usize..3,
            cuts in proptest::collection::vec(1usize..700, 1..10),
        ) {
            // Bytes mapped so that newlines, CR, escapes and bytes invalid in
            // UTF-8 are frequent; sometimes a line past the cap.
            // Buildkite's APC at a line's start too, ended by BEL or ST.
            const SPECIAL: [&[u8]; 10] = [b"\n", b"\n", b"\r\n", b"\x1b[1m", b"\x1b]8;;x\x07", b"\xff", b"\xe2\x9c", "✓".as_bytes(), b"\n\x1b_bk;t=1\x07", b"\n\x1b_a\x1b\\"];
            let mut input = Vec::new();
            for b in bytes {
                match SPECIAL.get(usize::from(b % 32)) {
                    Some(special) if b >= 224 => input.extend_from_slice(special),
                    _ => input.push(b),
                }
            }
            if long == 0 {
                let at = input.len() / 2;
                input.splice(at..at, std::iter::repeat_n(b'y', MAX_LINE + 3));
            }
            let mut chunks = Vec::new();
            let mut rest = &input[..];
            for &cut in cuts.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let (chunk, after) = rest.split_at(cut.min(rest.len()));
                chunks.push(chunk);
                rest = after;
            }
            let expected = reference(&input);
            proptest::prop_assert_eq!(split(&chunks), expected.clone());
            proptest::prop_assert_eq!(split(&[&input]), expected);
        }
    }

    #[test]
    fn strips_colour_osc_and_cr() {
        let line = Line::clean(
            b"\x1b[31mFAIL\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x1b\\ end\r",
            0,
        );
        assert_eq!(line.text, "FAIL link end");
    }

    /// Buildkite's APC timestamp is taken off, the line borrowed where it
    /// holds no other escape; an APC elsewhere in a line goes too, and
    /// one left open is left to the general stripping.
    #[test]
    fn strips_buildkite_timestamps() {
        let line = Line::clean(b"\x1b_bk;t=1764756000123\x07test a ... ok", 0);
        assert_eq!(line.text, "test a ... ok");
        assert!(matches!(line.text, Cow::Borrowed(_)));
        let line = Line::clean(b"\x1b_bk;t=1\x1b\\\x1b_bk;t=2\x07\x1b[31mFAIL\x1b[0m x", 0);
        assert_eq!(line.text, "FAIL x");
        let line = Line::clean(b"a \x1b_bk;t=1\x07b", 0);
        assert_eq!(line.text, "a b");
        let line = Line::clean(b"\x1b_open", 0);
        assert_eq!(line.text, "");
        // Where it must not fire: `_` after text, not after ESC.
        let line = Line::clean(b"_bk;t=1 test", 0);
        assert_eq!(line.text, "_bk;t=1 test");
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
