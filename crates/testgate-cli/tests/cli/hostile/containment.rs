//! One containment for every sandbox: a run's processes are the
//! descendants of the run's reaper, a child subreaper, as the kernel keeps
//! them; none outlives `testgate check`, however it detached and whatever
//! it dropped (its environment). Each attack runs under bubblewrap and
//! under Landlock.

use super::harness::{Attack, Place, processes_marked};
use super::persistence;

#[test]
fn a_survivor_without_the_runs_environment_is_dead_when_check_returns_bwrap() {
    a_survivor_without_the_runs_environment_is_dead_when_check_returns_in(Place::Bwrap);
}

#[test]
fn a_survivor_without_the_runs_environment_is_dead_when_check_returns_landlock() {
    a_survivor_without_the_runs_environment_is_dead_when_check_returns_in(Place::Landlock);
}

/// `env -i sh -c '…' &`: a detached grandchild that carries nothing of the
/// run, waits 3 s and plants `.git/hooks/pre-commit`. Under Landlock it
/// outlived testgate with every version that found a run's processes by a
/// variable of their environment, and planted the hook after the PASS.
/// It must be gone the moment `testgate check` returns: then it cannot
/// plant anything later (no waiting on the clock here).
fn a_survivor_without_the_runs_environment_is_dead_when_check_returns_in(place: Place) {
    let attack = Attack::new_in("survivor", place).script_arg("plant");
    persistence::git_ok(attack.project(), &["init", "-q"]);
    let outcome = attack.run();
    let alive = processes_marked(attack.marker());
    assert!(
        alive.is_empty(),
        "processes of the run outlived testgate check: {alive:#?}"
    );
    outcome.assert_verdict("pass", None, 0);
    assert!(
        !attack.project().join(".git/hooks/pre-commit").exists(),
        "a survivor planted a hook"
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_survivor_of_one_check_cannot_swap_code_in_during_a_later_one_bwrap() {
    a_survivor_of_one_check_cannot_swap_code_in_during_a_later_one_in(Place::Bwrap);
}

#[test]
fn a_survivor_of_one_check_cannot_swap_code_in_during_a_later_one_landlock() {
    a_survivor_of_one_check_cannot_swap_code_in_during_a_later_one_in(Place::Landlock);
}

/// A failing check leaves an `env -i` survivor; it waits for a later check
/// of the project, swaps the correct code in while that check runs it, and
/// the later check puts the bytes and mtime back before testgate compares
/// the tree. With a survivor of the first check (under Landlock) the
/// second passed a broken project with no tree change, in whichever
/// sandbox it ran (the survivor is outside it). The second check must
/// fail.
fn a_survivor_of_one_check_cannot_swap_code_in_during_a_later_one_in(place: Place) {
    let mut attack = Attack::new_in("survivor", place).script_arg("leave");
    let first = attack.run();
    first.assert_verdict("fail", None, 1);
    let alive = processes_marked(attack.marker());
    assert!(
        alive.is_empty(),
        "processes of the first check outlived it: {alive:#?}"
    );
    attack.set_script_args(&["later"]);
    let later = format!("{}-later", attack.marker());
    let second = attack.start_as(&later).finish();
    assert!(
        !second.reason().contains("swapped the code in"),
        "{}",
        second.reason()
    );
    second.assert_verdict("fail", None, 1);
    attack.assert_contained(&second);
}
