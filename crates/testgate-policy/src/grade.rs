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

use std::collections::{HashMap, HashSet};

use crate::attempt::{Attempt, Selection};
use crate::decide::{Decision, decide};
use crate::explain::push_tail;
use crate::history::{self, Outcome};
use crate::policy::{MAX_TARGETED, Plan, Policy, Rerun, Step};
use crate::reason::{Reason, tests};
use crate::verdict::{Cause, Verdict};

/// How one test ended in one attempt, as grading reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TestResult {
    /// It passed.
    Passed,
    /// It failed as it was marked to (pytest's `XFAIL`, also a test that
    /// called `pytest.xfail()`): no failure of a test that must keep
    /// passing, as SWE-bench counts it, and never a pass of a test that
    /// must pass ([`Grade::of_listed`]).
    XFailed,
    /// It failed or errored.
    Failed,
    /// It was skipped, or passed although expected to fail: it ran nothing
    /// that proves it either way.
    Skipped,
    /// It failed and then passed within the attempt.
    Flaky,
    /// It had started and not ended when the output stopped.
    Running,
}

impl TestResult {
    /// The lowercase name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            TestResult::Passed => "passed",
            TestResult::XFailed => "xfailed",
            TestResult::Failed => "failed",
            TestResult::Skipped => "skipped",
            TestResult::Flaky => "flaky",
            TestResult::Running => "running",
        }
    }
}

/// What to make of a listed test that never ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Missing {
    /// Nothing was proved: Inconclusive [`Cause::NotRun`] (the default).
    #[default]
    Inconclusive,
    /// The change fails, as SWE-bench grades a test missing from the log.
    Fail,
}

/// Which list a test is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum List {
    /// It must pass after the change (FAIL_TO_PASS).
    MustPass,
    /// It passed before and must keep passing (PASS_TO_PASS).
    KeepPassing,
    /// On no list: it failed in some attempt and [`Expectations::strict`]
    /// makes it gate as if it had to keep passing.
    Unlisted,
}

impl List {
    /// The snake_case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            List::MustPass => "must_pass",
            List::KeepPassing => "keep_passing",
            List::Unlisted => "unlisted",
        }
    }

    /// How a reason marks a test of this list.
    fn mark(self) -> &'static str {
        match self {
            List::MustPass => "must pass",
            List::KeepPassing => "was passing",
            List::Unlisted => "not listed",
        }
    }
}

/// The tests a change is graded against.
///
/// ```
/// use testgate_policy::{Attempt, Ending, Expectations, Grader, Policy, TestResult};
///
/// let expect = Expectations::new(["tests::fixed"], ["tests::adds"]);
/// let grader = Grader::new(Policy::new(0), expect);
/// let attempt = Attempt::new(Ending::Exited { code: 101 })
///     .with_recognised(true)
///     .with_failing(["tests::unrelated"])
///     .with_tests([
///         ("tests::fixed", TestResult::Passed),
///         ("tests::adds", TestResult::Passed),
///         ("tests::unrelated", TestResult::Failed),
///     ]);
/// let verdict = grader.verdict(&[attempt]);
/// assert!(verdict.is_pass(), "{}", verdict.reason());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Expectations {
    /// The tests that must pass (FAIL_TO_PASS), by canonical name.
    pub must_pass: Vec<String>,
    /// The tests that must keep passing (PASS_TO_PASS).
    pub keep_passing: Vec<String>,
    /// What a listed test that never ran makes of the verdict.
    pub missing: Missing,
    /// Tests on no list gate too: one that failed in every attempt fails
    /// the change, one whose outcome changed makes it flaky.
    pub strict: bool,
    /// Tests whose outcomes are reported and never gate, listed or not:
    /// the tests a stress run found unstable (`check --stress`).
    pub quarantine: Vec<String>,
}

impl Expectations {
    /// Tests that must pass and tests that must keep passing.
    pub fn new<I, J, S, T>(must_pass: I, keep_passing: J) -> Self
    where
        I: IntoIterator<Item = S>,
        J: IntoIterator<Item = T>,
        S: Into<String>,
        T: Into<String>,
    {
        Expectations {
            must_pass: must_pass.into_iter().map(Into::into).collect(),
            keep_passing: keep_passing.into_iter().map(Into::into).collect(),
            missing: Missing::Inconclusive,
            strict: false,
            quarantine: Vec::new(),
        }
    }

