//! Forged passes that a Pass of three agreeing channels refuses (issue 28):
//! the exit status, the runner's own report (obtained by testgate outside
//! the project) and the console (docs/policy.md, "Three channels must
//! agree"; docs/security.md, "What an in-process runner still allows").

use serde_json::json;

use super::harness::{Attack, Place};

/// pytest: a failing test, then a test that writes pytest's green closing
/// line to the real stdout (the capture suspended) and ends pytest with
/// `os._exit(0)`. The console closes like a green session and the exit
/// status is 0 (PASS before); pytest writes its report at the session's
/// end, which never came: Inconclusive `truncated`.
#[test]
fn a_forged_pytest_summary_then_exit_zero_is_truncated_not_pass() {
    let attack = Attack::new("forged-summary-pytest");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
    assert_eq!(attempt["report"], "missing", "{attempt:#}");
    attack.assert_contained(&outcome);
}

/// pytest: a failing test, and an atexit handler that rewrites every JUnit
/// report it can find (the command line's and `PYTEST_ADDOPTS`'s) to say
/// all passed, then exits 0. The console still names the failure: the
/// report never overrides it, whether it is testgate's own report
/// (default), the user's `--report`, or `--structured` (which believed the
/// report and gave PASS before).
#[test]
fn a_rewritten_pytest_report_never_outweighs_a_console_that_names_a_failure() {
    let default = Attack::new("rewrites-report-pytest");
    let user_report = Attack::new("rewrites-report-pytest")
        .arg("--report")
        .arg("junit.xml")
        .script_arg("--junitxml=junit.xml");
    let structured = Attack::new("rewrites-report-pytest")
        .arg("--structured")
        .runner_command(&[
            "python3",
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "test_rewrite.py",
        ]);
    for (how, attack) in [
        ("default", default),
        ("--report", user_report),
        ("--structured", structured),
    ] {
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
        let attempt = outcome.attempt();
        assert_eq!(attempt["exit_code"], 0, "{how}: {attempt:#}");
        assert_eq!(
            attempt["evidence"],
            json!(["exit", "report", "console"]),
            "{how}: {attempt:#}"
        );
        assert_eq!(
            attempt["console_failing"],
            json!(["test_rewrite.py::test_a_fails"]),
            "{how}: {attempt:#}"
        );
        attack.assert_contained(&outcome);
    }
}

/// Under Landlock the report's place is granted writable like the
/// project: the report is read there too, and the forgery is refused alike.
#[test]
fn the_report_is_obtained_under_landlock_too() {
    let attack = Attack::new_in("rewrites-report-pytest", Place::Landlock);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    assert_eq!(
        outcome.attempt()["evidence"],
        json!(["exit", "report", "console"])
    );
    attack.assert_contained(&outcome);
    let attack = Attack::new_in("forged-summary-pytest", Place::Landlock);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    attack.assert_contained(&outcome);
}

/// nextest: a test that fails when it first runs and passes on nextest's
/// retry, under `--retries 2 --status-level none --final-status-level none`:
/// the console shows no try and nextest exits 0, so the console alone gave
/// PASS. nextest's own JUnit report, asked for by default through a tool
/// configuration beside the report, records the failed try: Inconclusive
/// `flaky`.
#[test]
fn a_test_nextest_retried_silently_is_flaky_not_pass() {
    let attack = Attack::new("retried-silently-nextest").runner_command(&[
        "cargo",
        "nextest",
        "run",
        "--offline",
        "--retries",
        "2",
        "--status-level",
        "none",
        "--final-status-level",
        "none",
    ]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("flaky"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
    assert_eq!(
        attempt["evidence"],
        json!(["exit", "report", "console"]),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// Maven (issue 42; suite `forgeries-maven`, JUnit 5 on Surefire 3.5.2):
/// `hostile.ATest#fails` fails, and then a test tries to forge a Pass
/// through each channel. None may PASS.
/// - `lies`: the failing test prints Surefire's `Tests run: 3, Failures:
///   0` and Maven's `BUILD SUCCESS`: Fail naming it (the console's forged
///   lines name nothing; Surefire's report names the failure).
/// - `rewrite`: a process of a later test waits for Surefire's
///   `TEST-hostile.ATest.xml` and rewrites it to a pass: the console still
///   names the failure and mvn exits 1: Fail, never PASS.
/// - `quiet`: the same, with the pom (the project's own) ignoring test
///   failures (mvn exits 0) and printing no class's result: Inconclusive.
/// - `exit`, `halt`: `System.exit(0)` / `Runtime.halt(0)` in a later test:
///   Surefire reports a crashed fork, mvn exits 1: Fail naming the failure,
///   the class that ended the JVM running.
#[test]
fn maven_forgeries_through_each_channel_never_pass() {
    for attack in ["lies", "rewrite", "quiet", "exit", "halt"] {
        let property = format!("-Dattack={attack}");
        let suite = Attack::new("forgeries-maven").runner_command(&[
            "mvn",
            "-o",
            "-B",
            "test",
            property.as_str(),
        ]);
        let outcome = suite.run();
        let attempt = outcome.attempt();
        assert_ne!(outcome.verdict().0, "pass", "{attack}: {attempt:#}");
        assert_eq!(attempt["report"], "read", "{attack}: {attempt:#}");
        match attack {
            "lies" | "exit" | "halt" => {
                outcome.assert_verdict("fail", None, 1);
                assert_eq!(
                    attempt["failing"],
                    json!(["hostile.ATest#fails"]),
                    "{attack}: {attempt:#}"
                );
                if attack != "lies" {
                    assert_eq!(attempt["running"], json!(["hostile.BTest"]), "{attack}");
                    assert!(
                        attempt["crashes"].as_array().is_some_and(|c| !c.is_empty()),
                        "{attack}: {attempt:#}"
                    );
                }
            }
            "rewrite" => {
                outcome.assert_verdict("fail", None, 1);
                assert_eq!(attempt["exit_code"], 1, "{attempt:#}");
                assert_eq!(
                    attempt["console_failing"],
                    json!(["hostile.ATest#fails"]),
                    "{attempt:#}"
                );
            }
            _ => {
                assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
                assert_eq!(outcome.verdict().0, "inconclusive", "{attempt:#}");
            }
        }
        suite.assert_contained(&outcome);
    }
}
