//! What a parser understood of a log: every test's outcome, the failing
//! tests, the counts, and whether the runner said that no test ran.

use crate::runner::Runner;

/// One failing test, named as `docs/formats.md` spells it for its format.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FailingTest {
    /// The canonical name: what a repair loop needs first.
    pub name: String,
    /// The runner whose output named it.
    pub format: Runner,
    /// Where the runner says the test lives, when it says so: the test
    /// binary for libtest and nextest, the file for pytest, jest and vitest,
    /// the package for go.
    pub context: Option<String>,
    /// A test, or a failure of something larger that a test name does not
    /// cover: a file that did not load, a package that did not build.
    pub kind: Kind,
    /// The first line that states the failure, where the runner shows one
    /// in the test's own output: libtest's panic message, pytest's first
    /// `E` line, go's first `file_test.go:12:` line. Attributed text, not
    /// evidence: the test itself may have printed it.
    pub message: Option<String>,
    /// The test's own output as its runner showed it (libtest's `----
    /// name stdout ----` block, pytest's section in `FAILURES`, go's lines
    /// from `=== RUN` to `--- FAIL:`), at most [`MAX_EXCERPT`] bytes: its
    /// start and its end with a `[… N bytes cut …]` line between. `None`
    /// where the runner showed none, or once the failures before it had
    /// spent [`MAX_EXCERPTS`].
    ///
    /// [`MAX_EXCERPT`]: crate::MAX_EXCERPT
    /// [`MAX_EXCERPTS`]: crate::MAX_EXCERPTS
    pub excerpt: Option<String>,
}

impl FailingTest {
    /// A failing test named `name`, from `format`'s output.
    pub fn new(name: impl Into<String>, format: Runner, context: Option<String>) -> Self {
        FailingTest {
            name: name.into(),
            format,
            context,
            kind: Kind::Test,
            message: None,
            excerpt: None,
        }
    }

    /// The same failure, with its message and excerpt (see
    /// [`message`](Self::message) and [`excerpt`](Self::excerpt)).
    #[must_use]
    pub fn with_output(mut self, message: Option<String>, excerpt: Option<String>) -> Self {
        self.message = message;
        self.excerpt = excerpt;
        self
    }

    /// The same failure, of `kind`.
    #[must_use]
    pub fn with_kind(mut self, kind: Kind) -> Self {
        self.kind = kind;
        self
    }
}

/// What a name in a report stands for.
///
/// Most names are tests. A runner also reports failures of something
/// larger, under a name that is not a test's: jest's `Test suite failed to
/// run` and a pytest collection error name a file, go's `FAIL pkg [build
/// failed]` a package, a vitest `beforeAll` that threw a suite. A grader
/// that expects a test by name must not mistake such a failure for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// One test (a test case, a subtest, a parametrised case).
    Test,
    /// A suite or group of tests inside a file (a `describe` block whose hook
    /// failed).
    Suite,
    /// A whole test file: it failed to load or to be collected.
    File,
    /// A whole package or test binary: it did not build, or failed outside
    /// any test.
    Package,
}

impl Kind {
    /// The lowercase name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Test => "test",
            Kind::Suite => "suite",
            Kind::File => "file",
            Kind::Package => "package",
        }
    }
}

/// How one test ended in one run, as the runner's output says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// It passed.
    Passed,
    /// It failed: the runner's own result confirms it.
    Failed,
    /// It errored outside its body (pytest's `ERROR`: a fixture, a setup or
    /// teardown); counted with the failures.
    Error,
    /// It was skipped or ignored.
    Skipped,
    /// It failed as expected (pytest's `XFAIL`).
    XFailed,
    /// It passed although expected to fail (pytest's `XPASS`, not strict).
    XPassed,
    /// It failed and then passed within this one run: the runner retried it
    /// (nextest `--retries`, pytest-rerunfailures) or ran it again (`go test
    /// -count=N`).
    Flaky,
    /// It had started and not ended when the output stopped.
    Running,
}

