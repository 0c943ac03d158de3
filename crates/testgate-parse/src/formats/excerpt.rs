//! Each failing test's own output, kept in bounded memory: the runner's
//! block for a test (libtest's `---- name stdout ----`, pytest's `____ name
//! ____` section, go's lines from `=== RUN` to `--- FAIL:`), cut to its
//! start and end.
//!
//! An excerpt is attributed text, not evidence: a recogniser collects
//! blocks by name while it reads a scope, and when the scope closes gives
//! each *confirmed* failure its block ([`Excerpts::take`]); the blocks of
//! names the scope did not confirm (a forged header) are dropped with them
//! ([`Excerpts::clear`]).

use std::collections::VecDeque;

/// The most bytes one test's excerpt keeps: half from its start, half from
/// its end, with a `[… N bytes cut …]` line between.
pub const MAX_EXCERPT: usize = 4 * 1024;

/// The most bytes of excerpts one recogniser holds, confirmed and pending:
/// a test whose block starts once they are spent keeps its message only.
pub const MAX_EXCERPTS: usize = 64 * 1024;

/// The longest message kept, in bytes.
const MAX_MESSAGE: usize = 512;

/// The most blocks pending at once (tests whose result has not come, or
/// whose scope has not closed): a flood of headers costs no memory past it.
const MAX_PENDING: usize = 256;

/// One test's block as read so far.
#[derive(Debug)]
struct Block {
    name: String,
    /// The first line that states the failure, where one was recognised
    /// (empty until then: a buffer reused with the block).
    message: String,
    /// The block's first bytes, whole lines, up to half the cap; empty when
    /// the budget was spent when the block opened.
    head: String,
    /// The last bytes once the head is full, at most half the cap.
    tail: VecDeque<u8>,
    /// Bytes neither in the head nor in the tail.
    cut: u64,
    /// The block has room for text (the budget was not spent).
    room: bool,
}

impl Block {
    fn push(&mut self, text: &str) {
        let half = MAX_EXCERPT / 2;
        let len = text.len() + 1;
        if !self.room {
            self.cut = self.cut.saturating_add(len as u64);
            return;
        }
        if self.tail.is_empty() && self.head.len() + len <= half {
            self.head.push_str(text);
            self.head.push('\n');
            return;
        }
        // A line longer than the whole tail leaves only its end.
        let bytes = text.as_bytes();
        let keep = bytes
            .get(bytes.len().saturating_sub(half)..)
            .unwrap_or(bytes);
        self.cut = self.cut.saturating_add((bytes.len() - keep.len()) as u64);
        self.tail.extend(keep);
        self.tail.push_back(b'\n');
        let over = self.tail.len().saturating_sub(half);
        if over > 0 {
            self.tail.drain(..over);
            self.cut = self.cut.saturating_add(over as u64);
        }
    }

    /// The bytes this block holds.
    fn size(&self) -> usize {
        self.head.len() + self.tail.len() + self.message.len()
    }

    /// The excerpt's text: the head, the cut, the tail from its first whole
    /// line; `None` when nothing but blank lines was read.
    fn text(self) -> (Option<String>, Option<String>) {
        let Block {
            message,
            mut head,
            tail,
            mut cut,
            room,
            ..
        } = self;
        let message = (!message.is_empty()).then_some(message);
        if !room {
            return (message, None);
        }
        let tail: Vec<u8> = tail.into_iter().collect();
        let mut tail = tail.as_slice();
        if cut > 0 {
            // The ring was cut mid-line: start at its next whole line.
            if let Some(at) = memchr::memchr(b'\n', tail).filter(|&at| at + 1 < tail.len()) {
                cut = cut.saturating_add(at as u64 + 1);
                tail = tail.get(at + 1..).unwrap_or_default();
            }
            head.push_str(&format!("[… {cut} bytes cut …]\n"));
        }
        head.push_str(&String::from_utf8_lossy(tail));
        let text = head.trim_matches(|c: char| c == '\n' || c == '\r');
        let excerpt = if text.trim().is_empty() {
            None
        } else {
            Some(text.to_owned())
        };
        (message, excerpt)
    }
}

