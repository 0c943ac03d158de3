//! Python unittest's console (`python -m unittest`, dots and `-v`, `-b`,
//! `-f`), also as Django's test runner prints it (`manage.py test`,
//! `runtests.py`, `--parallel`).
//!
//! A run ends with `Ran N tests in Xs`, a blank line and `OK`/`FAILED (…)`/
//! `NO TESTS RAN`: the runner's own result on the run. Names come from the
//! failure headers of the errors section printed just before it (a line of
//! 70 `=`, then `FAIL: desc`, `ERROR: desc` or 3.11's `UNEXPECTED SUCCESS:
//! desc`), and from verbose result lines (`desc ... ok`). A test's own
//! output lands among them, so:
//!
//! - the errors section is the headers after the run's last result line
//!   (a verbose result, a line of progress characters): a header a test
//!   printed while the run went on is followed by more results, and names
//!   nothing;
//! - where the run prints verbose lines, a header stands only for a test a
//!   verbose line started and gave no passing result (a header inside a
//!   failing test's message names a test that never ran);
//! - no more headers stand than the closing line counts, kind by kind
//!   (unittest prints errors, then failures, then unexpected successes), so
//!   they are matched from the end: one printed inside a block is left over;
//! - while a verbose test runs (its line ended with ` ... ` or its own
//!   output, no result word yet), every line is its output: a forged
//!   verbose line, header or closing line then is nothing;
//! - a run reads only its own kind of result line (dots or verbose, from
//!   its first one);
//! - `OK` after a result that said FAIL or ERROR is not unittest's: the run
//!   goes on, and a log that ends there leaves it unclosed, its verbose
//!   failures standing.
//!
//! A name is `test_method (module.Class)` on every Python (3.11's
//! `test_method (module.Class.test_method)` is cut back); a subtest fails its
//! test; a doctest is named as unittest names it (`func (module)`); a module
//! that failed to import (`unittest.loader._FailedTest`) by its dotted name.

use std::collections::HashSet;

use foldhash::fast::RandomState;

use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// unittest's `separator2`, under each failure header and before `Ran`.
const DASHES: &str = "----------------------------------------------------------------------";

/// unittest's `separator1`, before each failure header.
const HEADER_RULE: &str = "======================================================================";

/// Recognises unittest output.
#[derive(Debug, Default)]
pub(crate) struct Unittest {
    findings: Findings,
    run: Run,
    /// The last line was [`HEADER_RULE`]: this one may be a header.
    after_rule: bool,
    /// A `Ran N tests in Xs` line was read, with its line and N: the next
    /// non-empty line says the run's verdict.
    ran: Option<(u64, u64)>,
    /// The blocks of the errors section by the name in their header: each
    /// failing test's traceback, its exception line the message.
    excerpts: Excerpts,
    /// Between a header and the rule of `-` under it: the docstring's first
    /// line or a doctest's `Doctest: m.f`, not the traceback yet.
    block_head: bool,
}

/// What one run (up to its closing line) said so far.
#[derive(Debug, Default)]
struct Run {
    /// A line of this run was read: an unclosed run is reported.
    open: bool,
    /// How the run prints its results, from its first result line: a
    /// result line of the other kind is a test's output.
    mode: Option<Mode>,
    /// A result said FAIL or ERROR (verbose or a progress `F`/`E`).
    said_failure: bool,
    /// Failing tests by their verbose result lines, with the line and how.
    verbose_failures: Vec<(u64, String, Outcome)>,
    /// Every test a verbose line started, by name.
    started: HashSet<String, RandomState>,
    /// Headers since the run's last result line: the errors section.
    headers: Vec<(u64, String, Outcome)>,
    /// A result line came after the last header: the next header opens a
    /// new section.
    stale: bool,
    /// The test whose verbose line ended with ` ... `: the lines until its
    /// result word are its output.
    running: Option<Running>,
    /// A bare description line (`name (module.Class)`): the next line is
    /// its docstring's first line, then ` ... ` and the result.
    described: Option<String>,
}

/// How a run prints its results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The default: a progress character per test (`..F.E`).
    Dots,
    /// `-v`: a line per test (`test_x (mod.Class) ... ok`).
    Verbose,
}

