//! The JSON documents `testgate` prints, in one place: `check --json`
//! ([`CheckDocument`]) and `parse --json` ([`ParseDocument`]). Each is a
//! versioned struct of its own, built from the library's types field by
//! field, so renaming a library field cannot change the schema unnoticed;
//! docs/cli.md documents both, and the CLI tests snapshot both.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use std::io;

use serde::Serialize;
use serde_json::Value;
use serde_json::ser::{CharEscape, Formatter};
use testgate::{AttemptRecord, Ending, Evidence, PreparationRecord, Record, Report, Selection};

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
    /// Each name of `failing` with its own output, where a parser kept it.
    failures: Vec<Failure<'a>>,
    reason: &'a str,
    suite: Option<Suite<'a>>,
    findings: Findings<'a>,
    preparations: Vec<Preparation<'a>>,
    attempts: Vec<Attempt<'a>>,
    tree_digest: Option<&'a str>,
    tree: Option<Tree>,
    /// Every test any attempt's output named, with its outcome in each.
    tests: TestHistories<'a>,
    /// The listed tests and their grades, under `--expect`.
    grading: Option<GradingDoc<'a>>,
    /// Under `--stress`: the runs and every test whose outcome varied.
    stress: Option<StressDoc<'a>>,
    /// The sandbox the attempts ran in, and why `auto` chose it.
    sandbox: SandboxDoc<'a>,
    /// The channels that judged every attempt: `["exit", "report",
    /// "console"]`, or `["exit", "console"]` when the console judged alone
    /// in any (docs/policy.md, "Three channels must agree"); empty when no
    /// attempt ran.
    evidence: &'static [&'static str],
}

/// The channels that judged every attempt of `record`.
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

#[derive(Debug, Serialize)]
struct SandboxDoc<'a> {
    /// `bwrap`, `landlock`, `none`, or `auto` when none could start.
    kind: &'static str,
    why: Option<&'a str>,
}

/// One failing test of `check --json` and its own output: the message
/// and excerpt of the latest attempt whose parser kept one.
#[derive(Debug, Serialize)]
struct Failure<'a> {
    name: &'a str,
    message: Option<&'a str>,
    excerpt: Option<&'a str>,
    /// The attempt the message and excerpt come from.
    attempt: Option<usize>,
}

/// Each of `record`'s failing names with its output.
fn failures(record: &Record) -> Vec<Failure<'_>> {
    record
        .verdict
        .failing()
        .iter()
        .map(|name| {
            let kept = record.attempts.iter().rev().find_map(|attempt| {
                let test = attempt.report.failing.iter().find(|t| t.name == *name)?;
                (test.message.is_some() || test.excerpt.is_some()).then_some((attempt.number, test))
            });
            Failure {
                name,
                message: kept.and_then(|(_, t)| t.message.as_deref()),
                excerpt: kept.and_then(|(_, t)| t.excerpt.as_deref()),
                attempt: kept.map(|(number, _)| number),
            }
        })
        .collect()
}

#[derive(Debug, Serialize)]
struct StressDoc<'a> {
    runs: usize,
    varied: Vec<VariedDoc<'a>>,
}

#[derive(Debug, Serialize)]
struct VariedDoc<'a> {
    name: &'a str,
    failed_in: usize,
    out_of: usize,
}

#[derive(Debug, Serialize)]
struct GradingDoc<'a> {
    tests: Vec<GradedDoc<'a>>,
    unlisted_failed: &'a [String],
}

#[derive(Debug, Serialize)]
struct GradedDoc<'a> {
    name: &'a str,
    list: &'static str,
    grade: &'static str,
    results: Vec<Option<&'static str>>,
}

/// One test across the attempts: its outcome in each, null where an
/// attempt's output did not name it.
#[derive(Debug, Serialize)]
struct TestHistory<'a> {
    name: &'a str,
    kind: &'static str,
    context: Option<&'a str>,
    outcomes: Vec<Option<&'static str>>,
}

/// Every test of `record`'s attempts, in order of first appearance, with
/// its outcome in each attempt: written one test at a time, so that a
/// hundred thousand tests cost an index, not a second copy of the list.
#[derive(Debug)]
struct TestHistories<'a> {
    record: &'a Record,
    /// Each test's first appearance, (attempt, position), in order.
    first: Vec<(usize, usize)>,
    /// Each attempt's tests by name: where each one is.
    at: Vec<std::collections::HashMap<&'a str, usize>>,
}

impl<'a> TestHistories<'a> {
    fn new(record: &'a Record) -> Self {
        let at: Vec<std::collections::HashMap<&str, usize>> = record
            .attempts
            .iter()
            .map(|attempt| {
                let tests = attempt.report.tests.iter().enumerate();
                tests.map(|(i, test)| (test.name.as_str(), i)).collect()
            })
            .collect();
        let mut first = Vec::new();
        for (number, attempt) in record.attempts.iter().enumerate() {
            for (position, test) in attempt.report.tests.iter().enumerate() {
                let earlier = at.get(..number).unwrap_or_default();
                if !earlier
                    .iter()
                    .any(|names| names.contains_key(test.name.as_str()))
                {
                    first.push((number, position));
                }
            }
        }
        TestHistories { record, first, at }
    }
}

