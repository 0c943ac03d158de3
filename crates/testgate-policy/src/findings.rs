//! What a sequence of attempts showed, as data: the names that always
//! failed, the ones that failed only sometimes, the order-dependence
//! evidence, the attempt that stopped the sequence, the driver's notes.
//! The reason says the same in words; a JSON consumer reads these.

use std::collections::{HashMap, HashSet};

use crate::attempt::Attempt;
use crate::history::{self, AttemptClass};
use crate::verdict::{Cause, Outcome, Verdict};

/// What a finished sequence showed, beside its [`Verdict`].
///
/// Built by [`Policy::findings`](crate::Policy::findings) from the same
/// attempts as the verdict, and agreeing with it: a Fail's names are
/// [`Findings::always_failed`]; an Inconclusive `order_dependent` has
/// [`Findings::order_dependence`]; a sequence that a timeout, a refusal or
/// the environment ended has [`Findings::stopped_by`] with that cause.
/// Outside this crate it cannot be built, only read.
///
/// ```
/// use testgate_policy::{Attempt, Ending, Policy};
///
/// let failed = Attempt::new(Ending::Exited { code: 101 }).with_failing(["a", "b"]);
/// let attempts = [failed, Attempt::new(Ending::Exited { code: 101 }).with_failing(["a"])];
/// let findings = Policy::new(1).findings(&attempts);
/// assert_eq!(findings.always_failed, ["a"]);
/// assert_eq!(findings.sometimes_failed[0].name, "b");
/// assert_eq!((findings.sometimes_failed[0].failed_in, findings.sometimes_failed[0].out_of), (1, 2));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Findings {
    /// The names that failed in every attempt that named failures (for an
    /// order-dependent sequence: in every full run), in order of first
    /// appearance. A Fail's `failing`.
    pub always_failed: Vec<String>,
    /// The other failing names, each with how many of the failing attempts
    /// named it.
    pub sometimes_failed: Vec<SometimesFailed>,
    /// The evidence that the failing tests depend on order, when the
    /// verdict is `order_dependent`.
    pub order_dependence: Option<OrderDependence>,
    /// The attempt that ended the sequence before the retries ran out (a
    /// timeout, a refusal, the environment, no test run...).
    pub stopped_by: Option<StoppedBy>,
    /// The driver's notes (why a retry ran the full suite), by attempt.
    pub notes: Vec<Note>,
}

/// A name that failed in some failing attempts but not all.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SometimesFailed {
    /// The test.
    pub name: String,
    /// In how many attempts it failed: at least 1, less than `out_of`.
    pub failed_in: usize,
    /// How many attempts could have named it (the failing attempts that
    /// named failures).
    pub out_of: usize,
}

/// Tests that failed in every full run and passed when run alone.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OrderDependence {
    /// The tests.
    pub names: Vec<String>,
    /// The targeted attempt (1-based) in which they passed alone.
    pub passed_alone_in: usize,
    /// The full attempt after it in which they failed again.
    pub failed_again_in: usize,
}

/// The attempt that ended the sequence, and the cause it gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoppedBy {
    /// The attempt, 1-based.
    pub attempt: usize,
    /// The verdict's cause.
    pub cause: Cause,
}

/// A note the driver attached to an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Note {
    /// The attempt, 1-based.
    pub attempt: usize,
    /// The note.
    pub text: String,
}

impl Findings {
    /// The findings of `attempts`, whose verdict (whoever decided it: a
    /// [`Driver`](crate::Driver), or a tree change that ended the sequence)
    /// is `verdict`: `always_failed` is a Fail's names (or the
    /// order-dependent ones) and empty otherwise.
    ///
    /// For a verdict given outside a driver (the facade's `tree_changed`);
    /// a driver's own findings come from its decision
    /// ([`Driver::findings`](crate::Driver::findings)).
    pub fn of(attempts: &[Attempt], verdict: &Verdict) -> Findings {
        findings(attempts, &Outcome::of(verdict))
    }
}

