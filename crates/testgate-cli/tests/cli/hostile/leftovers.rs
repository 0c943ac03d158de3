//! Leftovers: what a passing suite leaves in the project that runs later
//! (a setuid shell, a shim's target, a toolchain file, bytecode…), what it
//! changes where the old snapshot did not look (folders named like ignored
//! ones, modes, xattrs, a tree deeper than PATH_MAX), and a preparation that
//! rewrites the test. Each must come out Inconclusive `tree_changed` (or
//! `tree_unreadable`) naming what it did, never PASS.

use std::fs;
use std::path::Path;

use super::harness::{Attack, Outcome};

fn write(root: &Path, path: &str, body: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, body).expect("write");
}

/// The `leftovers` suite's attack `what`, its project prepared by `setup`.
fn run(what: &str, setup: impl FnOnce(&Path)) -> (Attack, Outcome) {
    let attack = Attack::new("leftovers").script_arg(what);
    write(attack.project(), "lib/util.py", "X = 1\n");
    setup(attack.project());
    let outcome = attack.run();
    (attack, outcome)
}

/// Asserts tree_changed naming every one of `paths` in the reason and the
/// JSON's `tree`.
fn assert_tree_changed(attack: &Attack, outcome: &Outcome, paths: &[&str]) {
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    let tree = outcome.doc()["tree"].to_string();
    for path in paths {
        assert!(outcome.reason().contains(path), "{}", outcome.reason());
        let bare = path.split(" (").next().unwrap_or(path);
        assert!(tree.contains(bare), "{tree}");
    }
    attack.assert_contained(outcome);
}

fn attack(what: &str, paths: &[&str]) {
    let (attack, outcome) = run(what, |_| {});
    assert_tree_changed(&attack, &outcome, paths);
}

/// The sandbox refuses the set-id bit (`chmod 4755`), so the copy of the
/// shell is a plain executable: it costs nothing of its own (a set-id file
/// would: `project_tree::tests::what_runs_later_is_judged_wherever_it_appears`)
/// and is removed; the folder made 0777 is `tree_changed`.
#[test]
fn a_setuid_shell_and_a_world_writable_folder_are_tree_changed() {
    let (attack, outcome) = run("setuid", |_| {});
    assert_tree_changed(&attack, &outcome, &["lib (changed)"]);
    let shell = attack.project().join(format!("rootsh-{}", attack.marker()));
    assert!(!shell.exists(), "{} was left", shell.display());
}

