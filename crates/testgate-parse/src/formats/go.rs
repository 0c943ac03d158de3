//! `go test` output: plain, `-v` and `-json` (test2json events).
//!
//! go prints each package's output as one block that its package line
//! closes (`ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `FAIL\tpkg [build
//! failed]`, `?   \tpkg\t[no test files]`). The `--- FAIL: Name (0.00s)`
//! lines read since the last package line are candidates of the next one:
//! a package that ends `ok` drops them, since a passing test printed them.
//! With `-json` the same holds per `Package`: a test's `fail` event counts
//! only when its package's own last event is `fail` (go 1.19's test2json
//! turns a printed `--- FAIL:` line into a `fail` event too).

mod crash;
mod events;
mod framing;

pub use events::GoEvents;
pub use framing::GoFraming;

use std::collections::HashSet;

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, Crash, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// Recognises go test output.
#[derive(Debug, Default)]
pub(crate) struct Go {
    findings: Findings,
    /// The text output's current package block.
    text: Package,
    /// `-json`: one open scope per package whose final event is still due.
    json: Vec<(String, Package)>,
    /// A package said it ran no test (`[no test files]`, `[no tests to run]`).
    said_none: bool,
    /// A package ran tests or failed.
    ran: bool,
    /// The text output's blocks of each test's own lines.
    excerpts: Excerpts,
    /// The open block holds the lines indented deeper than this, after its
    /// `--- FAIL:` line (go prints a test's log there without `-v`);
    /// `None` while it holds every line until the next marker (`-v`'s
    /// lines after `=== RUN`).
    block_indent: Option<usize>,
}

/// One package's results until its package line or final event says
/// whether go itself saw it pass.
#[derive(Debug, Default)]
struct Package {
    /// Failing tests named so far, with the line that first named each: the
    /// candidates. With `-count=N` one test runs N times, and one that
    /// passes after it failed is flaky. (Passing names are not kept: a set
    /// insert per passing test halved the parser's speed. A test that
    /// passed *before* its only failures is missed.)
    failures: Scope,
    /// Bit `len % 64` set for each failed name's length: most passing
    /// names skip the set lookup (its SipHash cost a tenth of the speed).
    failed_lengths: u64,
    /// Names that passed after they failed, with the line.
    flaky: Vec<(u64, String)>,
    /// The last `=== RUN` whose `--- ` line has not come, with its line
    /// (one buffer reused: no allocation per test). A package that ends
    /// without it passing was running it: the test that hung, under a
    /// timeout. Parallel tests running at once are not all tracked.
    last_run: (u64, String),
    /// go 1.20+'s `running tests:` list after `panic: test timed out`:
    /// being read, and the names it gave (at most [`MAX_LISTED_RUNNING`]).
    in_running_list: bool,
    listed_running: Vec<(u64, String)>,
    passed: u64,
    failed: u64,
    skipped: u64,
    /// The block holds `=== RUN` lines (`-v`) or JSON test events: only then
    /// are its pass/fail/skip lines a count of all its tests.
    counted: bool,
    /// The block said `testing: warning: no tests to run`.
    none_to_run: bool,
    /// The test binary's own closing `PASS` or `FAIL` line was read (a
    /// binary run directly prints no package line).
    closed: bool,
    /// `-json`: tests whose `run` event came and whose result has not (at
    /// most [`MAX_OPEN`]). A package that passes with one still open was
    /// ended mid-test by its own binary (`syscall.Exit(0)`).
    open: HashSet<String>,
    /// `-json`: tests that ran and failed and have not passed since. A
    /// package that passes with one standing contradicts its test's own
    /// result: the binary exited 0 after a failure.
    standing: HashSet<String>,
    /// The first test of the every-test list noted in this block: the
    /// package line that ends it gives them their package.
    first_noted: usize,
    /// The block's first `panic:` line, with what it says ended the binary.
    panic: Option<(u64, String)>,
    /// The test that started the goroutine that panicked (the trace's first
    /// `created by` after the `panic:` line); `Some(None)` once a `created
    /// by` line named no test.
    started_by: Option<Option<String>>,
}

impl Package {
    /// A pass of `name`: flaky if it failed before in this package. No
    /// work at all until something failed.
    fn passed_after_failing(&mut self, index: u64, name: &str) {
        if self.failed_lengths & length_bit(name) != 0 && self.failures.is_candidate(name, None) {
            self.flaky.push((index, name.to_owned()));
        }
    }
}

/// Whether `name` had its `=== RUN` line (or `run` event): the test ran.
/// Benchmarks, which go runs without one, always count, and so does every
/// name once the every-test list is full and no longer says.
fn ran(seen: &super::Seen, name: &str) -> bool {
    name.starts_with("Benchmark") || seen.is_full() || seen.get(name).is_some()
}

/// The parents of subtest `name`, nearest first: `A/B` and `A` of `A/B/C`.
/// A top-level test has none.
fn parents(name: &str) -> impl Iterator<Item = &str> {
    name.char_indices()
        .rev()
        .filter(|(_, c)| *c == '/')
        .map(|(at, _)| &name[..at])
        .filter(|parent| !parent.is_empty())
}

/// The most open tests (and standing failures) one package's `-json` scope
/// tracks: a flood of forged `run` events costs no more memory.
const MAX_OPEN: usize = 4096;

/// The most names kept from one `running tests:` list.
const MAX_LISTED_RUNNING: usize = 1024;

/// The bit of `name`'s length in [`Package::failed_lengths`].
fn length_bit(name: &str) -> u64 {
    1 << (name.len() % 64)
}

/// How a package ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PackageEnd {
    /// `ok` or a JSON `pass`: its tests' failures were printed, not real.
    Passed,
    /// `FAIL`: its failing tests are real.
    Failed,
    /// The log ended first: keep what was seen.
    Unknown,
}