/// A verbose test started and not ended.
#[derive(Debug)]
struct Running {
    index: u64,
    name: String,
    /// A subtest of it failed: 3.11 prints no result word for it then.
    subtests: bool,
}

/// The verdict line after `Ran N tests`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Verdict {
    ok: bool,
    no_tests: bool,
    failures: u64,
    errors: u64,
    skipped: u64,
    expected_failures: u64,
    unexpected_successes: u64,
}

impl Unittest {
    fn detected(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// Ends the run: `verdict` is the closing line's, `None` when the log
    /// stopped (or another run began) before one.
    fn end_run(&mut self, verdict: Option<(u64, Verdict)>) {
        let run = std::mem::take(&mut self.run);
        self.after_rule = false;
        if !run.open && verdict.is_none() {
            return;
        }
        let standing = match verdict {
            Some((_, v)) if v.ok => Vec::new(),
            Some((_, v)) if !v.ok && !v.no_tests => self.failed_run(run, &v),
            Some((_, v)) if v.no_tests => Vec::new(),
            Some(_) | None => self.unclosed_run(run, verdict.is_none()),
        };
        self.fail_standing(standing);
        self.excerpts.clear();
        if let Some((_, v)) = verdict {
            self.count(v);
        }
    }

    /// The failing tests of a run whose closing line `v` said it failed:
    /// the errors section's headers of tests that ran, as many of each
    /// kind as `v` counts, and the verbose unexpected successes (or the
    /// verbose failures, where that leaves none).
    fn failed_run(&self, run: Run, v: &Verdict) -> Vec<(u64, String, Outcome)> {
        let section = if run.stale { Vec::new() } else { run.headers };
        let ran =
            |name: &str| {
                run.mode != Some(Mode::Verbose)
                    || (run.started.contains(name)
                        && self.findings.seen.get(name).is_none_or(|n| {
                            n.outcome.is_failure() || n.outcome == Outcome::XPassed
                        }))
            };
        let section: Vec<(u64, String, Outcome)> = section
            .into_iter()
            .filter(|(_, name, _)| ran(name))
            .collect();
        let mut standing = counted_section(section, v);
        // Before 3.11 an unexpected success has no header.
        standing.extend(
            run.verbose_failures
                .iter()
                .filter(|(_, _, outcome)| *outcome == Outcome::XPassed)
                .cloned(),
        );
        if standing.is_empty() {
            standing = run.verbose_failures;
        }
        standing
    }

    /// The failing tests of a run with no word from unittest (an `OK` after
    /// a failed result is none: see `line`), which stays unclosed: its
    /// verbose failures and headers; where the log stopped (`stopped`),
    /// the test still running was.
    fn unclosed_run(&mut self, run: Run, stopped: bool) -> Vec<(u64, String, Outcome)> {
        self.findings.unclosed.get_or_insert_with(|| {
            "a unittest run ended without its closing `Ran N tests` line".to_owned()
        });
        if stopped {
            self.findings
                .running
                .extend(run.running.map(|r| (r.index, r.name)));
        }
        let mut standing = run.verbose_failures;
        standing.extend(run.headers);
        standing
    }

    /// Fails each test of `standing` (an error stays one, anything else is
    /// a failure), with its block's message and excerpt.
    fn fail_standing(&mut self, standing: Vec<(u64, String, Outcome)>) {
        for (index, name, outcome) in standing {
            let (message, excerpt) = self.excerpts.take(&name);
            let outcome = match outcome {
                Outcome::Error => Outcome::Error,
                Outcome::Passed
                | Outcome::Failed
                | Outcome::Skipped
                | Outcome::XFailed
                | Outcome::XPassed
                | Outcome::Flaky
                | Outcome::Running => Outcome::Failed,
            };
            let kind = if name.contains(' ') {
                Kind::Test
            } else {
                Kind::File
            };
            self.findings.seen.note(index, &name, None, outcome);
            let test = FailingTest::new(name, Runner::Unittest, None)
                .with_kind(kind)
                .with_output(message, excerpt);
            self.findings.fail(index, test);
        }
    }

    /// Counts a run by its closing line `v` and its `Ran N tests` line.
    fn count(&mut self, v: Verdict) {
        let ran = self.ran.map_or(0, |(_, n)| n);
        let failed = v
            .failures
            .saturating_add(v.errors)
            .saturating_add(v.unexpected_successes);
        let skipped = v.skipped.saturating_add(v.expected_failures);
        self.findings.counts.add(Counts {
            passed: Some(ran.saturating_sub(failed).saturating_sub(skipped)),
            failed: Some(failed),
            skipped: Some(skipped),
        });
        self.findings.no_tests_ran |= v.no_tests || ran == 0;
    }

    /// A verbose result for `name` at `index`.
    fn result(&mut self, index: u64, name: String, outcome: Outcome) {
        self.detected(index);
        self.run.open = true;
        self.run.mode.get_or_insert(Mode::Verbose);
        self.run.stale = true;
        self.run.started.insert(name.clone());
        if self.run.mode != Some(Mode::Verbose) {
            return;
        }
        if outcome.is_failure() || outcome == Outcome::XPassed {
            self.run.said_failure |= outcome.is_failure();
            self.run
                .verbose_failures
                .push((index, name.clone(), outcome));
        }
        self.findings.seen.note(index, &name, None, outcome);
    }

    /// A line of a verbose run: `desc ... word`, `desc ... ` (the test runs,
    /// or prints), or a bare description. True when it was one.
    fn verbose_line(&mut self, index: u64, text: &str) -> bool {
        let described = self.run.described.take();
        if described.is_none() && !may_describe(text) {
            return false;
        }
        if let Some(head) = text.strip_suffix(" ... ") {
            // 3.8 prints nothing for a failed subtest: the next test's line
            // follows on the same line.
            let desc = canonical(last_segment(head));
            self.describe(desc.is_none(), described.as_deref(), last_segment(head));
            return self.started(index, desc, described);
        }
        let Some(at) = super::rfind(text, " ... ") else {
            if let Some((name, false)) = canonical(text) {
                self.run.described = Some(name);
                return true;
            }
            return false;
        };
        let (head, word) = (&text[..at], &text[at + 5..]);
        let Some(outcome) = result_word(word) else {
            // The test printed on its own line before its result.
            let desc = canonical(last_segment(head));
            self.describe(desc.is_none(), described.as_deref(), last_segment(head));
            return self.started(index, desc, described);
        };
        let mut names: Vec<String> = Vec::new();
        let mut segments = head.split(" ... ").peekable();
        while let Some(desc) = segments.next() {
            let last = segments.peek().is_none();
            match canonical(desc) {
                Some((name, _)) if last => names.push(name),
                // An earlier test on the same line started and printed no
                // result of its own (3.8's failed subtests).
                Some((name, _)) => {
                    self.run.started.insert(name);
                }
                None if last => {
                    self.describe(true, described.as_deref(), desc);
                    names.extend(described.clone());
                }
                None => {}
            }
        }
        match names.pop() {
            Some(name) => {
                self.result(index, name, outcome);
                true
            }
            None => false,
        }
    }

    /// Notes `line`, the line after the bare description of the test
    /// `described`, as that test's docstring (`-v` prints its first line
    /// there), where `docstring` says the line is no description itself.
    fn describe(&mut self, docstring: bool, described: Option<&str>, line: &str) {
        let line = line.trim();
        if let Some(name) = described.filter(|_| docstring && !line.is_empty())
            && self.findings.descriptions.len() < crate::report::MAX_TESTS
        {
            self.findings
                .descriptions
                .push((name.to_owned(), line.to_owned()));
        }
    }

    /// A verbose line started a test (`desc`, else the one `described`):
    /// the lines until its result word are its output.
    fn started(
        &mut self,
        index: u64,
        desc: Option<(String, bool)>,
        described: Option<String>,
    ) -> bool {
        let Some(name) = desc.map(|(n, _)| n).or(described) else {
            return false;
        };
        self.detected(index);
        self.run.open = true;
        self.run.mode.get_or_insert(Mode::Verbose);
        self.run.started.insert(name.clone());
        self.run.running = Some(Running {
            index,
            name,
            subtests: false,
        });
        true
    }

    /// A line while a verbose test runs: its result word, one of its
    /// failed subtests (3.11: `  name (…) (i=1) ... FAIL`), or its output.
    /// False when the line is the run's again: the test's subtests failed
    /// and it printed no result word of its own (3.11).
    fn running_line(&mut self, index: u64, text: &str) -> bool {
        let Some(running) = self.run.running.take() else {
            return false;
        };
        if let Some(outcome) = result_word(text) {
            self.result(index, running.name, outcome);
            return true;
        }
        if let Some(rest) = text.strip_prefix("  ")
            && let Some((desc, word)) = super::rsplit_once(rest, " ... ")
            && let (Some((sub, true)), Some(outcome)) = (canonical(desc), result_word(word))
            && sub == running.name
        {
            if outcome.is_failure() {
                self.result(index, sub, outcome);
            }
            // More of its subtests may follow.
            self.run.running = Some(Running {
                subtests: true,
                ..running
            });
            return true;
        }
        if running.subtests {
            return false;
        }
        self.run.running = Some(running);
        true
    }

    /// A line of a header's block: its first line that is not a traceback's
    /// frame (`AssertionError: 2 != 3`, `ImportError: Failed to import…`)
    /// is the message.
    fn block_line(&mut self, text: &str) {
        if self.block_head {
            self.block_head = text != DASHES;
            return;
        }
        if !self.excerpts.has_message() && is_exception_line(text) {
            self.excerpts.message(text);
        }
        self.excerpts.push(text);
    }

    fn header(&mut self, index: u64, text: &str) -> bool {
        let (outcome, desc) = if let Some(desc) = text.strip_prefix("FAIL: ") {
            (Outcome::Failed, desc)
        } else if let Some(desc) = text.strip_prefix("ERROR: ") {
            (Outcome::Error, desc)
        } else if let Some(desc) = text.strip_prefix("UNEXPECTED SUCCESS: ") {
            (Outcome::XPassed, desc)
        } else {
            return false;
        };
        let Some((name, _)) = canonical(desc) else {
            return false;
        };
        self.detected(index);
        self.run.open = true;
        if self.run.stale {
            // The headers so far were a test's output: so were their blocks.
            self.run.headers.clear();
            self.excerpts.clear();
            self.run.stale = false;
        }
        self.excerpts.open(&name);
        self.block_head = true;
        self.run.headers.push((index, name, outcome));
        true
    }
}

impl Recognizer for Unittest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let index = line.index;
        // Between tests an indented line is output, never a test's line:
        // what `interest` says, so every line and the dispatch agree.
        if self.is_between() && text.starts_with(' ') {
            return;
        }
        if let Some((ran_at, _)) = self.ran {
            if text.trim().is_empty() {
                return;
            }
            if let Some(verdict) = verdict(text) {
                if verdict.ok && self.run.said_failure {
                    // A test printed it: unittest's own `OK` never follows a
                    // failed result. The run goes on (or the log ends and
                    // leaves it unclosed).
                    self.detected(ran_at);
                    self.ran = None;
                    return;
                }
                self.detected(ran_at);
                self.end_run(Some((index, verdict)));
                self.ran = None;
                return;
            }
            self.ran = None;
        }
        if self.run.running.is_some() && self.running_line(index, text) {
            return;
        }
        let after_rule = std::mem::replace(&mut self.after_rule, text == HEADER_RULE);
        if text == HEADER_RULE {
            self.excerpts.end();
            return;
        }
        if after_rule && self.header(index, text) {
            return;
        }
        if let Some(n) = ran_line(text) {
            self.excerpts.end();
            self.ran = Some((index, n));
            return;
        }
        if self.excerpts.is_open() {
            self.block_line(text);
        }
        if is_progress(text) && self.run.mode != Some(Mode::Verbose) {
            self.run.mode = Some(Mode::Dots);
            self.run.open = true;
            self.run.stale = true;
            self.run.said_failure |= text.bytes().any(|b| b == b'F' || b == b'E');
            return;
        }
        if self.run.mode == Some(Mode::Dots) {
            return;
        }
        self.verbose_line(index, text);
    }

    fn finish(&mut self) -> Findings {
        self.end_run(None);
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        // Between tests only a line's start matters: an indented line is
        // a running test's subtest (3.11) or output.
        if self.is_between() {
            &UNINDENTED
        } else {
            &Interest::ALL
        }
    }
}