    /// Sets the tests whose outcomes are reported and never gate.
    #[must_use]
    pub fn with_quarantine<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.quarantine = names.into_iter().map(Into::into).collect();
        self
    }

    /// Sets what a listed test that never ran makes of the verdict.
    #[must_use]
    pub fn with_missing(mut self, missing: Missing) -> Self {
        self.missing = missing;
        self
    }

    /// Sets whether tests on no list gate too.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The listed tests, each once, with its list: must-pass first.
    fn listed(&self) -> Vec<(&str, List)> {
        let mut seen: HashSet<&str> = self.quarantine.iter().map(String::as_str).collect();
        let must = self.must_pass.iter().map(|n| (n.as_str(), List::MustPass));
        let keep = self
            .keep_passing
            .iter()
            .map(|n| (n.as_str(), List::KeepPassing));
        must.chain(keep).filter(|(n, _)| seen.insert(*n)).collect()
    }
}

/// One graded test: its list, its result in each attempt, and what they
/// add up to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GradedTest {
    /// The canonical name.
    pub name: String,
    /// The list it is on.
    pub list: List,
    /// Its result in each attempt, `None` where the attempt did not name it.
    pub results: Vec<Option<TestResult>>,
    /// What the attempts add up to for it.
    pub grade: Grade,
}

/// What the attempts add up to for one listed test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grade {
    /// It passed in every attempt that ran it, the first among them.
    Passed,
    /// It failed in every attempt that ran it.
    Failed,
    /// Its outcome changed between attempts, or within one.
    Flaky,
    /// No attempt ran it (or every one skipped it; or, for a test that
    /// must pass, every one that ran it saw it fail as marked expected to).
    NotRun,
}

impl Grade {
    /// The snake_case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Grade::Passed => "passed",
            Grade::Failed => "failed",
            Grade::Flaky => "flaky",
            Grade::NotRun => "not_run",
        }
    }
}

