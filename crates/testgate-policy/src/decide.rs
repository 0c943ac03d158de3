//! The decision over a sequence of attempts, as data: the conclusion (what
//! the attempts prove, with what it rests on), or the selection the next
//! attempt should run and why.
//!
//! One function, [`decide`], serves both [`Policy::step`](crate::Policy::step)
//! (a sequence in progress) and [`Policy::verdict`](crate::Policy::verdict)
//! (a finished one), so the two can never disagree. It writes no English:
//! `words/` renders what it decides.

use crate::attempt::{Attempt, Ending, Selection};
use crate::findings::{self, Findings, OrderDependence, StoppedBy, every_time, tally};
use crate::history::{self, AttemptClass, Classified, CountsAs, NotEvidence, Stop};
use crate::policy::{MAX_TARGETED, Policy, Rerun};
use crate::verdict::{Cause, Outcome};

/// The attempts of a sequence as the decision classified them, up to where
/// it was reached.
#[derive(Debug, Clone)]
pub(crate) struct Sequence<'a> {
    /// Every attempt given.
    pub(crate) attempts: &'a [Attempt],
    /// The attempts classified, in order; an attempt that stopped the
    /// sequence is not among them.
    pub(crate) records: Vec<Classified<'a>>,
    /// Whether any attempt given was a targeted retry.
    pub(crate) any_targeted: bool,
}

impl<'a> Sequence<'a> {
    /// The records that are evidence (passes and failures), in order.
    pub(crate) fn evidence(&self) -> Vec<&Classified<'a>> {
        self.records.iter().filter(|r| r.is_evidence()).collect()
    }
}

/// The policy's decision on a sequence.
#[derive(Debug, Clone)]
pub(crate) enum Decision<'a> {
    /// The answer is known.
    Known(Conclusion<'a>),
    /// One more attempt must run this selection.
    Need {
        selection: Selection,
        /// Why it runs what it runs, when that is not the obvious.
        why: Option<WhyRetry<'a>>,
    },
}

/// Why a retry runs what it runs.
#[derive(Debug, Clone)]
pub(crate) enum WhyRetry<'a> {
    /// This targeted retry was not evidence, so the retry runs the full
    /// suite.
    TargetedNotEvidence { ignored: Classified<'a> },
    /// The failing attempts named no test.
    NoNames,
    /// More tests failed than a targeted retry runs.
    TooMany { failed: usize },
    /// The failing tests passed alone in attempt `alone`: one more full run
    /// tells order dependence from flakiness.
    ConfirmOrder { alone: usize },
}

