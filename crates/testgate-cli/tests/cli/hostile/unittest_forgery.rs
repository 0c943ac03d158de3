//! unittest forgeries (issue 38): testgate's recorder, put on `PYTHONPATH`
//! from outside the project, writes unittest's report when the run ends;
//! the console and the exit status must agree with it
//! (`tests/hostile/forged-unittest`, one module per attack).

use serde_json::json;

use super::harness::{Attack, Outcome};

/// The suite's module `module` run by `python3 -m unittest`, with
/// testgate's further arguments `args`.
fn run(module: &str, args: &[&str]) -> (Attack, Outcome) {
    let mut attack =
        Attack::new("forged-unittest").runner_command(&["python3", "-m", "unittest", module]);
    for arg in args {
        attack = attack.arg(*arg);
    }
    let outcome = attack.run();
    (attack, outcome)
}

/// A failing test that catches its own failure, prints unittest's green
/// closing (`.`, the rule, `Ran 2 tests`, `OK`) and ends the run with
/// `os._exit(0)`: the console closes as a green run, the exit status is 0.
/// PASS on the code before (main at 986bf32); the recorder writes the
/// report when the run ends, which never came: Inconclusive `truncated`,
/// by command and behind a shell script (the report asked through the
/// environment alone).
#[test]
fn a_forged_unittest_closing_then_exit_zero_is_truncated_not_pass() {
    let (attack, outcome) = run("forge_closing", &[]);
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
    assert_eq!(attempt["report"], "missing", "{attempt:#}");
    attack.assert_contained(&outcome);

    let attack = Attack::new("forged-unittest").script_arg("forge_closing");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    assert_eq!(outcome.attempt()["report"], "missing");
    attack.assert_contained(&outcome);
}

/// A failing test whose own output is a forged `FAIL:` block naming a test
/// that passes: the failing names are the report's, the real failure alone
/// (as the console's anti-forgery already gave before).
#[test]
fn a_forged_unittest_header_names_no_passing_test() {
    let (attack, outcome) = run("forge_header", &[]);
    outcome.assert_verdict("fail", None, 1);
    let attempt = outcome.attempt();
    assert_eq!(
        attempt["failing"],
        json!(["test_a_fails (forge_header.Forge)"]),
        "{attempt:#}"
    );
    assert_eq!(
        attempt["evidence"],
        json!(["exit", "report", "console"]),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// A failing test, then a test that calls `os._exit(0)` (unittest's `F`
/// still in its buffer, so the console holds nothing): no report, no
/// closing line. Inconclusive `truncated` (as before, from the console).
#[test]
fn os_exit_after_a_unittest_failure_is_truncated_not_pass() {
    let (attack, outcome) = run("exit_after_failure", &[]);
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    assert_eq!(outcome.attempt()["report"], "missing");
    attack.assert_contained(&outcome);
}

/// A failing test, then a test that writes a green report into the place
/// it finds in its process's first environment (`/proc/self/environ`): the
/// recorder replaces the file when the run ends, so the report names the
/// failure: Fail. Where the test then ends the process with `os._exit(0)`
/// (its forged report stands, the console holds nothing), a report of a
/// closed run the console never closed is no report: Inconclusive
/// `truncated` (PASS in this branch before that rule).
#[test]
fn a_forged_unittest_report_is_never_a_pass() {
    let (attack, outcome) = run("forge_report", &[]);
    outcome.assert_verdict("fail", None, 1);
    let attempt = outcome.attempt();
    assert_eq!(
        attempt["failing"],
        json!(["test_a_fails (forge_report.Forge)"]),
        "{attempt:#}"
    );
    assert_eq!(attempt["report"], "read", "{attempt:#}");
    attack.assert_contained(&outcome);

    let (attack, outcome) = run("forge_report", &["--env", "FORGE_EXIT=1"]);
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
    assert!(
        attempt["note"]
            .as_str()
            .is_some_and(|note| note.contains("closing line the console never printed")),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// The honest project beside the forgeries: the project's own
/// `sitecustomize.py`, on the `PYTHONPATH` the user gives, still runs
/// (testgate's recorder, first on the path, chains to it), and the run is
/// a Pass judged by the report.
#[test]
fn an_honest_unittest_project_keeps_its_own_sitecustomize() {
    let attack =
        Attack::new("forged-unittest").runner_command(&["python3", "-m", "unittest", "honest"]);
    let path = format!("PYTHONPATH={}", attack.project().display());
    let attack = attack.arg("--env").arg(path);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert_eq!(
        outcome.attempt()["evidence"],
        json!(["exit", "report", "console"])
    );
    attack.assert_contained(&outcome);
}