/// The grading of a finished sequence, as data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Grading {
    /// Every listed test (and, under [`Expectations::strict`], every test
    /// on no list that failed), in list order.
    pub tests: Vec<GradedTest>,
    /// Tests on no list that failed in some attempt and did not gate, in
    /// order of first appearance.
    pub unlisted_failed: Vec<String>,
}

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
        self.decide(attempts, false).into()
    }

    /// [`plan`](Grader::plan)'s step alone.
    pub fn step(&self, attempts: &[Attempt]) -> Step {
        self.plan(attempts).step
    }

    /// The verdict of a finished sequence (or of one cut short).
    pub fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        match self.decide(attempts, true) {
            Decision::Known(verdict) => verdict,
            // `decide` answers every finished sequence; this arm keeps the
            // library panic-free if that ever changes.
            Decision::Need { .. } => Verdict::Inconclusive {
                cause: Cause::NotRun,
                reason: "the sequence ended before any listed test was graded".to_owned(),
            },
        }
    }

    /// Every graded test of `attempts`, as data.
    pub fn grading(&self, attempts: &[Attempt]) -> Grading {
        let (tests, unlisted_failed) = self.graded(attempts);
        Grading {
            tests,
            unlisted_failed,
        }
    }

    fn graded(&self, attempts: &[Attempt]) -> (Vec<GradedTest>, Vec<String>) {
        let results: Vec<HashMap<&str, TestResult>> = attempts
            .iter()
            .map(|attempt| {
                let mut map: HashMap<&str, TestResult> = attempt
                    .tests
                    .iter()
                    .map(|(n, r)| (n.as_str(), *r))
                    .collect();
                // A name the parser gave as failing or flaky is that, whatever
                // the per-test list held (a caller may give only names).
                for name in &attempt.failing {
                    map.entry(name.as_str()).or_insert(TestResult::Failed);
                }
                for name in &attempt.flaky_within {
                    map.insert(name.as_str(), TestResult::Flaky);
                }
                map
            })
            .collect();
        let mut listed = self.expectations.listed();
        let quarantined = self.expectations.quarantine.iter().map(String::as_str);
        let on_a_list: HashSet<&str> = listed.iter().map(|(n, _)| *n).chain(quarantined).collect();
        let mut unlisted_failed = Vec::new();
        let mut seen = HashSet::new();
        for attempt in attempts {
            let failed = attempt.failing.iter().chain(&attempt.flaky_within);
            for name in failed {
                if !on_a_list.contains(name.as_str()) && seen.insert(name.as_str()) {
                    unlisted_failed.push(name.as_str());
                }
            }
        }
        if self.expectations.strict {
            listed.extend(unlisted_failed.drain(..).map(|n| (n, List::Unlisted)));
        }
        let tests = listed
            .into_iter()
            .map(|(name, list)| {
                let results: Vec<Option<TestResult>> =
                    results.iter().map(|map| map.get(name).copied()).collect();
                GradedTest {
                    name: name.to_owned(),
                    list,
                    grade: Grade::of_listed(list, &results),
                    results,
                }
            })
            .collect();
        (
            tests,
            unlisted_failed.into_iter().map(str::to_owned).collect(),
        )
    }

    fn decide(&self, attempts: &[Attempt], finished: bool) -> Decision {
        let finished = finished || attempts.len() as u64 >= self.policy.max_attempts();
        let Some(last) = attempts.last() else {
            return Decision::Need {
                selection: Selection::Full,
                note: None,
            };
        };
        // An attempt that proves nothing about any test ends the sequence
        // as the suite policy words it.
        for (index, attempt) in attempts.iter().enumerate() {
            if let Outcome::Stop(stop) = history::outcome(attempt) {
                if stop.proves_nothing_of_any_test() {
                    return decide(
                        &self.policy,
                        attempts.get(..=index).unwrap_or(attempts),
                        true,
                    );
                }
            }
        }
        let (tests, unlisted_failed) = self.graded(attempts);
        let number = attempts.len();
        let of = |grade: Grade| -> Vec<&GradedTest> {
            tests.iter().filter(|t| t.grade == grade).collect()
        };
        let flaky = of(Grade::Flaky);
        if !flaky.is_empty() {
            let mut reason = Reason::new();
            let names: Vec<&str> = flaky.iter().map(|t| t.name.as_str()).collect();
            reason.names(&names, |name| {
                let test = flaky.iter().find(|t| t.name == name);
                test.map_or_else(String::new, |t| {
                    format!(" ({}: {})", t.list.mark(), history_of(t))
                })
            });
            reason.line(&format!(
                "{} changed outcome between attempts or within one: the suite is flaky, \
                 and a flaky listed test proves nothing about the change",
                tests_listed(flaky.len())
            ));
            unlisted_line(&mut reason, &unlisted_failed);
            push_tail(&mut reason, last, number);
            return Decision::Known(Verdict::Inconclusive {
                cause: Cause::Flaky,
                reason: reason.finish(),
            });
        }
        let failed = of(Grade::Failed);
        if !failed.is_empty() {
            if !finished {
                return Decision::Need {
                    selection: self.retry_selection(&failed),
                    note: None,
                };
            }
            let mut reason = Reason::new();
            let names: Vec<&str> = failed.iter().map(|t| t.name.as_str()).collect();
            reason.names(&names, |name| {
                let list = failed.iter().find(|t| t.name == name).map(|t| t.list);
                list.map_or_else(String::new, |l| format!(" ({})", l.mark()))
            });
            reason.line(&format!(
                "{} failed in every attempt that ran {} ({})",
                tests_listed(failed.len()),
                if failed.len() == 1 { "it" } else { "them" },
                attempts_phrase(number)
            ));
            let not_run = of(Grade::NotRun);
            if !not_run.is_empty() {
                reason.line(&format!("{} did not run", tests_listed(not_run.len())));
            }
            unlisted_line(&mut reason, &unlisted_failed);
            push_tail(&mut reason, last, number);
            return Decision::Known(Verdict::Fail {
                failing: names.iter().map(|n| (*n).to_owned()).collect(),
                reason: reason.finish(),
            });
        }
        let not_run = of(Grade::NotRun);
        let ran_any = attempts
            .first()
            .is_some_and(|first| first.tests.iter().any(|(_, r)| *r == TestResult::Passed));
        // Under strict with nothing listed, every test gates: one must have run.
        let nothing_to_grade = tests.is_empty() && !(self.expectations.strict && ran_any);
        if !not_run.is_empty() || nothing_to_grade {
            // A runner that names only its failures (pytest -q, jest's and
            // vitest's default reporters) may have passed a listed test
            // without naming it: that is not seen, not "never ran".
            let unnamed = unnamed_passes(attempts);
            let unseen = if unnamed > 0 {
                "not named in the output"
            } else {
                "did not run"
            };
            let mut reason = Reason::new();
            let names: Vec<&str> = not_run.iter().map(|t| t.name.as_str()).collect();
            reason.names(&names, |name| {
                let test = not_run.iter().find(|t| t.name == name);
                test.map_or_else(String::new, |t| {
                    let how = if xfailed(t) {
                        "failed as marked expected to (xfail)"
                    } else {
                        unseen
                    };
                    format!(" ({}, {how})", t.list.mark())
                })
            });
            let expected_failures = not_run.iter().filter(|t| xfailed(t)).count();
            if expected_failures > 0 {
                reason.line(&format!(
                    "{} that must pass failed as marked expected to (xfail): an expected \
                     failure is no pass of a test that must pass",
                    tests_listed(expected_failures)
                ));
            }
            if tests.is_empty() && self.expectations.strict {
                reason.line("no test passed in the first attempt, so nothing was proved");
            } else if tests.is_empty() {
                reason.line("no test is listed to grade against");
            } else if unnamed > 0 {
                reason.line(&format!(
                    "{} never showed in the output, in {}, but the runner counted {unnamed} \
                     passing {} it did not name: whether {} ran cannot be told; run the runner \
                     in a mode that names every test (pytest -v, go test -v, jest --verbose, \
                     vitest --reporter=verbose)",
                    tests_listed(not_run.len()),
                    attempts_phrase(number),
                    if unnamed == 1 { "test" } else { "tests" },
                    if not_run.len() == 1 { "it" } else { "they" },
                ));
            } else {
                reason.line(&format!(
                    "{} never ran, or were skipped, in {}: renamed, deselected or not collected",
                    tests_listed(not_run.len()),
                    attempts_phrase(number)
                ));
            }
            if !last.recognised {
                reason.line("testgate did not recognise the runner's output, so it saw no test");
            }
            for (listed, ran) in near_misses(&names, attempts) {
                reason.line(&format!("did you mean {ran} for {listed}?"));
            }
            unlisted_line(&mut reason, &unlisted_failed);
            push_tail(&mut reason, last, number);
            return Decision::Known(match self.expectations.missing {
                Missing::Fail if !not_run.is_empty() && unnamed == 0 => Verdict::Fail {
                    failing: names.iter().map(|n| (*n).to_owned()).collect(),
                    reason: reason.finish(),
                },
                Missing::Fail | Missing::Inconclusive => Verdict::Inconclusive {
                    cause: Cause::NotRun,
                    reason: reason.finish(),
                },
            });
        }
        let mut reason = Reason::new();
        let must = tests.iter().filter(|t| t.list == List::MustPass).count();
        if tests.is_empty() {
            reason.line(&format!(
                "no test failed outside the quarantine, in {}",
                attempts_phrase(number)
            ));
        } else {
            reason.line(&format!(
                "{} passed ({must} that must pass, {} that must keep passing), in {}",
                tests_listed(tests.len()),
                tests.len() - must,
                attempts_phrase(number)
            ));
        }
        let quarantined: Vec<&str> = self
            .expectations
            .quarantine
            .iter()
            .filter(|name| {
                attempts
                    .iter()
                    .any(|a| a.failing.iter().any(|f| f == *name))
            })
            .map(String::as_str)
            .collect();
        if !quarantined.is_empty() {
            reason.line(&format!(
                "{} in quarantine failed and did not gate: {}",
                crate::reason::tests(quarantined.len()),
                quarantined.join(", ")
            ));
        }
        unlisted_line(&mut reason, &unlisted_failed);
        Decision::Known(Verdict::Pass {
            reason: reason.finish(),
        })
    }

    /// A retry of the listed tests that failed: only them where the policy
    /// reruns failed tests and there are few enough, else the full suite.
    fn retry_selection(&self, failed: &[&GradedTest]) -> Selection {
        match self.policy.rerun {
            Rerun::Failed if failed.len() <= MAX_TARGETED => {
                Selection::Only(failed.iter().map(|t| t.name.clone()).collect())
            }
            Rerun::Failed | Rerun::All => Selection::Full,
        }
    }
}

