//! What each attempt of a sequence counts as: a pass, a failure, ignored
//! (a targeted retry that did not show its tests ran), or the end of the
//! sequence (a timeout, a refusal, a contradiction...), and the words that
//! describe it in a reason.

use std::collections::BTreeSet;

use crate::attempt::{Attempt, Ending, Selection};
use crate::reason::{MAX_NAME, cut_end, tests};
use crate::signal::{self, SignalClass};
use crate::verdict::Cause;

/// What one attempt says, on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Exit 0, no failing names, and tests ran.
    Passed,
    /// A non-zero exit or a crash: the code under test failed. `crash` is
    /// the signal when it crashed.
    Failed { crash: Option<i32> },
    /// Nothing more can be learnt from this sequence.
    Stop(Cause),
}

/// What one attempt counts as within its sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Pass,
    Fail {
        crash: Option<i32>,
    },
    /// A targeted retry that is not evidence, and why.
    Ignored {
        why: String,
    },
}

/// One attempt with its 1-based number and what it counts as.
#[derive(Debug, Clone)]
pub(crate) struct Record<'a> {
    pub(crate) number: usize,
    pub(crate) attempt: &'a Attempt,
    pub(crate) kind: Kind,
}

impl Record<'_> {
    pub(crate) fn is_evidence(&self) -> bool {
        match self.kind {
            Kind::Pass | Kind::Fail { .. } => true,
            Kind::Ignored { .. } => false,
        }
    }

    pub(crate) fn is_pass(&self) -> bool {
        match self.kind {
            Kind::Pass => true,
            Kind::Fail { .. } | Kind::Ignored { .. } => false,
        }
    }

    pub(crate) fn is_fail(&self) -> bool {
        match self.kind {
            Kind::Fail { .. } => true,
            Kind::Pass | Kind::Ignored { .. } => false,
        }
    }

    pub(crate) fn is_full(&self) -> bool {
        is_full(self.attempt)
    }
}

pub(crate) fn is_full(attempt: &Attempt) -> bool {
    match attempt.selection {
        Selection::Full => true,
        Selection::Only(_) => false,
    }
}

/// Exit 0 with nothing run: the runner said so, or its summary counts no
/// test run.
fn ran_nothing(attempt: &Attempt) -> bool {
    attempt.no_tests_ran || attempt.counts.and_then(|c| c.ran()) == Some(0)
}

/// What `attempt` says on its own. This is the table of docs/policy.md.
pub(crate) fn outcome(attempt: &Attempt) -> Outcome {
    match attempt.ending {
        Ending::Exited { code: 0 } => {
            if !attempt.failing.is_empty() {
                Outcome::Stop(Cause::Contradiction)
            } else if ran_nothing(attempt) {
                Outcome::Stop(Cause::NoTestsRan)
            } else {
                Outcome::Passed
            }
        }
        Ending::Exited { .. } => {
            // A non-zero exit is a failure unless the runner said that no
            // test ran (pytest's exit 5) and named none: then nothing was
            // proved either way.
            if attempt.failing.is_empty() && attempt.no_tests_ran {
                Outcome::Stop(Cause::NoTestsRan)
            } else {
                Outcome::Failed { crash: None }
            }
        }
        Ending::Signalled { signal } => match signal::classify(signal) {
            SignalClass::Crash => Outcome::Failed {
                crash: Some(signal),
            },
            SignalClass::FromOutside => Outcome::Stop(Cause::KilledFromOutside),
            SignalClass::Sandbox => Outcome::Stop(Cause::SandboxRefused),
        },
        Ending::TimedOut { .. } => Outcome::Stop(Cause::TimedOut),
        Ending::SandboxRefused { .. } => Outcome::Stop(Cause::SandboxRefused),
        Ending::WouldNotStart { .. } => Outcome::Stop(Cause::WouldNotStart),
        Ending::Cancelled => Outcome::Stop(Cause::Cancelled),
    }
}

