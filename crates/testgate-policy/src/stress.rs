//! Stress mode: the same suite run N times, each attempt fresh, to find the
//! tests whose outcome varies — what a harness runs once per task to
//! validate the tests it will grade by.

use crate::attempt::{Attempt, Selection};
use crate::decide_stress::decide_stress;
use crate::findings::{self, Findings};
use crate::policy::{Plan, Step};
use crate::variation::{self, Varied, stopped};
use crate::verdict::Verdict;
use crate::words;

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
        variation::varied(attempts)
    }

    /// The verdict: Inconclusive `flaky` naming every test that varied,
    /// else Fail naming those that failed in every attempt, else Pass; an
    /// attempt that proved nothing ends it as the suite policy words it.
    pub fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        let decision = decide_stress(attempts);
        decision
            .outcome()
            .with_reason(words::stress_reason(&decision, attempts))
    }

    /// The [`Findings`] of a finished stress run: what its
    /// [`verdict`](Stress::verdict) rests on, as data.
    pub(crate) fn findings(&self, attempts: &[Attempt]) -> Findings {
        findings::findings(attempts, &decide_stress(attempts).outcome())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Ending;
    use crate::attempt::TestResult;
    use crate::grade::testing::run;
    use crate::verdict::Cause;

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

    /// One title in two files (jest's `math › adds` in a.test.js and
    /// b.test.js), with `b`'s result; the report lists b's first.
    fn one_title_in_two_files(a: TestResult, b: TestResult) -> Attempt {
        let failing: Vec<&str> = [a, b]
            .contains(&F)
            .then_some("math › adds")
            .into_iter()
            .collect();
        run(i32::from(!failing.is_empty()), &[])
            .with_failing(failing)
            .with_placed_tests([
                ("math › adds", Some("b.test.js"), b),
                ("math › adds", Some("a.test.js"), a),
            ])
    }

    /// A test's identity is its name and its place: b's `adds` varied and
    /// a's did not, and the varied entry says which. Before, the two were
    /// one name whose result in an attempt was the last in the report
    /// (a's, passing): the variation went unseen, a Pass.
    #[test]
    fn one_name_in_two_files_varies_in_one() {
        let stress = Stress::new(3);
        let attempts = [
            one_title_in_two_files(P, P),
            one_title_in_two_files(P, F),
            one_title_in_two_files(P, P),
        ];
        let varied = stress.varied(&attempts);
        let got: Vec<(&str, Option<&str>, usize, usize)> = varied
            .iter()
            .map(|v| (v.name.as_str(), v.context.as_deref(), v.failed_in, v.out_of))
            .collect();
        assert_eq!(got, [("math › adds", Some("b.test.js"), 1, 3)]);
        let verdict = stress.verdict(&attempts);
        assert_eq!(verdict.cause(), Some(Cause::Flaky), "{}", verdict.reason());
        assert!(
            verdict
                .reason()
                .starts_with("math › adds (in b.test.js, failed in 1 of 3)\n"),
            "{}",
            verdict.reason()
        );
        // Failing in a in every run, passing in b: a Fail that names the
        // test once and says which file in its reason.
        let always = [one_title_in_two_files(F, P), one_title_in_two_files(F, P)];
        assert!(stress.varied(&always).is_empty());
        let verdict = stress.verdict(&always);
        assert_eq!(verdict.failing(), ["math › adds"], "{}", verdict.reason());
        assert!(
            verdict.reason().starts_with("math › adds (in a.test.js)\n"),
            "{}",
            verdict.reason()
        );
        // A name in one place alone is said without it.
        let one = |r| run(i32::from(r == F), &[]).with_placed_tests([("t", Some("p"), r)]);
        let verdict = stress.verdict(&[one(P), one(F)]);
        assert!(
            verdict.reason().starts_with("t (failed in 1 of 2)\n"),
            "{}",
            verdict.reason()
        );
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
