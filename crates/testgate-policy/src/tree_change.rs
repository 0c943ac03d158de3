//! What a sequence proves when its attempts changed the tree they were
//! judging: every attempt started from the tree as submitted (the facade
//! puts it back after each), so a Fail they prove together stands and an
//! Inconclusive of their own stays; a Pass is no evidence, and is
//! Inconclusive `tree_changed`.

use crate::attempt::Attempt;
use crate::policy::Policy;
use crate::verdict::Verdict;

/// What was left of the attempts' changes when the sequence ended
/// ([`Policy::after_tree_change`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Leftover {
    /// Every change was put back, or what the last attempt left in place
    /// (`--keep-changes`) runs nowhere later.
    Nothing,
    /// The last attempt's changes were left in place and among them is a
    /// file that runs later on the host (a git hook, a
    /// `.cargo/config.toml`, a `conftest.py`…).
    HostRunFiles,
    /// A change could not be put back (a file over the copy limit, an
    /// unreadable one): the next attempt would not have started from the
    /// tree as submitted, so the sequence stopped there.
    NotPutBack,
}

/// What the attempts prove when one or more of them changed, deleted or
/// added files in the tree it was judging ([`Policy::after_tree_change`]).
///
/// Every attempt started from the tree as submitted: the facade puts back
/// what an attempt changed before the next runs. So a failure the attempts
/// agree on is evidence about the submitted tree whatever the tests wrote,
/// and so is their disagreement (`flaky`); a pass is not, since a test that
/// rewrites its assertion, its snapshot or its configuration passes on its
/// own terms.
///
/// ```
/// use testgate_policy::{AfterTreeChange, Attempt, Ending, Leftover, Policy};
///
/// let failed = Attempt::new(Ending::Exited { code: 1 }).with_failing(["test_counter"]);
/// let passed = Attempt::new(Ending::Exited { code: 0 }).with_recognised(true);
/// let policy = Policy::new(0);
/// assert_eq!(
///     policy.after_tree_change(&[failed], Leftover::Nothing),
///     AfterTreeChange::ProvenFailure { failing: vec!["test_counter".into()] },
/// );
/// assert_eq!(
///     policy.after_tree_change(&[passed], Leftover::Nothing),
///     AfterTreeChange::NoEvidenceOfPass,
/// );
/// ```
///
/// Matched exhaustively, like [`Cause`](crate::Cause): a new rule forces
/// every caller to decide what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterTreeChange {
    /// The attempts together are a Fail naming tests: the verdict is that
    /// Fail (with these names, the ones that failed in every attempt), and
    /// the attempts that changed the tree note what they changed.
    ProvenFailure {
        /// The tests that failed in every attempt, in order of first
        /// appearance.
        failing: Vec<String>,
    },
    /// The attempts together are Inconclusive for a reason of their own
    /// (`flaky`, a timeout, a contradiction…): that verdict stands, noted.
    /// No pass is claimed, and every attempt ran the same tree.
    VerdictStands,
    /// The attempts together would be a Pass, or a Fail naming no test (a
    /// build error, a crash): an attempt that changed what it judged is no
    /// evidence of a pass, and a nameless failure gives nothing to repair;
    /// Inconclusive `tree_changed`.
    NoEvidenceOfPass,
    /// The last attempt's changes were left in place and run later on the
    /// host ([`Leftover::HostRunFiles`]): a Fail tells a gate to reject the
    /// change and move on, and nobody would look at the plant.
    /// Inconclusive `tree_changed`, whatever the attempts proved.
    LeftHostRunFiles,
    /// A change could not be put back ([`Leftover::NotPutBack`]): the
    /// sequence stopped short of what was asked. Inconclusive
    /// `tree_changed`, whatever the attempts proved.
    NotPutBack,
    /// The driver weighs each test across attempts (a [`Grader`](crate::Grader),
    /// a [`Stress`](crate::Stress) run): a change to the tree, even put
    /// back, leaves a test's outcomes nothing to stand on, so the sequence
    /// ends at the first change. Inconclusive `tree_changed`, whatever the
    /// attempts proved.
    TestsAcrossAttempts,
}