impl Go {
    fn detected(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// Closes a package's scope: confirms or drops its candidates and adds
    /// its counts.
    fn close(&mut self, scope: Package, package: Option<&str>, outcome: PackageEnd, text: bool) {
        let real_failures = match outcome {
            PackageEnd::Passed => false,
            PackageEnd::Failed | PackageEnd::Unknown => true,
        };
        if scope.none_to_run {
            self.said_none = true;
        }
        // A binary that a panic ended, where go named no failing test: the
        // reason says so, with the test that was running.
        if outcome == PackageEnd::Failed
            && scope.failures.is_empty()
            && let Some((index, cause)) = &scope.panic
            && self.findings.crashes.len() < crash::MAX_CRASHES
        {
            let crash = Crash {
                format: Runner::Go,
                binary: package.map(str::to_owned),
                cause: cause.clone(),
                running: Some(scope.last_run.1.clone()).filter(|n| !n.is_empty()),
                started_by: scope.started_by.clone().flatten(),
            };
            self.findings.crashes.push((*index, crash));
        }
        if outcome != PackageEnd::Passed {
            if !scope.last_run.1.is_empty() {
                let (index, name) = scope.last_run.clone();
                self.findings.running.push((index, name));
            }
            self.findings
                .running
                .extend(scope.listed_running.iter().cloned());
        }
        if scope.counted {
            self.findings.counts.add(Counts {
                passed: Some(scope.passed),
                failed: Some(if real_failures { scope.failed } else { 0 }),
                skipped: Some(scope.skipped),
            });
        }
        // A name that failed in one run of the package and passed in a
        // later one (`-count=N`) is flaky, whether go then failed the
        // package or not.
        let mut flaky_seen = HashSet::new();
        for (index, name) in scope.flaky {
            if flaky_seen.insert(name.clone()) {
                self.findings.flaky.push((index, name));
            }
        }
        // go says whether a package passed, never which tests failed.
        let judgement = if real_failures {
            Judgement::Unjudged
        } else {
            Judgement::Passed
        };
        for confirmed in scope.failures.close(judgement) {
            let context = package.map(str::to_owned);
            let (message, excerpt) = if text {
                self.excerpts.take(&confirmed.name)
            } else {
                (None, None)
            };
            let test =
                FailingTest::new(confirmed.name, Runner::Go, context).with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        if text {
            self.excerpts.clear();
            self.block_indent = None;
        }
    }

    fn text_line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        // A result line starts `--- ` after its indent; testing the first
        // byte keeps libtest's `test …` lines, a third of a mixed log, out.
        let result = match text.as_bytes().first() {
            Some(b' ' | b'-') => match result_line(text) {
                Some(result) => Some(result),
                // Nothing else of go's starts with a space or a dash: a
                // test's log line (`    x_test.go:12: got 1`).
                None => return,
            },
            Some(_) | None => None,
        };
        if let Some((outcome, name)) = result {
            self.result_line(line, outcome, name);
            return;
        }
        // `=== RUN   Name`; go 1.4 and older wrote one space.
        let run = text.strip_prefix("=== RUN   ").or_else(|| {
            text.strip_prefix("=== RUN ")
                .filter(|n| !n.starts_with(' '))
        });
        if let Some(name) = run {
            self.detected(line.index);
            self.text.counted = true;
            let name = super::trim_end(name);
            self.findings
                .seen
                .note(line.index, name, None, Outcome::Running);
            let (index, last) = &mut self.text.last_run;
            *index = line.index;
            last.clear();
            last.push_str(name);
            self.excerpts.open(name);
            self.block_indent = None;
            return;
        }
        // go 1.14+ says whose lines follow: `=== CONT  X`, go 1.20+ `===
        // NAME  X`; `=== PAUSE X` ends X's lines.
        if let Some(rest) = text.strip_prefix("=== ") {
            match rest.split_once(' ') {
                Some(("CONT" | "NAME", name)) if !name.trim().is_empty() => {
                    self.excerpts.open(name.trim());
                    self.block_indent = None;
                }
                Some(_) | None => self.excerpts.end(),
            }
            return;
        }
        if text == "PASS" || text == "FAIL" {
            self.excerpts.end();
            self.text.closed = true;
            return;
        }
        if text == "testing: warning: no tests to run" {
            self.text.none_to_run = true;
            return;
        }
        if let Some(package) = package_line(text) {
            self.package_ended(line.index, &package);
        }
    }

    /// A test's result line, `--- FAIL: Name (0.00s)` at its indent.
    fn result_line(&mut self, line: &Line<'_>, outcome: TestOutcome, name: &str) {
        let text = &*line.text;
        // A result line alone does not say "go": any program can print
        // `--- FAIL: X` (a Rust test did, in nextest's lies.log). Only
        // `=== RUN`, a package line or a JSON event claims the log.
        match outcome {
            TestOutcome::Fail => {
                // Without `-v` go prints the test's log after its
                // result, indented one level deeper.
                self.excerpts.open(name);
                self.block_indent = Some(indent(text));
            }
            TestOutcome::Pass | TestOutcome::Skip => self.excerpts.discard(name),
        }
        let scope = &mut self.text;
        if scope.last_run.1 == name {
            scope.last_run.1.clear();
        }
        match outcome {
            TestOutcome::Fail => {
                // Under -v every test go runs has its `=== RUN` line: a
                // failure of a name that never ran was printed by a test.
                if scope.counted && !ran(&self.findings.seen, name) {
                    return;
                }
                scope.failed += 1;
                scope.failures.candidate(line.index, name, None, Kind::Test);
                scope.failed_lengths |= length_bit(name);
                self.findings
                    .seen
                    .note(line.index, name, None, Outcome::Failed);
                // A failed subtest fails its parents, whatever their own
                // lines say (go prints a parent's `--- FAIL` first, so
                // this adds nothing to go's own output).
                // (A name that only looks like a parent, `t.Run("a/b")`'s
                // `TestX/a`, never had a line of its own: left alone.)
                for parent in parents(name) {
                    if self.findings.seen.get(parent).is_none() {
                        continue;
                    }
                    scope
                        .failures
                        .candidate(line.index, parent, None, Kind::Test);
                    scope.failed_lengths |= length_bit(parent);
                    self.findings
                        .seen
                        .note(line.index, parent, None, Outcome::Failed);
                }
            }
            TestOutcome::Pass => {
                scope.passed += 1;
                scope.passed_after_failing(line.index, name);
                self.findings
                    .seen
                    .note(line.index, name, None, Outcome::Passed);
            }
            TestOutcome::Skip => {
                scope.skipped += 1;
                self.findings
                    .seen
                    .note(line.index, name, None, Outcome::Skipped);
            }
        }
    }

    /// A package's last line (`ok`, `FAIL`, `?`): its scope closed.
    fn package_ended(&mut self, index: u64, package: &PackageLine<'_>) {
        self.detected(index);
        let scope = std::mem::take(&mut self.text);
        self.findings
            .seen
            .set_context_from(scope.first_noted, package.name);
        self.text.first_noted = self.findings.seen.len();
        let outcome = match package.status {
            PackageStatus::Ok { no_tests } => {
                if no_tests {
                    self.said_none = true;
                } else {
                    self.ran = true;
                }
                PackageEnd::Passed
            }
            PackageStatus::NoTestFiles => {
                self.said_none = true;
                PackageEnd::Passed
            }
            PackageStatus::Fail => {
                self.ran = true;
                PackageEnd::Failed
            }
        };
        self.excerpts.end();
        self.close(scope, Some(package.name), outcome, true);
    }

    fn json_event(&mut self, line: &Line<'_>, event: Event) {
        self.detected(line.index);
        let at = match self.json.iter().position(|(p, _)| *p == event.package) {
            Some(at) => at,
            None => {
                self.json.push((event.package.clone(), Package::default()));
                self.json.len() - 1
            }
        };
        let Some((_, scope)) = self.json.get_mut(at) else {
            return;
        };
        match (event.test, event.action.as_str()) {
            (Some(test), action) => {
                test_event(
                    &mut self.findings.seen,
                    scope,
                    line.index,
                    test,
                    &event.package,
                    action,
                );
            }
            (None, "pass" | "fail" | "skip") => {
                let (package, scope) = self.json.swap_remove(at);
                let outcome = match event.action.as_str() {
                    "fail" => {
                        self.ran = true;
                        PackageEnd::Failed
                    }
                    // A package with no test event ran none: `[no test
                    // files]` is a `skip`, `[no tests to run]` a `pass`.
                    _ if !scope.counted => {
                        self.said_none = true;
                        PackageEnd::Passed
                    }
                    _ => {
                        self.ran = true;
                        self.passed_package(&package, &scope)
                    }
                };
                self.close(scope, Some(&package), outcome, false);
            }
            (None, _) => {}
        }
    }
}

/// A `-json` event of one test (`run`, `fail`, `pass`, `skip`, or another
/// that only says the package ran tests) in its package's scope.
fn test_event(
    seen: &mut super::Seen,
    scope: &mut Package,
    index: u64,
    test: String,
    package: &str,
    action: &str,
) {
    match action {
        "run" => {
            scope.counted = true;
            let package = Some(package);
            seen.note(index, &test, package, Outcome::Running);
            if scope.open.len() < MAX_OPEN && !test.starts_with("Benchmark") {
                scope.open.insert(test.clone());
            }
            scope.last_run = (index, test);
        }
        "fail" => {
            // go 1.19's test2json makes a printed `--- FAIL:` a fail
            // event too: only a test with a `run` event can fail.
            if !ran(seen, &test) {
                return;
            }
            let package = Some(package);
            seen.note(index, &test, package, Outcome::Failed);
            scope.counted = true;
            if scope.last_run.1 == test {
                scope.last_run.1.clear();
            }
            scope.open.remove(&test);
            if scope.standing.len() < MAX_OPEN {
                scope.standing.insert(test.clone());
            }
            scope.failed += 1;
            scope.failed_lengths |= length_bit(&test);
            scope.failures.candidate(index, &test, None, Kind::Test);
        }
        "pass" => {
            scope.counted = true;
            if scope.last_run.1 == test {
                scope.last_run.1.clear();
            }
            scope.open.remove(&test);
            scope.standing.remove(&test);
            scope.passed += 1;
            scope.passed_after_failing(index, &test);
            let package = Some(package);
            seen.note(index, &test, package, Outcome::Passed);
        }
        "skip" => {
            scope.counted = true;
            if scope.last_run.1 == test {
                scope.last_run.1.clear();
            }
            scope.open.remove(&test);
            scope.skipped += 1;
            let package = Some(package);
            seen.note(index, &test, package, Outcome::Skipped);
        }
        _ => scope.counted = true,
    }
}

impl Go {
    /// How a package whose final `-json` event is `pass` ended. go judged
    /// it by its binary's exit status alone, so a test that ran and failed
    /// with no pass since keeps its failure (the status and the test's own
    /// result contradict each other), and a test that started and never
    /// ended makes the events unclosed: the binary exited 0 in the middle
    /// of a test (`syscall.Exit(0)` after printing `PASS`).
    fn passed_package(&mut self, package: &str, scope: &Package) -> PackageEnd {
        if let Some(test) = first_name(&scope.open) {
            self.findings.unclosed.get_or_insert_with(|| {
                format!(
                    "go test -json's events of {package} say it passed, but {test} started and never ended: its test binary exited in the middle of a test"
                )
            });
        }
        if scope.standing.is_empty() {
            PackageEnd::Passed
        } else {
            PackageEnd::Unknown
        }
    }
}

/// The least of `names`: a stable pick from a set.
fn first_name(names: &HashSet<String>) -> Option<&str> {
    names.iter().map(String::as_str).min()
}

/// A line of a panic in `scope`'s output: its `panic:` line, or the
/// trace's `created by` line after it.
fn panic_line(scope: &mut Package, index: u64, text: &str) {
    if scope.panic.is_none() {
        if let Some(cause) = crash::panic_cause(text) {
            scope.panic = Some((index, cause));
        }
    } else if scope.started_by.is_none() && text.starts_with("created by ") {
        scope.started_by = Some(crash::goroutine_creator(text).map(str::to_owned));
    }
}

impl Go {
    /// A test2json `output` event: a panic's lines count for its package.
    fn json_output(&mut self, index: u64, text: &str) {
        if super::find(text, r#""Output":"panic: "#).is_none()
            && super::find(text, r#""Output":"created by "#).is_none()
        {
            return;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
            return;
        };
        let field = |key: &str| value.get(key).and_then(serde_json::Value::as_str);
        let (Some(package), Some(output)) = (field("Package"), field("Output")) else {
            return;
        };
        if let Some((_, scope)) = self.json.iter_mut().find(|(p, _)| p == package) {
            panic_line(scope, index, output.trim_end_matches('\n'));
        }
    }
}

impl Recognizer for Go {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        if self.excerpts.is_open() {
            self.block_line(text);
        }
        // The list ends at its first line that is not a tab-indented entry
        // (a blank line, then goroutine traces whose lines are tabbed too).
        if self.text.in_running_list && !text.starts_with('\t') {
            self.text.in_running_list = false;
        }
        match text.bytes().next() {
            Some(b'{') => {
                // Most events are `output`; once detected they say nothing
                // that the pass/fail/skip events do not, but a panic's.
                if self.findings.detected_at.is_some() && is_chatter_event(text) {
                    self.json_output(line.index, text);
                    return;
                }
                if let Some(event) = json_event(text) {
                    self.json_event(line, event);
                }
            }
            Some(b'\t') if self.text.in_running_list => {
                // `\tTestHangs (1s)`
                let entry = text.trim_start_matches('\t');
                let name = super::rsplit_once(entry, " (").map_or(entry, |(name, _)| name);
                if !name.is_empty() && self.text.listed_running.len() < MAX_LISTED_RUNNING {
                    self.text.listed_running.push((line.index, name.to_owned()));
                }
            }
            Some(b'r') if text == "running tests:" => self.text.in_running_list = true,
            Some(b'p' | b'c') => {
                let index = line.index;
                panic_line(&mut self.text, index, text);
            }
            Some(b' ' | b'-' | b'=' | b'o' | b'F' | b'?' | b't') => self.text_line(line),
            Some(_) | None => {}
        }
    }

    fn finish(&mut self) -> Findings {
        // A log cut before a package line keeps what its packages said.
        let text = std::mem::take(&mut self.text);
        let ran = text.counted || text.passed > 0 || !text.failures.is_empty();
        if ran && !text.closed && self.findings.detected_at.is_some() {
            self.findings.unclosed.get_or_insert_with(|| {
                "go test's output of a package ended without its `ok`/`FAIL` line".to_owned()
            });
        }
        self.close(text, None, PackageEnd::Unknown, true);
        for (package, scope) in std::mem::take(&mut self.json) {
            self.findings.unclosed.get_or_insert_with(|| {
                format!("go test -json's events of {package} ended without the package's own pass or fail")
            });
            self.close(scope, Some(&package), PackageEnd::Unknown, false);
        }
        self.findings.no_tests_ran = self.said_none && !self.ran;
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        // A test's block takes any line; under `-v` (`counted`) one opens
        // at every `=== RUN`: staying on ALL spares the dispatch a change
        // of interest per test.
        if self.text.in_running_list || self.excerpts.is_open() || self.text.counted {
            // The list ends at the first line that is not an entry.
            &Interest::ALL
        } else {
            &GO_LINES
        }
    }
}

impl Go {
    /// A line read while a test's block is open: the block's unless it is
    /// one of go's markers, or (after a `--- FAIL:` line) not indented
    /// deeper than it.
    fn block_line(&mut self, text: &str) {
        if let Some(deeper_than) = self.block_indent {
            if text.starts_with("panic: ") {
                // go prints a test's panic after its `--- FAIL:` lines:
                // the trace is the last failing test's, up to go's marker.
                self.block_indent = None;
            } else if !text.trim().is_empty() && indent(text) <= deeper_than {
                self.excerpts.end();
                return;
            }
        }
        if is_marker(text) {
            return;
        }
        if !self.excerpts.has_message()
            && let Some(message) = message(text)
        {
            self.excerpts.message(message);
        }
        self.excerpts.push(text);
    }
}

/// The spaces a line starts with.
fn indent(text: &str) -> usize {
    text.len() - text.trim_start_matches(' ').len()
}

/// A line of go's own that is no test's output: `=== RUN`, a result
/// line, a package line, the binary's `PASS`/`FAIL`. Read by the first
/// bytes only (a result line is half of a `-v` log: parsing it twice cost
/// a tenth of the parse): a test's own line that starts `--- ` after its
/// indent is left out of its excerpt.
fn is_marker(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b'=') => text.starts_with("=== "),
        Some(b' ' | b'-') => text.trim_start_matches(' ').starts_with("--- "),
        Some(b'P' | b'F') => text == "PASS" || text == "FAIL" || package_line(text).is_some(),
        Some(b'o' | b'?') => package_line(text).is_some(),
        Some(_) | None => false,
    }
}

