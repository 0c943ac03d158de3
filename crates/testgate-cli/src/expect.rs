//! `check --expect FILE`: the tests a change is graded against.
//!
//! The file is JSON, `{"must_pass": [...], "keep_passing": [...]}`; or a
//! benchmark's whole instance record: SWE-bench's (`FAIL_TO_PASS` and
//! `PASS_TO_PASS`, each a list or a string holding a JSON list, as SWE-bench
//! stores them) or Multi-SWE-bench's (`f2p_tests`, `s2p_tests`, `n2p_tests`
//! and `p2p_tests`, each an object keyed by test name or a list), whose other
//! keys (`instance_id`, `repo`, `patch`, …) are ignored with a note; or plain
//! lines: one name that must pass per line, `#` comments and blank lines
//! ignored.

use std::path::{Path, PathBuf};

use testgate::policy::{Expectations, ListedTest};
use testgate_documents::{ExpectFile, ListedName, StressOfCheck};

/// The largest expectations file read: a list of names, not a log.
const MAX_BYTES: u64 = 64 << 20;

/// Expectations as a file stated them, and what of the file was not read.
#[derive(Debug)]
pub(crate) struct Expected {
    /// The tests graded against.
    pub(crate) expectations: Expectations,
    /// The keys of a benchmark's instance record that hold no test list
    /// and were ignored, sorted; empty for testgate's own forms.
    pub(crate) ignored: Vec<String>,
    /// The instance record's `instance_id`, where it is a string
    /// (`--swebench-report` keys its report by it).
    pub(crate) instance_id: Option<String>,
    /// The instance record's trusted revision and test patch, and its
    /// patch (`model_patch`, else `patch`), for `check --trusted` and
    /// `--apply record` (docs/cli.md).
    pub(crate) instance: crate::trusted::InstanceFields,
}

impl Expected {
    /// The one line that says which keys were ignored, if any were: every
    /// key that holds no test list but those of `used` (the trusted
    /// revision, the test patch, the patch when the check uses them).
    pub(crate) fn note(&self, used: &[&str]) -> Option<String> {
        let ignored: Vec<&str> = self
            .ignored
            .iter()
            .map(String::as_str)
            .filter(|key| !used.contains(key))
            .collect();
        if ignored.is_empty() {
            return None;
        }
        let shown: Vec<&str> = ignored.iter().take(8).copied().collect();
        let more = ignored.len() - shown.len();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        Some(format!(
            "the expected tests: an instance record; its keys that hold no test list were \
             ignored: {}{more}",
            shown.join(", ")
        ))
    }
}

/// Why a list of tests (`--expect`, `--quarantine`) could not be had: each
/// a one-line message that names the list and where it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ExpectError {
    /// The file could not be opened or its size read.
    #[error("cannot read {what} in {}: {source}", path.display())]
    Unreadable {
        /// The list, in words (`the expected tests`).
        what: &'static str,
        /// The file as given.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The file holds more than [`MAX_BYTES`].
    #[error("{what} in {} are {size} bytes, more than the {MAX_BYTES} read", path.display())]
    TooLarge {
        /// The list, in words.
        what: &'static str,
        /// The file as given.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// The file could not be read as a project's file (a link, a FIFO).
    #[error("cannot read {what}: {source}")]
    NotAFile {
        /// The list, in words.
        what: &'static str,
        /// Why not.
        source: testgate::run::ProjectFileError,
    },
    /// The file is not UTF-8.
    #[error("{what} in {} are not UTF-8", path.display())]
    NotUtf8 {
        /// The list, in words.
        what: &'static str,
        /// The file as given.
        path: PathBuf,
    },
    /// The file's content states no list: why, after the list and file.
    #[error("{what} in {}: {why}", path.display())]
    Content {
        /// The list, in words.
        what: &'static str,
        /// The file as given.
        path: PathBuf,
        /// What is wrong with it.
        #[source]
        why: ListError,
    },
    /// The list given inline (a manifest line's or an MCP call's
    /// `expect`) states none.
    #[error("`expect`: {0}")]
    Inline(#[source] ListError),
}

/// Why a list's text (a file's, a manifest line's, an MCP call's) states
/// no list of tests: a one-line message, after the list and where it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ListError {
    /// The JSON is not the list's document.
    #[error(transparent)]
    Document(#[from] crate::json::DocumentError),
    /// No test is named.
    #[error("no test is listed")]
    NoTest,
    /// An instance record without the lists a benchmark states.
    #[error(
        "an instance record with no test list: expected FAIL_TO_PASS and PASS_TO_PASS \
         (SWE-bench), or f2p_tests and p2p_tests (Multi-SWE-bench)"
    )]
    NoListInRecord,
    /// testgate's own form with a key it does not take.
    #[error(
        "unknown key `{0}` (expected must_pass and keep_passing; FAIL_TO_PASS and \
         PASS_TO_PASS; or f2p_tests and p2p_tests)"
    )]
    UnknownKey(String),
    /// A quarantine file's JSON with neither list it may hold.
    #[error(
        "holds neither a `quarantine` list nor a `stress.varied` list (the output of \
         `testgate check --stress --json`)"
    )]
    NoQuarantine,
}