impl AfterTreeChange {
    /// Whether the verdict is the one the attempts gave (a Fail, or an
    /// Inconclusive of their own) rather than Inconclusive `tree_changed`.
    pub fn verdict_stands(&self) -> bool {
        match self {
            AfterTreeChange::ProvenFailure { .. } | AfterTreeChange::VerdictStands => true,
            AfterTreeChange::NoEvidenceOfPass
            | AfterTreeChange::LeftHostRunFiles
            | AfterTreeChange::NotPutBack
            | AfterTreeChange::TestsAcrossAttempts => false,
        }
    }
}

impl Policy {
    /// What `attempts` prove when one or more of them changed the tree it
    /// was judging, `leftover` saying what was left of the changes: the
    /// verdict they give together when it claims no pass, or why it is
    /// Inconclusive `tree_changed` (docs/policy.md, "The tree changed").
    pub fn after_tree_change(&self, attempts: &[Attempt], leftover: Leftover) -> AfterTreeChange {
        after_tree_change(self, attempts, leftover)
    }
}

/// The rule of [`Policy::after_tree_change`].
pub(crate) fn after_tree_change(
    policy: &Policy,
    attempts: &[Attempt],
    leftover: Leftover,
) -> AfterTreeChange {
    match leftover {
        Leftover::Nothing => {}
        Leftover::HostRunFiles => return AfterTreeChange::LeftHostRunFiles,
        Leftover::NotPutBack => return AfterTreeChange::NotPutBack,
    }
    match policy.verdict(attempts) {
        Verdict::Fail { failing, .. } if !failing.is_empty() => {
            AfterTreeChange::ProvenFailure { failing }
        }
        Verdict::Inconclusive { .. } => AfterTreeChange::VerdictStands,
        Verdict::Fail { .. } | Verdict::Pass { .. } => AfterTreeChange::NoEvidenceOfPass,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::{Counts, Ending};
    use crate::verdict::Cause;

    fn failed(names: &[&str]) -> Attempt {
        Attempt::new(Ending::Exited { code: 1 })
            .with_failing(names.iter().copied())
            .with_recognised(true)
    }

    fn passed() -> Attempt {
        Attempt::new(Ending::Exited { code: 0 })
            .with_counts(Counts::new(Some(3), Some(0), None))
            .with_recognised(true)
    }

    fn rule(retries: u32, attempts: &[Attempt]) -> AfterTreeChange {
        Policy::new(retries).after_tree_change(attempts, Leftover::Nothing)
    }

    #[test]
    fn a_fail_every_attempt_proved_stays_a_fail() {
        assert_eq!(
            rule(0, &[failed(&["a", "b"])]),
            AfterTreeChange::ProvenFailure {
                failing: vec!["a".into(), "b".into()]
            }
        );
        assert_eq!(
            rule(2, &[failed(&["a", "b"]), failed(&["a"]), failed(&["a"])]),
            AfterTreeChange::ProvenFailure {
                failing: vec!["a".into()]
            }
        );
    }

    /// The writer beside a flaky test: attempt 1 fails, attempt 2 passes,
    /// both rewrite a fixture; each started from the submitted tree, so
    /// `flaky` is what they prove.
    #[test]
    fn the_attempts_own_inconclusive_stands() {
        let rule = rule(1, &[failed(&["a"]), passed()]);
        assert_eq!(rule, AfterTreeChange::VerdictStands);
        assert!(rule.verdict_stands());
        assert!(matches!(
            Policy::new(1).verdict(&[failed(&["a"]), passed()]),
            Verdict::Inconclusive {
                cause: Cause::Flaky,
                ..
            }
        ));
    }

    #[test]
    fn it_does_not_fire_for_a_pass_or_a_nameless_fail() {
        for attempts in [
            vec![passed()],
            vec![passed(), passed()],
            // Failed naming nothing: a build error, a crash.
            vec![Attempt::new(Ending::Exited { code: 101 }).with_recognised(true)],
        ] {
            assert_eq!(
                rule(0, &attempts),
                AfterTreeChange::NoEvidenceOfPass,
                "{attempts:?}"
            );
        }
    }

    #[test]
    fn what_was_left_in_place_wins_over_a_proven_failure() {
        let policy = Policy::new(0);
        assert_eq!(
            policy.after_tree_change(&[failed(&["a"])], Leftover::HostRunFiles),
            AfterTreeChange::LeftHostRunFiles
        );
        assert_eq!(
            policy.after_tree_change(&[failed(&["a"])], Leftover::NotPutBack),
            AfterTreeChange::NotPutBack
        );
        assert!(!AfterTreeChange::NotPutBack.verdict_stands());
    }
}
