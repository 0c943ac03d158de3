//! What a stress run's attempts show of each test, as data: the tests whose
//! outcome varied, and each test's result in each attempt. The analysis
//! only: the decision is in `decide_stress.rs`, its words in `words/`, the
//! driver ([`Stress`](crate::Stress)) in `stress.rs`.

use std::collections::{HashMap, HashSet};

use crate::attempt::{Attempt, TestResult};
use crate::grading::{Grade, Placed, unnamed_passes_in};
use crate::history::{self, AttemptClass};

/// One test whose outcome varied across a stress run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Varied {
    /// The canonical name.
    pub name: String,
    /// The place the runner gave it (jest's and vitest's file, go's
    /// package), where it gave one: a test's identity is its name and its
    /// place, so one name in two files that both varied is two entries.
    pub context: Option<String>,
    /// The attempts in which it failed (or failed and then passed).
    pub failed_in: usize,
    /// The attempts that ran it.
    pub out_of: usize,
}

/// Every test whose outcome varied across `attempts` (failed in some
/// and passed in others, or failed and passed within one), in order of
/// first appearance, with how often it failed.
///
/// A test that an attempt did not name did not fail there when the
/// attempt passed, or failed naming its failures while its summary
/// counted passes it did not name (`pytest -q`, jest's and vitest's
/// default reporters): the runners name every failure. Failing in one
/// attempt and unnamed in such a one is a variation, not "failed in
/// every run".
pub(crate) fn varied(attempts: &[Attempt]) -> Vec<Varied> {
    let passed: Vec<bool> = attempts.iter().map(named_every_failure).collect();
    per_test(attempts)
        .into_iter()
        .filter_map(|((name, place), results)| {
            let failed_in = results
                .iter()
                .flatten()
                .filter(|r| matches!(r, TestResult::Failed | TestResult::Flaky))
                .count();
            let unnamed_in_a_pass = results
                .iter()
                .zip(&passed)
                .filter(|(result, passed)| result.is_none() && **passed)
                .count();
            let named = results
                .iter()
                .flatten()
                .filter(|r| {
                    matches!(
                        r,
                        TestResult::Passed
                            | TestResult::XFailed
                            | TestResult::Failed
                            | TestResult::Flaky
                    )
                })
                .count();
            let varied =
                Grade::of(&results) == Grade::Flaky || (failed_in > 0 && unnamed_in_a_pass > 0);
            varied.then(|| Varied {
                name: name.to_owned(),
                context: place.map(str::to_owned),
                failed_in,
                out_of: named + unnamed_in_a_pass,
            })
        })
        .collect()
}

/// Whether a test `attempt` did not name did not fail in it: the attempt
/// passed, or it named its failures and counted passes it did not name.
fn named_every_failure(attempt: &Attempt) -> bool {
    match history::classify(attempt) {
        AttemptClass::Passed => true,
        AttemptClass::Failed { crash: None } => {
            !attempt.failing.is_empty() && unnamed_passes_in(attempt) > 0
        }
        AttemptClass::Failed { crash: Some(_) } | AttemptClass::Stop(_) => false,
    }
}

/// The first attempt after which nothing about any test can be read.
pub(crate) fn stopped(attempts: &[Attempt]) -> Option<usize> {
    attempts
        .iter()
        .position(|attempt| match history::classify(attempt) {
            AttemptClass::Stop(stop) => stop.proves_nothing_of_any_test(),
            AttemptClass::Passed | AttemptClass::Failed { .. } => false,
        })
}

/// A test's identity across attempts: its name and the place the runner
/// gave it, if any (docs/formats.md, "A test's identity").
pub(crate) type Identity<'a> = (&'a str, Option<&'a str>);

/// Every test of `attempts`, in order of first appearance, with its result
/// in each: one name in two places is two tests.
pub(crate) fn per_test(attempts: &[Attempt]) -> Vec<(Identity<'_>, Vec<Option<TestResult>>)> {
    let mut order: Vec<Identity<'_>> = Vec::new();
    let mut seen = HashSet::new();
    let maps: Vec<HashMap<Identity<'_>, TestResult>> = attempts
        .iter()
        .map(|attempt| {
            let mut map = HashMap::new();
            // Where a test's identity comes more than once (a test run
            // twice), the one named last.
            for (name, place, result) in Placed::of(attempt).tests {
                map.insert((name, place), result);
                if seen.insert((name, place)) {
                    order.push((name, place));
                }
            }
            map
        })
        .collect();
    order
        .into_iter()
        .map(|test| (test, maps.iter().map(|m| m.get(&test).copied()).collect()))
        .collect()
}

/// The names that come in more than one place among `attempts`' tests (one
/// title in two files): where a reason must say which of them it means.
pub(crate) fn shared_names(attempts: &[Attempt]) -> HashSet<&str> {
    let mut first: HashMap<&str, Option<&str>> = HashMap::new();
    let mut shared = HashSet::new();
    for ((name, place), _) in per_test(attempts) {
        if *first.entry(name).or_insert(place) != place {
            shared.insert(name);
        }
    }
    shared
}