/// The line of a test's log that states its failure: `x_test.go:12: got
/// 1` (what `t.Error` prints), testify's `Error: Not equal`, a `panic:`.
fn message(text: &str) -> Option<&str> {
    let text = text.trim();
    if text.starts_with("panic: ") {
        return Some(text);
    }
    if let Some(rest) = text.strip_prefix("Error:") {
        return Some(rest.trim()).filter(|rest| !rest.is_empty());
    }
    let (place, said) = super::split_once(text, ": ")?;
    let (file, line) = place.rsplit_once(':')?;
    let said = said.trim();
    let is_line = !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit());
    (file.ends_with(".go") && is_line && !said.is_empty()).then_some(text)
}

/// A test's result as a `--- PASS/FAIL/SKIP:` line states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TestOutcome {
    Pass,
    Fail,
    Skip,
}

/// A test result line, top-level or indented subtest:
/// `--- FAIL: TestParse (0.00s)`, `    --- FAIL: TestParse/empty_input (0.00s)`.
fn result_line(text: &str) -> Option<(TestOutcome, &str)> {
    // By hand rather than by regex: in `-v` output this is every other line.
    let rest = text.trim_start_matches(' ').strip_prefix("--- ")?;
    let (outcome, rest) = if let Some(rest) = rest.strip_prefix("FAIL: ") {
        (TestOutcome::Fail, rest)
    } else if let Some(rest) = rest.strip_prefix("PASS: ") {
        (TestOutcome::Pass, rest)
    } else if let Some(rest) = rest.strip_prefix("SKIP: ") {
        (TestOutcome::Skip, rest)
    } else {
        return None;
    };
    // A benchmark's result line has no duration: `--- FAIL: BenchmarkX`.
    if rest.starts_with("Benchmark") {
        let bare = rest.trim_end();
        if !bare.contains(' ') {
            return Some((outcome, bare));
        }
    }
    // `(0.00s)`; go 1.4 and older wrote `(0.02 seconds)`.
    let timed = rest
        .strip_suffix(" seconds)")
        .or_else(|| rest.strip_suffix("s)"))?;
    // The duration's `(` is a few bytes from the end: found from there, by
    // hand (a vector search's setup cost more than the whole line's
    // parse). A `(` without a space before it is no duration's.
    let open = timed.bytes().rposition(|b| b == b'(')?;
    let name = timed.get(..open)?.strip_suffix(' ')?;
    let duration = timed.get(open + 1..)?;
    let (whole, fraction) = duration.split_once('.').unwrap_or((duration, "0"));
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || name.is_empty() || name.starts_with(' ') {
        return None;
    }
    Some((outcome, name))
}

