//! `cargo test`: libtest's text output (pretty and terse, `--nocapture`
//! included) and its JSON (`--format json -Z unstable-options`).
//!
//! libtest runs one binary after another (`Running unittests src/lib.rs
//! (…)`, `Running tests/it.rs (…)`, `Doc-tests foo`). Each binary's run
//! is a *scope*: `running N tests`, its `test x ... FAILED` lines (the
//! candidates), the `failures:` list, then `test result:`. The result
//! decides: `ok` drops every candidate (a passing test printed a fake
//! line), `FAILED` with a `failures:` list keeps exactly the listed names.
//!
//! A result is libtest's only if the run it closes agrees with it
//! ([`Binary::tally`]): its counts add up to the `running N tests`, and at
//! least as many results were printed before it. A test that prints `test
//! result: ok. …` itself and ends the process with status 0 (issue 28)
//! leaves its own test, and any still running, without a result: its line
//! does not close the run, which then ends without its result (`unclosed`).

mod targets;

use std::sync::LazyLock;

use regex::Regex;

use self::targets::{FailedTarget, Targets};
use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// Recognises libtest output, text and JSON.
#[derive(Debug, Default)]
pub(crate) struct Cargo {
    findings: Findings,
    /// The test binary now running, as cargo names it.
    context: Option<String>,
    /// The binary being read, from its `running N tests` to its result.
    scope: Binary,
    /// A nextest run is being read: its captured libtest output is nextest's
    /// business, not a `cargo test` run of its own.
    under_nextest: bool,
    /// Some binary said `running 0 tests` / none ran any.
    saw_empty_run: bool,
    saw_nonempty_run: bool,
    /// cargo's own word on which targets failed.
    targets: Targets,
    /// The failing tests' `---- name stdout ----` blocks.
    excerpts: Excerpts,
    /// The last line of a block was a `thread '…' panicked at file:1:2:`
    /// line: the next one is the panic's message.
    after_panic: bool,
}

/// One test binary's run.
#[derive(Debug, Default)]
struct Binary {
    /// Its `running N tests` (or JSON suite start) was read: test lines
    /// outside a binary's run are some other program's output.
    open: bool,
    /// The binary cargo last named when it opened (merged from two pipes,
    /// the name may come late: a guess for messages only).
    binary: Option<String>,
    /// `test x ... FAILED` lines (and JSON `failed` events): candidates;
    /// the `failures:` list: libtest's own word on which failed.
    failures: Scope,
    /// The last `failures:` list is being read.
    in_list: bool,
    /// Tests libtest said `has been running for over 60 seconds`, with the
    /// line, until their result.
    slow: Vec<(u64, String)>,
    /// A `test x ... ` line whose result has not come yet (`--nocapture`
    /// output landed in between, or the test never ended), with its index.
    pending: Option<(u64, String)>,
    /// Tests a JSON `started` event named that have not ended yet.
    in_flight: Vec<(u64, String)>,
    /// cargo's `error: test failed, to rerun pass …` lines read while this
    /// binary's run was open: cargo's if the binary died (no result came),
    /// else printed by one of its tests.
    failed_targets: Vec<FailedTarget>,
    /// The tests its `running N tests` (or JSON `test_count`) announced.
    announced: u64,
    /// Whether [`seen`](Binary::seen) still bounds the results shown.
    results: Tally,
    /// How many results libtest's own lines showed ([`Shown::Results`]).
    seen: u64,
    /// How many `-q` marks its other lines held ([`Shown::Marks`]).
    marks: u64,
    /// A line of libtest's pretty format was read: every result has one.
    pretty: bool,
    /// The first `test result:` line that disagreed with the run it claimed
    /// to close, which was then left open.
    disowned: Option<Disowned>,
}

/// At most how many test results a binary's lines showed so far.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Tally {
    /// Each result libtest prints is counted, and some lines that are not.
    #[default]
    Counted,
    /// A line was cut at the length cap: what it held is unknown.
    Unbounded,
}

/// A `test result:` line that was not the binary's own
/// ([`Cargo::binary_result`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Disowned {
    /// The tests it counted (passed, failed, ignored, measured).
    stated: u64,
    /// At most how many results had been printed before it.
    seen: u64,
}

static RUNNING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^running (\d+) tests?$").expect("valid regex"));
static RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out",
    )
    .expect("valid regex")
});

impl Recognizer for Cargo {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text: &str = &line.text;
        if self.targets.in_closing_list() && self.targets.closing_list_line(text) {
            return;
        }
        if self.scope.open && !self.under_nextest {
            // A `test ` line is tallied where it is read, below: parsed once.
            if !text.starts_with("test ") {
                self.scope.tally(text);
            }
            self.block_line(text);
        }
        match text.as_bytes().first() {
            Some(b' ') => self.indented_line(text, line.index),
            Some(b'r') if !self.under_nextest => {
                if let Some(count) = running_count(text) {
                    self.start_binary(line.index, count);
                } else {
                    self.other_line(text, line.index);
                }
            }
            Some(b't') if !self.under_nextest => {
                if text.starts_with("test result: ") {
                    self.binary_result(text, line.index);
                } else if let Some((name, status)) = test_line(text) {
                    if self.scope.open {
                        self.scope.tally_result(text, status);
                    }
                    self.test_line(name, status, line.index);
                } else {
                    if self.scope.open && text.starts_with("test ") {
                        self.scope.tally(text);
                    }
                    self.other_line(text, line.index);
                }
            }
            Some(b'f') if !self.under_nextest && text == "failures:" => {
                self.scope.failures.start_list();
                self.scope.in_list = true;
            }
            Some(b'e') if text.starts_with("error: could not compile ") => {
                // A build failure names no test, but it is cargo's output.
                self.detect(line.index);
            }
            Some(b'e') if !self.under_nextest => self.cargo_error(text, line.index),
            Some(_) | None if self.under_nextest => {}
            Some(_) | None => self.other_line(text, line.index),
        }
    }

    fn finish(&mut self) -> Findings {
        // A log that ends inside a binary's run keeps what it saw so far.
        self.close_binary(BinaryResult::Unknown);
        for (index, target) in std::mem::take(&mut self.targets).finish() {
            self.findings.fail(index, target);
        }
        self.findings.no_tests_ran = self.saw_empty_run && !self.saw_nonempty_run;
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.scope.in_list
            || self.scope.pending.is_some()
            || self.targets.in_closing_list()
            || self.excerpts.is_open()
            || (self.scope.open && !self.under_nextest)
        {
            // A list ends at, and a late result is, any line; an open
            // binary's results are tallied from every line (`-q`'s dots may
            // land inside a test's own output).
            &Interest::ALL
        } else if self.under_nextest {
            &UNDER_NEXTEST
        } else {
            &OUTSIDE_LIST
        }
    }
}

