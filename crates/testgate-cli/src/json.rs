//! The conversion from the facade's types to testgate-documents' types
//! (`check --json`, `parse --json`), and the one writer every JSON document
//! leaves through; docs/cli.md and docs/schema/ document them, the CLI
//! tests snapshot them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use std::io;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::error::Category;
use serde_json::ser::{CharEscape, Formatter};
use testgate::parse::Report;
use testgate::policy::{Ending, Evidence, Selection};
use testgate::{AttemptRecord, PreparationRecord, Record};
use testgate_documents::{
    Attempt, CHECK_SCHEMA, CheckDocument, Counts, Crash, Detected, Environment, Failure, Findings,
    GradedTest, Grading, Note, OrderDependence, Outcome, ParseDocument, Preparation, Restored,
    Sandbox, SometimesFailed, StoppedBy, Stress, Suite, TestHistory, Tree, Varied, View,
};

/// `check --json`'s document of `record`: the facade's record, field by
/// field, as testgate-documents' type, so renaming a library field cannot
/// change the schema unnoticed.
pub(crate) fn check_document(record: &Record) -> CheckDocument<'_> {
    let verdict = &record.verdict;
    CheckDocument {
        schema: CHECK_SCHEMA,
        verdict: Cow::Borrowed(verdict.name()),
        cause: verdict.cause().map(|c| Cow::Borrowed(c.name())),
        failing: Cow::Borrowed(verdict.failing()),
        failures: failures(record),
        reason: Cow::Borrowed(verdict.reason()),
        suite: record.suite.as_ref().map(|(name, version)| Suite {
            name: Cow::Borrowed(name),
            version: Cow::Borrowed(version),
        }),
        findings: findings(record),
        preparations: record.preparations.iter().map(preparation).collect(),
        attempts: record.attempts.iter().map(attempt).collect(),
        tree_digest: record.tree_digest.as_deref().map(Cow::Borrowed),
        tree: tree(record),
        tests: test_histories(record),
        grading: grading(record),
        stress: stress(record),
        sandbox: Some(Sandbox {
            kind: Cow::Borrowed(record.sandbox.0),
            why: record.sandbox.1.as_deref().map(Cow::Borrowed),
        }),
        evidence: channels(evidence(record)),
        detected: None,
        view: view(record),
    }
}

/// The findings across `record`'s attempts.
fn findings(record: &Record) -> Findings<'_> {
    let findings = &record.findings;
    Findings {
        always_failed: Cow::Borrowed(&findings.always_failed),
        sometimes_failed: findings
            .sometimes_failed
            .iter()
            .map(|s| SometimesFailed {
                name: Cow::Borrowed(&s.name),
                failed_in: s.failed_in,
                out_of: s.out_of,
            })
            .collect(),
        order_dependence: findings.order_dependence.as_ref().map(|o| OrderDependence {
            names: Cow::Borrowed(&o.names),
            passed_alone_in: o.passed_alone_in,
            failed_again_in: o.failed_again_in,
        }),
        stopped_by: findings.stopped_by.map(|s| StoppedBy {
            attempt: s.attempt,
            cause: Cow::Borrowed(s.cause.name()),
        }),
        notes: findings
            .notes
            .iter()
            .map(|n| Note {
                attempt: n.attempt,
                text: Cow::Borrowed(&n.text),
            })
            .collect(),
    }
}

/// What `record`'s attempts did to the project's tree, if anything.
fn tree(record: &Record) -> Option<Tree> {
    record.tree.as_ref().map(|change| Tree {
        // The installed folders' changes (Landlock) among the others;
        // the reason says which were removed.
        changed: [
            paths(&change.changed),
            paths(&change.installed.changed),
            paths(
                &change
                    .installed
                    .unknown
                    .iter()
                    .map(|(f, _)| f.clone())
                    .collect::<Vec<_>>(),
            ),
        ]
        .concat(),
        deleted: [paths(&change.deleted), paths(&change.installed.vanished)].concat(),
        added: [
            paths(&change.added),
            paths(&change.installed.left),
            paths(&change.installed.removed),
        ]
        .concat(),
        restored: change.restored.as_ref().map(|r| match r {
            Ok(files) => Restored::Files { files: *files },
            Err(why) => Restored::Error { error: why.clone() },
        }),
    })
}