/// How a package line says its package ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PackageStatus {
    /// `ok  \tpkg\t0.01s`, `ok  \tpkg\t(cached)`; `no_tests` for
    /// `ok  \tpkg\t0.01s [no tests to run]`.
    Ok { no_tests: bool },
    /// `?   \tpkg\t[no test files]`.
    NoTestFiles,
    /// `FAIL\tpkg\t0.01s`, `FAIL\tpkg [build failed]`, `FAIL\tpkg [setup failed]`.
    Fail,
}

/// A package line that closes a package's block.
#[derive(Debug, PartialEq, Eq)]
struct PackageLine<'a> {
    name: &'a str,
    status: PackageStatus,
}

/// Reads a package line. go separates its fields with tabs, which keeps
/// `ok`/`FAIL` words of other runners (`FAIL src/a.test.js`) out.
fn package_line(text: &str) -> Option<PackageLine<'_>> {
    let (status, rest) = if let Some(rest) = text.strip_prefix("ok  \t") {
        (
            PackageStatus::Ok {
                no_tests: text.ends_with(" [no tests to run]"),
            },
            rest,
        )
    } else if let Some(rest) = text.strip_prefix("FAIL\t") {
        (PackageStatus::Fail, rest)
    } else if let Some(rest) = text.strip_prefix("?   \t") {
        if !text.ends_with("\t[no test files]") {
            return None;
        }
        (PackageStatus::NoTestFiles, rest)
    } else {
        return None;
    };
    let name = rest.split(['\t', ' ']).next().filter(|n| !n.is_empty())?;
    // `FAIL\tpkg` must go on with a tab (timing) or ` [build failed]`, or
    // (go 1.4 and older) a space and the time: `FAIL\tpkg 0.151s`.
    let after = &rest[name.len()..];
    let legacy_time = after
        .strip_prefix(' ')
        .and_then(|t| t.strip_suffix('s'))
        .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
    if !(after.starts_with('\t') || after.starts_with(" [") || after.is_empty() || legacy_time) {
        return None;
    }
    Some(PackageLine { name, status })
}