impl Outcome {
    /// The lowercase name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::Error => "error",
            Outcome::Skipped => "skipped",
            Outcome::XFailed => "xfailed",
            Outcome::XPassed => "xpassed",
            Outcome::Flaky => "flaky",
            Outcome::Running => "running",
        }
    }

    /// Whether this outcome fails a run: [`Failed`](Outcome::Failed) and
    /// [`Error`](Outcome::Error).
    pub const fn is_failure(self) -> bool {
        match self {
            Outcome::Failed | Outcome::Error => true,
            Outcome::Passed
            | Outcome::Skipped
            | Outcome::XFailed
            | Outcome::XPassed
            | Outcome::Flaky
            | Outcome::Running => false,
        }
    }
}

/// One test the output named, and how it ended.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TestOutcome {
    /// The canonical name, spelled as for [`FailingTest::name`].
    pub name: String,
    /// How it ended. Where the output names a test several times (a retry,
    /// `-count=N`, a teardown error after a pass), a confirmed failure wins,
    /// then flaky, then running, then the last result printed.
    pub outcome: Outcome,
    /// A test, or a file, suite or package that failed as a whole.
    pub kind: Kind,
    /// The runner whose output named it.
    pub format: Runner,
    /// Where the runner says the test lives, as for [`FailingTest::context`].
    pub context: Option<String>,
    /// How long it ran, in milliseconds, where the runner's report says
    /// (JUnit's `time`, jest's and vitest's `duration`); None from a
    /// console.
    pub duration_ms: Option<u64>,
    /// The other name the runner gives the test where it prints one in
    /// place of its name: unittest's `shortDescription()` (its docstring's
    /// first line), which `-v` prints before the result, and SWE-bench's
    /// Django lists keep as the test's name. None where it gives none.
    pub description: Option<String>,
}

/// As derived, but `duration_ms` and `description` are shown only where
/// the output gave one, so that the reports that give none read as before.
impl std::fmt::Debug for TestOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut shown = f.debug_struct("TestOutcome");
        shown
            .field("name", &self.name)
            .field("outcome", &self.outcome)
            .field("kind", &self.kind)
            .field("format", &self.format)
            .field("context", &self.context);
        if let Some(ms) = self.duration_ms {
            shown.field("duration_ms", &ms);
        }
        if let Some(description) = &self.description {
            shown.field("description", description);
        }
        shown.finish()
    }
}

/// A test binary that died without its runner naming a failing test in it:
/// go's, ended by a panic in a goroutine that was not a test's own (go
/// prints no `--- FAIL:` line then, and go 1.19's test2json no `fail`
/// event with a `Test`), or by go's own `-timeout`.
///
/// The test that was running is the likely culprit, not a certain one:
/// parallel tests run beside it, and a goroutine an earlier test started
/// can panic later. So it is not a failing name; the policy's reason
/// states the crash in words.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Crash {
    /// The runner whose output showed it.
    pub format: Runner,
    /// The test binary as the runner names it: go's package.
    pub binary: Option<String>,
    /// What ended it: `panic`, or go's `test timed out after 1s`.
    pub cause: String,
    /// The test the runner said was running (`go test -v`, `-json`: the
    /// last `=== RUN` without its result).
    pub running: Option<String>,
    /// The test whose code started the goroutine that panicked, from the
    /// goroutine trace's `created by pkg.TestX`.
    pub started_by: Option<String>,
}

impl Crash {
    /// The crash in one phrase: `the test binary of example.com/pkg died
    /// (panic) while TestX was running; the goroutine that panicked was
    /// started by TestY`.
    pub fn describe(&self) -> String {
        let mut phrase = match &self.binary {
            Some(binary) => format!("the test binary of {binary} died ({})", self.cause),
            None => format!("a test binary died ({})", self.cause),
        };
        if let Some(running) = &self.running {
            phrase.push_str(&format!(" while {running} was running"));
        }
        if let Some(started_by) = &self.started_by {
            phrase.push_str(&format!(
                "; the goroutine that panicked was started by {started_by}"
            ));
        }
        phrase
    }
}

/// The most distinct tests a [`Report`] lists in [`Report::tests`]. Once a
/// runner's list holds this many it is frozen: later results of passing and
/// skipped tests are counted in [`Report::tests_omitted`] instead (failing,
/// flaky and running tests are always listed), so that a flood of names, a
/// hostile test's or a giant log's, costs a counter per line and no memory.
/// The bound keeps the list under about 40 MiB.
pub const MAX_TESTS: usize = 1 << 17;

