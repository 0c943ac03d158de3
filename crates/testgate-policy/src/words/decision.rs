//! The words of the policy's decision: the reason of each conclusion, and
//! the note of a retry.

use std::collections::HashSet;

use crate::decide::{Conclusion, Decided, Decision, Disagreement, Sequence, WhyRetry};
use crate::history::{self, Classified};
use crate::words::explain::{
    closing_lines, crash_lines, different_suites, excerpt_lines, nothing_ran, pass, push_tail,
    stopped, summary, tally_lines,
};
use crate::words::phrase::{exit_hint, phrase};
use crate::words::reason::{Reason, tests};

/// The reason of a finished sequence's verdict ([`Decided::outcome`]).
pub(crate) fn reason(decided: &Decided<'_>) -> String {
    match &decided.decision {
        Decision::Known(conclusion) => conclusion_reason(&decided.sequence, conclusion),
        // `decide` answers every finished sequence; this arm keeps the
        // library panic-free if that ever changes.
        Decision::Need { .. } => "the sequence ended before anything was proved".to_owned(),
    }
}

/// Why a retry runs what it runs.
pub(crate) fn note(why: &WhyRetry<'_>) -> String {
    match why {
        WhyRetry::TargetedNotEvidence { ignored } => format!(
            "attempt {}'s targeted retry {}, so the retry runs the full suite",
            ignored.number,
            phrase(ignored)
        ),
        WhyRetry::NoNames => {
            "the failing attempts named no test, so the retry runs the full suite".to_owned()
        }
        WhyRetry::TooMany { failed } => format!(
            "{} failed, more than the {} a targeted retry runs, \
             so the retry runs the full suite",
            tests(*failed),
            crate::policy::MAX_TARGETED
        ),
        WhyRetry::ConfirmOrder { alone } => format!(
            "the failing tests passed when run alone (attempt {alone}); the full suite runs \
             once more to tell order dependence from flakiness"
        ),
    }
}

/// The reason of `conclusion`, reached on `sequence`.
fn conclusion_reason(sequence: &Sequence<'_>, conclusion: &Conclusion<'_>) -> String {
    let records = &sequence.records;
    let any_targeted = sequence.any_targeted;
    match conclusion {
        Conclusion::Stopped { stop, attempt, at } => {
            stopped(*stop, attempt, *at, records, any_targeted)
        }
        Conclusion::DifferentSuites { earlier, at } => {
            let before: Vec<Classified<'_>> = records
                .iter()
                .filter(|r| r.number < at.number)
                .cloned()
                .collect();
            different_suites(earlier, at, &before, any_targeted)
        }
        Conclusion::NothingRan => nothing_ran(records, any_targeted),
        Conclusion::Passed => pass(&sequence.evidence(), records, any_targeted),
        Conclusion::NoCommonFailure { tally } => no_common_failure(sequence, tally),
        Conclusion::Failed { every, tally } => failed(sequence, every, tally),
        Conclusion::Disagreed { why, tally } => disagreed(sequence, *why, tally),
        Conclusion::OrderDependent {
            every,
            tally,
            out_of,
            alone,
            again,
            last,
        } => {
            let runs = OrderRuns {
                out_of: *out_of,
                alone: *alone,
                again: *again,
            };
            order_dependent(sequence, every, tally, runs, last)
        }
    }
}

/// Every evidence attempt failed and no name failed in all of them.
fn no_common_failure(sequence: &Sequence<'_>, tally: &[(&str, usize)]) -> String {
    let records = &sequence.records;
    let evidence = sequence.evidence();
    let all: Vec<&Classified<'_>> = records.iter().collect();
    let mut reason = Reason::new();
    reason.line(&format!(
        "{}, but no test failed in all of them: the suite is flaky",
        summary(&all, sequence.any_targeted)
    ));
    tally_lines(&mut reason, tally, evidence.len());
    closing_lines(&mut reason, records, None);
    if let Some(last) = evidence.last() {
        push_tail(&mut reason, last.attempt, last.number);
    }
    reason.finish()
}

/// Some evidence attempts passed and some failed, and `why` it is not
/// order dependence.
fn disagreed(sequence: &Sequence<'_>, why: Disagreement, tally: &[(&str, usize)]) -> String {
    let records = &sequence.records;
    let evidence = sequence.evidence();
    let all: Vec<&Classified<'_>> = records.iter().collect();
    let said = summary(&all, sequence.any_targeted);
    let sentence = match why {
        Disagreement::NotOrder => format!("{said}: the suite is flaky"),
        Disagreement::NotConfirmed => format!(
            "{said}; the full suite was not run again, so order dependence cannot be \
             told from flakiness: the suite is flaky"
        ),
        Disagreement::NoCommonFullFailure => {
            format!("{said}, but no test failed in every full run: the suite is flaky")
        }
    };
    let mut reason = Reason::new();
    reason.line(&sentence);
    tally_lines(&mut reason, tally, evidence.len());
    closing_lines(&mut reason, records, None);
    if let Some(r) = evidence.iter().rev().find(|r| r.is_fail()) {
        push_tail(&mut reason, r.attempt, r.number);
    }
    reason.finish()
}

/// The attempts an order dependence was shown by: the full runs counted,
/// the attempt that passed alone, the full run that failed again.
struct OrderRuns {
    out_of: usize,
    alone: usize,
    again: usize,
}

/// The failing tests failed in every full run and passed alone.
fn order_dependent(
    sequence: &Sequence<'_>,
    every: &[&str],
    tally: &[(&str, usize)],
    runs: OrderRuns,
    last: &Classified<'_>,
) -> String {
    let records = &sequence.records;
    let OrderRuns {
        out_of,
        alone,
        again,
    } = runs;
    let all: Vec<&Classified<'_>> = records.iter().collect();
    let said = summary(&all, sequence.any_targeted);
    let always: HashSet<&str> = every.iter().copied().collect();
    let alone_then_together = format!(
        "fails in the full suite, passes alone: these tests passed when run alone \
         (attempt {alone}) and failed again in the full suite (attempt {again}), so \
         their failure depends on what runs before or with them; the attempts \
         disagree, so nothing was proved about the tests themselves"
    );
    // Many names must not crowd out the one sentence that says why a
    // Fail follows a pass (found by fuzz/policy_driver).
    let why = [said.as_str(), alone_then_together.as_str()];
    let mut reason = Reason::new();
    reason.names_before(every, |_| String::new(), &why);
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
    if let Some(hint) = exit_hint(last.attempt) {
        reason.line(&hint);
    }
    closing_lines(&mut reason, records, None);
    push_tail(&mut reason, last.attempt, last.number);
    reason.finish()
}

/// The reason of the Fail of a sequence whose every evidence attempt
/// failed.
fn failed(sequence: &Sequence<'_>, every: &[&str], tally: &[(&str, usize)]) -> String {
    let records = &sequence.records;
    let any_targeted = sequence.any_targeted;
    let evidence = sequence.evidence();
    let all: Vec<&Classified<'_>> = records.iter().collect();
    let mut reason = Reason::new();
    reason.names(every, |_| String::new());
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
    let last = evidence.last();
    let coverage = last
        .and_then(|last| history::coverage_failed_the_run(last.attempt))
        .filter(|_| every.is_empty());
    if let Some(passed) = coverage {
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
    if let Some(hint) = last.and_then(|last| exit_hint(last.attempt)) {
        reason.line(&hint);
    }
    closing_lines(&mut reason, records, None);
    if let Some(last) = last {
        excerpt_lines(&mut reason, last.attempt, last.number, every);
        push_tail(&mut reason, last.attempt, last.number);
    }
    reason.finish()
}
