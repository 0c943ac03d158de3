//! The classification: what each attempt of a sequence counts as (a pass,
//! a failure, ignored because a targeted retry did not show its tests ran,
//! or the end of the sequence: a timeout, a refusal, a contradiction...),
//! as types. The words that describe it are in `words/`.

use std::collections::BTreeSet;

use crate::attempt::{Attempt, Ending, Selection};
use crate::signal::{self, SignalClass};
use crate::verdict::Cause;

/// What one attempt says, on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AttemptClass<'a> {
    /// Exit 0, no failing names, and tests ran.
    Passed,
    /// A non-zero exit or a crash: the code under test failed. `crash` is
    /// the signal when it crashed.
    Failed { crash: Option<i32> },
    /// Nothing more can be learnt from this sequence.
    Stop(Stop<'a>),
}

/// Why an attempt ends its sequence, with what the reason says about it.
/// Each variant is one row of docs/policy.md's table, so every pairing of
/// a cause with an ending that can be worded can also be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop<'a> {
    TimedOut {
        after: std::time::Duration,
    },
    SandboxRefused {
        why: &'a str,
    },
    /// Ended by SIGSYS: the sandbox's seccomp filter.
    SystemCallForbidden {
        signal: i32,
    },
    WouldNotStart {
        why: &'a str,
    },
    /// Exit 126 or 127 with no test evidence: a shell that could not find
    /// or execute the runner.
    ShellCouldNotRun {
        code: i32,
    },
    KilledFromOutside {
        signal: i32,
    },
    Cancelled,
    /// testgate lost the attempt after it started.
    Lost {
        why: &'a str,
    },
    /// The runner said that no test ran (`said`), or its summary counts
    /// none.
    NoTestsRan {
        code: i32,
        said: bool,
    },
    /// Exit 0, but failing tests named.
    Contradiction {
        failing: usize,
    },
    /// Exit 0, but the output ended before the runner's summary.
    Truncated,
    /// Every failure of the attempt passed on a retry within it (the
    /// runner's own retries, or `go test -count=N`): `named` flaky tests,
    /// or only `reruns` counted.
    FlakyWithin {
        code: i32,
        named: usize,
        reruns: u64,
    },
    /// The environment failed before the tests.
    Environment {
        code: i32,
        what: &'a str,
        fix: &'a str,
    },
}

impl Stop<'_> {
    /// Whether nothing about any test can be read after this stop (a
    /// timeout, a refusal, a truncated output…): the rest (no test ran, exit
    /// 0 with failures, the runner's own retries) leave each test's outcome
    /// to say what it says. Grading and stress end their sequences here.
    pub(crate) fn proves_nothing_of_any_test(self) -> bool {
        match self {
            Stop::TimedOut { .. }
            | Stop::SandboxRefused { .. }
            | Stop::SystemCallForbidden { .. }
            | Stop::WouldNotStart { .. }
            | Stop::ShellCouldNotRun { .. }
            | Stop::KilledFromOutside { .. }
            | Stop::Cancelled
            | Stop::Lost { .. }
            | Stop::Truncated
            | Stop::Environment { .. } => true,
            Stop::NoTestsRan { .. } | Stop::Contradiction { .. } | Stop::FlakyWithin { .. } => {
                false
            }
        }
    }

    pub(crate) fn cause(self) -> Cause {
        match self {
            Stop::TimedOut { .. } => Cause::TimedOut,
            Stop::SandboxRefused { .. } | Stop::SystemCallForbidden { .. } => Cause::SandboxRefused,
            Stop::WouldNotStart { .. } | Stop::ShellCouldNotRun { .. } => Cause::WouldNotStart,
            Stop::KilledFromOutside { .. } => Cause::KilledFromOutside,
            Stop::Cancelled | Stop::Lost { .. } => Cause::Cancelled,
            Stop::NoTestsRan { .. } => Cause::NoTestsRan,
            Stop::Contradiction { .. } => Cause::Contradiction,
            Stop::Truncated => Cause::Truncated,
            Stop::FlakyWithin { .. } => Cause::Flaky,
            Stop::Environment { .. } => Cause::Environment,
        }
    }
}

/// What one attempt counts as within its sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CountsAs {
    Pass,
    Fail {
        crash: Option<i32>,
    },
    /// A targeted retry that is not evidence, and why.
    Ignored {
        why: NotEvidence,
    },
}

