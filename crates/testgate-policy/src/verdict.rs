//! The answer: Pass, Fail with the failing tests, or Inconclusive with its
//! cause.

/// Why a verdict is Inconclusive.
///
/// Matched exhaustively everywhere: a new cause forces every consumer (the
/// CLI's exit codes, the JSON) to decide what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// The attempts disagreed: some passed, some failed, or no test failed
    /// in all of them.
    Flaky,
    /// An attempt ran out of time.
    TimedOut,
    /// The sandbox refused to run the command, or forbade what it did.
    SandboxRefused,
    /// The command could not be started.
    WouldNotStart,
    /// No test ran, so nothing was proved.
    NoTestsRan,
    /// The exit status and the output disagree (exit 0, but failing tests
    /// named).
    Contradiction,
    /// The command was ended by a signal from outside testgate (SIGKILL from
    /// the OOM killer, SIGTERM or SIGINT from a person).
    KilledFromOutside,
    /// Attempts of the same selection ran different numbers of tests.
    DifferentSuites,
    /// testgate itself was interrupted.
    Cancelled,
    /// The environment (the toolchain, the network, a path it needed)
    /// failed before the tests ran.
    Environment,
    /// The failing tests failed in every full run and passed when run
    /// alone: their outcome depends on what runs before or with them.
    OrderDependent,
    /// The runner's output ended before its summary although it exited 0.
    Truncated,
    /// A preparation step (`--prepare`) failed before any attempt ran.
    PrepareFailed,
    /// An attempt changed, deleted or added files in the tree it was judging
    /// (its own tests, their expectations, or files that run later on the
    /// host), so its result is not evidence about the tree as given.
    TreeChanged,
    /// A test the change is graded against never ran (renamed, deselected,
    /// not collected) or was skipped in every attempt.
    NotRun,
    /// The tree could not be recorded before the preparations and the first
    /// attempt (an unreadable entry, a folder too deep, too many entries or
    /// bytes, over the time budget), so no change to it could have been
    /// seen: nothing ran.
    TreeUnreadable,
    /// A report of the runner's own was required (`--evidence report`) and
    /// none could be asked for (the runner hides behind a wrapper nothing
    /// reaches through): the console alone cannot give a Pass.
    NoReport,
}

impl Cause {
    /// Every cause, in declaration order.
    pub const ALL: [Cause; 17] = [
        Cause::Flaky,
        Cause::TimedOut,
        Cause::SandboxRefused,
        Cause::WouldNotStart,
        Cause::NoTestsRan,
        Cause::Contradiction,
        Cause::KilledFromOutside,
        Cause::DifferentSuites,
        Cause::Cancelled,
        Cause::Environment,
        Cause::OrderDependent,
        Cause::Truncated,
        Cause::PrepareFailed,
        Cause::TreeChanged,
        Cause::NotRun,
        Cause::TreeUnreadable,
        Cause::NoReport,
    ];

    /// The stable lowercase snake_case name used in JSON and messages.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Flaky => "flaky",
            Cause::TimedOut => "timed_out",
            Cause::SandboxRefused => "sandbox_refused",
            Cause::WouldNotStart => "would_not_start",
            Cause::NoTestsRan => "no_tests_ran",
            Cause::Contradiction => "contradiction",
            Cause::KilledFromOutside => "killed_from_outside",
            Cause::DifferentSuites => "different_suites",
            Cause::Cancelled => "cancelled",
            Cause::Environment => "environment",
            Cause::OrderDependent => "order_dependent",
            Cause::Truncated => "truncated",
            Cause::PrepareFailed => "prepare_failed",
            Cause::TreeChanged => "tree_changed",
            Cause::NotRun => "not_run",
            Cause::TreeUnreadable => "tree_unreadable",
            Cause::NoReport => "no_report",
        }
    }
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The one answer for a sequence of attempts.
///
/// Every `reason` is at most [`MAX_REASON`](crate::MAX_REASON) bytes and is
/// written for a reader that acts on it: the failing names first, then what
/// happened, then the end of the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The tests passed.
    Pass {
        /// What passed, and anything a reader should still know (leaked
        /// processes, an output only the exit status speaks for).
        reason: String,
    },
    /// The tests failed.
    Fail {
        /// The tests that failed in every attempt that named failures, in
        /// order of first appearance; empty when no attempt named one (a
        /// build error, a collection error, a crash before any result).
        failing: Vec<String>,
        /// The failing names, what happened, and the end of the output.
        reason: String,
    },
    /// Nothing was proved either way.
    Inconclusive {
        /// Why.
        cause: Cause,
        /// One plain sentence of what happened, the names involved, and the
        /// end of the output.
        reason: String,
    },
}

