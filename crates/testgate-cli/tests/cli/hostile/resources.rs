//! Resource attacks: filling /tmp, a memory bomb.

use super::harness::{Attack, heavy};

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
fn a_capped_memory_bomb_is_a_failure_by_exit_not_a_timeout() {
    let _heavy = heavy();
    let attack = Attack::new("memory-bomb");
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
