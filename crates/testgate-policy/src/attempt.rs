//! One run of the test command, as the policy sees it: how it ended, what it
//! ran, and what the parser understood of its output.

use std::time::Duration;

/// How an attempt ended.
///
/// The facade builds this from the runner's report. Matched exhaustively in
/// the policy: a new way to end forces a decision about its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The test command exited by itself with `code`. Codes of 128 and up
    /// are still exits: a shell reporting its child's signal has exited.
    Exited {
        /// The exit status.
        code: i32,
    },
    /// The test command was ended by `signal`, from outside the runner's own
    /// timeout (the runner reports its own kills as [`Ending::TimedOut`]).
    Signalled {
        /// The signal number, as the platform numbers it.
        signal: i32,
    },
    /// The runner's timeout ran out and it ended the command.
    TimedOut {
        /// The time limit that ran out.
        after: Duration,
    },
    /// The sandbox refused to run the command.
    SandboxRefused {
        /// What the sandbox said.
        why: String,
    },
    /// The command could not be started at all (not found, not executable).
    WouldNotStart {
        /// What the operating system said.
        why: String,
    },
    /// testgate itself was interrupted (for example by SIGINT) during the
    /// attempt.
    Cancelled,
    /// testgate lost the attempt: an operating-system call it needed to
    /// run or follow the command failed (a pipe, reading its output,
    /// waiting for it), so how it ended is unknown. Not a failure to start.
    Lost {
        /// What failed.
        why: String,
    },
}

/// What an attempt ran.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selection {
    /// The test command as given.
    #[default]
    Full,
    /// A targeted retry of only these tests, named as the parser names them.
    Only(Vec<String>),
}

impl Selection {
    /// Whether two selections ran the same tests: both full, or the same
    /// set of names in any order.
    pub fn same_as(&self, other: &Selection) -> bool {
        match (self, other) {
            (Selection::Full, Selection::Full) => true,
            (Selection::Only(a), Selection::Only(b)) => {
                let mut a: Vec<&String> = a.iter().collect();
                let mut b: Vec<&String> = b.iter().collect();
                a.sort_unstable();
                a.dedup();
                b.sort_unstable();
                b.dedup();
                a == b
            }
            (Selection::Full, Selection::Only(_)) | (Selection::Only(_), Selection::Full) => false,
        }
    }
}

/// Test counts as the runner's summary stated them; `None` where it did not
/// state one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Tests that passed.
    pub passed: Option<u64>,
    /// Tests that failed.
    pub failed: Option<u64>,
    /// Tests skipped, ignored or filtered out.
    pub skipped: Option<u64>,
}

impl Counts {
    /// Counts as stated.
    pub fn new(passed: Option<u64>, failed: Option<u64>, skipped: Option<u64>) -> Self {
        Counts {
            passed,
            failed,
            skipped,
        }
    }

    /// The number of tests that ran (passed plus failed), when either was
    /// stated.
    pub fn ran(&self) -> Option<u64> {
        match (self.passed, self.failed) {
            (None, None) => None,
            (p, f) => Some(p.unwrap_or(0).saturating_add(f.unwrap_or(0))),
        }
    }
}

/// Evidence that an attempt failed in its environment (the toolchain, the
/// network, a path it needed) before it reached the tests.
///
/// The parser's recognisers produce it; the policy reads an attempt that
/// carries it and names no failing test as Inconclusive
/// [`Cause::Environment`](crate::Cause::Environment), with `fix` as the
/// reason's first line.
///
/// ```
/// use testgate_policy::Environment;
///
/// let env = Environment::new(
///     "cargo could not download its dependencies: the network is off",
///     "pass --allow-network, or fetch them first with --prepare 'cargo fetch'",
/// );
/// assert!(env.fix.starts_with("pass --allow-network"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Environment {
    /// What failed, in one line: `cargo could not resolve crates.io`.
    pub what: String,
    /// The fix, in one line, naming the option that gives it:
    /// `--allow-network`, `--prepare CMD`, `--writable PATH`.
    pub fix: String,
}

impl Environment {
    /// What failed and the fix, each one line.
    pub fn new(what: impl Into<String>, fix: impl Into<String>) -> Self {
        Environment {
            what: what.into(),
            fix: fix.into(),
        }
    }
}