/// The expectations in `path`, or a one-line message of what is wrong.
pub(crate) fn read(path: &Path) -> Result<Expected, ExpectError> {
    const WHAT: &str = "the expected tests";
    let text = read_list(path, WHAT)?;
    parse(&text).map_err(|why| ExpectError::Content {
        what: WHAT,
        path: path.to_owned(),
        why,
    })
}

/// The text of `what` at `path`, at most [`MAX_BYTES`] of it.
fn read_list(path: &Path, what: &'static str) -> Result<String, ExpectError> {
    let size = std::fs::metadata(path)
        .map_err(|source| ExpectError::Unreadable {
            what,
            path: path.to_owned(),
            source,
        })?
        .len();
    if size > MAX_BYTES {
        return Err(ExpectError::TooLarge {
            what,
            path: path.to_owned(),
            size,
        });
    }
    // The list may lie in a project a suite wrote: no link followed, no
    // FIFO waited on, capped.
    let bytes = testgate::run::read_project_file(path, MAX_BYTES)
        .map_err(|source| ExpectError::NotAFile { what, source })?;
    String::from_utf8(bytes).map_err(|_| ExpectError::NotUtf8 {
        what,
        path: path.to_owned(),
    })
}

/// The tests of a quarantine file: one name per line (`#` comments), the
/// `check --stress --json` document whose varied tests to quarantine (each
/// by its name and place), or `{"quarantine": [...]}`, whose entries are
/// names or `{"name": …, "file": …}` as an `--expect` list's are.
pub(crate) fn read_quarantine(path: &Path) -> Result<Vec<ListedTest>, ExpectError> {
    const WHAT: &str = "the quarantined tests";
    let text = read_list(path, WHAT)?;
    quarantine(&text).map_err(|why| ExpectError::Content {
        what: WHAT,
        path: path.to_owned(),
        why,
    })
}

/// The tests `text` quarantines.
fn quarantine(text: &str) -> Result<Vec<ListedTest>, ListError> {
    if !text.trim_start().starts_with('{') {
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(ListedTest::from)
            .collect());
    }
    let file: StressOfCheck = crate::json::read_document(text.as_bytes())?;
    if let Some(list) = file.quarantine {
        return Ok(list.0.into_iter().map(listed_test).collect());
    }
    let stress = file.stress.ok_or(ListError::NoQuarantine)?;
    Ok(stress
        .varied
        .into_iter()
        .map(|test| match test.context {
            Some(file) => ListedTest::in_file(test.name.into_owned(), file.into_owned()),
            None => ListedTest::from(test.name.into_owned()),
        })
        .collect())
}

/// A list's entry as the policy matches it: a name alone, or a name and
/// the file it lies in.
fn listed_test(entry: ListedName) -> ListedTest {
    match entry.file {
        Some(file) => ListedTest::in_file(entry.name, file),
        None => ListedTest::from(entry.name),
    }
}

/// The expectations `text` states.
pub(crate) fn parse(text: &str) -> Result<Expected, ListError> {
    if !text.trim_start().starts_with('{') {
        let names: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if names.is_empty() {
            return Err(ListError::NoTest);
        }
        return Ok(Expected {
            expectations: Expectations::new(names, Vec::<String>::new()),
            ignored: Vec::new(),
            instance_id: None,
            instance: crate::trusted::InstanceFields::default(),
        });
    }
    let file: ExpectFile = crate::json::read_document(text.as_bytes())?;
    expected(file)
}

