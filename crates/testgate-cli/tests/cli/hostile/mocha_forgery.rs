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
    bare_mocha_is_truncated_with_no_report("forged.spec.js");
}

/// `early.spec.js`: the file's top level, which mocha runs as it loads the
/// file, before the run and the recorder's global setup, prints a green
/// epilogue and ends node with status 0. No report was ever opened:
/// Inconclusive `truncated` (before the recorder: Pass, exit 0).
#[test]
fn a_mocha_epilogue_forged_before_the_run_is_truncated_not_pass() {
    bare_mocha_is_truncated_with_no_report("early.spec.js");
}

/// `npx --no-install mocha SPEC` in the suite, as root in bubblewrap:
/// Inconclusive `truncated`, exit 0 and no complete report, contained.
fn bare_mocha_is_truncated_with_no_report(spec: &str) {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&["npx", "--no-install", "mocha", spec])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    outcome.assert_exit_and_report(0, "missing");
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
    outcome.assert_exit_and_report(0, "read");
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

/// `erased.spec.js`: a test fails; the next finds the recorder's report
/// beside the `--require`d recorder in mocha's arguments and deletes it,
/// empties it, or appends the recorder's `unserved` line (mocha before
/// 8.2) to the run it holds (`HOSTILE_ERASE`), then prints a green
/// epilogue and ends node with status 0. No complete report in each:
/// Inconclusive `truncated` (an `unserved` line inside a run does not make
/// the console judge alone).
#[test]
fn a_mocha_report_a_test_erases_is_truncated_not_pass() {
    for erase in ["delete", "truncate", "append"] {
        let attack = Attack::new("mocha-forgery")
            .runner_command(&["npx", "--no-install", "mocha", "erased.spec.js"])
            .with_node_modules()
            .arg("--env")
            .arg(format!("HOSTILE_ERASE={erase}"));
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("truncated"), 125);
        let attempt = outcome.attempt();
        assert_eq!(
            (attempt["exit_code"].as_i64(), attempt["report"].as_str()),
            (Some(0), Some("missing")),
            "{erase}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}

/// The recorder a command's attempt was given (the path after its
/// `--require`).
fn recorder_of(attempt: &serde_json::Value) -> std::path::PathBuf {
    let words = attempt["command"].as_array().expect("command");
    let at = words
        .iter()
        .position(|word| word == "--require")
        .unwrap_or_else(|| panic!("no --require: {attempt:#}"));
    std::path::PathBuf::from(words[at + 1].as_str().expect("a path"))
}

/// `plant.spec.js`: a test that fails in every attempt rewrites, in the
/// first, testgate's recorder into one that writes a whole passing run,
/// and leaves a file beside it (its message says `planted`: the report's
/// directory is writable in the sandbox). The retry (`--retries 1
/// --rerun failed`) is given a recorder of testgate's in a directory of
/// its own, with nothing planted beside it, and both directories are gone
/// after the check: Fail naming `plant fails`.
#[test]
fn a_recorder_planted_by_one_mocha_attempt_reaches_no_other() {
    let command = ["npx", "--no-install", "mocha", "plant.spec.js"];
    let attack = Attack::new("mocha-forgery")
        .runner_command(&command)
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let message = outcome.doc()["failures"][0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(
        message.ends_with("fails for real, planted"),
        "{:#}",
        outcome.doc()
    );
    attack.assert_contained(&outcome);

    let attack = Attack::new("mocha-forgery")
        .runner_command(&command)
        .with_node_modules()
        .arg("--retries")
        .arg("1")
        .arg("--rerun")
        .arg("failed");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let doc = outcome.doc();
    assert_eq!(
        doc["failing"],
        serde_json::json!(["plant fails"]),
        "{doc:#}"
    );
    let attempts = doc["attempts"].as_array().expect("attempts");
    assert_eq!(attempts.len(), 2, "{doc:#}");
    let message = doc["failures"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.ends_with("retry, the recorder testgate's, nothing planted beside it"),
        "{doc:#}"
    );
    let (first, retry) = (recorder_of(&attempts[0]), recorder_of(&attempts[1]));
    assert_ne!(first.parent(), retry.parent(), "{doc:#}");
    for recorder in [first, retry] {
        let dir = recorder.parent().expect("a directory");
        assert!(!dir.exists(), "{} outlived the check", dir.display());
    }
    attack.assert_contained(&outcome);
}

/// `worker.spec.js` under `--parallel`: a test fails, the next kills the
/// worker process running the file (SIGKILL) before the worker hands its
/// events to mocha's own process. mocha names the dead worker `Uncaught
/// error outside test suite`, in the recorder's report and on the
/// console: Fail naming it (the lost failure is not named).
#[test]
fn a_mocha_worker_killed_by_its_test_is_a_fail() {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&[
            "npx",
            "--no-install",
            "mocha",
            "--parallel",
            "worker.spec.js",
        ])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["report"].as_str(), &attempt["failing"]),
        (
            Some("read"),
            &serde_json::json!(["Uncaught error outside test suite"])
        ),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// `erased.spec.js` with `HOSTILE_ERASE=end`: a test fails; the next
/// appends the `end` of a green run (mocha's stats: 2 passes, 0 failures)
/// to the recorder's report, prints a green epilogue and ends node with
/// status 0. The report is complete, but its `fail` of `forgery fails`
/// stands beside the forged stats: Inconclusive `contradiction` beside
/// exit 0. (A whole forged run in place of the report, its `fail` gone,
/// is the recorder's documented limit.)
#[test]
fn a_mocha_end_a_test_appends_is_a_contradiction_not_pass() {
    let attack = Attack::new("mocha-forgery")
        .runner_command(&["npx", "--no-install", "mocha", "erased.spec.js"])
        .with_node_modules()
        .arg("--env")
        .arg("HOSTILE_ERASE=end");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (
            attempt["exit_code"].as_i64(),
            attempt["report"].as_str(),
            &attempt["failing"]
        ),
        (Some(0), Some("read"), &serde_json::json!(["forgery fails"])),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}