/// How one test ended in one attempt, as grading reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TestResult {
    /// It passed.
    Passed,
    /// It failed as it was marked to (pytest\'s `XFAIL`, also a test that
    /// called `pytest.xfail()`): no failure of a test that must keep
    /// passing, as SWE-bench counts it, and never a pass of a test that
    /// must pass ([`Grade::of_listed`](crate::Grade::of_listed)).
    XFailed,
    /// It failed or errored.
    Failed,
    /// It was skipped, or passed although expected to fail: it ran nothing
    /// that proves it either way.
    Skipped,
    /// It failed and then passed within the attempt.
    Flaky,
    /// It had started and not ended when the output stopped.
    Running,
}

impl TestResult {
    /// The lowercase name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            TestResult::Passed => "passed",
            TestResult::XFailed => "xfailed",
            TestResult::Failed => "failed",
            TestResult::Skipped => "skipped",
            TestResult::Flaky => "flaky",
            TestResult::Running => "running",
        }
    }
}

/// One run of the test command: the record the policy decides on.
///
/// Build one with [`Attempt::new`] and the `with_*` methods; every field
/// not set keeps the default that claims least (no names, no counts, output
/// not recognised, nothing leaked).
///
/// ```
/// use testgate_policy::{Attempt, Counts, Ending};
///
/// let attempt = Attempt::new(Ending::Exited { code: 101 })
///     .with_failing(["tests::parses_empty"])
///     .with_counts(Counts::new(Some(1), Some(1), Some(0)))
///     .with_recognised(true)
///     .with_tail("test result: FAILED. 1 passed; 1 failed");
/// assert_eq!(attempt.failing, ["tests::parses_empty"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Attempt {
    /// How the attempt ended.
    pub ending: Ending,
    /// What it ran.
    pub selection: Selection,
    /// The failing tests the parser found, in order, each once.
    pub failing: Vec<String>,
    /// The counts the runner's summary stated, if the parser found one.
    pub counts: Option<Counts>,
    /// The runner itself said that no test ran.
    pub no_tests_ran: bool,
    /// The parser recognised the runner's output at all.
    pub recognised: bool,
    /// The end of the output, where runners put their summary.
    pub tail: String,
    /// The runner had to end processes the command left behind.
    pub leaked_processes: bool,
    /// How long the attempt took.
    pub duration: Duration,
    /// Free text the driver layer attaches, for example why a retry ran the
    /// full suite (see [`Plan::note`](crate::Plan::note)).
    pub note: Option<String>,
    /// The output shows that the environment failed before the tests ran.
    pub environment: Option<Environment>,
    /// The runner's output was recognised but ended before its summary (a
    /// test that exited the runner's process early).
    pub truncated: bool,
    /// The output says that a coverage threshold was not met.
    pub coverage_below_threshold: bool,
    /// Tests that failed and then passed within this attempt: the runner
    /// retried them itself (nextest `--retries`, pytest-rerunfailures) or
    /// ran them again (`go test -count=N`).
    pub flaky_within: Vec<String>,
    /// Re-runs of failed tests the runner counted without naming them
    /// (pytest-rerunfailures under `-q`).
    pub reruns: u64,
    /// Tests that had started and not ended when the output stopped: under
    /// a timeout, the tests that hung.
    pub running: Vec<String>,
    /// Test binaries that died with no failing test named in them, each
    /// said in one phrase (`the test binary of example.com/p died (panic)
    /// while TestX was running`): a Fail's reason states them after its
    /// names.
    pub crashes: Vec<String>,
    /// Every test the output named, with how it ended: what
    /// [`Grader`](crate::Grader) grades listed tests by. Empty when the
    /// caller gives only the failing names.
    pub tests: Vec<(String, TestResult)>,
    /// Where each of [`tests`](Self::tests) lies, by index: the context
    /// the runner gave it (jest's and vitest's file, go's package), `None`
    /// where it gave none. Empty when the caller gave no places: a test's
    /// identity is its name and its place (docs/formats.md, "A test's
    /// identity").
    pub places: Vec<Option<String>>,
    /// Failing tests' own output, by name: the excerpt of each block the
    /// runner showed for it (or its message alone), as the parser kept it.
    /// A Fail's reason shows them after its names, before the tail. Text
    /// the tests printed, not evidence: no name is added or removed by it.
    pub excerpts: Vec<(String, String)>,
    /// Which channels judged the attempt beside its exit status: the
    /// console alone, or the runner's own report with the console as the
    /// cross-check (docs/policy.md, "Three channels must agree").
    pub evidence: Evidence,
    /// Other names the runner gave tests of [`tests`](Self::tests), as
    /// `(other name, test's name)`: unittest's docstring line, which `-v`
    /// prints in place of the name and SWE-bench's Django lists keep. A
    /// listed name no test has is graded as the tests it names here.
    pub aliases: Vec<(String, String)>,
}