/// The findings of `attempts`, whose verdict's kind and cause is `outcome`,
/// counted over the attempts: what a grader's or a stress run's decision
/// rests on, whose conclusions keep no tally of the sequence.
pub(crate) fn findings(attempts: &[Attempt], outcome: &Outcome) -> Findings {
    // A verdict that rests on the tests' outcomes was reached past any
    // stop among the attempts: a grader or a stress run goes on after an
    // attempt that says something of its tests (exit 0 naming failures, no
    // test run), and that attempt ended nothing.
    let past_stops = match outcome.cause() {
        None | Some(Cause::OrderDependent | Cause::NotRun) => true,
        Some(
            Cause::Flaky
            | Cause::TimedOut
            | Cause::SandboxRefused
            | Cause::WouldNotStart
            | Cause::NoTestsRan
            | Cause::Contradiction
            | Cause::KilledFromOutside
            | Cause::DifferentSuites
            | Cause::Cancelled
            | Cause::Environment
            | Cause::Truncated
            | Cause::PrepareFailed
            | Cause::TreeChanged
            | Cause::TreeUnreadable
            | Cause::NoReport,
        ) => false,
    };
    let (stopped_by, evidence) = evidence_until_stop(attempts, past_stops);
    let order = match outcome {
        Outcome::Inconclusive(Cause::OrderDependent) => order_dependence(&evidence),
        Outcome::Pass | Outcome::Fail { .. } | Outcome::Inconclusive(_) => None,
    };
    let failures: Vec<&Attempt> = match &order {
        // The full runs are what order dependence is judged on.
        Some(_) => evidence
            .iter()
            .filter(|(_, a, passed)| !passed && history::is_full(a))
            .map(|(_, a, _)| *a)
            .collect(),
        None => evidence
            .iter()
            .filter(|(_, _, passed)| !passed)
            .map(|(_, a, _)| *a)
            .collect(),
    };
    let always: Vec<&str> = match outcome {
        Outcome::Fail { failing } => failing.iter().map(String::as_str).collect(),
        Outcome::Inconclusive(Cause::OrderDependent) => order
            .as_ref()
            .map(|o| o.names.iter().map(String::as_str).collect())
            .unwrap_or_default(),
        Outcome::Pass | Outcome::Inconclusive(_) => Vec::new(),
    };
    let sometimes = sometimes(&tally(failures.iter().copied()), &always, &failures);
    Findings {
        always_failed: always.iter().map(|n| (*n).to_owned()).collect(),
        sometimes_failed: sometimes,
        order_dependence: order,
        stopped_by,
        notes: notes(attempts),
    }
}

/// The evidence attempts (number, attempt, passed) up to the first that
/// stopped the sequence, and that one; `past_stops` reads every attempt.
fn evidence_until_stop(
    attempts: &[Attempt],
    past_stops: bool,
) -> (Option<StoppedBy>, Vec<(usize, &Attempt, bool)>) {
    let mut stopped_by = None;
    let mut evidence: Vec<(usize, &Attempt, bool)> = Vec::new();
    for (index, attempt) in attempts.iter().enumerate() {
        let number = index + 1;
        let full = history::is_full(attempt);
        match history::classify(attempt) {
            AttemptClass::Stop(history::Stop::NoTestsRan { .. }) if !full => {}
            AttemptClass::Stop(_) if past_stops => {}
            AttemptClass::Stop(stop) => {
                stopped_by = Some(StoppedBy {
                    attempt: number,
                    cause: stop.cause(),
                });
                break;
            }
            AttemptClass::Passed => {
                if history::not_evidence(attempt).is_none() {
                    evidence.push((number, attempt, true));
                }
            }
            AttemptClass::Failed { .. } => {
                if history::not_evidence(attempt).is_none() {
                    evidence.push((number, attempt, false));
                }
            }
        }
    }
    (stopped_by, evidence)
}

