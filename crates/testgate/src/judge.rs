//! [`Judge`]: the one driver the attempt loop asks, chosen by the
//! configuration (the retry policy, grading against listed tests, or
//! stress runs).

use testgate_policy::{
    AfterTreeChange, Attempt, Cause, Driver, Expectations, Grader, Grading, Leftover, Plan, Policy,
    Stress, Varied, Verdict,
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

    /// Whether the driver judges whole attempts (the retry policy), so that
    /// a change to the tree, put back before the next attempt, leaves the
    /// sequence worth running on; graded and stress runs weigh each test
    /// across attempts and stop at the first change.
    pub(crate) fn weighs_whole_attempts(&self) -> bool {
        match self {
            Judge::Suite(_) => true,
            Judge::Graded(_) | Judge::Stress(_) => false,
        }
    }

    /// The verdict when the attempts made `changes` to the tree (each with
    /// the attempt's number, in order): the verdict the attempts give
    /// together when it claims no pass (a Fail they prove, or their own
    /// Inconclusive; the attempts that changed the tree then note what they
    /// changed), or Inconclusive `tree_changed` (docs/policy.md, "The tree
    /// changed"). Graded and stress runs judge tests one by one across
    /// attempts: a change to the tree leaves them nothing to stand on.
    pub(crate) fn after_tree_change(
        &self,
        changes: &[(usize, TreeChange)],
        attempts: &mut [Attempt],
        records: &mut [AttemptRecord],
    ) -> Verdict {
        let Some((number, last)) = changes.last() else {
            return self.verdict(attempts);
        };
        let not_evidence = || Verdict::Inconclusive {
            cause: Cause::TreeChanged,
            reason: last.reason(*number),
        };
        let policy = match self {
            Judge::Suite(policy) => policy,
            Judge::Graded(_) | Judge::Stress(_) => return not_evidence(),
        };
        let leftover = if matches!(last.restored, Some(Err(_))) {
            Leftover::NotPutBack
        } else if last.may_leave_host_run_files() {
            Leftover::HostRunFiles
        } else {
            Leftover::Nothing
        };
        match policy.after_tree_change(attempts, leftover) {
            AfterTreeChange::ProvenFailure { .. } | AfterTreeChange::VerdictStands => {
                for (number, change) in changes {
                    let note = change.verdict_stands_note();
                    let index = number.saturating_sub(1);
                    for attempt in attempts
                        .get_mut(index)
                        .into_iter()
                        .chain(records.get_mut(index).map(|record| &mut record.attempt))
                    {
                        attempt.note = Some(match attempt.note.take() {
                            Some(own) => format!("{own}; {note}"),
                            None => note.clone(),
                        });
                    }
                }
                policy.verdict(attempts)
            }
            AfterTreeChange::NoEvidenceOfPass
            | AfterTreeChange::LeftHostRunFiles
            | AfterTreeChange::NotPutBack => not_evidence(),
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
