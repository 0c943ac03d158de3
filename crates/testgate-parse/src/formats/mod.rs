//! One module per runner. Each holds a [`Recognizer`]: a line-by-line state
//! machine that notes its runner's failing tests, counts and "no test ran",
//! and decides at the end which of its candidates the runner's own result
//! confirms.

use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState;
use indexmap::IndexMap;

use crate::line::Line;
use crate::report::{Counts, Crash, FailingTest, MAX_TESTS, Outcome};
use crate::runner::Runner;

pub(crate) use self::excerpt::Excerpts;
pub use self::excerpt::{MAX_EXCERPT, MAX_EXCERPTS};
pub use self::go::GoEvents;
pub use self::go::GoFraming;
pub use self::minitest_report::parse_minitest_report;
pub use self::mocha_report::parse_mocha_report;
pub use self::unittest_report::parse_unittest_report;

mod cargo;
mod ctest;
mod excerpt;
mod go;
mod gradle;
mod gtest;
mod java;
mod jest;
pub(crate) mod js;
mod maven;
mod minitest;
mod minitest_report;
mod mocha;
mod mocha_report;
mod nextest;
mod node;
mod phpunit;
mod pytest;
mod rspec;
mod scope;
mod unittest;
mod unittest_report;
mod vitest;

/// A runner's line-by-line recogniser.
///
/// In auto mode every line is offered to every recogniser: the dispatcher
/// classifies the line once ([`LineKey`]) and calls `line` only where the
/// recogniser's [`Interest`] holds it, so a foreign line costs a bit test.
/// What does reach `line` must still be rejected cheaply (a first-byte or
/// prefix check before any regex), and a recogniser keeps no list that
/// grows with the output except the names themselves.
pub(crate) trait Recognizer {
    /// Reads one cleaned line.
    fn line(&mut self, line: &Line<'_>);
    /// Ends the output: what this runner's lines said, its candidates now
    /// confirmed or dropped by the runner's own result where it gave one.
    fn finish(&mut self) -> Findings;
    /// What it has found so far, to be told where a CI step begins.
    fn findings(&mut self) -> &mut Findings;
    /// The lines `line` must see in the recogniser's present state: it is
    /// asked again after every call to `line`, the only place the state
    /// changes. A line left out must be one that `line` would have done
    /// nothing with; every line is the safe answer.
    fn interest(&self) -> &'static Interest {
        &Interest::ALL
    }
}

/// A line's class, computed once per line for all the recognisers: its
/// first byte, or for a line that starts with spaces the first byte after
/// them; and its last byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LineKey {
    /// `0..256`: the first byte (0 for an empty line); `256..512`: 256 plus
    /// the first byte after the leading spaces (0 for spaces only).
    key: u16,
    /// The last byte (0 for an empty line).
    last: u8,
}

impl LineKey {
    /// The class of `text`.
    pub(crate) fn of(text: &str) -> LineKey {
        const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
        let bytes = text.as_bytes();
        let last = bytes.last().copied().unwrap_or(0);
        // The spaces among the first 8 bytes counted at once, without a
        // branch on the first byte: whether a line is indented is as
        // unpredictable as the log, and a mispredicted branch per line cost
        // more than the rest of the classification.
        let key = match bytes.first_chunk::<8>() {
            Some(head) if u64::from_le_bytes(*head) != SPACES => {
                let head = u64::from_le_bytes(*head);
                let spaces = (head ^ SPACES).trailing_zeros() / 8;
                let after = (head >> (spaces * 8)) as u8;
                u16::from(after) | u16::from(spaces > 0) << 8
            }
            Some(_) | None => Self::slowly(bytes),
        };
        LineKey { key, last }
    }

    /// [`of`](Self::of)'s key a byte at a time: a line shorter than 8
    /// bytes, or one that starts with 8 spaces.
    fn slowly(bytes: &[u8]) -> u16 {
        match bytes.first() {
            None => 0,
            Some(b' ') => {
                let after = bytes.iter().find(|&&b| b != b' ').copied().unwrap_or(0);
                256 + u16::from(after)
            }
            Some(&b) => u16::from(b),
        }
    }

