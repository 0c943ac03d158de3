//! Trusted tests and applied patches (issue 40): a SWE-bench-shaped
//! instance graded end to end by testgate alone — a small real git
//! project, its record with `base_commit`, `patch`, `test_patch`,
//! `FAIL_TO_PASS` and `PASS_TO_PASS` — resolved with the right patch, not
//! with a wrong one, the tree left as found; an honest project gives the
//! same verdict with `--trusted` as without; a test patch or a patch that
//! does not apply is Inconclusive `prepare_failed`, nothing run.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::testgate;

const ADD: &str = "tests/test_calc.py::test_add";
const SUB: &str = "tests/test_calc.py::test_sub";

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
    std::fs::write(path, text).expect("write");
}

const BUGGY: &str = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";
const TESTS: &str = "from calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 1) == 2\n";
const NEW_TEST: &str = "\n\ndef test_add():\n    assert add(2, 2) == 4\n";

/// A repository at its base commit (a bug in `add`, a test of `sub`), and
/// the instance's patches made with git from real edits: the right fix, a
/// wrong one, and the test patch adding `test_add`.
struct Instance {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
    base: String,
    right: String,
    wrong: String,
    test_patch: String,
}

fn instance() -> Instance {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("calc");
    write(&dir, "calc.py", BUGGY);
    write(&dir, "tests/test_calc.py", TESTS);
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "base"]);
    let base = git(&dir, &["rev-parse", "HEAD"]).trim().to_owned();
    let diff_of = |path: &str, text: &str| {
        write(&dir, path, text);
        let diff = git(&dir, &["diff"]);
        git(&dir, &["checkout", "-q", "--", path]);
        diff
    };
    let right = diff_of("calc.py", &BUGGY.replacen("a - b", "a + b", 1));
    let wrong = diff_of("calc.py", &BUGGY.replacen("a - b", "a + b + 1", 1));
    let test_patch = diff_of("tests/test_calc.py", &format!("{TESTS}{NEW_TEST}"));
    Instance {
        _tmp: tmp,
        dir,
        base,
        right,
        wrong,
        test_patch,
    }
}

/// The tree's state: `git status` and the bytes of the files testgate may
/// touch.
fn state(dir: &Path) -> (String, String, String) {
    (
        git(dir, &["status", "--porcelain", "--untracked-files=all"]),
        std::fs::read_to_string(dir.join("calc.py")).expect("calc.py"),
        std::fs::read_to_string(dir.join("tests/test_calc.py")).expect("tests"),
    )
}

/// `check --expect RECORD --apply record --swebench-report` of `record`:
/// the exit code, the check document and the report.
fn grade(instance: &Instance, record: &Value) -> (Option<i32>, Value, Option<Value>) {
    let expect = instance.dir.parent().expect("tmp").join("instance.json");
    std::fs::write(&expect, record.to_string()).expect("record");
    let report = instance.dir.parent().expect("tmp").join("report.json");
    let _ = std::fs::remove_file(&report);
    let out = testgate(
        &[
            "check",
            "--json",
            "--quiet",
            "-C",
            instance.dir.to_str().expect("UTF-8"),
            "--expect",
            expect.to_str().expect("UTF-8"),
            "--missing",
            "fail",
            "--apply",
            "record",
            "--swebench-report",
            report.to_str().expect("UTF-8"),
            "--",
            "python3",
            "-m",
            "pytest",
            "-q",
        ],
        None,
    );
    let doc: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|_| panic!("{out:#?}"));
    let report = std::fs::read_to_string(&report)
        .ok()
        .map(|text| serde_json::from_str(&text).expect("report JSON"));
    (out.code, doc, report)
}

fn record(instance: &Instance, patch: &str, test_patch: &str) -> Value {
    json!({
        "instance_id": "example__calc-1",
        "repo": "example/calc",
        "base_commit": instance.base,
        "patch": patch,
        "test_patch": test_patch,
        "FAIL_TO_PASS": serde_json::to_string(&[ADD]).expect("JSON"),
        "PASS_TO_PASS": serde_json::to_string(&[SUB]).expect("JSON"),
    })
}

