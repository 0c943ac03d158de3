//! `testgate diff BEFORE AFTER`: how each test changed between two checks
//! (two `check --json` documents, or records), without running anything;
//! and the reading of such a document that `check --baseline` shares.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use testgate::policy::{Grade, TestResult, compare};
use testgate_documents::{CheckTests, DIFF_SCHEMA, DiffDocument, DiffEntry, Outcome};

use crate::Error;

/// Print how each test changed between two earlier checks.
///
/// Broken (passed before, fails now), fixed, still failing, new, gone,
/// flaky, not run, still passing. Reads two `check --json` documents (or
/// `--record` files); runs nothing. The rules are docs/policy.md's,
/// "Comparing with a baseline".
#[derive(Debug, clap::Args)]
pub(crate) struct DiffArgs {
    /// The earlier check: the base commit's `check --json` output.
    #[arg(value_name = "BEFORE")]
    before: PathBuf,

    /// The later check: the change's `check --json` output.
    #[arg(value_name = "AFTER")]
    after: PathBuf,

    /// Print one JSON object (docs/cli.md) instead of text.
    #[arg(long)]
    json: bool,
}

/// The order the text groups changes in: what a reader must act on first.
const ORDER: [&str; 8] = [
    "broken",
    "fixed",
    "still_failing",
    "new",
    "gone",
    "flaky",
    "not_run",
    "still_passing",
];

pub(crate) fn run(args: &DiffArgs) -> Result<(), Error> {
    let before = grades_in(&args.before)?;
    let after = grades_in(&args.after)?;
    let mut stdout = io::stdout().lock();
    let document = document(&before, &after);
    if args.json {
        crate::json::write_printable(&mut stdout, &document).map_err(|e| Error::Write(e.into()))?;
        writeln!(stdout).map_err(Error::Write)?;
    } else {
        let shared = shared_names(&document);
        for group in ORDER {
            let entries = document.tests.iter().filter(|t| t.change == group);
            for entry in entries {
                let place = match &entry.context {
                    Some(file) if shared.contains(entry.name.as_ref()) => {
                        format!(" (in {})", testgate::parse::printable(file.as_bytes()))
                    }
                    Some(_) | None => String::new(),
                };
                let detail = match (&entry.before, &entry.after) {
                    (None, Some(grade)) | (Some(grade), None) => format!(" ({grade})"),
                    (Some(_), Some(_)) | (None, None) => String::new(),
                };
                let name = testgate::parse::printable(entry.name.as_bytes());
                writeln!(
                    stdout,
                    "{:<14}{name}{place}{detail}",
                    group.replace('_', " ")
                )
                .map_err(Error::Write)?;
            }
        }
        writeln!(stdout, "{}", summary(&document)).map_err(Error::Write)?;
    }
    stdout.flush().map_err(Error::Write)
}

/// The names two entries of `document` share (one title in two files):
/// their text says which file each is.
fn shared_names<'d>(document: &'d DiffDocument<'_>) -> std::collections::HashSet<&'d str> {
    let mut first: std::collections::HashMap<&str, Option<&str>> = Default::default();
    let mut shared = std::collections::HashSet::new();
    for entry in &document.tests {
        let context = entry.context.as_deref();
        match first.get(entry.name.as_ref()) {
            Some(seen) if *seen != context => {
                shared.insert(entry.name.as_ref());
            }
            Some(_) => {}
            None => {
                first.insert(entry.name.as_ref(), context);
            }
        }
    }
    shared
}

/// One test of a check as `diff` and `--baseline` read it: its identity
/// (its name, and its context where the runner gave one) and what its
/// attempts add up to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CheckedTest {
    /// The runner's name for it.
    pub(crate) name: String,
    /// Where it lies (a file, a package), if the runner said.
    pub(crate) context: Option<String>,
    /// What its attempts add up to.
    pub(crate) grade: Grade,
}

impl CheckedTest {
    /// Its identity: two tests of one name in two files are two tests.
    fn identity(&self) -> (&str, Option<&str>) {
        (self.name.as_str(), self.context.as_deref())
    }
}

/// The document of how each test changed from `before` to `after` (two
/// checks' tests, as [`grades_in`] reads them), each test known by its
/// name and context: `diff --json`'s, and `testgate mcp`'s `diff` tool's.
pub(crate) fn document<'a>(
    before: &'a [CheckedTest],
    after: &'a [CheckedTest],
) -> DiffDocument<'a> {
    let keyed = |tests: &'a [CheckedTest]| -> Vec<((&'a str, Option<&'a str>), Grade)> {
        tests.iter().map(|t| (t.identity(), t.grade)).collect()
    };
    let (before_ref, after_ref) = (keyed(before), keyed(after));
    let grade_in = |list: &[((&str, Option<&str>), Grade)], key: (&str, Option<&str>)| {
        list.iter().find(|(k, _)| *k == key).map(|(_, g)| g.name())
    };
    let mut counts = std::collections::BTreeMap::new();
    let tests = compare(&before_ref, &after_ref)
        .iter()
        .map(|&(key, change)| {
            *counts.entry(Cow::Borrowed(change.name())).or_insert(0) += 1;
            let (name, context) = key;
            DiffEntry {
                name: Cow::Borrowed(name),
                context: context.map(Cow::Borrowed),
                change: Cow::Borrowed(change.name()),
                before: grade_in(&before_ref, key).map(Cow::Borrowed),
                after: grade_in(&after_ref, key).map(Cow::Borrowed),
            }
        })
        .collect();
    DiffDocument {
        schema: DIFF_SCHEMA,
        tests,
        counts,
    }
}