/// How `record`'s listed tests were graded, under `--expect`.
fn grading(record: &Record) -> Option<Grading<'_>> {
    record.grading.as_ref().map(|grading| Grading {
        tests: grading
            .tests
            .iter()
            .map(|test| GradedTest {
                name: Cow::Borrowed(test.as_listed.as_deref().unwrap_or(&test.name)),
                canonical: test.as_listed.as_ref().map(|_| Cow::Borrowed(&*test.name)),
                context: test.context.as_deref().map(Cow::Borrowed),
                list: Cow::Borrowed(test.list.name()),
                grade: Cow::Borrowed(test.grade.name()),
                results: test
                    .results
                    .iter()
                    .map(|r| r.map(|r| Cow::Borrowed(r.name())))
                    .collect(),
            })
            .collect(),
        unlisted_failed: Cow::Borrowed(&grading.unlisted_failed),
    })
}

/// The tests whose outcome varied across `record`'s runs, under `--stress`.
fn stress(record: &Record) -> Option<Stress<'_>> {
    record.stress.as_ref().map(|varied| Stress {
        runs: record.attempts.len(),
        varied: varied
            .iter()
            .map(|v| Varied {
                name: Cow::Borrowed(&v.name),
                context: v.context.as_deref().map(Cow::Borrowed),
                failed_in: v.failed_in,
                out_of: v.out_of,
            })
            .collect(),
    })
}

/// The view `record`'s attempts ran (`--trusted`, `--apply`), if any.
fn view(record: &Record) -> Option<View> {
    record.view.as_ref().map(|view| View {
        revision: view.revision.clone(),
        test_patch: view.test_patch,
        patched: paths(&view.patched),
        replaced: paths(&view.replaced),
        removed: paths(&view.removed),
        restored: paths(&view.restored),
        put_back: matches!(view.put_back, Some(Ok(()))),
        put_back_error: match &view.put_back {
            Some(Err(why)) => Some(why.clone()),
            Some(Ok(())) | None => None,
        },
    })
}

/// `check --json`'s document of a check whose command testgate chose from
/// the project's files (`check` with no command), when it did.
pub(crate) fn check_document_detected<'a>(
    record: &'a Record,
    detected: Option<&testgate::Detected>,
) -> CheckDocument<'a> {
    let mut document = check_document(record);
    document.detected = detected.map(|detected| Detected {
        command: detected
            .command
            .iter()
            .map(|word| word.to_string_lossy().into_owned())
            .collect(),
        runner: detected.runner.name().to_owned(),
        why: detected.why(),
    });
    document
}

/// The channels that judged every attempt of `record`: the fewest any
/// attempt had.
fn evidence(record: &Record) -> &'static [&'static str] {
    let mut channels: &'static [&'static str] = &[];
    for attempt in &record.attempts {
        let these = attempt.attempt.evidence.channels();
        if channels.is_empty() || these.len() < channels.len() {
            channels = these;
        }
    }
    channels
}

/// `channels` as the document's list.
fn channels(channels: &'static [&'static str]) -> Vec<Cow<'static, str>> {
    channels.iter().map(|c| Cow::Borrowed(*c)).collect()
}

/// Each of `record`'s failing names with its own output: the message and
/// excerpt of the latest attempt whose parser kept one.
fn failures(record: &Record) -> Vec<Failure<'_>> {
    // Each attempt's failing tests by name (the first of a name, as a
    // search in order finds it): a search per name was quadratic, 100,000
    // names most of a minute.
    let by_name: Vec<HashMap<&str, _>> = record
        .attempts
        .iter()
        .map(|attempt| {
            let mut tests = HashMap::with_capacity(attempt.report.failing.len());
            for test in &attempt.report.failing {
                tests.entry(test.name.as_str()).or_insert(test);
            }
            tests
        })
        .collect();
    record
        .verdict
        .failing()
        .iter()
        .map(|name| {
            let kept = record
                .attempts
                .iter()
                .zip(&by_name)
                .rev()
                .find_map(|(attempt, tests)| {
                    let test = *tests.get(name.as_str())?;
                    (test.message.is_some() || test.excerpt.is_some())
                        .then_some((attempt.number, test))
                });
            Failure {
                name: Cow::Borrowed(name),
                message: kept.and_then(|(_, t)| t.message.as_deref().map(Cow::Borrowed)),
                excerpt: kept.and_then(|(_, t)| t.excerpt.as_deref().map(Cow::Borrowed)),
                attempt: kept.map(|(number, _)| number),
            }
        })
        .collect()
}

