//! A `node --test` test that prints failure lines for a test that does
//! not exist.

use super::harness::Attack;

/// `tests/hostile/node-forgery`'s `ghost.test.js`: a test fails for real;
/// a passing test prints a TAP `not ok 7 - ghost test` block and a spec
/// `✖ ghost test` line (`node --test ghost.test.js`). node prefixes a test
/// file's own output with `# `: Fail naming `fails` alone.
#[test]
fn a_failure_block_a_passing_node_test_prints_names_nothing() {
    let attack = Attack::new("node-forgery").runner_command(&["node", "--test", "ghost.test.js"]);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        outcome.doc()["failing"],
        serde_json::json!(["fails"]),
        "{}",
        outcome.doc()
    );
    attack.assert_contained(&outcome);
}