impl Serialize for TestHistories<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let attempts = &self.record.attempts;
        let mut seq = serializer.serialize_seq(Some(self.first.len()))?;
        for &(number, position) in &self.first {
            let Some(test) = attempts
                .get(number)
                .and_then(|a| a.report.tests.get(position))
            else {
                continue;
            };
            let outcomes = attempts
                .iter()
                .zip(&self.at)
                .map(|(attempt, names)| {
                    let at = names.get(test.name.as_str())?;
                    attempt.report.tests.get(*at).map(|t| t.outcome.name())
                })
                .collect();
            seq.serialize_element(&TestHistory {
                name: &test.name,
                kind: test.kind.name(),
                context: test.context.as_deref(),
                outcomes,
            })?;
        }
        seq.end()
    }
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
    /// Results left out of the top-level `tests` once this attempt's list
    /// was full.
    tests_omitted: u64,
    /// Test binaries that died naming no failing test (a go panic in a
    /// goroutine, go's `-timeout`).
    crashes: Vec<Crash<'a>>,
    /// The channels that judged the attempt: `["exit", "report",
    /// "console"]` or `["exit", "console"]`.
    evidence: &'static [&'static str],
    /// The runner's own report: `read`, `missing` (asked for, none
    /// complete), or `none` (not asked for).
    report: &'static str,
    /// Where the report was read, the failing tests the console named
    /// (`failing` is then the report's).
    console_failing: Option<&'a [String]>,
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
            failures: failures(record),
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
            tests: TestHistories::new(record),
            grading: record.grading.as_ref().map(|grading| GradingDoc {
                tests: grading
                    .tests
                    .iter()
                    .map(|test| GradedDoc {
                        name: &test.name,
                        list: test.list.name(),
                        grade: test.grade.name(),
                        results: test.results.iter().map(|r| r.map(|r| r.name())).collect(),
                    })
                    .collect(),
                unlisted_failed: &grading.unlisted_failed,
            }),
            stress: record.stress.as_ref().map(|varied| StressDoc {
                runs: record.attempts.len(),
                varied: varied
                    .iter()
                    .map(|v| VariedDoc {
                        name: &v.name,
                        failed_in: v.failed_in,
                        out_of: v.out_of,
                    })
                    .collect(),
            }),
            sandbox: SandboxDoc {
                kind: record.sandbox.0,
                why: record.sandbox.1.as_deref(),
            },
            evidence: evidence(record),
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
        tests_omitted: record.report.tests_omitted,
        crashes: crashes(&record.report),
        evidence: attempt.evidence.channels(),
        report: attempt.evidence.report_name(),
        console_failing: match &attempt.evidence {
            Evidence::Report {
                console_failing, ..
            } => Some(console_failing),
            Evidence::ConsoleAlone | Evidence::ReportMissing => None,
        },
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
    /// Every test the output named, with its outcome.
    tests: Vec<Test<'a>>,
    /// Results left out of `tests` once it was full.
    tests_omitted: u64,
    /// Test binaries that died naming no failing test.
    crashes: Vec<Crash<'a>>,
    lines: u64,
    long_lines: u64,
}

#[derive(Debug, Serialize)]
struct FailingTest<'a> {
    name: &'a str,
    format: &'static str,
    context: Option<&'a str>,
    kind: &'static str,
    /// The first line that states the failure, in the test's own output.
    message: Option<&'a str>,
    /// The test's own output, bounded (docs/formats.md).
    excerpt: Option<&'a str>,
}

/// A test binary that died naming no failing test.
#[derive(Debug, Serialize)]
struct Crash<'a> {
    format: &'static str,
    /// The binary as the runner names it (go: the package).
    binary: Option<&'a str>,
    /// `panic`, or go's `test timed out after 1s`.
    cause: &'a str,
    /// The test the runner said was running when it died.
    running: Option<&'a str>,
    /// The test that started the goroutine that panicked.
    started_by: Option<&'a str>,
}

fn crashes(report: &Report) -> Vec<Crash<'_>> {
    report
        .crashes
        .iter()
        .map(|crash| Crash {
            format: crash.format.name(),
            binary: crash.binary.as_deref(),
            cause: &crash.cause,
            running: crash.running.as_deref(),
            started_by: crash.started_by.as_deref(),
        })
        .collect()
}

#[derive(Debug, Serialize)]
struct Test<'a> {
    name: &'a str,
    outcome: &'static str,
    kind: &'static str,
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
                    kind: test.kind.name(),
                    message: test.message.as_deref(),
                    excerpt: test.excerpt.as_deref(),
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
            tests: report
                .tests
                .iter()
                .map(|test| Test {
                    name: &test.name,
                    outcome: test.outcome.name(),
                    kind: test.kind.name(),
                    format: test.format.name(),
                    context: test.context.as_deref(),
                })
                .collect(),
            tests_omitted: report.tests_omitted,
            crashes: crashes(report),
            lines: report.lines,
            long_lines: report.long_lines,
        }
    }
}

/// Writes `document` as one line of JSON in which every string, keys
/// included, is shown as [`testgate::printable`] shows text: the one filter
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

/// `document` through [`write_printable`], as a value (for the record).
pub(crate) fn printable_value<T: Serialize>(document: &T) -> serde_json::Result<Value> {
    let mut bytes = Vec::new();
    write_printable(&mut bytes, document)?;
    serde_json::from_slice(&bytes)
}

/// serde_json's compact formatter, writing each character that
/// [`testgate::is_hidden`] names as its visible escape, `\r\n` as `\n`.
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
            if testgate::is_hidden(c) {
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
