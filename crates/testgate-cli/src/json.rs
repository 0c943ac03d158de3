//! The JSON documents `testgate` prints, in one place: `check --json`
//! ([`CheckDocument`]) and `parse --json` ([`ParseDocument`]). Each is a
//! versioned struct of its own, built from the library's types field by
//! field, so renaming a library field cannot change the schema unnoticed;
//! docs/cli.md documents both, and the CLI tests snapshot both.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;
use testgate::{AttemptRecord, Ending, PreparationRecord, Record, Report, Selection};

/// The `schema` of `check --json`'s document. A field added keeps it; a
/// field removed, renamed or given another meaning bumps it.
pub(crate) const CHECK_SCHEMA: u32 = 1;

/// The `schema` of each `parse --json` line, by the same rule.
pub(crate) const PARSE_SCHEMA: u32 = 1;

/// `check --json`: the verdict and everything that led to it.
#[derive(Debug, Serialize)]
pub(crate) struct CheckDocument<'a> {
    schema: u32,
    verdict: &'static str,
    cause: Option<&'static str>,
    failing: &'a [String],
    reason: &'a str,
    suite: Option<Suite<'a>>,
    findings: Findings<'a>,
    preparations: Vec<Preparation<'a>>,
    attempts: Vec<Attempt<'a>>,
    tree_digest: Option<&'a str>,
    tree: Option<Tree>,
}

#[derive(Debug, Serialize)]
struct Suite<'a> {
    name: &'a str,
    version: &'a str,
}

#[derive(Debug, Serialize)]
struct Findings<'a> {
    always_failed: &'a [String],
    sometimes_failed: Vec<SometimesFailed<'a>>,
    order_dependence: Option<OrderDependence<'a>>,
    stopped_by: Option<StoppedBy>,
    notes: Vec<Note<'a>>,
}

#[derive(Debug, Serialize)]
struct SometimesFailed<'a> {
    name: &'a str,
    failed_in: usize,
    out_of: usize,
}

#[derive(Debug, Serialize)]
struct OrderDependence<'a> {
    names: &'a [String],
    passed_alone_in: usize,
    failed_again_in: usize,
}

#[derive(Debug, Serialize)]
struct StoppedBy {
    attempt: usize,
    cause: &'static str,
}

#[derive(Debug, Serialize)]
struct Note<'a> {
    attempt: usize,
    text: &'a str,
}

#[derive(Debug, Serialize)]
struct Tree {
    changed: Vec<String>,
    deleted: Vec<String>,
    added: Vec<String>,
    restored: Option<Restored>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Restored {
    Files { files: usize },
    Error { error: String },
}

#[derive(Debug, Serialize)]
struct Preparation<'a> {
    number: usize,
    command: &'a str,
    outcome: &'static str,
    exit_code: Option<i32>,
    signal: Option<i32>,
    detail: Option<&'a str>,
    duration_ms: u64,
    removed: &'a [String],
}

#[derive(Debug, Serialize)]
struct Attempt<'a> {
    number: usize,
    command: &'a [String],
    selected: Option<&'a [String]>,
    outcome: &'static str,
    exit_code: Option<i32>,
    signal: Option<i32>,
    detail: Option<&'a str>,
    duration_ms: u64,
    failing: &'a [String],
    counts: Option<Counts>,
    no_tests_ran: bool,
    format: Option<&'static str>,
    leaked_processes: bool,
    note: Option<&'a str>,
    environment: Option<Environment<'a>>,
    coverage_below_threshold: bool,
    /// Tests that failed and then passed within the attempt (the runner's
    /// own retries, `go test -count=N`).
    flaky_within: &'a [String],
    /// Re-runs of failed tests the runner counted without naming them.
    reruns: u64,
    /// Tests started and not ended when the output stopped.
    running: &'a [String],
}

#[derive(Debug, Serialize)]
struct Counts {
    passed: Option<u64>,
    failed: Option<u64>,
    skipped: Option<u64>,
}

#[derive(Debug, Serialize)]
struct Environment<'a> {
    what: &'a str,
    fix: &'a str,
}

impl<'a> CheckDocument<'a> {
    /// The document of `record`.
    pub(crate) fn new(record: &'a Record) -> Self {
        let verdict = &record.verdict;
        let findings = &record.findings;
        CheckDocument {
            schema: CHECK_SCHEMA,
            verdict: verdict.name(),
            cause: verdict.cause().map(|c| c.name()),
            failing: verdict.failing(),
            reason: verdict.reason(),
            suite: record
                .suite
                .as_ref()
                .map(|(name, version)| Suite { name, version }),
            findings: Findings {
                always_failed: &findings.always_failed,
                sometimes_failed: findings
                    .sometimes_failed
                    .iter()
                    .map(|s| SometimesFailed {
                        name: &s.name,
                        failed_in: s.failed_in,
                        out_of: s.out_of,
                    })
                    .collect(),
                order_dependence: findings.order_dependence.as_ref().map(|o| OrderDependence {
                    names: &o.names,
                    passed_alone_in: o.passed_alone_in,
                    failed_again_in: o.failed_again_in,
                }),
                stopped_by: findings.stopped_by.map(|s| StoppedBy {
                    attempt: s.attempt,
                    cause: s.cause.name(),
                }),
                notes: findings
                    .notes
                    .iter()
                    .map(|n| Note {
                        attempt: n.attempt,
                        text: &n.text,
                    })
                    .collect(),
            },
            preparations: record.preparations.iter().map(preparation).collect(),
            attempts: record.attempts.iter().map(attempt).collect(),
            tree_digest: record.tree_digest.as_deref(),
            tree: record.tree.as_ref().map(|change| Tree {
                changed: paths(&change.changed),
                deleted: paths(&change.deleted),
                added: paths(&change.added),
                restored: change.restored.as_ref().map(|r| match r {
                    Ok(files) => Restored::Files { files: *files },
                    Err(why) => Restored::Error { error: why.clone() },
                }),
            }),
        }
    }
}

