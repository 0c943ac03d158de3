//! What halted a check where no attempt's evidence decides (the sandbox
//! refused the project, the tree could not be made, recorded or kept, or
//! testgate was interrupted) and the verdict each halt is: the facade says
//! what happened, this says what verdict it is.

use crate::verdict::{Cause, Verdict};

/// What halted a check where the attempts' evidence does not decide: the
/// facade says which halt it saw and why, in a sentence;
/// [`Halt::verdict`] turns it into the verdict.
///
/// ```
/// use testgate_policy::{Cause, Halt};
///
/// let verdict = Halt::Cancelled.verdict("testgate was interrupted; no attempt ran");
/// assert_eq!(verdict.cause(), Some(Cause::Cancelled));
/// assert_eq!(verdict.reason(), "testgate was interrupted; no attempt ran");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Halt {
    /// The project was refused before anything ran (the host's root, a
    /// home): nothing runs in, records or restores it.
    SandboxRefused,
    /// What the attempts were to run could not be made before any ran
    /// (the trusted tests written into the tree).
    PrepareFailed,
    /// testgate itself was interrupted (recording or comparing the tree).
    Cancelled,
    /// A preparation changed the tree, or the attempts did and the driver
    /// ruled that no verdict of theirs stands
    /// ([`Driver::after_tree_change`]).
    ///
    /// [`Driver::after_tree_change`]: crate::Driver::after_tree_change
    TreeChanged,
    /// The tree could not be recorded before the preparations and the
    /// first attempt, so no change to it could have been seen.
    TreeUnreadable,
}

impl Halt {
    /// The verdict of a check that halted so, with `reason` (what
    /// happened, as the facade saw it): Inconclusive with the halt's cause
    /// (docs/policy.md), the reason kept as given.
    pub fn verdict(self, reason: impl Into<String>) -> Verdict {
        let cause = match self {
            Halt::SandboxRefused => Cause::SandboxRefused,
            Halt::PrepareFailed => Cause::PrepareFailed,
            Halt::Cancelled => Cause::Cancelled,
            Halt::TreeChanged => Cause::TreeChanged,
            Halt::TreeUnreadable => Cause::TreeUnreadable,
        };
        Verdict::Inconclusive {
            cause,
            reason: reason.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Cause, Halt};

    /// Each halt is Inconclusive with its own cause and the reason given,
    /// unchanged.
    #[test]
    fn each_halt_is_inconclusive_with_its_cause() {
        let halts = [
            (Halt::SandboxRefused, Cause::SandboxRefused),
            (Halt::PrepareFailed, Cause::PrepareFailed),
            (Halt::Cancelled, Cause::Cancelled),
            (Halt::TreeChanged, Cause::TreeChanged),
            (Halt::TreeUnreadable, Cause::TreeUnreadable),
        ];
        for (halt, cause) in halts {
            let verdict = halt.verdict("what happened");
            assert_eq!(verdict.name(), "inconclusive", "{halt:?}");
            assert_eq!(verdict.cause(), Some(cause), "{halt:?}");
            assert_eq!(verdict.reason(), "what happened", "{halt:?}");
        }
    }
}