/// How a binary's run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BinaryResult {
    /// `test result: ok` or a JSON suite `ok`: no test of it failed.
    Ok,
    /// `test result: FAILED` or a JSON suite `failed`.
    Failed,
    /// No result: the log ended or the next binary started first.
    Unknown,
}

impl Cargo {
    fn detect(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// Lines that start with a space: cargo's own status lines, a failures
    /// list entry, or (under nextest) nothing of ours.
    fn indented_line(&mut self, text: &str, index: u64) {
        let trimmed = super::trim_start(text);
        // cargo writes `Running` and `Doc-tests` to stderr, the binaries
        // write to stdout: merged by arrival, either may come first, so
        // these lines never end a binary's run (only its result, the next
        // `running N tests` or the end of the log do).
        if let Some(binary) = trimmed.strip_prefix("Running ") {
            self.under_nextest = false;
            self.targets.announce();
            self.context = Some(binary_name(binary).to_owned());
        } else if let Some(crate_name) = trimmed.strip_prefix("Doc-tests ") {
            self.under_nextest = false;
            self.detect(index);
            self.targets.announce();
            self.context = Some(format!("Doc-tests {}", crate_name.trim()));
        } else if starts_nextest_run(trimmed) {
            self.close_binary(BinaryResult::Unknown);
            self.under_nextest = true;
        } else if self.under_nextest {
        } else if self.scope.in_list {
            if let Some(name) = text.strip_prefix("    ")
                && !name.is_empty()
                && !name.starts_with(' ')
            {
                self.scope.failures.list(index, name, None, Kind::Test);
                return;
            }
            self.scope.in_list = false;
        } else {
            self.other_line(text, index);
        }
    }

    /// A line that is none of libtest's markers: the end of a failures list,
    /// the late result of a test whose output came first, or a JSON event.
    fn other_line(&mut self, text: &str, index: u64) {
        self.scope.in_list = false;
        if let Some(event) = json_event(text) {
            self.json_event(&event, index);
            return;
        }
        if let Some(name) = slow_test(text) {
            if self.scope.open && !self.scope.slow.iter().any(|(_, n)| n == name) {
                self.scope.slow.push((index, name.to_owned()));
            }
            return;
        }
        if let Some((first, name)) = self.scope.pending.take() {
            if !matches!(late_result(text), Some(TestStatus::Pending) | None) {
                self.scope.seen = self.scope.seen.saturating_add(1);
            }
            match late_result(text) {
                Some(TestStatus::Failed) => self.candidate(first, &name),
                Some(TestStatus::Passed) => self.note(first, &name, Outcome::Passed),
                Some(TestStatus::Ignored) => self.note(first, &name, Outcome::Skipped),
                Some(TestStatus::Pending) | None => self.scope.pending = Some((first, name)),
            }
        }
    }

    fn start_binary(&mut self, index: u64, count: u64) {
        self.close_binary(BinaryResult::Unknown);
        self.scope.open = true;
        self.scope.announced = count;
        self.scope.binary.clone_from(&self.context);
        self.detect(index);
        if count == 0 {
            self.saw_empty_run = true;
        } else {
            self.saw_nonempty_run = true;
        }
    }

    fn test_line(&mut self, name: &str, status: TestStatus, index: u64) {
        if !self.scope.open {
            return;
        }
        self.scope.in_list = false;
        // A test whose output came first keeps waiting for its result
        // through another test's whole line (`--nocapture` output can hold
        // one: a printed `test fake ... FAILED`); a test line that waits
        // too takes its place.
        if status == TestStatus::Pending
            || self.scope.pending.as_ref().is_some_and(|(_, n)| n == name)
        {
            self.scope.pending = None;
        }
        if !self.scope.slow.is_empty() {
            self.scope.slow.retain(|(_, n)| n != name);
        }
        // Only a name that may fail is kept, so only it is copied: a passing
        // test, nearly every line of a libtest log, allocates nothing.
        match status {
            TestStatus::Failed => self.candidate(index, name),
            TestStatus::Pending => self.scope.pending = Some((index, name.to_owned())),
            TestStatus::Passed => self.note(index, name, Outcome::Passed),
            TestStatus::Ignored => self.note(index, name, Outcome::Skipped),
        }
    }

    /// Notes a result other than a failure, for the report's every-test list.
    fn note(&mut self, index: u64, name: &str, outcome: Outcome) {
        let context = self.context.as_deref();
        self.findings.seen.note(index, name, context, outcome);
    }

    fn candidate(&mut self, index: u64, name: &str) {
        self.scope.failures.candidate(index, name, None, Kind::Test);
    }

    fn binary_result(&mut self, text: &str, index: u64) {
        let Some(caps) = RESULT.captures(text) else {
            return;
        };
        self.detect(index);
        let number = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<u64>().ok());
        if !self
            .scope
            .owns([number(2), number(3), number(4), number(5)])
        {
            return;
        }
        self.findings.counts.add(Counts {
            passed: number(2),
            failed: number(3),
            skipped: number(4),
        });
        let result = if caps.get(1).is_some_and(|m| m.as_str() == "ok") {
            BinaryResult::Ok
        } else {
            BinaryResult::Failed
        };
        self.close_binary(result);
    }

    fn json_event(&mut self, event: &serde_json::Value, index: u64) {
        let field = |key: &str| event.get(key).and_then(serde_json::Value::as_str);
        let number = |key: &str| event.get(key).and_then(serde_json::Value::as_u64);
        match (field("type"), field("event")) {
            (Some("suite"), Some("started")) => {
                self.start_binary(index, number("test_count").unwrap_or(0));
            }
            (Some("suite"), Some(end @ ("ok" | "failed"))) => {
                self.detect(index);
                let counted = ["passed", "failed", "ignored", "measured"].map(number);
                if !self.scope.owns(counted) {
                    return;
                }
                self.findings.counts.add(Counts {
                    passed: number("passed"),
                    failed: number("failed"),
                    skipped: number("ignored"),
                });
                let result = if end == "ok" {
                    BinaryResult::Ok
                } else {
                    BinaryResult::Failed
                };
                self.close_binary(result);
            }
            (Some("test"), Some(what @ ("started" | "ok" | "failed" | "ignored"))) => {
                let Some(name) = field("name") else {
                    return;
                };
                self.detect(index);
                self.scope.in_flight.retain(|(_, n)| n != name);
                match what {
                    "started" => self.scope.in_flight.push((index, name.to_owned())),
                    "failed" => {
                        self.candidate(index, name);
                        if let Some(stdout) = field("stdout") {
                            self.excerpts.open(name);
                            for line in stdout.lines() {
                                self.excerpt_line(line);
                            }
                            self.excerpts.end();
                        }
                    }
                    "ok" => self.note(index, name, Outcome::Passed),
                    _ => self.note(index, name, Outcome::Skipped),
                }
            }
            _ => {}
        }
    }