fn paths(list: &[PathBuf]) -> Vec<String> {
    list.iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect()
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The JSON fields of an ending: outcome, exit code, signal, detail.
fn ending_fields(ending: &Ending) -> (&'static str, Option<i32>, Option<i32>, Option<&str>) {
    match ending {
        Ending::Exited { code } => ("exited", Some(*code), None, None),
        Ending::Signalled { signal } => ("signalled", None, Some(*signal), None),
        Ending::TimedOut { .. } => ("timed_out", None, None, None),
        Ending::SandboxRefused { why } => ("sandbox_refused", None, None, Some(why.as_str())),
        Ending::WouldNotStart { why } => ("would_not_start", None, None, Some(why.as_str())),
        Ending::Cancelled => ("cancelled", None, None, None),
        Ending::Lost { why } => ("lost", None, None, Some(why.as_str())),
    }
}

fn preparation(record: &PreparationRecord) -> Preparation<'_> {
    let preparation = &record.preparation;
    let (outcome, exit_code, signal, detail) = ending_fields(&preparation.ending);
    Preparation {
        number: record.number,
        command: &preparation.command,
        outcome,
        exit_code,
        signal,
        detail,
        duration_ms: millis(record.duration),
        removed: &preparation.removed,
    }
}

fn attempt(record: &AttemptRecord) -> Attempt<'_> {
    let attempt = &record.attempt;
    let (outcome, exit_code, signal, detail) = ending_fields(&attempt.ending);
    Attempt {
        number: record.number,
        command: &record.command,
        selected: match &attempt.selection {
            Selection::Full => None,
            Selection::Only(names) => Some(names),
        },
        outcome,
        exit_code,
        signal,
        detail,
        duration_ms: millis(attempt.duration),
        failing: &attempt.failing,
        counts: attempt.counts.map(|c| Counts {
            passed: c.passed,
            failed: c.failed,
            skipped: c.skipped,
        }),
        no_tests_ran: attempt.no_tests_ran,
        format: record.report.format.map(|f| f.name()),
        leaked_processes: attempt.leaked_processes,
        note: attempt.note.as_deref(),
        environment: attempt.environment.as_ref().map(|e| Environment {
            what: &e.what,
            fix: &e.fix,
        }),
        coverage_below_threshold: attempt.coverage_below_threshold,
        flaky_within: &attempt.flaky_within,
        reruns: attempt.reruns,
        running: &attempt.running,
    }
}

/// One line of `parse --json`: what the parser understood of one file.
#[derive(Debug, Serialize)]
pub(crate) struct ParseDocument<'a> {
    schema: u32,
    /// The path as given (`-` for standard input); a path that is not
    /// UTF-8 is shown lossily rather than failing the output.
    file: Cow<'a, str>,
    format: Option<&'static str>,
    failing: Vec<FailingTest<'a>>,
    counts: Counts,
    no_tests_ran: bool,
    /// The first scope the runner opened and never closed, if any.
    unclosed: Option<&'a str>,
    /// Tests that failed and then passed within the run.
    flaky: &'a [String],
    /// Re-runs of failed tests counted without names.
    reruns: u64,
    /// Tests started and not ended when the output stopped.
    running: &'a [String],
    lines: u64,
    long_lines: u64,
}

#[derive(Debug, Serialize)]
struct FailingTest<'a> {
    name: &'a str,
    format: &'static str,
    context: Option<&'a str>,
}

impl<'a> ParseDocument<'a> {
    /// The document of `report`, parsed from `path`.
    pub(crate) fn new(path: &'a Path, report: &'a Report) -> Self {
        ParseDocument {
            schema: PARSE_SCHEMA,
            file: path.to_string_lossy(),
            format: report.format.map(|f| f.name()),
            failing: report
                .failing
                .iter()
                .map(|test| FailingTest {
                    name: &test.name,
                    format: test.format.name(),
                    context: test.context.as_deref(),
                })
                .collect(),
            counts: Counts {
                passed: report.counts.passed,
                failed: report.counts.failed,
                skipped: report.counts.skipped,
            },
            no_tests_ran: report.no_tests_ran,
            unclosed: report.unclosed.as_deref(),
            flaky: &report.flaky,
            reruns: report.reruns,
            running: &report.running,
            lines: report.lines,
            long_lines: report.long_lines,
        }
    }
}

/// `document` as JSON with every string in it, keys included, passed
/// through [`testgate::printable`]: the one filter every string that leaves
/// testgate goes through, text and JSON alike (docs/cli.md, "Control
/// characters"). A test's name or output with `\r`, a backspace or a bidi
/// override reaches a JSON consumer as the visible escape (`\u{d}`,
/// `\u{202e}`), never raw.
pub(crate) fn printable_value<T: Serialize>(document: &T) -> serde_json::Result<Value> {
    Ok(printable_in(serde_json::to_value(document)?))
}

fn printable_in(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(shown(text)),
        Value::Array(items) => Value::Array(items.into_iter().map(printable_in).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| (shown(key), printable_in(value)))
                .collect(),
        ),
        other @ (Value::Null | Value::Bool(_) | Value::Number(_)) => other,
    }
}

/// `text` through the filter, without a copy when nothing in it can change
/// (no control character, nothing in the range of the bidi controls).
fn shown(text: String) -> String {
    let plain = text.chars().all(|c| {
        c == '\n' || c == '\t' || !(c.is_control() || ('\u{61c}'..='\u{2069}').contains(&c))
    });
    if plain {
        text
    } else {
        testgate::printable(text.as_bytes())
    }
}
