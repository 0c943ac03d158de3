//! The exit status never depends on who reads the output: `check … | true`,
//! `| head -0` and `| head -3` under `pipefail` exit with the verdict's
//! status, as `verify` does; only `parse` takes a reader that stopped
//! early for success (issue 40, "The exit status lies when stdout closes").

use std::path::Path;
use std::process::Command;

use crate::check::pytest_project;
use crate::{Run, run};

/// `bash -o pipefail -c 'testgate ARGS | READER'`: the pipeline's status
/// is testgate's whenever testgate's is not 0, as a gate's user runs it.
fn piped(args: &[&str], reader: &str) -> Run {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(format!("set -o pipefail; \"$@\" | {reader}"))
        .arg("bash")
        .arg(env!("CARGO_BIN_EXE_testgate"))
        .args(args);
    run(command, None)
}

/// `check -C dir ARGS -- python3 -m pytest -q` with the fixture in `mode`.
fn check_args<'a>(dir: &'a Path, mode: &'a str, extra: &[&'a str]) -> Vec<String> {
    let mut args: Vec<String> = vec![
        "check".into(),
        "-C".into(),
        dir.display().to_string(),
        "--env".into(),
        format!("TESTGATE_FIXTURE={mode}"),
        "-k".into(),
        "1".into(),
        "--quiet".into(),
    ];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    args.extend(
        [
            "--",
            "python3",
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
        ]
        .map(str::to_owned),
    );
    args
}

fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

#[test]
fn a_fail_piped_into_a_reader_that_closes_at_once_exits_1() {
    let (_tmp, dir) = pytest_project();
    let args = check_args(&dir, "fail", &[]);
    for reader in ["true", "head -0", "head -1", "head -3"] {
        let out = piped(&strs(&args), reader);
        assert_eq!(out.code, Some(1), "`check … | {reader}`: {out:#?}");
    }
    let json = check_args(&dir, "fail", &["--json"]);
    let out = piped(&strs(&json), "true");
    assert_eq!(out.code, Some(1), "`check --json … | true`: {out:#?}");
}

#[test]
fn a_closed_reader_is_said_on_stderr_and_a_pass_stays_0() {
    let (_tmp, dir) = pytest_project();
    let out = piped(&strs(&check_args(&dir, "fail", &[])), "true");
    assert!(
        out.stderr
            .contains("could not write the verdict to standard output"),
        "the lost text is said: {}",
        out.stderr
    );
    let out = piped(&strs(&check_args(&dir, "pass", &[])), "true");
    assert_eq!(out.code, Some(0), "{out:#?}");
}

#[test]
fn an_inconclusive_check_piped_into_true_exits_125() {
    let out = piped(
        &["check", "-q", "--", "testgate-no-such-program"],
        "head -0",
    );
    assert_eq!(out.code, Some(125), "{out:#?}");
}

#[test]
fn parse_alone_may_take_a_reader_that_stopped_for_success() {
    let (_tmp, dir) = pytest_project();
    let log = dir.join("many.log");
    // A log long enough that `head -1` closes the pipe while parse writes.
    let mut text = String::new();
    for n in 0..20_000 {
        text.push_str(&format!("FAILED tests/test_x.py::test_{n} - assert 0\n"));
    }
    std::fs::write(&log, text).expect("write the log");
    let log = log.display().to_string();
    let out = piped(&["parse", &log], "head -1");
    assert_eq!(out.code, Some(0), "{out:#?}");
}

#[test]
fn verify_that_fails_piped_into_true_exits_1() {
    let (tmp, dir) = pytest_project();
    let record = tmp.path().join("record.json");
    let record = record.display().to_string();
    let made = crate::testgate(
        &strs(&check_args(&dir, "pass", &["--record", &record])),
        None,
    );
    assert_eq!(made.code, Some(0), "{made:#?}");
    // An unsigned record verified with a key is no proof: exit 1.
    let key = tmp.path().join("key.pub");
    std::fs::write(&key, "00".repeat(32)).expect("write a key");
    let key = key.display().to_string();
    let alone = crate::testgate(&["verify", "--key", &key, &record], None);
    assert_eq!(alone.code, Some(1), "{alone:#?}");
    for reader in ["true", "head -0"] {
        let out = piped(&["verify", "--key", &key, &record], reader);
        assert_eq!(out.code, Some(1), "`verify … | {reader}`: {out:#?}");
    }
}
