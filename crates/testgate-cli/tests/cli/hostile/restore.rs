//! The tree is left as submitted: every attempt starts from it and nothing
//! a check leaves can change a later one (docs/sandbox.md, "The tree is
//! the tree"). Each test runs under bubblewrap and under Landlock, as root.

use std::fs;

use super::harness::{Attack, Place};

const PLACES: [Place; 2] = [Place::Bwrap, Place::Landlock];

const PYTEST: &[&str] = &["python3", "-m", "pytest", "-q"];

/// What `check-leaves`'s `test_plants` writes.
const PLANTS: &[&str] = &[
    ".pytest.ini",
    "pyproject.toml",
    ".config/nextest.toml",
    ".config",
    "jest.config.js",
    "go.work",
    "Justfile",
    ".python-version",
    "pytest.py",
    "conftest.py",
    "Makefile",
];

/// A passing check whose tests plant what a later pytest, nextest, jest,
/// go, just, pyenv or make reads: every plant is gone after the check,
/// and the next check, of a commit that breaks `test_math`, is a Fail
/// naming it. Before: the plants stayed (`--restore` was not the
/// default), and the second check passed (pytest.py answered `1 passed`
/// for `python -m pytest`, the conftest dropped the test).
#[test]
fn what_a_passing_check_plants_is_gone_and_the_next_broken_check_fails() {
    for place in PLACES {
        let attack = Attack::new_in("check-leaves", place).runner_command(PYTEST);
        let first = attack.run();
        // What runs later was planted: no evidence of a pass.
        first.assert_verdict("inconclusive", Some("tree_changed"), 125);
        assert!(
            first
                .reason()
                .contains("conftest.py (added, runs later on the host)"),
            "{place:?}: {}",
            first.reason()
        );
        for plant in PLANTS.iter().chain(&[".pytest_cache"]) {
            assert!(
                fs::symlink_metadata(attack.project().join(plant)).is_err(),
                "{place:?}: {plant} was left"
            );
        }
        attack.assert_contained(&first);

        let test = attack.project().join("test_gate.py");
        let broken = fs::read_to_string(&test)
            .expect("read the test")
            .replace("assert 2 + 2 == 4", "assert 2 + 2 == 5");
        fs::write(&test, broken).expect("break the test");
        let second_marker = format!("{}-b", &attack.marker()[..attack.marker().len() - 2]);
        let second = attack.start_as(&second_marker).finish();
        second.assert_verdict("fail", None, 1);
        assert_eq!(
            second.doc()["failing"],
            serde_json::json!(["test_gate.py::test_math"]),
            "{place:?}"
        );
        attack.assert_contained(&second);
    }
}

/// One test regenerates a tracked fixture, another is flaky for reasons
/// outside the tree: with `-k 2` the retry runs (on the tree as
/// submitted, the fixture put back) and the verdict is `flaky`, the
/// fixture as submitted afterwards. Before: Fail after one attempt ("the
/// sequence stops at the first change").
#[test]
fn a_flaky_test_beside_a_fixture_writer_is_flaky_with_retries() {
    for place in PLACES {
        let attack = Attack::new_in("writer-beside-flaky", place)
            .runner_command(PYTEST)
            .arg("-k")
            .arg("2");
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("flaky"), 125);
        let doc = outcome.doc();
        assert_eq!(doc["attempts"].as_array().map(Vec::len), Some(2), "{doc:#}");
        assert_eq!(doc["tree"]["changed"], serde_json::json!(["fixture.json"]));
        assert!(
            outcome
                .reason()
                .contains("it changed the tree it was judging: fixture.json (changed)"),
            "{}",
            outcome.reason()
        );
        assert_eq!(
            fs::read_to_string(attack.project().join("fixture.json")).expect("fixture"),
            "{\"generated\": \"by hand\"}\n",
            "{place:?}"
        );
        attack.assert_contained(&outcome);
    }
}

/// An honest suite that leaves an empty `.benchmarks/` (pytest-benchmark's
/// habit) passes and fails as its tests say; the folder is removed and
/// noted. Before: Inconclusive `tree_changed` for the passing one.
#[test]
fn an_empty_benchmarks_folder_costs_no_verdict() {
    for place in PLACES {
        for (expect, verdict, code) in [("4", "pass", 0), ("5", "fail", 1)] {
            let attack = Attack::new_in("benchmarks-folder", place)
                .runner_command(PYTEST)
                .arg("--env")
                .arg(format!("EXPECT={expect}"));
            let outcome = attack.run();
            outcome.assert_verdict(verdict, None, code);
            if verdict == "fail" {
                assert_eq!(
                    outcome.doc()["failing"],
                    serde_json::json!(["test_calc.py::test_math"])
                );
            }
            assert!(outcome.doc()["tree"].is_null(), "{:#}", outcome.doc());
            let notes = outcome.doc()["findings"]["notes"].to_string();
            assert!(notes.contains(".benchmarks"), "{place:?}: {notes}");
            assert!(!attack.project().join(".benchmarks").exists());
            attack.assert_contained(&outcome);
        }
    }
}

/// A test rewrites a recorded file in place with other bytes of the same
/// size and sets its modification time back; with `--keep-changes` the
/// forged file stays. The next check, of that tree, whose test writes the
/// submitted bytes back, must see that change: the record reads a file
/// again wherever its status-change time moved (docs/sandbox.md, "The
/// tree is the tree"). A record that trusted what an earlier check learnt
/// by device, inode, size and modification time alone held the submitted
/// bytes for the forged file, saw nothing change, and passed.
#[test]
fn a_file_rewritten_and_restamped_is_read_again_by_the_next_check() {
    for place in PLACES {
        let mut attack = Attack::new_in("restamped", place)
            .keeping_changes()
            .script_arg("forge");
        let first = attack.run();
        first.assert_verdict("inconclusive", Some("tree_changed"), 125);
        let data = attack.project().join("data.txt");
        assert_eq!(
            fs::read_to_string(&data).expect("data"),
            "expected answer: 41\n",
            "{place:?}"
        );
        attack.assert_contained(&first);

        attack.set_script_args(&["undo"]);
        let second_marker = format!("{}-b", &attack.marker()[..attack.marker().len() - 2]);
        let second = attack.start_as(&second_marker).finish();
        second.assert_verdict("inconclusive", Some("tree_changed"), 125);
        assert!(
            second.reason().contains("data.txt (changed)"),
            "{place:?}: {}",
            second.reason()
        );
        attack.assert_contained(&second);
    }
}
