//! The `testgate mcp` `check` tool's compact result: what an agent needs
//! to act on a verdict, in a few kilobytes.

use serde::{Deserialize, Serialize};

use crate::check::{Attempt, CheckDocument, Detected, Environment, Grading};

/// The `schema` of the compact result. A field added keeps it.
pub const COMPACT_SCHEMA: u32 = 1;

/// The most failing tests (and graded tests not passing) listed; the
/// counts say how many there were.
pub const COMPACT_NAMES: usize = 50;

/// The most characters of a message, the reason or a note kept.
pub const COMPACT_CHARS: usize = 300;

/// The `check` tool's result by default: the verdict, its cause, the
/// failing tests with the first line of their message, a grading summary,
/// the attempts in a line each, capped ([`COMPACT_NAMES`],
/// [`COMPACT_CHARS`]); the whole [`CheckDocument`] is the result of a call
/// with `full: true`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompactCheck {
    /// The result's version, [`COMPACT_SCHEMA`].
    pub compact: u32,
    /// `pass`, `fail` or `inconclusive`.
    pub verdict: String,
    /// Why an inconclusive verdict is one; null otherwise.
    pub cause: Option<String>,
    /// The verdict in a sentence, capped.
    pub reason: String,
    /// How many tests failed the change (the full document's `failing`).
    pub failing_count: usize,
    /// The first of them, each with its message's first line, capped.
    pub failing: Vec<CompactFailure>,
    /// Under `expect`: how the listed tests were graded.
    pub grading: Option<GradingSummary>,
    /// Tests that failed in some attempts only, capped.
    pub sometimes_failed: Vec<String>,
    /// Each attempt in a line: `1: exited 1 in 2.31s, 3 failing`.
    pub attempts: Vec<String>,
    /// The remarks on single attempts, each capped.
    pub notes: Vec<String>,
    /// The environment's fault, where an attempt showed one.
    pub environment: Option<Environment<'static>>,
    /// The command testgate chose, where none was given.
    pub detected: Option<Detected>,
    /// How many tests the attempts named in all.
    pub tests_named: usize,
}

/// The `check` tool's structured result: the compact form by default, the
/// whole document with `full: true`. Untagged: the compact form is told by
/// its `compact` field, the whole document by its `schema` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum CheckToolResult<'a> {
    /// The default.
    Compact(Box<CompactCheck>),
    /// With `full: true`: `check --json`'s document.
    Full(Box<CheckDocument<'a>>),
}

/// A failing test and the first line of its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompactFailure {
    /// The test.
    pub name: String,
    /// The first line of its message, capped; null where no parser kept
    /// one.
    pub message: Option<String>,
}

/// How many listed tests got each grade, and the ones that did not pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GradingSummary {
    /// Listed tests graded `passed`.
    pub passed: usize,
    /// Listed tests graded `failed`.
    pub failed: usize,
    /// Listed tests graded `flaky`.
    pub flaky: usize,
    /// Listed tests graded `not_run`.
    pub not_run: usize,
    /// The first listed tests not graded `passed`, capped.
    pub not_passed: Vec<NotPassed>,
    /// How many tests on no list failed.
    pub unlisted_failed: usize,
}

/// A listed test that did not pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NotPassed {
    /// The test.
    pub name: String,
    /// Its list: `must_pass`, `keep_passing` or `unlisted`.
    pub list: String,
    /// Its grade.
    pub grade: String,
}

impl CompactCheck {
    /// The compact form of `check`.
    pub fn of(check: &CheckDocument<'_>) -> Self {
        CompactCheck {
            compact: COMPACT_SCHEMA,
            verdict: check.verdict.clone().into_owned(),
            cause: check.cause.as_deref().map(str::to_owned),
            reason: cap(&check.reason),
            failing_count: check.failing.len(),
            failing: failing_with_messages(check),
            grading: check.grading.as_ref().map(grading_summary),
            sometimes_failed: check
                .findings
                .sometimes_failed
                .iter()
                .take(COMPACT_NAMES)
                .map(|s| format!("{} (failed in {} of {})", s.name, s.failed_in, s.out_of))
                .collect(),
            attempts: check.attempts.iter().map(attempt_line).collect(),
            notes: notes(check),
            environment: check
                .attempts
                .iter()
                .find_map(|a| a.environment.as_ref())
                .map(|e| Environment {
                    what: cap(&e.what).into(),
                    fix: cap(&e.fix).into(),
                }),
            detected: check.detected.clone(),
            tests_named: check.tests.len(),
        }
    }
}