    /// The key: the first byte, or 256 plus the first after the spaces.
    pub(crate) fn key(self) -> u16 {
        self.key
    }

    /// The last byte.
    pub(crate) fn last(self) -> u8 {
        self.last
    }
}

/// The lines a recogniser reads, as a set of [`LineKey`]s: built once as a
/// constant per state of the recogniser (see [`Recognizer::interest`]).
///
/// A line is read when its key is in `keys`, or when its key is in `ended`
/// and its last byte in `ends`. One set of ends serves all the `ended`
/// keys: a recogniser that names two pairs reads the lines of both keys
/// with either end, more than it needs and so still exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Interest {
    /// Bit `k % 64` of word `k / 64` for each key `k` read.
    keys: [u64; 8],
    /// The keys read only with one of `ends` as their last byte.
    ended: [u64; 8],
    ends: [u64; 4],
}

impl Interest {
    /// No line.
    pub(crate) const NONE: Interest = Interest {
        keys: [0; 8],
        ended: [0; 8],
        ends: [0; 4],
    };

    /// Every line.
    pub(crate) const ALL: Interest = Interest {
        keys: [u64::MAX; 8],
        ended: [0; 8],
        ends: [0; 4],
    };

    /// Whether a line of class `line` is read: a line of a key it reads
    /// whatever the end, or of a key it reads with some ends and one of
    /// them. (The dispatcher caches the first two per key and the last per
    /// end: see [`by_key`](Self::by_key), [`by_end`](Self::by_end).)
    #[cfg(test)]
    pub(crate) fn wants(&self, line: LineKey) -> bool {
        let (any_end, some_ends) = self.by_key(line.key);
        any_end || (some_ends && self.by_end(line.last))
    }

    /// Whether lines of `key` (see [`LineKey::key`]) are read whatever
    /// their end, and whether with some ends.
    pub(crate) fn by_key(&self, key: u16) -> (bool, bool) {
        let bit = |set: &[u64]| {
            set.get(usize::from(key / 64))
                .is_some_and(|w| w >> (key % 64) & 1 == 1)
        };
        (bit(&self.keys), bit(&self.ended))
    }

    /// Whether lines that end with `last` are among those read with some
    /// ends.
    pub(crate) fn by_end(&self, last: u8) -> bool {
        self.ends
            .get(usize::from(last / 64))
            .is_some_and(|w| w >> (last % 64) & 1 == 1)
    }

    const fn with(mut self, key: usize) -> Interest {
        self.keys[key / 64] |= 1 << (key % 64);
        self
    }

    /// Also lines that start with one of `bytes` (not a space: see
    /// [`indented`](Self::indented)).
    pub(crate) const fn first(mut self, bytes: &[u8]) -> Interest {
        let mut i = 0;
        while i < bytes.len() {
            self = self.with(bytes[i] as usize);
            i += 1;
        }
        self
    }

    /// Also lines that start with a byte in `from..=to`.
    pub(crate) const fn first_range(mut self, from: u8, to: u8) -> Interest {
        let mut b = from as usize;
        while b <= to as usize {
            self = self.with(b);
            b += 1;
        }
        self
    }

    /// Also lines that start with spaces and then one of `bytes`.
    pub(crate) const fn indented(mut self, bytes: &[u8]) -> Interest {
        let mut i = 0;
        while i < bytes.len() {
            self = self.with(256 + bytes[i] as usize);
            i += 1;
        }
        self
    }

    /// Also lines that start with spaces and then a byte in `from..=to`.
    pub(crate) const fn indented_range(mut self, from: u8, to: u8) -> Interest {
        let mut b = from as usize;
        while b <= to as usize {
            self = self.with(256 + b);
            b += 1;
        }
        self
    }