/// Every test of `record`'s attempts, in order of first appearance, with
/// its outcome in each attempt (null where the attempt did not name it).
/// Names are borrowed: a hundred thousand tests cost an index and one small
/// entry each, not a second copy of the names.
fn test_histories(record: &Record) -> Vec<TestHistory<'_>> {
    // A test is its name and its context: one title in two files is two
    // tests (docs/formats.md, "A test's identity").
    type Identity<'r> = (&'r str, Option<&'r str>);
    let at: Vec<HashMap<Identity<'_>, usize>> = record
        .attempts
        .iter()
        .map(|attempt| {
            let tests = attempt.report.tests.iter().enumerate();
            tests
                .map(|(i, test)| ((test.name.as_str(), test.context.as_deref()), i))
                .collect()
        })
        .collect();
    let mut histories = Vec::new();
    for (number, attempt) in record.attempts.iter().enumerate() {
        let mut seen = std::collections::HashSet::new();
        for test in &attempt.report.tests {
            let key = (test.name.as_str(), test.context.as_deref());
            let earlier = at.get(..number).unwrap_or_default();
            if earlier.iter().any(|tests| tests.contains_key(&key)) || !seen.insert(key) {
                continue;
            }
            let outcomes = record
                .attempts
                .iter()
                .zip(&at)
                .map(|(attempt, tests)| {
                    let at = tests.get(&key)?;
                    attempt.report.tests.get(*at).map(|t| outcome(t.outcome))
                })
                .collect();
            let durations_ms: Vec<Option<u64>> = record
                .attempts
                .iter()
                .zip(&at)
                .map(|(attempt, tests)| {
                    let at = tests.get(&key)?;
                    attempt.report.tests.get(*at)?.duration_ms
                })
                .collect();
            // Absent where no attempt's report gave one.
            let durations_ms = if durations_ms.iter().any(Option::is_some) {
                durations_ms
            } else {
                Vec::new()
            };
            histories.push(TestHistory {
                name: Cow::Borrowed(&test.name),
                kind: Cow::Borrowed(test.kind.name()),
                context: test.context.as_deref().map(Cow::Borrowed),
                outcomes,
                durations_ms,
            });
        }
    }
    histories
}

