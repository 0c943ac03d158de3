//! Suites that lie: output and exit status that say different things, exit
//! codes that look like testgate's own, a planted `bwrap`.

use std::path::Path;

use super::harness::{Attack, Place};

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
    a_failing_suite_claiming_success_fails_in(Place::Bwrap);
}

pub(super) fn a_failing_suite_claiming_success_fails_in(place: Place) {
    let attack = Attack::new_in("lying-summary", place);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(outcome.attempt()["exit_code"], 1);
    attack.assert_contained(&outcome);
}

#[test]
fn exit_zero_with_failed_lines_is_a_contradiction() {
    exit_zero_with_failed_lines_is_a_contradiction_in(Place::Bwrap);
}

pub(super) fn exit_zero_with_failed_lines_is_a_contradiction_in(place: Place) {
    let attack = Attack::new_in("exit0-failed", place);
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
    a_test_that_exits_the_runner_early_is_truncated_not_pass_in(Place::Bwrap);
}

pub(super) fn a_test_that_exits_the_runner_early_is_truncated_not_pass_in(place: Place) {
    for suite in ["exits-early-pytest", "exits-early-cargo"] {
        let attack = Attack::new_in(suite, place);
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

/// A failing test, then a test that writes libtest's green `test result:
/// ok. 2 passed; …` through `io::stdout()` and calls
/// `std::process::exit(0)` (issue 28), in each console mode of cargo test,
/// also with retries: the forged line is not the run's own (it follows
/// fewer results than it counts), so the run never closed: Inconclusive
/// `truncated`, or `contradiction` where libtest had already printed the
/// failure (the race is the attacker's: a panic's backtrace can take longer
/// than its sibling's sleep). Each was PASS before.
#[test]
fn a_test_that_prints_libtests_result_and_exits_is_not_pass() {
    for (mode, retries) in [
        ("default", "0"),
        ("quiet", "0"),
        ("terse", "0"),
        ("quiet", "2"),
    ] {
        let attack = Attack::new("forged-result-cargo")
            .arg("-k")
            .arg(retries)
            .script_arg(mode);
        let outcome = attack.run();
        let failing = outcome.attempt()["failing"].clone();
        let cause = if failing == serde_json::json!([]) {
            "truncated"
        } else {
            assert_eq!(failing, serde_json::json!(["tests::a_fails"]), "{mode}");
            "contradiction"
        };
        outcome.assert_verdict("inconclusive", Some(cause), 125);
        let attempt = outcome.attempt();
        assert_eq!(
            (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
            (Some("exited"), Some(0)),
            "{mode}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}

/// The same by go (issue 28): TestA fails, then TestZ prints `PASS` and
/// `ok` and calls `syscall.Exit(0)`, which go's os.Exit hook does not see;
/// go judges the package by the exit status and prints `ok`. Plain `go
/// test ./...` was PASS. testgate asks for go's report (`-v=test2json`
/// on go 1.20+, read as `-json` converts it; `-json` before): the events
/// keep TestA's `fail` under the package's `pass` (here the `ok` TestZ
/// printed, then go's own) and TestZ's `run` without a result,
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
        serde_json::json!(["go", "test", "./...", "-v=test2json"]),
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

/// go's framing forged (issue 36): TestBad fails, then TestForge prints,
/// with the testing package's `^V` marks, a pass of TestBad, the binary's
/// `PASS` and go's `ok` line for the package, which cuts the package's
/// block where testgate reads go's `-v=test2json` framing. go fails the
/// package by the exit status and prints its own `FAIL` line last: never
/// a Pass. The two parts are one block of one package, as `-json`'s one
/// converter reads them: TestBad failed, and (the forged pass after its
/// failure counted as test2json counts it) flaky: Inconclusive `flaky`,
/// what `go test -json ./...` gives too.
#[test]
fn a_go_test_that_forges_the_framing_is_not_pass() {
    let attack = Attack::new("forged-framing-go").runner_command(&["go", "test", "./..."]);
    let outcome = attack.run();
    let attempt = outcome.attempt();
    assert_eq!(
        attempt["command"],
        serde_json::json!(["go", "test", "./...", "-v=test2json"]),
        "{attempt:#}"
    );
    for field in ["failing", "flaky_within"] {
        assert_eq!(
            attempt[field],
            serde_json::json!(["TestBad"]),
            "{field}: {attempt:#}"
        );
    }
    outcome.assert_verdict("inconclusive", Some("flaky"), 125);
    attack.assert_contained(&outcome);
}
