//! `testgate diff BEFORE AFTER`: how each test changed between two checks
//! (two `check --json` documents, or records), without running anything;
//! and the reading of such a document that `check --baseline` shares.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;
use testgate::{Change, Grade, TestResult, compare};

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

/// The `schema` of `diff --json`'s document.
const DIFF_SCHEMA: u32 = 1;

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

/// `diff --json`'s document.
#[derive(Debug, Serialize)]
pub(crate) struct DiffDocument<'a> {
    schema: u32,
    tests: Vec<DiffEntry<'a>>,
    counts: std::collections::BTreeMap<&'static str, usize>,
}

#[derive(Debug, Serialize)]
struct DiffEntry<'a> {
    name: &'a str,
    change: &'static str,
    before: Option<&'static str>,
    after: Option<&'static str>,
}

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
                let name = testgate::printable(name.as_bytes());
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
            *counts.entry(change.name()).or_insert(0) += 1;
            DiffEntry {
                name,
                change: change.name(),
                before: grade_in(&before_ref, name),
                after: grade_in(&after_ref, name),
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
            let count = document.counts.get(group).copied().unwrap_or(0);
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
    let bytes = match testgate::read_project_file(path, MAX_DOCUMENT) {
        Ok(bytes) => bytes,
        Err(testgate::ProjectFileError::Open { source, .. }) => {
            return Err(Error::Read {
                path: path.to_path_buf(),
                source,
            });
        }
        Err(e) => return Err(Error::Baseline(e.to_string())),
    };
    let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".to_owned()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON ({e})")))?;
    grades_of(&value, &path.display().to_string())
}

/// Every test of the check `value` (a `check --json` document, or a
/// `--record` holding one), named `label` in errors.
pub(crate) fn grades_of(value: &Value, label: &str) -> Result<Vec<(String, Grade)>, Error> {
    let bad = |why: String| Error::Baseline(format!("{label}: {why}"));
    // A record file holds the check's document as `record.result`.
    let document = value
        .get("record")
        .and_then(|r| r.get("result"))
        .unwrap_or(value);
    let Some(tests) = document.get("tests").and_then(Value::as_array) else {
        return Err(bad(
            "holds no `tests` list: not the output of `testgate check --json` (0.1 or later)"
                .to_owned(),
        ));
    };
    tests
        .iter()
        .map(|test| {
            let name = test
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("a test without a name".to_owned()))?;
            let outcomes = test
                .get("outcomes")
                .and_then(Value::as_array)
                .ok_or_else(|| bad(format!("test {name} has no `outcomes`")))?;
            let results: Vec<Option<TestResult>> = outcomes.iter().map(result_of).collect();
            Ok((name.to_owned(), Grade::of(&results)))
        })
        .collect()
}

/// One attempt's outcome of a test in `check --json`, as grading reads it.
fn result_of(outcome: &Value) -> Option<TestResult> {
    Some(match outcome.as_str()? {
        "passed" | "xfailed" => TestResult::Passed,
        "failed" | "error" => TestResult::Failed,
        "flaky" => TestResult::Flaky,
        "running" => TestResult::Running,
        _ => TestResult::Skipped,
    })
}
