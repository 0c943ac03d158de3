//! Stress mode: the same suite run N times, each attempt fresh, to find the
//! tests whose outcome varies — what a harness runs once per task to
//! validate the tests it will grade by.

use std::collections::{HashMap, HashSet};

use crate::attempt::{Attempt, Selection};
use crate::decide::{Decision, decide};
use crate::explain::push_tail;
use crate::grade::{Grade, TestResult, unnamed_passes_in};
use crate::history::{self, Outcome};
use crate::policy::{Plan, Policy, Step};
use crate::reason::{Reason, tests};
use crate::verdict::{Cause, Verdict};

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

/// Runs the full suite `runs` times whatever happens (unless an attempt
/// proves nothing: a timeout, a refusal), and lists every test whose
/// outcome varied.
///
/// ```
/// use testgate_policy::{Attempt, Ending, Step, Stress, TestResult};
///
/// let stress = Stress::new(3);
/// let run = |result| {
///     Attempt::new(Ending::Exited { code: 0 })
///         .with_recognised(true)
///         .with_tests([("a", TestResult::Passed), ("b", result)])
/// };
/// let attempts = [run(TestResult::Passed), run(TestResult::Failed), run(TestResult::Passed)];
/// assert!(matches!(stress.step(&attempts[..2]), Step::Run(_)));
/// let varied = stress.varied(&attempts);
/// assert_eq!((varied[0].name.as_str(), varied[0].failed_in, varied[0].out_of), ("b", 1, 3));
/// assert_eq!(stress.verdict(&attempts).name(), "inconclusive");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stress {
    runs: u32,
}

impl Stress {
    /// A stress run of `runs` attempts (at least one).
    pub fn new(runs: u32) -> Self {
        Stress { runs: runs.max(1) }
    }

    /// The attempts it runs.
    pub fn runs(&self) -> u32 {
        self.runs
    }

    /// What to do after `attempts`: run the full suite again until there
    /// are [`runs`](Stress::runs) of them, or stop at an attempt that
    /// proves nothing.
    pub fn plan(&self, attempts: &[Attempt]) -> Plan {
        let done = attempts.len() as u64 >= u64::from(self.runs) || stopped(attempts).is_some();
        let step = if done {
            Step::Done(self.verdict(attempts))
        } else {
            Step::Run(Selection::Full)
        };
        Plan { step, note: None }
    }

    /// [`plan`](Stress::plan)'s step alone.
    pub fn step(&self, attempts: &[Attempt]) -> Step {
        self.plan(attempts).step
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
    pub fn varied(&self, attempts: &[Attempt]) -> Vec<Varied> {
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

    /// The verdict: Inconclusive `flaky` naming every test that varied,
    /// else Fail naming those that failed in every attempt, else Pass; an
    /// attempt that proved nothing ends it as the suite policy words it.
    pub fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        if let Some(index) = stopped(attempts) {
            return match decide(
                &Policy::new(0),
                attempts.get(..=index).unwrap_or(attempts),
                true,
            ) {
                Decision::Known(verdict) => verdict,
                Decision::Need { .. } => Verdict::Inconclusive {
                    cause: Cause::NoTestsRan,
                    reason: "the stress run ended before anything was proved".to_owned(),
                },
            };
        }
        let Some(last) = attempts.last() else {
            return Verdict::Inconclusive {
                cause: Cause::NoTestsRan,
                reason: "no attempt ran".to_owned(),
            };
        };
        let n = attempts.len();
        let varied = self.varied(attempts);
        let mut reason = Reason::new();
        if !varied.is_empty() {
            let names: Vec<&str> = varied.iter().map(|v| v.name.as_str()).collect();
            reason.names(&names, |name| {
                varied
                    .iter()
                    .find(|v| v.name == name)
                    .map_or_else(String::new, |v| {
                        format!(" (failed in {} of {})", v.failed_in, v.out_of)
                    })
            });
            reason.line(&format!(
                "{} varied across {n} runs of the same suite: quarantine {} \
                 (`--quarantine`) or fix {}",
                tests(varied.len()),
                if varied.len() == 1 { "it" } else { "them" },
                if varied.len() == 1 { "it" } else { "them" },
            ));
            push_tail(&mut reason, last, n);
            return Verdict::Inconclusive {
                cause: Cause::Flaky,
                reason: reason.finish(),
            };
        }
        let tests_seen = per_test(attempts);
        let always: Vec<&str> = tests_seen
            .iter()
            .filter(|(_, results)| Grade::of(results) == Grade::Failed)
            .map(|(name, _)| *name)
            .collect();
        if !always.is_empty() {
            reason.names(&always, |_| String::new());
            reason.line(&format!(
                "{} failed in every one of {n} runs",
                tests(always.len())
            ));
            push_tail(&mut reason, last, n);
            return Verdict::Fail {
                failing: always.iter().map(|n| (*n).to_owned()).collect(),
                reason: reason.finish(),
            };
        }
        let failed_unnamed = attempts
            .iter()
            .any(|a| matches!(history::outcome(a), Outcome::Failed { .. }));
        if failed_unnamed || tests_seen.is_empty() {
            // Failures no test name explains, or no test seen at all: the
            // suite policy says what that is.
            return match decide(&Policy::new(0), attempts.get(..1).unwrap_or(attempts), true) {
                Decision::Known(verdict) if !verdict.is_pass() => verdict,
                Decision::Known(_) | Decision::Need { .. } => Verdict::Inconclusive {
                    cause: Cause::NoTestsRan,
                    reason: "the stress runs named no test, so no test's outcome could be \
                             compared between runs: run the runner in a mode that names every \
                             test (go test -v, pytest -v, jest --verbose, vitest \
                             --reporter=verbose)"
                        .to_owned(),
                },
            };
        }
        reason.line(&format!(
            "{} passed in every one of {n} runs",
            tests(tests_seen.len())
        ));
        Verdict::Pass {
            reason: reason.finish(),
        }
    }
}

/// Whether a test `attempt` did not name did not fail in it: the attempt
/// passed, or it named its failures and counted passes it did not name.
fn named_every_failure(attempt: &Attempt) -> bool {
    match history::outcome(attempt) {
        Outcome::Passed => true,
        Outcome::Failed { crash: None } => {
            !attempt.failing.is_empty() && unnamed_passes_in(attempt) > 0
        }
        Outcome::Failed { crash: Some(_) } | Outcome::Stop(_) => false,
    }
}

/// The first attempt after which nothing about any test can be read.
fn stopped(attempts: &[Attempt]) -> Option<usize> {
    attempts
        .iter()
        .position(|attempt| match history::outcome(attempt) {
            Outcome::Stop(stop) => stop.proves_nothing_of_any_test(),
            Outcome::Passed | Outcome::Failed { .. } => false,
        })
}

/// Every test of `attempts`, in order of first appearance, with its result
/// in each.
fn per_test(attempts: &[Attempt]) -> Vec<(&str, Vec<Option<TestResult>>)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Ending;
    use crate::grade::testing::run;