/// Test counts as the runner's summary states them; `None` where the output
/// did not state one. Where a log holds several summaries (several test
/// binaries, several runners), the counts are their sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Tests that passed.
    pub passed: Option<u64>,
    /// Tests that failed (errors included where the runner counts them apart).
    pub failed: Option<u64>,
    /// Tests skipped, ignored or filtered out by the runner.
    pub skipped: Option<u64>,
}

impl Counts {
    /// The number of tests that ran (passed plus failed), when either was
    /// stated.
    pub fn ran(&self) -> Option<u64> {
        sum(self.passed, self.failed)
    }

    /// Adds `other`'s counts to these, keeping `None` only where both are.
    pub fn add(&mut self, other: Counts) {
        self.passed = sum(self.passed, other.passed);
        self.failed = sum(self.failed, other.failed);
        self.skipped = sum(self.skipped, other.skipped);
    }
}

/// The one sum of counts: `None` only where both are, saturating (a log
/// can claim any number).
pub(crate) fn sum(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    }
}

/// Everything a parser understood of one log.
#[derive(Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// The runner recognised first, or `None` when no runner's lines were
    /// recognised.
    pub format: Option<Runner>,
    /// The failing tests in order of first appearance, each name once.
    pub failing: Vec<FailingTest>,
    /// Every test the output named, each name once, in order of first
    /// appearance, with its outcome: passing names where the runner prints
    /// them (libtest's `... ok`, nextest's `PASS`, pytest `-v` and `-rA`, go
    /// `-v` and `-json`, jest `--verbose`, vitest's verbose reporter), and
    /// every failing, flaky and running test. It grows with the number of
    /// distinct tests, never with the output's size, and stops at
    /// [`MAX_TESTS`].
    pub tests: Vec<TestOutcome>,
    /// Results of passing and skipped tests left out of
    /// [`tests`](Report::tests) once it held [`MAX_TESTS`].
    pub tests_omitted: u64,
    /// The counts the runners' summaries stated.
    pub counts: Counts,
    /// The runner itself said that no test ran (pytest's `no tests ran`,
    /// libtest's `running 0 tests`, go's `[no test files]` everywhere, …).
    /// Exit status 0 with no test run proves nothing.
    pub no_tests_ran: bool,
    /// A recognised runner's output opened a scope and never closed it: a
    /// libtest binary's `running N tests` without its `test result:` line,
    /// a pytest session without its closing `N passed in Xs` line. The
    /// runner, or a test, ended the run early; an exit status of 0 then
    /// proves nothing (a test calling `exit(0)` after another failed). The
    /// first such scope, as a short phrase; None when every scope closed.
    pub unclosed: Option<String>,
    /// Tests that failed and then passed within this one run: the runner
    /// retried them itself (nextest `--retries`, pytest-rerunfailures
    /// `--reruns`) or ran them again (`go test -count=N -v`). A retry that
    /// hides a failure is flakiness, whoever retries. In order of first
    /// appearance, each once; a flaky test stays in `failing` too where the
    /// runner printed it failing.
    pub flaky: Vec<String>,
    /// Tests that had started and not ended when the output stopped: a
    /// libtest `test x ... ` (or JSON `started`) without its result, or
    /// one libtest said `has been running for over 60 seconds`; a go `===
    /// RUN` without its `--- ` line; a pytest `-v` id without its status.
    /// When an attempt timed out, these are the tests that hung. In order
    /// of first appearance, each once.
    pub running: Vec<String>,
    /// Re-runs of failed tests the runner reported without naming them
    /// (pytest-rerunfailures' `N rerun` in `-q`): with no test failing at
    /// the end, each is a failure a retry hid.
    pub reruns: u64,
    /// Test binaries that died without the runner naming a failing test in
    /// them (a go package whose binary a goroutine's panic ended), in order.
    pub crashes: Vec<Crash>,
    /// Tests the runner counted risky, not failed (PHPUnit's `There was 1
    /// risky test:`, its JUnit report's `RiskyTestError`): no failure of
    /// the run, unless the project asks (`failOnRisky`, `--fail-on-risky`),
    /// which only the exit status then tells. In order, each once.
    pub risky: Vec<FailingTest>,
    /// Tests the runner warned about and did not count failed (PHPUnit
    /// 9's `There was 1 warning:`, its JUnit report's `<warning>`): no
    /// failure of the run, unless the project asks (`failOnWarning`,
    /// `--fail-on-warning`). In order, each once.
    pub warned: Vec<FailingTest>,
    /// Lines read.
    pub lines: u64,
    /// Lines longer than [`MAX_LINE`](crate::MAX_LINE), read only up to it.
    pub long_lines: u64,
    /// One section per runner per CI step, in order of their first line:
    /// which runner ran over which lines, in which step (its command where
    /// the CI names it), and which of [`failing`](Report::failing) it named
    /// there. A runner's raw console is one section without a step.
    pub sections: Vec<Section>,
}

