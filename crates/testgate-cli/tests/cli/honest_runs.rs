//! Two honest runs a tree comparison must not misjudge, through the real
//! binary with real runners under bubblewrap and default options: testgate's
//! own output sent to a file in the project, and a failing test that writes
//! a tracked file.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use wait_timeout::ChildExt;

use crate::check::{fresh_copy, pytest_project};

/// How long one testgate run may take before the test kills it and fails.
const RUN_BOUND: Duration = Duration::from_secs(180);

/// Where `testgate check` sends its standard output and error.
enum Output<'a> {
    /// Each to its own file.
    Apart { stdout: &'a Path, stderr: &'a Path },
    /// Both to one file, as `&> FILE` does.
    Together(&'a Path),
}

/// `testgate check -C dir ARGS -- COMMAND`, its output sent to files as a
/// shell's redirection would, run to its end; its exit code.
fn check_into(dir: &Path, output: Output<'_>, args: &[&str], command: &[&str]) -> Option<i32> {
    let mut testgate = Command::new(env!("CARGO_BIN_EXE_testgate"));
    testgate
        .arg("check")
        .arg("-C")
        .arg(dir)
        .args(args)
        .arg("--")
        .args(command);
    run_into(testgate, output)
}

/// Runs `testgate` (a command line built by the caller) with its output
/// sent to files, to its end within [`RUN_BOUND`]; its exit code.
fn run_into(mut testgate: Command, output: Output<'_>) -> Option<i32> {
    let create = |path: &Path| File::create(path).expect("create the output file");
    let (stdout, stderr) = match output {
        Output::Apart { stdout, stderr } => (create(stdout), create(stderr)),
        Output::Together(path) => {
            let file = create(path);
            let again = file.try_clone().expect("dup");
            (file, again)
        }
    };
    let mut child = testgate
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .expect("start testgate");
    match child.wait_timeout(RUN_BOUND).expect("wait") {
        Some(status) => status.code(),
        None => {
            child.kill().expect("kill");
            child.wait().expect("reap");
            panic!(
                "testgate {:?} ran for over {RUN_BOUND:?}",
                testgate.get_args()
            );
        }
    }
}

const PYTEST: &[&str] = &["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"];

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn testgate_output_sent_into_the_project_is_no_tree_change_and_never_restored() {
    let (_tmp, dir) = pytest_project();
    for restore in [false, true] {
        let (out, err) = (dir.join("tg.log"), dir.join("tests/tg-err.log"));
        let mut args = vec!["--env", "TESTGATE_FIXTURE=pass", "-k", "2"];
        if restore {
            args.push("--restore");
        }
        let apart = Output::Apart {
            stdout: &out,
            stderr: &err,
        };
        let code = check_into(&dir, apart, &args, PYTEST);
        let (said, streamed) = (read(&out), read(&err));
        assert_eq!(code, Some(0), "--restore {restore}: {said}\n{streamed}");
        assert!(said.starts_with("PASS\n"), "{said}");
        // The log keeps everything testgate wrote to it, from the sandbox
        // it chose and the first attempt's header to the runner's summary.
        assert!(streamed.starts_with("testgate: sandbox: "), "{streamed}");
        assert!(
            streamed.contains("\ntestgate: attempt 1 of at most 3:"),
            "{streamed}"
        );
        assert!(streamed.contains("5 passed"), "{streamed}");
    }
}

#[test]
fn cargo_test_with_both_outputs_in_one_project_file_passes_and_the_log_survives_restore() {
    let (_tmp, dir) = fresh_copy("tests/projects/e2e/cargo", "cargo");
    let log = dir.join("tg.log");
    let code = check_into(
        &dir,
        Output::Together(&log),
        &["--restore", "--timeout", "150s"],
        &["cargo", "test", "--offline"],
    );
    let said = read(&log);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("testgate: attempt 1 of at most 1: cargo test"),
        "{said}"
    );
    assert!(said.contains("test result: ok."), "{said}");
    assert!(
        said.contains("\nPASS\n"),
        "the verdict is in the log: {said}"
    );
}