/// What a finished (or decided) sequence proves.
#[derive(Debug, Clone)]
pub(crate) enum Conclusion<'a> {
    /// Attempt `at` ended the sequence; the records are those before it.
    Stopped {
        stop: Stop<'a>,
        attempt: &'a Attempt,
        at: usize,
    },
    /// Two attempts ran the same selection, ended the same way, and
    /// counted different numbers of tests: `at` the later of them, compared
    /// with the records before it.
    DifferentSuites {
        earlier: Classified<'a>,
        at: Classified<'a>,
    },
    /// No attempt was evidence.
    NothingRan,
    /// Every evidence attempt passed.
    Passed,
    /// Every evidence attempt failed, some named tests, and no name failed
    /// in all of them. `tally` counts the names over the failures.
    NoCommonFailure { tally: Vec<(&'a str, usize)> },
    /// Every evidence attempt failed: `every` failed in all of those that
    /// named failures; `tally` counts every name.
    Failed {
        every: Vec<&'a str>,
        tally: Vec<(&'a str, usize)>,
    },
    /// Some evidence attempts passed and some failed, and order dependence
    /// was not shown. `tally` counts the names over the failures.
    Disagreed {
        why: Disagreement,
        tally: Vec<(&'a str, usize)>,
    },
    /// The failing tests failed in every full run, passed alone in attempt
    /// `alone`, and failed again in full attempt `again`. `every` and
    /// `tally` are over the full runs (`out_of` of them); `last` is the
    /// failure whose output ends the reason.
    OrderDependent {
        every: Vec<&'a str>,
        tally: Vec<(&'a str, usize)>,
        out_of: usize,
        alone: usize,
        again: usize,
        last: Classified<'a>,
    },
}

/// Why a disagreement is flakiness and not order dependence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Disagreement {
    /// The pattern of order dependence (full runs fail, the failing tests
    /// pass alone) is not there.
    NotOrder,
    /// The failing tests passed alone, but the full suite was not run again.
    NotConfirmed,
    /// The full suite ran again, but no test failed in every full run.
    NoCommonFullFailure,
}

/// A decision with the classified sequence it rests on.
#[derive(Debug, Clone)]
pub(crate) struct Decided<'a> {
    pub(crate) sequence: Sequence<'a>,
    pub(crate) decision: Decision<'a>,
}

impl Conclusion<'_> {
    /// The verdict's kind and cause: what the conclusion proves, before
    /// any word.
    pub(crate) fn outcome(&self) -> Outcome {
        match self {
            Conclusion::Stopped { stop, .. } => Outcome::Inconclusive(stop.cause()),
            Conclusion::DifferentSuites { .. } => Outcome::Inconclusive(Cause::DifferentSuites),
            Conclusion::NothingRan => Outcome::Inconclusive(Cause::NoTestsRan),
            Conclusion::Passed => Outcome::Pass,
            Conclusion::NoCommonFailure { .. } | Conclusion::Disagreed { .. } => {
                Outcome::Inconclusive(Cause::Flaky)
            }
            Conclusion::Failed { every, .. } => Outcome::Fail {
                failing: every.iter().map(|n| (*n).to_owned()).collect(),
            },
            Conclusion::OrderDependent { .. } => Outcome::Inconclusive(Cause::OrderDependent),
        }
    }
}

impl Decided<'_> {
    /// The outcome of the sequence. A finished sequence is always
    /// [`Decision::Known`]; one that still needs an attempt has proved
    /// nothing yet (`no_tests_ran`).
    pub(crate) fn outcome(&self) -> Outcome {
        match &self.decision {
            Decision::Known(conclusion) => conclusion.outcome(),
            Decision::Need { .. } => Outcome::Inconclusive(Cause::NoTestsRan),
        }
    }

    /// What the conclusion rests on, as data: its names, its stop, its
    /// order dependence and its tally, as the decision computed them.
    pub(crate) fn findings(&self) -> Findings {
        let sequence = &self.sequence;
        let (every, tallied, stopped_by, order): (&[&str], _, _, _) = match &self.decision {
            Decision::Known(Conclusion::Stopped { stop, at, .. }) => {
                let stopped_by = StoppedBy {
                    attempt: *at,
                    cause: stop.cause(),
                };
                (&[], None, Some(stopped_by), None)
            }
            Decision::Known(Conclusion::Failed { every, tally }) => {
                (every, Some(tally), None, None)
            }
            Decision::Known(
                Conclusion::NoCommonFailure { tally } | Conclusion::Disagreed { tally, .. },
            ) => (&[], Some(tally), None, None),
            Decision::Known(Conclusion::OrderDependent {
                every,
                tally,
                alone,
                again,
                ..
            }) => {
                let order = OrderDependence {
                    names: every.iter().map(|n| (*n).to_owned()).collect(),
                    passed_alone_in: *alone,
                    failed_again_in: *again,
                };
                (every, Some(tally), None, Some(order))
            }
            Decision::Known(
                Conclusion::DifferentSuites { .. } | Conclusion::NothingRan | Conclusion::Passed,
            )
            | Decision::Need { .. } => (&[], None, None, None),
        };
        // The failures the names are counted over: for order dependence,
        // the full runs.
        let failures: Vec<&Attempt> = sequence
            .evidence()
            .into_iter()
            .filter(|r| r.is_fail() && (order.is_none() || r.is_full()))
            .map(|r| r.attempt)
            .collect();
        let tally = match tallied {
            Some(tally) => tally.clone(),
            None => tally(failures.iter().copied()),
        };
        Findings {
            always_failed: every.iter().map(|n| (*n).to_owned()).collect(),
            sometimes_failed: findings::sometimes(&tally, every, &failures),
            order_dependence: order,
            stopped_by,
            notes: findings::notes(sequence.attempts),
        }
    }
}

