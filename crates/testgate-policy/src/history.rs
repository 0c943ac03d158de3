//! The classification: what each attempt of a sequence counts as (a pass,
//! a failure, ignored because a targeted retry did not show its tests ran,
//! or the end of the sequence: a timeout, a refusal, a contradiction...),
//! as types. The words that describe it are in `words/`.

use std::collections::BTreeSet;

use crate::attempt::{Attempt, Ending, Evidence, Selection};
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
    /// Exit 0, but failing tests named: by the runner's report when
    /// `report`, else by the console.
    Contradiction {
        failing: usize,
        report: bool,
    },
    /// Exit 0, the report names no failure, but the console disagrees.
    ChannelsDisagree {
        disagreement: Disagreement<'a>,
    },
    /// Exit 0, but the output ended before the runner's summary.
    Truncated,
    /// Exit 0, but the runner was asked for its report and wrote no
    /// complete one: its session never ended.
    ReportMissing,
    /// Exit 0, but a report of the runner's own was required and none
    /// could be asked for: the console alone gives no Pass.
    NoReport,
    /// Every failure of the attempt passed on a retry within it (the
    /// runner's own retries, or `go test -count=N`): `named` flaky tests,
    /// or only `reruns` counted.
    FlakyWithin {
        code: i32,
        named: usize,
        reruns: u64,
    },
    /// The environment failed before the tests: the attempt exited with
    /// `code`, or (`None`) testgate ended it at the environment's evidence
    /// (a flood of connections the sandbox refused).
    Environment {
        code: Option<i32>,
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
            | Stop::ReportMissing
            | Stop::NoReport
            | Stop::ChannelsDisagree { .. }
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
            Stop::Contradiction { .. } | Stop::ChannelsDisagree { .. } => Cause::Contradiction,
            Stop::Truncated | Stop::ReportMissing => Cause::Truncated,
            Stop::NoReport => Cause::NoReport,
            Stop::FlakyWithin { .. } => Cause::Flaky,
            Stop::Environment { .. } => Cause::Environment,
        }
    }
}

/// How the console disagrees with an exit status of 0 and a runner's
/// report that names no failure (docs/policy.md, "Three channels must
/// agree"). Counts are compared where the runners state them alike: the
/// failed count (failures and errors), and whether any test ran; the passed
/// count is not (pytest's console counts subtests and unexpected passes
/// that its JUnit report does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Disagreement<'a> {
    /// The console names failing tests the report does not have.
    ConsoleNamesFailures { names: &'a [String] },
    /// The console's summary counts failures the report does not.
    FailedCounts { console: u64, report: u64 },
    /// The console's summary counts tests run, the report none.
    RanCounts { console: u64, report: u64 },
}

/// How the console disagrees with the runner's report that names no
/// failure, if it does; `None` where no report was read.
pub(crate) fn disagreement(attempt: &Attempt) -> Option<Disagreement<'_>> {
    let Evidence::Report {
        console_failing,
        console_counts,
    } = &attempt.evidence
    else {
        return None;
    };
    if !console_failing.is_empty() {
        return Some(Disagreement::ConsoleNamesFailures {
            names: console_failing,
        });
    }
    let console = (*console_counts)?;
    let report = attempt.counts.unwrap_or_default();
    let report_failed = report.failed.unwrap_or(0);
    match console.failed {
        Some(failed) if failed != report_failed => {
            return Some(Disagreement::FailedCounts {
                console: failed,
                report: report_failed,
            });
        }
        Some(_) | None => {}
    }
    let report_ran = report.ran().unwrap_or(0);
    match console.ran() {
        Some(ran) if ran > 0 && report_ran == 0 => Some(Disagreement::RanCounts {
            console: ran,
            report: report_ran,
        }),
        Some(_) | None => None,
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
        Ending::Exited { code: 0 } => exited_zero(attempt),
        &Ending::Exited { code } => exited_nonzero(attempt, code),
        &Ending::Signalled { signal } => match signal::classify(signal) {
            SignalClass::Crash => AttemptClass::Failed {
                crash: Some(signal),
            },
            SignalClass::FromOutside => AttemptClass::Stop(Stop::KilledFromOutside { signal }),
            SignalClass::Sandbox => AttemptClass::Stop(Stop::SystemCallForbidden { signal }),
        },
        &Ending::TimedOut { after } => AttemptClass::Stop(Stop::TimedOut { after }),
        // An attempt testgate ended for what the environment refused (a
        // flood of refused connections) carries that evidence: the
        // environment failed, not the sandbox's start.
        Ending::SandboxRefused { why } => match &attempt.environment {
            Some(env) => AttemptClass::Stop(Stop::Environment {
                code: None,
                what: &env.what,
                fix: &env.fix,
            }),
            None => AttemptClass::Stop(Stop::SandboxRefused { why }),
        },
        Ending::WouldNotStart { why } => AttemptClass::Stop(Stop::WouldNotStart { why }),
        Ending::Cancelled => AttemptClass::Stop(Stop::Cancelled),
        Ending::Lost { why } => AttemptClass::Stop(Stop::Lost { why }),
    }
}

