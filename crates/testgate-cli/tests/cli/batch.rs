//! `testgate batch`, started as a user would, over copies of the real
//! pytest project of `tests/projects/e2e/`: results as JSON lines, expected
//! verdicts, graded tests (`expect`), invalid lines, resume, and Ctrl-C
//! ending every running tree.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::check::pytest_project;
use crate::{Run, run};

const PYTEST: [&str; 5] = ["python3", "-m", "pytest", "-q", "-p"];

/// A manifest line checking `dir` in fixture `mode`, with `extra` fields.
fn line(id: &str, dir: &Path, mode: &str, extra: Value) -> Value {
    let mut command: Vec<&str> = PYTEST.to_vec();
    command.push("no:cacheprovider");
    let mut line = json!({
        "id": id,
        "workspace": dir,
        "command": command,
        "env": {"TESTGATE_FIXTURE": mode},
    });
    if let (Some(line), Value::Object(extra)) = (line.as_object_mut(), extra) {
        line.extend(extra);
    }
    line
}

fn write_manifest(dir: &Path, lines: &[Value]) -> PathBuf {
    let path = dir.join("manifest.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).expect("write the manifest");
    path
}

fn batch(manifest: &Path, out: &Path, args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command
        .arg("batch")
        .arg(manifest)
        .arg("--out")
        .arg(out)
        .args(args);
    run(command, None)
}

/// The results in `out`, by id; every line must be complete JSON.
fn results(out: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(out).expect("read --out");
    assert!(text.is_empty() || text.ends_with('\n'), "{text:?}");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn by_id<'a>(results: &'a [Value], id: &str) -> &'a Value {
    results
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no result for {id} in {results:?}"))
}

