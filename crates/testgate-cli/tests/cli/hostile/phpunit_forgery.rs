//! PHPUnit tests that forge PHPUnit's console (issue 39): a green summary
//! and `exit(0)`, and a defect list naming a test that does not exist.

use super::harness::{Attack, Place};

/// `tests/hostile/phpunit-forgery` with `HOSTILE_MODE=exit`: a test fails,
/// the next prints PHPUnit's time line and `OK (3 tests, 3 assertions)` and
/// calls `exit(0)`. PHPUnit exits 0 and its console ends green: PASS on the
/// code before testgate knew PHPUnit (main at 986bf32: an unrecognised
/// command's exit 0). testgate asks PHPUnit for its `--log-junit` report,
/// written when the run ends, and the console's `OK` follows a progress
/// `F`: Inconclusive `truncated`, never a Pass.
#[test]
fn a_forged_phpunit_summary_and_exit_0_is_truncated_not_pass() {
    a_forged_phpunit_summary_and_exit_0_is_truncated_not_pass_in(Place::Bwrap);
}

pub(super) fn a_forged_phpunit_summary_and_exit_0_is_truncated_not_pass_in(place: Place) {
    let attack = Attack::new_in("phpunit-forgery", place)
        .runner_command(&["phpunit"])
        .arg("--env")
        .arg("HOSTILE_MODE=exit");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
        (Some("exited"), Some(0)),
        "{attempt:#}"
    );
    let asked = attempt["command"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|word| word == "--log-junit");
    assert!(asked, "{attempt:#}");
    attack.assert_contained(&outcome);
}

/// The same suite with `HOSTILE_MODE=ghost`: a passing test prints a time
/// line, a defect list naming `Tests\GhostTest::testGhost` and a failed
/// summary, another a green summary. The run fails with the one real
/// failure named, the ghost never (neither by the report nor the console:
/// `docs/formats.md`, "PHPUnit"). On the code before testgate knew PHPUnit
/// this was a Fail with no name.
#[test]
fn a_defect_list_a_passing_phpunit_test_prints_names_nothing() {
    a_defect_list_a_passing_phpunit_test_prints_names_nothing_in(Place::Bwrap);
}

pub(super) fn a_defect_list_a_passing_phpunit_test_prints_names_nothing_in(place: Place) {
    let attack = Attack::new_in("phpunit-forgery", place)
        .runner_command(&["phpunit"])
        .arg("--env")
        .arg("HOSTILE_MODE=ghost");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.doc()["failing"],
        serde_json::json!([r"Tests\ForgeryTest::testAFails"]),
        "{}",
        outcome.doc()
    );
    attack.assert_contained(&outcome);
}