/// The file a `node_modules/.bin` shim points at, rewritten: refused,
/// since `node_modules` is read-only in the attempts (issue 34; before,
/// the write landed and the tree check found it: `tree_changed`).
#[test]
fn a_shim_targets_file_cannot_be_rewritten() {
    let (attack, outcome) = run("shim", |root| {
        write(root, "package.json", "{}\n");
        write(root, "node_modules/jest/bin/jest.js", "// jest\n");
        fs::create_dir_all(root.join("node_modules/.bin")).expect("mkdir");
        std::os::unix::fs::symlink("../jest/bin/jest.js", root.join("node_modules/.bin/jest"))
            .expect("shim");
    });
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome
            .reason()
            .contains("cannot create node_modules/jest/bin/jest.js"),
        "{}",
        outcome.reason()
    );
    assert_eq!(
        fs::read_to_string(attack.project().join("node_modules/jest/bin/jest.js")).expect("kept"),
        "// jest\n"
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_planted_toolchain_file_is_tree_changed() {
    attack(
        "toolchain",
        &["rust-toolchain.toml (added, runs later on the host)"],
    );
}

#[test]
fn a_planted_npmrc_is_tree_changed() {
    attack("npmrc", &[".npmrc (added, runs later on the host)"]);
}

#[test]
fn a_module_that_shadows_pytest_is_tree_changed() {
    attack("pytest", &["pytest.py (added, runs later on the host)"]);
}

#[test]
fn forged_bytecode_is_tree_changed() {
    let (attack, outcome) = run("pyc", |root| {
        write(root, "pkg/__init__.py", "");
        write(root, "pkg/mod.py", "VALUE = 5\n");
    });
    assert!(
        !outcome.reason().contains("refused: bytecode"),
        "{}",
        outcome.reason()
    );
    assert_tree_changed(&attack, &outcome, &["pkg/__pycache__/mod."]);
}

#[test]
fn code_in_a_folder_named_like_an_ignored_one_is_tree_changed() {
    let (attack, outcome) = run("coverage", |root| {
        write(root, "lib/coverage/check.sh", "#!/bin/sh\nexit 1\n");
    });
    assert_tree_changed(&attack, &outcome, &["lib/coverage/check.sh (changed)"]);
}

#[test]
fn a_nested_git_is_tree_changed() {
    let (attack, outcome) = run("git", |root| write(root, "vendor/dep/README", "dep\n"));
    assert_tree_changed(
        &attack,
        &outcome,
        &["vendor/dep/.git (added, runs later on the host)"],
    );
}

#[test]
fn a_symlink_to_a_host_secret_is_tree_changed() {
    attack(
        "secret",
        &["test-results/junit.xml (added, a link out of the project)"],
    );
}

#[test]
fn a_folder_mode_change_is_tree_changed() {
    attack("mode", &["lib (changed)"]);
}

#[test]
fn a_user_xattr_on_a_test_is_tree_changed() {
    attack("xattr", &["test_math.sh (changed)"]);
}

/// An empty folder runs nothing and is read by no runner: it costs no
/// verdict (pytest-benchmark leaves `.benchmarks/` so); it is removed and
/// noted. Before: `tree_changed`.
#[test]
fn a_new_empty_folder_costs_nothing_and_is_removed() {
    let (attack, outcome) = run("empty", |_| {});
    outcome.assert_verdict("pass", None, 0);
    let notes = outcome.doc()["findings"]["notes"].to_string();
    assert!(notes.contains("lib/plugins"), "{notes}");
    assert!(!attack.project().join("lib/plugins").exists());
    attack.assert_contained(&outcome);
}

#[test]
fn a_planted_sitecustomize_and_pth_are_tree_changed() {
    attack(
        "sitecustomize",
        &["lib/sitecustomize.py (added, runs later on the host)"],
    );
    attack("pth", &["lib/evil.pth (added, runs later on the host)"]);
}

/// A 200 GiB sparse file is compared by its status, never hashed: the
/// check ends (within the harness's bound; the old code hashed it for
/// about 15 minutes) and passes, since a data file is not judged; it is
/// removed with the rest of what the attempt added (one unlink).
#[test]
fn a_huge_sparse_file_is_not_hashed() {
    let (attack, outcome) = run("sparse", |_| {});
    outcome.assert_verdict("pass", None, 0);
    let big = attack
        .project()
        .join(format!("big-{}.bin", attack.marker()));
    assert!(fs::symlink_metadata(big).is_err(), "the file was left");
    attack.assert_contained(&outcome);
}

/// A tree deeper than PATH_MAX is walked by descriptor: the edited
/// assertion is seen (the old code failed to take the snapshot, dropped
/// the error, and passed).
#[test]
fn an_edit_beside_a_folder_deeper_than_path_max_is_tree_changed() {
    let (attack, outcome) = run("edit", |root| {
        let mut short = root.join("deep");
        for _ in 0..30 {
            short.push("x");
        }
        fs::create_dir_all(&short).expect("mkdir");
        fs::write(short.join("data"), "deep\n").expect("write");
        // Renamed bottom-up: no path given to the kernel is over PATH_MAX,
        // the tree's deepest path is 30 x 200 bytes.
        let long = "d".repeat(200);
        for level in (1..=30).rev() {
            let mut at = root.join("deep");
            for _ in 0..level {
                at.push("x");
            }
            fs::rename(&at, at.with_file_name(&long)).expect("rename");
        }
    });
    assert_tree_changed(&attack, &outcome, &["test_math.sh (changed)"]);
}

/// A tree deeper than the walk's limit (256 folders) is not recorded, and
/// nothing runs: Inconclusive `tree_unreadable`, said.
#[test]
fn a_tree_deeper_than_the_limit_is_tree_unreadable() {
    let (attack, outcome) = run("edit", |root| {
        let mut deep = root.join("deep");
        for _ in 0..300 {
            deep.push("d");
        }
        fs::create_dir_all(&deep).expect("mkdir");
    });
    outcome.assert_verdict("inconclusive", Some("tree_unreadable"), 125);
    assert!(
        outcome.reason().contains("lies more than 256 folders deep"),
        "{}",
        outcome.reason()
    );
    assert_eq!(outcome.doc()["attempts"], serde_json::json!([]));
    let test = fs::read_to_string(attack.project().join("test_math.sh")).expect("read");
    assert!(test.contains("expect 5"), "no attempt ran: {test}");
    attack.assert_contained(&outcome);
}

/// `--prepare 'npm ci'` runs the project's postinstall, which rewrites the
/// failing assertion: the snapshot is taken before the preparations, so
/// the preparation is what changed the tree, said as such, and no attempt
/// runs.
#[test]
fn a_preparation_that_rewrites_the_test_is_tree_changed() {
    let attack = Attack::new("leftovers")
        .arg("--prepare")
        .arg("npm ci --no-audit --no-fund")
        .script_arg("none");
    write(
        attack.project(),
        "package.json",
        r#"{"name": "victim", "version": "1.0.0", "scripts": {"postinstall": "sed -i 's/expect 5/expect 4/' test_math.sh"}}
"#,
    );
    write(
        attack.project(),
        "package-lock.json",
        r#"{"name": "victim", "version": "1.0.0", "lockfileVersion": 3, "requires": true,
 "packages": {"": {"name": "victim", "version": "1.0.0"}}}
"#,
    );
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome
            .reason()
            .starts_with("the preparation `npm ci --no-audit --no-fund` changed the tree"),
        "{}",
        outcome.reason()
    );
    assert!(
        outcome.reason().contains("test_math.sh (changed)"),
        "{}",
        outcome.reason()
    );
    assert_eq!(outcome.doc()["attempts"], serde_json::json!([]));
    attack.assert_contained(&outcome);
}
