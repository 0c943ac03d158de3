//! The words for one attempt: its label, what it did, why it stopped the
//! sequence or is not evidence, and what its exit code usually means.

use crate::attempt::{Attempt, Ending, Selection};
use crate::history::{Classified, CountsAs, Disagreement, NotEvidence, Stop};
use crate::signal;
use crate::words::reason::{MAX_NAME, cut_end, tests};

/// Why a targeted attempt is not evidence, after "did not show that its
/// tests ran".
pub(crate) fn not_evidence_words(why: NotEvidence) -> String {
    match why {
        NotEvidence::NoTestRan => "the runner said that no test ran".to_owned(),
        NotEvidence::NoCounts => "its output stated no test counts".to_owned(),
        NotEvidence::RanFewer { ran, selected } => {
            format!("it ran {ran} of the {} it selected", tests(selected))
        }
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
        | Ending::Cancelled
        | Ending::Lost { .. } => "no exit status".to_owned(),
    }
}

/// What an attempt did, after its label: `failed 3 tests (exit code 101)`.
pub(crate) fn phrase(record: &Classified<'_>) -> String {
    let attempt = record.attempt;
    let named = attempt.failing.len();
    match &record.counts_as {
        CountsAs::Pass => match attempt.counts.and_then(|c| c.ran()) {
            Some(ran) => format!(
                "passed ({} ran)",
                tests(usize::try_from(ran).unwrap_or(usize::MAX))
            ),
            None => "passed".to_owned(),
        },
        CountsAs::Fail {
            crash: Some(signal),
        } if named > 0 => format!(
            "crashed with {} after failing {}",
            signal::describe(*signal),
            tests(named)
        ),
        CountsAs::Fail {
            crash: Some(signal),
        } => format!("crashed with {}", signal::describe(*signal)),
        CountsAs::Fail { crash: None } if named > 0 => {
            format!("failed {} ({})", tests(named), exit_code(attempt))
        }
        CountsAs::Fail { crash: None } => {
            format!("failed without naming a test ({})", exit_code(attempt))
        }
        CountsAs::Ignored { why } => format!(
            "did not show that its tests ran ({})",
            not_evidence_words(*why)
        ),
    }
}

/// What the attempt that ended the sequence did, after its label.
pub(crate) fn stop_phrase(stop: Stop<'_>) -> String {
    match stop {
        Stop::TimedOut { after } => format!("timed out after {after:?}"),
        Stop::SandboxRefused { why } => format!(
            "was refused by the sandbox ({})",
            cut_end(why.trim(), MAX_NAME)
        ),
        Stop::SystemCallForbidden { signal } => format!(
            "was ended by {}: the sandbox forbade a system call it made",
            signal::describe(signal)
        ),
        Stop::WouldNotStart { why } => {
            format!("would not start ({})", cut_end(why.trim(), MAX_NAME))
        }
        Stop::ShellCouldNotRun { code } => format!(
            "exited with code {code}, {}, and ran no test",
            shell_code(code)
        ),
        Stop::Cancelled => "was interrupted because testgate itself was stopped".to_owned(),
        Stop::Lost { why } => format!(
            "was lost after it started: testgate could not follow it ({})",
            cut_end(why.trim(), MAX_NAME)
        ),
        Stop::KilledFromOutside { signal } => format!(
            "was ended by {} from outside (the OOM killer, a person, a resource limit)",
            signal::describe(signal)
        ),
        Stop::NoTestsRan { code, said: true } => {
            format!("exited with code {code} and the runner said that no test ran")
        }
        Stop::NoTestsRan { code, said: false } => {
            format!("exited with code {code} and its summary counts no test run")
        }
        Stop::Contradiction { failing, report } => contradiction_phrase(failing, report),
        Stop::ChannelsDisagree { disagreement } => disagreement_phrase(disagreement),
        Stop::Truncated => {
            "exited with code 0, but the runner's output ended before its summary".to_owned()
        }
        Stop::ReportMissing => "exited with code 0, but the runner never completed the report \
             testgate asked it for, which it writes at the end of its session"
            .to_owned(),
        Stop::NoReport => "exited with code 0, but no report of the runner's own could be asked \
             for, and --evidence report requires one"
            .to_owned(),
        Stop::FlakyWithin {
            code,
            named,
            reruns,
        } => flaky_within_phrase(code, named, reruns),
        Stop::Environment {
            code: Some(code),
            what,
            ..
        } => format!(
            "failed before reaching its tests (exit code {code}): {}",
            cut_end(what.trim(), MAX_NAME)
        ),
        Stop::Environment {
            code: None, what, ..
        } => format!(
            "was refused by its environment: {}",
            cut_end(what.trim(), MAX_NAME)
        ),
    }
}

/// An exit code 0 whose output (or the runner's `report`) names `failing`
/// failing tests.
fn contradiction_phrase(failing: usize, report: bool) -> String {
    let tests = if failing == 1 { "test" } else { "tests" };
    if report {
        format!("exited with code 0 but the runner's report names {failing} failing {tests}")
    } else {
        format!("exited with code 0 but its output names {failing} failing {tests}")
    }
}

/// An exit code 0 whose console and the runner's report disagree.
fn disagreement_phrase(disagreement: Disagreement<'_>) -> String {
    match disagreement {
        Disagreement::ConsoleNamesFailures { names } => format!(
            "exited with code 0 and the runner's report names no failing test, but its \
             console names {} failing {}",
            names.len(),
            if names.len() == 1 { "test" } else { "tests" }
        ),
        Disagreement::FailedCounts { console, report } => format!(
            "exited with code 0 and the runner's report counts {report} failed, but its \
             console's summary counts {console} failed"
        ),
        Disagreement::RanCounts { console, report } => format!(
            "exited with code 0 and the runner's report counts {report} tests run, but its \
             console's summary counts {console}"
        ),
    }
}

/// An exit code `code` whose `named` tests failed and then passed within
/// the run (none named: the runner re-ran failed tests `reruns` times).
fn flaky_within_phrase(code: i32, named: usize, reruns: u64) -> String {
    if named == 0 {
        format!(
            "exited with code {code}, but the runner re-ran failed tests {reruns} {} and they passed",
            if reruns == 1 { "time" } else { "times" }
        )
    } else {
        format!(
            "exited with code {code}, but {} failed and then passed within it (the runner's own retries or repeated runs)",
            tests(named)
        )
    }
}

/// What a shell means by exit code 126 or 127.
fn shell_code(code: i32) -> &'static str {
    if code == 126 {
        "what a shell reports when a command is found but cannot be executed"
    } else {
        "what a shell reports when a command is not found"
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
        126 | 127 => format!("exit code {code} is {}", shell_code(code)),
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

    #[test]
    fn a_targeted_retry_says_how_few_it_ran() {
        assert_eq!(
            not_evidence_words(NotEvidence::RanFewer {
                ran: 1,
                selected: 2
            }),
            "it ran 1 of the 2 tests it selected"
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