    /// Also every line that starts with a space.
    pub(crate) const fn indented_any(self) -> Interest {
        self.indented_range(0, u8::MAX)
    }

    /// Also lines that start with spaces and then other white space, a
    /// non-ASCII character or nothing: where `str::trim_start` (which the
    /// recognisers use to read an indented marker) goes on trimming, so
    /// that the marker's first byte is not the key.
    pub(crate) const fn indented_unicode_space(self) -> Interest {
        self.indented(&[0])
            .indented_range(b'\t', b'\r')
            .indented_range(0x80, u8::MAX)
    }

    /// Also lines that start with one of `first` (as [`first`](Self::first))
    /// and end with one of `last`.
    pub(crate) const fn first_ending(mut self, first: &[u8], last: &[u8]) -> Interest {
        let mut i = 0;
        while i < first.len() {
            let k = first[i] as usize;
            self.ended[k / 64] |= 1 << (k % 64);
            i += 1;
        }
        self.ending(last)
    }

    /// Also every line that may end in `}` once `str::trim_end` has cut
    /// its white space: that ends in `}`, in ASCII white space or in a
    /// non-ASCII character (some are white space).
    pub(crate) const fn braced(mut self) -> Interest {
        self.ended = [u64::MAX; 8];
        self.ending(b"}\t\n\x0b\x0c\r ").ending_range(0x80, u8::MAX)
    }

    const fn ending(mut self, last: &[u8]) -> Interest {
        let mut i = 0;
        while i < last.len() {
            let b = last[i] as usize;
            self.ends[b / 64] |= 1 << (b % 64);
            i += 1;
        }
        self
    }

    const fn ending_range(mut self, from: u8, to: u8) -> Interest {
        let mut b = from as usize;
        while b <= to as usize {
            self.ends[b / 64] |= 1 << (b % 64);
            b += 1;
        }
        self
    }
}

/// What one recogniser found in a whole log.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    /// The index of the first line that was unmistakably this runner's, or
    /// `None` when none was: then auto mode ignores these findings.
    pub(crate) detected_at: Option<u64>,
    /// Failing tests with the index of the line that first named each.
    pub(crate) failing: Vec<(u64, FailingTest)>,
    /// Counts from the runner's summaries, summed.
    pub(crate) counts: Counts,
    /// The runner said that no test ran.
    pub(crate) no_tests_ran: bool,
    /// The first scope the runner opened and never closed (a libtest binary
    /// without its `test result:`, a pytest session without its closing
    /// line), said as a short phrase.
    pub(crate) unclosed: Option<String>,
    /// Tests that failed then passed within the run, with the index of the
    /// line that said so.
    pub(crate) flaky: Vec<(u64, String)>,
    /// Re-runs the runner counted without naming them.
    pub(crate) reruns: u64,
    /// Tests started and not ended when their scope ended without a result.
    pub(crate) running: Vec<(u64, String)>,
    /// Test binaries that died with no failing test named, with the line
    /// that ended their scope.
    pub(crate) crashes: Vec<(u64, Crash)>,
    /// Tests the runner counted risky, not failed
    /// ([`Report::risky`](crate::Report::risky)).
    pub(crate) risky: Vec<(u64, FailingTest)>,
    /// Tests the runner warned about and did not count failed
    /// ([`Report::warned`](crate::Report::warned)).
    pub(crate) warned: Vec<(u64, FailingTest)>,
    /// Every test whose result the runner printed, with its last one.
    pub(crate) seen: Seen,
    /// Tests the runner printed another name for, as `(name, description)`
    /// ([`TestOutcome::description`](crate::TestOutcome::description)).
    pub(crate) descriptions: Vec<(String, String)>,
    /// The names in `failing`, each with its context.
    failing_names: HashSet<(String, Option<String>), RandomState>,
    /// The first and last lines that were unmistakably this runner's in
    /// each CI step it appeared in (one span a step), in order.
    pub(crate) spans: Vec<(u64, u64)>,
    /// The line the present CI step began at (0 before any).
    step_start: u64,
}

