//! [`Judge`]: the one driver the attempt loop asks, chosen by the
//! configuration (the retry policy, grading against listed tests, or
//! stress runs).

use testgate_policy::{
    AfterTreeChange, Attempt, Cause, Driver, Expectations, Grader, Grading, Plan, Policy, Stress,
    Varied, Verdict,
};

use crate::suite::AttemptRecord;
use crate::tree::TreeChange;

/// The suite policy, or the grader when the caller listed the tests that
/// decide: the one driver the attempt loop asks.
#[derive(Debug)]
pub(crate) enum Judge {
    Suite(Policy),
    Graded(Grader),
    Stress(Stress),
}

impl Judge {
    pub(crate) fn new(policy: Policy, expect: Option<Expectations>) -> Self {
        match expect {
            Some(expectations) => Judge::Graded(Grader::new(policy, expectations)),
            None => Judge::Suite(policy),
        }
    }

    /// The driver itself, which answers plan, verdict and bound.
    pub(crate) fn driver(&self) -> &dyn Driver {
        match self {
            Judge::Suite(policy) => policy,
            Judge::Graded(grader) => grader,
            Judge::Stress(stress) => stress,
        }
    }

    pub(crate) fn plan(&self, attempts: &[Attempt]) -> Plan {
        self.driver().plan(attempts)
    }

    pub(crate) fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        self.driver().verdict(attempts)
    }

    /// The verdict when attempt `number`, the last of `attempts`, made
    /// `change` to the tree: the Fail the first attempt proved on the tree
    /// as submitted (the last attempt then notes what changed), or
    /// Inconclusive `tree_changed` (docs/policy.md, "The tree changed").
    /// Graded and stress runs judge tests one by one across attempts: a
    /// change to the tree leaves them nothing to stand on.
    pub(crate) fn after_tree_change(
        &self,
        change: &TreeChange,
        number: usize,
        attempts: &mut [Attempt],
        records: &mut [AttemptRecord],
    ) -> Verdict {
        let not_evidence = || Verdict::Inconclusive {
            cause: Cause::TreeChanged,
            reason: change.reason(number),
        };
        let policy = match self {
            Judge::Suite(policy) => policy,
            Judge::Graded(_) | Judge::Stress(_) => return not_evidence(),
        };
        match policy.after_tree_change(attempts, change.may_leave_host_run_files()) {
            AfterTreeChange::ProvenFailure { .. } => {
                let note = change.failure_stands_note();
                for attempt in attempts
                    .last_mut()
                    .into_iter()
                    .chain(records.last_mut().map(|record| &mut record.attempt))
                {
                    attempt.note = Some(match attempt.note.take() {
                        Some(own) => format!("{own}; {note}"),
                        None => note.clone(),
                    });
                }
                policy.verdict(attempts)
            }
            AfterTreeChange::FirstProvedNoFailure
            | AfterTreeChange::AttemptsDisagree
            | AfterTreeChange::LeftHostRunFiles => not_evidence(),
        }
    }

    pub(crate) fn grading(&self, attempts: &[Attempt]) -> Option<Grading> {
        match self {
            Judge::Suite(_) | Judge::Stress(_) => None,
            Judge::Graded(grader) => Some(grader.grading(attempts)),
        }
    }

    pub(crate) fn varied(&self, attempts: &[Attempt]) -> Option<Vec<Varied>> {
        match self {
            Judge::Suite(_) | Judge::Graded(_) => None,
            Judge::Stress(stress) => Some(stress.varied(attempts)),
        }
    }
}