/// A test's outcome as the documents name it: one arm per outcome, so a new
/// one must be given a name in testgate-documents first.
fn outcome(outcome: testgate::parse::Outcome) -> Outcome {
    match outcome {
        testgate::parse::Outcome::Passed => Outcome::Passed,
        testgate::parse::Outcome::Failed => Outcome::Failed,
        testgate::parse::Outcome::Error => Outcome::Error,
        testgate::parse::Outcome::Skipped => Outcome::Skipped,
        testgate::parse::Outcome::XFailed => Outcome::XFailed,
        testgate::parse::Outcome::XPassed => Outcome::XPassed,
        testgate::parse::Outcome::Flaky => Outcome::Flaky,
        testgate::parse::Outcome::Running => Outcome::Running,
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
fn ending_fields(
    ending: &Ending,
) -> (
    Cow<'static, str>,
    Option<i32>,
    Option<i32>,
    Option<Cow<'_, str>>,
) {
    let (outcome, exit_code, signal, detail) = match ending {
        Ending::Exited { code } => ("exited", Some(*code), None, None),
        Ending::Signalled { signal } => ("signalled", None, Some(*signal), None),
        Ending::TimedOut { .. } => ("timed_out", None, None, None),
        Ending::SandboxRefused { why } => ("sandbox_refused", None, None, Some(why.as_str())),
        Ending::WouldNotStart { why } => ("would_not_start", None, None, Some(why.as_str())),
        Ending::Cancelled => ("cancelled", None, None, None),
        Ending::Lost { why } => ("lost", None, None, Some(why.as_str())),
    };
    (
        Cow::Borrowed(outcome),
        exit_code,
        signal,
        detail.map(Cow::Borrowed),
    )
}

fn preparation(record: &PreparationRecord) -> Preparation<'_> {
    let preparation = &record.preparation;
    let (outcome, exit_code, signal, detail) = ending_fields(&preparation.ending);
    Preparation {
        number: record.number,
        command: Cow::Borrowed(&preparation.command),
        outcome,
        exit_code,
        signal,
        detail,
        duration_ms: millis(record.duration),
        removed: Cow::Borrowed(&preparation.removed),
    }
}

fn attempt(record: &AttemptRecord) -> Attempt<'_> {
    let attempt = &record.attempt;
    let (outcome, exit_code, signal, detail) = ending_fields(&attempt.ending);
    Attempt {
        number: record.number,
        command: Cow::Borrowed(&record.command),
        selected: match &attempt.selection {
            Selection::Full => None,
            Selection::Only(names) => Some(Cow::Borrowed(names)),
        },
        outcome,
        exit_code,
        signal,
        detail,
        duration_ms: millis(attempt.duration),
        failing: Cow::Borrowed(&attempt.failing),
        counts: attempt.counts.map(|c| Counts {
            passed: c.passed,
            failed: c.failed,
            skipped: c.skipped,
        }),
        no_tests_ran: attempt.no_tests_ran,
        format: record.report.format.map(|f| Cow::Borrowed(f.name())),
        leaked_processes: attempt.leaked_processes,
        note: attempt.note.as_deref().map(Cow::Borrowed),
        environment: attempt.environment.as_ref().map(|e| Environment {
            what: Cow::Borrowed(&e.what),
            fix: Cow::Borrowed(&e.fix),
        }),
        coverage_below_threshold: attempt.coverage_below_threshold,
        flaky_within: Cow::Borrowed(&attempt.flaky_within),
        reruns: attempt.reruns,
        running: Cow::Borrowed(&attempt.running),
        tests_omitted: record.report.tests_omitted,
        crashes: crashes(&record.report),
        evidence: channels(attempt.evidence.channels()),
        report: Some(Cow::Borrowed(attempt.evidence.report_name())),
        console_failing: match &attempt.evidence {
            Evidence::Report {
                console_failing, ..
            } => Some(Cow::Borrowed(console_failing.as_slice())),
            Evidence::ConsoleAlone | Evidence::ReportMissing | Evidence::Unasked => None,
        },
    }
}

fn crashes(report: &Report) -> Vec<Crash<'_>> {
    report
        .crashes
        .iter()
        .map(|crash| Crash {
            format: Cow::Borrowed(crash.format.name()),
            binary: crash.binary.as_deref().map(Cow::Borrowed),
            cause: Cow::Borrowed(&crash.cause),
            running: crash.running.as_deref().map(Cow::Borrowed),
            started_by: crash.started_by.as_deref().map(Cow::Borrowed),
        })
        .collect()
}

/// `parse --json`'s line for `report`, parsed from `path`.
pub(crate) fn parse_document<'a>(path: &'a Path, report: &'a Report) -> ParseDocument<'a> {
    ParseDocument::of_file(path.to_string_lossy(), report)
}

/// Writes `document` as one line of JSON in which every string, keys
/// included, is shown as [`testgate::parse::printable`] shows text: the one filter
/// every string that leaves testgate goes through, text and JSON alike
/// (docs/cli.md, "Control characters"). A test's name or output with `\r`,
/// a backspace or a bidi override reaches a JSON consumer as the visible
/// escape (`\u{d}`, `\u{202e}`), never raw. Streamed: no copy of the
/// document is built, whatever the number of tests in it.
pub(crate) fn write_printable<W: io::Write, T: Serialize>(
    out: W,
    document: &T,
) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, Shown::default());
    document.serialize(&mut serializer)
}

/// Why a document could not be read: each a one-line message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum DocumentError {
    /// Not JSON, or more than one value.
    #[error("not valid JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    /// JSON, but not the document; serde's message names the field at
    /// fault itself (`unknown field `x``, the --expect file's own).
    #[error("{0}")]
    Invalid(#[source] serde_json::Error),
    /// JSON, but the value of `field` is not what the document holds there.
    #[error("`{field}`: {source}")]
    Field {
        /// The field's path (`env.A`).
        field: String,
        /// serde's message.
        source: serde_json::Error,
    },
}

