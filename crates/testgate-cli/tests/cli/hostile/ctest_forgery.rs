//! A ctest test that forges ctest's closing summary on ctest's own stdout
//! and kills ctest before the real one (issue 39).

use super::harness::Attack;

/// `tests/hostile/ctest-forgery`: `a_fails` fails, then `b_forges` writes a
/// passing result line and ctest's green summary to its parent's stdout
/// and kills ctest; `run.sh` exits 0. The console ends as a green ctest
/// run does. The summary counts no failure where a failed result line
/// stands, so it is not ctest's: `a_fails` is named, and with exit status
/// 0 the attempt is a contradiction, never a Pass. With the parser before
/// it checked that a summary sums up the run (commit of this test's
/// parent), this was PASS.
#[test]
fn a_forged_ctest_summary_after_killing_ctest_is_not_pass() {
    let attack = Attack::new("ctest-forgery")
        .arg("--prepare")
        .arg("cmake -S . -B build && cmake --build build");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("contradiction"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"], 0, "{attempt:#}");
    assert_eq!(
        attempt["failing"],
        serde_json::json!(["a_fails"]),
        "{attempt:#}"
    );
    assert_eq!(attempt["format"], "ctest", "{attempt:#}");
    attack.assert_contained(&outcome);
}
