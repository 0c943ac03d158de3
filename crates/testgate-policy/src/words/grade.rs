//! The words of the grader's decision: each graded test marked with its
//! list, and the reason of each conclusion.

use crate::attempt::Attempt;
use crate::decide_grade::{GradeConclusion, GradeDecision, Unseen};
use crate::grading::{Grade, GradedTest, List, xfailed};
use crate::policy::{Plan, Step};
use crate::verdict::{Cause, Verdict};
use crate::words::decision::plan;
use crate::words::explain::{excerpt_lines, push_tail};
use crate::words::reason::{Reason, tests};

/// The grader's decision in words: the verdict, or the retry it asks for.
pub(crate) fn grade_plan(decision: &GradeDecision<'_>, attempts: &[Attempt]) -> Plan {
    let done = |verdict| Plan {
        step: Step::Done(verdict),
        note: None,
    };
    let Some(last) = attempts.last() else {
        return Plan {
            step: Step::Run(crate::attempt::Selection::Full),
            note: None,
        };
    };
    let number = attempts.len();
    match decision {
        GradeDecision::Stopped(decided) => plan(decided),
        GradeDecision::Need { selection } => Plan {
            step: Step::Run(selection.clone()),
            note: None,
        },
        GradeDecision::Known {
            grading,
            conclusion,
        } => {
            let tests_of = &grading.tests;
            let unlisted_failed = &grading.unlisted_failed;
            let of = |grade: Grade| -> Vec<&GradedTest> {
                tests_of.iter().filter(|t| t.grade == grade).collect()
            };
            match conclusion {
                GradeConclusion::Flaky => {
                    let flaky = of(Grade::Flaky);
                    let mut reason = Reason::new();
                    let names: Vec<&str> = flaky.iter().map(|t| t.name.as_str()).collect();
                    reason.names(&names, |name| {
                        let test = flaky.iter().find(|t| t.name == name);
                        test.map_or_else(String::new, |t| {
                            format!(" ({}: {})", mark(t.list), history_of(t))
                        })
                    });
                    reason.line(&format!(
                        "{} changed outcome between attempts or within one: the suite is flaky, \
                         and a flaky listed test proves nothing about the change",
                        tests_listed(flaky.len())
                    ));
                    unlisted_line(&mut reason, unlisted_failed);
                    excerpt_lines(&mut reason, last, number, &names);
                    push_tail(&mut reason, last, number);
                    done(Verdict::Inconclusive {
                        cause: Cause::Flaky,
                        reason: reason.finish(),
                    })
                }
                GradeConclusion::Failed => {
                    let failed = of(Grade::Failed);
                    let mut reason = Reason::new();
                    let names: Vec<&str> = failed.iter().map(|t| t.name.as_str()).collect();
                    reason.names(&names, |name| {
                        let list = failed.iter().find(|t| t.name == name).map(|t| t.list);
                        list.map_or_else(String::new, |l| format!(" ({})", mark(l)))
                    });
                    reason.line(&format!(
                        "{} failed in every attempt that ran {} ({})",
                        tests_listed(failed.len()),
                        if failed.len() == 1 { "it" } else { "them" },
                        attempts_phrase(number)
                    ));
                    let not_run = of(Grade::NotRun);
                    if !not_run.is_empty() {
                        reason.line(&format!("{} did not run", tests_listed(not_run.len())));
                    }
                    unlisted_line(&mut reason, unlisted_failed);
                    excerpt_lines(&mut reason, last, number, &names);
                    push_tail(&mut reason, last, number);
                    done(Verdict::Fail {
                        failing: names.iter().map(|n| (*n).to_owned()).collect(),
                        reason: reason.finish(),
                    })
                }
                GradeConclusion::NotRun {
                    why,
                    unnamed,
                    fails,
                    near,
                } => {
                    let not_run = of(Grade::NotRun);
                    let unnamed = *unnamed;
                    let unseen = if unnamed > 0 {
                        "not named in the output"
                    } else {
                        "did not run"
                    };
                    let mut reason = Reason::new();
                    let names: Vec<&str> = not_run.iter().map(|t| t.name.as_str()).collect();
                    reason.names(&names, |name| {
                        let test = not_run.iter().find(|t| t.name == name);
                        test.map_or_else(String::new, |t| {
                            let how = if xfailed(t) {
                                "failed as marked expected to (xfail)"
                            } else {
                                unseen
                            };
                            format!(" ({}, {how})", mark(t.list))
                        })
                    });
                    let expected_failures = not_run.iter().filter(|t| xfailed(t)).count();
                    if expected_failures > 0 {
                        reason.line(&format!(
                            "{} that must pass failed as marked expected to (xfail): an \
                             expected failure is no pass of a test that must pass",
                            tests_listed(expected_failures)
                        ));
                    }
                    match why {
                        Unseen::NothingPassedFirst => reason
                            .line("no test passed in the first attempt, so nothing was proved"),
                        Unseen::NothingListed => reason.line("no test is listed to grade against"),
                        Unseen::Unnamed => reason.line(&format!(
                            "{} never showed in the output, in {}, but the runner counted \
                             {unnamed} passing {} it did not name: whether {} ran cannot be \
                             told; run the runner in a mode that names every test (pytest -v, \
                             go test -v, jest --verbose, vitest --reporter=verbose)",
                            tests_listed(not_run.len()),
                            attempts_phrase(number),
                            if unnamed == 1 { "test" } else { "tests" },
                            if not_run.len() == 1 { "it" } else { "they" },
                        )),
                        Unseen::NeverRan => reason.line(&format!(
                            "{} never ran, or were skipped, in {}: renamed, deselected or not \
                             collected",
                            tests_listed(not_run.len()),
                            attempts_phrase(number)
                        )),
                    }
                    if !last.recognised {
                        reason.line(
                            "testgate did not recognise the runner's output, so it saw no test",
                        );
                    }
                    for (listed, ran) in near {
                        reason.line(&format!("did you mean {ran} for {listed}?"));
                    }
                    unlisted_line(&mut reason, unlisted_failed);
                    push_tail(&mut reason, last, number);
                    done(if *fails {
                        Verdict::Fail {
                            failing: names.iter().map(|n| (*n).to_owned()).collect(),
                            reason: reason.finish(),
                        }
                    } else {
                        Verdict::Inconclusive {
                            cause: Cause::NotRun,
                            reason: reason.finish(),
                        }
                    })
                }
                GradeConclusion::Passed { quarantined } => {
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
                            quarantined.join(", ")
                        ));
                    }
                    unlisted_line(&mut reason, unlisted_failed);
                    done(Verdict::Pass {
                        reason: reason.finish(),
                    })
                }
            }
        }
    }
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