impl Unittest {
    /// Between tests: no test running, no block or closing line pending.
    fn is_between(&self) -> bool {
        self.run.running.is_none()
            && !self.excerpts.is_open()
            && self.ran.is_none()
            && !self.after_rule
            && self.run.described.is_none()
    }
}

/// Every line that does not start with a space.
static UNINDENTED: Interest = Interest::NONE.first_range(0, u8::MAX);

/// The headers of the errors section unittest's closing line counts:
/// unittest prints its errors, then its failures, then (3.11) its
/// unexpected successes, one header each; a header beyond those counts was
/// printed inside a block (a failing test's message or buffered output,
/// after its own header), so they are matched from the end.
fn counted_section(
    section: Vec<(u64, String, Outcome)>,
    verdict: &Verdict,
) -> Vec<(u64, String, Outcome)> {
    let mut need = [
        verdict.errors,
        verdict.failures,
        verdict.unexpected_successes,
    ];
    let order = |outcome: Outcome| match outcome {
        Outcome::Error => 0,
        Outcome::XPassed => 2,
        Outcome::Passed
        | Outcome::Failed
        | Outcome::Skipped
        | Outcome::XFailed
        | Outcome::Flaky
        | Outcome::Running => 1,
    };
    let mut phase = 2;
    let mut kept: Vec<(u64, String, Outcome)> = Vec::new();
    for header in section.into_iter().rev() {
        let kind = order(header.2);
        if kind > phase {
            continue;
        }
        let Some(left) = need.get_mut(kind).filter(|left| **left > 0) else {
            continue;
        };
        *left -= 1;
        phase = kind;
        kept.push(header);
    }
    kept.reverse();
    kept
}