/// The first [`COMPACT_NAMES`] failing tests of `check`, each with its
/// message's first line, capped.
fn failing_with_messages(check: &CheckDocument<'_>) -> Vec<CompactFailure> {
    check
        .failing
        .iter()
        .take(COMPACT_NAMES)
        .map(|name| CompactFailure {
            name: name.clone(),
            message: check
                .failures
                .iter()
                .find(|f| f.name == name.as_str())
                .and_then(|f| f.message.as_deref())
                .map(|m| cap(m.lines().next().unwrap_or_default())),
        })
        .collect()
}

/// How many listed tests got each grade, and the first that did not pass.
fn grading_summary(grading: &Grading<'_>) -> GradingSummary {
    let mut summary = GradingSummary {
        unlisted_failed: grading.unlisted_failed.len(),
        ..GradingSummary::default()
    };
    for test in &grading.tests {
        match test.grade.as_ref() {
            "passed" => summary.passed += 1,
            "failed" => summary.failed += 1,
            "flaky" => summary.flaky += 1,
            _ => summary.not_run += 1,
        }
        if test.grade != "passed" && summary.not_passed.len() < COMPACT_NAMES {
            summary.not_passed.push(NotPassed {
                name: test.name.clone().into_owned(),
                list: test.list.clone().into_owned(),
                grade: test.grade.clone().into_owned(),
            });
        }
    }
    summary
}

/// An attempt in a line: `1: exited 1 in 2.31s, 3 failing`.
fn attempt_line(a: &Attempt<'_>) -> String {
    let ending = match (a.outcome.as_ref(), a.exit_code, a.signal) {
        ("exited", Some(code), _) => format!("exited {code}"),
        ("signalled", _, Some(signal)) => format!("killed by signal {signal}"),
        (outcome, _, _) => outcome.to_owned(),
    };
    let selected = match &a.selected {
        Some(names) => format!(" ({} selected)", names.len()),
        None => String::new(),
    };
    let failing = match a.failing.len() {
        0 => String::new(),
        n => format!(", {n} failing"),
    };
    let counts = a
        .counts
        .map(|c| {
            format!(
                ", counts passed {} failed {} skipped {}",
                c.passed.map_or("?".to_owned(), |n| n.to_string()),
                c.failed.map_or("?".to_owned(), |n| n.to_string()),
                c.skipped.map_or("?".to_owned(), |n| n.to_string())
            )
        })
        .unwrap_or_default();
    format!(
        "{}: {ending}{selected} in {:.2}s{failing}{counts}",
        a.number,
        a.duration_ms as f64 / 1000.0
    )
}

/// The findings' notes, then the attempts' own, each capped, a repeat
/// next to itself dropped.
fn notes(check: &CheckDocument<'_>) -> Vec<String> {
    let mut notes: Vec<String> = check
        .findings
        .notes
        .iter()
        .take(COMPACT_NAMES)
        .map(|n| format!("attempt {}: {}", n.attempt, cap(&n.text)))
        .collect();
    notes.extend(
        check
            .attempts
            .iter()
            .filter_map(|a| a.note.as_deref().map(|note| (a.number, note)))
            .take(COMPACT_NAMES)
            .map(|(number, note)| format!("attempt {number}: {}", cap(note))),
    );
    notes.dedup();
    notes
}

/// `text` cut to [`COMPACT_CHARS`] characters, with `…` where it was cut.
fn cap(text: &str) -> String {
    match text.char_indices().nth(COMPACT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{COMPACT_CHARS, cap};

    #[test]
    fn a_long_text_is_cut_at_a_character_boundary() {
        let long = "é".repeat(COMPACT_CHARS + 5);
        let cut = cap(&long);
        assert_eq!(cut.chars().count(), COMPACT_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(cap("short"), "short");
    }
}
