//! The words of the grader's decision: each graded test marked with its
//! list, and the reason of each conclusion.

use std::collections::HashSet;

use crate::attempt::Attempt;
use crate::decide_grade::{GradeConclusion, GradeDecision, Unseen};
use crate::grading::{Grade, GradedTest, Grading, List, ListedTest, xfailed};
use crate::variation::shared_names;
use crate::words::decision::reason;
use crate::words::explain::{excerpt_lines, push_tail};
use crate::words::reason::{Reason, tests};

/// The reason of the grader's verdict ([`GradeDecision::outcome`]).
pub(crate) fn grade_reason(decision: &GradeDecision<'_>, attempts: &[Attempt]) -> String {
    let (grading, conclusion) = match decision {
        GradeDecision::Stopped(decided) => return reason(decided),
        GradeDecision::Known {
            grading,
            conclusion,
        } => (grading, conclusion),
        // `decide_grade` answers every finished sequence; this arm keeps
        // the library panic-free if that ever changes.
        GradeDecision::Need { .. } => return ended_early(),
    };
    let Some(last) = attempts.last() else {
        return ended_early();
    };
    let number = attempts.len();
    match conclusion {
        GradeConclusion::NoAttempt => ended_early(),
        GradeConclusion::Flaky => flaky(grading, last, number),
        GradeConclusion::Failed => failed(grading, last, number),
        GradeConclusion::NotRun {
            why, unnamed, near, ..
        } => not_run(grading, *why, *unnamed, near, last, number),
        GradeConclusion::Passed { quarantined } => {
            let shared = shared_names(attempts);
            passed(grading, quarantined, &shared, number)
        }
    }
}

fn ended_early() -> String {
    "the sequence ended before any listed test was graded".to_owned()
}

/// `, in FILE` where `test` shares its name with another graded test of
/// `among` (one title in two files): which of them it is.
fn place_of(test: &GradedTest, among: &[GradedTest]) -> String {
    let shared = among
        .iter()
        .any(|t| t.name == test.name && t.context != test.context);
    match (&test.context, shared) {
        (Some(file), true) => format!(", in {file}"),
        (Some(_) | None, _) => String::new(),
    }
}

/// The graded tests of `grading` that add up to `grade`.
fn of(grading: &Grading, grade: Grade) -> Vec<&GradedTest> {
    grading.tests.iter().filter(|t| t.grade == grade).collect()
}

fn flaky(grading: &Grading, last: &Attempt, number: usize) -> String {
    let flaky = of(grading, Grade::Flaky);
    let mut reason = Reason::new();
    let names: Vec<&str> = flaky.iter().map(|t| t.name.as_str()).collect();
    reason.names_placed(
        &names,
        |i, _| {
            let test = flaky.get(i);
            test.map_or_else(String::new, |t| {
                format!(
                    " ({}{}: {})",
                    mark(t.list),
                    place_of(t, &grading.tests),
                    history_of(t)
                )
            })
        },
        &[],
    );
    reason.line(&format!(
        "{} changed outcome between attempts or within one: the suite is flaky, \
         and a flaky listed test proves nothing about the change",
        tests_listed(flaky.len())
    ));
    unlisted_line(&mut reason, &grading.unlisted_failed);
    excerpt_lines(&mut reason, last, number, &names);
    push_tail(&mut reason, last, number);
    reason.finish()
}

fn failed(grading: &Grading, last: &Attempt, number: usize) -> String {
    let failed = of(grading, Grade::Failed);
    let mut reason = Reason::new();
    let names: Vec<&str> = failed.iter().map(|t| t.name.as_str()).collect();
    reason.names_placed(
        &names,
        |i, _| {
            let test = failed.get(i);
            test.map_or_else(String::new, |t| {
                format!(" ({}{})", mark(t.list), place_of(t, &grading.tests))
            })
        },
        &[],
    );
    reason.line(&format!(
        "{} failed in every attempt that ran {} ({})",
        tests_listed(failed.len()),
        if failed.len() == 1 { "it" } else { "them" },
        attempts_phrase(number)
    ));
    let not_run = of(grading, Grade::NotRun);
    if !not_run.is_empty() {
        reason.line(&format!("{} did not run", tests_listed(not_run.len())));
    }
    unlisted_line(&mut reason, &grading.unlisted_failed);
    excerpt_lines(&mut reason, last, number, &names);
    push_tail(&mut reason, last, number);
    reason.finish()
}