/// Whether `text` is an exception's line in a traceback's block:
/// `module.Error: message` or `Error` alone, unindented.
fn is_exception_line(text: &str) -> bool {
    let head = text.split_once(':').map_or(text, |(head, _)| head);
    !head.is_empty()
        && head != "Traceback (most recent call last)"
        && head.as_bytes()[0].is_ascii_alphabetic()
        && head
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        && (text.len() == head.len() || text[head.len()..].starts_with(": "))
}

/// Whether `text` may be a verbose line: its first description, before
/// ` ... ` or alone, ends with `)`. The cheap test that keeps other
/// runners' lines (`test a::b ... ok`) from the parsing of descriptions.
fn may_describe(text: &str) -> bool {
    // Either way a `)` is needed: one `memchr` keeps a line without one
    // from the search for ` ... `.
    if memchr::memchr(b')', text.as_bytes()).is_none() {
        return false;
    }
    match super::find(text, " ... ") {
        Some(at) => text.as_bytes().get(at.wrapping_sub(1)) == Some(&b')'),
        None => text.ends_with(')'),
    }
}

/// The last ` ... `-separated part of `head`: the description of the test
/// whose result follows.
fn last_segment(head: &str) -> &str {
    match super::rfind(head, " ... ") {
        Some(at) => &head[at + 5..],
        None => head,
    }
}