/// Decides on `attempts`. With `finished`, the sequence ends here whatever
/// is left undecided, and the answer is always [`Decision::Known`].
pub(crate) fn decide<'a>(policy: &Policy, attempts: &'a [Attempt], finished: bool) -> Decided<'a> {
    // The bound holds for any history, not only for ones this driver made.
    let finished = finished || attempts.len() as u64 >= policy.max_attempts();
    let mut sequence = Sequence {
        attempts,
        records: Vec::with_capacity(attempts.len()),
        any_targeted: attempts.iter().any(|a| !history::is_full(a)),
    };
    let decision = decide_on(policy, &mut sequence, finished);
    Decided { sequence, decision }
}

fn decide_on<'a>(policy: &Policy, sequence: &mut Sequence<'a>, finished: bool) -> Decision<'a> {
    let attempts = sequence.attempts;
    for (index, attempt) in attempts.iter().enumerate() {
        let number = index + 1;
        let counts_as = match history::classify(attempt) {
            // A targeted retry where no test ran is a retry that did not
            // select what it meant to: not evidence, not an answer.
            AttemptClass::Stop(Stop::NoTestsRan { .. }) if !history::is_full(attempt) => {
                CountsAs::Ignored {
                    why: NotEvidence::NoTestRan,
                }
            }
            AttemptClass::Stop(stop) => {
                return Decision::Known(Conclusion::Stopped {
                    stop,
                    attempt,
                    at: number,
                });
            }
            AttemptClass::Passed => match history::not_evidence(attempt) {
                Some(why) => CountsAs::Ignored { why },
                None => CountsAs::Pass,
            },
            AttemptClass::Failed { crash } => match history::not_evidence(attempt) {
                Some(why) => CountsAs::Ignored { why },
                None => CountsAs::Fail { crash },
            },
        };
        let record = Classified {
            number,
            attempt,
            counts_as,
        };
        // Two passes of one selection that ran different numbers of tests
        // cannot be compared. Failures are compared later, by their names:
        // runners that stop at the first failure (nextest's fail-fast,
        // `pytest -x`, `--lf`, `jest --bail`) run a different number of
        // tests every time, and names that agree still decide.
        if record.is_pass()
            && let Some(earlier) = different_suite(&sequence.records, &record)
        {
            return Decision::Known(Conclusion::DifferentSuites {
                earlier: earlier.clone(),
                at: record,
            });
        }
        sequence.records.push(record);
    }

    let sequence: &Sequence<'a> = sequence;
    let evidence = sequence.evidence();
    if evidence.is_empty() {
        if !finished {
            let why = sequence
                .records
                .last()
                .map(|ignored| WhyRetry::TargetedNotEvidence {
                    ignored: ignored.clone(),
                });
            return Decision::Need {
                selection: Selection::Full,
                why,
            };
        }
        return Decision::Known(Conclusion::NothingRan);
    }

    let passed = evidence.iter().any(|r| r.is_pass());
    let failed = evidence.iter().any(|r| r.is_fail());
    match (passed, failed) {
        (true, false) => Decision::Known(Conclusion::Passed),
        (false, true) | (false, false) => all_failed(policy, &evidence, sequence, finished),
        (true, true) => disagreed(&evidence, finished),
    }
}

/// The earlier evidence attempt that ran the same selection as `record`,
/// ended the same way (both passed or both failed), but ran a different
/// number of tests. Only attempts that exited count: a crash or a kill cuts
/// the counts short. A failing attempt is never compared with a passing
/// one: runners stop early on failure (cargo test at the first failing
/// binary, `pytest -x`, `jest --bail`), and the two disagree anyway.
fn different_suite<'r, 'a>(
    records: &'r [Classified<'a>],
    record: &Classified<'a>,
) -> Option<&'r Classified<'a>> {
    records
        .iter()
        .find(|earlier| same_suite_differs(earlier, record))
}

/// Whether two attempts ran the same selection, ended the same way, and
/// both exited with stated counts that differ.
fn same_suite_differs(earlier: &Classified<'_>, record: &Classified<'_>) -> bool {
    fn ran_of(record: &Classified<'_>) -> Option<u64> {
        match record.attempt.ending {
            Ending::Exited { .. } if record.is_evidence() => {
                record.attempt.counts.and_then(|c| c.ran())
            }
            Ending::Exited { .. }
            | Ending::Signalled { .. }
            | Ending::TimedOut { .. }
            | Ending::SandboxRefused { .. }
            | Ending::WouldNotStart { .. }
            | Ending::Cancelled
            | Ending::Lost { .. } => None,
        }
    }
    earlier.attempt.selection.same_as(&record.attempt.selection)
        && earlier.is_pass() == record.is_pass()
        && matches!((ran_of(earlier), ran_of(record)), (Some(a), Some(b)) if a != b)
}