/// Why a targeted attempt is not evidence, or `None` when it is (and for
/// full attempts, which always are).
pub(crate) fn not_evidence(attempt: &Attempt) -> Option<String> {
    let Selection::Only(names) = &attempt.selection else {
        return None;
    };
    let selected = names.iter().collect::<BTreeSet<_>>().len();
    if attempt.no_tests_ran {
        return Some("the runner said that no test ran".to_owned());
    }
    match attempt.counts.and_then(|c| c.ran()) {
        None => Some("its output stated no test counts".to_owned()),
        Some(ran) if ran < selected as u64 => Some(format!(
            "it ran {ran} of the {} it selected",
            tests(selected)
        )),
        Some(_) => None,
    }
}

/// `attempt 2`, or `attempt 2 (only 3 tests)` for a targeted one, or
/// `attempt 3 (the full suite)` in a sequence that had targeted ones.
pub(crate) fn label(attempt: &Attempt, number: usize, any_targeted: bool) -> String {
    match &attempt.selection {
        Selection::Only(names) => format!("attempt {number} (only {})", tests(names.len())),
        Selection::Full if any_targeted => format!("attempt {number} (the full suite)"),
        Selection::Full => format!("attempt {number}"),
    }
}

fn exit_code(attempt: &Attempt) -> String {
    match attempt.ending {
        Ending::Exited { code } => format!("exit code {code}"),
        Ending::Signalled { signal } => signal::describe(signal),
        Ending::TimedOut { .. }
        | Ending::SandboxRefused { .. }
        | Ending::WouldNotStart { .. }
        | Ending::Cancelled => "no exit status".to_owned(),
    }
}

/// `exited with code 5`, `was ended by signal 9 (SIGKILL)`.
fn ended(attempt: &Attempt) -> String {
    match &attempt.ending {
        Ending::Exited { code } => format!("exited with code {code}"),
        Ending::Signalled { signal } => format!("was ended by {}", signal::describe(*signal)),
        Ending::TimedOut { after } => format!("timed out after {after:?}"),
        Ending::SandboxRefused { .. } => "was refused by the sandbox".to_owned(),
        Ending::WouldNotStart { .. } => "would not start".to_owned(),
        Ending::Cancelled => "was interrupted".to_owned(),
    }
}

/// What an attempt did, after its label: `failed 3 tests (exit code 101)`.
pub(crate) fn phrase(record: &Record<'_>) -> String {
    let attempt = record.attempt;
    let named = attempt.failing.len();
    match &record.kind {
        Kind::Pass => match attempt.counts.and_then(|c| c.ran()) {
            Some(ran) => format!(
                "passed ({} ran)",
                tests(usize::try_from(ran).unwrap_or(usize::MAX))
            ),
            None => "passed".to_owned(),
        },
        Kind::Fail {
            crash: Some(signal),
        } if named > 0 => format!(
            "crashed with {} after failing {}",
            signal::describe(*signal),
            tests(named)
        ),
        Kind::Fail {
            crash: Some(signal),
        } => format!("crashed with {}", signal::describe(*signal)),
        Kind::Fail { crash: None } if named > 0 => {
            format!("failed {} ({})", tests(named), exit_code(attempt))
        }
        Kind::Fail { crash: None } => {
            format!("failed without naming a test ({})", exit_code(attempt))
        }
        Kind::Ignored { why } => format!("did not show that its tests ran ({why})"),
    }
}