    /// Ends the binary being read: its result confirms or drops candidates.
    /// A binary that gave no result died (a signal, a timeout) or was cut
    /// off: the tests it had started and not ended fail with it.
    fn close_binary(&mut self, result: BinaryResult) {
        let mut scope = std::mem::take(&mut self.scope);
        if result == BinaryResult::Unknown && scope.open && !self.under_nextest {
            // A binary that exits 0 in the middle of its run (a test calling
            // `std::process::exit(0)`) leaves cargo's exit status 0: only
            // the missing result line tells.
            self.findings.unclosed.get_or_insert_with(|| {
                let run = match &scope.binary {
                    Some(binary) => format!("libtest's run of {binary}"),
                    None => "libtest's run".to_owned(),
                };
                match scope.disowned {
                    Some(Disowned { stated, seen }) => format!(
                        "{run} ended without its own `test result:` line (one counting \
                             {stated} tests came after at most {seen} of its {} results)",
                        scope.announced
                    ),
                    None if scope.binary.is_some() => {
                        format!("{run} ended without its `test result:` line")
                    }
                    None => "libtest's `running N tests` was not followed by its `test result:` \
                             line"
                        .to_owned(),
                }
            });
        }
        if result == BinaryResult::Unknown {
            let unended: Vec<(u64, String)> = scope
                .pending
                .take()
                .into_iter()
                .chain(scope.in_flight.drain(..))
                .chain(scope.slow.drain(..))
                .collect();
            if scope.open {
                self.findings.running.extend(unended.iter().cloned());
            }
            for (index, name) in unended {
                scope.failures.candidate(index, &name, None, Kind::Test);
            }
        }
        let judgement = match result {
            BinaryResult::Ok => Judgement::Passed,
            // The list is libtest's own word on which tests failed; an
            // empty one (the log cut inside it) says nothing.
            BinaryResult::Failed if scope.failures.listed_any() => Judgement::Listed,
            BinaryResult::Failed | BinaryResult::Unknown => Judgement::Unjudged,
        };
        for confirmed in scope.failures.close(judgement) {
            self.targets.named_a_failure();
            let (message, excerpt) = self.excerpts.take(&confirmed.name);
            let test = FailingTest::new(confirmed.name, Runner::Cargo, self.context.clone())
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        self.excerpts.clear();
        self.after_panic = false;
        // cargo speaks of a binary only after it ended: a line that its
        // binary's own result followed was printed by one of its tests.
        if result == BinaryResult::Unknown && !self.under_nextest {
            for target in scope.failed_targets {
                self.targets.accept(target);
            }
        }
    }

    /// cargo's `error: …` lines after a target ran: one target failed, or
    /// the closing list of a `--no-fail-fast` run starts.
    fn cargo_error(&mut self, text: &str, index: u64) {
        if let Some(selector) = targets::failed_target(text) {
            self.detect(index);
            let target = self.targets.line(index, selector, self.context.as_deref());
            if self.scope.open {
                if self.scope.failed_targets.len() < 64 {
                    self.scope.failed_targets.push(target);
                }
            } else {
                self.targets.accept(target);
            }
        } else if targets::closing_header(text) {
            self.detect(index);
            self.targets.start_closing_list(index);
        } else {
            self.other_line(text, index);
        }
    }
}

impl Binary {
    /// Counts the results `text`, a line of this run, may show, never fewer
    /// than it shows ([`results_shown`]). A line cut at the length cap
    /// leaves the count unknown.
    fn tally(&mut self, text: &str) {
        if self.results == Tally::Unbounded {
            return;
        }
        if text.len() >= crate::line::MAX_LINE {
            self.results = Tally::Unbounded;
            return;
        }
        match results_shown(text, self.pretty) {
            Shown::Results { count, pretty } => {
                self.seen = self.seen.saturating_add(count);
                self.pretty |= pretty;
            }
            Shown::Marks(marks) => self.marks = self.marks.saturating_add(marks),
        }
    }

    /// Counts `text`, a pretty `test NAME ... ` line whose status is
    /// `status`: one result, unless it is still to come (`--test-threads=1`
    /// prints the name first), when it is counted as it comes
    /// ([`Cargo::other_line`]).
    fn tally_result(&mut self, text: &str, status: TestStatus) {
        if self.results == Tally::Unbounded {
            return;
        }
        if text.len() >= crate::line::MAX_LINE {
            self.results = Tally::Unbounded;
            return;
        }
        self.seen = self
            .seen
            .saturating_add(u64::from(status != TestStatus::Pending));
        self.pretty = true;
    }

    /// At most how many results the run showed: libtest's pretty format
    /// prints a line for every result, `-q` a mark that other output may
    /// surround.
    fn results_seen(&self) -> u64 {
        if self.pretty {
            self.seen
        } else {
            self.seen.saturating_add(self.marks)
        }
    }

    /// Whether a `test result:` (or JSON suite end) counting `counted`
    /// (passed, failed, ignored, measured) is this run's own: its counts add
    /// up to the tests the run announced, and the run showed at least as
    /// many results before it. libtest prints every test's result before
    /// its own line; a test that printed the line and ended the process
    /// left its own test without one. A line that is not the run's own is
    /// noted and leaves the run open.
    fn owns(&mut self, counted: [Option<u64>; 4]) -> bool {
        if !self.open {
            return true;
        }
        let stated = counted
            .iter()
            .try_fold(0u64, |sum, n| sum.checked_add((*n)?));
        let seen = self.results_seen();
        let agrees = stated.is_some_and(|stated| {
            stated == self.announced && (self.results == Tally::Unbounded || seen >= stated)
        });
        if !agrees && self.disowned.is_none() {
            self.disowned = Some(Disowned {
                stated: stated.unwrap_or(u64::MAX),
                seen,
            });
        }
        agrees
    }
}

/// What one line of libtest's run shows of its tests' results
/// ([`Binary::tally`]), never less than it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// libtest's own lines: a `test NAME ... RESULT` line (`pretty`: the
    /// line is libtest's pretty format, which prints every result so),
    /// `-q`'s `NAME --- FAILED`, a JSON test result.
    Results { count: u64, pretty: bool },
    /// Any other line: each `.`, `i` and `F` in it, which `-q` prints for
    /// a result and a test's own output (`--nocapture`) can surround.
    Marks(u64),
}

