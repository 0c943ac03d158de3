//! What a stress run's attempts show of each test, as data: the tests whose
//! outcome varied, and each test's result in each attempt. The analysis
//! only: the decision is in `decide_stress.rs`, its words in `words/`, the
//! driver ([`Stress`](crate::Stress)) in `stress.rs`.

use std::collections::{HashMap, HashSet};

use crate::attempt::{Attempt, TestResult};
use crate::grading::{Grade, unnamed_passes_in};
use crate::history::{self, AttemptClass};

/// One test whose outcome varied across a stress run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Varied {
    /// The canonical name.
    pub name: String,
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
        .filter_map(|(name, results)| {
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

/// Every test of `attempts`, in order of first appearance, with its result
/// in each.
pub(crate) fn per_test(attempts: &[Attempt]) -> Vec<(&str, Vec<Option<TestResult>>)> {
    let mut order: Vec<&str> = Vec::new();
    let mut seen = HashSet::new();
    let maps: Vec<HashMap<&str, TestResult>> = attempts
        .iter()
        .map(|attempt| {
            let mut map: HashMap<&str, TestResult> = HashMap::new();
            for (name, result) in &attempt.tests {
                map.insert(name.as_str(), *result);
            }
            for name in &attempt.failing {
                map.entry(name.as_str()).or_insert(TestResult::Failed);
            }
            for name in &attempt.flaky_within {
                map.insert(name.as_str(), TestResult::Flaky);
            }
            let names = attempt
                .tests
                .iter()
                .map(|(n, _)| n.as_str())
                .chain(attempt.failing.iter().map(String::as_str))
                .chain(attempt.flaky_within.iter().map(String::as_str));
            for name in names {
                if seen.insert(name) {
                    order.push(name);
                }
            }
            map
        })
        .collect();
    order
        .into_iter()
        .map(|name| (name, maps.iter().map(|m| m.get(name).copied()).collect()))
        .collect()
}
