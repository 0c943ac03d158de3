//! The one interface of the three drivers: what to run next, the verdict, the findings and the bound.

use crate::attempt::Attempt;
use crate::findings::Findings;
use crate::grade::Grader;
use crate::policy::{Plan, Policy};
use crate::stress::Stress;
use crate::verdict::Verdict;

/// A driver of a sequence of attempts: [`Policy`] (a plain check),
/// [`Grader`] (a change graded against listed tests) and [`Stress`] (N full
/// runs). A caller holds one driver and asks it everything: what to run
/// next, the verdict, the [`Findings`] behind that verdict and how many
/// attempts it may ask for, so that no caller recomputes what the driver
/// knows (a bound taken from a `Policy` while a `Stress` drives is wrong).
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

    /// What the driver's verdict on `attempts` rests on, as data.
    fn findings(&self, attempts: &[Attempt]) -> Findings {
        Findings::of(attempts, &self.verdict(attempts))
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
}
