//! Grading a change against expected tests: the tests that must turn green
//! (SWE-bench's FAIL_TO_PASS), the tests that must stay green
//! (PASS_TO_PASS), and what the attempts showed of each.
//!
//! The rules (docs/policy.md, "Grading against expected tests"):
//! an attempt that proves nothing about any test (a timeout, a refusal, an
//! environment failure, a truncated output) ends the sequence as the suite
//! policy says; otherwise only the listed tests decide. A listed test whose
//! outcome changed between attempts (or within one: the runner retried it)
//! is flaky; one that failed in every attempt that ran it fails the change;
//! one that never ran proves nothing (`not_run`), unless missing tests are
//! to fail; when every listed test passed, in the first attempt and in any
//! other that ran it, the change passes. Tests not on the lists are
//! reported and do not gate, unless [`Expectations::strict`].

use crate::attempt::Attempt;
use crate::decide_grade::{GradeDecision, decide_grade};
use crate::findings::{self, Findings};
use crate::grading::{Expectations, Grading, graded};
use crate::policy::{Plan, Policy, Step};
use crate::verdict::Verdict;
use crate::words;

/// The retry driver and verdict for a change graded against
/// [`Expectations`]: [`Policy`]'s counterpart when a caller lists the tests
/// that decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grader {
    policy: Policy,
    expectations: Expectations,
}

impl Grader {
    /// Grades against `expectations`, retrying as `policy` says.
    pub fn new(policy: Policy, expectations: Expectations) -> Self {
        Grader {
            policy,
            expectations,
        }
    }

    /// The retry policy the grading runs under.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The expectations graded against.
    pub fn expectations(&self) -> &Expectations {
        &self.expectations
    }

    /// What to do after `attempts`: run one more, or stop with the verdict.
    /// Never asks for more than the policy's
    /// [`max_attempts`](Policy::max_attempts).
    pub fn plan(&self, attempts: &[Attempt]) -> Plan {
        let decision = decide_grade(&self.policy, &self.expectations, attempts, false);
        let step = match decision {
            GradeDecision::Need { selection } => Step::Run(selection),
            GradeDecision::Stopped(_) | GradeDecision::Known { .. } => {
                Step::Done(verdict(&decision, attempts))
            }
        };
        Plan { step, note: None }
    }

    /// [`plan`](Grader::plan)'s step alone.
    pub fn step(&self, attempts: &[Attempt]) -> Step {
        self.plan(attempts).step
    }

    /// The verdict of a finished sequence (or of one cut short).
    pub fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        verdict(&self.decided(attempts), attempts)
    }

    /// The [`Findings`] of a finished sequence: what its
    /// [`verdict`](Grader::verdict) rests on, as data.
    pub(crate) fn findings(&self, attempts: &[Attempt]) -> Findings {
        findings::findings(attempts, &self.decided(attempts).outcome())
    }

    /// Every graded test of `attempts`, as data.
    pub fn grading(&self, attempts: &[Attempt]) -> Grading {
        graded(&self.expectations, attempts)
    }

    fn decided<'a>(&self, attempts: &'a [Attempt]) -> GradeDecision<'a> {
        decide_grade(&self.policy, &self.expectations, attempts, true)
    }
}

/// The grader's decision's verdict: its outcome, with the reason in words.
fn verdict(decision: &GradeDecision<'_>, attempts: &[Attempt]) -> Verdict {
    decision
        .outcome()
        .with_reason(words::grade_reason(decision, attempts))
}

/// What the grading and stress tests share.
#[cfg(test)]
pub(crate) mod testing {
    use crate::attempt::TestResult;
    use crate::attempt::{Attempt, Ending};