/// The most spans a recogniser keeps: a log of more CI steps than this
/// has its later steps' lines added to the last span.
pub(crate) const MAX_SPANS: usize = 4096;

impl Findings {
    /// The line at `index` was unmistakably this runner's.
    pub(crate) fn detected(&mut self, index: u64) {
        self.detected_at.get_or_insert(index);
        let full = self.spans.len() >= MAX_SPANS;
        match self.spans.last_mut() {
            Some(span) if span.0 >= self.step_start || full => {
                span.1 = span.1.max(index);
            }
            _ => self.spans.push((index, index)),
        }
    }

    /// A CI step begins at the line at `index`.
    pub(crate) fn step(&mut self, index: u64) {
        self.step_start = index;
    }

    /// Adds a failure a scope confirmed, unless its name and context are
    /// one already: a test failing in many scopes of one context (go's
    /// `-count=N`, pytest's sessions) is kept once, where it was first
    /// confirmed; one name in two contexts (jest's title in two files) is
    /// two tests (docs/formats.md, "A name is the test's identity").
    pub(crate) fn fail(&mut self, index: u64, test: FailingTest) {
        if self
            .failing_names
            .insert((test.name.clone(), test.context.clone()))
        {
            self.failing.push((index, test));
        }
    }
}

/// The tests a recogniser saw a result for, each once, with the last result
/// printed: the raw material of [`Report::tests`](crate::Report::tests).
///
/// A failure noted here is only what a line said; the report takes failures
/// from the confirmed [`Findings::failing`] and uses a noted
/// [`Outcome::Error`] only to tell an error from a failure. Memory grows
/// with the distinct names, up to [`MAX_TESTS`]; a result seen again costs a
/// lookup and no allocation. The lookup, once per result line, hashes with
/// foldhash rather than std's SipHash (which cost a tenth of a go log's
/// parse); its seeds are random per map too, so a log cannot be written to
/// collide.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    tests: IndexMap<Box<str>, Noted, RandomState>,
    /// Contexts (binaries, packages, files), each once: many tests share one.
    contexts: Vec<Box<str>>,
    context_ids: HashMap<Box<str>, u32, RandomState>,
    /// Where in `tests` the last name noted is: a result that names it again
    /// (go's `--- PASS: X` after its `=== RUN X`) needs no hashing.
    last: usize,
    /// Results read once `tests` held [`MAX_TESTS`], and so left out.
    pub(crate) omitted: u64,
}

/// What [`Seen`] keeps of one test.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Noted {
    /// The line that first named it.
    pub(crate) index: u64,
    /// The last result printed.
    pub(crate) outcome: Outcome,
    context: Option<u32>,
}

impl Seen {
    /// Notes that the line at `index` gave `name` (in `context`) `outcome`.
    pub(crate) fn note(&mut self, index: u64, name: &str, context: Option<&str>, outcome: Outcome) {
        // Full, the list is frozen: no lookup at all, so that a flood of
        // names (a hostile test, a giant log) costs a counter per line.
        if self.tests.len() >= MAX_TESTS {
            self.omitted = self.omitted.saturating_add(1);
            return;
        }
        let again = match self.tests.get_index_mut(self.last) {
            Some((last, noted)) if **last == *name => Some(noted),
            Some(_) | None => match self.tests.get_full_mut(name) {
                Some((at, _, noted)) => {
                    self.last = at;
                    Some(noted)
                }
                None => None,
            },
        };
        if let Some(noted) = again {
            // A test that failed and then errored in its teardown failed.
            if !(noted.outcome == Outcome::Failed && outcome == Outcome::Error) {
                noted.outcome = outcome;
            }
            return;
        }
        let context = context.map(|context| self.context_id(context));
        self.last = self.tests.len();
        self.tests.insert(
            name.into(),
            Noted {
                index,
                outcome,
                context,
            },
        );
    }