/// Why a targeted attempt is not evidence: it did not show that it ran the
/// tests it selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotEvidence {
    /// The runner said that no test ran, or its summary counts none.
    NoTestRan,
    /// Its output stated no test counts.
    NoCounts,
    /// It ran fewer tests than it selected.
    RanFewer { ran: u64, selected: usize },
}

/// One attempt with its 1-based number and what it counts as.
#[derive(Debug, Clone)]
pub(crate) struct Classified<'a> {
    pub(crate) number: usize,
    pub(crate) attempt: &'a Attempt,
    pub(crate) counts_as: CountsAs,
}

impl Classified<'_> {
    pub(crate) fn is_evidence(&self) -> bool {
        match self.counts_as {
            CountsAs::Pass | CountsAs::Fail { .. } => true,
            CountsAs::Ignored { .. } => false,
        }
    }

    pub(crate) fn is_pass(&self) -> bool {
        match self.counts_as {
            CountsAs::Pass => true,
            CountsAs::Fail { .. } | CountsAs::Ignored { .. } => false,
        }
    }

    pub(crate) fn is_fail(&self) -> bool {
        match self.counts_as {
            CountsAs::Fail { .. } => true,
            CountsAs::Pass | CountsAs::Ignored { .. } => false,
        }
    }

    pub(crate) fn is_full(&self) -> bool {
        is_full(self.attempt)
    }
}

pub(crate) fn is_full(attempt: &Attempt) -> bool {
    match attempt.selection {
        Selection::Full => true,
        Selection::Only(_) => false,
    }
}

/// Exit 0 with nothing run: the runner said so, or its summary counts no
/// test run.
fn ran_nothing(attempt: &Attempt) -> bool {
    attempt.no_tests_ran || attempt.counts.and_then(|c| c.ran()) == Some(0)
}

/// No sign that any test ran: no name, and no count of a test run.
fn no_test_evidence(attempt: &Attempt) -> bool {
    attempt.failing.is_empty() && attempt.counts.and_then(|c| c.ran()).unwrap_or(0) == 0
}

/// The number of tests that passed when the runner failed a run in which
/// every counted test passed and it said that coverage was below its
/// threshold; `None` otherwise.
pub(crate) fn coverage_failed_the_run(attempt: &Attempt) -> Option<u64> {
    if !attempt.coverage_below_threshold || !attempt.failing.is_empty() {
        return None;
    }
    let counts = attempt.counts?;
    match (counts.passed, counts.failed) {
        (Some(passed), None | Some(0)) if passed > 0 => Some(passed),
        _ => None,
    }
}

/// Whether the attempt's failures all passed on a retry within it, and
/// it showed a retry at all: a retry that hid a failure.
fn flaky_within(attempt: &Attempt) -> bool {
    let retried = !attempt.flaky_within.is_empty() || attempt.reruns > 0;
    let flaky: BTreeSet<&str> = attempt.flaky_within.iter().map(String::as_str).collect();
    retried
        && attempt
            .failing
            .iter()
            .all(|name| flaky.contains(name.as_str()))
}