/// Two checks at once; the batch's output goes into the second one's
/// project, and its test waits (bounded) until the first check's result
/// line is there: the result written into its tree while it runs is no
/// change of its suite's.
#[test]
fn a_batch_writing_its_results_into_a_project_it_is_checking_passes() {
    let (tmp, first) = pytest_project();
    let (_tmp, second) = pytest_project();
    fs::remove_dir_all(second.join("tests")).expect("clear the fixture's tests");
    fs::write(
        second.join("test_waits.py"),
        "import pathlib, time\n\
         def test_sees_the_first_result():\n\
         \x20   log = pathlib.Path(__file__).resolve().parent / 'batch.log'\n\
         \x20   for _ in range(1200):\n\
         \x20       if '\"id\":\"first\"' in log.read_text():\n\
         \x20           return\n\
         \x20       time.sleep(0.05)\n\
         \x20   assert False, 'the first result never came'\n",
    )
    .expect("test");
    let manifest = tmp.path().join("manifest.jsonl");
    let line = |id: &str, dir: &Path| {
        serde_json::json!({
            "id": id,
            "workspace": dir,
            "command": PYTEST,
            "env": {"TESTGATE_FIXTURE": "pass"},
            "restore": true,
        })
    };
    let text = format!("{}\n{}\n", line("first", &first), line("second", &second));
    fs::write(&manifest, text).expect("manifest");
    let log = second.join("batch.log");
    let mut testgate = Command::new(env!("CARGO_BIN_EXE_testgate"));
    testgate.arg("batch").arg("-j").arg("2").arg(&manifest);
    let code = run_into(testgate, Output::Together(&log));
    let said = read(&log);
    assert_eq!(code, Some(0), "{said}");
    let results: Vec<Value> = said
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(results.len(), 2, "{said}");
    assert_eq!(results[0]["id"], "first", "{said}");
    for result in &results {
        assert_eq!(result["result"]["verdict"], "pass", "{result:#}");
        assert!(result["result"]["tree"].is_null(), "{result:#}");
    }
}

/// A pytest project whose one test counts its runs in the tracked file
/// `counter.txt`, then passes or fails as `TESTGATE_FIXTURE` says.
fn counting_project() -> (tempfile::TempDir, PathBuf) {
    let (tmp, dir) = pytest_project();
    fs::remove_dir_all(dir.join("tests")).expect("clear the fixture's tests");
    fs::write(dir.join("counter.txt"), "0\n").expect("counter");
    fs::write(
        dir.join("test_counter.py"),
        "import os, pathlib\n\
         COUNTER = pathlib.Path(__file__).resolve().parent / 'counter.txt'\n\
         def test_counts():\n\
         \x20   COUNTER.write_text(str(int(COUNTER.read_text()) + 1) + '\\n')\n\
         \x20   assert os.environ['TESTGATE_FIXTURE'] == 'pass'\n",
    )
    .expect("test");
    (tmp, dir)
}

fn check_json(dir: &Path, mode: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let (out, err) = (dir.join("../out.json"), dir.join("../err.log"));
    let fixture = format!("TESTGATE_FIXTURE={mode}");
    let mut args = vec!["--json", "--env", fixture.as_str()];
    args.extend_from_slice(extra);
    let apart = Output::Apart {
        stdout: &out,
        stderr: &err,
    };
    let code = check_into(dir, apart, &args, PYTEST);
    let doc = serde_json::from_str(&read(&out))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", read(&out), read(&err)));
    (code, doc)
}

