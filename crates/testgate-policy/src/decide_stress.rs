//! The stress run's decision, as data: the policy's answer when an attempt
//! proved nothing of any test, the tests that varied, those that failed in
//! every run, or a pass. It writes no English: `words/` renders it.

use crate::attempt::Attempt;
use crate::decide::{Conclusion, Decided, Decision, decide};
use crate::grading::Grade;
use crate::history::{self, AttemptClass};
use crate::policy::Policy;
use crate::variation::{Identity, Varied, per_test, stopped, varied};
use crate::verdict::{Cause, Outcome};

/// The decision on a stress run's attempts.
#[derive(Debug, Clone)]
pub(crate) enum StressDecision<'a> {
    /// Attempt `at` proved nothing of any test: the suite policy's
    /// decision on the attempts up to it.
    Stopped(Decided<'a>),
    /// No attempt ran.
    NoAttempt,
    /// These tests varied across the runs.
    Varied(Vec<Varied>),
    /// These tests failed in every run, each its name and place.
    Failed(Vec<Identity<'a>>),
    /// An attempt failed and no test name explains it: the suite policy's
    /// decision on the first attempt, which is no pass.
    Unexplained(Decided<'a>),
    /// No test was named, so no test's outcome could be compared.
    NamedNoTest,
    /// This many tests passed in every run.
    Passed(usize),
}

impl StressDecision<'_> {
    /// The verdict's kind and cause: the suite policy's where an attempt
    /// proved nothing of any test or failed unexplained (never a Pass: a
    /// first attempt the policy passes is [`StressDecision::NamedNoTest`]).
    pub(crate) fn outcome(&self) -> Outcome {
        match self {
            StressDecision::Stopped(decided) | StressDecision::Unexplained(decided) => {
                decided.outcome()
            }
            StressDecision::NoAttempt | StressDecision::NamedNoTest => {
                Outcome::Inconclusive(Cause::NoTestsRan)
            }
            StressDecision::Varied(_) => Outcome::Inconclusive(Cause::Flaky),
            StressDecision::Failed(always) => {
                // A name is failing once, however many places it failed in.
                let mut failing: Vec<String> = Vec::new();
                for (name, _) in always {
                    if !failing.iter().any(|f| f == name) {
                        failing.push((*name).to_owned());
                    }
                }
                Outcome::Fail { failing }
            }
            StressDecision::Passed(_) => Outcome::Pass,
        }
    }
}

/// Decides on a stress run's `attempts`.
pub(crate) fn decide_stress(attempts: &[Attempt]) -> StressDecision<'_> {
    if let Some(index) = stopped(attempts) {
        let prefix = attempts.get(..=index).unwrap_or(attempts);
        return StressDecision::Stopped(decide(&Policy::new(0), prefix, true));
    }
    if attempts.is_empty() {
        return StressDecision::NoAttempt;
    }
    let varied = varied(attempts);
    if !varied.is_empty() {
        return StressDecision::Varied(varied);
    }
    let tests_seen = per_test(attempts);
    let always: Vec<Identity<'_>> = tests_seen
        .iter()
        .filter(|(_, results)| Grade::of(results) == Grade::Failed)
        .map(|(test, _)| *test)
        .collect();
    if !always.is_empty() {
        return StressDecision::Failed(always);
    }
    let failed_unnamed = attempts
        .iter()
        .any(|a| matches!(history::classify(a), AttemptClass::Failed { .. }));
    if failed_unnamed || tests_seen.is_empty() {
        // Failures no test name explains, or no test seen at all: the
        // suite policy says what that is.
        let first = decide(&Policy::new(0), attempts.get(..1).unwrap_or(attempts), true);
        return match first.decision {
            Decision::Known(Conclusion::Passed) | Decision::Need { .. } => {
                StressDecision::NamedNoTest
            }
            Decision::Known(_) => StressDecision::Unexplained(first),
        };
    }
    StressDecision::Passed(tests_seen.len())
}
