//! A test's identity is its name and its file (docs/formats.md, "A test's
//! identity"): a real jest project whose two files both hold `math › adds`,
//! checked under bubblewrap with default options, graded by `--expect`
//! (by name, by name and file), by `--baseline`, and compared by `diff`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::check::fresh_copy;
use crate::{Run, run, testgate};

const FAIL: i32 = 1;
const PASS: i32 = 0;
const INCONCLUSIVE: i32 = 125;

/// The title both files hold.
const ADDS: &str = "math › adds";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the repository root")
        .to_path_buf()
}

/// A copy of `tests/projects/verdicts/jest-shared-title` with the e2e
/// node projects' node_modules linked in.
fn project() -> (tempfile::TempDir, PathBuf) {
    let modules = repo().join("tests/projects/e2e/node/node_modules");
    assert!(
        modules.is_dir(),
        "{} is missing: run scripts/setup (npm ci)",
        modules.display()
    );
    let (tmp, dir) = fresh_copy("tests/projects/verdicts/jest-shared-title", "shared");
    std::os::unix::fs::symlink(&modules, dir.join("node_modules")).expect("link");
    (tmp, dir)
}

/// `testgate check --json --quiet ARGS -- npx --no-install jest` in `dir`
/// in the fixture's `mode`.
fn check(dir: &Path, mode: &str, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command
        .arg("check")
        .arg("-C")
        .arg(dir)
        .arg("--env")
        .arg(format!("TESTGATE_FIXTURE={mode}"))
        .args(["--json", "--quiet", "--timeout", "150s"])
        // The linked node_modules is shown to the run: in a checkout under
        // /tmp it lies in the host's /tmp, which the sandbox hides.
        .arg("--writable")
        .arg(repo().join("tests/projects/e2e/node/node_modules"))
        .args(args)
        .args(["--", "npx", "--no-install", "jest"]);
    run(command, None)
}