/// The names of `tally` (counted over `failures`) that are not in `always`
/// and failed in fewer than every failing attempt that named failures.
pub(crate) fn sometimes(
    tally: &[(&str, usize)],
    always: &[&str],
    failures: &[&Attempt],
) -> Vec<SometimesFailed> {
    let out_of = failures
        .iter()
        .filter(|a| !a.failing.is_empty() || history::coverage_failed_the_run(a).is_some())
        .count();
    // A set, not a search of the list: 100,000 failing names made this
    // quadratic (30 s; hostile `a_hundred_thousand_failing_names_take_linear_time`).
    let always: HashSet<&str> = always.iter().copied().collect();
    tally
        .iter()
        .filter(|(name, count)| !always.contains(name) && *count < out_of)
        .map(|(name, count)| SometimesFailed {
            name: (*name).to_owned(),
            failed_in: *count,
            out_of,
        })
        .collect()
}

/// The driver's notes, by attempt.
pub(crate) fn notes(attempts: &[Attempt]) -> Vec<Note> {
    attempts
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            a.note.as_ref().map(|text| Note {
                attempt: i + 1,
                text: text.trim().to_owned(),
            })
        })
        .collect()
}

/// The order-dependence evidence of an `order_dependent` sequence: the
/// first targeted pass, the first full failure after it, and the names
/// that failed in every full run.
fn order_dependence(evidence: &[(usize, &Attempt, bool)]) -> Option<OrderDependence> {
    let alone = evidence
        .iter()
        .position(|(_, a, passed)| *passed && !history::is_full(a))?;
    let again = evidence[alone + 1..]
        .iter()
        .find(|(_, a, passed)| !passed && history::is_full(a))?;
    let fulls: Vec<&Attempt> = evidence
        .iter()
        .filter(|(_, a, passed)| !passed && history::is_full(a))
        .map(|(_, a, _)| *a)
        .collect();
    Some(OrderDependence {
        names: every_time(&fulls).into_iter().map(str::to_owned).collect(),
        passed_alone_in: evidence[alone].0,
        failed_again_in: again.0,
    })
}

/// Every failing name of `attempts` in order of first appearance, with the
/// number of attempts that named it.
pub(crate) fn tally<'a>(attempts: impl IntoIterator<Item = &'a Attempt>) -> Vec<(&'a str, usize)> {
    // Suites can fail thousands of tests at once: index by name rather than
    // search the list.
    let mut tally: Vec<(&str, usize)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for attempt in attempts {
        let mut seen: HashSet<&str> = HashSet::new();
        for name in &attempt.failing {
            if !seen.insert(name) {
                continue;
            }
            match index.get(name.as_str()) {
                Some(&at) => tally[at].1 += 1,
                None => {
                    index.insert(name, tally.len());
                    tally.push((name, 1));
                }
            }
        }
    }
    tally
}

/// The names that every attempt naming failures named, in order of first
/// appearance. An attempt that failed without naming a test (a crash, a
/// build error) neither confirms nor clears a name; one whose tests all
/// passed and that the runner failed for coverage clears every name.
pub(crate) fn every_time<'a>(failures: &[&'a Attempt]) -> Vec<&'a str> {
    let named: Vec<&Attempt> = failures
        .iter()
        .copied()
        .filter(|a| !a.failing.is_empty() || history::coverage_failed_the_run(a).is_some())
        .collect();
    tally(named.iter().copied())
        .into_iter()
        .filter(|(_, count)| *count == named.len())
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Ending;

    fn failed(names: &[&str]) -> Attempt {
        Attempt::new(Ending::Exited { code: 1 }).with_failing(names.iter().copied())
    }

    #[test]
    fn tallies_count_each_attempt_once_in_order_of_first_appearance() {
        let attempts = [failed(&["b", "a", "b"]), failed(&["a", "c"])];
        assert_eq!(tally(&attempts), [("b", 1), ("a", 2), ("c", 1)]);
    }

    #[test]
    fn a_nameless_failure_neither_confirms_nor_clears() {
        let (ab, a, none) = (failed(&["a", "b"]), failed(&["a"]), failed(&[]));
        assert_eq!(every_time(&[&ab, &none, &a]), ["a"]);
        assert_eq!(every_time(&[&none, &none]), Vec::<&str>::new());
        assert_eq!(every_time(&[&ab, &failed(&["c"])]), Vec::<&str>::new());
    }
}
