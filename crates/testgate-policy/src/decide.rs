//! The decision over a sequence of attempts: a verdict, or the selection
//! the next attempt should run.
//!
//! One function, [`decide`], serves both [`Policy::step`](crate::Policy::step)
//! (a sequence in progress) and [`Policy::verdict`](crate::Policy::verdict)
//! (a finished one), so the two can never disagree.

use std::collections::HashSet;

use crate::attempt::{Attempt, Ending, Selection};
use crate::explain::{
    closing_lines, crash_lines, different_suites, every_time, excerpt_lines, inconclusive,
    nothing_ran, pass, push_tail, stopped, summary, tally, tally_lines,
};
use crate::history::{self, Kind, Outcome, Record, Stop};
use crate::policy::{MAX_TARGETED, Policy, Rerun};
use crate::reason::{Reason, tests};
use crate::verdict::{Cause, Verdict};

/// What the policy says about a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    Known(Verdict),
    Need {
        selection: Selection,
        note: Option<String>,
    },
}

impl From<Decision> for crate::policy::Plan {
    fn from(decision: Decision) -> Self {
        match decision {
            Decision::Known(verdict) => crate::policy::Plan {
                step: crate::policy::Step::Done(verdict),
                note: None,
            },
            Decision::Need { selection, note } => crate::policy::Plan {
                step: crate::policy::Step::Run(selection),
                note,
            },
        }
    }
}

/// Decides on `attempts`. With `finished`, the sequence ends here whatever
/// is left undecided, and the answer is always [`Decision::Known`].
pub(crate) fn decide(policy: &Policy, attempts: &[Attempt], finished: bool) -> Decision {
    // The bound holds for any history, not only for ones this driver made.
    let finished = finished || attempts.len() as u64 >= policy.max_attempts();
    let any_targeted = attempts.iter().any(|a| !history::is_full(a));
    let mut records: Vec<Record<'_>> = Vec::with_capacity(attempts.len());

    for (index, attempt) in attempts.iter().enumerate() {
        let number = index + 1;
        let kind = match history::outcome(attempt) {
            // A targeted retry where no test ran is a retry that did not
            // select what it meant to: not evidence, not an answer.
            Outcome::Stop(Stop::NoTestsRan { .. }) if !history::is_full(attempt) => Kind::Ignored {
                why: "the runner said that no test ran".to_owned(),
            },
            Outcome::Stop(stop) => {
                return Decision::Known(stopped(stop, attempt, number, &records, any_targeted));
            }
            Outcome::Passed => match history::not_evidence(attempt) {
                Some(why) => Kind::Ignored { why },
                None => Kind::Pass,
            },
            Outcome::Failed { crash } => match history::not_evidence(attempt) {
                Some(why) => Kind::Ignored { why },
                None => Kind::Fail { crash },
            },
        };
        let record = Record {
            number,
            attempt,
            kind,
        };
        // Two passes of one selection that ran different numbers of tests
        // cannot be compared. Failures are compared later, by their names:
        // runners that stop at the first failure (nextest's fail-fast,
        // `pytest -x`, `--lf`, `jest --bail`) run a different number of
        // tests every time, and names that agree still decide.
        if record.is_pass() {
            if let Some(earlier) = different_suite(&records, &record) {
                return Decision::Known(different_suites(earlier, &record, &records, any_targeted));
            }
        }
        records.push(record);
    }

    let evidence: Vec<&Record<'_>> = records.iter().filter(|r| r.is_evidence()).collect();
    if evidence.is_empty() {
        if !finished {
            let note = records.last().map(|ignored| {
                format!(
                    "attempt {}'s targeted retry {}, so the retry runs the full suite",
                    ignored.number,
                    history::phrase(ignored)
                )
            });
            return Decision::Need {
                selection: Selection::Full,
                note,
            };
        }
        return Decision::Known(nothing_ran(&records, any_targeted));
    }

    let passed = evidence.iter().any(|r| r.is_pass());
    let failed = evidence.iter().any(|r| r.is_fail());
    match (passed, failed) {
        (true, false) => Decision::Known(pass(&evidence, &records, any_targeted)),
        (false, true) | (false, false) => {
            all_failed(policy, &evidence, &records, any_targeted, finished)
        }
        (true, true) => disagreed(&evidence, &records, any_targeted, finished),
    }
}