    fn context_id(&mut self, context: &str) -> u32 {
        if let Some(last) = self.contexts.last()
            && **last == *context
        {
            return u32::try_from(self.contexts.len() - 1).unwrap_or(u32::MAX);
        }
        if let Some(&id) = self.context_ids.get(context) {
            return id;
        }
        let id = u32::try_from(self.contexts.len()).unwrap_or(u32::MAX);
        self.contexts.push(context.into());
        self.context_ids.insert(context.into(), id);
        id
    }

    /// How many tests are noted: where a scope whose context comes at its
    /// end (a go package's block) starts.
    pub(crate) fn len(&self) -> usize {
        self.tests.len()
    }

    /// Gives `context` to the tests first noted at or after `start` without
    /// one: go names a package only in the line that ends its block.
    pub(crate) fn set_context_from(&mut self, start: usize, context: &str) {
        if start >= self.tests.len() {
            return;
        }
        let id = self.context_id(context);
        for (_, noted) in self.tests.get_range_mut(start..).into_iter().flatten() {
            noted.context.get_or_insert(id);
        }
    }

    /// The names noted, in order of first appearance.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.tests.keys().map(|name| &**name)
    }

    /// What was noted of `name`.
    pub(crate) fn get(&self, name: &str) -> Option<Noted> {
        self.tests.get(name).copied()
    }

    /// Whether the list is full: a recogniser may skip reading results.
    pub(crate) fn is_full(&self) -> bool {
        self.tests.len() >= MAX_TESTS
    }

    /// Every test noted, in order of first appearance, with its context.
    pub(crate) fn into_tests(self) -> impl Iterator<Item = (Box<str>, Noted, Option<String>)> {
        let Seen {
            tests, contexts, ..
        } = self;
        tests.into_iter().map(move |(name, noted)| {
            let context = noted
                .context
                .and_then(|id| contexts.get(usize::try_from(id).ok()?))
                .map(|c| String::from(&**c));
            (name, noted, context)
        })
    }
}

/// Where `needle` first occurs in `hay`, as `str::find` says. The
/// recognisers' hot paths use it rather than `str::find` or `split_once`
/// with a string pattern, which build a two-way searcher on every call:
/// that setup alone cost more than the rest of a line's parsing. The
/// markers searched for are short and start with a space, so it looks for
/// the first byte that is not a space (memchr) and checks the rest there.
pub(crate) fn find(hay: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let k = anchor(needle)?;
    // A hit at `at` in `hay[k..]` is a match starting at `at` in `hay`.
    memchr::memchr_iter(needle[k], hay.get(k..)?).find(|&start| hay[start..].starts_with(needle))
}

/// Where `needle` last occurs in `hay`, as `str::rfind` says; see [`find`].
pub(crate) fn rfind(hay: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let k = anchor(needle)?;
    memchr::memrchr_iter(needle[k], hay.get(k..)?).find(|&start| hay[start..].starts_with(needle))
}

/// The index in `needle` of the byte [`find`] looks for: the first that
/// is not a space, the last when all are; `None` for an empty needle (which
/// no caller searches for).
fn anchor(needle: &[u8]) -> Option<usize> {
    match needle.iter().position(|&b| b != b' ') {
        Some(k) => Some(k),
        None => needle.len().checked_sub(1),
    }
}

/// `text.trim_start()`, with the common case (ASCII spaces, then an ASCII
/// byte that is not white space) read byte by byte rather than decoded.
pub(crate) fn trim_start(text: &str) -> &str {
    let bytes = text.as_bytes();
    let at = bytes.iter().position(|&b| b != b' ').unwrap_or(bytes.len());
    match bytes.get(at) {
        None => "",
        Some(&b) if b.is_ascii() && !char::from(b).is_whitespace() => {
            text.get(at..).unwrap_or(text)
        }
        Some(_) => text.trim_start(),
    }
}

