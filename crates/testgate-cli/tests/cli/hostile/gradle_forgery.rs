//! Gradle tests that forge Gradle's console or its XML report (Debian's
//! Gradle 4.4, offline, JUnit 4 from Debian's Maven repository).

use serde_json::json;

use super::harness::Attack;

/// `tests/hostile/gradle-forgery` with `HOSTILE_MODE=summary`:
/// `hostile.ATest#fails` fails, then `hostile.BTest#forges` writes
/// Gradle's `BUILD SUCCESSFUL` to Gradle's own stdout and kills Gradle
/// before it prints a failure line or writes its XML report; the shell
/// exits 0 whatever Gradle did (`sh -c 'gradle test --offline; exit 0'`;
/// the script's gradle gets Gradle's preset `GRADLE_OPTS` as a bare one
/// does, without which Gradle 4.4 does not start under bubblewrap).
/// The console reads as a passing build and the status is 0; testgate
/// asks for a fresh report (`cleanTest`) and the attempt wrote none:
/// Inconclusive `truncated`, never a Pass.
#[test]
fn a_forged_gradle_build_successful_after_killing_gradle_is_truncated_not_pass() {
    let attack = Attack::new("gradle-forgery")
        .runner_command(&["sh", "-c", "gradle test --offline; exit 0"])
        .arg("--env")
        .arg("HOSTILE_MODE=summary");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    outcome.assert_exit_and_report(0, "missing");
    attack.assert_contained(&outcome);
}

/// `HOSTILE_MODE=ghost`: a passing test writes `hostile.GhostTest > ghost
/// FAILED` to Gradle's stdout, inside the test task, beside the real
/// failure (`gradle test --offline`). The console names the ghost
/// (`console_failing`), Gradle's XML report does not: Fail naming
/// `hostile.ATest#fails` alone. The same behind `sh -c`, whose gradle
/// gets Gradle's preset `GRADLE_OPTS` as a bare one does (before, it did
/// not start under bubblewrap: "Could not create service of type
/// MemoryManager").
#[test]
fn a_failed_line_a_passing_gradle_test_prints_names_nothing() {
    for command in [
        &["gradle", "test", "--offline"][..],
        &["sh", "-c", "gradle test --offline"],
    ] {
        let attack = Attack::new("gradle-forgery")
            .runner_command(command)
            .arg("--env")
            .arg("HOSTILE_MODE=ghost");
        let outcome = attack.run();
        outcome.assert_verdict("fail", None, 1);
        assert_eq!(
            outcome.doc()["failing"],
            json!(["hostile.ATest#fails"]),
            "{command:?}: {}",
            outcome.doc()
        );
        assert_eq!(outcome.attempt()["report"], "read", "{}", outcome.doc());
        attack.assert_contained(&outcome);
    }
}

/// `HOSTILE_MODE=report`: a test writes `TEST-hostile.Forged.xml` into
/// `build/test-results/test/`, a report in which every test of
/// `hostile.ATest` passed (`gradle test --offline`). The forged file is
/// no longer there when Gradle 4.4 ends (its test task clears the folder
/// as it writes its own reports): Fail naming `hostile.ATest#fails`, from
/// the report and the console alike.
#[test]
fn a_report_a_gradle_test_writes_hides_no_failure() {
    let attack = Attack::new("gradle-forgery")
        .runner_command(&["gradle", "test", "--offline"])
        .arg("--env")
        .arg("HOSTILE_MODE=report");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let attempt = outcome.attempt();
    assert_eq!(
        (&attempt["failing"], &attempt["console_failing"]),
        (
            &json!(["hostile.ATest#fails"]),
            &json!(["hostile.ATest#fails"])
        ),
        "{attempt:#}"
    );
    assert_eq!(attempt["report"], "read", "{attempt:#}");
    attack.assert_contained(&outcome);
}