/// What `attempt` says on its own. This is the table of docs/policy.md.
pub(crate) fn classify(attempt: &Attempt) -> AttemptClass<'_> {
    match &attempt.ending {
        &Ending::Exited { code }
            if flaky_within(attempt) && (code == 0 || !attempt.failing.is_empty()) =>
        {
            // Before a contradiction (nextest exits 0 and lists the flaky
            // test failing) and before a failure (go exits 1 when one run
            // of `-count=3` failed).
            AttemptClass::Stop(Stop::FlakyWithin {
                code,
                named: attempt.flaky_within.len(),
                reruns: attempt.reruns,
            })
        }
        Ending::Exited { code: 0 } => {
            if !attempt.failing.is_empty() {
                AttemptClass::Stop(Stop::Contradiction {
                    failing: attempt.failing.len(),
                })
            } else if attempt.truncated {
                // The exit status of a run that never reached its summary
                // speaks for nothing: a test may have exited the runner.
                AttemptClass::Stop(Stop::Truncated)
            } else if ran_nothing(attempt) {
                AttemptClass::Stop(Stop::NoTestsRan {
                    code: 0,
                    said: attempt.no_tests_ran,
                })
            } else {
                AttemptClass::Passed
            }
        }
        &Ending::Exited { code } => {
            // A named failing test is evidence about the code, whatever else
            // the output says; without one, the environment, a runner that
            // said no test ran (pytest's exit 5) or a shell that found no
            // runner explain the exit, and nothing was proved either way.
            if !attempt.failing.is_empty() {
                AttemptClass::Failed { crash: None }
            } else if !is_full(attempt) && coverage_failed_the_run(attempt).is_some() {
                // A subset of the tests can never meet a global coverage
                // threshold: the selected tests passed.
                AttemptClass::Passed
            } else if let Some(env) = &attempt.environment {
                AttemptClass::Stop(Stop::Environment {
                    code,
                    what: &env.what,
                    fix: &env.fix,
                })
            } else if matches!(code, 126 | 127) && no_test_evidence(attempt) {
                // Before "no test ran": a shell that found no runner says
                // why nothing ran, targeted attempt or full.
                AttemptClass::Stop(Stop::ShellCouldNotRun { code })
            } else if attempt.no_tests_ran {
                AttemptClass::Stop(Stop::NoTestsRan { code, said: true })
            } else if attempt.coverage_below_threshold
                && attempt.counts.and_then(|c| c.ran()) == Some(0)
            {
                // `jest -t nomatch` under a threshold: the runner failed
                // the run for coverage, and its summary counts no test run.
                AttemptClass::Stop(Stop::NoTestsRan { code, said: false })
            } else {
                AttemptClass::Failed { crash: None }
            }
        }
        &Ending::Signalled { signal } => match signal::classify(signal) {
            SignalClass::Crash => AttemptClass::Failed {
                crash: Some(signal),
            },
            SignalClass::FromOutside => AttemptClass::Stop(Stop::KilledFromOutside { signal }),
            SignalClass::Sandbox => AttemptClass::Stop(Stop::SystemCallForbidden { signal }),
        },
        &Ending::TimedOut { after } => AttemptClass::Stop(Stop::TimedOut { after }),
        Ending::SandboxRefused { why } => AttemptClass::Stop(Stop::SandboxRefused { why }),
        Ending::WouldNotStart { why } => AttemptClass::Stop(Stop::WouldNotStart { why }),
        Ending::Cancelled => AttemptClass::Stop(Stop::Cancelled),
        Ending::Lost { why } => AttemptClass::Stop(Stop::Lost { why }),
    }
}

/// Why a targeted attempt is not evidence, or `None` when it is (and for
/// full attempts, which always are).
pub(crate) fn not_evidence(attempt: &Attempt) -> Option<NotEvidence> {
    let Selection::Only(names) = &attempt.selection else {
        return None;
    };
    let selected = names.iter().collect::<BTreeSet<_>>().len();
    if attempt.no_tests_ran {
        return Some(NotEvidence::NoTestRan);
    }
    match attempt.counts.and_then(|c| c.ran()) {
        None => Some(NotEvidence::NoCounts),
        Some(ran) if ran < selected as u64 => Some(NotEvidence::RanFewer { ran, selected }),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Counts;

    #[test]
    fn exit_zero_with_zero_counted_ran_nothing() {
        let a = Attempt::new(Ending::Exited { code: 0 }).with_counts(Counts::new(
            Some(0),
            Some(0),
            Some(4),
        ));
        assert_eq!(
            classify(&a),
            AttemptClass::Stop(Stop::NoTestsRan {
                code: 0,
                said: false
            })
        );
        // A non-zero exit with zero counted is a failure before the tests
        // (a build error): the runner did not say that no test ran.
        let b = Attempt::new(Ending::Exited { code: 1 }).with_counts(Counts::new(
            Some(0),
            Some(0),
            None,
        ));
        assert_eq!(classify(&b), AttemptClass::Failed { crash: None });
    }

    #[test]
    fn targeted_evidence_needs_counts_covering_the_selection() {
        let only = Selection::Only(vec!["a".into(), "b".into(), "a".into()]);
        let base = Attempt::new(Ending::Exited { code: 0 }).with_selection(only);
        assert!(not_evidence(&base).is_some());
        let short = base.clone().with_counts(Counts::new(Some(1), None, None));
        assert_eq!(
            not_evidence(&short),
            Some(NotEvidence::RanFewer {
                ran: 1,
                selected: 2
            })
        );
        let enough = base
            .clone()
            .with_counts(Counts::new(Some(1), Some(1), None));
        assert_eq!(not_evidence(&enough), None);
        let said = enough.with_no_tests_ran(true);
        assert!(not_evidence(&said).is_some());
        assert_eq!(
            not_evidence(&Attempt::new(Ending::Exited { code: 1 })),
            None
        );
    }
}
