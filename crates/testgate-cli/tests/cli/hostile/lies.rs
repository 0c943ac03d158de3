//! Suites that lie: output and exit status that say different things, exit
//! codes that look like testgate's own, a planted `bwrap`.

use std::path::Path;

use super::harness::Attack;

#[test]
fn another_runners_failure_lines_are_ignored_when_the_format_is_named() {
    let attack = Attack::new("other-runner-failures")
        .arg("--format")
        .arg("cargo");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    attack.assert_contained(&outcome);
}

#[test]
fn another_runners_failure_lines_make_an_exit_zero_inconclusive_under_auto() {
    // `auto` reads every runner: a pass that prints failure lines, in any
    // runner's words, is not taken as a pass.
    let attack = Attack::new("other-runner-failures");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    attack.assert_contained(&outcome);
}

#[test]
fn a_failing_suite_claiming_success_fails() {
    let attack = Attack::new("lying-summary");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(outcome.attempt()["exit_code"], 1);
    attack.assert_contained(&outcome);
}

#[test]
fn exit_zero_with_failed_lines_is_a_contradiction() {
    let attack = Attack::new("exit0-failed");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    assert_eq!(outcome.attempt()["failing"], serde_json::json!(["bad"]));
    attack.assert_contained(&outcome);
}

/// A failing test, then a test that ends the runner with status 0 before
/// the failure is reported (issue 10, item 7): real pytest (`os._exit(0)`)
/// and real cargo test (`std::process::exit(0)`, a passing integration test
/// after it). The runner's output never closes its scope, so the exit
/// status proves nothing: Inconclusive `truncated`. Both were PASS before.
#[test]
fn a_test_that_exits_the_runner_early_is_truncated_not_pass() {
    for suite in ["exits-early-pytest", "exits-early-cargo"] {
        let attack = Attack::new(suite);
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("truncated"), 125);
        let attempt = outcome.attempt();
        assert_eq!(
            (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
            (Some("exited"), Some(0)),
            "{suite}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}

/// The same by go (issue 28): TestA fails, then TestZ prints `PASS` and
/// `ok` and calls `syscall.Exit(0)`, which go's os.Exit hook does not see;
/// go judges the package by the exit status and prints `ok`. Plain `go
/// test ./...` was PASS. testgate adds `-json`: the events keep TestA's
/// `fail` under the package's `pass` and TestZ's `run` without a result,
/// so the exit status contradicts the report. Behind `sh run.sh` no `go
/// test` argv is recognised: nothing is added, and the console alone
/// judges, as docs/formats.md says.
#[test]
fn a_go_test_that_exits_zero_after_a_failure_is_not_pass() {
    let attack = Attack::new("exits-early-go").runner_command(&["go", "test", "./..."]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
        (Some("exited"), Some(0)),
        "{attempt:#}"
    );
    assert_eq!(
        attempt["failing"],
        serde_json::json!(["TestA"]),
        "{attempt:#}"
    );
    assert_eq!(
        attempt["command"],
        serde_json::json!(["go", "test", "-json", "./..."]),
        "{attempt:#}"
    );
    // The tail is go's text rendered back from the events.
    assert!(
        outcome.reason().contains("--- FAIL: TestA"),
        "{}",
        outcome.reason()
    );
    assert!(
        !outcome.reason().contains("\"Action\""),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn exit_codes_that_look_like_something_else_are_exits_or_a_runner_that_never_started() {
    for code in [124, 125, 126, 127, 137] {
        let attack = Attack::new("exit-code").script_arg(code.to_string());
        let outcome = attack.run();
        // A shell's "cannot execute" and "not found" with no test named say
        // that the runner never started: never a Fail, never a Pass.
        if code == 126 || code == 127 {
            outcome.assert_verdict("inconclusive", Some("would_not_start"), 125);
        } else {
            outcome.assert_verdict("fail", None, 1);
        }
        let attempt = outcome.attempt();
        assert_eq!(
            (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
            (Some("exited"), Some(code)),
            "{attempt:#}"
        );
        if code == 137 {
            // How an OOM-killed test shows: a failure that says SIGKILL,
            // never testgate's own timeout.
            assert!(
                outcome.reason().contains("signal 9"),
                "{}",
                outcome.reason()
            );
        }
        attack.assert_contained(&outcome);
    }
}

#[test]
fn a_fake_bwrap_first_on_path_is_not_used() {
    let attack = Attack::new("fake-bwrap");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut planted = attack.project().as_os_str().to_owned();
    planted.push(":");
    planted.push(&path);
    let attack = attack.testgate_env("PATH", planted);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert!(
        !Path::new(attack.project()).join("fake-bwrap-ran").exists(),
        "testgate ran the bwrap planted on PATH"
    );
    assert!(
        outcome.reason().contains("in a PID namespace"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}