impl Verdict {
    /// The reason, whatever the verdict.
    pub fn reason(&self) -> &str {
        match self {
            Verdict::Pass { reason }
            | Verdict::Fail { reason, .. }
            | Verdict::Inconclusive { reason, .. } => reason,
        }
    }

    /// Whether this is a Pass.
    pub fn is_pass(&self) -> bool {
        match self {
            Verdict::Pass { .. } => true,
            Verdict::Fail { .. } | Verdict::Inconclusive { .. } => false,
        }
    }

    /// The failing tests of a Fail; empty for the other verdicts.
    pub fn failing(&self) -> &[String] {
        match self {
            Verdict::Fail { failing, .. } => failing,
            Verdict::Pass { .. } | Verdict::Inconclusive { .. } => &[],
        }
    }

    /// The cause of an Inconclusive.
    pub fn cause(&self) -> Option<Cause> {
        match self {
            Verdict::Inconclusive { cause, .. } => Some(*cause),
            Verdict::Pass { .. } | Verdict::Fail { .. } => None,
        }
    }

    /// `"pass"`, `"fail"` or `"inconclusive"`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Pass { .. } => "pass",
            Verdict::Fail { .. } => "fail",
            Verdict::Inconclusive { .. } => "inconclusive",
        }
    }
}

/// What a verdict says before its reason is worded: its kind, with a
/// Fail's names and an Inconclusive's cause. Each decision stage
/// (`decide*.rs`) returns it with its conclusion; `words/` writes the
/// reason, and [`Outcome::with_reason`] puts the two together, so the words
/// never choose a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A Pass.
    Pass,
    /// A Fail naming these tests.
    Fail { failing: Vec<String> },
    /// An Inconclusive, and why.
    Inconclusive(Cause),
}

impl Outcome {
    /// The outcome of a verdict decided elsewhere.
    pub(crate) fn of(verdict: &Verdict) -> Outcome {
        match verdict {
            Verdict::Pass { .. } => Outcome::Pass,
            Verdict::Fail { failing, .. } => Outcome::Fail {
                failing: failing.clone(),
            },
            Verdict::Inconclusive { cause, .. } => Outcome::Inconclusive(*cause),
        }
    }

    /// The cause of an Inconclusive.
    pub(crate) fn cause(&self) -> Option<Cause> {
        match self {
            Outcome::Inconclusive(cause) => Some(*cause),
            Outcome::Pass | Outcome::Fail { .. } => None,
        }
    }

    /// The verdict, its reason in words.
    pub(crate) fn with_reason(self, reason: String) -> Verdict {
        match self {
            Outcome::Pass => Verdict::Pass { reason },
            Outcome::Fail { failing } => Verdict::Fail { failing, reason },
            Outcome::Inconclusive(cause) => Verdict::Inconclusive { cause, reason },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cause_names_are_distinct_snake_case() {
        let mut names: Vec<&str> = Cause::ALL.iter().map(|c| c.name()).collect();
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        );
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Cause::ALL.len());
        assert_eq!(Cause::KilledFromOutside.to_string(), "killed_from_outside");
    }

    #[test]
    fn accessors() {
        let fail = Verdict::Fail {
            failing: vec!["a".into()],
            reason: "a".into(),
        };
        assert_eq!(fail.name(), "fail");
        assert_eq!(fail.failing(), ["a"]);
        assert!(!fail.is_pass());
        assert_eq!(fail.cause(), None);
        let inconclusive = Verdict::Inconclusive {
            cause: Cause::Flaky,
            reason: "r".into(),
        };
        assert_eq!(inconclusive.name(), "inconclusive");
        assert!(inconclusive.failing().is_empty());
        assert_eq!(inconclusive.cause(), Some(Cause::Flaky));
        assert_eq!(inconclusive.reason(), "r");
        let pass = Verdict::Pass { reason: "p".into() };
        assert!(pass.is_pass());
        assert_eq!(pass.name(), "pass");
    }
}
