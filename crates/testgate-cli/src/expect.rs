//! `check --expect FILE`: the tests a change is graded against.
//!
//! The file is JSON, `{"must_pass": [...], "keep_passing": [...]}` (also
//! with SWE-bench's keys, `FAIL_TO_PASS` and `PASS_TO_PASS`, whose values
//! may be a list or a string holding a JSON list, as SWE-bench stores
//! them), or plain lines: one name that must pass per line, `#` comments
//! and blank lines ignored.

use std::path::Path;

use serde_json::Value;
use testgate::Expectations;

/// The largest expectations file read: a list of names, not a log.
const MAX_BYTES: u64 = 64 << 20;

/// The expectations in `path`, or a one-line message of what is wrong.
pub(crate) fn read(path: &Path) -> Result<Expectations, String> {
    let text = read_list(path, "the expected tests")?;
    parse(&text).map_err(|why| format!("the expected tests in {}: {why}", path.display()))
}

/// The text of `what` at `path`, at most [`MAX_BYTES`] of it.
fn read_list(path: &Path, what: &str) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read {what} in {}: {e}", path.display());
    let size = std::fs::metadata(path).map_err(cannot)?.len();
    if size > MAX_BYTES {
        return Err(format!(
            "{what} in {} are {size} bytes, more than the {MAX_BYTES} read",
            path.display()
        ));
    }
    // The list may lie in a project a suite wrote: no link followed, no
    // FIFO waited on, capped.
    let bytes = testgate::read_project_file(path, MAX_BYTES)
        .map_err(|e| format!("cannot read {what}: {e}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{what} in {} are not UTF-8", path.display()))
}

/// The names of a quarantine file: one per line (`#` comments), or the
/// `check --stress --json` document whose varied tests to quarantine.
pub(crate) fn read_quarantine(path: &Path) -> Result<Vec<String>, String> {
    let text = read_list(path, "the quarantined tests")?;
    quarantine(&text).map_err(|why| format!("the quarantined tests in {}: {why}", path.display()))
}

/// The names `text` quarantines.
fn quarantine(text: &str) -> Result<Vec<String>, String> {
    if !text.trim_start().starts_with('{') {
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect());
    }
    /// What a quarantine reads of `check --stress --json`: typed, as
    /// testgate-documents writes it.
    #[derive(serde::Deserialize)]
    struct Stressed {
        stress: Option<testgate_documents::Stress<'static>>,
    }
    let stressed: Stressed =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
    let stress = stressed.stress.ok_or(
        "holds no `stress.varied` list: not the output of `testgate check --stress --json`",
    )?;
    Ok(stress
        .varied
        .into_iter()
        .map(|test| test.name.into_owned())
        .collect())
}

/// The expectations `text` states.
pub(crate) fn parse(text: &str) -> Result<Expectations, String> {
    if !text.trim_start().starts_with('{') {
        let names: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        if names.is_empty() {
            return Err("no test is listed".to_owned());
        }
        return Ok(Expectations::new(names, Vec::<String>::new()));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON ({e})"))?;
    let Value::Object(object) = value else {
        return Err("not a JSON object".to_owned());
    };
    let known = ["must_pass", "keep_passing", "FAIL_TO_PASS", "PASS_TO_PASS"];
    if let Some(other) = object.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!(
            "unknown key `{other}` (expected must_pass and keep_passing, or FAIL_TO_PASS and PASS_TO_PASS)"
        ));
    }
    let list = |keys: [&str; 2]| -> Result<Vec<String>, String> {
        let mut names = Vec::new();
        for key in keys {
            if let Some(value) = object.get(key) {
                names.extend(names_in(key, value)?);
            }
        }
        Ok(names)
    };
    let must_pass = list(["must_pass", "FAIL_TO_PASS"])?;
    let keep_passing = list(["keep_passing", "PASS_TO_PASS"])?;
    if must_pass.is_empty() && keep_passing.is_empty() {
        return Err("no test is listed".to_owned());
    }
    Ok(Expectations::new(must_pass, keep_passing))
}

/// The names of one key: a list of strings, or a string holding one.
fn names_in(key: &str, value: &Value) -> Result<Vec<String>, String> {
    let bad = || format!("`{key}` is not a list of test names");
    let items = match value {
        Value::Array(items) => items.clone(),
        Value::String(encoded) => match serde_json::from_str(encoded) {
            Ok(Value::Array(items)) => items,
            Ok(_) | Err(_) => return Err(bad()),
        },
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::Object(_) => return Err(bad()),
    };
    items
        .into_iter()
        .map(|item| match item {
            Value::String(name) if !name.is_empty() => Ok(name),
            Value::String(_)
            | Value::Null
            | Value::Bool(_)
            | Value::Number(_)
            | Value::Array(_)
            | Value::Object(_) => Err(bad()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn every_documented_form() {
        let json = parse(r#"{"must_pass": ["a"], "keep_passing": ["b", "c"]}"#).unwrap();
        assert_eq!(json.must_pass, ["a"]);
        assert_eq!(json.keep_passing, ["b", "c"]);
        let swe = parse(r#"{"FAIL_TO_PASS": "[\"a\"]", "PASS_TO_PASS": ["b"]}"#).unwrap();
        assert_eq!(swe.must_pass, ["a"]);
        assert_eq!(swe.keep_passing, ["b"]);
        let lines =
            parse("# fixed by the change\ntests/t.py::test_a\n\n  tests/t.py::test_b  \n").unwrap();
        assert_eq!(
            lines.must_pass,
            ["tests/t.py::test_a", "tests/t.py::test_b"]
        );
        assert!(lines.keep_passing.is_empty());
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
                .contains("stress.varied")
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
        ] {
            let got = parse(text).unwrap_err();
            assert!(got.starts_with(why), "{text:?}: {got}");
        }
    }
}
