//! The grader's decision, as data: the policy's answer when an attempt
//! proved nothing of any test, a retry of the listed failures, or a
//! conclusion on the grading. It writes no English: `words/` renders it.

use crate::attempt::{Attempt, Selection, TestResult};
use crate::decide::{Decided, decide};
use crate::grading::{
    Expectations, Grade, GradedTest, Grading, ListedTest, Missing, Placed, graded, near_misses,
    unnamed_passes,
};
use crate::history::{self, AttemptClass};
use crate::policy::{MAX_TARGETED, Policy, Rerun};
use crate::verdict::{Cause, Outcome};

/// The grader's decision on a sequence.
#[derive(Debug, Clone)]
pub(crate) enum GradeDecision<'a> {
    /// An attempt proved nothing about any test: the suite policy's
    /// decision on the attempts up to it.
    Stopped(Decided<'a>),
    /// A listed test failed in every attempt that ran it and retries are
    /// left: the retry runs this selection.
    Need { selection: Selection },
    /// The answer, on this grading.
    Known {
        grading: Grading,
        conclusion: GradeConclusion,
    },
}

/// What the grading of a finished (or decided) sequence proves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GradeConclusion {
    /// No attempt ran: nothing was graded.
    NoAttempt,
    /// A graded test changed outcome between attempts or within one.
    Flaky,
    /// A graded test failed in every attempt that ran it.
    Failed,
    /// A listed test never showed, or nothing could be graded.
    NotRun {
        why: Unseen,
        /// The most passes a summary counted without naming them.
        unnamed: u64,
        /// `--missing fail` makes the tests that never ran a Fail.
        fails: bool,
        /// For a listed name that never ran, the name that ran it most
        /// likely meant.
        near: Vec<(String, String)>,
    },
    /// Every graded test passed; these quarantined tests failed and did
    /// not gate.
    Passed { quarantined: Vec<ListedTest> },
}

/// Why the listed tests were not seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unseen {
    /// Under strict with nothing listed, no test passed in the first
    /// attempt.
    NothingPassedFirst,
    /// No test is listed.
    NothingListed,
    /// The runner counted passes it did not name: whether they ran cannot
    /// be told.
    Unnamed,
    /// They never ran, or were skipped.
    NeverRan,
}

impl GradeDecision<'_> {
    /// The verdict's kind and cause: the suite policy's where an attempt
    /// proved nothing of any test, else the grading's. A decision that
    /// still needs an attempt graded nothing (`not_run`).
    pub(crate) fn outcome(&self) -> Outcome {
        match self {
            GradeDecision::Stopped(decided) => decided.outcome(),
            GradeDecision::Need { .. } => Outcome::Inconclusive(Cause::NotRun),
            GradeDecision::Known {
                grading,
                conclusion,
            } => conclusion.outcome(grading),
        }
    }
}

impl GradeConclusion {
    /// The verdict's kind and cause on `grading`: a Fail names the graded
    /// tests that failed (or, under `--missing fail`, those that never ran).
    pub(crate) fn outcome(&self, grading: &Grading) -> Outcome {
        // A name is failing once, however many places it failed in.
        let named = |grade: Grade| {
            let mut seen = std::collections::HashSet::new();
            Outcome::Fail {
                failing: grading
                    .tests
                    .iter()
                    .filter(|t| t.grade == grade && seen.insert(t.name.as_str()))
                    .map(|t| t.name.clone())
                    .collect(),
            }
        };
        match self {
            GradeConclusion::NoAttempt => Outcome::Inconclusive(Cause::NotRun),
            GradeConclusion::Flaky => Outcome::Inconclusive(Cause::Flaky),
            GradeConclusion::Failed => named(Grade::Failed),
            GradeConclusion::NotRun { fails: true, .. } => named(Grade::NotRun),
            GradeConclusion::NotRun { fails: false, .. } => Outcome::Inconclusive(Cause::NotRun),
            GradeConclusion::Passed { .. } => Outcome::Pass,
        }
    }
}