/// `text.trim_end()`, with the common case (an ASCII last byte that is not
/// white space) answered without decoding.
pub(crate) fn trim_end(text: &str) -> &str {
    match text.as_bytes().last() {
        Some(&b) if b.is_ascii() && !char::from(b).is_whitespace() => text,
        Some(_) | None => text.trim_end(),
    }
}

/// `hay` split around the first `needle`, as `str::split_once` does.
pub(crate) fn split_once<'a>(hay: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = find(hay, needle)?;
    Some((hay.get(..at)?, hay.get(at + needle.len()..)?))
}

/// `hay` split around the last `needle`, as `str::rsplit_once` does.
pub(crate) fn rsplit_once<'a>(hay: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = rfind(hay, needle)?;
    Some((hay.get(..at)?, hay.get(at + needle.len()..)?))
}

/// A fresh recogniser for `runner`'s output.
pub(crate) fn recognizer(runner: Runner) -> Box<dyn Recognizer + Send> {
    match runner {
        Runner::Cargo => Box::new(cargo::Cargo::default()),
        Runner::Nextest => Box::new(nextest::Nextest::default()),
        Runner::Pytest => Box::new(pytest::Pytest::default()),
        Runner::Go => Box::new(go::Go::default()),
        Runner::Jest => Box::new(jest::Jest::default()),
        Runner::Vitest => Box::new(vitest::Vitest::default()),
        Runner::Mocha => Box::new(mocha::Mocha::default()),
        Runner::Node => Box::new(node::Node::default()),
        Runner::Unittest => Box::new(unittest::Unittest::default()),
        Runner::Maven => Box::new(maven::Maven::default()),
        Runner::Gradle => Box::new(gradle::Gradle::default()),
        Runner::Ctest => Box::new(ctest::Ctest::default()),
        Runner::Gtest => Box::new(gtest::Gtest::default()),
        Runner::Phpunit => Box::new(phpunit::Phpunit::default()),
        Runner::Rspec => Box::new(rspec::Rspec::default()),
        Runner::Minitest => Box::new(minitest::Minitest::default()),
    }
}

/// How `runner`'s JUnit report is read: its module's `JUNIT`, or the
/// common reading for a runner whose report, if any, needs nothing of its
/// own.
pub(crate) fn junit(runner: Runner) -> &'static crate::junit_case::Junit {
    match runner {
        Runner::Cargo => &cargo::JUNIT,
        Runner::Nextest => &nextest::JUNIT,
        Runner::Pytest => &pytest::JUNIT,
        Runner::Go => &go::JUNIT,
        Runner::Jest => &jest::JUNIT,
        Runner::Vitest => &vitest::JUNIT,
        Runner::Maven => &maven::JUNIT,
        Runner::Gradle => &gradle::JUNIT,
        Runner::Ctest => &ctest::JUNIT,
        Runner::Gtest => &gtest::JUNIT,
        Runner::Phpunit => &phpunit::JUNIT,
        Runner::Node => &node::JUNIT,
        Runner::Mocha | Runner::Unittest | Runner::Rspec | Runner::Minitest => {
            &crate::junit_case::Junit::COMMON
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The memchr searches answer as `str`'s own do, for the markers the
        /// recognisers search for, in text made mostly of their bytes.
        #[test]
        fn find_and_rfind_are_strs(
            picks in proptest::collection::vec(0usize..16, 0..40),
            needle in 0usize..12,
        ) {
            const PIECES: [&str; 16] =
                [" ", ".", " ...", "(", " (", "[", "FAILED", "ERROR", "{", "\"", "é", "x", " = ", ") ", " # ", ": "];
            const NEEDLES: [&str; 12] = [
                " ... ", " (", " [", " FAILED", " ERROR", "{ \"type\": ", "\"Action\"", "  ", " = ", ") ", " # ", ": ",
            ];
            let hay: String = picks.iter().map(|&i| PIECES[i]).collect();
            let needle = NEEDLES[needle];
            proptest::prop_assert_eq!(find(&hay, needle), hay.find(needle));
            proptest::prop_assert_eq!(rfind(&hay, needle), hay.rfind(needle));
            proptest::prop_assert_eq!(split_once(&hay, needle), hay.split_once(needle));
            proptest::prop_assert_eq!(rsplit_once(&hay, needle), hay.rsplit_once(needle));
        }

        /// A line's key, counted 8 bytes at a time, is the key read a byte
        /// at a time, whatever the indentation and length.
        #[test]
        fn line_keys_are_read_byte_by_byte(
            picks in proptest::collection::vec(0usize..6, 0..20),
        ) {
            const PIECES: [&str; 6] = [" ", " ", "        ", "-", "é", "x"];
            let text: String = picks.iter().map(|&i| PIECES[i]).collect();
            let key = LineKey::of(&text);
            proptest::prop_assert_eq!(key.key(), LineKey::slowly(text.as_bytes()));
            proptest::prop_assert_eq!(key.last(), text.bytes().last().unwrap_or(0));
        }

        /// The byte-wise trims answer as `str::trim_start` and `trim_end`.
        #[test]
        fn trims_are_strs(picks in proptest::collection::vec(0usize..8, 0..12)) {
            const PIECES: [&str; 8] = [" ", " ", "\t", "\u{a0}", "\u{b}", "x", "é", "\u{2003}"];
            let text: String = picks.iter().map(|&i| PIECES[i]).collect();
            proptest::prop_assert_eq!(trim_start(&text), text.trim_start());
            proptest::prop_assert_eq!(trim_end(&text), text.trim_end());
        }
    }
}

