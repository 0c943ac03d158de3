//! The policy's settings: how many retries, what a retry runs, and what a
//! driver answers (a [`Plan`]). Its driving (`Policy::plan`,
//! `Policy::verdict`) is in `driver.rs`, above the decision and the words.

use crate::attempt::Selection;
use crate::verdict::Verdict;

/// The most names a targeted retry runs; more failures than this and the
/// retry runs the full suite. gotestsum's `--rerun-fails` uses the same
/// bound: past it a run is more likely broken than flaky, and a long
/// selection risks the command line.
pub const MAX_TARGETED: usize = 10;

/// What a retry runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rerun {
    /// Every retry runs the command as given.
    #[default]
    All,
    /// A retry after a failure runs only the tests that failed (at most
    /// [`MAX_TARGETED`]), and confirms a targeted pass with one more full
    /// run.
    Failed,
}

impl Rerun {
    /// `"all"` or `"failed"`, as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Rerun::All => "all",
            Rerun::Failed => "failed",
        }
    }
}

/// A [`Rerun`] spelled neither `all` nor `failed`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rerun mode `{given}`: expected `all` or `failed`")]
#[non_exhaustive]
pub struct UnknownRerun {
    /// What was given.
    pub given: String,
}

impl std::str::FromStr for Rerun {
    type Err = UnknownRerun;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "all" => Ok(Rerun::All),
            "failed" => Ok(Rerun::Failed),
            _ => Err(UnknownRerun {
                given: s.to_owned(),
            }),
        }
    }
}

/// What the driver wants next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Run one more attempt of this selection.
    Run(Selection),
    /// The answer is known; run nothing more.
    Done(Verdict),
}

/// What the driver wants next, with the note the caller attaches to the
/// attempt it runs ([`Attempt::with_note`](crate::Attempt::with_note)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Plan {
    /// The step.
    pub step: Step,
    /// Why a retry runs what it runs, when that is not the obvious (for
    /// example, a full retry under [`Rerun::Failed`]).
    pub note: Option<String>,
}

/// How many retries, and what a retry runs.
///
/// ```
/// use testgate_policy::{Attempt, Ending, Policy, Rerun, Selection, Step};
///
/// let policy = Policy::new(2).with_rerun(Rerun::Failed);
/// assert_eq!(policy.step(&[]), Step::Run(Selection::Full));
/// assert_eq!(policy.max_attempts(), 4);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Policy {
    /// Retries after the first attempt fails. 0 (the default) runs once.
    pub retries: u32,
    /// What a retry runs.
    pub rerun: Rerun,
}

impl Policy {
    /// A policy of `retries` retries that rerun everything.
    pub fn new(retries: u32) -> Self {
        Policy {
            retries,
            rerun: Rerun::All,
        }
    }

    /// Sets what a retry runs.
    pub fn with_rerun(mut self, rerun: Rerun) -> Self {
        self.rerun = rerun;
        self
    }

    /// The most attempts the driver ever asks for: 1 without retries;
    /// `retries + 1` with [`Rerun::All`]; `retries + 2` with
    /// [`Rerun::Failed`], whose one extra is either the full run that
    /// confirms a targeted pass or the full run that replaces a targeted
    /// retry that did not show its tests ran (never both).
    pub fn max_attempts(&self) -> u64 {
        let counted = u64::from(self.retries) + 1;
        match self.rerun {
            Rerun::All => counted,
            Rerun::Failed if self.retries == 0 => counted,
            Rerun::Failed => counted + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rerun_spellings() {
        assert_eq!("failed".parse::<Rerun>(), Ok(Rerun::Failed));
        assert_eq!("all".parse::<Rerun>(), Ok(Rerun::All));
        let err = "some".parse::<Rerun>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rerun mode `some`: expected `all` or `failed`"
        );
        for rerun in [Rerun::All, Rerun::Failed] {
            assert_eq!(rerun.name().parse::<Rerun>(), Ok(rerun));
        }
    }

    #[test]
    fn bounds() {
        assert_eq!(Policy::default().max_attempts(), 1);
        assert_eq!(Policy::new(0).with_rerun(Rerun::Failed).max_attempts(), 1);
        assert_eq!(Policy::new(3).max_attempts(), 4);
        assert_eq!(Policy::new(3).with_rerun(Rerun::Failed).max_attempts(), 5);
        assert_eq!(
            Policy::new(u32::MAX)
                .with_rerun(Rerun::Failed)
                .max_attempts(),
            u64::from(u32::MAX) + 2
        );
    }
}
