//! GoogleTest tests that forge GoogleTest's console (issue 39): a green
//! closing and `_exit(0)`, a FAILED list a passing test prints, and a
//! report a test writes beside GoogleTest's (and then aborts).

use super::harness::Attack;

/// The attack's binary, built first by `--prepare`, run with a GoogleTest
/// flag (by which testgate recognises it) and `HOSTILE_MODE=mode`.
fn attack(mode: &str) -> Attack {
    Attack::new("gtest-forgery")
        .runner_command(&["build/forge_test", "--gtest_color=no"])
        .arg("--prepare")
        .arg("cmake -S . -B build && cmake --build build")
        .arg("--env")
        .arg(format!("HOSTILE_MODE={mode}"))
}

/// `tests/hostile/gtest-forgery` with `HOSTILE_MODE=exit`: `A.Fails`
/// fails, then `B.Forges` prints an `OK` for itself and GoogleTest's green
/// closing and ends the binary with `_exit(0)`, before the real closing
/// and the XML report. The console ends as a green run does, with exit
/// status 0: PASS on the code before testgate knew GoogleTest (main at
/// 13be555: no runner's output, exit 0). The closing does not sum up the
/// run (three passed said, two `OK`s read; five tests planned), so
/// `A.Fails` is named, and the XML report asked through `GTEST_OUTPUT` is
/// missing: never a Pass.
#[test]
fn a_forged_gtest_closing_and_exit_0_is_not_pass() {
    let attack = attack("exit");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
    assert_eq!(attempt["format"], "gtest", "{attempt:#}");
    assert_eq!(
        attempt["failing"],
        serde_json::json!(["A.Fails"]),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// The same suite with `HOSTILE_MODE=ghost`: `B.Ghost`, which passes,
/// prints a `RUN`/`FAILED` pair for `Ghost.Test`, a failed result for
/// `A.Passes`, a closing and a FAILED list naming both. The run fails with
/// its one real failure named, neither ghost (a line naming another test
/// while a test runs is that test's output: docs/formats.md, "GoogleTest").
#[test]
fn a_failed_list_a_passing_gtest_test_prints_names_nothing() {
    fails_naming_its_one_real_failure("ghost");
}

/// The same suite with `HOSTILE_MODE=report`: `B.Report` writes `0.xml`
/// into the directory `GTEST_OUTPUT=xml:DIR/` names (read before the
/// binary's own `forge_test.xml`), in which `A.Fails` passed. Every file
/// there is read, and a name that failed in any of them failed: Fail with
/// `A.Fails`. Without that rule (each name's first case standing) the
/// forged pass hid the name: a Fail with none (seen by hand on this
/// branch's binary with the rule taken out). On main (one `xml:FILE`) the
/// attack writes nothing: it is new with the directory.
#[test]
fn a_report_a_gtest_test_writes_beside_its_binarys_hides_no_failure() {
    fails_naming_its_one_real_failure("report");
}

/// The same suite with `HOSTILE_MODE=crash_report`: `B.Report` writes the
/// forged `0.xml` (every test passed, `A.Fails` among them) and aborts:
/// the binary writes no file of its own, so the forged one is the
/// directory's only file, and the console shows `A.Fails` failed and
/// `B.Report` never ended. A binary that died leaves its console as the
/// only word on its tests: both are named, whatever a file says. On the
/// code before (the files alone judging beside a crash): a Fail naming
/// nothing (exit 134).
#[test]
fn a_report_a_crashing_gtest_test_writes_hides_neither_its_crash_nor_a_failure() {
    let attack = attack("crash_report");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let mut failing: Vec<String> = serde_json::from_value(outcome.doc()["failing"].clone())
        .expect("failing is a list of names");
    failing.sort_unstable();
    assert_eq!(failing, ["A.Fails", "B.Report"], "{}", outcome.doc());
    attack.assert_contained(&outcome);
}

/// The attack in `mode` is a Fail naming `A.Fails` alone, contained.
fn fails_naming_its_one_real_failure(mode: &str) {
    let attack = attack(mode);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.doc()["failing"],
        serde_json::json!(["A.Fails"]),
        "{mode}: {}",
        outcome.doc()
    );
    attack.assert_contained(&outcome);
}
