//! `node --test` tests that forge node's console: a failure line for a
//! test that does not exist, and node's green closing after killing it.

use super::harness::Attack;

/// `tests/hostile/node-forgery`'s `ghost.test.js`: a test fails for real;
/// a passing test prints a TAP `not ok 7 - ghost test` block and a spec
/// `✖ ghost test` line (`node --test ghost.test.js`). node prefixes a test
/// file's own output with `# `: Fail naming `fails` alone.
#[test]
fn a_failure_block_a_passing_node_test_prints_names_nothing() {
    let attack = Attack::new("node-forgery").runner_command(&["node", "--test", "ghost.test.js"]);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.doc()["failing"],
        serde_json::json!(["fails"]),
        "{}",
        outcome.doc()
    );
    attack.assert_contained(&outcome);
}

/// `forged.test.js`: `fails` fails, then `forges a pass` writes node's
/// green spec closing (`ℹ pass 2`, `ℹ fail 0`) to the runner's own stdout
/// and kills it before it reports the file. Behind `sh -c 'node --test
/// forged.test.js; exit 0'` the status is 0 and the console shows no
/// failure: PASS while node was asked for no report. testgate asks the
/// script's node for its junit report (`--test-reporter=junit`), which
/// node, killed, left at its root's start: Inconclusive `truncated`. Bare,
/// the kill's status fails the run (exit 137), beside the same cut report.
#[test]
fn a_forged_node_closing_after_killing_node_is_truncated_not_pass() {
    let attack = Attack::new("node-forgery").runner_command(&[
        "sh",
        "-c",
        "node --test forged.test.js; exit 0",
    ]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    outcome.assert_exit_and_report(0, "missing");
    attack.assert_contained(&outcome);

    let attack = Attack::new("node-forgery").runner_command(&["node", "--test", "forged.test.js"]);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    outcome.assert_exit_and_report(137, "missing");
    attack.assert_contained(&outcome);
}

/// `report.test.js`: `fails` fails; `forges a pass` reads the runner's
/// `--test-reporter-destination=PLACE` from its `/proc/PPID/cmdline` (node
/// runs the file in a child process), writes node's complete junit report
/// of two passing tests there and kills the runner before it reports the
/// file. Behind `sh -c 'node --test report.test.js; exit 0'` the status is
/// 0 and the forged report is read (`report: read`, two passed), but the
/// console, node's tap, stops at `TAP version 13`, before its summary:
/// Inconclusive `truncated`. Left to run on (`HOSTILE_LET_RUN=1`), node
/// writes its own report over the forged one at the end: the report names
/// `fails` beside exit 0, a `contradiction`. Bare, the kill's status 137
/// fails the run.
#[test]
fn a_junit_report_a_node_test_forges_is_not_a_pass() {
    let script = ["sh", "-c", "node --test report.test.js; exit 0"];
    let attack = Attack::new("node-forgery").runner_command(&script);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (
            attempt["exit_code"].as_i64(),
            attempt["report"].as_str(),
            attempt["counts"]["passed"].as_i64()
        ),
        (Some(0), Some("read"), Some(2)),
        "the forged report was written and read: {attempt:#}"
    );
    attack.assert_contained(&outcome);

    let attack = Attack::new("node-forgery")
        .runner_command(&script)
        .arg("--env")
        .arg("HOSTILE_LET_RUN=1");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    let attempt = outcome.attempt();
    outcome.assert_exit_and_report(0, "read");
    assert_eq!(
        attempt["failing"],
        serde_json::json!(["fails"]),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);

    let attack = Attack::new("node-forgery").runner_command(&["node", "--test", "report.test.js"]);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.attempt()["exit_code"].as_i64(),
        Some(137),
        "{:#}",
        outcome.attempt()
    );
    attack.assert_contained(&outcome);
}