/// What an attempt that exited 0 says (no retry within it hid a
/// failure): passed, unless a failing name, a missing report, the
/// channels, a cut-off output or a run of nothing says otherwise.
fn exited_zero(attempt: &Attempt) -> AttemptClass<'_> {
    if !attempt.failing.is_empty() {
        AttemptClass::Stop(Stop::Contradiction {
            failing: attempt.failing.len(),
            report: matches!(attempt.evidence, Evidence::Report { .. }),
        })
    } else if attempt.evidence == Evidence::ReportMissing {
        // The report is written at the session's end: a run that
        // never wrote it never got there, whatever its console says.
        AttemptClass::Stop(Stop::ReportMissing)
    } else if attempt.evidence == Evidence::Unasked {
        // `--evidence report`: the console alone is not enough.
        AttemptClass::Stop(Stop::NoReport)
    } else if let Some(disagreement) = disagreement(attempt) {
        AttemptClass::Stop(Stop::ChannelsDisagree { disagreement })
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

/// What an attempt that exited with `code`, not 0, says (no retry within
/// it hid a failure): failed when a test is named failing; else the
/// environment, a shell or a run of nothing may explain the exit.
fn exited_nonzero(attempt: &Attempt, code: i32) -> AttemptClass<'_> {
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
            code: Some(code),
            what: &env.what,
            fix: &env.fix,
        })
    } else if matches!(code, 126 | 127) && no_test_evidence(attempt) {
        // Before "no test ran": a shell that found no runner says
        // why nothing ran, targeted attempt or full.
        AttemptClass::Stop(Stop::ShellCouldNotRun { code })
    } else if attempt.no_tests_ran {
        AttemptClass::Stop(Stop::NoTestsRan { code, said: true })
    } else if attempt.coverage_below_threshold && attempt.counts.and_then(|c| c.ran()) == Some(0) {
        // `jest -t nomatch` under a threshold: the runner failed
        // the run for coverage, and its summary counts no test run.
        AttemptClass::Stop(Stop::NoTestsRan { code, said: false })
    } else {
        AttemptClass::Failed { crash: None }
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

    /// An attempt that exited `code` whose report was read: the report's
    /// failing names and counts, and the console's beside them.
    fn beside(code: i32, report: (&[&str], Counts), console: (&[&str], Option<Counts>)) -> Attempt {
        Attempt::new(Ending::Exited { code })
            .with_failing(report.0.iter().copied())
            .with_counts(report.1)
            .with_recognised(true)
            .with_evidence(Evidence::Report {
                console_failing: console.0.iter().map(|n| (*n).to_owned()).collect(),
                console_counts: console.1,
            })
    }

    /// docs/policy.md, "Three channels must agree": each disagreement of
    /// an exit status of 0, the runner's report and the console is a
    /// contradiction or truncated, never a pass; where all three agree it
    /// is a pass, also when the console counts passes the report does not
    /// (pytest's subtests, unexpected passes).
    #[test]
    fn a_pass_needs_the_exit_the_report_and_the_console_to_agree() {
        let green = Counts::new(Some(2), Some(0), Some(0));
        let agree = beside(0, (&[], green), (&[], Some(green)));
        assert_eq!(classify(&agree), AttemptClass::Passed);
        let more_passes = beside(
            0,
            (&[], green),
            (&[], Some(Counts::new(Some(3), Some(0), None))),
        );
        assert_eq!(classify(&more_passes), AttemptClass::Passed);
        let forged = beside(0, (&[], green), (&["test_x.py::test_a"], Some(green)));
        assert!(
            matches!(
                classify(&forged),
                AttemptClass::Stop(Stop::ChannelsDisagree {
                    disagreement: Disagreement::ConsoleNamesFailures { names }
                }) if names == ["test_x.py::test_a"]
            ),
            "{:?}",
            classify(&forged)
        );
        let counted = beside(
            0,
            (&[], green),
            (&[], Some(Counts::new(Some(1), Some(1), None))),
        );
        assert_eq!(
            classify(&counted),
            AttemptClass::Stop(Stop::ChannelsDisagree {
                disagreement: Disagreement::FailedCounts {
                    console: 1,
                    report: 0
                }
            })
        );
        let empty = Counts::new(Some(0), Some(0), Some(0));
        let ran = beside(0, (&[], empty), (&[], Some(green)));
        assert_eq!(
            classify(&ran),
            AttemptClass::Stop(Stop::ChannelsDisagree {
                disagreement: Disagreement::RanCounts {
                    console: 2,
                    report: 0
                }
            })
        );
        let report_fails = beside(0, (&["r"], green), (&[], Some(green)));
        assert_eq!(
            classify(&report_fails),
            AttemptClass::Stop(Stop::Contradiction {
                failing: 1,
                report: true
            })
        );
        let missing = Attempt::new(Ending::Exited { code: 0 })
            .with_counts(green)
            .with_recognised(true)
            .with_evidence(Evidence::ReportMissing);
        assert_eq!(classify(&missing), AttemptClass::Stop(Stop::ReportMissing));
        assert_eq!(Stop::ReportMissing.cause(), Cause::Truncated);
        // `--evidence report`: a green console with no report asked for is
        // no Pass; a failure it shows is still a failure.
        let unasked = Attempt::new(Ending::Exited { code: 0 })
            .with_counts(green)
            .with_recognised(true)
            .with_evidence(Evidence::Unasked);
        assert_eq!(classify(&unasked), AttemptClass::Stop(Stop::NoReport));
        assert_eq!(Stop::NoReport.cause(), Cause::NoReport);
        let unasked_failed = Attempt::new(Ending::Exited { code: 1 })
            .with_failing(["t"])
            .with_recognised(true)
            .with_evidence(Evidence::Unasked);
        assert_eq!(
            classify(&unasked_failed),
            AttemptClass::Failed { crash: None }
        );
        // Where the exit status says failed, the report's names are the
        // failures; a name only the console printed is none.
        let failed = beside(1, (&["r"], green), (&["c"], Some(green)));
        assert_eq!(classify(&failed), AttemptClass::Failed { crash: None });
        assert_eq!(failed.failing, ["r"]);
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