impl Grade {
    /// What one test's results, one per attempt (`None` where the attempt
    /// did not name it), add up to.
    ///
    /// ```
    /// use testgate_policy::{Grade, TestResult};
    ///
    /// let failed_then_passed = [Some(TestResult::Failed), Some(TestResult::Passed)];
    /// assert_eq!(Grade::of(&failed_then_passed), Grade::Flaky);
    /// assert_eq!(Grade::of(&[None, Some(TestResult::Skipped)]), Grade::NotRun);
    /// ```
    pub fn of(results: &[Option<TestResult>]) -> Grade {
        grade_of(results, true)
    }

    /// [`of`](Grade::of) for a test on `list`. An expected failure
    /// ([`TestResult::XFailed`]) is a pass of a test that must keep passing
    /// (SWE-bench's convention: it is no failure) and of one on no list,
    /// but never of a test that must pass: that must have *passed*, and
    /// the code under test can call `pytest.xfail()`. There it proves
    /// nothing, as a skip does, and beside a pass in another attempt it
    /// is a changed outcome (flaky).
    ///
    /// ```
    /// use testgate_policy::{Grade, List, TestResult};
    ///
    /// let xfailed = [Some(TestResult::XFailed)];
    /// assert_eq!(Grade::of_listed(List::MustPass, &xfailed), Grade::NotRun);
    /// assert_eq!(Grade::of_listed(List::KeepPassing, &xfailed), Grade::Passed);
    /// ```
    pub fn of_listed(list: List, results: &[Option<TestResult>]) -> Grade {
        let xfail_passes = match list {
            List::MustPass => false,
            List::KeepPassing | List::Unlisted => true,
        };
        grade_of(results, xfail_passes)
    }
}