/// The selection of the next retry when every attempt so far failed.
fn next_retry<'a>(policy: &Policy, records: &[Classified<'a>], every: &[&str]) -> Decision<'a> {
    let need = |selection, why: Option<WhyRetry<'a>>| Decision::Need { selection, why };
    match policy.rerun {
        Rerun::All => need(Selection::Full, None),
        Rerun::Failed => {
            // A runner whose filter did not run the names once will not run
            // them the next time either: from then on, full retries only.
            if let Some(ignored) = records.iter().find(|r| !r.is_evidence()) {
                return need(
                    Selection::Full,
                    Some(WhyRetry::TargetedNotEvidence {
                        ignored: ignored.clone(),
                    }),
                );
            }
            if every.is_empty() {
                return need(Selection::Full, Some(WhyRetry::NoNames));
            }
            if every.len() > MAX_TARGETED {
                return need(
                    Selection::Full,
                    Some(WhyRetry::TooMany {
                        failed: every.len(),
                    }),
                );
            }
            need(
                Selection::Only(every.iter().map(|n| (*n).to_owned()).collect()),
                None,
            )
        }
    }
}

/// Every evidence attempt failed.
fn all_failed<'a>(
    policy: &Policy,
    evidence: &[&Classified<'a>],
    sequence: &Sequence<'a>,
    finished: bool,
) -> Decision<'a> {
    let failures: Vec<&'a Attempt> = evidence.iter().map(|r| r.attempt).collect();
    let every = every_time(&failures);
    let named = failures.iter().any(|a| !a.failing.is_empty());

    if every.is_empty() {
        // No name failed every time, and two failures of one selection ran
        // different numbers of tests: their names cannot be compared.
        let pair = evidence.iter().enumerate().find_map(|(i, record)| {
            evidence[..i]
                .iter()
                .find(|earlier| same_suite_differs(earlier, record))
                .map(|earlier| (*earlier, *record))
        });
        if let Some((earlier, record)) = pair {
            return Decision::Known(Conclusion::DifferentSuites {
                earlier: earlier.clone(),
                at: record.clone(),
            });
        }
    }
    let tally = tally(failures.iter().copied());
    if named && every.is_empty() {
        // No name can fail every time any more: the answer is known now.
        return Decision::Known(Conclusion::NoCommonFailure { tally });
    }
    if !finished && (evidence.len() as u64) <= u64::from(policy.retries) {
        return next_retry(policy, &sequence.records, &every);
    }
    Decision::Known(Conclusion::Failed { every, tally })
}