/// The blocks a recogniser is reading and has read, by test name.
#[derive(Debug, Default)]
pub(crate) struct Excerpts {
    /// The block lines go to now.
    open: Option<Block>,
    /// Blocks read whose test's failure no scope confirmed yet, in order.
    pending: Vec<Block>,
    /// Bytes the open and pending blocks hold.
    pending_bytes: usize,
    /// Bytes of the excerpts already given to confirmed failures.
    given: usize,
    /// Blocks emptied for reuse.
    spare: Vec<Block>,
    /// A block opened and not yet started: its name. Under `go test -v` a
    /// block opens at every `=== RUN` and most never hold a line, so one
    /// is made only when its first line comes.
    named: Option<String>,
    /// The name buffer, kept for reuse while no block is named.
    name_buffer: String,
}

/// The most emptied blocks kept for reuse.
const MAX_SPARE: usize = 8;

impl Block {
    /// Whether nothing was read into the block.
    fn is_empty(&self) -> bool {
        self.head.is_empty() && self.tail.is_empty() && self.cut == 0 && self.message.is_empty()
    }
}

impl Excerpts {
    /// Whether lines now go to a block: the recogniser must read every line.
    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some() || self.named.is_some()
    }

    /// Starts `name`'s block (ending the open one): the lines that follow
    /// are its, added to what an earlier block of the same name held.
    pub(crate) fn open(&mut self, name: &str) {
        self.end();
        if let Some(at) = self.pending.iter().position(|block| block.name == name) {
            self.open = Some(self.pending.remove(at));
            return;
        }
        let mut buffer = std::mem::take(&mut self.name_buffer);
        buffer.clear();
        buffer.push_str(name);
        self.named = Some(buffer);
    }

    /// Makes the named block, for its first line.
    fn start(&mut self) {
        let Some(name) = self.named.take() else {
            return;
        };
        self.start_block(&name);
        self.name_buffer = name;
    }

    /// Makes a block for `name`, open.
    fn start_block(&mut self, name: &str) {
        if self.pending.len() >= MAX_PENDING {
            return;
        }
        let room = self.given + self.pending_bytes + MAX_EXCERPT <= MAX_EXCERPTS;
        if room {
            // Reserved whole: a block never holds more.
            self.pending_bytes += MAX_EXCERPT;
        }
        let block = match self.spare.pop() {
            Some(mut block) => {
                block.name.push_str(name);
                block.room = room;
                block
            }
            None => Block {
                name: name.to_owned(),
                message: String::new(),
                head: String::new(),
                tail: VecDeque::new(),
                cut: 0,
                room,
            },
        };
        self.open = Some(block);
    }

    /// Ends the open block, keeping it for its test's result; an empty
    /// one is forgotten (a later block of its name starts afresh).
    pub(crate) fn end(&mut self) {
        if let Some(name) = self.named.take() {
            self.name_buffer = name;
        }
        if let Some(block) = self.open.take() {
            if block.is_empty() {
                self.forget(block);
            } else {
                self.pending.push(block);
            }
        }
    }

    /// Ends the open block and forgets it: its test passed.
    pub(crate) fn discard(&mut self, name: &str) {
        if self.named.as_deref() == Some(name) {
            self.end();
            return;
        }
        if let Some(block) = self.open.take_if(|block| block.name == name) {
            self.forget(block);
            return;
        }
        self.end();
        if let Some(at) = self.pending.iter().rposition(|block| block.name == name) {
            let block = self.pending.remove(at);
            self.forget(block);
        }
    }

    /// Gives back `block`'s budget, and keeps it emptied for reuse.
    fn forget(&mut self, mut block: Block) {
        if block.room {
            self.pending_bytes = self.pending_bytes.saturating_sub(MAX_EXCERPT);
        }
        if self.spare.len() < MAX_SPARE {
            block.name.clear();
            block.message.clear();
            block.head.clear();
            block.tail.clear();
            block.cut = 0;
            self.spare.push(block);
        }
    }

    /// Adds a line to the open block.
    pub(crate) fn push(&mut self, text: &str) {
        self.start();
        if let Some(block) = &mut self.open {
            block.push(text);
        }
    }

    /// Gives the open block its message, unless it has one.
    pub(crate) fn message(&mut self, text: &str) {
        self.start();
        let Some(block) = &mut self.open else {
            return;
        };
        if !block.message.is_empty() {
            return;
        }
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let mut end = text.len().min(MAX_MESSAGE);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        block.message.push_str(text.get(..end).unwrap_or_default());
    }

    /// Whether the open block has a message.
    pub(crate) fn has_message(&self) -> bool {
        self.open
            .as_ref()
            .is_some_and(|block| !block.message.is_empty())
    }

    /// The message and excerpt of `name`'s block, taken: its failure was
    /// confirmed.
    pub(crate) fn take(&mut self, name: &str) -> (Option<String>, Option<String>) {
        self.end();
        let Some(at) = self.pending.iter().position(|block| block.name == name) else {
            return (None, None);
        };
        let block = self.pending.remove(at);
        if block.room {
            self.pending_bytes = self.pending_bytes.saturating_sub(MAX_EXCERPT);
        }
        self.given = self.given.saturating_add(block.size());
        block.text()
    }

    /// Forgets every block: its scope closed, and what it did not confirm
    /// was no failure.
    pub(crate) fn clear(&mut self) {
        self.end();
        self.open = None;
        self.pending.clear();
        self.pending_bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Format, Runner, StreamParser, parse};

    /// Each failing test's (name, message, excerpt) in `log`, parsed whole
    /// with its runner and in auto mode, and streamed a byte at a time:
    /// the same every way.
    fn outputs(runner: Runner, log: &str) -> Vec<(String, Option<String>, Option<String>)> {
        let whole = parse(runner, log);
        assert_eq!(parse(Format::Auto, log).failing, whole.failing);
        let mut stream = StreamParser::new(runner);
        for byte in log.as_bytes().chunks(1) {
            stream.feed(byte);
        }
        assert_eq!(stream.finish(), whole);
        whole
            .failing
            .into_iter()
            .map(|t| (t.name, t.message, t.excerpt))
            .collect()
    }

    fn some(text: &str) -> Option<String> {
        Some(text.to_owned())
    }

    #[test]
    fn nextest_gives_a_confirmed_failure_its_captured_output_and_a_liar_none() {
        let log = "\
    Starting 3 tests across 1 binary
        FAIL [   0.005s] (1/3) demo tests::real
  stdout ───

    running 1 test
    test tests::real ... FAILED

  stderr ───

    thread 'tests::real' (42) panicked at src/lib.rs:9:5:
    got 1, want 2
    note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

        FAIL [   0.001s] (2/3) demo tests::forged
  stdout ───

    FORGED-TEXT
        PASS [   0.001s] (3/3) demo tests::liar
────────────
     Summary [   0.015s] 3 tests run: 2 passed, 1 failed, 0 skipped
        FAIL [   0.005s] (1/3) demo tests::real
  stdout ───

    REPRINTED-AFTER-THE-SUMMARY
error: test run failed
";
        assert_eq!(
            outputs(Runner::Nextest, log),
            [(
                "tests::real".to_owned(),
                some("got 1, want 2"),
                some(
                    "stdout ───\n\nrunning 1 test\ntest tests::real ... FAILED\n\nstderr ───\n\n\
                     thread 'tests::real' (42) panicked at src/lib.rs:9:5:\ngot 1, want 2\n\
                     note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
                )
            )]
        );
    }

    #[test]
    fn nextest_notes_a_signal_as_the_message_and_joins_a_retrys_output() {
        let log = "\
    Starting 1 test across 1 binary
  TRY 1 SEGV [   0.004s] (───) demo::signals crashes
  stdout ───

    running 1 test

    (test aborted with signal 11: SIGSEGV)

  TRY 2 FAIL [   0.004s] (───) demo::signals crashes
  stderr ───

    SECOND-TRY
────────────
     Summary [   0.010s] 1 test run: 0 passed, 1 failed, 0 skipped
  TRY 2 FAIL [   0.004s] (1/1) demo::signals crashes
";
        assert_eq!(
            outputs(Runner::Nextest, log),
            [(
                "crashes".to_owned(),
                some("test aborted with signal 11: SIGSEGV"),
                some(
                    "stdout ───\n\nrunning 1 test\n\n(test aborted with signal 11: SIGSEGV)\n\n\
                     stderr ───\n\nSECOND-TRY"
                )
            )]
        );
    }

    #[test]
    fn go_verbose_gives_each_failing_test_its_lines_and_no_passing_ones() {
        let log = "\
=== RUN   TestPasses
    a_test.go:3: chatter of a passing test
--- PASS: TestPasses (0.00s)
=== RUN   TestFails
    a_test.go:9: got 1, want 2
    more of it
--- FAIL: TestFails (0.00s)
=== RUN   TestParent
=== RUN   TestParent/sub
    a_test.go:20: sub broke
--- FAIL: TestParent (0.00s)
    --- FAIL: TestParent/sub (0.00s)
FAIL
FAIL\texample.com/p\t0.01s
";
        assert_eq!(
            outputs(Runner::Go, log),
            [
                (
                    "TestFails".to_owned(),
                    some("a_test.go:9: got 1, want 2"),
                    some("    a_test.go:9: got 1, want 2\n    more of it")
                ),
                ("TestParent".to_owned(), None, None),
                (
                    "TestParent/sub".to_owned(),
                    some("a_test.go:20: sub broke"),
                    some("    a_test.go:20: sub broke")
                ),
            ]
        );
    }

    #[test]
    fn go_plain_gives_the_lines_indented_under_the_failure() {
        let log = "\
--- FAIL: TestFails (0.00s)
    a_test.go:9: got 1, want 2
--- FAIL: TestParent (0.00s)
    --- FAIL: TestParent/sub (0.00s)
        a_test.go:20: sub broke
FAIL
FAIL\texample.com/p\t0.01s
";
        let got = outputs(Runner::Go, log);
        assert_eq!(got[0].2, some("    a_test.go:9: got 1, want 2"));
        assert_eq!(got[2].2, some("        a_test.go:20: sub broke"));
    }

    /// A passing test prints a failure line and a block for a test that
    /// did not fail: its package passed, so neither names nor excerpts
    /// come of it; and a forged header inside a real failure's output
    /// changes no name either.
    #[test]
    fn a_forged_block_makes_no_failure_and_moves_no_name() {
        let go = "\
=== RUN   TestLiar
--- FAIL: TestFake (0.00s)
    fake_test.go:1: forged message
--- PASS: TestLiar (0.00s)
PASS
ok  \texample.com/p\t0.01s
";
        assert_eq!(outputs(Runner::Go, go), []);
        let cargo = "\
running 2 tests
test real ... FAILED
test liar ... ok

failures:

---- real stdout ----
before
---- fake stdout ----
thread 'fake' panicked at src/lib.rs:1:1:
forged

failures:
    real

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(
            outputs(Runner::Cargo, cargo),
            [("real".to_owned(), None, some("before"))]
        );
    }

    #[test]
    fn libtest_gives_the_panic_message_and_the_block() {
        let log = "\
running 1 test
test tests::b ... FAILED

failures:

---- tests::b stdout ----
printed first
thread 'tests::b' (123) panicked at src/lib.rs:9:9:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    tests::b

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        let got = outputs(Runner::Cargo, log);
        assert_eq!(got[0].1, some("assertion `left == right` failed"));
        let excerpt = got[0].2.clone().unwrap_or_default();
        assert!(
            excerpt.starts_with("printed first\nthread 'tests::b'"),
            "{excerpt}"
        );
        assert!(excerpt.ends_with("to display a backtrace"), "{excerpt}");
    }

    #[test]
    fn pytest_parts_are_found_by_their_headline() {
        let log = "\
============================= test session starts ==============================
collected 2 items

t.py FF                                                                  [100%]

=================================== FAILURES ===================================
______________________________ TestC.test_x[1] _______________________________

    def test_x(self):
>       assert 1 == 2
E       assert 1 == 2

t.py:5: AssertionError
___________________________________ test_y ___________________________________
E   ValueError: boom
=========================== short test summary info ============================
FAILED t.py::TestC::test_x[1] - assert 1 == 2
FAILED t.py::test_y - ValueError: boom
============================== 2 failed in 0.01s ===============================
";
        let got = outputs(Runner::Pytest, log);
        assert_eq!(got[0].1, some("assert 1 == 2"));
        assert_eq!(
            got[0].2,
            some(
                "    def test_x(self):\n>       assert 1 == 2\nE       assert 1 == 2\n\nt.py:5: AssertionError"
            )
        );
        assert_eq!(got[1].1, some("ValueError: boom"));
    }

    /// A test that prints megabytes inside its block: the excerpt is
    /// bounded, keeps both ends, and the streamed report is the one-shot.
    #[test]
    fn a_flood_inside_a_block_is_bounded() {
        let mut log = String::from("=== RUN   TestFloods\n    a_test.go:1: first\n");
        for i in 0..200_000 {
            log.push_str(&format!("    line {i} of the flood\n"));
        }
        log.push_str(
            "    a_test.go:2: last\n--- FAIL: TestFloods (0.00s)\nFAIL\nFAIL\texample.com/p\t1s\n",
        );
        let report = parse(Runner::Go, &log);
        let mut stream = StreamParser::new(Runner::Go);
        for chunk in log.as_bytes().chunks(4099) {
            stream.feed(chunk);
        }
        assert_eq!(stream.finish(), report);
        let test = &report.failing[0];
        assert_eq!(test.message.as_deref(), Some("a_test.go:1: first"));
        let excerpt = test.excerpt.as_deref().unwrap_or_default();
        assert!(excerpt.len() <= MAX_EXCERPT + 64, "{}", excerpt.len());
        assert!(excerpt.starts_with("    a_test.go:1: first\n"), "{excerpt}");
        assert!(excerpt.ends_with("    a_test.go:2: last"), "{excerpt}");
        assert!(excerpt.contains(" bytes cut …]"), "{excerpt}");
    }

    #[test]
    fn a_block_keeps_its_start_and_end_and_says_what_it_cut() {
        let mut excerpts = Excerpts::default();
        excerpts.open("t");
        excerpts.message("boom");
        for i in 0..100_000 {
            excerpts.push(&format!("line {i}"));
        }
        let (message, excerpt) = excerpts.take("t");
        assert_eq!(message.as_deref(), Some("boom"));
        let excerpt = excerpt.unwrap_or_default();
        assert!(excerpt.len() <= MAX_EXCERPT + 64, "{}", excerpt.len());
        assert!(excerpt.starts_with("line 0\nline 1\n"), "{excerpt}");
        assert!(excerpt.ends_with("line 99999"), "{excerpt}");
        assert!(excerpt.contains(" bytes cut …]\n"), "{excerpt}");
    }

    #[test]
    fn a_huge_line_costs_the_cap() {
        let mut excerpts = Excerpts::default();
        excerpts.open("t");
        excerpts.push("start");
        excerpts.push(&"é".repeat(40_000));
        let (_, excerpt) = excerpts.take("t");
        let excerpt = excerpt.unwrap_or_default();
        assert!(excerpt.len() <= MAX_EXCERPT + 64, "{}", excerpt.len());
        assert!(excerpt.starts_with("start\n[… "), "{excerpt:.40}");
    }

    #[test]
    fn once_the_budget_is_spent_later_tests_keep_their_message_only() {
        let mut excerpts = Excerpts::default();
        let tests = MAX_EXCERPTS / MAX_EXCERPT + 3;
        for i in 0..tests {
            excerpts.open(&format!("t{i}"));
            excerpts.message(&format!("message {i}"));
            for _ in 0..1000 {
                excerpts.push("0123456789");
            }
        }
        let mut texts = 0;
        for i in 0..tests {
            let (message, excerpt) = excerpts.take(&format!("t{i}"));
            assert_eq!(message, Some(format!("message {i}")));
            texts += usize::from(excerpt.is_some());
        }
        assert_eq!(texts, MAX_EXCERPTS / MAX_EXCERPT);
    }

    #[test]
    fn a_cleared_scope_gives_its_budget_back() {
        let mut excerpts = Excerpts::default();
        for round in 0..100 {
            for i in 0..20 {
                excerpts.open(&format!("forged {round} {i}"));
                excerpts.push("text");
            }
            excerpts.clear();
        }
        excerpts.open("real");
        excerpts.push("real text");
        assert_eq!(excerpts.take("real").1.as_deref(), Some("real text"));
    }

    #[test]
    fn a_discarded_block_is_gone_and_a_reopened_one_goes_on() {
        let mut excerpts = Excerpts::default();
        excerpts.open("passes");
        excerpts.push("printed");
        excerpts.discard("passes");
        assert_eq!(excerpts.take("passes"), (None, None));
        excerpts.open("fails");
        excerpts.push("before");
        excerpts.open("other");
        excerpts.open("fails");
        excerpts.push("after");
        assert_eq!(excerpts.take("fails").1.as_deref(), Some("before\nafter"));
    }
}