/// `--expect` with `list` as the file's JSON, written beside `dir`.
fn expecting(dir: &Path, mode: &str, list: &Value) -> (Run, Value) {
    let file = dir.parent().expect("parent").join("expect.json");
    std::fs::write(&file, list.to_string()).expect("write the list");
    let out = check(dir, mode, &["--expect", file.to_str().expect("UTF-8")]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    (out, doc)
}

/// Each graded test's name, file and grade.
fn grades(doc: &Value) -> Vec<(String, Value, String)> {
    doc["grading"]["tests"]
        .as_array()
        .map(|tests| {
            tests
                .iter()
                .map(|t| {
                    let text = |key: &str| t[key].as_str().unwrap_or_default().to_owned();
                    (text("name"), t["context"].clone(), text("grade"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A name alone holds for every file that has a test of that name; a name
/// and file for that file alone. Before: the two tests were one name, and
/// which file's outcome graded it was the order of the report's files; the
/// object form was refused.
#[test]
fn expect_by_name_grades_every_file_and_by_name_and_file_that_one() {
    let (_tmp, dir) = project();
    let (out, doc) = expecting(&dir, "fail", &json!({"must_pass": [ADDS]}));
    assert_eq!(out.code, Some(FAIL), "{out:#?}");
    assert_eq!(doc["failing"], json!([ADDS]));
    let reason = doc["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(&format!("{ADDS} (must pass, in src/b.test.js)\n")),
        "{reason}"
    );
    let mut got = grades(&doc);
    got.sort_by_key(|t| t.1.to_string());
    assert_eq!(
        got,
        [
            (ADDS.to_owned(), json!("src/a.test.js"), "passed".to_owned()),
            (ADDS.to_owned(), json!("src/b.test.js"), "failed".to_owned()),
        ]
    );

    let in_a = json!({"must_pass": [{"name": ADDS, "file": "src/a.test.js"}]});
    let (out, doc) = expecting(&dir, "fail", &in_a);
    assert_eq!(out.code, Some(PASS), "{out:#?}");
    assert_eq!(
        grades(&doc),
        [(ADDS.to_owned(), json!("src/a.test.js"), "passed".to_owned())]
    );
    // The failure in b is on no list: said, not gating.
    let reason = doc["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!(
            "1 test on no list failed and did not gate: {ADDS}"
        )),
        "{reason}"
    );

    let in_b = json!({"FAIL_TO_PASS": [{"name": ADDS, "file": "./src/b.test.js"}]});
    let (out, doc) = expecting(&dir, "fail", &in_b);
    assert_eq!(out.code, Some(FAIL), "{out:#?}");
    assert_eq!(doc["failing"], json!([ADDS]));
}

/// A baseline where both files' `adds` passed: the change that breaks b's
/// fails, naming b; `diff` from a check where a's failed says a's was
/// fixed and b's broken, each with its file. Before: `diff` keyed both on
/// the name, so both were compared with one of the earlier two (the last),
/// and neither line said which file.
#[test]
fn baseline_and_diff_tell_one_name_in_two_files_apart() {
    let (_tmp, dir) = project();
    let write = |name: &str, run: &Run| {
        let path = dir.parent().expect("parent").join(name);
        std::fs::write(&path, &run.stdout).expect("write a check's document");
        path.to_str().expect("UTF-8").to_owned()
    };
    let base = check(&dir, "pass", &[]);
    assert_eq!(base.code, Some(PASS), "{base:#?}");
    let base = write("base.json", &base);

    let out = check(&dir, "fail", &["--baseline", &base]);
    assert_eq!(out.code, Some(FAIL), "{out:#?}");
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(doc["failing"], json!([ADDS]));
    let reason = doc["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(&format!("{ADDS} (was passing, in src/b.test.js)\n")),
        "{reason}"
    );
    let broke_b = write("b.json", &out);
    let a_failed = check(&dir, "fail-a", &[]);
    assert_eq!(a_failed.code, Some(FAIL), "{a_failed:#?}");
    let broke_a = write("a.json", &a_failed);

    let diff = testgate(&["diff", &broke_a, &broke_b], None);
    assert_eq!(diff.code, Some(0), "{diff:#?}");
    // Grouped by change; within a group, in the order jest reported files.
    let mut lines: Vec<&str> = diff.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "1 broken, 1 fixed, 2 still passing",
            &format!("broken        {ADDS} (in src/b.test.js)"),
            &format!("fixed         {ADDS} (in src/a.test.js)"),
            "still passing math › keeps zero (in src/a.test.js)",
            "still passing math › keeps zero (in src/b.test.js)",
        ],
        "{}",
        diff.stdout
    );
    let diff = testgate(&["diff", "--json", &broke_a, &broke_b], None);
    let doc: Value = serde_json::from_str(&diff.stdout).expect("one JSON document");
    let broken: Vec<&Value> = doc["tests"]
        .as_array()
        .map(|t| t.iter().filter(|t| t["change"] == "broken").collect())
        .unwrap_or_default();
    assert_eq!(
        broken,
        [
            &json!({"name": ADDS, "context": "src/b.test.js", "change": "broken",
                 "before": "passed", "after": "failed"})
        ]
    );
}

/// `math › adds` failing in both files, retried under `--rerun failed`:
/// the retry selects both files (item 3's "retries select both"). Before,
/// the name was placed in one file, the latest that failed it, and the
/// retry ran that file alone.
#[test]
fn a_targeted_retry_of_one_name_failing_in_two_files_runs_both() {
    let (_tmp, dir) = project();
    let out = check(&dir, "fail-both", &["--rerun", "failed", "--retries", "1"]);
    assert_eq!(out.code, Some(FAIL), "{out:#?}");
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let retry = &doc["attempts"][1];
    assert_eq!(retry["selected"], json!([ADDS]), "{doc:#}");
    let command: Vec<&str> = retry["command"]
        .as_array()
        .map(|words| words.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for file in ["a", "b"] {
        let pattern = format!("/src\\/{file}\\.test\\.js$");
        assert!(command.contains(&pattern.as_str()), "{file}: {command:?}");
    }
    // Each file's test failed again in the retry.
    let outcomes: Vec<&Value> = doc["tests"]
        .as_array()
        .map(|t| {
            t.iter()
                .filter(|t| t["name"] == ADDS)
                .map(|t| &t["outcomes"])
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(outcomes, [&json!(["failed", "failed"]); 2], "{doc:#}");
}

/// `--stress` on one name in two files whose b's varies: the varied entry
/// is b's alone, with its file; its document fed back to `--quarantine`
/// quarantines b's alone, so a's failing still gates. Before, stress keyed
/// on the name (a's result and b's were one, whichever the report put
/// last) and wrote no file, and the quarantine by name let a's failure
/// pass.
#[test]
fn stress_and_quarantine_tell_one_name_in_two_files_apart() {
    let (_tmp, dir) = project();
    let out = check(&dir, "flaky", &["--stress", "3"]);
    assert_eq!(out.code, Some(INCONCLUSIVE), "{out:#?}");
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(
        doc["stress"],
        json!({"runs": 3, "varied": [
            {"name": ADDS, "context": "src/b.test.js", "failed_in": 2, "out_of": 3}
        ]}),
        "{doc:#}"
    );
    let reason = doc["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with(&format!("{ADDS} (in src/b.test.js, failed in 2 of 3)\n")),
        "{reason}"
    );
    let stress = dir.parent().expect("parent").join("stress.json");
    std::fs::write(&stress, &out.stdout).expect("write the stress run");
    let stress = stress.to_str().expect("UTF-8 path");

    // b's fails (the first attempt is odd): quarantined, not gating.
    let out = check(&dir, "flaky", &["--quarantine", stress]);
    assert_eq!(out.code, Some(PASS), "{out:#?}");
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    let reason = doc["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!(
            "1 test in quarantine failed and did not gate: {ADDS} (in src/b.test.js)"
        )),
        "{reason}"
    );
    // a's fails: the same name, another file, gates.
    let out = check(&dir, "fail-a", &["--quarantine", stress]);
    assert_eq!(out.code, Some(FAIL), "{out:#?}");
    let doc: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(doc["failing"], json!([ADDS]), "{doc:#}");

    // A list of its own, by name and file, as `--expect`'s.
    let list = dir.parent().expect("parent").join("quarantine.json");
    let entries = json!({"quarantine": [{"name": ADDS, "file": "./src/a.test.js"}]});
    std::fs::write(&list, entries.to_string()).expect("write the list");
    let list = list.to_str().expect("UTF-8 path");
    let out = check(&dir, "fail-a", &["--quarantine", list]);
    assert_eq!(out.code, Some(PASS), "{out:#?}");
    let out = check(&dir, "fail", &["--quarantine", list]);
    assert_eq!(out.code, Some(FAIL), "{out:#?}");
}