/// What `text`, a line of libtest's run, shows of its tests' results;
/// `pretty`: the run already showed a pretty line, so its marks are not
/// counted (nor looked for).
fn results_shown(text: &str, pretty: bool) -> Shown {
    if text.starts_with("test ") {
        if text.starts_with("test result: ") {
            return Shown::Marks(0);
        }
        if let Some((_, status)) = test_line(text) {
            // A result still to come (`--test-threads=1` prints the name
            // first) is counted when it comes ([`Cargo::other_line`]).
            let count = u64::from(status != TestStatus::Pending);
            return Shown::Results {
                count,
                pretty: true,
            };
        }
    }
    if text.is_empty() || text.starts_with("running ") {
        return Shown::Marks(0);
    }
    let trimmed = super::trim_start(text);
    if trimmed.starts_with("Running ") || trimmed.starts_with("Doc-tests ") || is_cargo_status(text)
    {
        return Shown::Marks(0);
    }
    let pretty_behind_output = super::find(text, "test ")
        .and_then(|at| text.get(at..))
        .is_some_and(|rest| super::find(rest, " ... ").is_some());
    if pretty_behind_output || text.ends_with(" --- FAILED") {
        return Shown::Results {
            count: 1,
            pretty: false,
        };
    }
    if text.ends_with('}') && super::find(text, "\"type\": \"").is_some() {
        let result = [
            "\"event\": \"ok\"",
            "\"event\": \"failed\"",
            "\"event\": \"ignored\"",
        ]
        .iter()
        .any(|event| super::find(text, event).is_some());
        let test = super::find(text, "\"type\": \"test\"").is_some();
        return Shown::Results {
            count: u64::from(result && test),
            pretty: false,
        };
    }
    if pretty {
        return Shown::Marks(0);
    }
    let marks = text
        .bytes()
        .filter(|b| matches!(b, b'.' | b'i' | b'F'))
        .count();
    Shown::Marks(u64::try_from(marks).unwrap_or(u64::MAX))
}

impl Cargo {
    /// A line of an open binary's run: a `---- name stdout ----` header
    /// opens that test's block, libtest's markers end it, any other line
    /// is the open block's.
    fn block_line(&mut self, text: &str) {
        if let Some(name) = block_header(text) {
            self.excerpts.open(name);
            self.after_panic = false;
        } else if !self.excerpts.is_open() {
        } else if text == "failures:" || text.starts_with("test result: ") {
            self.excerpts.end();
        } else {
            self.excerpt_line(text);
        }
    }

    /// A line of the open block, its message noted where it states one.
    fn excerpt_line(&mut self, text: &str) {
        if !self.excerpts.has_message() {
            if self.after_panic {
                self.after_panic = false;
                self.excerpts.message(text);
            } else {
                match panic_message(text) {
                    Some(PanicMessage::Inline(message)) => self.excerpts.message(message),
                    Some(PanicMessage::NextLine) => self.after_panic = true,
                    None => {}
                }
            }
        }
        self.excerpts.push(text);
    }
}

/// The name in libtest's `---- name stdout ----` header.
fn block_header(text: &str) -> Option<&str> {
    let name = text.strip_prefix("---- ")?.strip_suffix(" stdout ----")?;
    (!name.is_empty()).then_some(name)
}

/// Where a line says a test's failure.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PanicMessage<'a> {
    /// On this line: rust before 1.73 (`thread 'x' panicked at 'msg',
    /// src/lib.rs:5:9`), or a test's `Err` (`Error: …`).
    Inline(&'a str),
    /// On the next: rust 1.73+'s `thread 'x' panicked at src/lib.rs:5:9:`.
    NextLine,
}

/// The panic (or returned `Err`) a libtest block's line states.
pub(super) fn panic_message(text: &str) -> Option<PanicMessage<'_>> {
    if let Some(error) = text.strip_prefix("Error: ") {
        return Some(PanicMessage::Inline(error));
    }
    // A `#[should_panic]` test that returned.
    if let Some(note) = text.strip_prefix("note: ")
        && note.starts_with("test did not panic as expected")
    {
        return Some(PanicMessage::Inline(note));
    }
    // `thread 'x' panicked at`; rust 1.88+ adds the thread's id: `thread
    // 'x' (1234) panicked at`.
    let rest = text.strip_prefix("thread '")?;
    let (_, at) = super::split_once(rest, " panicked at ")?;
    if let Some(quoted) = at.strip_prefix('\'') {
        let message = quoted.rsplit_once("', ").map_or(quoted, |(m, _)| m);
        return Some(PanicMessage::Inline(message));
    }
    at.ends_with(':').then_some(PanicMessage::NextLine)
}

/// The result a libtest test line gives its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TestStatus {
    Passed,
    Failed,
    Ignored,
    /// Nothing yet: the test printed (`--nocapture`) before its result.
    Pending,
}

/// `N` of libtest's `running N tests`, which opens each binary's run.
fn running_count(text: &str) -> Option<u64> {
    RUNNING.captures(text)?.get(1)?.as_str().parse().ok()
}

/// The canonical name and status of a libtest `test NAME ... STATUS` line.
///
/// The name is the test path as printed, without the mode libtest appends
/// (`- should panic`, `- compile fail`, `- compile`). Under `--nocapture` the
/// test's own output can follow `... ` before the status, or replace it.
fn test_line(text: &str) -> Option<(&str, TestStatus)> {
    let rest = text.strip_prefix("test ")?;
    plain_test_line(rest).or_else(|| any_test_line(rest))
}

