//! The driving of a plain [`Policy`]: classify, decide, then say it in words.

use crate::attempt::Attempt;
use crate::decide::decide;
use crate::findings::{Findings, findings};
use crate::policy::{Plan, Policy, Step};
use crate::verdict::{Cause, Verdict};
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
        words::plan(&decide(self, attempts, false))
    }

    /// The [`Findings`] of a finished sequence: what its
    /// [`verdict`](Policy::verdict) rests on, as data.
    pub fn findings(&self, attempts: &[Attempt]) -> Findings {
        findings(attempts, &self.verdict(attempts))
    }

    /// The verdict of a finished sequence and its [`Findings`], the same
    /// facts as data that the reason states in words.
    pub fn verdict_with_findings(&self, attempts: &[Attempt]) -> (Verdict, Findings) {
        let verdict = self.verdict(attempts);
        let findings = findings(attempts, &verdict);
        (verdict, findings)
    }

    /// The verdict of a finished sequence: the one [`step`](Policy::step)
    /// gives when it stops, and for a sequence cut short (interrupted
    /// between attempts) the verdict of what did run.
    pub fn verdict(&self, attempts: &[Attempt]) -> Verdict {
        match words::plan(&decide(self, attempts, true)).step {
            Step::Done(verdict) => verdict,
            // `decide` answers every finished sequence; this arm keeps the
            // library panic-free if that ever changes.
            Step::Run(_) => Verdict::Inconclusive {
                cause: Cause::NoTestsRan,
                reason: "the sequence ended before anything was proved".to_owned(),
            },
        }
    }
}
