//! mocha tests that forge mocha's spec console: a failure list naming a
//! test that does not exist, printed by a passing test; a green epilogue
//! printed before ending mocha with status 0.

use super::harness::Attack;

/// `tests/hostile/mocha-forgery`'s `ghost.spec.js`: a test fails; a passing
/// test prints an inline failure mark, an epilogue (`1 passing`, `1
/// failing`) and a numbered list naming `ghost suite ghost test`, which
/// does not exist. mocha's own epilogue and list come last: Fail naming the
/// real failure alone (docs/formats.md, mocha: the last epilogue in the log
/// is the run's), under `npx mocha ghost.spec.js`.
#[test]
fn a_failure_list_a_passing_mocha_test_prints_names_nothing() {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&["npx", "--no-install", "mocha", "ghost.spec.js"])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.doc()["failing"],
        serde_json::json!(["forgery fails"]),
        "{}",
        outcome.doc()
    );
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"].as_i64(), Some(1), "{attempt:#}");
    attack.assert_contained(&outcome);
}

/// `tests/hostile/mocha-forgery`'s `forged.spec.js`: a test fails (its
/// inline `1) fails` printed), the next prints a green epilogue (`2
/// passing`) and ends node with `process.reallyExit(0)` before mocha's own
/// epilogue, bare (`npx --no-install mocha forged.spec.js`). testgate's
/// recorder wrote the failure and never mocha's `end`: the report is not a
/// complete run, Inconclusive `truncated`, never a Pass (on the code before
/// the recorder: Pass, exit 0).
#[test]
fn a_forged_mocha_epilogue_then_exit_0_is_truncated_not_pass() {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&["npx", "--no-install", "mocha", "forged.spec.js"])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["exit_code"].as_i64(), attempt["report"].as_str()),
        (Some(0), Some("missing")),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// `early.spec.js`: the file's top level, which mocha runs as it loads the
/// file, before the run and the recorder's global setup, prints a green
/// epilogue and ends node with status 0. No report was ever opened:
/// Inconclusive `truncated` (before the recorder: Pass, exit 0).
#[test]
fn a_mocha_epilogue_forged_before_the_run_is_truncated_not_pass() {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&["npx", "--no-install", "mocha", "early.spec.js"])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["exit_code"].as_i64(), attempt["report"].as_str()),
        (Some(0), Some("missing")),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// `after.spec.js`: a test fails; after mocha's own epilogue and list, an
/// exit handler prints a green epilogue (the last in the log) and ends node
/// with status 0. The recorder's report, complete, names `forgery fails`:
/// exit 0 beside a report naming a failure is Inconclusive `contradiction`
/// (before the recorder: Pass, exit 0).
#[test]
fn a_mocha_epilogue_forged_by_an_exit_handler_is_a_contradiction_not_pass() {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&["npx", "--no-install", "mocha", "after.spec.js"])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["exit_code"].as_i64(), attempt["report"].as_str()),
        (Some(0), Some("read")),
        "{attempt:#}"
    );
    assert_eq!(
        attempt["failing"],
        serde_json::json!(["forgery fails"]),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// `forged.spec.js` and `early.spec.js` behind a wrapper no argument
/// reaches (`sh -c 'npx --no-install mocha FILE | cat'`, a pipe the script
/// rewriting leaves alone): mocha's program is given the recorder by the
/// `NODE_OPTIONS` preload, which marks the report as it asks; a report with
/// no `end`, or no run at all, is Inconclusive `truncated` (before the
/// recorder: Pass, exit 0).
#[test]
fn a_forged_mocha_epilogue_behind_a_wrapper_is_truncated_not_pass() {
    for spec in ["forged.spec.js", "early.spec.js"] {
        let script = format!("npx --no-install mocha {spec} | cat");
        let attack = Attack::new("mocha-forgery")
            .runner_command(&["sh", "-c", script.as_str()])
            .with_node_modules();
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("truncated"), 125);
        let attempt = outcome.attempt();
        assert!(
            attempt["note"]
                .as_str()
                .is_some_and(|note| note.contains("is not a complete report")),
            "{spec}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}