/// [`test_line`] after its `test `, the general way.
fn any_test_line(rest: &str) -> Option<(&str, TestStatus)> {
    let (name, status) = super::split_once(rest, " ... ")?;
    let name = super::trim_end(name);
    let name = [" - should panic", " - compile fail", " - compile"]
        .iter()
        .find_map(|mode| name.strip_suffix(mode))
        .unwrap_or(name);
    if name.is_empty() || name.starts_with(' ') {
        return None;
    }
    let status = late_result(status).unwrap_or(TestStatus::Pending);
    Some((name, status))
}

/// Nearly every line of a libtest log, `test NAME ... ok` (`FAILED`,
/// `ignored`) whose name holds no space nor control byte and ends in ASCII,
/// read from its end: what [`test_line`]'s search for ` ... ` would say,
/// without the search (which cost a quarter of a libtest log's parse).
fn plain_test_line(rest: &str) -> Option<(&str, TestStatus)> {
    let (name, status) = [
        (" ... ok", TestStatus::Passed),
        (" ... FAILED", TestStatus::Failed),
        (" ... ignored", TestStatus::Ignored),
    ]
    .into_iter()
    .find_map(|(suffix, status)| Some((rest.strip_suffix(suffix)?, status)))?;
    // No early exit: the compiler can read the bytes a vector at a time.
    let plain = name.bytes().fold(true, |plain, b| plain & (b > b' '));
    (plain && name.as_bytes().last()?.is_ascii()).then_some((name, status))
}

/// The result at the end of a line that finishes a test whose output came
/// first: `printed textok`, `FAILED`, `ignored, reason`.
/// The name in libtest's `test x has been running for over 60 seconds`.
fn slow_test(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("test ")?;
    let name = rest.strip_suffix(" has been running for over 60 seconds")?;
    (!name.is_empty()).then_some(name)
}

fn late_result(text: &str) -> Option<TestStatus> {
    let text = text.trim_end();
    if text.ends_with("FAILED") {
        Some(TestStatus::Failed)
    } else if text.ends_with("ok") {
        Some(TestStatus::Passed)
    } else if text.starts_with("ignored") {
        Some(TestStatus::Ignored)
    } else {
        None
    }
}

/// cargo's own status line, its verb right-aligned in 12 columns: `
/// Finished `test` profile …`, `   Compiling foo v0.1.0`. cargo writes it
/// to stderr, so it may land inside a binary's run, where its `i`s and
/// `.`s are no `-q` marks.
fn is_cargo_status(text: &str) -> bool {
    let Some(verb) = text.get(..12) else {
        return false;
    };
    let word = verb.trim_start();
    word.len() < 12
        && text.as_bytes().get(12) == Some(&b' ')
        && word.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
}

/// The binary of cargo's `Running unittests src/lib.rs (target/…/foo-abc)`:
/// `unittests src/lib.rs`; older cargo printed only the path.
fn binary_name(running: &str) -> &str {
    let running = running.trim();
    match running.rfind(" (") {
        Some(open) if running.ends_with(')') => running.get(..open).unwrap_or(running),
        Some(_) | None => running,
    }
}

/// The start of a nextest run (`Starting 3 tests across 2 binaries`,
/// `Nextest run ID …`): libtest lines that follow are the output nextest
/// captured, until cargo runs a binary of its own.
fn starts_nextest_run(trimmed: &str) -> bool {
    trimmed.starts_with("Nextest run ID ")
        || trimmed
            .strip_prefix("Starting ")
            .and_then(|rest| rest.split_once(' '))
            .is_some_and(|(n, rest)| {
                n.bytes().all(|b| b.is_ascii_digit())
                    && (rest.starts_with("tests across ") || rest.starts_with("test across "))
            })
}

