//! What a sequence proves when its last attempt changed the tree it was
//! judging: a failure the first attempt proved on the tree as submitted
//! stays a Fail; anything else is Inconclusive `tree_changed`.

use crate::attempt::Attempt;
use crate::history::{self, AttemptClass};
use crate::policy::Policy;
use crate::verdict::Verdict;

/// What the attempts prove when the last of them changed, deleted or added
/// files in the tree it was judging ([`Policy::after_tree_change`]).
///
/// Every attempt up to the one that changed the tree started from the tree
/// as submitted (the tree is compared after each attempt, and the sequence
/// stops at the first change). So the first attempt's named failures are
/// evidence about the submitted tree whatever it did after; a pass, or a
/// disagreement between attempts, is not, since the tree moved under it.
///
/// ```
/// use testgate_policy::{AfterTreeChange, Attempt, Ending, Policy};
///
/// let failed = Attempt::new(Ending::Exited { code: 1 }).with_failing(["test_counter"]);
/// let passed = Attempt::new(Ending::Exited { code: 0 }).with_recognised(true);
/// let policy = Policy::new(0);
/// assert_eq!(
///     policy.after_tree_change(&[failed], false),
///     AfterTreeChange::ProvenFailure { failing: vec!["test_counter".into()] },
/// );
/// assert_eq!(
///     policy.after_tree_change(&[passed], false),
///     AfterTreeChange::FirstProvedNoFailure,
/// );
/// ```
///
/// Matched exhaustively, like [`Cause`](crate::Cause): a new rule forces
/// every caller to decide what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterTreeChange {
    /// The first attempt failed naming tests, and the attempts together
    /// are a Fail naming them: the verdict is that Fail (with these names,
    /// the ones that failed in every attempt), and the reason says what
    /// changed.
    ProvenFailure {
        /// The tests that failed in every attempt, in order of first
        /// appearance.
        failing: Vec<String>,
    },
    /// The first attempt did not fail naming a test (it passed, failed
    /// naming none, or ended without an answer: a timeout, a refusal, a
    /// contradiction): it proved no failure of the tree as submitted, and
    /// the tree change wins.
    FirstProvedNoFailure,
    /// The first attempt failed naming tests, but the attempts together are
    /// no Fail naming tests (a later one passed, failed other tests, timed
    /// out...): they compared different trees, and the tree change wins.
    AttemptsDisagree,
    /// The change left files that run later on the host (a git hook, a
    /// `.cargo/config.toml`, a `conftest.py`…) in place, not restored: a
    /// Fail tells a gate to reject the change and move on, and nobody would
    /// look at the plant. The tree change wins, whatever the attempts
    /// proved.
    LeftHostRunFiles,
}

impl AfterTreeChange {
    /// Whether the verdict is the Fail the attempts proved
    /// ([`AfterTreeChange::ProvenFailure`]) rather than Inconclusive
    /// `tree_changed`.
    pub fn is_proven_failure(&self) -> bool {
        match self {
            AfterTreeChange::ProvenFailure { .. } => true,
            AfterTreeChange::FirstProvedNoFailure
            | AfterTreeChange::AttemptsDisagree
            | AfterTreeChange::LeftHostRunFiles => false,
        }
    }
}

impl Policy {
    /// What `attempts` prove when the last of them changed the tree it was
    /// judging, with `left_host_run_files` when the change left files that
    /// run later on the host in place (not restored): the Fail the first
    /// attempt proved on the tree as submitted, or why the verdict is
    /// Inconclusive `tree_changed` (docs/policy.md, "The tree changed").
    pub fn after_tree_change(
        &self,
        attempts: &[Attempt],
        left_host_run_files: bool,
    ) -> AfterTreeChange {
        after_tree_change(self, attempts, left_host_run_files)
    }
}