    /// An attempt that exited `code` with these per-test results, its
    /// failing names those that failed.
    pub(crate) fn run(code: i32, results: &[(&str, TestResult)]) -> Attempt {
        let failing: Vec<&str> = results
            .iter()
            .filter(|(_, r)| *r == TestResult::Failed)
            .map(|(n, _)| *n)
            .collect();
        Attempt::new(Ending::Exited { code })
            .with_recognised(true)
            .with_failing(failing)
            .with_tests(results.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::testing::run;
    use super::*;
    use crate::attempt::Ending;
    use crate::attempt::Selection;
    use crate::attempt::TestResult;
    use crate::grading::{Grade, List, ListedTest, Missing};
    use crate::policy::Rerun;
    use crate::verdict::Cause;

    fn grader(retries: u32) -> Grader {
        Grader::new(Policy::new(retries), Expectations::new(["fixed"], ["kept"]))
    }

    use TestResult::{Failed as F, Passed as P, Skipped as S, XFailed as X};

    /// Runs the driver over `runs` (one per attempt it asks for), as a
    /// caller would, and gives the verdict and how many attempts ran.
    fn drive(grader: &Grader, runs: &[Attempt]) -> (Verdict, usize) {
        let mut attempts = Vec::new();
        loop {
            match grader.step(&attempts) {
                Step::Done(verdict) => return (verdict, attempts.len()),
                Step::Run(_) => match runs.get(attempts.len()) {
                    Some(run) => attempts.push(run.clone()),
                    None => return (grader.verdict(&attempts), attempts.len()),
                },
            }
        }
    }

    #[test]
    fn by_table() {
        // What, retries, the runs, the verdict, its cause, attempts run.
        type Row = (
            &'static str,
            u32,
            Vec<Attempt>,
            &'static str,
            Option<Cause>,
            usize,
        );
        let rows: Vec<Row> = vec![
            (
                "both pass, an unlisted failure does not gate",
                0,
                vec![run(1, &[("fixed", P), ("kept", P), ("other", F)])],
                "pass",
                None,
                1,
            ),
            (
                "the fix did not fix",
                0,
                vec![run(1, &[("fixed", F), ("kept", P)])],
                "fail",
                None,
                1,
            ),
            (
                "a failure is retried, and stays",
                2,
                vec![run(1, &[("fixed", F), ("kept", P)]); 3],
                "fail",
                None,
                3,
            ),
            (
                "a failure that passes on retry is flaky",
                2,
                vec![
                    run(1, &[("fixed", P), ("kept", F)]),
                    run(0, &[("fixed", P), ("kept", P)]),
                ],
                "inconclusive",
                Some(Cause::Flaky),
                2,
            ),
            (
                "a listed test that never ran",
                2,
                vec![run(0, &[("fixed", P)])],
                "inconclusive",
                Some(Cause::NotRun),
                1,
            ),
            (
                "a skipped listed test proves nothing",
                0,
                vec![run(0, &[("fixed", P), ("kept", S)])],
                "inconclusive",
                Some(Cause::NotRun),
                1,
            ),
            (
                "a must-pass test that failed as expected did not pass",
                2,
                vec![run(0, &[("fixed", X), ("kept", P)])],
                "inconclusive",
                Some(Cause::NotRun),
                1,
            ),
            (
                "a keep-passing test that failed as expected is no failure",
                0,
                vec![run(0, &[("fixed", P), ("kept", X)])],
                "pass",
                None,
                1,
            ),
            (
                "a must-pass test that failed as expected, then passed, changed outcome",
                2,
                vec![
                    run(1, &[("fixed", X), ("kept", F)]),
                    run(0, &[("fixed", P), ("kept", F)]),
                ],
                "inconclusive",
                Some(Cause::Flaky),
                2,
            ),
            (
                "the runner's own retry of a listed test",
                0,
                vec![run(0, &[("fixed", TestResult::Flaky), ("kept", P)])],
                "inconclusive",
                Some(Cause::Flaky),
                1,
            ),
            (
                "a timeout ends it as the suite policy does",
                2,
                vec![Attempt::new(Ending::TimedOut {
                    after: std::time::Duration::from_secs(1),
                })],
                "inconclusive",
                Some(Cause::TimedOut),
                1,
            ),
        ];
        for (what, retries, runs, verdict, cause, ran) in rows {
            let (got, attempts) = drive(&grader(retries), &runs);
            assert_eq!(got.name(), verdict, "{what}: {}", got.reason());
            assert_eq!(got.cause(), cause, "{what}: {}", got.reason());
            assert_eq!(attempts, ran, "{what}: attempts");
        }
    }

    #[test]
    fn a_fail_names_the_listed_failures_first_with_their_list() {
        let verdict = grader(0).verdict(&[run(1, &[("fixed", F), ("kept", F), ("other", F)])]);
        assert_eq!(verdict.failing(), ["fixed", "kept"]);
        let reason = verdict.reason();
        assert!(
            reason.starts_with("fixed (must pass)\nkept (was passing)\n"),
            "{reason}"
        );
        assert!(
            reason.contains("1 test on no list failed and did not gate: other"),
            "{reason}"
        );
    }

    /// A graded Fail's reason, as a plain Fail's: the names, then each
    /// listed failing test's own output, then the tail; an unlisted
    /// failure's output is not shown.
    #[test]
    fn a_graded_fails_reason_shows_each_listed_failures_output_before_the_tail() {
        let attempt = run(1, &[("fixed", F), ("kept", P), ("other", F)])
            .with_excerpts([
                ("fixed", "E   assert 1 == 2".to_owned()),
                ("other", "E   printed by an unlisted test".to_owned()),
            ])
            .with_tail("1 failed, 1 passed".to_owned());
        let verdict = grader(0).verdict(&[attempt]);
        assert_eq!(verdict.failing(), ["fixed"]);
        let reason = verdict.reason();
        let at = |needle: &str| reason.find(needle).unwrap_or(usize::MAX);
        assert!(reason.starts_with("fixed (must pass)\n"), "{reason}");
        assert!(
            at("the output of fixed in attempt 1:\nE   assert 1 == 2")
                < at("the end of the output of attempt 1:"),
            "{reason}"
        );
        assert!(!reason.contains("printed by an unlisted test"), "{reason}");
    }

    #[test]
    fn missing_fail_makes_a_missing_test_a_failure() {
        let expect = Expectations::new(["fixed"], ["gone"]).with_missing(Missing::Fail);
        let verdict = Grader::new(Policy::new(0), expect).verdict(&[run(0, &[("fixed", P)])]);
        assert_eq!(verdict.name(), "fail", "{}", verdict.reason());
        assert_eq!(verdict.failing(), ["gone"]);
    }

    /// `pytest -q` names only failures: its 144 passes, the listed tests'
    /// among them, are counted, not named. Field test on pytest-dev/pluggy:
    /// `--missing fail` made that all-green run a Fail.
    #[test]
    fn a_listed_test_a_quiet_runner_may_have_passed_unnamed_is_never_a_fail() {
        let quiet = run(0, &[]).with_counts(crate::Counts::new(Some(144), Some(0), Some(0)));
        for missing in [Missing::Fail, Missing::Inconclusive] {
            let expect = Expectations::new(["fixed"], ["kept"]).with_missing(missing);
            let verdict = Grader::new(Policy::new(0), expect).verdict(std::slice::from_ref(&quiet));
            assert_eq!(verdict.cause(), Some(Cause::NotRun), "{}", verdict.reason());
            let reason = verdict.reason();
            assert!(
                reason.starts_with("fixed (must pass, not named in the output)\n"),
                "{reason}"
            );
            assert!(
                reason.contains("the runner counted 144 passing tests it did not name")
                    && reason.contains("pytest -v"),
                "{reason}"
            );
        }
        // Every pass named (pytest -v): a listed test not among them did not run.
        let verbose = run(0, &[("fixed", P)]).with_counts(crate::Counts::new(Some(1), None, None));
        let expect = Expectations::new(["fixed"], ["gone"]).with_missing(Missing::Fail);
        let verdict = Grader::new(Policy::new(0), expect).verdict(&[verbose]);
        assert_eq!(verdict.failing(), ["gone"], "{}", verdict.reason());
        assert!(
            verdict
                .reason()
                .contains("renamed, deselected or not collected")
        );
    }

    /// The code under test called `pytest.xfail()` in a test that must
    /// pass: no pass, and a Fail under `--missing fail`, whose reason says
    /// why.
    #[test]
    fn an_expected_failure_is_never_a_pass_of_a_must_pass_test() {
        let attempt = run(0, &[("fixed", X), ("kept", P)]);
        let verdict = grader(0).verdict(std::slice::from_ref(&attempt));
        assert_eq!(verdict.cause(), Some(Cause::NotRun), "{}", verdict.reason());
        let reason = verdict.reason();
        assert!(
            reason.starts_with("fixed (must pass, failed as marked expected to (xfail))\n"),
            "{reason}"
        );
        assert!(
            reason.contains("an expected failure is no pass of a test that must pass"),
            "{reason}"
        );
        let expect = Expectations::new(["fixed"], ["kept"]).with_missing(Missing::Fail);
        let verdict = Grader::new(Policy::new(0), expect).verdict(&[attempt]);
        assert_eq!(verdict.failing(), ["fixed"], "{}", verdict.reason());
    }

    #[test]
    fn strict_makes_an_unlisted_failure_gate() {
        let expect = Expectations::new(["fixed"], ["kept"]).with_strict(true);
        let verdict = Grader::new(Policy::new(0), expect)
            .verdict(&[run(1, &[("fixed", P), ("kept", P), ("other", F)])]);
        assert_eq!(verdict.failing(), ["other"], "{}", verdict.reason());
    }

    #[test]
    fn a_targeted_retry_runs_only_the_listed_failures() {
        let grader = Grader::new(
            Policy::new(1).with_rerun(Rerun::Failed),
            Expectations::new(["fixed"], ["kept"]),
        );
        let first = run(1, &[("fixed", F), ("kept", P), ("other", F)]);
        assert_eq!(
            grader.step(&[first]),
            Step::Run(Selection::Only(vec!["fixed".to_owned()]))
        );
    }

    #[test]
    fn a_quarantined_test_never_gates() {
        let expect = Expectations::new(Vec::<String>::new(), Vec::<String>::new())
            .with_strict(true)
            .with_quarantine(["shaky"]);
        let grader = Grader::new(Policy::new(0), expect);
        let verdict = grader.verdict(&[run(1, &[("a", P), ("shaky", F)])]);
        assert!(verdict.is_pass(), "{}", verdict.reason());
        assert!(
            verdict
                .reason()
                .contains("1 test in quarantine failed and did not gate: shaky")
        );
        let verdict = grader.verdict(&[run(1, &[("a", F), ("shaky", F)])]);
        assert_eq!(verdict.failing(), ["a"], "{}", verdict.reason());
        let listed = Expectations::new(["shaky"], ["a"]).with_quarantine(["shaky"]);
        let verdict =
            Grader::new(Policy::new(0), listed).verdict(&[run(1, &[("a", P), ("shaky", F)])]);
        assert!(
            verdict.is_pass(),
            "a listed test in quarantine: {}",
            verdict.reason()
        );
    }

    #[test]
    fn the_grading_is_data() {
        let grading = grader(0).grading(&[run(1, &[("fixed", F), ("kept", P), ("x", F)])]);
        let got: Vec<(&str, List, Grade)> = grading
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.list, t.grade))
            .collect();
        assert_eq!(
            got,
            [
                ("fixed", List::MustPass, Grade::Failed),
                ("kept", List::KeepPassing, Grade::Passed)
            ]
        );
        assert_eq!(grading.unlisted_failed, ["x"]);
    }

