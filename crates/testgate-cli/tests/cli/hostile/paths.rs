//! Paths: what testgate itself writes or reads on the host after an attempt
//! (`--restore`, `--record`, `batch --out`, the configuration `--rerun
//! failed` reads), in a tree the suite could change, goes through one door
//! that follows no link the suite planted, never blocks and reads with a
//! cap; and the project is never the host's root or a home (issue 24).

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use super::harness::Attack;
use crate::run;

/// What the project's own `tests/victim` holds; `--restore` puts it back.
const RECORDED: &str = "the project's own file\n";

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The attempt replaces `tests/` by a link to a host folder; `--restore`
/// then puts `tests/victim` back. It must remove the link and make the
/// folder again, never write `victim` through the link (the old
/// `create_dir_all` + `fs::write` replaced the host's file as root).
#[test]
fn a_restore_through_a_planted_folder_link_writes_nothing_outside() {
    let attack = Attack::new("planted-links")
        .script_arg("restore")
        .arg("--restore");
    fs::create_dir(attack.project().join("tests")).expect("mkdir tests");
    fs::write(attack.project().join("tests/victim"), RECORDED).expect("write");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome.reason().contains("Restored"),
        "{}",
        outcome.reason()
    );
    let tests = attack.project().join("tests");
    assert!(
        fs::symlink_metadata(&tests).expect("tests").is_dir(),
        "the link became a folder again"
    );
    assert_eq!(
        fs::read_to_string(tests.join("victim")).expect("read"),
        RECORDED
    );
    assert_eq!(names_in(attack.outside()), ["victim"]);
    attack.assert_contained(&outcome);
}

/// The suite plants `verdict.json -> OUTSIDE/victim`; `check --record
/// verdict.json` (the README's example, run in the project) must replace
/// the link by the record, leaving the host file as it was.
#[test]
fn a_record_through_a_planted_link_replaces_the_link_not_its_target() {
    let attack = Attack::new("planted-links").script_arg("record");
    let record = attack.project().join("verdict.json");
    let attack = attack.arg("--record").arg(&record);
    let outcome = attack.run();
    // A link leading out of the project is itself a change to the tree.
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome
            .reason()
            .contains("verdict.json (added, a link out of the project)"),
        "{}",
        outcome.reason()
    );
    let meta = fs::symlink_metadata(&record).expect("the record");
    assert!(meta.is_file(), "a regular file, not the link: {meta:?}");
    let text = fs::read_to_string(&record).expect("read the record");
    let document: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        document["record"]["verdict"], "inconclusive",
        "{document:#}"
    );
    attack.assert_contained(&outcome);
}

/// `batch --out results.jsonl` with the results inside the checked
/// project, whose suite would replace the file by a link to a host path
/// that does not exist yet (`/etc/cron.d/x`, say). Such an `--out` is now
/// refused before anything runs (issue 35: the suite could write results
/// of its own), so the suite never runs; and a results file that is a link
/// wherever it lies (here one outside every workspace, planted by hand) is
/// refused in one line, neither creating the host file nor appending to it.
#[test]
fn a_resumed_batch_refuses_a_results_file_the_suite_made_a_link() {
    let attack = Attack::new("planted-links");
    let project = attack.project();
    let line = json!({
        "id": "planted",
        "workspace": project,
        "command": ["sh", "run.sh", attack.marker(), attack.outside(), "batch"],
        // Left in place for the resumed batch to meet: by default the
        // tree is put back and the link is gone.
        "keep_changes": true,
    });
    let manifest_dir = tempfile::tempdir().expect("tempdir");
    let manifest_path = manifest_dir.path().join("manifest.jsonl");
    fs::write(&manifest_path, format!("{line}\n")).expect("manifest");
    let batch = |out: &std::path::Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
        command
            .arg("batch")
            .arg(&manifest_path)
            .arg("--out")
            .arg(out)
            .arg("--quiet");
        run(command, None)
    };
    let inside = project.join("results.jsonl");
    let first = batch(&inside);
    assert_eq!(first.code, Some(2), "{first:#?}");
    assert!(
        first.stderr.starts_with("testgate: refusing --out ") && first.stderr.lines().count() == 1,
        "{}",
        first.stderr
    );
    assert!(fs::symlink_metadata(&inside).is_err(), "the suite ran");
    // The link the suite would have made, made beside the manifest.
    let out = manifest_dir.path().join("results.jsonl");
    let host_file = attack.outside().join(format!("{}-cron", attack.marker()));
    std::os::unix::fs::symlink(&host_file, &out).expect("plant the link");
    let resumed = batch(&out);
    assert_eq!(resumed.code, Some(2), "{resumed:#?}");
    assert_eq!(resumed.stderr.lines().count(), 1, "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .ends_with("results.jsonl is a symbolic link, not a regular file\n"),
        "{}",
        resumed.stderr
    );
    assert!(
        fs::symlink_metadata(&out)
            .expect("out")
            .file_type()
            .is_symlink()
    );
    assert_eq!(names_in(attack.outside()), ["victim"]);
    attack.assert_no_survivors();
    attack.assert_host_unchanged();
}