/// Which channels judged an attempt beside its exit status
/// (docs/policy.md, "Three channels must agree"). Where the runner's report
/// was read, the attempt's [`failing`](Attempt::failing) and
/// [`counts`](Attempt::counts) are the report's, and this holds what the
/// console said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Evidence {
    /// No report: the runner could not be asked for one without changing
    /// what the tests do, or no runner was recognised. The exit status and
    /// the console judged alone.
    #[default]
    ConsoleAlone,
    /// The runner was asked for its report and no complete one was read
    /// (the run ended before its session did, or what lies at the report's
    /// place is not a report): a Pass cannot stand on it.
    ReportMissing,
    /// A report of the runner's own was required (`--evidence report`) and
    /// the runner could not be asked for one: the exit status and the
    /// console judged alone, and a Pass cannot stand on them.
    Unasked,
    /// The runner's report was read; the console is the cross-check.
    Report {
        /// The failing tests the console named, in order, each once.
        console_failing: Vec<String>,
        /// The counts the console's summary stated, if any.
        console_counts: Option<Counts>,
    },
}

impl Evidence {
    /// The channels that judged: `["exit", "report", "console"]`, or
    /// `["exit", "console"]` when no report was read.
    pub fn channels(&self) -> &'static [&'static str] {
        match self {
            Evidence::Report { .. } => &["exit", "report", "console"],
            Evidence::ConsoleAlone | Evidence::ReportMissing | Evidence::Unasked => {
                &["exit", "console"]
            }
        }
    }

    /// The report's state as one word: `read`, `missing` (asked for, none
    /// complete), or `none` (not asked for).
    pub fn report_name(&self) -> &'static str {
        match self {
            Evidence::Report { .. } => "read",
            Evidence::ReportMissing => "missing",
            Evidence::ConsoleAlone | Evidence::Unasked => "none",
        }
    }
}

impl Attempt {
    /// An attempt that ended as `ending`, ran the full command, and of whose
    /// output nothing was understood.
    pub fn new(ending: Ending) -> Self {
        Attempt {
            ending,
            selection: Selection::Full,
            failing: Vec::new(),
            counts: None,
            no_tests_ran: false,
            recognised: false,
            tail: String::new(),
            leaked_processes: false,
            duration: Duration::ZERO,
            note: None,
            environment: None,
            truncated: false,
            coverage_below_threshold: false,
            flaky_within: Vec::new(),
            reruns: 0,
            running: Vec::new(),
            crashes: Vec::new(),
            tests: Vec::new(),
            places: Vec::new(),
            excerpts: Vec::new(),
            evidence: Evidence::ConsoleAlone,
            aliases: Vec::new(),
        }
    }

    /// Sets other names the runner gave tests (see
    /// [`aliases`](Self::aliases)), as `(other name, test's name)`.
    pub fn with_aliases<I, A, N>(mut self, aliases: I) -> Self
    where
        I: IntoIterator<Item = (A, N)>,
        A: Into<String>,
        N: Into<String>,
    {
        self.aliases = aliases
            .into_iter()
            .map(|(alias, name)| (alias.into(), name.into()))
            .collect();
        self
    }

    /// Sets which channels judged the attempt (see
    /// [`evidence`](Self::evidence)).
    pub fn with_evidence(mut self, evidence: Evidence) -> Self {
        self.evidence = evidence;
        self
    }

    /// Sets failing tests' own output, by name (see
    /// [`excerpts`](Self::excerpts)).
    pub fn with_excerpts<I, N, T>(mut self, excerpts: I) -> Self
    where
        I: IntoIterator<Item = (N, T)>,
        N: Into<String>,
        T: Into<String>,
    {
        self.excerpts = excerpts
            .into_iter()
            .map(|(name, text)| (name.into(), text.into()))
            .collect();
        self
    }

    /// Sets every test the output named, with how it ended.
    pub fn with_tests<I, S>(mut self, tests: I) -> Self
    where
        I: IntoIterator<Item = (S, TestResult)>,
        S: Into<String>,
    {
        self.tests = tests.into_iter().map(|(n, r)| (n.into(), r)).collect();
        self
    }