/// How one test changed between two checks (the base commit's and the
/// change's), as `testgate diff` and `check --baseline` classify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Change {
    /// Failed before, passes now.
    Fixed,
    /// Passed before, fails now.
    Broken,
    /// Failed before and now.
    StillFailing,
    /// Passed before and now.
    StillPassing,
    /// Not in the earlier check; `Grade` says how it ended now.
    New(Grade),
    /// In the earlier check, not in this one: renamed, deleted, deselected.
    Gone(Grade),
    /// Flaky on either side: nothing can be said of the change.
    Flaky,
    /// Skipped (or never run) on either side.
    NotRun,
}

impl Change {
    /// The snake_case name used in JSON and text.
    pub const fn name(self) -> &'static str {
        match self {
            Change::Fixed => "fixed",
            Change::Broken => "broken",
            Change::StillFailing => "still_failing",
            Change::StillPassing => "still_passing",
            Change::New(_) => "new",
            Change::Gone(_) => "gone",
            Change::Flaky => "flaky",
            Change::NotRun => "not_run",
        }
    }
}

/// Every test of two checks, `before` and `after` (each a test's name and
/// [`Grade`]), classified: in `after`'s order, then the tests only
/// `before` had, in its order.
///
/// ```
/// use testgate_policy::{Change, Grade, compare};
///
/// let before = [("a", Grade::Failed), ("b", Grade::Passed), ("c", Grade::Passed)];
/// let after = [("a", Grade::Passed), ("b", Grade::Failed), ("d", Grade::Passed)];
/// let changes = compare(&before, &after);
/// assert_eq!(changes, [
///     ("a", Change::Fixed),
///     ("b", Change::Broken),
///     ("d", Change::New(Grade::Passed)),
///     ("c", Change::Gone(Grade::Passed)),
/// ]);
/// ```
pub fn compare<'a>(
    before: &[(&'a str, Grade)],
    after: &[(&'a str, Grade)],
) -> Vec<(&'a str, Change)> {
    let earlier: HashMap<&str, Grade> = before.iter().copied().collect();
    let later: HashSet<&str> = after.iter().map(|(n, _)| *n).collect();
    let mut changes: Vec<(&str, Change)> = after
        .iter()
        .map(|&(name, now)| {
            let change = match (earlier.get(name).copied(), now) {
                (None, now) => Change::New(now),
                (Some(Grade::Flaky), _) | (Some(_), Grade::Flaky) => Change::Flaky,
                (Some(Grade::NotRun), _) | (Some(_), Grade::NotRun) => Change::NotRun,
                (Some(Grade::Failed), Grade::Passed) => Change::Fixed,
                (Some(Grade::Passed), Grade::Failed) => Change::Broken,
                (Some(Grade::Failed), Grade::Failed) => Change::StillFailing,
                (Some(Grade::Passed), Grade::Passed) => Change::StillPassing,
            };
            (name, change)
        })
        .collect();
    let mut gone = HashSet::new();
    for &(name, then) in before {
        if !later.contains(name) && gone.insert(name) {
            changes.push((name, Change::Gone(then)));
        }
    }
    changes
}

/// What one test's results add up to.
/// The most passing tests an attempt's summary counted beyond those its
/// output named (as passed or flaky); 0 when every attempt named each pass
/// or stated no count.
fn unnamed_passes(attempts: &[Attempt]) -> u64 {
    attempts.iter().map(unnamed_passes_in).max().unwrap_or(0)
}

/// The passing tests `attempt`'s summary counted beyond those its output
/// named (as passed or flaky); 0 without a count.
pub(crate) fn unnamed_passes_in(attempt: &Attempt) -> u64 {
    let Some(counted) = attempt.counts.and_then(|c| c.passed) else {
        return 0;
    };
    let named = attempt
        .tests
        .iter()
        .filter(|(_, r)| matches!(r, TestResult::Passed | TestResult::Flaky))
        .count();
    counted.saturating_sub(u64::try_from(named).unwrap_or(u64::MAX))
}

fn grade_of(results: &[Option<TestResult>], xfail_passes: bool) -> Grade {
    let mut flaky = false;
    let mut passed = false;
    let mut failed = false;
    let mut no_pass = false;
    for result in results.iter().flatten() {
        match result {
            TestResult::Passed => passed = true,
            TestResult::XFailed if xfail_passes => passed = true,
            TestResult::XFailed => no_pass = true,
            TestResult::Failed => failed = true,
            TestResult::Flaky => flaky = true,
            TestResult::Skipped | TestResult::Running => {}
        }
    }
    // A test that must pass, passing in one attempt and failing as
    // expected in another, changed outcome.
    flaky |= passed && no_pass;
    match (flaky, passed, failed) {
        (true, _, _) | (false, true, true) => Grade::Flaky,
        (false, false, true) => Grade::Failed,
        (false, true, false) => Grade::Passed,
        (false, false, false) => Grade::NotRun,
    }
}

/// Whether a test graded [`Grade::NotRun`] was seen to fail as marked
/// expected to: what made a test that must pass not pass.
fn xfailed(test: &GradedTest) -> bool {
    test.results
        .iter()
        .flatten()
        .any(|r| *r == TestResult::XFailed)
}

/// `failed in attempt 1, passed in attempt 2`.
fn history_of(test: &GradedTest) -> String {
    test.results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some(format!("{} in attempt {}", r.as_ref()?.name(), i + 1)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// At most this many listed names that never ran are looked up among the
/// names that did (each compared only with names of about its length, and
/// the comparison cut off past the limit): the look-up is a courtesy, never
/// the cost of a verdict.
const NEAR_MISS_NAMES: usize = 20;

/// For each listed name that never ran, the name that ran which it most
/// likely meant: one that ends with it after a `/`, `::`, `.` or space (a
/// path or class left out), or else the one within a small edit distance
/// (a typo, a renamed test), when exactly one is nearest.
fn near_misses<'a>(listed: &[&'a str], attempts: &'a [Attempt]) -> Vec<(&'a str, &'a str)> {
    let mut ran: Vec<&str> = attempts
        .iter()
        .flat_map(|a| a.tests.iter().map(|(name, _)| name.as_str()))
        .collect();
    ran.sort_unstable();
    ran.dedup();
    let mut found = Vec::new();
    for name in listed.iter().take(NEAR_MISS_NAMES) {
        if ran.binary_search(name).is_ok() {
            continue;
        }
        let suffix: Vec<&str> = ran
            .iter()
            .copied()
            .filter(|r| {
                r.len() > name.len()
                    && r.ends_with(name)
                    && [b'/', b':', b'.', b' '].contains(&r.as_bytes()[r.len() - name.len() - 1])
            })
            .collect();
        if let [only] = suffix.as_slice() {
            found.push((*name, *only));
            continue;
        }
        let limit = (name.chars().count() / 8).clamp(1, 3);
        let mut best: Option<(usize, &str, bool)> = None;
        for candidate in &ran {
            if candidate.len().abs_diff(name.len()) > limit * 4 {
                continue;
            }
            let Some(distance) = edit_distance(name, candidate, limit) else {
                continue;
            };
            best = match best {
                Some((d, _, _)) if distance > d => best,
                Some((d, c, _)) if distance == d => Some((d, c, true)),
                _ => Some((distance, candidate, false)),
            };
        }
        if let Some((_, candidate, false)) = best {
            found.push((*name, candidate));
        }
    }
    found
}

/// The edit distance (Levenshtein, over characters) between `a` and `b`
/// when it is at most `limit`; `None` past it. Stops as soon as every
/// entry of a row is past the limit.
fn edit_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i.saturating_add(1);
        let mut smallest = row[0];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous.saturating_add(usize::from(ca != *cb));
            previous = row[j + 1];
            row[j + 1] = substitute
                .min(row[j].saturating_add(1))
                .min(previous.saturating_add(1));
            smallest = smallest.min(row[j + 1]);
        }
        if smallest > limit {
            return None;
        }
    }
    row.last().copied().filter(|d| *d <= limit)
}