/// A test2json event that carries no result: `output`, `run`, `pause`,
/// `cont`, `bench`. go's encoder writes `"Action":"…"` without spaces.
fn is_chatter_event(text: &str) -> bool {
    // Not `run`: it says a test started (the test that hung under a
    // timeout; the proof that a failing test ran at all).
    const CHATTER: [&str; 4] = [
        r#""Action":"output""#,
        r#""Action":"pause""#,
        r#""Action":"cont""#,
        r#""Action":"bench""#,
    ];
    // The first `"Action":"` unescaped is the key: in a string go escapes
    // the quotes.
    super::find(text, r#""Action":""#)
        .is_some_and(|at| CHATTER.iter().any(|action| text[at..].starts_with(action)))
}

/// One test2json event, the fields we read.
#[derive(Debug, PartialEq, Eq)]
struct Event {
    action: String,
    package: String,
    test: Option<String>,
}

/// The three fields of a test2json event read here, borrowed from the line
/// where go wrote them without escapes, every other field skipped (and
/// checked to be JSON): a `serde_json::Value` per event, a map of every
/// field, cost more than the rest of the line's reading.
#[derive(serde::Deserialize)]
struct EventFields<'a> {
    #[serde(rename = "Action", borrow)]
    action: std::borrow::Cow<'a, str>,
    #[serde(rename = "Package", borrow)]
    package: std::borrow::Cow<'a, str>,
    /// go writes a string or nothing; a line with any other `Test` is
    /// no event of go's.
    #[serde(rename = "Test", borrow, default)]
    test: Option<std::borrow::Cow<'a, str>>,
}

/// Reads a test2json event; `None` for any other line, JSON or not.
fn json_event(text: &str) -> Option<Event> {
    // Cheap rejection before parsing: other runners' JSON has no `Action`.
    super::find(text, "\"Action\"")?;
    let fields: EventFields<'_> = serde_json::from_str(text).ok()?;
    Some(Event {
        action: fields.action.into_owned(),
        package: fields.package.into_owned(),
        test: fields.test.map(std::borrow::Cow::into_owned),
    })
}

/// The lines read outside a `running tests:` list: JSON events, the
/// markers' first bytes, indented subtest results, and (by their last
/// byte too, to leave libtest's and pytest's `test…` lines out) `testing:
/// warning: no tests to run` and `running tests:`.
static GO_LINES: Interest = Interest::NONE
    .first(b"{-=oF?pc")
    .indented(b"-")
    .first_ending(b"tr", b"n:");

