//! How each verdict is explained: the one-line summaries of the attempts,
//! the name tallies, and the reasons of the verdicts that need no further
//! decision (a stop, different suites, nothing run, a pass).

use crate::attempt::{Attempt, Evidence};
use crate::findings::tally;
use crate::history::{Classified, Disagreement, Stop};
use crate::words;
use crate::words::{MAX_NAME, MAX_REASON, Reason, cut_end};

/// `attempt 1 failed 3 tests, attempt 2 passed`, eliding the middle of a
/// long sequence.
pub(crate) fn summary(records: &[&Classified<'_>], any_targeted: bool) -> String {
    const SHOWN: usize = 10;
    let phrase = |r: &&Classified<'_>| {
        format!(
            "{} {}",
            words::label(r.attempt, r.number, any_targeted),
            words::phrase(r)
        )
    };
    if records.len() <= SHOWN {
        return records.iter().map(phrase).collect::<Vec<_>>().join(", ");
    }
    let head = records[..SHOWN / 2].iter().map(phrase);
    let tail = records[records.len() - SHOWN / 2..].iter().map(phrase);
    let skipped = records.len() - SHOWN;
    head.chain(std::iter::once(format!("{skipped} more attempts")))
        .chain(tail)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Lines every reason ends with before the tail: leaked processes, the
/// driver's notes.
pub(crate) fn closing_lines(
    reason: &mut Reason,
    records: &[Classified<'_>],
    current: Option<(&Attempt, usize)>,
) {
    let mut leaked: Vec<String> = records
        .iter()
        .filter(|r| r.attempt.leaked_processes)
        .map(|r| r.number.to_string())
        .collect();
    if let Some((_, number)) = current.filter(|(a, _)| a.leaked_processes) {
        leaked.push(number.to_string());
    }
    match leaked.len() {
        0 => {}
        1 => reason.line(&format!(
            "attempt {} left processes running at its end; testgate ended them",
            leaked[0]
        )),
        _ => reason.line(&format!(
            "attempts {} left processes running at their end; testgate ended them",
            leaked.join(", ")
        )),
    }
    let notes = records
        .iter()
        .map(|r| (r.number, r.attempt))
        .chain(current.map(|(a, n)| (n, a)));
    for (number, attempt) in notes {
        if let Some(note) = &attempt.note {
            reason.line(&format!("attempt {number}: {}", note.trim()));
        }
    }
}

/// The most crashed test binaries a reason states.
const MAX_CRASHES_SHOWN: usize = 5;

/// The test binaries that died naming no failing test (a go package whose
/// binary a goroutine's panic ended), each once, with the attempts that
/// showed it when there were several: without them a Fail names only the
/// tests of other binaries, or nothing.
pub(crate) fn crash_lines(reason: &mut Reason, records: &[Classified<'_>]) {
    let mut crashes: Vec<(&str, Vec<String>)> = Vec::new();
    for record in records {
        for crash in &record.attempt.crashes {
            let number = record.number.to_string();
            match crashes.iter_mut().find(|(c, _)| *c == crash.as_str()) {
                Some((_, numbers)) => numbers.push(number),
                None => crashes.push((crash, vec![number])),
            }
        }
    }
    for (crash, numbers) in crashes.iter().take(MAX_CRASHES_SHOWN) {
        let crash = cut_end(crash.trim(), MAX_NAME);
        if records.len() > 1 {
            let label = if numbers.len() == 1 {
                "attempt"
            } else {
                "attempts"
            };
            reason.line(&format!("{crash} ({label} {})", numbers.join(", ")));
        } else {
            reason.line(&crash);
        }
    }
    if crashes.len() > MAX_CRASHES_SHOWN {
        reason.line(&format!(
            "and {} more test binaries that died",
            crashes.len() - MAX_CRASHES_SHOWN
        ));
    }
}

/// The most bytes of a reason that failing tests' own output takes, all
/// excerpts together: half of it, so that the tail keeps the rest.
const MAX_EXCERPTS_SHOWN: usize = MAX_REASON / 2;

/// The most bytes of one test's output in a reason: its start, where the
/// runner states the failure.
const MAX_EXCERPT_SHOWN: usize = 1536;

/// Below this many bytes of room an excerpt is left out.
const MIN_EXCERPT: usize = 48;

/// Each of `names`' own output in `attempt`, where the parser kept it, in
/// their order: a header line, then the start of the excerpt, within
/// [`MAX_EXCERPTS_SHOWN`] together.
pub(crate) fn excerpt_lines(reason: &mut Reason, attempt: &Attempt, number: usize, names: &[&str]) {
    let mut budget = MAX_EXCERPTS_SHOWN;
    for name in names {
        let Some((_, text)) = attempt.excerpts.iter().find(|(n, _)| n == name) else {
            continue;
        };
        let text = text.trim_end();
        if text.trim().is_empty() {
            continue;
        }
        let header = format!(
            "the output of {} in attempt {number}:",
            cut_end(name, MAX_NAME)
        );
        let room = budget.saturating_sub(header.len() + 2);
        if room < MIN_EXCERPT {
            break;
        }
        let text = cut_end(text, room.min(MAX_EXCERPT_SHOWN));
        budget = budget.saturating_sub(header.len() + text.len() + 2);
        reason.line(&header);
        reason.line(&text);
    }
}

pub(crate) fn push_tail(reason: &mut Reason, attempt: &Attempt, number: usize) {
    reason.tail(
        &format!("the end of the output of attempt {number}:"),
        &attempt.tail,
    );
}

/// Names of an Inconclusive: every name seen, marked with how often it
/// failed when more than one attempt could have named it.
pub(crate) fn tally_lines(reason: &mut Reason, tally: &[(&str, usize)], out_of: usize) {
    reason.names(&tally.iter().map(|(n, _)| *n).collect::<Vec<_>>(), |name| {
        let count = tally
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, c)| *c);
        if out_of > 1 {
            format!(" (failed in {count} of {out_of} attempts)")
        } else {
            String::new()
        }
    });
}

/// An attempt ended the sequence: a timeout, a refusal, a kill, a
/// contradiction, no test run.
pub(crate) fn stopped(
    stop: Stop<'_>,
    attempt: &Attempt,
    number: usize,
    records: &[Classified<'_>],
    any_targeted: bool,
) -> String {
    let before: Vec<&Classified<'_>> = records.iter().collect();
    let mut sentence = summary(&before, any_targeted);
    if !sentence.is_empty() {
        sentence.push_str(", ");
    }
    sentence.push_str(&format!(
        "{} {}",
        words::label(attempt, number, any_targeted),
        words::stop_phrase(stop)
    ));
    sentence.push_str(what_a_stop_proves(stop));
    let mut reason = Reason::new();
    leading_lines(&mut reason, stop, attempt);
    reason.line(&sentence);
    let all = records
        .iter()
        .map(|r| r.attempt)
        .chain(std::iter::once(attempt));
    tally_lines(&mut reason, &tally(all), records.len() + 1);
    closing_lines(&mut reason, records, Some((attempt, number)));
    push_tail(&mut reason, attempt, number);
    reason.finish()
}

/// What the attempt that stopped the sequence proves, after what it did.
fn what_a_stop_proves(stop: Stop<'_>) -> &'static str {
    match stop {
        Stop::Contradiction { report: false, .. } => ": the exit status and the output disagree",
        Stop::Contradiction { report: true, .. } => {
            ": the exit status and the runner's report disagree"
        }
        Stop::ChannelsDisagree { .. } => {
            ": the exit status, the runner's report and its console must agree for a pass"
        }
        Stop::ReportMissing => ": a run that never finished proves nothing",
        Stop::NoReport => ": the exit status and the console alone give no pass",
        Stop::Environment { .. } => "; the environment failed, not the code: nothing was proved",
        Stop::Truncated => ": a run that never finished proves nothing",
        Stop::FlakyWithin { .. } => {
            ": a retry that hides a failure proves nothing: the suite is flaky"
        }
        Stop::ShellCouldNotRun { .. } => ": the runner would not start, so nothing was proved",
        Stop::TimedOut { .. }
        | Stop::SandboxRefused { .. }
        | Stop::SystemCallForbidden { .. }
        | Stop::WouldNotStart { .. }
        | Stop::NoTestsRan { .. }
        | Stop::KilledFromOutside { .. }
        | Stop::Cancelled
        | Stop::Lost { .. } => ": nothing was proved",
    }
}

/// The lines a stop's reason leads with: the fix, what it acts on first
/// (the tests the runner retried within the attempt, the tests that were
/// running at a timeout, the names only the console gave).
fn leading_lines(reason: &mut Reason, stop: Stop<'_>, attempt: &Attempt) {
    match stop {
        Stop::Environment { fix, .. } => reason.line(fix.trim()),
        Stop::FlakyWithin { .. } => {
            let names: Vec<&str> = attempt.flaky_within.iter().map(String::as_str).collect();
            reason.names(&names, |_| {
                " (failed, then passed within one attempt)".to_owned()
            });
        }
        Stop::TimedOut { .. } => {
            let names: Vec<&str> = attempt.running.iter().map(String::as_str).collect();
            reason.names(&names, |_| {
                " (running when the attempt timed out)".to_owned()
            });
        }
        Stop::SandboxRefused { .. }
        | Stop::SystemCallForbidden { .. }
        | Stop::WouldNotStart { .. }
        | Stop::ShellCouldNotRun { .. }
        | Stop::NoTestsRan { .. }
        | Stop::KilledFromOutside { .. }
        | Stop::Cancelled
        | Stop::Lost { .. }
        | Stop::Contradiction { .. }
        | Stop::Truncated
        | Stop::ReportMissing
        | Stop::NoReport => {}
        Stop::ChannelsDisagree { disagreement } => match disagreement {
            Disagreement::ConsoleNamesFailures { names } => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                reason.names(&names, |_| {
                    " (named failing by the console, not by the runner's report)".to_owned()
                });
            }
            Disagreement::FailedCounts { .. } | Disagreement::RanCounts { .. } => {}
        },
    }
}

pub(crate) fn different_suites(
    earlier: &Classified<'_>,
    record: &Classified<'_>,
    records: &[Classified<'_>],
    any_targeted: bool,
) -> String {
    let ran = |r: &Classified<'_>| r.attempt.counts.and_then(|c| c.ran()).unwrap_or(0);
    let before: Vec<&Classified<'_>> = records.iter().collect();
    let mut sentence = summary(&before, any_targeted);
    if !sentence.is_empty() {
        sentence.push_str(", ");
    }
    sentence.push_str(&format!(
        "{} {}; attempt {} ran {} tests and attempt {} ran {} of the same selection: \
         the attempts did not run the same suite, so they cannot be compared",
        words::label(record.attempt, record.number, any_targeted),
        words::phrase(record),
        earlier.number,
        ran(earlier),
        record.number,
        ran(record),
    ));
    let mut reason = Reason::new();
    reason.line(&sentence);
    let all = records
        .iter()
        .map(|r| r.attempt)
        .chain(std::iter::once(record.attempt));
    tally_lines(&mut reason, &tally(all), records.len() + 1);
    closing_lines(&mut reason, records, Some((record.attempt, record.number)));
    push_tail(&mut reason, record.attempt, record.number);
    reason.finish()
}

pub(crate) fn nothing_ran(records: &[Classified<'_>], any_targeted: bool) -> String {
    let mut reason = Reason::new();
    if records.is_empty() {
        reason.line("no attempt ran: nothing was proved");
    } else {
        let all: Vec<&Classified<'_>> = records.iter().collect();
        reason.line(&format!(
            "{}: no attempt showed that its tests ran, so nothing was proved",
            summary(&all, any_targeted)
        ));
        closing_lines(&mut reason, records, None);
        if let Some(last) = records.last() {
            push_tail(&mut reason, last.attempt, last.number);
        }
    }
    reason.finish()
}

pub(crate) fn pass(
    evidence: &[&Classified<'_>],
    records: &[Classified<'_>],
    any_targeted: bool,
) -> String {
    let mut reason = Reason::new();
    let first = evidence[0];
    let counts = first.attempt.counts.map(|c| {
        let mut parts = Vec::new();
        if let Some(p) = c.passed {
            parts.push(format!("{p} passed"));
        }
        if let Some(f) = c.failed {
            parts.push(format!("{f} failed"));
        }
        if let Some(s) = c.skipped {
            parts.push(format!("{s} skipped"));
        }
        parts.join(", ")
    });
    let mut sentence = if evidence.len() == 1 {
        format!(
            "{} passed",
            words::label(first.attempt, first.number, any_targeted)
        )
    } else {
        summary(evidence, any_targeted)
    };
    if let Some(counts) = counts.filter(|c| !c.is_empty()) {
        sentence.push_str(&format!(": {counts}"));
    }
    reason.line(&sentence);
    let counted_failures = first.attempt.counts.and_then(|c| c.failed).unwrap_or(0);
    if counted_failures > 0 {
        reason.line(&format!(
            "its summary counts {counted_failures} failed but names no failing test; \
             the exit status (0) decides (runners that retry count a failed try of a test \
             that then passed)"
        ));
    }
    let unrecognised = evidence.iter().find(|r| !r.attempt.recognised);
    let console_alone = evidence.iter().any(|r| match r.attempt.evidence {
        Evidence::ConsoleAlone => r.attempt.recognised,
        Evidence::Report { .. } | Evidence::ReportMissing | Evidence::Unasked => false,
    });
    if console_alone {
        reason.line(
            "no report of the runner's own was read: the exit status and the console judged alone",
        );
    }
    if let Some(r) = unrecognised {
        reason.line(&format!(
            "the output of attempt {} was not recognised as any test runner's, \
             so only its exit status (0) speaks for the pass",
            r.number
        ));
    }
    closing_lines(&mut reason, records, None);
    if let Some(r) = unrecognised {
        push_tail(&mut reason, r.attempt, r.number);
    }
    reason.finish()
}