/// A libtest JSON event on this line: the line starts with `{`, or printed
/// output (`--nocapture`) came first and the event follows it.
fn json_event(text: &str) -> Option<serde_json::Value> {
    // Cheap rejection first, from the end: the event closes the line.
    if !text.trim_end().ends_with('}') || memchr::memchr(b'{', text.as_bytes()).is_none() {
        return None;
    }
    let start = if text.starts_with('{') {
        0
    } else {
        super::find(text, "{ \"type\": ").or_else(|| super::find(text, "{\"type\":"))?
    };
    let json = text.get(start..)?;
    if !json.trim_end().ends_with('}') {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    value.get("type")?.as_str()?;
    Some(value)
}

/// The lines read outside a `failures:` list with no result pending: the
/// markers' first bytes, cargo's indented `Running`, `Doc-tests` and a
/// nextest run's start, and a JSON event at the end of any line.
static OUTSIDE_LIST: Interest = Interest::NONE
    .first(b"rtfe")
    .first_ending(b"-", b"-")
    .indented(b"RDNS`")
    .indented_unicode_space()
    .braced();

/// The lines read inside a nextest run: only what ends it, and cargo's
/// build failure.
static UNDER_NEXTEST: Interest = Interest::NONE
    .first(b"e")
    .indented(b"RDNS")
    .indented_unicode_space();

/// How libtest's JUnit report (`cargo2junit`'s and others') is read:
/// a test named in its target, its class or else its suite.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: crate::junit_case::Case::in_classname_or_suite,
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "running 2 tests\n",
    "running 0 tests\n",
    "test a ... ",
    "test b - should panic ... ",
    "FAILED\n",
    "ok\n",
    "ignored, slow\n",
    "\n",
    "failures:\n",
    "    a\n",
    "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
    "     Running tests/it.rs (target/debug/deps/it-1)\n",
    "   Doc-tests demo\n",
    "test slow has been running for over 60 seconds\n",
    "error: could not compile `demo`\n",
    "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 2 }\n",
    "{ \"type\": \"test\", \"event\": \"started\", \"name\": \"a\" }\n",
    "printed{ \"type\": \"test\", \"event\": \"failed\", \"name\": \"a\" }\n",
    "{ \"type\": \"suite\", \"event\": \"failed\", \"passed\": 1, \"failed\": 1 }\n",
    "} \n",
    "    b\n",
    "    c d\n",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn names(log: &str) -> Vec<String> {
        parse(Runner::Cargo, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn running_count_reads_both_spellings() {
        assert_eq!(running_count("running 1 test"), Some(1));
        assert_eq!(running_count("running 12 tests"), Some(12));
        assert_eq!(running_count("running 0 tests"), Some(0));
        // Not libtest's: prose, or a count too large for u64.
        assert_eq!(running_count("running the tests"), None);
        assert_eq!(running_count("running 99999999999999999999999 tests"), None);
        assert_eq!(running_count("    running 1 test"), None);
    }

    #[test]
    fn test_line_names_and_modes() {
        assert_eq!(
            test_line("test tests::parses_empty ... FAILED"),
            Some(("tests::parses_empty", TestStatus::Failed))
        );
        assert_eq!(
            test_line("test tests::must_panic - should panic ... FAILED"),
            Some(("tests::must_panic", TestStatus::Failed))
        );
        assert_eq!(
            test_line("test src/lib.rs - sub (line 14) ... FAILED"),
            Some(("src/lib.rs - sub (line 14)", TestStatus::Failed))
        );
        assert_eq!(
            test_line("test src/lib.rs - Foo (line 3) - compile fail ... ok"),
            Some(("src/lib.rs - Foo (line 3)", TestStatus::Passed))
        );
        assert_eq!(
            test_line("test tests::slow ... ignored, too slow"),
            Some(("tests::slow", TestStatus::Ignored))
        );
        assert_eq!(
            test_line("test tests::prints_no_newline ... some printed textok"),
            Some(("tests::prints_no_newline", TestStatus::Passed))
        );
        assert_eq!(
            test_line("test tests::parses_empty ... "),
            Some(("tests::parses_empty", TestStatus::Pending))
        );
    }

    #[test]
    fn test_line_must_not_fire_on_other_lines() {
        assert_eq!(test_line("test result: FAILED. 1 passed; 1 failed"), None);
        assert_eq!(test_line("test fake FAILED"), None);
        assert_eq!(test_line("    test x ... FAILED"), None);
        assert_eq!(test_line("test  ... FAILED"), None);
        assert_eq!(test_line("testing x ... FAILED"), None);
    }

    #[test]
    fn late_result_reads_the_end_of_the_line() {
        assert_eq!(
            late_result("partial output without newlineFAILED"),
            Some(TestStatus::Failed)
        );
        assert_eq!(late_result("ok"), Some(TestStatus::Passed));
        // Output that ends in neither is no result.
        assert_eq!(late_result("thread 'x' panicked at src/lib.rs:1:1:"), None);
        assert_eq!(late_result("FAILED to connect, retrying"), None);
    }

    #[test]
    fn binary_name_drops_the_path() {
        assert_eq!(
            binary_name("unittests src/lib.rs (target/debug/deps/demo-8348ca7a80742723)"),
            "unittests src/lib.rs"
        );
        assert_eq!(
            binary_name("tests/it.rs (target/debug/deps/it-a690)"),
            "tests/it.rs"
        );
        assert_eq!(
            binary_name("target/debug/deps/demo-8348ca7a"),
            "target/debug/deps/demo-8348ca7a"
        );
    }

    #[test]
    fn starts_nextest_run_only_on_nextest_lines() {
        assert!(starts_nextest_run(
            "Starting 2 tests across 5 binaries (8 tests skipped)"
        ));
        assert!(starts_nextest_run("Starting 1 test across 1 binary"));
        assert!(starts_nextest_run(
            "Nextest run ID 39118e7a with nextest profile: ci"
        ));
        assert!(!starts_nextest_run("Starting server on port 80"));
        assert!(!starts_nextest_run("Running unittests src/lib.rs"));
    }

    #[test]
    fn json_event_after_printed_text() {
        let event = json_event(r#"partial{ "type": "test", "name": "a", "event": "failed" }"#);
        assert_eq!(event.and_then(|e| e.get("name").cloned()), Some("a".into()));
        // Braces in prose are no event.
        assert!(json_event("fn main() { }").is_none());
        assert!(json_event(r#"{"key": "value"}"#).is_none());
        assert!(json_event(r#"{ "type": "test", "#).is_none());
    }

    #[test]
    fn failures_list_drops_a_liar() {
        let log = "\
running 2 tests
test tests::liar ... --- FAIL: TestFake
test fake ... FAILED
ok
test tests::real ... FAILED

failures:
    tests::real

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(names(log), ["tests::real"]);
    }

    #[test]
    fn ok_result_drops_every_candidate() {
        let log = "\
running 1 test
test fake ... FAILED
test tests::liar ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert!(names(log).is_empty());
    }

    #[test]
    fn truncated_log_keeps_candidates() {
        let log = "running 2 tests\ntest a ... FAILED\ntest b ... \nsome output\nFAILED\n";
        assert_eq!(names(log), ["a", "b"]);
    }

    #[test]
    fn a_binary_that_dies_fails_its_test_in_flight() {
        let text = "running 2 tests\ntest quick ... ok\ntest aborts ... error: test failed, to rerun pass `--test signals`\n";
        assert_eq!(names(text), ["aborts"]);
        let json = r#"{ "type": "suite", "event": "started", "test_count": 3 }
{ "type": "test", "event": "started", "name": "quick" }
{ "type": "test", "event": "started", "name": "aborts" }
{ "type": "test", "name": "quick", "event": "ok" }
error: test failed, to rerun pass `--test signals`
"#;
        assert_eq!(names(json), ["aborts"]);
        // Where the binary ends with a result, a test without one is no failure.
        let ended = "running 1 test\ntest a ... \nok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        assert!(names(ended).is_empty());
        // A result before the test's own is not libtest's: the test stands.
        let early = ended.replace("\nok\n", "\n");
        assert_eq!(names(&early), ["a"]);
    }

    /// A binary that dies while its tests run in parallel names no test
    /// (libtest prints a line when a test ends): cargo's line names its
    /// target. Hand-made after fixtures/cargo/crash.log, whose
    /// `--test-threads=1` names the test in flight instead.
    #[test]
    fn a_binary_that_dies_naming_no_test_is_named_by_its_target() {
        let died = "     Running tests/signals.rs (target/debug/deps/signals-1)\n\n\
                    running 2 tests\n\
                    test quick ... ok\n\
                    error: test failed, to rerun pass `--test signals`\n\n\
                    Caused by:\n  process didn't exit successfully: `signals-1` (signal: 6, SIGABRT: process abort signal)\n";
        let report = parse(Runner::Cargo, died);
        assert_eq!(report.names().collect::<Vec<_>>(), ["--test signals"]);
        assert_eq!(report.failing[0].kind, Kind::Package);
        assert_eq!(
            report.failing[0].context.as_deref(),
            Some("tests/signals.rs")
        );
        // Where it must not fire: a test printed the line (`--nocapture`)
        // and its binary then gave its result.
        let printed = died.replace(
            "\n\nCaused by:",
            "\ntest slow ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nCaused by:",
        );
        assert!(names(&printed).is_empty());
    }

    #[test]
    fn terse_format_names_come_from_the_list() {
        let log = "\
running 3 tests
.F.

failures:

---- b stdout ----
boom

failures:
    b

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(names(log), ["b"]);
    }

    #[test]
    fn context_is_the_binary() {
        let log = "
     Running tests/it.rs (target/debug/deps/it-abc)

running 1 test
test it_panics ... FAILED

failures:
    it_panics

test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        let report = parse(crate::Format::Auto, log);
        assert_eq!(report.failing[0].context.as_deref(), Some("tests/it.rs"));
    }

    #[test]
    fn crlf_and_colour() {
        let log = "running 1 test\r\ntest a ... \x1b[31mFAILED\x1b(B\x1b[m\r\n\r\nfailures:\r\n    a\r\n\r\ntest result: \x1b[31mFAILED\x1b(B\x1b[m. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\r\n";
        let report = parse(crate::Format::Auto, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["a"]);
        assert_eq!(report.counts.failed, Some(1));
    }

    #[test]
    fn nothing_ran_only_when_no_binary_ran_a_test() {
        let empty = "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        assert!(parse(crate::Format::Auto, empty).no_tests_ran);
        let some = format!(
            "{empty}running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
        );
        assert!(!parse(crate::Format::Auto, some).no_tests_ran);
    }

    #[test]
    fn nextest_captured_output_is_not_ours() {
        let log = "
    Starting 1 test across 1 binary
running 1 test
test fake ... FAILED
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
        PASS [   0.007s] (1/1) demo tests::liar
";
        let findings = parse(Runner::Cargo, log);
        assert_eq!(findings.counts, Counts::default());
        assert!(findings.failing.is_empty());
    }

    #[test]
    fn stray_test_lines_alone_are_not_cargo() {
        assert_eq!(
            parse(crate::Format::Auto, "test fake ... FAILED\n").format,
            None
        );
        // After a binary's result, before the next one runs: not libtest's.
        let after = "running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\ntest fake ... FAILED\n";
        assert!(names(after).is_empty());
    }

    #[test]
    fn a_tail_without_running_keeps_the_list() {
        let log = "\
test b ... FAILED

failures:
    b

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(names(log), ["b"]);
    }

    /// Pieces of real lines, cut where a chunk or a truncation could cut them.
    const PIECES: &[&str] = &[
        "running 1 test\n",
        "running 0 tests\n",
        "test a ... ",
        "test b - should panic ... ",
        "FAILED\n",
        "ok\n",
        "\n",
        "failures:\n",
        "    a\n",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
        "test result: ok. 99999999999999999999999 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
        "     Running tests/it.rs (x)\n",
        "   Doc-tests demo\n",
        "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 2 }\n",
        "{ \"type\": \"test\", \"event\": \"started\", \"name\": \"a\" }\n",
        "{ \"type\": \"test\", \"event\": \"failed\", \"name\": \"a\" }\n",
        "{ \"type\": \"suite\", \"event\": \"failed\", \"passed\": 1, \"failed\": 1 }\n",
        "{ \"type\": ",
        "    Starting 1 test across 1 binary\n",
        "\u{1b}(",
        "\r\n",
    ];

    fn piece() -> impl proptest::strategy::Strategy<Value = String> {
        super::super::testing::piece(PIECES)
    }

    proptest::proptest! {
        /// The shortcut for plain lines says what the general reading says.
        #[test]
        fn plain_lines_read_as_any_line(
            picks in proptest::collection::vec(0usize..14, 0..10),
        ) {
            const PIECES: [&str; 14] = [
                "tests::a", " ", " ... ", "ok", "FAILED", "ignored", "\t", "\u{a0}",
                " - should panic", "é", "...", "x", " ... ok", " ... FAILED",
            ];
            let rest: String = picks.iter().map(|&i| PIECES[i]).collect();
            if let Some(plain) = plain_test_line(&rest) {
                proptest::prop_assert_eq!(Some(plain), any_test_line(&rest));
            }
        }

        #[test]
        /// Any mix of real and random pieces: no panic, and the same report
        /// fed in chunks as whole.
        fn never_panics(pieces in proptest::collection::vec(piece(), 0..60)) {
            super::super::testing::chunked_equals_whole(Runner::Cargo, &pieces.concat())?;
        }
    }

    /// The shape of a real run (tests/hostile/exits-early-cargo): a test
    /// called `std::process::exit(0)` while its sibling ran, and cargo went
    /// on to the next binary. Hand-made from that run's output.
    #[test]
    fn a_binary_without_its_result_is_unclosed() {
        let log = "     Running unittests lib.rs (target/debug/deps/exits_early-1)\n\
                   \n\
                   running 2 tests\n\
                   \x20    Running it.rs (target/debug/deps/it-2)\n\
                   \n\
                   running 1 test\n\
                   test adds ... ok\n\
                   \n\
                   test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let report = crate::parse(Runner::Cargo, log);
        assert_eq!(
            report.unclosed.as_deref(),
            Some("libtest's run of unittests lib.rs ended without its `test result:` line")
        );
        assert_eq!(report.counts.passed, Some(1));
        // Every binary closed: nothing to say.
        let closed = log.replace("running 2 tests\n", "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n");
        assert_eq!(crate::parse(Runner::Cargo, closed).unclosed, None);
    }

    /// The forgery of issue 28 (tests/hostile/forged-result-cargo): a test
    /// prints `test result: ok. …` through `io::stdout()` and ends the
    /// process with status 0 while its sibling fails. Real output, in each
    /// console mode: the line is not the run's own, the failing test stands
    /// where libtest named it, and no count is taken from the forged line.
    #[test]
    fn a_printed_result_before_the_runs_own_is_not_its_result() {
        let forged = "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.30s";
        let running = "     Running unittests lib.rs (target/debug/deps/forged_result-1b50)";
        let pretty =
            format!("{running}\n\nrunning 2 tests\ntest tests::a_fails ... FAILED\n\n{forged}\n\n");
        let quiet = format!("\nrunning 2 tests\ntests::a_fails --- FAILED\n\n{forged}\n\n");
        let one_thread = format!(
            "{running}\n\nrunning 2 tests\ntest tests::a_fails ... FAILED\ntest tests::b_forges_the_result ... \n{forged}\n\n"
        );
        let raced = format!("\nrunning 2 tests\n\n{forged}\n\n");
        let json = String::from(
            "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 2 }\n\
             { \"type\": \"test\", \"event\": \"started\", \"name\": \"tests::a_fails\" }\n\
             { \"type\": \"test\", \"event\": \"started\", \"name\": \"tests::b_forges_the_result\" }\n\
             { \"type\": \"test\", \"name\": \"tests::a_fails\", \"event\": \"failed\" }\n\
             { \"type\": \"suite\", \"event\": \"ok\", \"passed\": 2, \"failed\": 0, \"ignored\": 0, \"measured\": 0, \"filtered_out\": 0 }\n",
        );
        for (log, failing) in [
            (pretty, &["tests::a_fails"][..]),
            (quiet, &[]),
            (
                one_thread,
                &["tests::a_fails", "tests::b_forges_the_result"],
            ),
            (raced, &[]),
            (json, &["tests::b_forges_the_result", "tests::a_fails"]),
        ] {
            let report = crate::parse(Runner::Cargo, &log);
            assert!(
                report
                    .unclosed
                    .as_deref()
                    .is_some_and(|u| u.contains("without its own `test result:` line")),
                "{log}\n{:?}",
                report.unclosed
            );
            assert_eq!(report.names().collect::<Vec<_>>(), failing, "{log}");
            assert_eq!(report.counts, Counts::default(), "{log}");
        }
    }

    /// A result whose counts do not add up to the run's `running N tests`
    /// is not the run's own, whatever lines came before it.
    #[test]
    fn a_result_that_counts_other_tests_than_the_run_is_not_its_own() {
        let log = "running 3 tests\ntest a ... ok\ntest b ... ok\ntest c ... FAILED\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let report = crate::parse(Runner::Cargo, log);
        assert_eq!(
            report.unclosed.as_deref(),
            Some(
                "libtest's run ended without its own `test result:` line (one counting 2 tests \
                 came after at most 3 of its 3 results)"
            )
        );
        assert_eq!(report.names().collect::<Vec<_>>(), ["c"]);
        // Where it must not fire: the counts add up (a measured bench too).
        let honest = log.replace(
            "ok. 2 passed; 0 failed; 0 ignored; 0 measured",
            "ok. 2 passed; 0 failed; 0 ignored; 1 measured",
        );
        assert_eq!(crate::parse(Runner::Cargo, honest).unclosed, None);
    }

    /// Honest runs whose results a test's own output surrounds
    /// (`--nocapture`), from real runs (rust 1.95): `-q`'s marks inside a
    /// test's printed text, a pretty line behind a test's partial line, a
    /// result that comes lines after its test's name. None is a forgery.
    #[test]
    fn results_inside_a_tests_output_still_count() {
        let result = |passed: u64, failed: u64, ignored: u64| {
            format!(
                "test result: ok. {passed} passed; {failed} failed; {ignored} ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
            )
        };
        let quiet = format!(
            "\nrunning 5 tests\nino newline.line\n.. 4/5\ntests::f1 --- FAILED\n\nfailures:\n\nfailures:\n    tests::f1\n\n{}",
            result(3, 1, 1).replace("ok.", "FAILED.")
        );
        let quiet_output = format!("\nrunning 2 tests\n.partial.\n{}", result(2, 0, 0));
        let behind = format!(
            "running 2 tests\ntest a ... ok\npartialtest b ... ok\n\n{}",
            result(2, 0, 0)
        );
        let late = format!(
            "running 2 tests\ntest a ... \nsome output\nok\ntest b ... printed textok\n\n{}",
            result(2, 0, 0)
        );
        for log in [quiet, quiet_output, behind, late] {
            let report = crate::parse(Runner::Cargo, &log);
            assert_eq!(report.unclosed, None, "{log}");
            assert!(report.counts.passed.is_some(), "{log}");
        }
    }

    /// A real merged run of `tests/hostile/forged-result-cargo` under `--format
    /// terse` (caught under load, about one run in three): cargo's `Finished`
    /// and `Running` lines (stderr) came after `running 2 tests`; the `i`s
    /// and `.` of `Finished` counted as `-q` marks, so the forged `test
    /// result: ok. 2 passed` seemed to come after two results: PASS. cargo's
    /// status lines hold no marks.
    #[test]
    fn cargos_lines_inside_a_run_are_no_results_for_a_forged_line() {
        let log = "\
running 2 tests
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s
     Running unittests lib.rs (target/debug/deps/forged_result-1b506094f7797a3b)
tests::a_fails --- FAILED

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.30s

";
        let report = crate::parse(Runner::Cargo, log);
        assert_eq!(
            report.unclosed.as_deref(),
            Some(
                "libtest's run ended without its own `test result:` line (one counting 2 tests \
                 came after at most 1 of its 2 results)"
            ),
            "{report:?}"
        );
        assert_eq!(report.counts.passed, None);
        let without_the_failure = log.replace("tests::a_fails --- FAILED\n", "");
        assert!(
            crate::parse(Runner::Cargo, &without_the_failure)
                .unclosed
                .is_some()
        );
    }

    #[test]
    fn cargo_status_lines_are_told_from_output() {
        for status in [
            "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.01s",
            "   Compiling demo v0.1.0 (/p)",
            "     Running unittests src/lib.rs (target/debug/deps/demo-1)",
            "   Doc-tests demo",
        ] {
            assert!(is_cargo_status(status), "{status}");
        }
        for other in [
            "Finished `test` profile",
            "    finished in 0.01s",
            "            Finished x",
            "    Finished",
            "  ..iiF.... 12/40",
            "    Fin1shed x",
        ] {
            assert!(!is_cargo_status(other), "{other}");
        }
    }

    /// cargo's `Running` (stderr) may arrive after the binary's first
    /// lines (stdout), or before the previous binary's result: seen in a
    /// real merged run (tests/e2e `flaky_suites_are_inconclusive`, once in
    /// about ten). Neither is a binary that ended early.
    #[test]
    fn cargo_lines_out_of_order_with_the_binaries_are_not_unclosed() {
        let result = "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s";
        let log = [
            "",
            "running 1 test",
            "     Running unittests src/lib.rs (target/debug/deps/calc-1)",
            "test tests::adds ... ok",
            "     Running tests/api.rs (target/debug/deps/api-2)",
            "",
            result,
            "",
            "running 1 test",
            "test big ... ok",
            "",
            result,
            "",
        ]
        .join("\n");
        let report = crate::parse(Runner::Cargo, &log);
        assert_eq!(report.unclosed, None);
        assert_eq!(report.counts.passed, Some(2));
    }
}