/// Every attempt starts from the tree as submitted (the counter put back
/// after each), so the retries run and the Fail is proven by all three;
/// `--keep-changes` leaves the last attempt's write to look at.
#[test]
fn a_failing_test_that_writes_a_tracked_file_is_a_fail_naming_it_and_the_change() {
    for keep in [false, true] {
        let (_tmp, dir) = counting_project();
        let extra: &[&str] = if keep {
            &["--keep-changes"]
        } else {
            &["--restore", "-k", "2"]
        };
        let (code, doc) = check_json(&dir, "fail", extra);
        assert_eq!(code, Some(1), "{doc:#}");
        assert_eq!(doc["verdict"], "fail", "{doc:#}");
        assert_eq!(doc["failing"][0], "test_counter.py::test_counts", "{doc:#}");
        let attempts = if keep { 1 } else { 3 };
        assert_eq!(doc["attempts"].as_array().map(Vec::len), Some(attempts));
        assert_eq!(doc["tree"]["changed"][0], "counter.txt", "{doc:#}");
        let reason = doc["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("attempt 1: it changed the tree it was judging: counter.txt (changed)"),
            "{reason}"
        );
        let note = doc["findings"]["notes"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(note.contains("counter.txt (changed)"), "{note}");
        if keep {
            assert!(doc["tree"]["restored"].is_null(), "{doc:#}");
            assert_eq!(read(&dir.join("counter.txt")), "1\n");
        } else {
            assert_eq!(doc["tree"]["restored"]["files"], 1, "{doc:#}");
            assert_eq!(read(&dir.join("counter.txt")), "0\n");
        }
    }
}

#[test]
fn a_passing_test_that_writes_a_tracked_file_is_still_tree_changed() {
    let (_tmp, dir) = counting_project();
    let (code, doc) = check_json(&dir, "pass", &[]);
    assert_eq!(code, Some(125), "{doc:#}");
    assert_eq!(doc["cause"], "tree_changed", "{doc:#}");
    assert_eq!(doc["tree"]["changed"][0], "counter.txt", "{doc:#}");
}

/// yarn 1 reads `~/.npmrc` whenever it exists. The credential file was
/// covered by `/dev/null`, which bubblewrap binds `nodev`: yarn saw it
/// exist, its open failed with EACCES and `yarn test` exited 1 (FAIL, no
/// names). In the hidden home it is now absent; its contents never reach
/// the run.
#[test]
fn yarn_1_as_root_reads_no_credential_and_passes_under_bubblewrap() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().join("home");
    fs::create_dir_all(&home).expect("mkdir home");
    let canary = "//registry.example/:_authToken=npmrc-canary-6d1f";
    fs::write(home.join(".npmrc"), canary).expect("write .npmrc");
    let dir = tmp.path().join("project");
    fs::create_dir_all(&dir).expect("mkdir project");
    fs::write(
        dir.join("package.json"),
        r#"{"name":"y","version":"1.0.0","license":"MIT","scripts":{"test":"node --test"}}"#,
    )
    .expect("write package.json");
    fs::write(
        dir.join("home.test.js"),
        "const test = require('node:test');\n\
         const assert = require('node:assert');\n\
         const fs = require('node:fs');\n\
         test('the credential is not there', () => {\n\
           assert.throws(() => fs.readFileSync(require('node:os').homedir() + '/.npmrc'));\n\
         });\n\
         test('adds', () => assert.strictEqual(1 + 1, 2));\n",
    )
    .expect("write the test");
    let out = dir.join("testgate.json");
    let mut testgate = Command::new(env!("CARGO_BIN_EXE_testgate"));
    testgate
        .args(["check", "-C"])
        .arg(&dir)
        .args(["--sandbox", "bwrap", "--json", "--", "yarn", "test"])
        .env("HOME", &home);
    let log = tmp.path().join("stderr");
    let code = run_into(
        testgate,
        Output::Apart {
            stdout: &out,
            stderr: &log,
        },
    );
    let document: Value = serde_json::from_str(&read(&out)).expect("a JSON document");
    assert_eq!(document["verdict"], "pass", "{document:#}\n{}", read(&log));
    assert_eq!(code, Some(0));
    assert!(!read(&out).contains("npmrc-canary") && !read(&log).contains("npmrc-canary"));
}
