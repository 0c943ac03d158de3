//! The attacks again under Landlock (`--sandbox landlock`, as `auto` picks
//! where bubblewrap cannot start), as root. Where Landlock holds the same,
//! the bubblewrap test's body runs as it is; where it holds less (no
//! private `/tmp` or home to write into, `.git` writable inside the
//! project) the test asserts what it does hold. docs/security.md has a
//! column per sandbox.

use std::fs;

use super::harness::{Attack, Place, heavy};
use super::{
    caches, escape, integrity, itself, kernel, lies, output, persistence, processes, resources,
};
use super::{phpunit_forgery, ruby_forgery};

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

#[test]
fn a_suite_reaches_its_own_loopback_servers_and_not_the_hosts() {
    escape::a_suite_reaches_its_own_loopback_servers_and_not_the_hosts_in(Place::Landlock);
}

/// As a container's root (no `CAP_SYS_ADMIN`): the command's loopback is
/// that of a user namespace of its own, its ids mapped to themselves.
#[test]
fn a_suite_reaches_its_own_loopback_servers_and_not_the_hosts_without_cap_sys_admin() {
    escape::own_loopback_and_not_the_hosts(Attack::without_sys_admin("own-loopback"));
}

/// Default options inside a container, where no network namespace can be
/// made at all (`tests/containers/without-namespaces`): the loopback is
/// supervised (docs/sandbox.md, "A supervised loopback"), so the suite's
/// own server answers and the host's listener hears nothing. On the
/// previous code every connect was refused: the suite's own server was
/// unreachable and it failed.
#[test]
fn a_suite_reaches_its_own_loopback_servers_and_not_the_hosts_in_a_container() {
    escape::own_loopback_and_not_the_hosts(Attack::in_a_container("own-loopback"));
}

/// The supervisor's time-of-check race: one sockaddr whose port a thread
/// flips between the suite's own listener and the host's while the suite
/// connects with it 2,000 times. testgate connects to its own copy of the
/// address, so the host's listener hears nothing; the refusals (about
/// half) are a flood: Inconclusive `environment`.
#[test]
fn a_swapped_address_never_reaches_the_hosts_loopback_in_a_container() {
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").expect("tcp listener");
    let attack = Attack::in_a_container("loopback-swap")
        .script_arg(tcp.local_addr().expect("addr").port().to_string());
    let outcome = attack.run();
    tcp.set_nonblocking(true).expect("nonblocking");
    assert_eq!(
        tcp.accept().map(|_| ()).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::WouldBlock),
        "the host listener heard from the sandbox: {}",
        outcome.reason()
    );
    outcome.assert_verdict("inconclusive", Some("environment"), 125);
    attack.assert_contained(&outcome);
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

#[test]
fn a_flood_on_both_streams_keeps_testgate_small() {
    output::a_flood_on_both_streams_keeps_testgate_small_in(Place::Landlock);
}

#[test]
fn one_endless_line_keeps_testgate_small() {
    output::one_endless_line_keeps_testgate_small_in(Place::Landlock);
}

#[test]
fn control_bytes_leave_the_json_valid_and_printable() {
    output::control_bytes_leave_the_json_valid_and_printable_in(Place::Landlock);
}

#[test]
fn output_closed_early_is_not_the_end_of_the_command() {
    output::output_closed_early_is_not_the_end_of_the_command_in(Place::Landlock);
}

#[test]
fn a_failing_suite_claiming_success_fails() {
    lies::a_failing_suite_claiming_success_fails_in(Place::Landlock);
}

#[test]
fn exit_zero_with_failed_lines_is_a_contradiction() {
    lies::exit_zero_with_failed_lines_is_a_contradiction_in(Place::Landlock);
}

#[test]
fn a_test_that_exits_the_runner_early_is_truncated_not_pass() {
    lies::a_test_that_exits_the_runner_early_is_truncated_not_pass_in(Place::Landlock);
}

/// The tree check is the sandbox's neighbour, not part of it: an edited
/// assertion, a deleted test file and a planted `.cargo/config.toml` are
/// found and put back under Landlock as under bubblewrap.
#[test]
fn edited_deleted_and_planted_files_are_tree_changed_and_restored() {
    for (what, path) in [
        ("edit", "test_math.sh"),
        ("delete", "test_math.sh (deleted)"),
    ] {
        let restored = integrity::attack_in(Place::Landlock, what, true, path);
        assert_eq!(
            fs::read_to_string(restored.project().join("test_math.sh")).expect("read"),
            integrity::ASSERTION,
            "{what}"
        );
    }
    let left = integrity::attack_in(
        Place::Landlock,
        "cargo",
        false,
        ".cargo/config.toml (added, runs later on the host)",
    );
    assert!(left.project().join(".cargo/config.toml").exists());
    let restored = integrity::attack_in(Place::Landlock, "cargo", true, ".cargo/config.toml");
    assert!(!restored.project().join(".cargo/config.toml").exists());
}

