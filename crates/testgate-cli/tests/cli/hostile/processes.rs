//! Attacks on the process tree: bombs, detaching, ignoring and stopping.

use super::harness::{Attack, Place, heavy};

#[test]
fn a_fork_bomb_is_ended_at_the_timeout() {
    a_fork_bomb_is_ended_at_the_timeout_in(Place::Bwrap);
}

/// [`a_fork_bomb_is_ended_at_the_timeout`] in `place`.
pub(super) fn a_fork_bomb_is_ended_at_the_timeout_in(place: Place) {
    let _heavy = heavy();
    let attack = Attack::new_in("fork-bomb", place)
        .arg("--timeout")
        .arg("4s");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("timed_out"), 125);
    assert_eq!(outcome.attempt()["outcome"], "timed_out");
    // Ending ~4,000 processes takes a while on two loaded cores (about
    // 12-16 s measured with the debug build); that it ends at all is the
    // harness's bound (RUN_BOUND), not a speed claim.
    attack.assert_contained(&outcome);
}

#[test]
fn ten_thousand_short_lived_children_pass() {
    ten_thousand_short_lived_children_pass_in(Place::Bwrap);
}

/// [`ten_thousand_short_lived_children_pass`] in `place`.
pub(super) fn ten_thousand_short_lived_children_pass_in(place: Place) {
    let _heavy = heavy();
    let attack = Attack::new_in("many-children", place);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome.reason().contains("forked 10000 children"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_detached_double_fork_holding_the_pipes_does_not_hang_the_run() {
    a_detached_double_fork_holding_the_pipes_does_not_hang_the_run_in(Place::Bwrap);
}

/// [`a_detached_double_fork_holding_the_pipes_does_not_hang_the_run`] in `place`.
pub(super) fn a_detached_double_fork_holding_the_pipes_does_not_hang_the_run_in(place: Place) {
    let attack = Attack::new_in("setsid-pipe", place);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    // The drain window is 1 s; the sleepers would hold the pipes 1000 s,
    // far past the harness's bound (RUN_BOUND), which fails a run that hangs.
    attack.assert_contained(&outcome);
}

#[test]
fn a_child_ignoring_sigterm_is_killed_after_the_grace() {
    a_child_ignoring_sigterm_is_killed_after_the_grace_in(Place::Bwrap);
}

/// [`a_child_ignoring_sigterm_is_killed_after_the_grace`] in `place`.
pub(super) fn a_child_ignoring_sigterm_is_killed_after_the_grace_in(place: Place) {
    let attack = Attack::new_in("ignores-sigterm", place)
        .arg("--timeout")
        .arg("2s");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("timed_out"), 125);
    // 2 s timeout + 2 s grace + startup; the children would run for ever,
    // past the harness's bound (RUN_BOUND), which fails a run that hangs.
    attack.assert_contained(&outcome);
}

#[test]
fn a_command_that_stops_itself_times_out_and_is_ended() {
    a_command_that_stops_itself_times_out_and_is_ended_in(Place::Bwrap);
}

/// [`a_command_that_stops_itself_times_out_and_is_ended`] in `place`.
pub(super) fn a_command_that_stops_itself_times_out_and_is_ended_in(place: Place) {
    let attack = Attack::new_in("stops-itself", place)
        .arg("--timeout")
        .arg("2s");
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("timed_out"), 125);
    attack.assert_contained(&outcome);
}

#[test]
fn kill_minus_one_from_inside_reaches_only_the_sandbox() {
    kill_minus_one_from_inside_reaches_only_the_sandbox_in(Place::Bwrap);
}

/// [`kill_minus_one_from_inside_reaches_only_the_sandbox`] in `place`.
pub(super) fn kill_minus_one_from_inside_reaches_only_the_sandbox_in(place: Place) {
    let attack = Attack::new_in("kill-all", place);
    let outcome = attack.run();
    // Linux spares the caller and the namespace's init; everything else in
    // the sandbox dies, and nothing outside it (this test process is alive).
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome
            .reason()
            .contains("still alive after kill -9 -1; the sleeper ended with 137"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_grandchild_writing_after_the_command_exited_is_stopped_first() {
    a_grandchild_writing_after_the_command_exited_is_stopped_first_in(Place::Bwrap);
}

/// [`a_grandchild_writing_after_the_command_exited_is_stopped_first`] in `place`.
/// Two modes: a grandchild that writes a second after the command exited,
/// and one that writes from its SIGTERM handler. The second wrote with
/// every version that ended leftovers by SIGTERM and a grace (under
/// Landlock, where no PID namespace takes them down with the command); the
/// leftovers are now stopped as soon as they are found, then killed.
pub(super) fn a_grandchild_writing_after_the_command_exited_is_stopped_first_in(place: Place) {
    for mode in ["late", "trap"] {
        let attack = Attack::new_in("late-writer", place).script_arg(mode);
        let outcome = attack.run();
        outcome.assert_verdict("pass", None, 0);
        // Once nothing of the run is alive (asserted here), nothing can write.
        attack.assert_contained(&outcome);
        assert!(
            !attack.project().join("late.txt").exists(),
            "{mode}: a process of the run wrote into the project after the run ended"
        );
    }
}