    /// Sets every test the output named with the place the runner gave
    /// it (see [`places`](Self::places)), and how it ended.
    pub fn with_placed_tests<I, S, P>(mut self, tests: I) -> Self
    where
        I: IntoIterator<Item = (S, Option<P>, TestResult)>,
        S: Into<String>,
        P: Into<String>,
    {
        let (tests, places) = tests
            .into_iter()
            .map(|(n, p, r)| ((n.into(), r), p.map(Into::into)))
            .unzip();
        self.tests = tests;
        self.places = places;
        self
    }

    /// The place [`with_placed_tests`](Self::with_placed_tests) gave the
    /// `index`th of [`tests`](Self::tests), if any.
    pub fn place(&self, index: usize) -> Option<&str> {
        self.places.get(index).and_then(Option::as_deref)
    }

    /// Sets what the attempt ran.
    pub fn with_selection(mut self, selection: Selection) -> Self {
        self.selection = selection;
        self
    }

    /// Sets the failing test names the parser found.
    pub fn with_failing<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.failing = names.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the counts the runner's summary stated.
    pub fn with_counts(mut self, counts: Counts) -> Self {
        self.counts = Some(counts);
        self
    }

    /// Sets whether the runner said that no test ran.
    pub fn with_no_tests_ran(mut self, no_tests_ran: bool) -> Self {
        self.no_tests_ran = no_tests_ran;
        self
    }

    /// Sets whether the parser recognised the output.
    pub fn with_recognised(mut self, recognised: bool) -> Self {
        self.recognised = recognised;
        self
    }

    /// Sets the end of the output.
    pub fn with_tail(mut self, tail: impl Into<String>) -> Self {
        self.tail = tail.into();
        self
    }

    /// Sets whether the runner had to end processes left behind.
    pub fn with_leaked_processes(mut self, leaked: bool) -> Self {
        self.leaked_processes = leaked;
        self
    }

    /// Sets how long the attempt took.
    pub fn with_duration(mut self, duration: Duration) -> Self {
        self.duration = duration;
        self
    }

    /// Attaches the driver layer's note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// Sets the evidence that the environment failed before the tests ran.
    /// An attempt that exited non-zero with it, naming no failing test, is
    /// Inconclusive [`Cause::Environment`](crate::Cause::Environment); an
    /// attempt that names failing tests stays a failure whatever it says.
    pub fn with_environment(mut self, environment: impl Into<Option<Environment>>) -> Self {
        self.environment = environment.into();
        self
    }

    /// Sets whether the recognised output ended before the runner's summary.
    /// An attempt that exited 0 with it is Inconclusive
    /// [`Cause::Truncated`](crate::Cause::Truncated): the exit status of a
    /// run that never finished speaks for nothing.
    pub fn with_truncated(mut self, truncated: bool) -> Self {
        self.truncated = truncated;
        self
    }

    /// Sets whether the output says that a coverage threshold was not met,
    /// so that a run whose tests all passed but which the runner failed says
    /// why.
    pub fn with_coverage_below_threshold(mut self, below: bool) -> Self {
        self.coverage_below_threshold = below;
        self
    }

    /// Sets the tests that failed and then passed within this attempt, and
    /// the re-runs the runner counted without naming them. A retry that
    /// hides a failure is flakiness, whoever retries: an attempt whose every
    /// failure (if any) passed on a retry is Inconclusive `flaky`.
    pub fn with_flaky_within<I, S>(mut self, names: I, reruns: u64) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.flaky_within = names.into_iter().map(Into::into).collect();
        self.reruns = reruns;
        self
    }

    /// Sets the test binaries that died with no failing test named in
    /// them, each in one phrase.
    pub fn with_crashes<I, S>(mut self, crashes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.crashes = crashes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the tests that had started and not ended when the output
    /// stopped. A timed-out attempt's reason leads with them: the tests
    /// that hung.
    pub fn with_running<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.running = names.into_iter().map(Into::into).collect();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selections_compare_as_sets() {
        let ab = Selection::Only(vec!["a".into(), "b".into()]);
        let ba = Selection::Only(vec!["b".into(), "a".into(), "a".into()]);
        let a = Selection::Only(vec!["a".into()]);
        assert!(ab.same_as(&ba));
        assert!(!ab.same_as(&a));
        assert!(!ab.same_as(&Selection::Full));
        assert!(Selection::Full.same_as(&Selection::Full));
    }

    #[test]
    fn ran_needs_a_stated_count() {
        assert_eq!(Counts::default().ran(), None);
        assert_eq!(Counts::new(Some(3), None, Some(9)).ran(), Some(3));
        assert_eq!(
            Counts::new(Some(u64::MAX), Some(1), None).ran(),
            Some(u64::MAX)
        );
    }
}
