//! What a parser understood of a log: the failing tests, the counts, and
//! whether the runner said that no test ran.

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
}

impl FailingTest {
    /// A failing test named `name`, from `format`'s output.
    pub fn new(name: impl Into<String>, format: Runner, context: Option<String>) -> Self {
        FailingTest {
            name: name.into(),
            format,
            context,
        }
    }
}

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
        match (self.passed, self.failed) {
            (None, None) => None,
            (p, f) => Some(p.unwrap_or(0) + f.unwrap_or(0)),
        }
    }

    /// Adds `other`'s counts to these, keeping `None` only where both are.
    pub fn add(&mut self, other: Counts) {
        fn sum(a: Option<u64>, b: Option<u64>) -> Option<u64> {
            match (a, b) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
            }
        }
        self.passed = sum(self.passed, other.passed);
        self.failed = sum(self.failed, other.failed);
        self.skipped = sum(self.skipped, other.skipped);
    }
}

/// Everything a parser understood of one log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// The runner recognised first, or `None` when no runner's lines were
    /// recognised.
    pub format: Option<Runner>,
    /// The failing tests in order of first appearance, each name once.
    pub failing: Vec<FailingTest>,
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
    /// Lines read.
    pub lines: u64,
    /// Lines longer than [`MAX_LINE`](crate::MAX_LINE), read only up to it.
    pub long_lines: u64,
}

impl Report {
    /// The failing tests' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.failing.iter().map(|test| test.name.as_str())
    }
}