/// The rule of [`Policy::after_tree_change`].
pub(crate) fn after_tree_change(
    policy: &Policy,
    attempts: &[Attempt],
    left_host_run_files: bool,
) -> AfterTreeChange {
    let Some(first) = attempts.first() else {
        return AfterTreeChange::FirstProvedNoFailure;
    };
    if !failed_naming_tests(first) {
        return AfterTreeChange::FirstProvedNoFailure;
    }
    if left_host_run_files {
        return AfterTreeChange::LeftHostRunFiles;
    }
    match policy.verdict(attempts) {
        Verdict::Fail { failing, .. } if !failing.is_empty() => {
            AfterTreeChange::ProvenFailure { failing }
        }
        Verdict::Fail { .. } | Verdict::Pass { .. } | Verdict::Inconclusive { .. } => {
            AfterTreeChange::AttemptsDisagree
        }
    }
}

/// Whether `attempt` ran the full suite and failed naming tests, as
/// evidence (not a contradiction, a timeout, a flaky-within or a stop).
fn failed_naming_tests(attempt: &Attempt) -> bool {
    let failed = match history::classify(attempt) {
        AttemptClass::Failed { .. } => true,
        AttemptClass::Passed | AttemptClass::Stop(_) => false,
    };
    failed && history::is_full(attempt) && !attempt.failing.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::{Counts, Ending, Selection};

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
        Policy::new(retries).after_tree_change(attempts, false)
    }

    #[test]
    fn a_first_attempt_that_failed_naming_tests_stays_a_fail() {
        assert_eq!(
            rule(0, &[failed(&["a", "b"])]),
            AfterTreeChange::ProvenFailure {
                failing: vec!["a".into(), "b".into()]
            }
        );
        // Retries left: the Fail is what the attempts run so far proved.
        assert!(rule(3, &[failed(&["a"])]).is_proven_failure());
        // A later attempt that failed the same tests, and changed the tree.
        assert_eq!(
            rule(2, &[failed(&["a", "b"]), failed(&["a"])]),
            AfterTreeChange::ProvenFailure {
                failing: vec!["a".into()]
            }
        );
    }

    #[test]
    fn it_does_not_fire_when_the_first_attempt_proved_no_failure() {
        let no_failure = [
            passed(),
            // Failed naming nothing: a build error, a crash.
            Attempt::new(Ending::Exited { code: 101 }).with_recognised(true),
            // Exit 0 with failing names: a contradiction.
            Attempt::new(Ending::Exited { code: 0 }).with_failing(["a"]),
            Attempt::new(Ending::TimedOut {
                after: std::time::Duration::from_secs(1),
            })
            .with_failing(["a"]),
            Attempt::new(Ending::Exited { code: 1 })
                .with_failing(["a"])
                .with_flaky_within(["a"], 1),
            // Not the full suite (never first from the driver; any history).
            failed(&["a"]).with_selection(Selection::Only(vec!["a".into()])),
        ];
        for first in no_failure {
            assert_eq!(
                rule(0, std::slice::from_ref(&first)),
                AfterTreeChange::FirstProvedNoFailure,
                "{first:?}"
            );
        }
        assert_eq!(rule(0, &[]), AfterTreeChange::FirstProvedNoFailure);
    }

    #[test]
    fn it_does_not_fire_when_the_attempts_disagree() {
        for later in [passed(), failed(&["c"])] {
            assert_eq!(
                rule(1, &[failed(&["a"]), later.clone()]),
                AfterTreeChange::AttemptsDisagree,
                "{later:?}"
            );
        }
        let timed_out = Attempt::new(Ending::TimedOut {
            after: std::time::Duration::from_secs(1),
        });
        assert_eq!(
            rule(1, &[failed(&["a"]), timed_out]),
            AfterTreeChange::AttemptsDisagree
        );
    }

    #[test]
    fn host_run_files_left_in_place_win_over_a_proven_failure() {
        let policy = Policy::new(0);
        assert_eq!(
            policy.after_tree_change(&[failed(&["a"])], true),
            AfterTreeChange::LeftHostRunFiles
        );
        // They do not turn a pass into anything but tree_changed either.
        assert_eq!(
            policy.after_tree_change(&[passed()], true),
            AfterTreeChange::FirstProvedNoFailure
        );
    }
}
