//! Attacks on testgate itself: interrupting it, a parent that ignores
//! SIGCHLD, two runs in one project at once.

use std::fs;
use std::time::Duration;

use super::harness::{Attack, Place};

/// Interrupts testgate with `signal` once the suite's tree is up: sent to
/// testgate alone, or to its whole process group as Ctrl-C in a terminal
/// does.
fn interrupted_by(signal: libc::c_int, to_group: bool) {
    interrupted_in(Place::Bwrap, signal, to_group);
}

/// [`interrupted_by`] in the sandbox `place`.
pub(super) fn interrupted_in(place: Place, signal: libc::c_int, to_group: bool) {
    let attack = Attack::new_in("interrupt", place).in_own_group();
    let mut running = attack.start();
    // A liveness bound: under Landlock on two loaded cores the suite took
    // over 30 s to say it was ready (10 s alone, measured).
    running.wait_for_file("ready", Duration::from_secs(120));
    // SAFETY: kill on the pid (and group) of a child not yet reaped.
    let sent = unsafe {
        if to_group {
            libc::killpg(running.pid(), signal)
        } else {
            libc::kill(running.pid(), signal)
        }
    };
    assert_eq!(sent, 0);
    let outcome = running.finish();
    outcome.assert_verdict("inconclusive", Some("cancelled"), 130);
    assert_eq!(outcome.attempt()["outcome"], "cancelled");
    attack.assert_contained(&outcome);
}

#[test]
fn sigint_ends_the_whole_tree_and_exits_130() {
    interrupted_by(libc::SIGINT, false);
}

#[test]
fn ctrl_c_to_testgates_process_group_ends_the_whole_tree_and_exits_130() {
    interrupted_by(libc::SIGINT, true);
}

#[test]
fn sighup_ends_the_whole_tree_and_exits_130() {
    interrupted_by(libc::SIGHUP, false);
}

#[test]
fn sigterm_ends_the_whole_tree_and_exits_130() {
    interrupted_by(libc::SIGTERM, false);
}

#[test]
fn a_parent_ignoring_sigchld_still_gets_the_exit_code() {
    // Set directly (pre_exec): dash's `trap "" CHLD` does not carry
    // SIG_IGN across exec (bash's does).
    let attack = Attack::new("exit-code").script_arg("3").ignoring_sigchld();
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(outcome.attempt()["exit_code"], 3);
    attack.assert_contained(&outcome);
}

#[test]
fn two_checks_at_once_of_one_project_run_one_after_the_other() {
    let attack = Attack::new("concurrent");
    // Not an extension of the first marker: scans match substrings.
    let first_marker = attack.marker();
    let second_marker = format!("{}-s", &first_marker[..first_marker.len() - 2]);
    let first = attack.start();
    let second = attack.start_as(&second_marker);
    // Each run is watched on its own thread, so both are sampled for RSS.
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| second.finish());
        (first.finish(), second.join().expect("second run"))
    });
    first.assert_verdict("pass", None, 0);
    second.assert_verdict("pass", None, 0);
    attack.assert_contained(&first);
    assert!(super::harness::processes_marked(&second_marker).is_empty());
    attack.assert_contained(&second);
}

/// A failing suite behind `npm test` replaces package.json by a FIFO on its
/// way out. package.json runs on the host by convention (npm scripts), so
/// the attempt changed the tree, named; the FIFO is put back as the file it
/// was (renamed over, never opened) before the retry reads `package.json`,
/// so testgate never blocks on it and ends within its bound, and the
/// failure both attempts name stands.
#[test]
fn a_package_json_replaced_by_a_fifo_does_not_hang_testgate() {
    let attack = Attack::new("package-json-fifo")
        .command(&["npm", "test", "--"])
        .arg("-k")
        .arg("1")
        .arg("--rerun")
        .arg("failed")
        .arg("--timeout")
        .arg("10s");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert!(
        outcome
            .reason()
            .contains("package.json (changed, runs later on the host)"),
        "{}",
        outcome.reason()
    );
    let package = attack.project().join("package.json");
    assert!(fs::symlink_metadata(&package).is_ok_and(|m| m.is_file()));
    // A FIFO read would block for ever: the harness's bound (RUN_BOUND)
    // fails a run that hangs.
    attack.assert_contained(&outcome);
}
