//! The one interface of the three drivers: what to run next, the verdict,
//! the findings, the bound, and what a change to the tree means.

use crate::attempt::Attempt;
use crate::findings::Findings;
use crate::grade::Grader;
use crate::grading::Grading;
use crate::policy::{Plan, Policy};
use crate::prepare::Preparation;
use crate::stress::Stress;
use crate::tree_change::{AfterTreeChange, Leftover};
use crate::variation::Varied;
use crate::verdict::{Cause, Outcome, Verdict};
use crate::words;

/// A driver of a sequence of attempts: [`Policy`] (a plain check),
/// [`Grader`] (a change graded against listed tests) and [`Stress`] (N full
/// runs). A caller holds one driver and asks it everything: what to run
/// next, the verdict, the [`Findings`] behind that verdict and how many
/// attempts it may ask for, so that no caller recomputes what the driver
/// knows (a bound taken from a `Policy` while a `Stress` drives is wrong,
/// and so is a caller matching on which driver it holds).
///
/// ```
/// use testgate_policy::{Attempt, Driver, Ending, Policy, Step, Stress};
///
/// fn run(driver: &dyn Driver) -> usize {
///     let mut attempts = Vec::new();
///     while let Step::Run(_) = driver.plan(&attempts).step {
///         assert!((attempts.len() as u64) < driver.max_attempts());
///         attempts.push(Attempt::new(Ending::Exited { code: 1 }).with_failing(["t"]));
///     }
///     let findings = driver.findings(&attempts);
///     assert_eq!(findings.always_failed, driver.verdict(&attempts).failing());
///     attempts.len()
/// }
/// assert_eq!(run(&Policy::new(2)), 3);
/// assert_eq!(run(&Stress::new(5)), 5);
/// ```
pub trait Driver: std::fmt::Debug {
    /// What to do after `attempts`: run one more (a selection, with a
    /// note), or stop with the verdict.
    fn plan(&self, attempts: &[Attempt]) -> Plan;

    /// The verdict of a finished sequence (or of one cut short).
    fn verdict(&self, attempts: &[Attempt]) -> Verdict;

    /// The most attempts [`plan`](Driver::plan) ever asks for.
    fn max_attempts(&self) -> u64;

    /// What the driver's verdict on `attempts` rests on, as data, from the
    /// same decision as the verdict.
    fn findings(&self, attempts: &[Attempt]) -> Findings;

    /// What `attempts` prove when one or more of them changed the tree it
    /// was judging, `leftover` saying what was left of the changes
    /// (docs/policy.md, "The tree changed"). A driver that weighs each test
    /// across attempts (a grader, a stress run) answers
    /// [`AfterTreeChange::TestsAcrossAttempts`]: the sequence ends at the
    /// first change.
    fn after_tree_change(&self, attempts: &[Attempt], leftover: Leftover) -> AfterTreeChange;

    /// Every graded test of `attempts`, when the driver grades against
    /// listed tests ([`Grader`]).
    fn grading(&self, attempts: &[Attempt]) -> Option<Grading> {
        let _ = attempts;
        None
    }

    /// The tests whose outcome varied across `attempts`, when the driver is
    /// a stress run ([`Stress`]).
    fn varied(&self, attempts: &[Attempt]) -> Option<Vec<Varied>> {
        let _ = attempts;
        None
    }
}

impl Driver for Policy {
    fn plan(&self, attempts: &[Attempt]) -> Plan {
        Policy::plan(self, attempts)
    }

    fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        Policy::verdict(self, attempts)
    }

    fn max_attempts(&self) -> u64 {
        Policy::max_attempts(self)
    }

    fn findings(&self, attempts: &[Attempt]) -> Findings {
        Policy::findings(self, attempts)
    }

    fn after_tree_change(&self, attempts: &[Attempt], leftover: Leftover) -> AfterTreeChange {
        Policy::after_tree_change(self, attempts, leftover)
    }
}

impl Driver for Grader {
    fn plan(&self, attempts: &[Attempt]) -> Plan {
        Grader::plan(self, attempts)
    }

    fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        Grader::verdict(self, attempts)
    }

    fn max_attempts(&self) -> u64 {
        self.policy().max_attempts()
    }

    fn findings(&self, attempts: &[Attempt]) -> Findings {
        Grader::findings(self, attempts)
    }

    fn after_tree_change(&self, _: &[Attempt], _: Leftover) -> AfterTreeChange {
        AfterTreeChange::TestsAcrossAttempts
    }

    fn grading(&self, attempts: &[Attempt]) -> Option<Grading> {
        Some(Grader::grading(self, attempts))
    }
}

impl Driver for Stress {
    fn plan(&self, attempts: &[Attempt]) -> Plan {
        Stress::plan(self, attempts)
    }

    fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        Stress::verdict(self, attempts)
    }

    fn max_attempts(&self) -> u64 {
        u64::from(self.runs())
    }

    fn findings(&self, attempts: &[Attempt]) -> Findings {
        Stress::findings(self, attempts)
    }

    fn after_tree_change(&self, _: &[Attempt], _: Leftover) -> AfterTreeChange {
        AfterTreeChange::TestsAcrossAttempts
    }

    fn varied(&self, attempts: &[Attempt]) -> Option<Vec<Varied>> {
        Some(Stress::varied(self, attempts))
    }
}

impl Preparation {
    /// The verdict when it did not succeed: Inconclusive
    /// [`Cause::PrepareFailed`] with how it ended, what it removed, and the
    /// end of its output. A preparation is not an attempt: its failure
    /// says nothing about the tests, so it is never a Fail.
    pub fn verdict(&self) -> Verdict {
        Outcome::Inconclusive(Cause::PrepareFailed).with_reason(words::preparation_reason(self))
    }
}