/// The word a verbose result line ends with, as the outcome it means.
fn result_word(word: &str) -> Option<Outcome> {
    let word = word.trim_end();
    Some(match word {
        "ok" => Outcome::Passed,
        "FAIL" => Outcome::Failed,
        "ERROR" => Outcome::Error,
        "expected failure" => Outcome::XFailed,
        "unexpected success" => Outcome::XPassed,
        _ if word.starts_with("skipped") => Outcome::Skipped,
        _ => return None,
    })
}

/// A test's description as unittest prints it, as the canonical name, and
/// whether it is a subtest's (more follows the parenthesis):
/// `test_x (mod.Class)` (also 3.11's `test_x (mod.Class.test_x)`) is
/// `test_x (mod.Class)`; `func (mod)` a doctest; `mod.name
/// (unittest.loader._FailedTest)` the module `mod.name`. `None` when `desc`
/// is not one.
pub(super) fn canonical(desc: &str) -> Option<(String, bool)> {
    let (method, rest) = super::split_once(desc, " (")?;
    let (dotted, after) = rest.split_once(')')?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b >= 0x80)
    };
    if !plain(method) || !plain(dotted) || dotted.starts_with('.') {
        return None;
    }
    let subtest = !after.is_empty();
    if subtest && !after.starts_with(' ') {
        return None;
    }
    let class = dotted
        .strip_suffix(method)
        .and_then(|c| c.strip_suffix('.'))
        .filter(|c| !c.is_empty())
        .unwrap_or(dotted);
    if matches!(
        class,
        "unittest.loader._FailedTest" | "unittest.loader.ModuleImportFailure"
    ) {
        return Some((method.to_owned(), subtest));
    }
    Some((format!("{method} ({class})"), subtest))
}