/// The earlier evidence attempt that ran the same selection as `record`,
/// ended the same way (both passed or both failed), but ran a different
/// number of tests. Only attempts that exited count: a crash or a kill cuts
/// the counts short. A failing attempt is never compared with a passing
/// one: runners stop early on failure (cargo test at the first failing
/// binary, `pytest -x`, `jest --bail`), and the two disagree anyway.
fn different_suite<'r, 'a>(
    records: &'r [Record<'a>],
    record: &Record<'a>,
) -> Option<&'r Record<'a>> {
    records
        .iter()
        .find(|earlier| same_suite_differs(earlier, record))
}

/// Whether two attempts ran the same selection, ended the same way, and
/// both exited with stated counts that differ.
fn same_suite_differs(earlier: &Record<'_>, record: &Record<'_>) -> bool {
    fn ran_of(record: &Record<'_>) -> Option<u64> {
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
fn next_retry(policy: &Policy, records: &[Record<'_>], every: &[&str]) -> Decision {
    let need = |selection, note: Option<String>| Decision::Need { selection, note };
    match policy.rerun {
        Rerun::All => need(Selection::Full, None),
        Rerun::Failed => {
            // A runner whose filter did not run the names once will not run
            // them the next time either: from then on, full retries only.
            if let Some(ignored) = records.iter().find(|r| !r.is_evidence()) {
                return need(
                    Selection::Full,
                    Some(format!(
                        "attempt {}'s targeted retry {}, so the retry runs the full suite",
                        ignored.number,
                        history::phrase(ignored)
                    )),
                );
            }
            if every.is_empty() {
                return need(
                    Selection::Full,
                    Some(
                        "the failing attempts named no test, so the retry runs the full suite"
                            .to_owned(),
                    ),
                );
            }
            if every.len() > MAX_TARGETED {
                return need(
                    Selection::Full,
                    Some(format!(
                        "{} failed, more than the {MAX_TARGETED} a targeted retry runs, \
                         so the retry runs the full suite",
                        tests(every.len())
                    )),
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
fn all_failed(
    policy: &Policy,
    evidence: &[&Record<'_>],
    records: &[Record<'_>],
    any_targeted: bool,
    finished: bool,
) -> Decision {
    let failures: Vec<&Attempt> = evidence.iter().map(|r| r.attempt).collect();
    let every = every_time(&failures);
    let named = failures.iter().any(|a| !a.failing.is_empty());
    let tally = tally(failures.iter().copied());
    let last = evidence[evidence.len() - 1];
    let all: Vec<&Record<'_>> = records.iter().collect();

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
            let before: Vec<Record<'_>> = records
                .iter()
                .filter(|r| r.number < record.number)
                .cloned()
                .collect();
            return Decision::Known(different_suites(earlier, record, &before, any_targeted));
        }
    }
    if named && every.is_empty() {
        // No name can fail every time any more: the answer is known now.
        let mut reason = Reason::new();
        reason.line(&format!(
            "{}, but no test failed in all of them: the suite is flaky",
            summary(&all, any_targeted)
        ));
        tally_lines(&mut reason, &tally, evidence.len());
        closing_lines(&mut reason, records, None);
        push_tail(&mut reason, last.attempt, last.number);
        return Decision::Known(inconclusive(Cause::Flaky, reason));
    }
    if !finished && (evidence.len() as u64) <= u64::from(policy.retries) {
        return next_retry(policy, records, &every);
    }

    let mut reason = Reason::new();
    reason.names(&every, |_| String::new());
    let always: HashSet<&str> = every.iter().copied().collect();
    let sometimes: Vec<&(&str, usize)> =
        tally.iter().filter(|(n, _)| !always.contains(n)).collect();
    let out_of = evidence.len();
    reason.names(
        &sometimes.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        |name| {
            let count = tally
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(0, |(_, c)| *c);
            format!(" (failed only sometimes: in {count} of {out_of} attempts)")
        },
    );
    crash_lines(&mut reason, records);
    let attempts = if records.len() == 1 {
        summary(&all, any_targeted)
    } else if evidence.len() == records.len() {
        format!("every attempt failed: {}", summary(&all, any_targeted))
    } else {
        format!(
            "every attempt that ran its tests failed: {}",
            summary(&all, any_targeted)
        )
    };
    if let Some(passed) =
        history::coverage_failed_the_run(last.attempt).filter(|_| every.is_empty())
    {
        reason.line(&format!(
            "all {} passed; the runner failed the run: coverage below threshold",
            tests(usize::try_from(passed).unwrap_or(usize::MAX))
        ));
        reason.line(&attempts);
    } else if every.is_empty() {
        reason.line(&format!(
            "{attempts}; the cause is at the end of the output"
        ));
    } else {
        reason.line(&attempts);
    }
    if let Some(hint) = history::exit_hint(last.attempt) {
        reason.line(&hint);
    }
    closing_lines(&mut reason, records, None);
    excerpt_lines(&mut reason, last.attempt, last.number, &every);
    push_tail(&mut reason, last.attempt, last.number);
    Decision::Known(Verdict::Fail {
        failing: every.iter().map(|n| (*n).to_owned()).collect(),
        reason: reason.finish(),
    })
}

/// Some evidence attempts passed and some failed.
fn disagreed(
    evidence: &[&Record<'_>],
    records: &[Record<'_>],
    any_targeted: bool,
    finished: bool,
) -> Decision {
    let last_failure = evidence.iter().rev().find(|r| r.is_fail()).copied();
    let flaky = |sentence: String| {
        let mut reason = Reason::new();
        reason.line(&sentence);
        let failures = evidence.iter().filter(|r| r.is_fail()).map(|r| r.attempt);
        tally_lines(&mut reason, &tally(failures), evidence.len());
        closing_lines(&mut reason, records, None);
        if let Some(r) = last_failure {
            push_tail(&mut reason, r.attempt, r.number);
        }
        Decision::Known(inconclusive(Cause::Flaky, reason))
    };
    let all: Vec<&Record<'_>> = records.iter().collect();
    let said = summary(&all, any_targeted);

    // Order dependence: the failing tests passed when run alone, and every
    // full run failed. Only a full run after the pass tells "they fail
    // alongside other tests" from "they fail at random".
    let fulls_all_failed = evidence.iter().filter(|r| r.is_full()).all(|r| r.is_fail());
    let targeted_all_passed = evidence
        .iter()
        .filter(|r| !r.is_full())
        .all(|r| r.is_pass());
    let Some(first_pass) = evidence.iter().position(|r| r.is_pass()) else {
        return flaky(format!("{said}: the suite is flaky"));
    };
    let failed_first = evidence[..first_pass]
        .iter()
        .any(|r| r.is_full() && r.is_fail());
    if !(fulls_all_failed && targeted_all_passed && failed_first) {
        return flaky(format!("{said}: the suite is flaky"));
    }
    let alone = evidence[first_pass];
    let confirmations: Vec<&Record<'_>> = evidence[first_pass + 1..]
        .iter()
        .filter(|r| r.is_full())
        .copied()
        .collect();
    if confirmations.is_empty() {
        if !finished {
            return Decision::Need {
                selection: Selection::Full,
                note: Some(format!(
                    "the failing tests passed when run alone (attempt {}); the full suite runs \
                     once more to tell order dependence from flakiness",
                    alone.number
                )),
            };
        }
        return flaky(format!(
            "{said}; the full suite was not run again, so order dependence cannot be told \
             from flakiness: the suite is flaky"
        ));
    }

    let fulls: Vec<&Attempt> = evidence
        .iter()
        .filter(|r| r.is_full())
        .map(|r| r.attempt)
        .collect();
    let every = every_time(&fulls);
    if every.is_empty() {
        return flaky(format!(
            "{said}, but no test failed in every full run: the suite is flaky"
        ));
    }
    let tally = tally(fulls.iter().copied());
    let always: HashSet<&str> = every.iter().copied().collect();
    let out_of = fulls.len();
    let alone_then_together = format!(
        "fails in the full suite, passes alone: these tests passed when run alone \
         (attempt {}) and failed again in the full suite (attempt {}), so their failure \
         depends on what runs before or with them; the attempts disagree, so nothing was \
         proved about the tests themselves",
        alone.number, confirmations[0].number
    );
    // Many names must not crowd out the one sentence that says why a Fail
    // follows a pass (found by fuzz/policy_driver).
    let why = [said.as_str(), alone_then_together.as_str()];
    let mut reason = Reason::new();
    reason.names_before(&every, |_| String::new(), &why);
    reason.names_before(
        &tally
            .iter()
            .filter(|(n, _)| !always.contains(n))
            .map(|(n, _)| *n)
            .collect::<Vec<_>>(),
        |name| {
            let count = tally
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(0, |(_, c)| *c);
            format!(" (failed only sometimes: in {count} of {out_of} full runs)")
        },
        &why,
    );
    reason.line(&said);
    reason.line(&alone_then_together);
    let last = last_failure.unwrap_or(confirmations[0]);
    if let Some(hint) = history::exit_hint(last.attempt) {
        reason.line(&hint);
    }
    closing_lines(&mut reason, records, None);
    push_tail(&mut reason, last.attempt, last.number);
    Decision::Known(inconclusive(Cause::OrderDependent, reason))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Counts;
    use crate::reason::MAX_REASON;

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