/// What the attempt that ended the sequence did, after its label.
pub(crate) fn stop_phrase(attempt: &Attempt, cause: Cause) -> String {
    match (cause, &attempt.ending) {
        (Cause::TimedOut, Ending::TimedOut { after }) => format!("timed out after {after:?}"),
        (Cause::SandboxRefused, Ending::SandboxRefused { why }) => {
            format!(
                "was refused by the sandbox ({})",
                cut_end(why.trim(), MAX_NAME)
            )
        }
        (Cause::SandboxRefused, Ending::Signalled { signal }) => format!(
            "was ended by {}: the sandbox forbade a system call it made",
            signal::describe(*signal)
        ),
        (Cause::WouldNotStart, Ending::WouldNotStart { why }) => {
            format!("would not start ({})", cut_end(why.trim(), MAX_NAME))
        }
        (Cause::Cancelled, _) => "was interrupted because testgate itself was stopped".to_owned(),
        (Cause::KilledFromOutside, Ending::Signalled { signal }) => format!(
            "was ended by {} from outside (the OOM killer, a person, a resource limit)",
            signal::describe(*signal)
        ),
        (Cause::NoTestsRan, _) if attempt.no_tests_ran => {
            format!("{} and the runner said that no test ran", ended(attempt))
        }
        (Cause::NoTestsRan, _) => {
            format!("{} and its summary counts no test run", ended(attempt))
        }
        (Cause::Contradiction, _) => {
            let n = attempt.failing.len();
            format!(
                "{} but its output names {n} failing {}",
                ended(attempt),
                if n == 1 { "test" } else { "tests" }
            )
        }
        // The cause always comes from the ending above; these pairings
        // cannot be built by `outcome`, but a sentence is still owed.
        (
            Cause::TimedOut
            | Cause::SandboxRefused
            | Cause::WouldNotStart
            | Cause::KilledFromOutside
            | Cause::Flaky
            | Cause::DifferentSuites,
            _,
        ) => ended(attempt),
    }
}

/// A hint for exit codes that look like something else: 124 to 127 and
/// 128+N are exits, but a reader should know what usually produces them.
pub(crate) fn exit_hint(attempt: &Attempt) -> Option<String> {
    let Ending::Exited { code } = attempt.ending else {
        return None;
    };
    let hint = match code {
        124 => "exit code 124 is what timeout(1) reports when its time ran out".to_owned(),
        126 => {
            "exit code 126 is what a shell reports when a command is found but cannot be executed"
                .to_owned()
        }
        127 => "exit code 127 is what a shell reports when a command is not found".to_owned(),
        129..=192 => format!(
            "exit code {code} is what a shell reports when its child was ended by {}",
            signal::describe(code - 128)
        ),
        _ => return None,
    };
    Some(hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Counts;

    #[test]
    fn exit_zero_with_zero_counted_ran_nothing() {
        let a = Attempt::new(Ending::Exited { code: 0 }).with_counts(Counts::new(
            Some(0),
            Some(0),
            Some(4),
        ));
        assert_eq!(outcome(&a), Outcome::Stop(Cause::NoTestsRan));
        // A non-zero exit with zero counted is a failure before the tests
        // (a build error): the runner did not say that no test ran.
        let b = Attempt::new(Ending::Exited { code: 1 }).with_counts(Counts::new(
            Some(0),
            Some(0),
            None,
        ));
        assert_eq!(outcome(&b), Outcome::Failed { crash: None });
    }

    #[test]
    fn targeted_evidence_needs_counts_covering_the_selection() {
        let only = Selection::Only(vec!["a".into(), "b".into(), "a".into()]);
        let base = Attempt::new(Ending::Exited { code: 0 }).with_selection(only);
        assert!(not_evidence(&base).is_some());
        let short = base.clone().with_counts(Counts::new(Some(1), None, None));
        assert_eq!(
            not_evidence(&short).as_deref(),
            Some("it ran 1 of the 2 tests it selected")
        );
        let enough = base
            .clone()
            .with_counts(Counts::new(Some(1), Some(1), None));
        assert_eq!(not_evidence(&enough), None);
        let said = enough.with_no_tests_ran(true);
        assert!(not_evidence(&said).is_some());
        assert_eq!(
            not_evidence(&Attempt::new(Ending::Exited { code: 1 })),
            None
        );
    }

    #[test]
    fn hints_only_for_codes_that_look_like_something_else() {
        let hint = |code| exit_hint(&Attempt::new(Ending::Exited { code }));
        assert!(hint(137).is_some_and(|h| h.contains("SIGKILL")));
        assert!(hint(127).is_some());
        assert_eq!(hint(1), None);
        assert_eq!(hint(101), None);
        assert_eq!(hint(128), None);
        assert_eq!(hint(-1), None);
    }
}