/// Decides on `attempts` graded against `expectations`, retrying as
/// `policy` says. With `finished`, the answer is never
/// [`GradeDecision::Need`].
pub(crate) fn decide_grade<'a>(
    policy: &Policy,
    expectations: &Expectations,
    attempts: &'a [Attempt],
    finished: bool,
) -> GradeDecision<'a> {
    let finished = finished || attempts.len() as u64 >= policy.max_attempts();
    if attempts.is_empty() && !finished {
        return GradeDecision::Need {
            selection: Selection::Full,
        };
    }
    if attempts.is_empty() {
        return GradeDecision::Known {
            grading: graded(expectations, attempts),
            conclusion: GradeConclusion::NoAttempt,
        };
    }
    // An attempt that proves nothing about any test ends the sequence as
    // the suite policy decides it.
    for (index, attempt) in attempts.iter().enumerate() {
        if let AttemptClass::Stop(stop) = history::classify(attempt)
            && stop.proves_nothing_of_any_test()
        {
            let prefix = attempts.get(..=index).unwrap_or(attempts);
            return GradeDecision::Stopped(decide(policy, prefix, true));
        }
    }
    let grading = graded(expectations, attempts);
    let tests = &grading.tests;
    let any = |grade: Grade| tests.iter().any(|t| t.grade == grade);
    let known = |conclusion| GradeDecision::Known {
        grading: grading.clone(),
        conclusion,
    };
    if any(Grade::Flaky) {
        return known(GradeConclusion::Flaky);
    }
    if any(Grade::Failed) {
        if !finished {
            let failed: Vec<&GradedTest> =
                tests.iter().filter(|t| t.grade == Grade::Failed).collect();
            return GradeDecision::Need {
                selection: retry_selection(policy, &failed),
            };
        }
        return known(GradeConclusion::Failed);
    }
    let not_run: Vec<&str> = tests
        .iter()
        .filter(|t| t.grade == Grade::NotRun)
        .map(|t| t.name.as_str())
        .collect();
    let ran_any = attempts
        .first()
        .is_some_and(|first| first.tests.iter().any(|(_, r)| *r == TestResult::Passed));
    // Under strict with nothing listed, every test gates: one must have run.
    let nothing_to_grade = tests.is_empty() && !(expectations.strict && ran_any);
    if !not_run.is_empty() || nothing_to_grade {
        let nothing_listed = tests.is_empty();
        return known(unseen(expectations, attempts, &not_run, nothing_listed));
    }
    // Each entry that failed where it lies: a name alone, wherever the
    // name failed; a name and file, in that file.
    let placed: Vec<Placed<'_>> = attempts.iter().map(Placed::of).collect();
    let quarantined = expectations
        .quarantine
        .iter()
        .filter(|entry| {
            placed.iter().any(|p| {
                p.tests
                    .iter()
                    .any(|&(n, at, r)| r == TestResult::Failed && entry.matches(n, at))
            }) || (entry.file.is_none() && attempts.iter().any(|a| a.failing.contains(&entry.name)))
        })
        .cloned()
        .collect();
    known(GradeConclusion::Passed { quarantined })
}

/// The conclusion when `not_run` of the listed tests never showed, or
/// nothing could be graded (`nothing_listed`).
fn unseen(
    expectations: &Expectations,
    attempts: &[Attempt],
    not_run: &[&str],
    nothing_listed: bool,
) -> GradeConclusion {
    // A runner that names only its failures (pytest -q, jest's and
    // vitest's default reporters) may have passed a listed test
    // without naming it: that is not seen, not "never ran".
    let unnamed = unnamed_passes(attempts);
    let why = if nothing_listed && expectations.strict {
        Unseen::NothingPassedFirst
    } else if nothing_listed {
        Unseen::NothingListed
    } else if unnamed > 0 {
        Unseen::Unnamed
    } else {
        Unseen::NeverRan
    };
    let fails = match expectations.missing {
        Missing::Fail => !not_run.is_empty() && unnamed == 0,
        Missing::Inconclusive => false,
    };
    let near = near_misses(not_run, attempts)
        .into_iter()
        .map(|(listed, ran)| (listed.to_owned(), ran.to_owned()))
        .collect();
    GradeConclusion::NotRun {
        why,
        unnamed,
        fails,
        near,
    }
}

/// A retry of the listed tests that failed: only them where the policy
/// reruns failed tests and there are few enough, else the full suite.
fn retry_selection(policy: &Policy, failed: &[&GradedTest]) -> Selection {
    match policy.rerun {
        Rerun::Failed if failed.len() <= MAX_TARGETED => {
            let mut seen = std::collections::HashSet::new();
            let names = failed.iter().filter(|t| seen.insert(t.name.as_str()));
            Selection::Only(names.map(|t| t.name.clone()).collect())
        }
        Rerun::Failed | Rerun::All => Selection::Full,
    }
}
