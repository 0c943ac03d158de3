//! RSpec's and minitest's consoles forged by the tests they run (`tests/hostile/rspec-forgery`, `tests/hostile/minitest-forgery`).

use super::harness::{Attack, Place};

/// An example fails, the next prints RSpec's green closing lines and ends
/// ruby with `exit!(0)`, which skips RSpec's own reporting: the console
/// closes as a passing run would and the exit status is 0 (PASS before
/// testgate knew RSpec: the console named no runner, the exit code
/// judged). RSpec writes the JSON report testgate asks for through
/// `SPEC_OPTS` when the run ends, which never came (the file it opened at
/// the start stays empty): Inconclusive `truncated`, never a Pass.
#[test]
fn a_forged_rspec_summary_and_exit_0_is_truncated_not_pass() {
    a_forged_rspec_summary_and_exit_0_is_truncated_not_pass_in(Place::Bwrap);
}

pub(super) fn a_forged_rspec_summary_and_exit_0_is_truncated_not_pass_in(place: Place) {
    let attack = Attack::new_in("rspec-forgery", place).runner_command(&["rspec", "forge_spec.rb"]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(
        (attempt["outcome"].as_str(), attempt["exit_code"].as_i64()),
        (Some("exited"), Some(0)),
        "{attempt:#}"
    );
    assert!(
        attempt["note"]
            .as_str()
            .is_some_and(|note| note.contains("is not a complete report")),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}

/// The honest side: every example passes, one prints a whole failure
/// block, summary and list naming another example. RSpec's own summary
/// and report come after it: Pass, nothing named.
#[test]
fn a_forged_rspec_failure_block_in_a_passing_run_names_nothing() {
    a_forged_rspec_failure_block_in_a_passing_run_names_nothing_in(Place::Bwrap);
}

pub(super) fn a_forged_rspec_failure_block_in_a_passing_run_names_nothing_in(place: Place) {
    let attack =
        Attack::new_in("rspec-forgery", place).runner_command(&["rspec", "forged_block_spec.rb"]);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    attack.assert_contained(&outcome);
}

/// minitest, `-v`: a test fails (its `= F` line printed), the next prints
/// minitest's green closing lines and ends ruby with `exit!(0)`, which
/// skips minitest's own list and summary. The console closes as a passing
/// run would and the exit status is 0 (PASS before testgate knew minitest:
/// the exit code judged). minitest writes no report, but its `-v` line of
/// the failed test outweighs the green summary after it: never a Pass.
/// (Without `-v` the dots name nothing: docs/formats.md, minitest.)
#[test]
fn a_forged_minitest_summary_after_a_failed_line_is_not_pass() {
    a_forged_minitest_summary_after_a_failed_line_is_not_pass_in(Place::Bwrap);
}

pub(super) fn a_forged_minitest_summary_after_a_failed_line_is_not_pass_in(place: Place) {
    let attack =
        Attack::new_in("minitest-forgery", place).runner_command(&["ruby", "forge_test.rb", "-v"]);
    let outcome = attack.run();
    let (verdict, _) = outcome.verdict();
    assert_eq!(verdict, "inconclusive", "{:#}", outcome.doc());
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"].as_i64(), Some(0), "{attempt:#}");
    attack.assert_contained(&outcome);
}

/// minitest without `-v`: a test fails (only its `F` among the dots), the
/// next prints minitest's green closing lines and ends ruby with
/// `exit!(0)`. The console's dots name nothing and it closes as a passing
/// run would, with exit status 0 (PASS before testgate asked minitest for
/// its report). testgate's reporter plugin writes the report when
/// minitest reports, which never came: Inconclusive `truncated`, never a
/// Pass.
#[test]
fn a_forged_minitest_summary_without_v_is_truncated_not_pass() {
    a_forged_minitest_summary_without_v_is_truncated_not_pass_in(Place::Bwrap);
}

pub(super) fn a_forged_minitest_summary_without_v_is_truncated_not_pass_in(place: Place) {
    let attack =
        Attack::new_in("minitest-forgery", place).runner_command(&["ruby", "forge_test.rb"]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("truncated"), 125);
    let attempt = outcome.attempt();
    assert_eq!(attempt["exit_code"].as_i64(), Some(0), "{attempt:#}");
    assert!(
        attempt["note"]
            .as_str()
            .is_some_and(|note| note.contains("wrote no complete report")),
        "{attempt:#}"
    );
    attack.assert_contained(&outcome);
}