/// `Ran N tests in Xs` (`Ran 1 test in 0.000s`): N.
fn ran_line(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Ran ")?;
    let (n, rest) = rest.split_once(' ')?;
    let rest = rest
        .strip_prefix("tests in ")
        .or_else(|| rest.strip_prefix("test in "))?;
    let seconds = rest.trim_end().strip_suffix('s')?;
    if seconds.is_empty() || !seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    n.parse().ok()
}

/// The verdict line: `OK`, `OK (skipped=1)`, `FAILED (failures=1,
/// errors=2)`, `NO TESTS RAN`.
fn verdict(text: &str) -> Option<Verdict> {
    let text = text.trim_end();
    let (word, counts) = match super::split_once(text, " (") {
        Some((word, counts)) => (word, Some(counts.strip_suffix(')')?)),
        None => (text, None),
    };
    let mut verdict = match word {
        "OK" => Verdict {
            ok: true,
            ..Verdict::default()
        },
        "FAILED" => Verdict::default(),
        "NO TESTS RAN" => Verdict {
            no_tests: true,
            ..Verdict::default()
        },
        _ => return None,
    };
    for item in counts.into_iter().flat_map(|c| c.split(", ")) {
        let (key, n) = item.split_once('=')?;
        let n: u64 = n.parse().ok()?;
        let slot = match key {
            "failures" => &mut verdict.failures,
            "errors" => &mut verdict.errors,
            "skipped" => &mut verdict.skipped,
            "expected failures" => &mut verdict.expected_failures,
            "unexpected successes" => &mut verdict.unexpected_successes,
            _ => return None,
        };
        *slot = n;
    }
    Some(verdict)
}

