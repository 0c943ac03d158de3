//! The one driver the attempt loop asks, chosen by the configuration (the
//! retry policy, grading against listed tests, or stress runs), and the
//! verdict when the attempts changed the tree: the facade asks the
//! [`Driver`], never which driver it holds.

use testgate_policy::{
    AfterTreeChange, Attempt, Driver, Expectations, Findings, Grader, Halt, Leftover, Policy,
    Stress, Verdict,
};

use crate::project_tree::TreeChange;
use crate::records::AttemptRecord;

/// The driver of `stress` runs, else the grader when the caller listed the
/// tests that decide (`expect`), else the retry policy.
pub(crate) fn driver(
    policy: Policy,
    expect: Option<Expectations>,
    stress: Option<u32>,
) -> Box<dyn Driver> {
    match (stress, expect) {
        (Some(runs), _) => Box::new(Stress::new(runs)),
        (None, Some(expectations)) => Box::new(Grader::new(policy, expectations)),
        (None, None) => Box::new(policy),
    }
}

/// Whether a change to the tree ends the sequence at once: the driver
/// weighs each test across attempts (graded and stress runs), and a change,
/// even put back, leaves it nothing to stand on.
pub(crate) fn ends_at_tree_change(driver: &dyn Driver, attempts: &[Attempt]) -> bool {
    match driver.after_tree_change(attempts, Leftover::Nothing) {
        AfterTreeChange::TestsAcrossAttempts => true,
        AfterTreeChange::ProvenFailure { .. }
        | AfterTreeChange::VerdictStands
        | AfterTreeChange::NoEvidenceOfPass
        | AfterTreeChange::LeftHostRunFiles
        | AfterTreeChange::NotPutBack => false,
    }
}

/// The verdict of the sequence, its findings and the last change to the
/// tree, from the verdict the attempt loop `given` (with whether the
/// driver gave it, not testgate's own `cancelled`) and the attempts'
/// `changes` to the tree (each with the attempt's number, in order).
pub(crate) fn conclude(
    driver: &dyn Driver,
    given: (Verdict, bool),
    mut changes: Vec<(usize, TreeChange)>,
    attempts: &mut [Attempt],
    records: &mut [AttemptRecord],
) -> (Verdict, Findings, Option<TreeChange>) {
    // The findings come from the decision of whoever gave the verdict.
    let (verdict, findings) = match given {
        _ if !changes.is_empty() => after_tree_change(driver, &changes, attempts, records),
        (verdict, true) => (verdict, driver.findings(attempts)),
        (verdict, false) => {
            let findings = Findings::of(attempts, &verdict);
            (verdict, findings)
        }
    };
    (verdict, findings, changes.pop().map(|(_, change)| change))
}

/// The verdict and its findings when the attempts made `changes` to the
/// tree, as the driver rules ([`Driver::after_tree_change`], docs/policy.md,
/// "The tree changed"): the verdict the attempts give together when it
/// stands (the attempts that changed the tree then note what they
/// changed), or Inconclusive `tree_changed` naming what the last change
/// was.
fn after_tree_change(
    driver: &dyn Driver,
    changes: &[(usize, TreeChange)],
    attempts: &mut [Attempt],
    records: &mut [AttemptRecord],
) -> (Verdict, Findings) {
    let Some((number, last)) = changes.last() else {
        return (driver.verdict(attempts), driver.findings(attempts));
    };
    let leftover = if matches!(last.restored, Some(Err(_))) {
        Leftover::NotPutBack
    } else if last.may_leave_host_run_files() {
        Leftover::HostRunFiles
    } else {
        Leftover::Nothing
    };
    match driver.after_tree_change(attempts, leftover) {
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
            (driver.verdict(attempts), driver.findings(attempts))
        }
        AfterTreeChange::NoEvidenceOfPass
        | AfterTreeChange::LeftHostRunFiles
        | AfterTreeChange::NotPutBack
        | AfterTreeChange::TestsAcrossAttempts => {
            let verdict = Halt::TreeChanged.verdict(last.reason(*number));
            // A verdict the driver did not give: counted over the attempts.
            let findings = Findings::of(attempts, &verdict);
            (verdict, findings)
        }
    }
}

#[cfg(test)]
mod tests {
    use testgate_policy::{Cause, Ending};

    use super::*;

    /// The facade asks the driver, never its kind: a plain check keeps the
    /// Fail its attempts prove and notes the change; a grader and a stress
    /// run stop at the first change, `tree_changed`, whatever was proved.
    #[test]
    fn a_tree_change_is_ruled_by_the_driver() {
        let failed = Attempt::new(Ending::Exited { code: 1 })
            .with_failing(["a"])
            .with_recognised(true);
        let mut change = TreeChange::default();
        change.changed.push("tests/test_a.py".into());
        change.restored = Some(Ok(1));
        let listed = Expectations::new(["a"], Vec::<String>::new());
        let drivers = [
            (driver(Policy::new(0), None, None), None),
            (
                driver(Policy::new(0), Some(listed), None),
                Some(Cause::TreeChanged),
            ),
            (
                driver(Policy::new(0), None, Some(2)),
                Some(Cause::TreeChanged),
            ),
        ];
        for (driver, cause) in drivers {
            let mut attempts = vec![failed.clone()];
            assert_eq!(
                ends_at_tree_change(&*driver, &attempts),
                cause.is_some(),
                "{driver:?}"
            );
            let given = (driver.verdict(&attempts), true);
            let changes = vec![(1, change.clone())];
            let (verdict, findings, tree) =
                conclude(&*driver, given, changes, &mut attempts, &mut []);
            assert_eq!(verdict.cause(), cause, "{driver:?}: {verdict:?}");
            assert!(tree.is_some());
            match cause {
                None => {
                    assert_eq!(verdict.failing(), ["a"]);
                    assert_eq!(findings.always_failed, ["a"]);
                    assert!(attempts[0].note.is_some(), "the change is noted");
                }
                Some(_) => assert!(findings.always_failed.is_empty()),
            }
        }
    }
}