/// The whole SWE-bench day: the test patch applied to the base commit's
/// tests, the model patch to the tree, graded by the record's lists:
/// resolved with the right patch, not with a wrong one; the tree left as
/// found either way (the test patch and the patch are nowhere in it).
#[test]
fn a_swe_bench_instance_is_resolved_by_the_right_patch_only() {
    let instance = instance();
    let found = state(&instance.dir);

    let right = record(&instance, &instance.right, &instance.test_patch);
    let (code, doc, report) = grade(&instance, &right);
    assert_eq!(
        (code, doc["verdict"].as_str()),
        (Some(0), Some("pass")),
        "{doc:#}"
    );
    let report = report.expect("the report");
    assert_eq!(report["example__calc-1"]["resolved"], true, "{report:#}");
    let view = &doc["view"];
    assert_eq!(view["revision"], instance.base.as_str(), "{view:#}");
    assert_eq!(view["test_patch"], true, "{view:#}");
    assert_eq!(view["patched"], json!(["calc.py"]), "{view:#}");
    // The submission's tests lack the test patch's test: the revision's,
    // with the patch, ran instead.
    assert_eq!(view["replaced"], json!(["tests/test_calc.py"]), "{view:#}");
    assert_eq!(view["put_back"], true, "{view:#}");
    assert_eq!(
        state(&instance.dir),
        found,
        "the tree was not left as found"
    );

    let wrong = record(&instance, &instance.wrong, &instance.test_patch);
    let (code, doc, report) = grade(&instance, &wrong);
    assert_eq!(
        (code, doc["verdict"].as_str()),
        (Some(1), Some("fail")),
        "{doc:#}"
    );
    assert_eq!(doc["failing"], json!([ADD]), "{doc:#}");
    let report = report.expect("the report");
    assert_eq!(report["example__calc-1"]["resolved"], false, "{report:#}");
    assert_eq!(
        state(&instance.dir),
        found,
        "the tree was not left as found"
    );
}

/// A test patch that does not apply to the base commit is no verdict about
/// the code: Inconclusive `prepare_failed`, nothing run, the reason says
/// so; the tree is left as found. So is a model patch that does not apply.
#[test]
fn a_patch_that_does_not_apply_runs_nothing() {
    let instance = instance();
    let found = state(&instance.dir);
    let broken = instance
        .test_patch
        .replace("assert sub(3, 1) == 2", "assert nothing");
    for (patch, test_patch, says) in [
        (
            instance.right.as_str(),
            broken.as_str(),
            "the test patch does not apply",
        ),
        (
            broken.as_str(),
            instance.test_patch.as_str(),
            "the patch does not apply",
        ),
    ] {
        let (code, doc, _) = grade(&instance, &record(&instance, patch, test_patch));
        assert_eq!(code, Some(125), "{doc:#}");
        assert_eq!(
            (doc["verdict"].as_str(), doc["cause"].as_str()),
            (Some("inconclusive"), Some("prepare_failed")),
            "{doc:#}"
        );
        assert!(
            doc["reason"].as_str().is_some_and(|r| r.contains(says)),
            "{doc:#}"
        );
        assert_eq!(doc["attempts"], json!([]), "{doc:#}");
        assert_eq!(
            state(&instance.dir),
            found,
            "the tree was not left as found"
        );
    }
}

/// An honest project: the same verdict with `--trusted HEAD` as without,
/// no difference named, the tree left as found.
#[test]
fn an_honest_project_gives_the_same_verdict_with_trusted_tests() {
    let instance = instance();
    let found = state(&instance.dir);
    let check = |extra: &[&str]| -> Value {
        let mut args = vec![
            "check",
            "--json",
            "--quiet",
            "-C",
            instance.dir.to_str().expect("UTF-8"),
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", "python3", "-m", "pytest", "-q"]);
        let out = testgate(&args, None);
        assert_eq!(out.code, Some(0), "{out:#?}");
        serde_json::from_str(&out.stdout).expect("JSON")
    };
    let plain = check(&[]);
    let trusted = check(&["--trusted", "HEAD"]);
    assert_eq!(plain["verdict"], "pass");
    assert_eq!(trusted["verdict"], plain["verdict"]);
    assert_eq!(trusted["failing"], plain["failing"]);
    let view = &trusted["view"];
    for list in ["patched", "replaced", "removed", "restored"] {
        assert_eq!(view[list], json!([]), "{list}: {view:#}");
    }
    assert!(plain.get("view").is_none(), "{plain:#}");
    assert_eq!(
        state(&instance.dir),
        found,
        "the tree was not left as found"
    );
}

/// A revision that is an option, or names no commit, is refused: git is
/// never given it as an option.
#[test]
fn a_revision_that_is_no_commit_runs_nothing() {
    let instance = instance();
    for revision in ["--output=/tmp/x", "no-such-branch"] {
        let out = testgate(
            &[
                "check",
                "--json",
                "--quiet",
                "-C",
                instance.dir.to_str().expect("UTF-8"),
                &format!("--trusted={revision}"),
                "--",
                "python3",
                "-m",
                "pytest",
                "-q",
            ],
            None,
        );
        let doc: Value = serde_json::from_str(&out.stdout).unwrap_or_else(|_| panic!("{out:#?}"));
        assert_eq!(doc["cause"], "prepare_failed", "{revision}: {doc:#}");
    }
}