/// As derived, but [`risky`](Report::risky) and
/// [`warned`](Report::warned) are shown only where a test was, so that the
/// reports of other runners read as before.
impl std::fmt::Debug for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut shown = f.debug_struct("Report");
        shown
            .field("format", &self.format)
            .field("failing", &self.failing)
            .field("tests", &self.tests)
            .field("tests_omitted", &self.tests_omitted)
            .field("counts", &self.counts)
            .field("no_tests_ran", &self.no_tests_ran)
            .field("unclosed", &self.unclosed)
            .field("flaky", &self.flaky)
            .field("running", &self.running)
            .field("reruns", &self.reruns)
            .field("crashes", &self.crashes);
        if !self.risky.is_empty() {
            shown.field("risky", &self.risky);
        }
        if !self.warned.is_empty() {
            shown.field("warned", &self.warned);
        }
        shown
            .field("lines", &self.lines)
            .field("long_lines", &self.long_lines)
            .field("sections", &self.sections)
            .finish()
    }
}

impl Report {
    /// The failing tests' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.failing.iter().map(|test| test.name.as_str())
    }
}

/// One runner's part of a log: the lines it ran over within one CI step,
/// and the failing tests it named there. The sections tile the log: each
/// runs from its runner's first line in the step (the step's first line
/// for the step's first runner) to the next section; lines before the
/// first runner's are the first section's, and a step that ran no runner
/// is the section's before it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Section {
    /// The runner.
    pub runner: Runner,
    /// The CI step's command, or its name where the CI gives no command
    /// (`##[group]Run cargo test` gives `cargo test`, Azure's
    /// `##[section]Starting: Test` then `##[command]pytest` gives `pytest`,
    /// GitLab's and Buildkite's echoed `$ cargo test` gives `cargo test`);
    /// `None` outside any step the CI marked (a runner's raw console).
    pub step: Option<String>,
    /// The first line of the section, from 0.
    pub first_line: u64,
    /// The last line of the section, from 0.
    pub last_line: u64,
    /// The failing tests the runner named in this section: indices into
    /// [`Report::failing`](crate::Report::failing), in order. A test that
    /// failed in two steps is named in the first (the report names each
    /// test once).
    pub failing: Vec<usize>,
    /// Failing tests another runner's lines named within this section's
    /// runner's lines (a pytest session a cargo test printed): its output,
    /// not a run of their own. Indices into
    /// [`Report::failing`](crate::Report::failing), in order; they are in
    /// no section's `failing`.
    pub printed: Vec<usize>,
}

impl Section {
    /// The failing tests of this section, out of `report`, the report
    /// the section belongs to.
    pub fn failing<'r>(&'r self, report: &'r Report) -> impl Iterator<Item = &'r FailingTest> + 'r {
        self.failing
            .iter()
            .filter_map(|&index| report.failing.get(index))
    }
}

/// Why a report could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReportError {
    /// What was wrong, and where (a byte offset).
    pub message: String,
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReportError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_saturate_and_keep_none_only_where_both_are() {
        let claimed = Counts {
            passed: Some(u64::MAX),
            failed: Some(1),
            skipped: None,
        };
        assert_eq!(claimed.ran(), Some(u64::MAX));
        let mut total = claimed;
        total.add(claimed);
        assert_eq!(total.passed, Some(u64::MAX));
        assert_eq!(total.skipped, None);
        assert_eq!(Counts::default().ran(), None);
    }
}