/// A line of unittest's progress characters only (`..F.Es`): a result
/// line of the default verbosity.
fn is_progress(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| matches!(b, b'.' | b'F' | b'E' | b's' | b'x' | b'u'))
}

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "test_a (m.C.test_a) ... ",
    "test_b (m.C) ... FAIL\n",
    "test_c (m.C)\n",
    "Docstring ... ok\n",
    "  test_a (m.C.test_a) (i=1) ... FAIL\n",
    "ok\n",
    "..F.E\n",
    "======================================================================\n",
    "FAIL: test_b (m.C)\n",
    "ERROR: m (unittest.loader._FailedTest)\n",
    "UNEXPECTED SUCCESS: test_a (m.C.test_a)\n",
    "----------------------------------------------------------------------\n",
    "Ran 2 tests in 0.001s\n",
    "OK\n",
    "FAILED (failures=1, errors=1)\n",
    "NO TESTS RAN\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_canonical_on_every_python() {
        let name = |d: &str| canonical(d).map(|(n, _)| n);
        assert_eq!(
            name("test_x (a.b.C.test_x)").as_deref(),
            Some("test_x (a.b.C)")
        );
        assert_eq!(name("test_x (a.b.C)").as_deref(), Some("test_x (a.b.C)"));
        assert_eq!(
            canonical("test_x (a.C.test_x) (i=1)"),
            Some(("test_x (a.C)".to_owned(), true))
        );
        assert_eq!(
            name("pkg.test_mod (unittest.loader._FailedTest.pkg.test_mod)").as_deref(),
            Some("pkg.test_mod")
        );
        assert_eq!(
            name("triple (pkg.test_doc)").as_deref(),
            Some("triple (pkg.test_doc)")
        );
        // Not a description: prose, libtest's and pytest's names.
        assert_eq!(name("this is (not a test)"), None);
        assert_eq!(name("tests::adds"), None);
        assert_eq!(name("tests/a.py::test_x"), None);
        assert_eq!(name("x (y)z"), None);
    }

    #[test]
    fn closing_lines() {
        assert_eq!(ran_line("Ran 12 tests in 0.004s"), Some(12));
        assert_eq!(ran_line("Ran 1 test in 0.000s"), Some(1));
        assert_eq!(ran_line("Ran tests in 1s"), None);
        assert_eq!(ran_line("Ran 3 miles in 20s"), None);
        let v = verdict(
            "FAILED (failures=4, errors=2, skipped=1, expected failures=1, unexpected successes=1)",
        )
        .unwrap();
        assert_eq!((v.failures, v.errors, v.unexpected_successes), (4, 2, 1));
        assert!(verdict("OK (skipped=1)").unwrap().ok);
        assert!(verdict("NO TESTS RAN").unwrap().no_tests);
        assert_eq!(verdict("OK then"), None);
        assert_eq!(verdict("FAILED (reasons=1)"), None);
    }

    #[test]
    fn descriptions_must_end_in_a_parenthesis() {
        assert!(may_describe("test_x (m.C.test_x) ... ok"));
        assert!(may_describe("test_x (m.C)"));
        assert!(!may_describe("test tests::adds ... ok"));
        assert!(!may_describe(" ... ok"));
        assert!(!may_describe("tests/a.py::test_x PASSED [ 50%]"));
    }

    #[test]
    fn exception_lines_are_messages_and_frames_are_not() {
        assert!(is_exception_line(
            "AssertionError: 2 != 3 : arithmetic is broken"
        ));
        assert!(is_exception_line(
            "shop.models.Item.DoesNotExist: Item matching query"
        ));
        assert!(is_exception_line("KeyboardInterrupt"));
        assert!(!is_exception_line("Traceback (most recent call last):"));
        assert!(!is_exception_line("  File \"t.py\", line 3, in test_x"));
        assert!(!is_exception_line(""));
    }

    #[test]
    fn a_failing_tests_block_is_its_output() {
        let log = format!(
            "F\n{RULE}\nFAIL: test_b (m.T.test_b)\n{DASHES}\nTraceback (most recent call last):\n\
             \x20 File \"m.py\", line 3, in test_b\nAssertionError: 1 != 2\n\n{DASHES}\n\
             Ran 1 test in 0.001s\n\nFAILED (failures=1)\n"
        );
        let report = crate::parse(Runner::Unittest, &log);
        assert_eq!(
            report.failing[0].message.as_deref(),
            Some("AssertionError: 1 != 2")
        );
        let excerpt = report.failing[0].excerpt.as_deref().unwrap_or_default();
        assert!(excerpt.contains("in test_b"), "{excerpt}");
    }

    #[test]
    fn progress_lines_must_not_be_prose() {
        assert!(is_progress("..F.Esxu"));
        assert!(!is_progress("sure"));
        assert!(!is_progress(""));
    }

    const RULE: &str = HEADER_RULE;

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Unittest, log)
            .failing
            .into_iter()
            .map(|t| t.name)
            .collect()
    }

    #[test]
    fn a_header_a_passing_test_prints_names_nothing() {
        // Hand-made: the shape of fixtures/unittest/lies_verbose.log, alone.
        let log = format!(
            "test_a (m.T.test_a) ... \n{RULE}\nFAIL: test_fake (m.Fake)\n{DASHES}\nboom\n\nok\n\
             {DASHES}\nRan 1 test in 0.001s\n\nOK\n"
        );
        let report = crate::parse(Runner::Unittest, &log);
        assert!(report.failing.is_empty(), "{report:?}");
        assert_eq!(report.unclosed, None);
        assert_eq!(report.format, Some(Runner::Unittest));
    }

    #[test]
    fn a_header_inside_a_failures_message_names_nothing() {
        // Dots: the count says one failure; the header in test_b's message,
        // after test_b's own, is not unittest's.
        let log = format!(
            ".F\n{RULE}\nFAIL: test_b (m.T.test_b)\n{DASHES}\nAssertionError: x\n\n\
             {RULE}\nERROR: test_fake (m.Fake)\n{DASHES}\n\n{DASHES}\nRan 2 tests in 0.001s\n\n\
             FAILED (failures=1)\n"
        );
        assert_eq!(names(&log), ["test_b (m.T)"]);
    }

    #[test]
    fn a_closing_line_a_running_test_prints_ends_nothing() {
        let log = format!(
            "test_a (m.T.test_a) ... FAIL\ntest_b (m.T.test_b) ... \n{DASHES}\n\
             Ran 2 tests in 0.001s\n\nOK\nok\n\n{RULE}\nFAIL: test_a (m.T.test_a)\n{DASHES}\nx\n\n\
             {DASHES}\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n"
        );
        assert_eq!(names(&log), ["test_a (m.T)"]);
    }

    #[test]
    fn ok_after_a_failed_result_is_no_pass() {
        // A test prints the closing `OK` and exits 0 (tests/hostile-style).
        for log in [
            format!("F\n{DASHES}\nRan 2 tests in 0.001s\n\nOK\n"),
            format!("test_a (m.T) ... FAIL\n{DASHES}\nRan 2 tests in 0.001s\n\nOK\n"),
        ] {
            let report = crate::parse(Runner::Unittest, &log);
            assert!(report.unclosed.is_some(), "{log}");
            assert_eq!(report.format, Some(Runner::Unittest));
        }
        let log = format!("test_a (m.T) ... FAIL\n{DASHES}\nRan 2 tests in 0.001s\n\nOK\n");
        assert_eq!(names(&log), ["test_a (m.T)"]);
    }

    #[test]
    fn a_failed_subtest_fails_its_test_on_every_python() {
        // 3.8: nothing printed for the subtest, the next test on the line.
        let old = format!(
            "test_s (m.T) ... test_u (m.T) ... unexpected success\n\n{RULE}\n\
             FAIL: test_s (m.T) (i=1)\n{DASHES}\nx\n\n{DASHES}\nRan 2 tests in 0.001s\n\n\
             FAILED (failures=1, unexpected successes=1)\n"
        );
        assert_eq!(names(&old), ["test_u (m.T)", "test_s (m.T)"]);
        // 3.11: the subtest's own indented line.
        let new = format!(
            "test_s (m.T.test_s) ... \n  test_s (m.T.test_s) (i=1) ... FAIL\ntest_p (m.T.test_p) ... ok\n\n\
             {RULE}\nFAIL: test_s (m.T.test_s) (i=1)\n{DASHES}\nx\n\n{DASHES}\nRan 2 tests in 0.001s\n\n\
             FAILED (failures=1)\n"
        );
        assert_eq!(names(&new), ["test_s (m.T)"]);
    }

    #[test]
    fn no_tests_ran() {
        for closing in ["NO TESTS RAN", "OK"] {
            let log = format!("\n{DASHES}\nRan 0 tests in 0.000s\n\n{closing}\n");
            let report = crate::parse(Runner::Unittest, &log);
            assert!(report.no_tests_ran, "{closing}");
            assert!(report.failing.is_empty());
        }
    }

    #[test]
    fn other_runners_lines_are_not_unittests() {
        for log in [
            "test tests::adds ... ok\ntest tests::x ... FAILED\n",
            "tests/a.py::test_x FAILED [ 50%]\nFAILED tests/a.py::test_x - boom\n",
            "--- FAIL: TestX (0.00s)\nFAIL\tpkg\t0.01s\n",
            "Applying auth.0001_initial... OK\nSystem check identified no issues (0 silenced).\n",
        ] {
            let report = crate::parse(crate::Format::Auto, log);
            assert_ne!(report.format, Some(Runner::Unittest), "{log}");
            assert!(
                crate::parse(Runner::Unittest, log).failing.is_empty(),
                "{log}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_streams_alike(
            pieces in proptest::collection::vec(super::super::testing::piece(&[
                "test_x (a.C.test_x) ... ", "ok\n", "FAIL\n", " ... FAIL\n", "\n",
                "======================================================================\n",
                "FAIL: test_x (a.C)\n", "ERROR: m (unittest.loader._FailedTest)\n",
                "Ran 2 tests in 0.001s\n", "OK\n", "FAILED (failures=1)\n", "..F\n",
                "  test_x (a.C.test_x) (i=1) ... FAIL\n", "NO TESTS RAN\n",
            ]), 0..40),
        ) {
            let log: String = pieces.concat();
            super::super::testing::chunked_equals_whole(Runner::Unittest, &log)?;
        }
    }
}