    /// One title in two files (jest's `math › adds`, in a.test.js and
    /// b.test.js), failing in b alone.
    fn one_title_in_two_files(b: TestResult) -> Attempt {
        run(1, &[])
            .with_failing(["math › adds"])
            .with_placed_tests([
                ("math › adds", Some("a.test.js"), P),
                ("math › adds", Some("b.test.js"), b),
                ("kept", None, P),
            ])
    }

    #[test]
    fn a_name_alone_holds_for_every_file_and_the_grade_names_the_one_that_failed() {
        let grader = Grader::new(Policy::new(0), Expectations::new(["math › adds"], ["kept"]));
        let verdict = grader.verdict(&[one_title_in_two_files(F)]);
        assert_eq!(verdict.failing(), ["math › adds"], "{}", verdict.reason());
        assert!(
            verdict
                .reason()
                .starts_with("math › adds (must pass, in b.test.js)\n"),
            "{}",
            verdict.reason()
        );
        let grading = grader.grading(&[one_title_in_two_files(F)]);
        let got: Vec<(Option<&str>, Grade)> = grading
            .tests
            .iter()
            .filter(|t| t.name == "math › adds")
            .map(|t| (t.context.as_deref(), t.grade))
            .collect();
        assert_eq!(
            got,
            [
                (Some("a.test.js"), Grade::Passed),
                (Some("b.test.js"), Grade::Failed)
            ]
        );
        // Both pass: the name holds.
        assert!(grader.verdict(&[one_title_in_two_files(P)]).is_pass());
    }