#[test]
fn a_batch_runs_every_line_in_parallel_and_writes_one_result_each() {
    let (tmp, pass) = pytest_project();
    let (_t2, fail) = pytest_project();
    let (_t3, hang) = pytest_project();
    let manifest = write_manifest(
        tmp.path(),
        &[
            line("pass", &pass, "pass", json!({"expect_verdict": "pass"})),
            line(
                "fail",
                &fail,
                "fail",
                json!({"retries": 1, "expect_verdict": {"verdict": "fail", "failing": [
                    "tests/test_calc.py::TestBig::test_big_numbers",
                    "tests/test_calc.py::test_adds_negative"]}}),
            ),
            line(
                "hang",
                &hang,
                "hang",
                json!({"timeout": "3s", "expect_verdict": {"verdict": "inconclusive", "cause": "timed_out"}}),
            ),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    let run = batch(&manifest, &out, &["--jobs", "2"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "", "results go to --out");
    let results = results(&out);
    assert_eq!(results.len(), 3, "{results:?}");
    for (id, line, code, verdict) in [
        ("pass", 1, 0, "pass"),
        ("fail", 2, 1, "fail"),
        ("hang", 3, 125, "inconclusive"),
    ] {
        let result = by_id(&results, id);
        assert_eq!(result["schema"], 1);
        assert_eq!(result["line"], line);
        assert_eq!(result["exit_code"], code);
        assert_eq!(result["as_expected"], true, "{result}");
        assert_eq!(result["error"], Value::Null);
        assert_eq!(result["result"]["schema"], 1);
        assert_eq!(result["result"]["verdict"], verdict, "{result}");
    }
    assert_eq!(
        by_id(&results, "fail")["result"]["attempts"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    // Off a terminal: one progress line per check, then the summary.
    assert!(
        run.stderr
            .contains("testgate: batch: 3 of 3 done: pass 1 · fail 1 · inconclusive 1"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("testgate: batch: 3 checks in"),
        "{}",
        run.stderr
    );
}

#[test]
fn invalid_lines_and_unmet_expectations_are_reported_and_the_rest_runs() {
    let (tmp, pass) = pytest_project();
    let mut manifest = write_manifest(
        tmp.path(),
        &[
            line("typo", &pass, "pass", json!({"retires": 2})),
            line("missing", &tmp.path().join("nowhere"), "pass", json!({})),
            line(
                "unexpected",
                &pass,
                "fail",
                json!({"expect_verdict": "pass"}),
            ),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(2), "an invalid line: {}", run.stderr);
    let results = results(&out);
    assert_eq!(results.len(), 3);
    let typo = by_id(&results, "typo");
    assert_eq!(typo["exit_code"], 2);
    assert!(
        typo["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("manifest line 1: unknown field `retires`")),
        "{typo}"
    );
    assert_eq!(typo["result"], Value::Null);
    let missing = by_id(&results, "missing");
    assert!(
        missing["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("cannot use ") && e.contains("nowhere")),
        "{missing}"
    );
    let unexpected = by_id(&results, "unexpected");
    assert_eq!(unexpected["as_expected"], false);
    assert_eq!(unexpected["result"]["verdict"], "fail");

    // Without the invalid lines, an unmet expectation alone exits 1.
    manifest = write_manifest(
        tmp.path(),
        &[line(
            "unexpected",
            &pass,
            "fail",
            json!({"expect_verdict": "pass"}),
        )],
    );
    let run = batch(&manifest, &tmp.path().join("second.jsonl"), &["--quiet"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, "", "--quiet: no progress, no summary");
}

#[test]
fn a_resumed_batch_skips_the_ids_in_out_and_drops_a_torn_last_line() {
    let (tmp, pass) = pytest_project();
    let manifest = write_manifest(
        tmp.path(),
        &[
            line("a", &pass, "fail", json!({})),
            line("b", &pass, "pass", json!({})),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    // "a" is done (a line that a real run would have written is not needed:
    // resume reads only ids); a writer killed mid-line left half of "b".
    std::fs::write(
        &out,
        "{\"schema\":1,\"id\":\"a\",\"exit_code\":0}\n{\"schema\":1,\"id\":\"b\",\"ex",
    )
    .unwrap();
    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let results = results(&out);
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(
        results[0],
        json!({"schema": 1, "id": "a", "exit_code": 0}),
        "a is left as it was, not run"
    );
    assert_eq!(results[1]["id"], "b");
    assert_eq!(results[1]["result"]["verdict"], "pass");
    assert!(run.stderr.contains("skipped"), "{}", run.stderr);

    // Everything done: nothing runs, nothing is written.
    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(self::results(&out).len(), 2);
}

/// Every process whose environment holds `marker`.
fn processes_marked(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            environ
                .windows(marker.len())
                .any(|w| w == marker.as_bytes())
        })
        .collect()
}

/// Waits (bounded) until `ready` holds, or fails the test.
fn wait_until(what: &str, bound: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + bound;
    while !ready() {
        assert!(Instant::now() < deadline, "{what}: not within {bound:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn ctrl_c_ends_every_running_check_and_leaves_out_complete() {
    let (tmp, pass) = pytest_project();
    // A project each: checks of one project wait for each other.
    let hangs = [pytest_project(), pytest_project(), pytest_project()];
    let marker = format!("batch-interrupt-{}", std::process::id());
    // Each hanging suite's processes carry a mark of their own in their
    // environment.
    let hanging = |id: &str, n: usize| {
        let mark = format!("{marker}-{id}");
        line(
            id,
            &hangs[n].1,
            "hang",
            json!({"timeout": "10m", "env": {"TESTGATE_FIXTURE": "hang", "MARK": mark}}),
        )
    };
    let manifest = write_manifest(
        tmp.path(),
        &[
            line("pass", &pass, "pass", json!({})),
            hanging("hang1", 0),
            hanging("hang2", 1),
            hanging("hang3", 2),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_testgate"))
        .arg("batch")
        .arg(&manifest)
        .args(["--jobs", "2", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start testgate batch");
    // Ready: "pass" written, and the first two hanging suites' trees up.
    wait_until(
        "the pass written and two hangs running",
        Duration::from_secs(120),
        || {
            std::fs::read_to_string(&out).is_ok_and(|t| t.lines().count() == 1)
                && !processes_marked(&format!("{marker}-hang1")).is_empty()
                && !processes_marked(&format!("{marker}-hang2")).is_empty()
        },
    );
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: kill on the pid of a child not yet reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let mut status = None;
    wait_until(
        "testgate batch to exit after SIGINT",
        Duration::from_secs(60),
        || {
            status = child.try_wait().expect("wait");
            status.is_some()
        },
    );
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut stderr).unwrap();
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{stderr}");
    wait_until(
        "every marked process to end",
        Duration::from_secs(5),
        || processes_marked(&marker).is_empty(),
    );
    let results = results(&out);
    assert_eq!(results.len(), 1, "only the finished check: {results:?}");
    assert_eq!(results[0]["id"], "pass");
    let interrupted = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("interrupted"))
        .and_then(|rest| rest.split_whitespace().next());
    assert_eq!(interrupted, Some("2"), "{stderr}");
}

#[test]
fn index_runs_only_that_line_and_without_out_prints_to_stdout() {
    let (tmp, pass) = pytest_project();
    // Blank lines are not counted: index 1 is the check with id "second".
    let mut text = String::new();
    for (id, mode) in [("first", "fail"), ("second", "pass"), ("third", "fail")] {
        text.push_str(&format!("{}\n\n", line(id, &pass, mode, json!({}))));
    }
    let manifest = tmp.path().join("manifest.jsonl");
    std::fs::write(&manifest, text).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command.arg("batch").arg(&manifest).args(["--index", "1"]);
    let run = run(command, None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let results: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(results.len(), 1, "{results:?}");
    assert_eq!(results[0]["id"], "second");
    assert_eq!(results[0]["line"], 3);
    assert_eq!(results[0]["result"]["verdict"], "pass");
}

#[test]
fn expected_tests_grade_each_check_inline_or_from_a_file() {
    let (tmp, project) = pytest_project();
    // In fail mode test_adds passes and test_adds_negative fails; -v, so
    // that pytest names the tests that pass.
    let verbose = json!(["python3", "-m", "pytest", "-v", "-p", "no:cacheprovider"]);
    let file = tmp.path().join("negative.json");
    std::fs::write(
        &file,
        r#"{"FAIL_TO_PASS": ["tests/test_calc.py::test_adds_negative"]}"#,
    )
    .unwrap();
    let manifest = write_manifest(
        tmp.path(),
        &[
            line(
                "inline",
                &project,
                "fail",
                json!({"command": verbose, "expect": {"must_pass": ["tests/test_calc.py::test_adds"]}, "expect_verdict": "pass"}),
            ),
            line(
                "file",
                &project,
                "fail",
                json!({"command": verbose, "expect": "negative.json", "expect_verdict": "fail"}),
            ),
            line(
                "strict",
                &project,
                "fail",
                json!({"command": verbose, "expect": {"must_pass": ["tests/test_calc.py::test_adds"]}, "strict": true, "expect_verdict": "fail"}),
            ),
            line(
                "missing-key",
                &project,
                "fail",
                json!({"expect": {"must_pas": ["x"]}}),
            ),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(2), "the misspelt key: {}", run.stderr);
    let results = results(&out);
    for id in ["inline", "file", "strict"] {
        let result = by_id(&results, id);
        assert_eq!(result["as_expected"], true, "{result}");
        assert!(result["result"]["grading"].is_object(), "{result}");
    }
    assert_eq!(
        by_id(&results, "file")["result"]["failing"],
        json!(["tests/test_calc.py::test_adds_negative"])
    );
    let misspelt = by_id(&results, "missing-key");
    assert!(
        misspelt["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("`expect`: unknown key `must_pas`")),
        "{misspelt}"
    );
}

#[test]
fn a_baseline_in_a_line_fails_the_tests_that_broke_since() {
    let (tmp, project) = pytest_project();
    let mut base = Command::new(env!("CARGO_BIN_EXE_testgate"));
    base.args(["check", "--json", "-q", "-C"])
        .arg(&project)
        .args([
            "--",
            "python3",
            "-m",
            "pytest",
            "-v",
            "-p",
            "no:cacheprovider",
        ]);
    let base = run(base, None);
    assert_eq!(base.code, Some(0), "{}", base.stderr);
    std::fs::write(tmp.path().join("base.json"), &base.stdout).unwrap();
    let verbose = json!(["python3", "-m", "pytest", "-v", "-p", "no:cacheprovider"]);
    let manifest = write_manifest(
        tmp.path(),
        &[line(
            "broke",
            &project,
            "fail",
            json!({"command": verbose, "baseline": "base.json"}),
        )],
    );
    let out = tmp.path().join("results.jsonl");
    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let results = results(&out);
    let broke = by_id(&results, "broke");
    assert_eq!(broke["result"]["verdict"], "fail", "{broke}");
    assert!(broke["result"]["grading"].is_object(), "{broke}");
}

#[test]
fn resume_reads_past_a_result_line_of_several_mebibytes_and_retries_error_lines() {
    let (tmp, pass) = pytest_project();
    let manifest = write_manifest(
        tmp.path(),
        &[
            line("long", &pass, "pass", json!({})),
            line("fixed", &pass, "pass", json!({})),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    // Hand-made, as a previous run would have left it: "long" done with a
    // 2 MiB result line (a Go suite of ~9,000 subtests under -v writes
    // such), and "fixed" an error line from when its manifest line had a
    // typo, since corrected.
    let long = json!({
        "schema": 1, "id": "long", "line": 1, "exit_code": 0, "as_expected": null,
        "error": null, "duration_ms": 1000,
        "result": {"verdict": "pass", "tail": "ok\n".repeat(700_000)},
    })
    .to_string();
    assert!(long.len() > 2 << 20, "{}", long.len());
    let error = json!({
        "schema": 1, "id": "fixed", "line": 2, "exit_code": 2, "as_expected": null,
        "error": "manifest line 2: unknown field `retires`", "duration_ms": 0, "result": null,
    })
    .to_string();
    std::fs::write(&out, format!("{long}\n{error}\n")).unwrap();

    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let results = results(&out);
    assert_eq!(results.len(), 3, "only the error line's check ran again");
    assert_eq!(
        results[0].to_string(),
        long,
        "the long line is left as it was"
    );
    assert_eq!(results[1].to_string(), error, "the error line is kept");
    assert_eq!(results[2]["id"], "fixed");
    assert_eq!(results[2]["result"]["verdict"], "pass");
    assert!(run.stderr.contains("skipped"), "{}", run.stderr);

    // Now both are done: nothing runs.
    let run = batch(&manifest, &out, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(self::results(&out).len(), 3);
}

#[test]
fn two_lines_with_one_id_are_refused_before_anything_runs() {
    let (tmp, pass) = pytest_project();
    let out = tmp.path().join("results.jsonl");
    for (lines, wanted) in [
        (
            vec![
                line("a", &pass, "pass", json!({})),
                line("b", &pass, "pass", json!({})),
                line("a", &pass, "fail", json!({})),
            ],
            "lines 1 and 3 have the same id a",
        ),
        // A line without an id is its line number; `"id": 1` is the same.
        (
            vec![
                json!({"workspace": pass, "command": ["true"]}),
                json!({"id": 1, "workspace": pass, "command": ["true"]}),
            ],
            "lines 1 and 2 have the same id 1",
        ),
    ] {
        let manifest = write_manifest(tmp.path(), &lines);
        let run = batch(&manifest, &out, &[]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(run.stderr.contains(wanted), "{}", run.stderr);
        assert_eq!(run.stderr.trim_end().lines().count(), 1, "{}", run.stderr);
        let written = std::fs::read_to_string(&out).unwrap_or_default();
        assert_eq!(written, "", "nothing ran");
    }
}

/// `--out` in a check's workspace (or a `writable` path of one) is refused
/// before anything runs, in one line: that check's tests could append a
/// result of their own for any id (issue 35). The file is not even made.
#[test]
fn an_out_where_a_checks_tests_could_write_is_refused() {
    let (tmp, project) = pytest_project();
    let shared = tmp.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    for (extra, out, place) in [
        (json!({}), project.join("results.jsonl"), "the workspace"),
        (
            json!({"writable": [shared]}),
            shared.join("results.jsonl"),
            "the writable path",
        ),
        (
            json!({"env": {"CARGO_TARGET_DIR": shared}}),
            shared.join("results.jsonl"),
            "the build output (CARGO_TARGET_DIR)",
        ),
    ] {
        let manifest = write_manifest(
            tmp.path(),
            &[
                line("ok", &tmp.path().join("elsewhere"), "pass", json!({})),
                line("exposed", &project, "pass", extra),
            ],
        );
        let run = batch(&manifest, &out, &["--quiet"]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        let stderr = run.stderr.trim_end();
        assert!(
            stderr.starts_with("testgate: refusing --out ")
                && stderr.contains(&format!("it lies in {place} "))
                && stderr.contains("of manifest line 2"),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!out.exists(), "--out was made");
    }
}

/// A result line batch did not write is an error, never a verdict (issue
/// 35): a check's suite (here on the host, `sandbox: none`, the one way a
/// suite can reach an `--out` outside every workspace) appends a PASS line
/// for the failing check before it. By "the last line of an id wins" the
/// failing check read as PASS and a resume ran nothing; now the batch ends
/// in error (exit 2), this run's lines are cut off, and a resume runs the
/// failing check again, which fails again.
#[test]
fn a_result_line_another_writer_appends_is_no_verdict_and_no_resume_skips_for_it() {
    let (tmp, failing) = pytest_project();
    let (_t2, forger) = pytest_project();
    let out = tmp.path().join("results.jsonl");
    let forged = json!({
        "schema": 1, "id": "broken", "line": 1, "exit_code": 0, "as_expected": true,
        "error": null, "duration_ms": 1,
        "result": {"verdict": "pass", "reason": "forged", "failing": []}
    });
    let append = format!("printf '%s\\n' '{forged}' >> '{}'", out.display());
    let manifest = write_manifest(
        tmp.path(),
        &[
            line(
                "broken",
                &failing,
                "fail",
                json!({"expect_verdict": "pass"}),
            ),
            json!({
                "id": "forger", "workspace": forger, "sandbox": "none",
                "command": ["sh", "-c", append],
            }),
        ],
    );
    let run = batch(&manifest, &out, &["--quiet"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--out was written by something other than this batch"),
        "{}",
        run.stderr
    );
    // Nothing of this run is left to read as a verdict.
    let left = results(&out);
    assert!(
        left.iter().all(|r| r["id"] != "broken"),
        "a result for the failing check survived: {left:?}"
    );
    // The resume runs the failing check again (no forged line to skip it
    // for): it fails, as it did.
    let manifest = write_manifest(
        tmp.path(),
        &[line(
            "broken",
            &failing,
            "fail",
            json!({"expect_verdict": "pass"}),
        )],
    );
    let run = batch(&manifest, &out, &["--quiet"]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let results = results(&out);
    assert_eq!(by_id(&results, "broken")["result"]["verdict"], "fail");
    assert_eq!(results.len(), 1, "{results:?}");
}

/// How many attempts the zombie tests make.
const ATTEMPTS: u32 = 1000;

/// Runs `batch MANIFEST --out OUT --quiet` bounded by ten minutes (a
/// thousand sandboxed attempts on a loaded machine), returning its code.
fn batch_bounded(manifest: &Path, out: &Path) -> (Option<i32>, String) {
    use wait_timeout::ChildExt;
    let mut child = Command::new(env!("CARGO_BIN_EXE_testgate"))
        .arg("batch")
        .arg(manifest)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start testgate batch");
    let status = match child.wait_timeout(Duration::from_secs(600)).expect("wait") {
        Some(status) => status,
        None => {
            child.kill().expect("kill");
            child.wait().expect("reap");
            panic!("testgate batch ran for over 600 s");
        }
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
    }
    (status.code(), stderr)
}

/// Every process a check starts is reaped when it ends (issue 35: each
/// attempt left a zombie `bwrap`, the sandbox's init, until batch exited):
/// after 1,000 attempts of `true` under `sandbox`, the next check (on the
/// host, a child of batch itself) counts batch's zombie children from
/// /proc and writes the count where the test reads it.
fn no_zombie_after_a_thousand_attempts(sandbox: &str) {
    let (tmp, project) = pytest_project();
    let counter = tmp.path().join("counter");
    std::fs::create_dir_all(&counter).unwrap();
    let count = "n=0; for s in /proc/[0-9]*/stat; do \
                 set -- $(sed 's/.*) //' \"$s\" 2>/dev/null); \
                 [ \"$1\" = Z ] && [ \"$2\" = \"$PPID\" ] && n=$((n+1)); done; \
                 echo $n > zombies";
    let manifest = write_manifest(
        tmp.path(),
        &[
            json!({"id": "attempts", "workspace": project, "command": ["true"],
                   "stress": ATTEMPTS, "sandbox": sandbox}),
            json!({"id": "count", "workspace": counter, "sandbox": "none", "keep_changes": true,
                   "command": ["sh", "-c", count]}),
        ],
    );
    let out = tmp.path().join("results.jsonl");
    let (code, stderr) = batch_bounded(&manifest, &out);
    let results = results(&out);
    let attempts = &by_id(&results, "attempts")["result"];
    assert_eq!(
        attempts["attempts"].as_array().map(Vec::len),
        Some(ATTEMPTS as usize),
        "{stderr} {code:?}"
    );
    let zombies = std::fs::read_to_string(counter.join("zombies")).expect("the count");
    assert_eq!(zombies.trim(), "0", "zombie children of batch");
}

#[test]
fn batch_leaves_no_zombie_after_a_thousand_attempts_under_bubblewrap() {
    no_zombie_after_a_thousand_attempts("bwrap");
}

#[test]
fn batch_leaves_no_zombie_after_a_thousand_attempts_under_landlock() {
    no_zombie_after_a_thousand_attempts("landlock");
}

#[test]
fn shard_runs_the_lines_whose_index_modulo_n_is_i_minus_1_and_resumes() {
    let (tmp, pass) = pytest_project();
    // Blank lines are not counted, as by --index: indexes 0..4 are a..d.
    let mut text = String::new();
    for id in ["a", "b", "c", "d"] {
        text.push_str(&format!("{}\n\n", line(id, &pass, "pass", json!({}))));
    }
    let manifest = tmp.path().join("manifest.jsonl");
    std::fs::write(&manifest, text).unwrap();
    let out = tmp.path().join("out.jsonl");
    let ids = |out: &Path| -> Vec<String> {
        results(out)
            .iter()
            .map(|r| r["id"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let run = batch(&manifest, &out, &["--shard", "2/2", "--quiet"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut got = ids(&out);
    got.sort();
    assert_eq!(got, ["b", "d"]);
    // Resumed: the shard's checks already in --out are skipped.
    let run = batch(&manifest, &out, &["--shard", "2/2", "--quiet"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(ids(&out).len(), 2);
    let run = batch(&manifest, &out, &["--shard", "1/2", "--quiet"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut got = ids(&out);
    got.sort();
    assert_eq!(got, ["a", "b", "c", "d"]);
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    let (tmp, pass) = pytest_project();
    let manifest = write_manifest(tmp.path(), &[line("a", &pass, "pass", json!({}))]);
    let out = tmp.path().join("out.jsonl");
    for args in [
        &["--shard", "0/2"][..],
        &["--shard", "3/2"],
        &["--shard", "1"],
        &["--shard", "1/0"],
        &["--shard", "1/2", "--index", "0"],
    ] {
        let run = batch(&manifest, &out, args);
        assert_eq!(run.code, Some(2), "{args:?}: {run:#?}");
    }
    assert!(!out.exists() || results(&out).is_empty());
}