fn not_run(
    grading: &Grading,
    why: Unseen,
    unnamed: u64,
    near: &[(String, String)],
    last: &Attempt,
    number: usize,
) -> String {
    let not_run = of(grading, Grade::NotRun);
    let unseen = if unnamed > 0 {
        "not named in the output"
    } else {
        "did not run"
    };
    let mut reason = Reason::new();
    let names: Vec<&str> = not_run.iter().map(|t| t.name.as_str()).collect();
    reason.names_placed(
        &names,
        |i, _| {
            let test = not_run.get(i);
            test.map_or_else(String::new, |t| {
                let how = if xfailed(t) {
                    "failed as marked expected to (xfail)"
                } else {
                    unseen
                };
                format!(" ({}{}, {how})", mark(t.list), place_of(t, &grading.tests))
            })
        },
        &[],
    );
    let expected_failures = not_run.iter().filter(|t| xfailed(t)).count();
    if expected_failures > 0 {
        reason.line(&format!(
            "{} that must pass failed as marked expected to (xfail): an \
             expected failure is no pass of a test that must pass",
            tests_listed(expected_failures)
        ));
    }
    reason.line(&unseen_line(why, unnamed, not_run.len(), number));
    if !last.recognised {
        reason.line("testgate did not recognise the runner's output, so it saw no test");
    }
    for (listed, ran) in near {
        reason.line(&format!("did you mean {ran} for {listed}?"));
    }
    unlisted_line(&mut reason, &grading.unlisted_failed);
    push_tail(&mut reason, last, number);
    reason.finish()
}

/// Why the listed tests were not seen, in words.
fn unseen_line(why: Unseen, unnamed: u64, not_run: usize, number: usize) -> String {
    match why {
        Unseen::NothingPassedFirst => {
            "no test passed in the first attempt, so nothing was proved".to_owned()
        }
        Unseen::NothingListed => "no test is listed to grade against".to_owned(),
        Unseen::Unnamed => format!(
            "{} never showed in the output, in {}, but the runner counted \
             {unnamed} passing {} it did not name: whether {} ran cannot be \
             told; run the runner in a mode that names every test (pytest -v, \
             go test -v, jest --verbose, vitest --reporter=verbose)",
            tests_listed(not_run),
            attempts_phrase(number),
            if unnamed == 1 { "test" } else { "tests" },
            if not_run == 1 { "it" } else { "they" },
        ),
        Unseen::NeverRan => format!(
            "{} never ran, or were skipped, in {}: renamed, deselected or not \
             collected",
            tests_listed(not_run),
            attempts_phrase(number)
        ),
    }
}

/// Every graded test passed; `quarantined` failed and did not gate, each
/// said with its file where its name is `shared` with a test elsewhere.
fn passed(
    grading: &Grading,
    quarantined: &[ListedTest],
    shared: &HashSet<&str>,
    number: usize,
) -> String {
    let tests_of = &grading.tests;
    let mut reason = Reason::new();
    let must = tests_of.iter().filter(|t| t.list == List::MustPass).count();
    if tests_of.is_empty() {
        reason.line(&format!(
            "no test failed outside the quarantine, in {}",
            attempts_phrase(number)
        ));
    } else {
        reason.line(&format!(
            "{} passed ({must} that must pass, {} that must keep passing), in {}",
            tests_listed(tests_of.len()),
            tests_of.len() - must,
            attempts_phrase(number)
        ));
    }
    if !quarantined.is_empty() {
        reason.line(&format!(
            "{} in quarantine failed and did not gate: {}",
            tests(quarantined.len()),
            quarantined
                .iter()
                .map(|entry| match &entry.file {
                    Some(file) if shared.contains(entry.name.as_str()) => {
                        format!("{} (in {file})", entry.name)
                    }
                    Some(_) | None => entry.name.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    unlisted_line(&mut reason, &grading.unlisted_failed);
    reason.finish()
}

/// How a reason marks a test of `list`.
fn mark(list: List) -> &'static str {
    match list {
        List::MustPass => "must pass",
        List::KeepPassing => "was passing",
        List::Unlisted => "not listed",
    }
}

/// `failed in attempt 1, passed in attempt 2`.
fn history_of(test: &GradedTest) -> String {
    test.results
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some(format!("{} in attempt {}", r.as_ref()?.name(), i + 1)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn tests_listed(n: usize) -> String {
    match n {
        1 => "1 listed test".to_owned(),
        n => format!("{n} listed tests"),
    }
}

fn attempts_phrase(n: usize) -> String {
    match n {
        1 => "1 attempt".to_owned(),
        n => format!("{n} attempts"),
    }
}

/// The line that reports failures on no list, which did not gate.
fn unlisted_line(reason: &mut Reason, unlisted: &[String]) {
    if unlisted.is_empty() {
        return;
    }
    let first: Vec<&str> = unlisted.iter().take(5).map(String::as_str).collect();
    let more = unlisted.len().saturating_sub(first.len());
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    reason.line(&format!(
        "{} on no list failed and did not gate: {}{more}",
        tests(unlisted.len()),
        first.join(", ")
    ));
}
