//! The attacks again under Landlock (`--sandbox landlock`, as `auto` picks
//! where bubblewrap cannot start), as root. Where Landlock holds the same,
//! the bubblewrap test's body runs as it is; where it holds less (no
//! private `/tmp` or home to write into, `.git` writable inside the
//! project) the test asserts what it does hold. docs/security.md has a
//! column per sandbox.

use super::harness::{Attack, Place};
use super::{escape, kernel, persistence, processes};

#[test]
fn a_fork_bomb_is_ended_at_the_timeout() {
    processes::a_fork_bomb_is_ended_at_the_timeout_in(Place::Landlock);
}

#[test]
fn ten_thousand_short_lived_children_pass() {
    processes::ten_thousand_short_lived_children_pass_in(Place::Landlock);
}

#[test]
fn a_detached_double_fork_holding_the_pipes_does_not_hang_the_run() {
    processes::a_detached_double_fork_holding_the_pipes_does_not_hang_the_run_in(Place::Landlock);
}

#[test]
fn a_child_ignoring_sigterm_is_killed_after_the_grace() {
    processes::a_child_ignoring_sigterm_is_killed_after_the_grace_in(Place::Landlock);
}

#[test]
fn a_command_that_stops_itself_times_out_and_is_ended() {
    processes::a_command_that_stops_itself_times_out_and_is_ended_in(Place::Landlock);
}

#[test]
fn a_grandchild_writing_after_the_command_exited_is_stopped_first() {
    processes::a_grandchild_writing_after_the_command_exited_is_stopped_first_in(Place::Landlock);
}

#[test]
fn proc_sys_sysrq_and_sys_are_read_only_as_root() {
    kernel::proc_sys_sysrq_and_sys_are_read_only_as_root_in(Place::Landlock);
}

#[test]
fn kernel_keyrings_are_out_of_reach_both_ways() {
    kernel::kernel_keyrings_are_out_of_reach_both_ways_in(Place::Landlock);
}

#[test]
fn vsock_packet_alg_and_other_socket_families_are_refused() {
    kernel::vsock_packet_alg_and_other_socket_families_are_refused_in(Place::Landlock);
}

#[test]
fn writes_through_symlinks_pointing_outside_fail() {
    escape::writes_through_symlinks_pointing_outside_fail_in(Place::Landlock);
}

#[test]
fn planted_secrets_and_canaries_are_unreadable() {
    escape::planted_secrets_and_canaries_are_unreadable_in(Place::Landlock);
}

#[test]
fn the_hosts_loopback_unix_sockets_and_dns_are_unreachable() {
    escape::the_hosts_loopback_unix_sockets_and_dns_are_unreachable_in(Place::Landlock);
}

/// Under Landlock the homes and `/tmp` are not the run's own: writing
/// there is refused like writing to `/etc`, rather than landing in a tmpfs.
#[test]
fn writes_to_etc_home_tmp_and_outside_the_project_fail() {
    let attack = Attack::new_in("writes-outside", Place::Landlock);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    for refused in ["could not write /etc/", "could not write /usr/"] {
        assert!(
            outcome.reason().contains(refused),
            "{refused}: {}",
            outcome.reason()
        );
    }
    assert!(
        !outcome.reason().contains("wrote the private"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

/// Landlock cannot make `.git` read-only inside the writable project: the
/// hook, `core.fsmonitor`, `core.hooksPath` and aliases are planted, and
/// found after the attempt (Inconclusive `tree_changed`) and, with
/// `--restore`, put back, so host git runs none of them.
#[test]
fn hooks_fsmonitor_and_aliases_planted_in_git_are_found_and_restored() {
    let attack = Attack::new_in("git-hooks", Place::Landlock).arg("--restore");
    let project = attack.project();
    persistence::git_ok(project, &["init", "-q"]);
    persistence::git_ok(project, &["add", "-A"]);
    persistence::git_ok(project, &["commit", "-q", "-m", "the suite"]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    for planted in [".git/config", ".git/hooks/pre-commit"] {
        assert!(
            outcome.reason().contains(planted),
            "{planted}: {}",
            outcome.reason()
        );
    }
    persistence::host_git_runs_nothing_planted(&attack);
    attack.assert_contained(&outcome);
}