/// `.git` is writable inside the project under Landlock: a commit from
/// inside moves HEAD (under bubblewrap it is refused). What holds: the
/// edit it committed is still a change to the tree judged (Inconclusive
/// `tree_changed`), and `--restore` puts the file back; the history keeps
/// the commit (not promised: docs/security.md).
#[test]
fn a_test_that_commits_from_inside_moves_head_yet_is_tree_changed_and_restored() {
    let attack = Attack::new_in("tree-changes", Place::Landlock)
        .script_arg("commit")
        .arg("--restore");
    let project = attack.project().to_path_buf();
    integrity::git(&project, &["init", "-q"]);
    integrity::git(&project, &["add", "-A"]);
    integrity::git(&project, &["commit", "-q", "-m", "the suite"]);
    let head = integrity::git(&project, &["rev-parse", "HEAD"]);
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome.reason().contains("test_math.sh"),
        "{}",
        outcome.reason()
    );
    assert_ne!(
        integrity::git(&project, &["rev-parse", "HEAD"]),
        head,
        "the commit from inside was refused: Landlock holds more than the docs say"
    );
    assert_eq!(
        fs::read_to_string(project.join("test_math.sh")).expect("read"),
        integrity::ASSERTION,
        "--restore puts the file back"
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_failing_suite_that_edits_the_tree_is_a_fail_yet_restored() {
    let (attack, outcome, _) = integrity::failing_attack_in(Place::Landlock, "edit", true);
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(outcome.doc()["failing"], serde_json::json!(["tests::adds"]));
    assert_eq!(
        fs::read_to_string(attack.project().join("test_math.sh")).expect("read"),
        integrity::ASSERTION
    );
}

#[test]
fn a_capped_memory_bomb_is_a_failure_by_exit_not_a_timeout() {
    resources::a_capped_memory_bomb_is_a_failure_by_exit_not_a_timeout_in(Place::Landlock);
}

/// Under Landlock there is no `/tmp` of the run's own to fill: writing to
/// `/tmp` by name is refused (the suite fails), and the host's `/tmp` holds
/// nothing of it. The attempt's `TMPDIR` lies on the host's disk, uncapped
/// (`--tmpfs-size` is bubblewrap's): docs/security.md.
#[test]
fn filling_tmp_is_refused_and_leaves_the_hosts_untouched() {
    let _heavy = heavy();
    let attack = Attack::new_in("fill-tmp", Place::Landlock).script_arg("256");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert!(
        outcome.reason().contains("Permission denied"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn the_hosts_caches_are_readable_and_nothing_can_be_planted_in_them() {
    caches::the_hosts_caches_are_readable_and_nothing_can_be_planted_in_them_in(Place::Landlock);
}

#[test]
fn the_home_is_an_allowlist_and_caches_are_private() {
    escape::the_home_is_an_allowlist_and_caches_are_private_in(Place::Landlock);
}

#[test]
fn remounts_and_nested_user_namespaces_fail_as_root() {
    escape::remounts_and_nested_user_namespaces_fail_as_root_in(Place::Landlock);
}

#[test]
fn tiocsti_cannot_push_input_into_the_callers_terminal() {
    escape::tiocsti_cannot_push_input_into_the_callers_terminal_in(Place::Landlock);
}

#[test]
fn sigint_ends_the_whole_tree_and_exits_130() {
    itself::interrupted_in(Place::Landlock, libc::SIGINT, false);
}

#[test]
fn ctrl_c_to_testgates_process_group_ends_the_whole_tree_and_exits_130() {
    itself::interrupted_in(Place::Landlock, libc::SIGINT, true);
}

/// Landlock governs what a file holds, not what it is: a test may change
/// the mode (not to set-user-ID or set-group-ID: the seccomp filter
/// refuses those bits) and the times of any file its user owns, outside
/// the project too, even one it cannot read (not promised:
/// docs/security.md). `chown` is refused (no capability); the contents
/// hold. Asserted as it is, so that a fix shows here.
#[test]
fn a_file_outside_keeps_its_contents_and_owner_but_not_its_mode_and_times() {
    let attack = Attack::new_in("metadata", Place::Landlock);
    let (mode, uid, mtime) = escape::victim_metadata(&attack);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let reason = outcome.reason();
    for line in [
        "SUCCEEDED: chmod 0666",
        "refused: chmod 4755",
        "refused: chown 65534",
        "SUCCEEDED: touch -m -d",
    ] {
        assert!(reason.contains(line), "{line}: {reason}");
    }
    let (mode_after, uid_after, mtime_after) = escape::victim_metadata(&attack);
    assert_eq!(uid_after, uid);
    assert_eq!(mode_after & 0o7777, 0o666, "{mode:o}");
    assert_ne!(mtime_after, mtime);
    attack.assert_contained(&outcome);
}

/// An attempt's `TMPDIR` is the same path in the next check of the project
/// (jest's transform cache is keyed on it), but it starts empty every time:
/// a file planted in it, jest's cache link pointed at a forged cache in the
/// project and a child recreating the directory after the run all stay
/// behind; and a directory someone planted at that path on the host
/// beforehand is passed over, not used.
#[test]
fn the_next_attempts_temporary_directory_starts_empty() {
    let attack = Attack::new_in("attempt-tmpdir", Place::Landlock).keeping_changes();
    let found = |n: u32| {
        let text = fs::read_to_string(attack.project().join(format!("found-{n}.txt")))
            .expect("what the suite found");
        let tmpdir = text
            .lines()
            .find_map(|line| line.strip_prefix("tmpdir="))
            .expect("the suite's TMPDIR")
            .to_owned();
        (tmpdir, text)
    };
    let clean = |text: &str| {
        assert!(!text.contains("planted-"), "{text}");
        assert!(!text.contains("late-"), "{text}");
        assert!(!text.contains("forged-cache"), "{text}");
        assert!(text.contains("link="), "jest's cache link: {text}");
    };
    for n in 1..=2 {
        let outcome = attack.run();
        outcome.assert_verdict("pass", None, 0);
        attack.assert_contained(&outcome);
        let (tmpdir, text) = found(n);
        clean(&text);
        assert!(
            !std::path::Path::new(&tmpdir).exists(),
            "{tmpdir} left behind"
        );
    }
    let (first, _) = found(1);
    let (second, _) = found(2);
    assert_eq!(first, second, "the next check's TMPDIR is the same path");

    // Someone on the host plants the directory before the next check.
    fs::create_dir(&first).expect("the planted directory");
    fs::write(format!("{first}/planted-on-the-host"), "forged").expect("planted file");
    std::os::unix::fs::symlink(
        attack.project().join("forged-cache"),
        format!("{first}/jest_0"),
    )
    .expect("planted link");
    let outcome = attack.run();
    let _ = fs::remove_dir_all(&first);
    outcome.assert_verdict("pass", None, 0);
    attack.assert_contained(&outcome);
    let (third, text) = found(3);
    assert_ne!(third, first, "the planted directory was used");
    assert!(!text.contains("planted-on-the-host"), "{text}");
    clean(&text);
}

#[test]
fn a_forged_rspec_summary_and_exit_0_is_truncated_not_pass() {
    ruby_forgery::a_forged_rspec_summary_and_exit_0_is_truncated_not_pass_in(Place::Landlock);
}

#[test]
fn a_forged_rspec_failure_block_in_a_passing_run_names_nothing() {
    ruby_forgery::a_forged_rspec_failure_block_in_a_passing_run_names_nothing_in(Place::Landlock);
}

#[test]
fn a_forged_minitest_summary_after_a_failed_line_is_not_pass() {
    ruby_forgery::a_forged_minitest_summary_after_a_failed_line_is_not_pass_in(Place::Landlock);
}

#[test]
fn a_forged_minitest_summary_without_v_is_truncated_not_pass() {
    ruby_forgery::a_forged_minitest_summary_without_v_is_truncated_not_pass_in(Place::Landlock);
}

#[test]
fn a_forged_phpunit_summary_and_exit_0_is_truncated_not_pass() {
    phpunit_forgery::a_forged_phpunit_summary_and_exit_0_is_truncated_not_pass_in(Place::Landlock);
}

#[test]
fn a_defect_list_a_passing_phpunit_test_prints_names_nothing() {
    phpunit_forgery::a_defect_list_a_passing_phpunit_test_prints_names_nothing_in(Place::Landlock);
}
