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
    /// The first line that states the failure, where one was recognised.
    message: Option<String>,
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
        let keep = bytes.get(bytes.len().saturating_sub(half)..).unwrap_or(bytes);
        self.cut = self
            .cut
            .saturating_add((bytes.len() - keep.len()) as u64);
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
        self.head.len() + self.tail.len() + self.message.as_ref().map_or(0, String::len)
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
}

impl Excerpts {
    /// Whether lines now go to a block: the recogniser must read every line.
    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some()
    }


    /// Starts `name`'s block (ending the open one): the lines that follow
    /// are its, added to what an earlier block of the same name held.
    pub(crate) fn open(&mut self, name: &str) {
        self.end();
        let at = self.pending.iter().position(|block| block.name == name);
        let block = match at {
            Some(at) => self.pending.remove(at),
            None => {
                if self.pending.len() >= MAX_PENDING {
                    return;
                }
                Block {
                    name: name.to_owned(),
                    message: None,
                    head: String::new(),
                    tail: VecDeque::new(),
                    cut: 0,
                    room: self.given + self.pending_bytes + MAX_EXCERPT <= MAX_EXCERPTS,
                }
            }
        };
        if block.room && at.is_none() {
            // Reserved whole: a block never holds more.
            self.pending_bytes += MAX_EXCERPT;
        }
        self.open = Some(block);
    }

    /// Ends the open block, keeping it for its test's result.
    pub(crate) fn end(&mut self) {
        if let Some(block) = self.open.take() {
            self.pending.push(block);
        }
    }

    /// Ends the open block and forgets it: its test passed.
    pub(crate) fn discard(&mut self, name: &str) {
        self.end();
        if let Some(at) = self.pending.iter().position(|block| block.name == name) {
            let block = self.pending.remove(at);
            if block.room {
                self.pending_bytes = self.pending_bytes.saturating_sub(MAX_EXCERPT);
            }
        }
    }

    /// Adds a line to the open block.
    pub(crate) fn push(&mut self, text: &str) {
        if let Some(block) = &mut self.open {
            block.push(text);
        }
    }

    /// Gives the open block its message, unless it has one.
    pub(crate) fn message(&mut self, text: &str) {
        let Some(block) = &mut self.open else {
            return;
        };
        if block.message.is_some() {
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
        block.message = Some(text.get(..end).unwrap_or_default().to_owned());
    }

    /// Whether the open block has a message.
    pub(crate) fn has_message(&self) -> bool {
        self.open.as_ref().is_some_and(|block| block.message.is_some())
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
        self.open = None;
        self.pending.clear();
        self.pending_bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
