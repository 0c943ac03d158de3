//! A vitest test that forges vitest's closing on vitest's own stdout and
//! kills vitest, behind a shell that exits 0.

use super::harness::Attack;

/// `tests/hostile/vitest-forgery`: a test fails, the next writes vitest's
/// green closing (`Test Files  1 passed (1)`, `Tests  2 passed (2)`) to
/// vitest's stdout (its parent's `/proc/PID/fd/1`) and kills vitest; the
/// shell exits 0 (`sh -c 'npx --no-install vitest run; exit 0'`). vitest
/// is asked for its JSON report inside the script and writes it when the
/// run ends, which never came: Inconclusive `truncated`, never a Pass.
#[test]
fn a_forged_vitest_closing_after_killing_vitest_is_truncated_not_pass() {
    let attack = Attack::new("vitest-forgery")
        .runner_command(&["sh", "-c", "npx --no-install vitest run; exit 0"])
        .with_node_modules();
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    outcome.assert_exit_and_report(0, "missing");
    attack.assert_contained(&outcome);
}
