//! `--sandbox auto` (the default) on a machine where bubblewrap cannot
//! start: testgate started under `tests/containers/without-namespaces`, a
//! seccomp filter refusing namespaces as a container runtime's default
//! profile does. `auto` then picks Landlock, says so, and the verdicts are
//! the right ones; `--sandbox bwrap` is refused; with Landlock gone too,
//! every check is refused naming both.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::check::pytest_project;
use crate::{Run, run};

/// The wrapper that takes namespaces away.
fn without_namespaces() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/containers/without-namespaces")
}

/// `testgate check --json -C dir ARGS -- python3 -m pytest -q` with the
/// fixture in `mode`, under the wrapper (its own `wrapper_args` first).
fn check_without_namespaces(dir: &Path, wrapper_args: &[&str], mode: &str, args: &[&str]) -> Run {
    let mut command = Command::new(without_namespaces());
    command
        .args(wrapper_args)
        .arg(env!("CARGO_BIN_EXE_testgate"))
        .args(["check", "--json", "-C"])
        .arg(dir)
        .arg("--env")
        .arg(format!("TESTGATE_FIXTURE={mode}"))
        .args(args)
        .args([
            "--",
            "python3",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
        ]);
    run(command, None)
}

fn document(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:#?}"))
}

#[test]
fn auto_picks_landlock_where_bubblewrap_cannot_start_and_says_why() {
    let (_tmp, dir) = pytest_project();
    let out = check_without_namespaces(&dir, &[], "fail", &[]);
    assert_eq!(out.code, Some(1), "{out:#?}");
    let json = document(&out);
    assert_eq!(json["verdict"], "fail", "{out:#?}");
    assert_eq!(json["failing"][0], "tests/test_calc.py::test_adds_negative");
    assert_eq!(json["sandbox"]["kind"], "landlock", "{out:#?}");
    let why = json["sandbox"]["why"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("bubblewrap cannot start here (bwrap: ") && why.contains("Landlock (ABI"),
        "{why}"
    );
    assert!(
        out.stderr
            .contains("testgate: sandbox: landlock (bubblewrap cannot start here"),
        "said on stderr: {out:#?}"
    );

    let out = check_without_namespaces(&dir, &[], "pass", &["-q"]);
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(document(&out)["sandbox"]["kind"], "landlock");
}

#[test]
fn an_explicit_bwrap_is_refused_where_it_cannot_start() {
    let (_tmp, dir) = pytest_project();
    let out = check_without_namespaces(&dir, &[], "pass", &["-q", "--sandbox", "bwrap"]);
    assert_eq!(out.code, Some(125), "{out:#?}");
    let json = document(&out);
    assert_eq!(json["cause"], "sandbox_refused", "{out:#?}");
    assert_eq!(json["sandbox"]["kind"], "bwrap");
    assert!(json["sandbox"]["why"].is_null());
}

#[test]
fn without_bubblewrap_and_landlock_every_check_is_refused_naming_both() {
    let (_tmp, dir) = pytest_project();
    let out = check_without_namespaces(&dir, &["--no-landlock"], "pass", &["-q"]);
    assert_eq!(out.code, Some(125), "{out:#?}");
    let json = document(&out);
    assert_eq!(json["cause"], "sandbox_refused", "{out:#?}");
    assert_eq!(json["sandbox"]["kind"], "auto");
    let reason = json["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("bubblewrap cannot") && reason.contains("Landlock cannot"),
        "{reason}"
    );
    // Never the host: the fixture's tests did not run.
    assert!(json["attempts"][0]["exit_code"].is_null(), "{out:#?}");
}

#[test]
fn auto_picks_bubblewrap_where_it_starts() {
    let (_tmp, dir) = pytest_project();
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command
        .args(["check", "--json", "-q", "-C"])
        .arg(&dir)
        .args([
            "--",
            "python3",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
        ]);
    let out = run(command, None);
    assert_eq!(out.code, Some(0), "{out:#?}");
    let json = document(&out);
    assert_eq!(json["sandbox"]["kind"], "bwrap", "{out:#?}");
    assert_eq!(json["sandbox"]["why"], "bubblewrap starts here");
}

#[test]
fn landlock_chosen_explicitly_gives_the_right_verdicts() {
    let (_tmp, dir) = pytest_project();
    for (mode, code, verdict) in [("pass", 0, "pass"), ("fail", 1, "fail")] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
        command
            .args(["check", "--json", "-q", "--sandbox", "landlock", "-C"])
            .arg(&dir)
            .arg("--env")
            .arg(format!("TESTGATE_FIXTURE={mode}"))
            .args([
                "--",
                "python3",
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
            ]);
        let out = run(command, None);
        assert_eq!(out.code, Some(code), "{out:#?}");
        let json = document(&out);
        assert_eq!(json["verdict"], verdict);
        assert_eq!(json["sandbox"]["kind"], "landlock");
    }
}

/// Where no network namespace can be made, Landlock and the filter refuse
/// every TCP connect: a suite that talks to servers it starts itself
/// failed test after test with `connect EACCES` and then hung to the
/// timeout (an express suite: ~1,040 failures, then 10 minutes:
/// `timed_out`). The flood of refusals now ends the attempt at once:
/// Inconclusive `environment`, the reason leading with `--allow-network`,
/// never a timeout nor a Fail of the code; with `--allow-network` the same
/// suite passes. The honest pytest suite under the same wrapper (above) is
/// unaffected.
fn refused_loopback_is_the_environment(project: &str, command: &[&str]) {
    let (_tmp, dir) = crate::check::fresh_copy(project, "loopback");
    let check = |extra: &[&str]| {
        let mut wrapped = Command::new(without_namespaces());
        wrapped
            .arg(env!("CARGO_BIN_EXE_testgate"))
            .args(["check", "--json", "-C"])
            .arg(&dir)
            .args(extra)
            .arg("--")
            .args(command);
        run(wrapped, None)
    };
    // A limit the harness's own bound outlasts: the binary of two rounds
    // ago ran the node suite to it (`timed_out`).
    let out = check(&["--timeout", "120"]);
    let json = document(&out);
    assert_eq!(json["verdict"], "inconclusive", "{out:#?}");
    assert_eq!(json["cause"], "environment", "{out:#?}");
    assert_eq!(json["sandbox"]["kind"], "landlock", "{out:#?}");
    assert_eq!(json["failing"], serde_json::json!([]), "{out:#?}");
    let reason = json["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("pass --allow-network")
            && reason.contains("connections to servers it starts itself were refused"),
        "{reason}"
    );
    assert_eq!(
        json["attempts"][0]["outcome"], "sandbox_refused",
        "{out:#?}"
    );

    let out = check(&["--allow-network"]);
    assert_eq!(document(&out)["verdict"], "pass", "{out:#?}");
}

/// node's test runner against `http` servers of its own: each test waits
/// for an answer, so a refused suite never exits by itself.
#[test]
fn a_node_suite_refused_its_own_loopback_is_the_environment_at_once_without_namespaces() {
    refused_loopback_is_the_environment(
        "tests/projects/sandbox/loopback-node",
        &["node", "--test"],
    );
}

/// pytest `-q` (failures printed only at the end) with an `http.server`
/// fixture and `urllib` requests.
#[test]
fn a_pytest_server_suite_refused_its_own_loopback_is_the_environment_without_namespaces() {
    refused_loopback_is_the_environment(
        "tests/projects/sandbox/loopback-pytest",
        &["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
    );
}