/// Some evidence attempts passed and some failed.
fn disagreed<'a>(evidence: &[&Classified<'a>], finished: bool) -> Decision<'a> {
    let flaky = |why| {
        let failures = evidence.iter().filter(|r| r.is_fail()).map(|r| r.attempt);
        Decision::Known(Conclusion::Disagreed {
            why,
            tally: tally(failures),
        })
    };

    // Order dependence: the failing tests passed when run alone, and every
    // full run failed. Only a full run after the pass tells "they fail
    // alongside other tests" from "they fail at random".
    let fulls_all_failed = evidence.iter().filter(|r| r.is_full()).all(|r| r.is_fail());
    let targeted_all_passed = evidence
        .iter()
        .filter(|r| !r.is_full())
        .all(|r| r.is_pass());
    let Some(first_pass) = evidence.iter().position(|r| r.is_pass()) else {
        return flaky(Disagreement::NotOrder);
    };
    let failed_first = evidence[..first_pass]
        .iter()
        .any(|r| r.is_full() && r.is_fail());
    if !(fulls_all_failed && targeted_all_passed && failed_first) {
        return flaky(Disagreement::NotOrder);
    }
    let alone = evidence[first_pass];
    let confirmations: Vec<&Classified<'_>> = evidence[first_pass + 1..]
        .iter()
        .filter(|r| r.is_full())
        .copied()
        .collect();
    let Some(again) = confirmations.first() else {
        if !finished {
            return Decision::Need {
                selection: Selection::Full,
                why: Some(WhyRetry::ConfirmOrder {
                    alone: alone.number,
                }),
            };
        }
        return flaky(Disagreement::NotConfirmed);
    };

    let fulls: Vec<&'a Attempt> = evidence
        .iter()
        .filter(|r| r.is_full())
        .map(|r| r.attempt)
        .collect();
    let every = every_time(&fulls);
    if every.is_empty() {
        return flaky(Disagreement::NoCommonFullFailure);
    }
    let last_failure = evidence.iter().rev().find(|r| r.is_fail()).copied();
    let last = last_failure.unwrap_or(again);
    Decision::Known(Conclusion::OrderDependent {
        every,
        tally: tally(fulls.iter().copied()),
        out_of: fulls.len(),
        alone: alone.number,
        again: again.number,
        last: last.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Counts;
    use crate::verdict::Cause;
    use crate::words::MAX_REASON;

    fn exited(code: i32, failing: &[&str], ran: u64) -> Attempt {
        Attempt::new(Ending::Exited { code })
            .with_failing(failing.iter().copied())
            .with_counts(Counts::new(Some(ran), Some(failing.len() as u64), None))
            .with_recognised(true)
    }

    /// The decision is data: each shape of sequence gives its conclusion
    /// (or the retry and why) with what it rests on, before any word.
    #[test]
    fn each_sequence_gets_its_typed_conclusion() {
        let (pass, a) = (exited(0, &[], 3), exited(1, &["a"], 3));
        let known =
            |policy: Policy, attempts: &[Attempt]| match decide(&policy, attempts, true).decision {
                Decision::Known(conclusion) => format!("{conclusion:?}"),
                Decision::Need { .. } => "need".to_owned(),
            };
        assert!(known(Policy::new(0), std::slice::from_ref(&pass)).starts_with("Passed"));
        assert!(known(Policy::new(0), &[]).starts_with("NothingRan"));
        let timed_out = Attempt::new(Ending::TimedOut {
            after: std::time::Duration::from_secs(1),
        });
        assert!(known(Policy::new(2), &[a.clone(), timed_out]).starts_with("Stopped"));
        let failed = known(Policy::new(1), &[a.clone(), exited(1, &["a", "b"], 3)]);
        assert!(failed.starts_with("Failed { every: [\"a\"]"), "{failed}");
        let flaky = known(Policy::new(1), &[a.clone(), pass.clone()]);
        assert!(flaky.starts_with("Disagreed { why: NotOrder"), "{flaky}");
        let none_common = known(Policy::new(1), &[a.clone(), exited(1, &["b"], 3)]);
        assert!(none_common.starts_with("NoCommonFailure"), "{none_common}");
        let suites = known(Policy::new(1), &[pass.clone(), exited(0, &[], 4)]);
        assert!(suites.starts_with("DifferentSuites"), "{suites}");
        // A retry, and why it runs what it runs.
        fn need(attempts: &[Attempt]) -> (Selection, Option<WhyRetry<'_>>) {
            let Decision::Need { selection, why } =
                decide(&Policy::new(2).with_rerun(Rerun::Failed), attempts, false).decision
            else {
                panic!("no retry after {attempts:?}");
            };
            (selection, why)
        }
        let (selection, why) = need(std::slice::from_ref(&a));
        assert_eq!(selection, Selection::Only(vec!["a".into()]));
        assert!(why.is_none());
        let alone = exited(0, &[], 1).with_selection(Selection::Only(vec!["a".into()]));
        let confirming = [a.clone(), alone];
        let (selection, why) = need(&confirming);
        assert_eq!(selection, Selection::Full);
        assert!(matches!(why, Some(WhyRetry::ConfirmOrder { alone: 2 })));
        let many: Vec<String> = (0..=MAX_TARGETED).map(|i| format!("t{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let too_many = [exited(1, &many, 20)];
        let (selection, why) = need(&too_many);
        assert_eq!(selection, Selection::Full);
        assert!(
            matches!(why, Some(WhyRetry::TooMany { failed }) if failed == MAX_TARGETED + 1),
            "{why:?}"
        );
    }

    /// The findings come from the conclusion: two passes of one selection
    /// that ran different numbers of tests end the sequence there, so an
    /// attempt after them (only in a history the driver never makes)
    /// neither stops it nor adds names, as the verdict's reason says.
    #[test]
    fn the_findings_rest_on_what_the_conclusion_rests_on() {
        let timed_out = Attempt::new(Ending::TimedOut {
            after: std::time::Duration::from_secs(1),
        });
        let attempts = [
            exited(0, &[], 3),
            exited(0, &[], 4),
            exited(1, &["a"], 4),
            exited(1, &["b"], 4),
            timed_out,
        ];
        let policy = Policy::new(4);
        let (verdict, findings) = policy.verdict_with_findings(&attempts);
        assert_eq!(verdict.cause(), Some(Cause::DifferentSuites));
        assert_eq!(findings.stopped_by, None);
        assert!(findings.sometimes_failed.is_empty(), "{findings:?}");
        // Counted over every attempt (`Findings::of`, for a verdict given
        // outside a driver), the timeout and the two failures after the
        // end would show.
        let counted = crate::Findings::of(&attempts, &verdict);
        assert_eq!(counted.stopped_by.map(|s| s.attempt), Some(5));
        assert_eq!(counted.sometimes_failed.len(), 2, "{counted:?}");
    }

    /// fuzz/policy_driver: a confirming full run that fails many more tests
    /// than the first filled the reason with "failed only sometimes" names
    /// and cut the sentence that says the tests passed when run alone.
    #[test]
    fn order_dependence_is_said_however_many_names_failed() {
        let policy = Policy::new(2).with_rerun(Rerun::Failed);
        let many: Vec<String> = (0..200)
            .map(|i| format!("tests::unrelated::{}_{i}", "x".repeat(100)))
            .collect();
        let attempts = [
            Attempt::new(Ending::Exited { code: 101 })
                .with_failing(["tests::a"])
                .with_counts(Counts::new(Some(200), Some(1), None))
                .with_recognised(true),
            Attempt::new(Ending::Exited { code: 0 })
                .with_selection(Selection::Only(vec!["tests::a".into()]))
                .with_counts(Counts::new(Some(1), Some(0), None))
                .with_recognised(true),
            Attempt::new(Ending::Exited { code: 101 })
                .with_failing(std::iter::once("tests::a".to_owned()).chain(many))
                .with_counts(Counts::new(Some(0), Some(201), None))
                .with_recognised(true),
        ];
        let verdict = policy.verdict(&attempts);
        assert_eq!(verdict.cause(), Some(Cause::OrderDependent));
        let reason = verdict.reason();
        assert!(reason.len() <= MAX_REASON, "{} bytes", reason.len());
        assert!(reason.starts_with("tests::a\n"), "{reason}");
        assert!(reason.contains("passed when run alone"), "{reason}");
        assert!(reason.contains(" more\n"), "{reason}");
    }

    /// A Fail's reason: the names, then each failing test's own output
    /// (bounded, the start kept), then the tail; the whole within
    /// MAX_REASON however large the excerpts and the tail.
    #[test]
    fn a_fails_reason_shows_each_failing_tests_output_before_the_tail() {
        let huge = format!("panic: boom\n{}", "x".repeat(20_000));
        let attempt = Attempt::new(Ending::Exited { code: 1 })
            .with_failing(["TestA", "TestB"])
            .with_excerpts([
                ("TestA", "    a_test.go:5: got 1, want 2".to_owned()),
                ("TestB", huge),
                ("TestNotFailing", "printed by a passing test".to_owned()),
            ])
            .with_recognised(true)
            .with_tail(format!("{}\nok  \tlater/pkg\t0.1s", "y".repeat(20_000)));
        let verdict = Policy::new(0).verdict(&[attempt]);
        assert_eq!(verdict.failing(), ["TestA", "TestB"]);
        let reason = verdict.reason();
        assert!(reason.len() <= MAX_REASON, "{} bytes", reason.len());
        let at = |needle: &str| reason.find(needle).unwrap_or(usize::MAX);
        assert!(reason.starts_with("TestA\nTestB\n"), "{reason}");
        assert!(
            at("the output of TestA in attempt 1:\n    a_test.go:5: got 1, want 2")
                < at("the output of TestB in attempt 1:\npanic: boom"),
            "{reason}"
        );
        assert!(
            at("panic: boom") < at("the end of the output of attempt 1:"),
            "{reason}"
        );
        assert!(reason.ends_with("later/pkg\t0.1s"), "{reason}");
        assert!(!reason.contains("printed by a passing test"), "{reason}");
    }
}