/// The expectations an `--expect` file's JSON states (a file's, a
/// manifest line's or an MCP call's), or why it states none.
pub(crate) fn expected(file: ExpectFile) -> Result<Expected, ListError> {
    // A benchmark's record carries its lists among much else; testgate's
    // own form holds nothing else, so a stray key there is a typo.
    let record = file.is_instance_record();
    let listed = ExpectFile::MUST_PASS
        .iter()
        .chain(&ExpectFile::KEEP_PASSING)
        .any(|key| file.list(key).is_some());
    if !record && file.instance_id.is_some() && !listed {
        return Err(ListError::NoListInRecord);
    }
    if let (false, Some(other)) = (record, file.other.first()) {
        return Err(ListError::UnknownKey(other.clone()));
    }
    let list = |keys: &[&str]| -> Vec<ListedTest> {
        keys.iter()
            .filter_map(|key| file.list(key))
            .flat_map(|list| list.0.iter())
            .map(|entry| listed_test(entry.clone()))
            .collect()
    };
    let must_pass = list(&ExpectFile::MUST_PASS);
    let keep_passing = list(&ExpectFile::KEEP_PASSING);
    if must_pass.is_empty() && keep_passing.is_empty() {
        return Err(ListError::NoTest);
    }
    Ok(Expected {
        expectations: Expectations::new(must_pass, keep_passing),
        ignored: file.other,
        instance_id: file.instance_id,
        instance: crate::trusted::InstanceFields {
            base_commit: file.base_commit,
            test_patch: file.test_patch,
            patch: file.model_patch.or(file.patch),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn every_documented_form() {
        let json = parse(r#"{"must_pass": ["a"], "keep_passing": ["b", "c"]}"#).unwrap();
        assert!(json.ignored.is_empty());
        let json = json.expectations;
        assert_eq!(json.must_pass, ["a"]);
        assert_eq!(json.keep_passing, ["b", "c"]);
        let swe = parse(r#"{"FAIL_TO_PASS": "[\"a\"]", "PASS_TO_PASS": ["b"]}"#)
            .unwrap()
            .expectations;
        assert_eq!(swe.must_pass, ["a"]);
        assert_eq!(swe.keep_passing, ["b"]);
        let lines = parse("# fixed by the change\ntests/t.py::test_a\n\n  tests/t.py::test_b  \n")
            .unwrap()
            .expectations;
        assert_eq!(
            lines.must_pass,
            ["tests/t.py::test_a", "tests/t.py::test_b"]
        );
        assert!(lines.keep_passing.is_empty());
    }

    /// A whole SWE-bench instance record, as the dataset ships it: the
    /// lists as strings holding JSON, among keys that are no list.
    #[test]
    fn a_swe_bench_instance_record_is_read_and_its_other_keys_ignored() {
        let record = r#"{
            "repo": "pytest-dev/calc",
            "instance_id": "pytest-dev__calc-1",
            "base_commit": "0123abc",
            "patch": "diff --git a/calc.py b/calc.py",
            "problem_statement": "adds wrongly",
            "version": "1.0",
            "FAIL_TO_PASS": "[\"tests/t.py::test_a\"]",
            "PASS_TO_PASS": "[\"tests/t.py::test_b\", \"tests/t.py::test_c\"]"
        }"#;
        let got = parse(record).unwrap();
        assert_eq!(got.expectations.must_pass, ["tests/t.py::test_a"]);
        assert_eq!(
            got.expectations.keep_passing,
            ["tests/t.py::test_b", "tests/t.py::test_c"]
        );
        assert_eq!(
            got.ignored,
            [
                "base_commit",
                "instance_id",
                "patch",
                "problem_statement",
                "repo",
                "version"
            ]
        );
        let note = got.note(&[]).unwrap();
        assert!(
            note.ends_with(
                "ignored: base_commit, instance_id, patch, problem_statement, repo, version"
            ),
            "{note}"
        );
    }

    /// Multi-SWE-bench's record: each list an object keyed by test name
    /// (its values the benchmark's own runs), or a list; s2p and n2p must
    /// pass after the change as f2p must.
    #[test]
    fn a_multi_swe_bench_record_is_read_by_its_test_names() {
        let record = r#"{
            "org": "gin-gonic", "repo": "gin", "number": 4048,
            "instance_id": "gin-gonic__gin-4048",
            "base": {"sha": "28e57f58"},
            "f2p_tests": {"TestFixed": {"run": "NONE", "test": "FAIL", "fix": "PASS"}},
            "s2p_tests": {"TestWasSkipped": {"run": "SKIP", "test": "SKIP", "fix": "PASS"}},
            "n2p_tests": ["TestNew"],
            "p2p_tests": {"TestKept": {"run": "PASS", "test": "PASS", "fix": "PASS"}},
            "fixed_tests": {"TestFixed": {}}
        }"#;
        let got = parse(record).unwrap();
        assert_eq!(
            got.expectations.must_pass,
            ["TestFixed", "TestWasSkipped", "TestNew"]
        );
        assert_eq!(got.expectations.keep_passing, ["TestKept"]);
        assert_eq!(
            got.ignored,
            [
                "base",
                "fixed_tests",
                "instance_id",
                "number",
                "org",
                "repo"
            ]
        );
    }

    #[test]
    fn quarantines_from_lines_or_a_stress_run() {
        assert_eq!(
            super::quarantine("# unstable\na\n\nb\n").unwrap(),
            ["a", "b"]
        );
        let stress =
            r#"{"stress": {"runs": 3, "varied": [{"name": "a", "failed_in": 1, "out_of": 3}]}}"#;
        assert_eq!(super::quarantine(stress).unwrap(), ["a"]);
        assert!(
            super::quarantine("{\"stress\": null}")
                .unwrap_err()
                .to_string()
                .contains("stress.varied")
        );
    }

    /// A stress run's varied test keeps its place; a list of its own
    /// gives names alone or names and files, as `--expect`'s does.
    #[test]
    fn quarantines_by_name_and_file() {
        use testgate::policy::ListedTest;
        let stress = r#"{"stress": {"runs": 3, "varied": [
            {"name": "m › adds", "context": "src/b.test.js", "failed_in": 1, "out_of": 3}]}}"#;
        assert_eq!(
            super::quarantine(stress).unwrap(),
            [ListedTest::in_file("m › adds", "src/b.test.js")]
        );
        let own = r#"{"quarantine": ["a", {"name": "m › adds", "file": "./src/b.test.js"}]}"#;
        assert_eq!(
            super::quarantine(own).unwrap(),
            [
                ListedTest::from("a"),
                ListedTest::in_file("m › adds", "./src/b.test.js")
            ]
        );
        assert!(
            super::quarantine(r#"{"quarantine": [{"file": "x"}]}"#)
                .unwrap_err()
                .to_string()
                .contains("quarantine")
        );
    }

    #[test]
    fn what_is_refused_and_why() {
        for (text, why) in [
            ("", "no test is listed"),
            ("# only a comment\n", "no test is listed"),
            ("{}", "no test is listed"),
            ("{\"must_pass\": [", "not valid JSON"),
            (
                "{\"must_pass\": \"a\"}",
                "`must_pass` is not a list of test names",
            ),
            (
                "{\"must_pass\": [1]}",
                "`must_pass` is not a list of test names",
            ),
            (
                "{\"must_pass\": [\"\"]}",
                "`must_pass` is not a list of test names",
            ),
            ("{\"mustpass\": [\"a\"]}", "unknown key `mustpass`"),
            (
                "{\"must_pass\": [\"a\"], \"keep_pasing\": [\"b\"]}",
                "unknown key `keep_pasing`",
            ),
            // An instance record without its lists.
            (
                "{\"instance_id\": \"x__y-1\", \"repo\": \"x/y\"}",
                "an instance record with no test list",
            ),
            (
                "{\"instance_id\": \"x\", \"FAIL_TO_PASS\": \"[]\", \"PASS_TO_PASS\": \"[]\"}",
                "no test is listed",
            ),
            (
                "{\"f2p_tests\": {\"\": {}}}",
                "`f2p_tests` is not a list of test names",
            ),
            (
                "{\"f2p_tests\": 3}",
                "`f2p_tests` is not a list of test names",
            ),
        ] {
            let got = parse(text).unwrap_err().to_string();
            assert!(got.starts_with(why), "{text:?}: {got}");
        }
    }
}