fn tests_listed(n: usize) -> String {
    match n {
        1 => "1 listed test".to_owned(),
        n => format!("{n} listed tests"),
    }
}

fn attempts_phrase(n: usize) -> String {
    match n {
        1 => "1 attempt".to_owned(),
        n => format!("{n} attempts"),
    }
}

/// The line that reports failures on no list, which did not gate.
fn unlisted_line(reason: &mut Reason, unlisted: &[String]) {
    if unlisted.is_empty() {
        return;
    }
    let first: Vec<&str> = unlisted.iter().take(5).map(String::as_str).collect();
    let more = unlisted.len().saturating_sub(first.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    reason.line(&format!(
        "{} on no list failed and did not gate: {}{more}",
        tests(unlisted.len()),
        first.join(", ")
    ));
}

/// What the grading and stress tests share.
#[cfg(test)]
pub(crate) mod testing {
    use super::TestResult;
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

    fn grader(retries: u32) -> Grader {
        Grader::new(Policy::new(retries), Expectations::new(["fixed"], ["kept"]))
    }

    use TestResult::{Failed as F, Passed as P, Skipped as S, XFailed as X};

    #[test]
    fn a_listed_name_that_never_ran_gets_the_nearest_that_did() {
        let ran = [Attempt::new(Ending::Exited { code: 0 }).with_tests([
            ("tests/test_calc.py::test_adds", P),
            ("tests/test_calc.py::test_adds_negative", P),
            ("tests/test_calc.py::TestBig::test_big_numbers", P),
        ])];
        let near = |name: &'static str| near_misses(&[name], &ran);
        // A typo.
        assert_eq!(
            near("tests/test_calc.py::test_adds_negativ"),
            [(
                "tests/test_calc.py::test_adds_negativ",
                "tests/test_calc.py::test_adds_negative"
            )]
        );
        // The path or class left out.
        assert_eq!(
            near("test_big_numbers"),
            [(
                "test_big_numbers",
                "tests/test_calc.py::TestBig::test_big_numbers"
            )]
        );
        // Where it must not fire: a name that ran, nothing close, or two
        // equally close (no guess between them).
        assert!(near("tests/test_calc.py::test_adds").is_empty());
        assert!(near("tests/other.py::test_unrelated_thing").is_empty());
        let two =
            [Attempt::new(Ending::Exited { code: 0 }).with_tests([("t::ab", P), ("t::ac", P)])];
        assert!(near_misses(&["t::ax"], &two).is_empty());
    }

    #[test]
    fn edit_distance_stops_past_its_limit() {
        assert_eq!(edit_distance("kitten", "sitting", 3), Some(3));
        assert_eq!(edit_distance("kitten", "sitting", 2), None);
        assert_eq!(edit_distance("", "", 1), Some(0));
        assert_eq!(edit_distance("é", "e", 1), Some(1));
    }

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