    #[test]
    fn a_name_and_file_holds_for_that_file_alone() {
        let in_a = Expectations::new(
            [ListedTest::in_file("math › adds", "./a.test.js")],
            ["kept"],
        );
        let verdict = Grader::new(Policy::new(0), in_a).verdict(&[one_title_in_two_files(F)]);
        assert!(verdict.is_pass(), "{}", verdict.reason());
        // The one in b failed on no list: said, not gating.
        assert!(
            verdict
                .reason()
                .contains("1 test on no list failed and did not gate: math › adds"),
            "{}",
            verdict.reason()
        );
        let in_b = Expectations::new([ListedTest::in_file("math › adds", "b.test.js")], ["kept"]);
        let verdict = Grader::new(Policy::new(0), in_b).verdict(&[one_title_in_two_files(F)]);
        assert_eq!(verdict.failing(), ["math › adds"], "{}", verdict.reason());
        // A file where no test of the name ran: not run.
        let in_c = Expectations::new([ListedTest::in_file("math › adds", "c.test.js")], ["kept"]);
        let verdict = Grader::new(Policy::new(0), in_c).verdict(&[one_title_in_two_files(P)]);
        assert_eq!(verdict.cause(), Some(Cause::NotRun), "{}", verdict.reason());
    }

    /// A quarantined name covers the tests of that name in every file; a
    /// strict grading still gates every other test, placed or not.
    #[test]
    fn a_quarantined_name_covers_every_file() {
        let expect = Expectations::new(Vec::<String>::new(), Vec::<String>::new())
            .with_strict(true)
            .with_quarantine(["math › adds"]);
        let grader = Grader::new(Policy::new(0), expect);
        let verdict = grader.verdict(&[one_title_in_two_files(F)]);
        assert!(verdict.is_pass(), "{}", verdict.reason());
        let unquarantined =
            Expectations::new(Vec::<String>::new(), Vec::<String>::new()).with_strict(true);
        let verdict =
            Grader::new(Policy::new(0), unquarantined).verdict(&[one_title_in_two_files(F)]);
        assert_eq!(verdict.failing(), ["math › adds"], "{}", verdict.reason());
    }

