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

/// `testgate check --json -C dir EXTRA -- COMMAND` under the wrapper.
fn check_wrapped(dir: &Path, extra: &[&str], command: &[&str]) -> Run {
    let mut wrapped = Command::new(without_namespaces());
    wrapped
        .arg(env!("CARGO_BIN_EXE_testgate"))
        .args(["check", "--json", "-C"])
        .arg(dir)
        .args(extra)
        .arg("--")
        .args(command);
    run(wrapped, None)
}

const PYTEST_Q: [&str; 6] = ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider"];

/// Where no network namespace can be made, Landlock refuses every TCP
/// connect of the command itself: a suite that talks to servers it starts
/// itself failed test after test with `connect EACCES` and then hung to
/// the timeout (an express suite: ~1,040 failures, then 10 minutes:
/// `timed_out`; last round, Inconclusive at once). Now the loopback is
/// supervised (docs/sandbox.md, "A supervised loopback"): a connect to a
/// port the run listens on itself is made by testgate, and the suite
/// passes as under bubblewrap. Both fail on the previous code
/// (`sandbox_refused`, then `environment`).
fn own_loopback_passes(project: &str, command: &[&str]) {
    let (_tmp, dir) = crate::check::fresh_copy(project, "loopback");
    // A limit the harness's own bound outlasts: the binary of two rounds
    // ago ran the node suite to it (`timed_out`).
    let out = check_wrapped(&dir, &["--timeout", "120"], command);
    let json = document(&out);
    assert_eq!(json["verdict"], "pass", "{out:#?}");
    assert_eq!(json["sandbox"]["kind"], "landlock", "{out:#?}");
}

/// node's test runner against `http` servers of its own: each test waits
/// for an answer, so a refused suite never exits by itself.
#[test]
fn a_node_suite_reaches_its_own_loopback_without_namespaces() {
    own_loopback_passes("tests/projects/sandbox/loopback-node", &["node", "--test"]);
}

/// pytest `-q` with an `http.server` fixture and `urllib` requests.
#[test]
fn a_pytest_server_suite_reaches_its_own_loopback_without_namespaces() {
    own_loopback_passes("tests/projects/sandbox/loopback-pytest", &PYTEST_Q);
}

/// A server on the loopback the suite did not start (the host's, which
/// answers HTTP): refused, and the refusals the supervisor counted (the
/// kernel's evidence, not the output: pytest `-q` prints its failures only
/// at the end) end the attempt at the third: Inconclusive `environment`
/// within seconds, the reason leading with `--allow-network`, never a
/// timeout nor a Fail of the code; the host's server heard nothing. With
/// `--allow-network` the same suite reaches it and passes.
#[test]
fn a_suite_refused_a_server_it_did_not_start_is_the_environment_without_namespaces() {
    let (_tmp, dir) =
        crate::check::fresh_copy("tests/projects/sandbox/loopback-pytest", "loopback");
    let host = std::net::TcpListener::bind("127.0.0.1:0").expect("a host server");
    let url = format!(
        "SERVER_URL=http://127.0.0.1:{}/",
        host.local_addr().expect("addr").port()
    );
    let heard = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let counter = std::sync::Arc::clone(&heard);
    std::thread::spawn(move || {
        for stream in host.incoming().flatten() {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let mut stream = stream;
            let mut request = [0u8; 4096];
            let _ = std::io::Read::read(&mut stream, &mut request);
            let _ = std::io::Write::write_all(
                &mut stream,
                b"HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            );
        }
    });
    let out = check_wrapped(&dir, &["--timeout", "120", "--env", &url], &PYTEST_Q);
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
    assert_eq!(heard.load(std::sync::atomic::Ordering::SeqCst), 0);

    let out = check_wrapped(&dir, &["--allow-network", "--env", &url], &PYTEST_Q);
    assert_eq!(document(&out)["verdict"], "pass", "{out:#?}");
}