    use TestResult::{Failed as F, Passed as P};

    #[test]
    fn it_runs_every_attempt_even_after_a_pass() {
        let stress = Stress::new(3);
        let pass = run(0, &[("a", P)]);
        assert_eq!(stress.step(&[]), Step::Run(Selection::Full));
        assert_eq!(
            stress.step(std::slice::from_ref(&pass)),
            Step::Run(Selection::Full)
        );
        assert_eq!(
            stress.step(&[pass.clone(), pass.clone()]),
            Step::Run(Selection::Full)
        );
        let verdict = stress.verdict(&[pass.clone(), pass.clone(), pass]);
        assert!(verdict.is_pass(), "{}", verdict.reason());
        assert!(
            verdict
                .reason()
                .starts_with("1 test passed in every one of 3 runs")
        );
    }

    #[test]
    fn a_steady_failure_fails_and_a_varying_one_is_flaky() {
        let stress = Stress::new(2);
        let steady = [run(1, &[("a", F), ("b", P)]), run(1, &[("a", F), ("b", P)])];
        assert_eq!(stress.verdict(&steady).failing(), ["a"]);
        let varying = [run(1, &[("a", F), ("b", P)]), run(1, &[("a", F), ("b", F)])];
        let verdict = stress.verdict(&varying);
        assert_eq!(verdict.cause(), Some(Cause::Flaky));
        assert!(
            verdict.reason().starts_with("b (failed in 1 of 2)\n"),
            "{}",
            verdict.reason()
        );
    }

    /// `pytest -q` names a test only when it fails: failing in runs 1 and
    /// 3 and unnamed in the passing run 2 was "failed in every one of 3
    /// runs", a Fail (field test on pytest-dev/pluggy).
    #[test]
    fn a_failure_unnamed_in_a_passing_run_varied() {
        let stress = Stress::new(3);
        let quiet_pass = run(0, &[]).with_counts(crate::Counts::new(Some(144), Some(0), None));
        let failing = run(1, &[("a", F)]);
        let attempts = [failing.clone(), quiet_pass, failing.clone()];
        let verdict = stress.verdict(&attempts);
        assert_eq!(verdict.cause(), Some(Cause::Flaky), "{}", verdict.reason());
        assert!(
            verdict.reason().starts_with("a (failed in 2 of 3)\n"),
            "{}",
            verdict.reason()
        );
        // Two tests that take turns failing, each unnamed in the other's
        // failing run, whose summary counted passes it did not name.
        let quiet =
            |name| run(1, &[(name, F)]).with_counts(crate::Counts::new(Some(9), Some(1), None));
        let verdict = stress.verdict(&[quiet("a"), quiet("b"), quiet("a")]);
        assert_eq!(verdict.cause(), Some(Cause::Flaky), "{}", verdict.reason());
        assert!(
            verdict
                .reason()
                .starts_with("a (failed in 2 of 3)\nb (failed in 1 of 3)\n"),
            "{}",
            verdict.reason()
        );
        // Unnamed in a run that failed without names (a crash) is no
        // evidence either way: a steady failure stays a Fail.
        let crash = Attempt::new(Ending::Exited { code: 134 }).with_recognised(true);
        let verdict = stress.verdict(&[failing.clone(), crash, failing]);
        assert_eq!(verdict.failing(), ["a"], "{}", verdict.reason());
    }

    #[test]
    fn a_timeout_stops_it() {
        let stress = Stress::new(5);
        let attempts = [
            run(0, &[("a", P)]),
            Attempt::new(Ending::TimedOut {
                after: std::time::Duration::from_secs(1),
            }),
        ];
        assert!(matches!(stress.step(&attempts), Step::Done(_)));
        assert_eq!(stress.verdict(&attempts).cause(), Some(Cause::TimedOut));
    }
}
