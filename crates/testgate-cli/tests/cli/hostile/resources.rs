//! Resource attacks: filling /tmp and the other tmpfs mounts, a memory
//! bomb.

use super::harness::{Attack, Place, heavy};

#[test]
fn filling_tmp_fills_only_the_sandboxs_own() {
    let _heavy = heavy();
    let attack = Attack::new("fill-tmp").script_arg("256");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    // The host's /tmp holds nothing named with the marker (the file was
    // written under it inside): assert_host_unchanged checks.
    attack.assert_contained(&outcome);
}

#[test]
fn filling_tmp_past_its_cap_is_a_failure_with_the_reason() {
    let _heavy = heavy();
    let attack = Attack::new("fill-tmp")
        .arg("--tmpfs-size")
        .arg("64M")
        .script_arg("256");
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert!(
        outcome.reason().contains("No space left on device"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn the_tmpfs_mounts_are_capped_at_a_gibibyte_by_default_and_dev_is_read_only() {
    let attack = Attack::new("tmpfs-size")
        .script_arg((1u64 << 20).to_string())
        .script_arg("1");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome.reason().contains("capped: /dev/shm at 1048576 KiB"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn every_tmpfs_mount_stops_at_the_chosen_cap() {
    let _heavy = heavy();
    let attack = Attack::new("tmpfs-size")
        .arg("--tmpfs-size")
        .arg("64M")
        .script_arg((64u64 << 10).to_string())
        .script_arg("256");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome
            .reason()
            .contains("filled: /dev/shm stopped at 65536 KiB"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_capped_memory_bomb_is_a_failure_by_exit_not_a_timeout() {
    a_capped_memory_bomb_is_a_failure_by_exit_not_a_timeout_in(Place::Bwrap);
}

pub(super) fn a_capped_memory_bomb_is_a_failure_by_exit_not_a_timeout_in(place: Place) {
    let _heavy = heavy();
    let attack = Attack::new_in("memory-bomb", place);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let attempt = outcome.attempt();
    assert_eq!(attempt["outcome"], "exited", "{attempt:#}");
    assert_ne!(attempt["exit_code"], 0);
    assert!(
        outcome
            .reason()
            .contains("the memory bomb ended with status"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}