    /// A quarantined name and file covers that file's test alone: the
    /// same title failing in another file still gates. Before, quarantine
    /// entries were names, and the failure in a passed as quarantined.
    #[test]
    fn a_quarantined_name_and_file_covers_that_file_alone() {
        let quarantined_b = || {
            Expectations::new(Vec::<String>::new(), Vec::<String>::new())
                .with_strict(true)
                .with_quarantine([ListedTest::in_file("math › adds", "./b.test.js")])
        };
        let grader = Grader::new(Policy::new(0), quarantined_b());
        let verdict = grader.verdict(&[one_title_in_two_files(F)]);
        assert!(verdict.is_pass(), "{}", verdict.reason());
        assert!(
            verdict.reason().contains(
                "1 test in quarantine failed and did not gate: math › adds (in ./b.test.js)"
            ),
            "{}",
            verdict.reason()
        );
        let a_fails = run(1, &[])
            .with_failing(["math › adds"])
            .with_placed_tests([
                ("math › adds", Some("a.test.js"), F),
                ("math › adds", Some("b.test.js"), P),
                ("kept", None, P),
            ]);
        let verdict = grader.verdict(std::slice::from_ref(&a_fails));
        assert_eq!(verdict.failing(), ["math › adds"], "{}", verdict.reason());
        // Listed by name alone: graded in a, left out in b.
        let listed = Expectations::new(["math › adds"], ["kept"])
            .with_quarantine([ListedTest::in_file("math › adds", "b.test.js")]);
        let grader = Grader::new(Policy::new(0), listed);
        assert!(grader.verdict(&[one_title_in_two_files(F)]).is_pass());
        let grading = grader.grading(&[one_title_in_two_files(F)]);
        let got: Vec<Option<&str>> = grading
            .tests
            .iter()
            .filter(|t| t.name == "math › adds")
            .map(|t| t.context.as_deref())
            .collect();
        assert_eq!(got, [Some("a.test.js")]);
        let verdict = grader.verdict(&[a_fails]);
        assert_eq!(verdict.failing(), ["math › adds"], "{}", verdict.reason());
    }

