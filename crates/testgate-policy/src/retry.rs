//! The driving of a plain [`Policy`]: classify, decide, then say it in words.

use crate::attempt::Attempt;
use crate::decide::{Decided, Decision, decide};
use crate::findings::Findings;
use crate::policy::{Plan, Policy, Step};
use crate::verdict::Verdict;
use crate::words;

impl Policy {
    /// What to do after `attempts`, the attempts run so far in order: run
    /// one more, or stop with the verdict.
    ///
    /// Stops as early as the answer is known, and always by
    /// [`max_attempts`](Policy::max_attempts), whatever `attempts` holds.
    pub fn step(&self, attempts: &[Attempt]) -> Step {
        self.plan(attempts).step
    }

    /// [`step`](Policy::step) with the note for the attempt it asks for.
    pub fn plan(&self, attempts: &[Attempt]) -> Plan {
        plan(&decide(self, attempts, false))
    }

    /// The [`Findings`] of a finished sequence: what its
    /// [`verdict`](Policy::verdict) rests on, as data.
    pub fn findings(&self, attempts: &[Attempt]) -> Findings {
        decide(self, attempts, true).findings()
    }

    /// The verdict of a finished sequence and its [`Findings`], the same
    /// facts as data that the reason states in words, from one decision.
    pub fn verdict_with_findings(&self, attempts: &[Attempt]) -> (Verdict, Findings) {
        let decided = decide(self, attempts, true);
        (verdict(&decided), decided.findings())
    }

    /// The verdict of a finished sequence: the one [`step`](Policy::step)
    /// gives when it stops, and for a sequence cut short (interrupted
    /// between attempts) the verdict of what did run.
    pub fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        verdict(&decide(self, attempts, true))
    }
}

/// The decision's verdict: its outcome, with the reason in words.
pub(crate) fn verdict(decided: &Decided<'_>) -> Verdict {
    decided.outcome().with_reason(words::reason(decided))
}

/// What the driver wants next: the verdict, or the selection with its note.
pub(crate) fn plan(decided: &Decided<'_>) -> Plan {
    match &decided.decision {
        Decision::Known(_) => Plan {
            step: Step::Done(verdict(decided)),
            note: None,
        },
        Decision::Need { selection, why } => Plan {
            step: Step::Run(selection.clone()),
            note: why.as_ref().map(words::note),
        },
    }
}