/// A failing pytest suite leaves a FIFO with no writer, or a link to
/// /dev/zero, as `setup.cfg`, which testgate reads to target the retry of
/// `--rerun failed`. testgate must end (the harness's liveness bound) with
/// bounded memory: the retry runs the full suite and says why (the old
/// blocking, unbounded read hung for good on the FIFO and grew past 1 GiB
/// on /dev/zero).
#[test]
fn a_pytest_configuration_made_a_fifo_or_dev_zero_neither_hangs_nor_floods() {
    for (mode, kind) in [("fifo", "a FIFO"), ("zero", "a symbolic link")] {
        let attack = Attack::new("pytest-config")
            .runner_command(&["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg("--env")
            .arg(format!("HOSTILE_CONFIG={mode}"))
            .arg("-k")
            .arg("1")
            .arg("--rerun")
            .arg("failed")
            .arg("--timeout")
            .arg("60s");
        let outcome = attack.run();
        // Each attempt plants it and each is put back (removed by its
        // link, never opened) before the retry's command is built: no read
        // of such a file ever happens. The retry's own capped, non-blocking
        // read of one is proved by the unit test
        // `rerun::tests::an_odd_pytest_configuration_is_a_reason_not_a_hang`;
        // here testgate ends (the harness's bound) in bounded memory (its
        // RSS limit) whatever the file is ({kind}), and the failure the
        // attempts agree on stands.
        outcome.assert_verdict("fail", None, 1);
        assert!(
            outcome
                .reason()
                .contains("setup.cfg (added, runs later on the host)"),
            "{mode} ({kind}): {}",
            outcome.reason()
        );
        let attempts = outcome.doc()["attempts"].as_array().expect("attempts");
        assert_eq!(attempts.len(), 2, "{:#}", outcome.doc());
        assert!(fs::symlink_metadata(attack.project().join("setup.cfg")).is_err());
        attack.assert_contained(&outcome);
    }
}

/// `-C /`, `-C $HOME` (and a folder holding a home), and a batch
/// manifest's `"workspace": "/"`, are refused in one line before anything
/// runs: the project is writable to the tests, and testgate restores and
/// records in it as root.
#[test]
fn the_root_a_home_or_a_folder_holding_one_is_never_the_project() {
    let base = tempfile::Builder::new()
        .prefix("hostile-homes-")
        .tempdir()
        .expect("tempdir");
    let home = base.path().join("user");
    fs::create_dir(&home).expect("mkdir home");
    for (dir, why) in [
        (Path::new("/"), "it is the root directory".to_owned()),
        (home.as_path(), "it is the home directory ".to_owned()),
        (base.path(), "it holds the home directory ".to_owned()),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
        command
            .arg("check")
            .arg("-q")
            .arg("-C")
            .arg(dir)
            .args(["--timeout", "5s", "--", "true"])
            .env("HOME", &home);
        let out = run(command, None);
        assert_eq!(out.code, Some(2), "{}: {out:#?}", dir.display());
        assert_eq!(out.stdout, "");
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(
            out.stderr.starts_with(&format!(
                "testgate: refusing {} as the project directory: {why}",
                dir.display()
            )),
            "{}",
            out.stderr
        );
    }
    let manifest = base.path().join("manifest.jsonl");
    fs::write(
        &manifest,
        format!(
            "{}\n",
            json!({"id": "root", "workspace": "/", "command": ["true"]})
        ),
    )
    .expect("manifest");
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command.arg("batch").arg(&manifest).arg("--quiet");
    let out = run(command, None);
    let result: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON line");
    assert_eq!(result["id"], "root", "{result:#}");
    let error = result["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("refusing / as the project directory: it is the root directory"),
        "{result:#}"
    );
    assert_ne!(out.code, Some(0), "{out:#?}");
}

/// `testgate check` with no command, on a project that plants its own
/// `.venv/bin/python` (a script attacking the host) and `go.mod` and
/// `package.json` as links out (tests/hostile/detect-venv). Detection runs
/// nothing on the host and follows no link: pytest through the project's
/// python is the one runner found, and that python runs only inside the
/// sandbox, where the host is out of its reach.
#[test]
fn a_detected_venv_python_runs_only_inside_the_sandbox() {
    let attack = Attack::new("detect-venv").runner_command(&[]);
    let project = attack.project();
    let bin = project.join(".venv/bin");
    fs::create_dir_all(&bin).expect("mkdir");
    let python = bin.join("python");
    let marker = attack.marker();
    let victim = attack.outside().join("victim");
    fs::write(
        &python,
        format!(
            "#!/bin/sh\n\
             export HOSTILE_MARKER={marker}\n\
             echo owned > {victim} 2>/dev/null\n\
             touch /tmp/{marker}-venv 2>/dev/null\n\
             echo 'FAILED tests/test_venv.py::test_ran_in_the_sandbox - assert False'\n\
             echo '=========================== 1 failed in 0.01s ==========================='\n\
             exit 1\n",
            victim = victim.display()
        ),
    )
    .expect("write the venv's python");
    fs::set_permissions(&python, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    std::os::unix::fs::symlink(&victim, project.join("go.mod")).expect("symlink");
    std::os::unix::fs::symlink("/dev/zero", project.join("package.json")).expect("symlink");
    let outcome = attack.run();
    let document = outcome.doc();
    assert_eq!(
        document["detected"],
        json!({
            "command": [python.to_str().expect("UTF-8 path"), "-m", "pytest"],
            "runner": "pytest",
            "why": "found conftest.py, .venv/bin/python",
        }),
        "{document:#}"
    );
    assert_eq!(
        document["attempts"][0]["exit_code"],
        Value::from(1),
        "the venv's python ran, in the sandbox: {document:#}"
    );
    attack.assert_contained(&outcome);
}