    proptest::proptest! {
        /// The laws of issue 15: a grading verdict is never Pass when a
        /// listed test failed in any attempt; removing an unlisted test
        /// never changes it; a Fail names only tests that failed in every
        /// attempt that ran them.
        #[test]
        fn laws(
            runs in proptest::collection::vec(
                proptest::collection::vec(0u8..6, 4),
                1..4,
            ),
            retries in 0u32..3,
        ) {
            const NAMES: [&str; 4] = ["fixed", "kept", "other", "more"];
            let result = |k: u8| match k {
                0 => Some(P),
                1 => Some(F),
                2 => Some(S),
                3 => Some(TestResult::Flaky),
                4 => Some(X),
                _ => None,
            };
            let attempt = |row: &Vec<u8>, drop_unlisted: bool| {
                let results: Vec<(&str, TestResult)> = NAMES
                    .iter()
                    .zip(row)
                    .filter(|(n, _)| !(drop_unlisted && **n == "more"))
                    .filter_map(|(n, k)| Some((*n, result(*k)?)))
                    .collect();
                let code = i32::from(results.iter().any(|(_, r)| *r == F));
                run(code, &results)
            };
            let grader = grader(retries);
            let all: Vec<Attempt> = runs.iter().map(|r| attempt(r, false)).collect();
            let fewer: Vec<Attempt> = runs.iter().map(|r| attempt(r, true)).collect();
            let (verdict, n) = drive(&grader, &all);
            let (same, m) = drive(&grader, &fewer);
            // The reason may mention the unlisted test; nothing else may change.
            proptest::prop_assert_eq!(verdict.name(), same.name());
            proptest::prop_assert_eq!(verdict.cause(), same.cause());
            proptest::prop_assert_eq!(verdict.failing(), same.failing());
            proptest::prop_assert_eq!(n, m);
            let used = all.get(..n).unwrap_or(&all);
            let listed_failed = used.iter().any(|a| {
                a.tests.iter().any(|(name, r)| {
                    (name == "fixed" || name == "kept")
                        && matches!(r, TestResult::Failed | TestResult::Flaky)
                })
            });
            if listed_failed {
                proptest::prop_assert!(!verdict.is_pass(), "{}", verdict.reason());
            }
            // A must-pass test passes only by passing: never by an
            // expected failure, in any attempt.
            if verdict.is_pass() {
                let fixed: Vec<Option<TestResult>> = used
                    .iter()
                    .map(|a| a.tests.iter().find(|(n, _)| n == "fixed").map(|(_, r)| *r))
                    .collect();
                proptest::prop_assert!(
                    fixed.contains(&Some(P)) && !fixed.contains(&Some(X)),
                    "a Pass with the must-pass test {:?}", fixed
                );
            }
            for name in verdict.failing() {
                for attempt in used {
                    let r = attempt.tests.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
                    proptest::prop_assert!(
                        !matches!(r, Some(TestResult::Passed | TestResult::Flaky)),
                        "{name} is in a Fail but did not fail in every attempt"
                    );
                }
            }
        }
    }
}