/// Helpers the format modules' property tests share.
#[cfg(test)]
pub(crate) mod testing {
    use proptest::prelude::*;

    use crate::runner::{Format, Runner};

    /// Fragments of each runner's output, the lines that change a
    /// recogniser's state (lists, pending results, sessions, blocks,
    /// trees, sections) among them, to build mixed logs from (`dispatch.rs`'s
    /// property test). Not whole lines only: glued, they make lines no
    /// runner prints too. Each runner's are its module's `FRAGMENTS`: a new
    /// runner must bring its own, the match is exhaustive.
    pub(crate) fn fragments(runner: Runner) -> &'static [&'static str] {
        match runner {
            Runner::Cargo => super::cargo::FRAGMENTS,
            Runner::Nextest => super::nextest::FRAGMENTS,
            Runner::Pytest => super::pytest::FRAGMENTS,
            Runner::Go => super::go::FRAGMENTS,
            Runner::Jest => super::jest::FRAGMENTS,
            Runner::Vitest => super::vitest::FRAGMENTS,
            Runner::Mocha => super::mocha::FRAGMENTS,
            Runner::Node => super::node::FRAGMENTS,
            Runner::Unittest => super::unittest::FRAGMENTS,
            Runner::Maven => super::maven::FRAGMENTS,
            Runner::Gradle => super::gradle::FRAGMENTS,
            Runner::Ctest => super::ctest::FRAGMENTS,
            Runner::Phpunit => super::phpunit::FRAGMENTS,
            Runner::Rspec => super::rspec::FRAGMENTS,
            Runner::Minitest => super::minitest::FRAGMENTS,
            Runner::Gtest => super::gtest::FRAGMENTS,
        }
    }

    /// One of `pieces` (real marker fragments of a runner) or a short
    /// random printable string.
    pub(crate) fn piece(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::sample::select(pieces).prop_map(str::to_owned),
            "\\PC{0,12}",
        ]
    }

    /// `log` parsed as `format` whole and fed in chunks of 5 bytes gives
    /// the same report (and neither panics).
    pub(crate) fn chunked_equals_whole(
        format: impl Into<Format>,
        log: &str,
    ) -> Result<(), TestCaseError> {
        let format = format.into();
        let whole = crate::parse(format, log);
        let mut stream = crate::StreamParser::new(format);
        for chunk in log.as_bytes().chunks(5) {
            stream.feed(chunk);
        }
        prop_assert_eq!(stream.finish(), whole);
        Ok(())
    }
}