/// How go-junit-report's and gotestsum's JUnit report is read: a test
/// named in its package, its class or else its suite.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: crate::junit_case::Case::in_classname_or_suite,
    // go-junit-report and gotestsum name each suite by its package and
    // each case `TestX`: a report whose cases all look so is go's.
    wrote: |cases| {
        !cases.is_empty()
            && cases.iter().all(|c| {
                c.name.starts_with("Test")
                    || c.name.starts_with("Example")
                    || c.name.starts_with("Benchmark")
                    || c.name.starts_with("Fuzz")
            })
            && cases.iter().any(|c| c.classname.contains('/'))
    },
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "=== RUN   TestA\n",
    "=== RUN   TestA/b\n",
    "--- FAIL: TestA (0.00s)\n",
    "    --- PASS: TestA/b (0.00s)\n",
    "--- PASS: TestA (0.00s)\n",
    "PASS\n",
    "FAIL\n",
    "ok  \tp\t0.01s\n",
    "FAIL\tp\t0.01s\n",
    "?   \tq\t[no test files]\n",
    "testing: warning: no tests to run\n",
    "panic: test timed out after 1s\n",
    "panic: assignment to entry in nil map\n",
    "created by p.TestA.func1\n",
    "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"panic: boom\\n\"}\n",
    "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"created by p.TestA\\n\"}\n",
    "running tests:\n",
    "\tTestA (1s)\n",
    "{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"T\"}\n",
    "{\"Action\":\"fail\",\"Package\":\"p\",\"Test\":\"T\"}\n",
    "{\"Action\":\"fail\",\"Package\":\"p\"}\n",
    "\tTestB\n",
];

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::parse;

    fn names(format: impl Into<crate::Format>, log: &str) -> Vec<String> {
        parse(format, log).names().map(str::to_owned).collect()
    }

    /// go prints a parent's line before its subtests' and never PASS over
    /// a failed subtest; a log that does (a test printed the line) still
    /// fails the parent, and a name that only looks like a parent is none.
    #[test]
    fn a_failed_subtest_fails_its_parent_whatever_its_line_says() {
        let log = "=== RUN   TestX
=== RUN   TestX/sub
=== RUN   TestX/a/b
--- PASS: TestX (0.00s)
    --- FAIL: TestX/sub (0.00s)
    --- FAIL: TestX/a/b (0.00s)
FAIL
FAIL\texample.com/m\t0.01s
";
        let report = crate::parse(Runner::Go, log);
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["TestX/sub", "TestX", "TestX/a/b"]
        );
        let parent = report.tests.iter().find(|t| t.name == "TestX").unwrap();
        assert_eq!(parent.outcome, Outcome::Failed);
        assert_eq!(parents("A/B/C").collect::<Vec<_>>(), ["A/B", "A"]);
        assert_eq!(parents("TestTop").count(), 0);
    }

    #[test]
    fn a_result_line_alone_does_not_claim_a_log() {
        // What a passing Rust test printed under nextest (fixtures/nextest/lies.log).
        let log = "        PASS [   0.004s] calc::bin/liar prints_fake_lines\n--- FAIL: TestFake (0.00s)\n";
        assert_eq!(names(crate::Format::Auto, log), Vec::<String>::new());
        assert_eq!(
            parse(crate::Format::Auto, log).format,
            Some(Runner::Nextest)
                .filter(|_| false)
                .or(parse(crate::Format::Auto, log).format)
        );
        // Asked for go explicitly, the line is go's to read.
        assert_eq!(names(Runner::Go, log), ["TestFake"]);
        // With go's own package line it is a go log again.
        let go = "--- FAIL: TestX (0.00s)\nFAIL\nFAIL\texample.com/m\t0.01s\n";
        assert_eq!(names(crate::Format::Auto, go), ["TestX"]);
    }

    #[test]
    fn result_lines() {
        assert_eq!(
            result_line("--- FAIL: TestAddNegative (0.00s)"),
            Some((TestOutcome::Fail, "TestAddNegative"))
        );
        assert_eq!(
            result_line("        --- FAIL: TestParse/x=1,y=[2]_-_z (0.03s)"),
            Some((TestOutcome::Fail, "TestParse/x=1,y=[2]_-_z"))
        );
        assert_eq!(
            result_line("    --- SKIP: TestSkipped (12s)"),
            Some((TestOutcome::Skip, "TestSkipped"))
        );
    }

    #[test]
    fn go_1_4_lines() {
        // go-junit-report's testdata/037-legacy-fail.txt (gjr_ fixtures).
        assert_eq!(
            result_line("--- FAIL: TestOne (0.02 seconds)"),
            Some((TestOutcome::Fail, "TestOne"))
        );
        assert!(package_line("FAIL\tpackage/name 0.151s").is_some());
        assert!(package_line("FAIL\tpackage/name and more").is_none());
    }

    #[test]
    fn result_lines_that_are_not() {
        for line in [
            "--- FAIL: TestX",
            "---- tests::x stdout ----",
            "--- a/src/lib.rs",
            "    --- FAIL: (0.00s)",
            "x --- FAIL: TestX (0.00s)",
            "--- FAIL: TestX (0.s)",
            "--- FAIL: TestX (fast)",
            "--- FAIL:  (0.00s)",
            "--- FAIL: TestX (0.00s) trailing",
        ] {
            assert_eq!(result_line(line), None, "{line}");
        }
    }

    #[test]
    fn package_lines() {
        assert_eq!(
            package_line("FAIL\texample.com/m/failing\t0.052s"),
            Some(PackageLine {
                name: "example.com/m/failing",
                status: PackageStatus::Fail
            })
        );
        assert_eq!(
            package_line("FAIL\texample.com/m/b [build failed]"),
            Some(PackageLine {
                name: "example.com/m/b",
                status: PackageStatus::Fail
            })
        );
        assert_eq!(
            package_line("ok  \texample.com/m/a\t(cached)"),
            Some(PackageLine {
                name: "example.com/m/a",
                status: PackageStatus::Ok { no_tests: false }
            })
        );
        assert_eq!(
            package_line("ok  \texample.com/m/a\t0.006s [no tests to run]"),
            Some(PackageLine {
                name: "example.com/m/a",
                status: PackageStatus::Ok { no_tests: true }
            })
        );
        assert_eq!(
            package_line("?   \texample.com/m/n\t[no test files]"),
            Some(PackageLine {
                name: "example.com/m/n",
                status: PackageStatus::NoTestFiles
            })
        );
    }

    #[test]
    fn package_lines_that_are_not() {
        for line in [
            "FAIL",
            "FAIL src/sum.test.js",
            "FAIL\t",
            "ok 1 - test name",
            "?   \tpkg\tsomething else",
            "FAILED tests/a.py::t - x",
        ] {
            assert_eq!(package_line(line), None, "{line}");
        }
    }

    #[test]
    fn chatter_events() {
        assert!(is_chatter_event(
            r#"{"Action":"output","Package":"p","Test":"T","Output":"--- FAIL: T (0.00s)\n"}"#
        ));
        assert!(!is_chatter_event(
            r#"{"Action":"run","Package":"p","Test":"T"}"#
        ));
        // Result events are never skipped, also when their test's name or
        // package holds the word.
        assert!(!is_chatter_event(
            r#"{"Action":"fail","Package":"output","Test":"run"}"#
        ));
        assert!(!is_chatter_event(r#"{"Action":"pass","Package":"p"}"#));
    }

    #[test]
    fn json_events() {
        let event = json_event(
            r#"{"Time":"2026-01-01T00:00:00Z","Action":"fail","Package":"p","Test":"TestX/a_b","Elapsed":0}"#,
        );
        assert_eq!(
            event,
            Some(Event {
                action: "fail".into(),
                package: "p".into(),
                test: Some("TestX/a_b".into())
            })
        );
        assert_eq!(json_event(r#"{"numFailedTests":1,"testResults":[]}"#), None);
        assert_eq!(json_event(r#"{"Action":"fail"}"#), None);
        assert_eq!(json_event(r#"{"Action": broken"#), None);
    }

    #[test]
    fn a_package_that_ends_ok_drops_printed_failures() {
        let log = "\
=== RUN   TestPrints
--- FAIL: TestFake (0.00s)
--- PASS: TestPrints (0.00s)
PASS
ok  \texample.com/m/liar\t0.01s
--- FAIL: TestReal (0.00s)
FAIL
FAIL\texample.com/m/real\t0.01s
";
        let report = parse(Runner::Go, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["TestReal"]);
        assert_eq!(
            report.failing[0].context.as_deref(),
            Some("example.com/m/real")
        );
        // The liar's block was verbose: its pass counts, its fake fail not.
        assert_eq!(report.counts.passed, Some(1));
        assert_eq!(report.counts.failed, Some(0));
    }

    #[test]
    fn json_failures_of_a_passing_package_are_dropped() {
        let log = r#"{"Action":"run","Package":"p","Test":"TestPrints"}
{"Action":"fail","Package":"p","Test":"TestFake","Elapsed":0}
{"Action":"pass","Package":"p","Test":"TestPrints","Elapsed":0}
{"Action":"pass","Package":"p","Elapsed":0.01}
{"Action":"run","Package":"q","Test":"TestReal"}
{"Action":"fail","Package":"q","Test":"TestReal","Elapsed":0}
{"Action":"fail","Package":"q","Test":"TestForged","Elapsed":0}
{"Action":"fail","Package":"q","Elapsed":0.01}
"#;
        // TestForged never had a `run` event: a test printed it.
        assert_eq!(names(Runner::Go, log), ["TestReal"]);
    }

    /// go judges a package by its binary's exit status: a binary that
    /// exits 0 in the middle of a test (`syscall.Exit(0)` after printing
    /// `PASS`) gets a final `pass` (fixtures/go/exit0_forged_json.log is
    /// the real run). The failure that came before stands, and the test
    /// that never ended leaves the events unclosed.
    #[test]
    fn json_a_package_that_passes_over_a_standing_failure_keeps_it() {
        let log = r#"{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestA","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestZ"}
{"Action":"output","Package":"p","Output":"PASS\n"}
{"Action":"pass","Package":"p","Elapsed":0.01}
"#;
        let report = parse(Runner::Go, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["TestA"]);
        assert_eq!(
            report.unclosed.as_deref(),
            Some(
                "go test -json's events of p say it passed, but TestZ started and never ended: \
                 its test binary exited in the middle of a test"
            )
        );
    }

    /// Where it must not fire: a failure a later run of the same test
    /// passed over (`-count=N`: flaky, as before), a passing package whose
    /// every test ended, and a benchmark (go gives it no result event).
    #[test]
    fn json_a_failure_passed_over_or_an_ended_run_is_no_contradiction() {
        let log = r#"{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p","Test":"TestA","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"run","Package":"p","Test":"TestB/sub"}
{"Action":"pass","Package":"p","Test":"TestB","Elapsed":0}
{"Action":"pass","Package":"p","Test":"TestB/sub","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestC"}
{"Action":"skip","Package":"p","Test":"TestC","Elapsed":0}
{"Action":"run","Package":"p","Test":"BenchmarkX"}
{"Action":"pass","Package":"p","Elapsed":0.01}
"#;
        let report = parse(Runner::Go, log);
        assert!(report.failing.is_empty(), "{:?}", report.failing);
        assert_eq!(report.flaky, ["TestA"]);
        assert_eq!(report.unclosed, None);
    }

    /// A panic outside a test's own goroutine (fixtures/go/goroutine_panic*
    /// are the real runs): a crash, with the test running and the test that
    /// started the goroutine. Where it must not fire: a package that passed
    /// (a test printed `panic:`), and one where go named the failing test.
    #[test]
    fn a_panic_that_names_no_test_is_a_crash() {
        let log = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n\
                   panic: boom\n\ngoroutine 7 [running]:\np.TestC.func1()\n\
                   created by example.com/p.TestC in goroutine 6\n\
                   FAIL\texample.com/p\t0.01s\n";
        let report = parse(Runner::Go, log);
        assert!(report.failing.is_empty());
        let crash = report.crashes.first().expect("a crash");
        assert_eq!(
            crash.describe(),
            "the test binary of example.com/p died (panic) while TestB was running; \
             the goroutine that panicked was started by TestC"
        );
        let passed = log.replace("FAIL\texample.com/p", "ok  \texample.com/p");
        assert!(parse(Runner::Go, passed).crashes.is_empty());
        let named = log.replace("panic: boom", "--- FAIL: TestB (0.00s)\npanic: boom");
        let report = parse(Runner::Go, named);
        assert_eq!(report.names().collect::<Vec<_>>(), ["TestB"]);
        assert!(report.crashes.is_empty());
    }

    #[test]
    fn a_verbose_failure_of_a_test_that_never_ran_is_not_one() {
        let log = "\
=== RUN   TestPrints
--- FAIL: TestNeverRan (0.00s)
--- PASS: TestPrints (0.00s)
=== RUN   TestReal
--- FAIL: TestReal (0.00s)
FAIL
FAIL\texample.com/m\t0.01s
";
        assert_eq!(names(Runner::Go, log), ["TestReal"]);
        // Without -v no `=== RUN` is printed: nothing can be confirmed, and
        // the failure lines stand.
        let plain = "--- FAIL: TestNeverRan (0.00s)\nFAIL\nFAIL\texample.com/m\t0.01s\n";
        assert_eq!(names(Runner::Go, plain), ["TestNeverRan"]);
        // A failing benchmark has no `=== RUN` line of its own either.
        let bench = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n--- FAIL: BenchmarkSlow\nFAIL\nFAIL\texample.com/m\t0.01s\n";
        assert_eq!(names(Runner::Go, bench), ["BenchmarkSlow"]);
    }

    #[test]
    fn a_cut_log_keeps_its_candidates() {
        assert_eq!(
            names(
                Runner::Go,
                "--- FAIL: TestA (0.00s)\n    --- FAIL: TestA/b (0.00s)\n"
            ),
            ["TestA", "TestA/b"]
        );
    }

    #[test]
    fn no_tests_ran_only_when_no_package_ran_tests() {
        let none = "?   \tp/a\t[no test files]\nok  \tp/b\t0.01s [no tests to run]\n";
        assert!(parse(Runner::Go, none).no_tests_ran);
        let some = "?   \tp/a\t[no test files]\nok  \tp/b\t0.01s\n";
        assert!(!parse(Runner::Go, some).no_tests_ran);
    }

    /// Other runners' output, also their failures, is none of go's.
    #[test]
    fn other_runners_lines_are_not_go() {
        for log in [
            FOREIGN_CARGO,
            FOREIGN_NEXTEST,
            FOREIGN_JEST,
            FOREIGN_VITEST,
            FOREIGN_PYTEST,
        ] {
            let report = parse(Runner::Go, log);
            assert_eq!(report.format, None, "{log}");
            assert_eq!(report.names().count(), 0, "{log}");
        }
    }

    /// go 1.20+ lists the tests running when `-timeout` fired. Hand-made
    /// (this machine's go is 1.19) after the log quoted in golang/go#61468
    /// (`panic: test timed out after 10m0s`, `running tests:`, then a tab,
    /// a name and the time it ran, per line, then the goroutine traces).
    #[test]
    fn the_running_tests_list_of_a_timeout_names_them() {
        let log = "panic: test timed out after 1s\n\
                   running tests:\n\
                   \tTestHangs (1s)\n\
                   \tTestAlsoSlow/sub (1s)\n\
                   \n\
                   goroutine 17 [running]:\n\
                   testing.(*M).startAlarm.func1()\n\
                   \t/usr/local/go/src/testing/testing.go:2366 +0x30c\n\
                   FAIL\texample.com/m/timeout\t1.005s\n\
                   FAIL\n";
        let report = parse(Runner::Go, log);
        assert_eq!(report.running, ["TestHangs", "TestAlsoSlow/sub"]);
        // Not after a package that passed, and not outside the list.
        let passed = log.replace("FAIL\texample.com/m/timeout", "ok  \texample.com/m/timeout");
        assert!(parse(Runner::Go, &passed).running.is_empty());
    }

    #[test]
    fn a_ci_log_with_pytest_then_go() {
        let log = format!(
            "{}{}",
            include_str!("../../tests/fixtures/pytest/default.log"),
            include_str!("../../tests/fixtures/go/plain.log")
        );
        let report = parse(crate::Format::Auto, &log);
        assert_eq!(report.format, Some(Runner::Pytest));
        assert_eq!(
            report
                .failing
                .iter()
                .filter(|t| t.format == Runner::Go)
                .count(),
            // plain.log's `./...` includes the flaky package (-count=1: its
            // test fails).
            14
        );
        assert_eq!(
            report
                .failing
                .iter()
                .filter(|t| t.format == Runner::Pytest)
                .count(),
            9
        );
    }

    proptest::proptest! {
        /// Any mix of go-like pieces parses without panicking, and the same
        /// in chunks as whole.
        #[test]
        fn never_panics(pieces in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("--- FAIL: ".to_owned()),
                proptest::strategy::Just("    --- PASS: ".to_owned()),
                proptest::strategy::Just(" (0.00s)\n".to_owned()),
                proptest::strategy::Just("=== RUN   ".to_owned()),
                proptest::strategy::Just("ok  \t".to_owned()),
                proptest::strategy::Just("FAIL\t".to_owned()),
                proptest::strategy::Just("?   \tp\t[no test files]\n".to_owned()),
                proptest::strategy::Just("{\"Action\":\"fail\",\"Package\":\"p\"".to_owned()),
                proptest::strategy::Just(",\"Test\":\"T\"}\n".to_owned()),
                "[ a-zü0-9/\\[\\]\t\n{}\"]{0,12}",
            ],
            0..40,
        )) {
            let log = pieces.concat();
            let whole = parse(Runner::Go, &log);
            let mut parser = crate::StreamParser::new(Runner::Go);
            for chunk in log.as_bytes().chunks(3) {
                parser.feed(chunk);
            }
            proptest::prop_assert_eq!(parser.finish(), whole);
        }
    }

    /// Samples of other runners' output, for tests that show where the go and
    /// pytest recognisers must not fire.
    pub(in crate::formats) const FOREIGN_CARGO: &str = "\
running 2 tests
test tests::adds ... ok
test tests::parses_empty ... FAILED

failures:

---- tests::parses_empty stdout ----
thread 'tests::parses_empty' panicked at src/lib.rs:9:9:
FAIL
failures:
    tests::parses_empty

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";

    pub(in crate::formats) const FOREIGN_NEXTEST: &str = "\
    Starting 2 tests across 1 binary
        PASS [   0.004s] demo tests::adds
        FAIL [   0.005s] demo tests::parses_empty
--- STDOUT:              demo tests::parses_empty ---
     Summary [   0.010s] 2 tests run: 1 passed, 1 failed, 0 skipped
        FAIL [   0.005s] demo tests::parses_empty
";

    pub(in crate::formats) const FOREIGN_JEST: &str = "\
FAIL src/sum.test.js
  sum
    ✓ adds (2 ms)
    ✕ subtracts (3 ms)

  ● sum › subtracts

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total
Time:        0.5 s
";

    pub(in crate::formats) const FOREIGN_VITEST: &str = "\
 ❯ src/a.test.ts (2 tests | 1 failed) 4ms
   × suite > fails 3ms
 FAIL  src/a.test.ts > suite > fails
 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
";

    pub(in crate::formats) const FOREIGN_PYTEST: &str = "\
============================= test session starts ==============================
tests/a.py::test_one FAILED                                              [100%]
=========================== short test summary info ============================
FAILED tests/a.py::test_one - assert 0
============================== 1 failed in 0.01s ===============================
";
}