/// The document of type `T` in `bytes` (one JSON value, nothing after it
/// but whitespace), or a one-line error: `not valid JSON (…)` for what is
/// not JSON, else serde's message after the field at fault (`` `env.A`:
/// invalid type… ``), unless the message names the field itself.
pub(crate) fn read_document<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DocumentError> {
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let document: T = serde_path_to_error::deserialize(&mut json).map_err(read_error)?;
    json.end().map_err(DocumentError::NotJson)?;
    Ok(document)
}

/// The document of type `T` that `value` holds (an MCP call's arguments),
/// or a one-line error as [`read_document`] gives it.
pub(crate) fn read_value<T: DeserializeOwned>(value: Value) -> Result<T, DocumentError> {
    serde_path_to_error::deserialize(value).map_err(read_error)
}

fn read_error(e: serde_path_to_error::Error<serde_json::Error>) -> DocumentError {
    let path = e.path().to_string();
    let inner = e.into_inner();
    match inner.classify() {
        Category::Io | Category::Syntax | Category::Eof => DocumentError::NotJson(inner),
        Category::Data => {
            let message = inner.to_string();
            // A message that names its field already (`unknown field
            // `x``, the --expect file's own) is not given it twice.
            if path == "." || message.starts_with('`') || message.contains(&format!("`{path}`")) {
                DocumentError::Invalid(inner)
            } else {
                DocumentError::Field {
                    field: path,
                    source: inner,
                }
            }
        }
    }
}

/// `document` as indented JSON text ending in a newline, as the files
/// testgate writes for people to read hold it (the record, the SWE-bench
/// report): serde_json's pretty form of what the type serialises to.
pub(crate) fn pretty_text<T: Serialize>(document: &T) -> serde_json::Result<String> {
    let mut text = serde_json::to_string_pretty(document)?;
    text.push('\n');
    Ok(text)
}

/// `document` as one line of JSON (a batch result line), ending in a
/// newline, every string shown as [`write_printable`] shows it.
pub(crate) fn line_text<T: Serialize>(document: &T) -> serde_json::Result<String> {
    let mut bytes = Vec::new();
    write_printable(&mut bytes, document)?;
    bytes.push(b'\n');
    // The formatter writes only what serde_json gives it and escapes: UTF-8.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `document` through [`write_printable`], as a value (for the record).
pub(crate) fn printable_value<T: Serialize>(document: &T) -> serde_json::Result<Value> {
    let mut bytes = Vec::new();
    write_printable(&mut bytes, document)?;
    serde_json::from_slice(&bytes)
}

/// serde_json's compact formatter, writing each character that
/// [`testgate::parse::is_hidden`] names as its visible escape, `\r\n` as `\n`.
#[derive(Debug, Default)]
struct Shown {
    /// A `\r` was read and not yet written: dropped if `\n` follows.
    carriage_return: bool,
}

impl Shown {
    fn visible<W: ?Sized + io::Write>(out: &mut W, c: u32) -> io::Result<()> {
        // `\u{d}` as text, its backslash escaped for JSON.
        write!(out, "\\\\u{{{c:x}}}")
    }

    fn settle<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        if std::mem::take(&mut self.carriage_return) {
            Self::visible(out, 0xd)?;
        }
        Ok(())
    }
}

impl Formatter for Shown {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        self.settle(out)?;
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            if testgate::parse::is_hidden(c) {
                out.write_all(fragment.get(start..at).unwrap_or_default().as_bytes())?;
                Self::visible(out, u32::from(c))?;
                start = at + c.len_utf8();
            }
        }
        out.write_all(fragment.get(start..).unwrap_or_default().as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        out: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        if matches!(escape, CharEscape::LineFeed) {
            self.carriage_return = false;
            return out.write_all(b"\\n");
        }
        self.settle(out)?;
        match escape {
            CharEscape::CarriageReturn => {
                self.carriage_return = true;
                Ok(())
            }
            CharEscape::Quote => out.write_all(b"\\\""),
            CharEscape::ReverseSolidus => out.write_all(b"\\\\"),
            CharEscape::Solidus => out.write_all(b"\\/"),
            CharEscape::Tab => out.write_all(b"\\t"),
            CharEscape::LineFeed => out.write_all(b"\\n"),
            CharEscape::Backspace => Self::visible(out, 0x8),
            CharEscape::FormFeed => Self::visible(out, 0xc),
            CharEscape::AsciiControl(byte) => Self::visible(out, u32::from(byte)),
        }
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.settle(out)?;
        out.write_all(b"\"")
    }
}
