//! Suites that forge a pass of a test that must pass under `--expect`: an
//! expected failure, a failed subtest under a test whose own line says
//! PASSED (issue 28).

use super::harness::Attack;

/// The suite `name` graded against its own `expect.json`, with the further
/// `check` options `args`.
fn graded(name: &'static str, args: &[&str]) -> Attack {
    let attack = Attack::new(name);
    let expect = attack.project().join("expect.json");
    let mut attack = attack.arg("--expect").arg(expect);
    for arg in args {
        attack = attack.arg(*arg);
    }
    attack
}

/// The code under test calls `pytest.xfail()` in the must-pass test:
/// pytest says XFAIL and exits 0. An expected failure is no pass of a test
/// that must pass: `not_run`, and a Fail naming it under `--missing fail`.
/// Before, grading counted XFAIL as passed: PASS.
#[test]
fn xfail_in_a_must_pass_test_is_no_pass() {
    let attack = graded("xfail-must-pass", &[]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("not_run"), 125);
    assert!(
        outcome
            .reason()
            .contains("test_fix.py::test_fixed (must pass, failed as marked expected to (xfail))"),
        "{}",
        outcome.reason()
    );
    let grade = &outcome.doc()["grading"]["tests"][0];
    assert_eq!(
        (grade["grade"].as_str(), grade["results"][0].as_str()),
        (Some("not_run"), Some("xfailed")),
        "{grade:#}"
    );
    attack.assert_contained(&outcome);

    let attack = graded("xfail-must-pass", &["--missing", "fail"]);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(outcome.doc()["failing"][0], "test_fix.py::test_fixed");
    attack.assert_contained(&outcome);
}

/// The must-pass test's unittest `subTest` fails: pytest prints
/// `SUBFAILED(n=1) <id>` in its summary, the test's own line says PASSED,
/// and exits 1 (which does not decide under `--expect`). The test failed:
/// Fail, naming it. Before, the parser read only its own line: PASS.
#[test]
fn a_failed_subtest_of_a_must_pass_test_fails_it() {
    let attack = graded("subtest-must-pass", &[]);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.doc()["failing"][0],
        "test_parts.py::TestDouble::test_fixed",
        "{}",
        outcome.reason()
    );
    let kept = &outcome.doc()["grading"]["tests"][1];
    assert_eq!(kept["grade"], "passed", "{kept:#}");
    attack.assert_contained(&outcome);
}
