//! `testgate diff BEFORE AFTER`: how each test changed between two checks
//! (two `check --json` documents, or records), without running anything;
//! and the reading of such a document that `check --baseline` shares.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use testgate::policy::{Change, Grade, TestResult, compare};
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
    let before_ref: Vec<(&str, Grade)> = before.iter().map(|(n, g)| (n.as_str(), *g)).collect();
    let after_ref: Vec<(&str, Grade)> = after.iter().map(|(n, g)| (n.as_str(), *g)).collect();
    let changes = compare(&before_ref, &after_ref);
    let mut stdout = io::stdout().lock();
    if args.json {
        let document = document(&before, &after);
        crate::json::write_printable(&mut stdout, &document).map_err(|e| Error::Write(e.into()))?;
        writeln!(stdout).map_err(Error::Write)?;
    } else {
        for group in ORDER {
            let names = changes.iter().copied().filter(|(_, c)| c.name() == group);
            for (name, change) in names {
                let detail = match change {
                    Change::New(grade) | Change::Gone(grade) => format!(" ({})", grade.name()),
                    Change::Fixed
                    | Change::Broken
                    | Change::StillFailing
                    | Change::StillPassing
                    | Change::Flaky
                    | Change::NotRun => String::new(),
                };
                let name = testgate::parse::printable(name.as_bytes());
                writeln!(stdout, "{:<14}{name}{detail}", group.replace('_', " "))
                    .map_err(Error::Write)?;
            }
        }
        writeln!(stdout, "{}", summary(&document(&before, &after))).map_err(Error::Write)?;
    }
    stdout.flush().map_err(Error::Write)
}

/// The document of how each test changed from `before` to `after` (two
/// checks' tests, as [`grades_in`] reads them): `diff --json`'s, and
/// `testgate mcp`'s `diff` tool's.
pub(crate) fn document<'a>(
    before: &'a [(String, Grade)],
    after: &'a [(String, Grade)],
) -> DiffDocument<'a> {
    let before_ref: Vec<(&str, Grade)> = before.iter().map(|(n, g)| (n.as_str(), *g)).collect();
    let after_ref: Vec<(&str, Grade)> = after.iter().map(|(n, g)| (n.as_str(), *g)).collect();
    let grade_in = |list: &[(&str, Grade)], name: &str| {
        list.iter().find(|(n, _)| *n == name).map(|(_, g)| g.name())
    };
    let mut counts = std::collections::BTreeMap::new();
    let tests = compare(&before_ref, &after_ref)
        .iter()
        .map(|&(name, change)| {
            *counts.entry(Cow::Borrowed(change.name())).or_insert(0) += 1;
            DiffEntry {
                name: Cow::Borrowed(name),
                change: Cow::Borrowed(change.name()),
                before: grade_in(&before_ref, name).map(Cow::Borrowed),
                after: grade_in(&after_ref, name).map(Cow::Borrowed),
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

/// The most of a check's JSON document read (100,000 failing names take
/// about 8 MiB).
const MAX_DOCUMENT: u64 = 256 << 20;

/// Every test of the check in `path` (a `check --json` document, or a
/// `--record` file holding one), with what its attempts add up to.
pub(crate) fn grades_in(path: &Path) -> Result<Vec<(String, Grade)>, Error> {
    let bad = |why: String| Error::Baseline(format!("{}: {why}", path.display()));
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
        Err(e) => return Err(Error::Baseline(e.to_string())),
    };
    let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".to_owned()))?;
    let envelope: CheckTests = serde_json::from_str(&text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => bad(format!("not a check's document ({e})")),
        serde_json::error::Category::Io
        | serde_json::error::Category::Syntax
        | serde_json::error::Category::Eof => bad(format!("not JSON ({e})")),
    })?;
    grades_from(envelope, &path.display().to_string())
}

/// Every test of the check `value` (a `check --json` document, or a
/// `--record` holding one, already parsed: the MCP `diff` tool's
/// argument), named `label` in errors.
pub(crate) fn grades_of(value: &Value, label: &str) -> Result<Vec<(String, Grade)>, Error> {
    let envelope = CheckTests::deserialize(value)
        .map_err(|e| Error::Baseline(format!("{label}: not a check's document ({e})")))?;
    grades_from(envelope, label)
}

/// Every test of the check `envelope` holds, named `label` in errors.
fn grades_from(envelope: CheckTests, label: &str) -> Result<Vec<(String, Grade)>, Error> {
    // A record file holds the check's document as `record.result`.
    let Some(tests) = envelope.into_tests() else {
        return Err(Error::Baseline(format!(
            "{label}: holds no `tests` list: not the output of `testgate check --json` (0.1 or later)"
        )));
    };
    Ok(tests
        .into_iter()
        .map(|test| {
            let results: Vec<Option<TestResult>> =
                test.outcomes.iter().map(|o| o.map(result_of)).collect();
            (test.name, Grade::of(&results))
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