/// The closing line of `diff`'s text: how many tests changed how, in
/// [`ORDER`] (`1 broken, 2 still passing`).
pub(crate) fn summary(document: &DiffDocument<'_>) -> String {
    let groups: Vec<String> = ORDER
        .iter()
        .filter_map(|group| {
            let count = document.counts.get(*group).copied().unwrap_or(0);
            (count > 0).then(|| format!("{count} {}", group.replace('_', " ")))
        })
        .collect();
    if groups.is_empty() {
        "no test in either check".to_owned()
    } else {
        groups.join(", ")
    }
}

/// Why a check's document (`diff`, `check --baseline`, the MCP `diff`
/// tool's argument) could not be read as one: a one-line message naming
/// it (its path, or the argument).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum DocumentOfCheckError {
    /// The file could not be read as a project's file (a link, a FIFO,
    /// too large).
    #[error("{0}")]
    Unreadable(#[source] testgate::run::ProjectFileError),
    /// The file is not UTF-8.
    #[error("{label}: not UTF-8 text")]
    NotUtf8 {
        /// The document.
        label: String,
    },
    /// The text is not JSON.
    #[error("{label}: not JSON ({source})")]
    NotJson {
        /// The document.
        label: String,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// The JSON is not a check's document.
    #[error("{label}: not a check's document ({source})")]
    NotACheck {
        /// The document.
        label: String,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// The document holds no `tests` list: an older testgate's, or not
    /// testgate's.
    #[error(
        "{label}: holds no `tests` list: not the output of `testgate check --json` (0.1 or later)"
    )]
    NoTests {
        /// The document.
        label: String,
    },
}

/// The most of a check's JSON document read (100,000 failing names take
/// about 8 MiB).
const MAX_DOCUMENT: u64 = 256 << 20;

/// Every test of the check in `path` (a `check --json` document, or a
/// `--record` file holding one), with what its attempts add up to.
pub(crate) fn grades_in(path: &Path) -> Result<Vec<CheckedTest>, Error> {
    let label = || path.display().to_string();
    // The document may lie in a project a suite wrote: no link followed,
    // no FIFO waited on, capped.
    let bytes = match testgate::run::read_project_file(path, MAX_DOCUMENT) {
        Ok(bytes) => bytes,
        Err(testgate::run::ProjectFileError::Open { source, .. }) => {
            return Err(Error::Read {
                path: path.to_path_buf(),
                source,
            });
        }
        Err(e) => return Err(DocumentOfCheckError::Unreadable(e).into()),
    };
    let text =
        String::from_utf8(bytes).map_err(|_| DocumentOfCheckError::NotUtf8 { label: label() })?;
    let envelope: CheckTests =
        serde_json::from_str(&text).map_err(|source| match source.classify() {
            serde_json::error::Category::Data => DocumentOfCheckError::NotACheck {
                label: label(),
                source,
            },
            serde_json::error::Category::Io
            | serde_json::error::Category::Syntax
            | serde_json::error::Category::Eof => DocumentOfCheckError::NotJson {
                label: label(),
                source,
            },
        })?;
    Ok(grades_from(envelope, &label())?)
}

/// Every test of the check `value` (a `check --json` document, or a
/// `--record` holding one, already parsed: the MCP `diff` tool's
/// argument), named `label` in errors.
pub(crate) fn grades_of(
    value: &Value,
    label: &str,
) -> Result<Vec<CheckedTest>, DocumentOfCheckError> {
    let envelope =
        CheckTests::deserialize(value).map_err(|source| DocumentOfCheckError::NotACheck {
            label: label.to_owned(),
            source,
        })?;
    grades_from(envelope, label)
}

/// Every test of the check `envelope` holds, named `label` in errors.
fn grades_from(
    envelope: CheckTests,
    label: &str,
) -> Result<Vec<CheckedTest>, DocumentOfCheckError> {
    // A record file holds the check's document as `record.result`.
    let Some(tests) = envelope.into_tests() else {
        return Err(DocumentOfCheckError::NoTests {
            label: label.to_owned(),
        });
    };
    Ok(tests
        .into_iter()
        .map(|test| {
            let results: Vec<Option<TestResult>> =
                test.outcomes.iter().map(|o| o.map(result_of)).collect();
            CheckedTest {
                name: test.name,
                context: test.context,
                grade: Grade::of(&results),
            }
        })
        .collect())
}

/// One attempt's outcome of a test in `check --json`, as grading reads it:
/// as the live check does (testgate's suite), one arm per outcome.
fn result_of(outcome: Outcome) -> TestResult {
    match outcome {
        Outcome::Passed | Outcome::XFailed => TestResult::Passed,
        Outcome::Failed | Outcome::Error => TestResult::Failed,
        Outcome::Flaky => TestResult::Flaky,
        Outcome::Running => TestResult::Running,
        Outcome::Skipped | Outcome::XPassed => TestResult::Skipped,
    }
}
