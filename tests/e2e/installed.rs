//! Honest projects with installed folders (`node_modules`, an in-project
//! `.venv`, `target/`) under Landlock: the command creates what it makes
//! at the project's top (jest's `coverage/`, coverage's `.coverage`,
//! cargo's `Cargo.lock`) and passes. Landlock cannot show an installed
//! folder read-only without taking that right from the top, so the folders
//! are watched instead (`testgate-run`'s `installed.rs`); when the
//! project's grant was split, each of these failed.
#![expect(
    clippy::disallowed_methods,
    reason = "the tests set projects up as users do: cp -a node_modules, python3 -m venv"
)]

use std::fs;
use std::process::Command;

use testgate::parse::Runner;
use testgate::{Record, TestConfig};

use crate::projects::landlock_for;
use crate::toolchains::{run, scratch, write};
use crate::{assert_pass, repo_root};

/// A pass that left the tree as judged: no tree change, the installed
/// folders' included.
fn assert_pass_untouched(record: &Record, what: &str) {
    assert_pass(record, what);
    assert!(record.tree.is_none(), "{what}: {:?}", record.tree);
}

/// `jest --coverage` in a project with its own `node_modules` (a copy of
/// the fixtures', not hard links: a link made to the same files elsewhere
/// moves their status-change time) makes `coverage/` at the project's top.
/// On the split grant: `EACCES` on `mkdir coverage`, no Pass.
#[test]
fn jest_coverage_makes_its_folder_beside_node_modules_under_landlock() {
    let tmp = scratch();
    let dir = tmp.path().join("web");
    fs::create_dir_all(&dir).unwrap();
    let copied = Command::new("cp")
        .arg("-a")
        .arg(crate::projects::node_modules())
        .arg(dir.join("node_modules"))
        .status()
        .expect("cp -a");
    assert!(copied.success(), "cp -a node_modules failed");
    write(
        &dir.join("package.json"),
        "{\"name\": \"web\", \"private\": true}\n",
    );
    write(
        &dir.join("jest.config.cjs"),
        "module.exports = { testMatch: [\"**/*.test.cjs\"], coverageReporters: [\"json\"] };\n",
    );
    write(&dir.join("calc.cjs"), "module.exports = (a, b) => a + b;\n");
    write(
        &dir.join("calc.test.cjs"),
        "const add = require(\"./calc.cjs\");\ntest(\"adds\", () => { expect(add(1, 2)).toBe(3); });\n",
    );
    let config = TestConfig::new(
        &dir,
        "npx",
        ["jest", "--coverage", "--config", "jest.config.cjs"],
    )
    .format(Runner::Jest)
    // What the command made is looked at below: kept, not put back.
    .keep_changes(true);
    let record = run(landlock_for(false), config);
    assert_pass_untouched(&record, "jest --coverage beside node_modules");
    assert!(dir.join("coverage").is_dir(), "no coverage/ made");
}

/// A pytest project with its own `.venv`, whose test makes what coverage
/// makes at the top (`.coverage`). On the split grant: `PermissionError`,
/// a Fail. (pytest-benchmark's `.benchmarks/` is a new folder the tree
/// check judges wherever it appears, whatever the sandbox.)
#[test]
fn a_test_beside_an_in_project_venv_makes_files_at_the_top_under_landlock() {
    let tmp = scratch();
    let dir = tmp.path().join("pyproject");
    let venv = dir.join(".venv");
    fs::create_dir_all(&dir).unwrap();
    let made = Command::new("python3")
        .args(["-m", "venv", "--system-site-packages"])
        .arg(&venv)
        .status()
        .expect("python3 -m venv");
    assert!(made.success(), "python3 -m venv failed");
    write(
        &dir.join("tests/test_top.py"),
        "import os\n\n\ndef test_makes_files_at_the_top():\n    with open('.coverage', 'w') as f:\n        f.write('data')\n",
    );
    let config = TestConfig::new(
        &dir,
        venv.join("bin/python"),
        ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
    )
    .format(Runner::Pytest)
    // What the test made is looked at below: kept, not put back.
    .keep_changes(true);
    let record = run(landlock_for(false), config);
    assert_pass_untouched(&record, "pytest beside an in-project .venv");
    assert!(dir.join(".coverage").is_file(), "no .coverage made");
}

/// The cargo fixture without its `Cargo.lock`, with a `target/` folder and
/// a `.venv` beside: cargo writes the missing lock file at the top. On the
/// split grant: `failed to write Cargo.lock`, no Pass.
#[test]
fn cargo_writes_a_missing_lock_file_beside_target_and_a_venv_under_landlock() {
    let tmp = scratch();
    let dir = tmp.path().join("calc");
    crate::projects::copy_dir(&repo_root().join("tests/projects/e2e/cargo"), &dir);
    fs::remove_file(dir.join("Cargo.lock")).unwrap();
    write(&dir.join("target/.rustc_info.json"), "{}\n");
    write(&dir.join(".venv/pyvenv.cfg"), "home = /usr/bin\n");
    // The lock file cargo writes is looked at below: kept, not put back.
    let record = run(
        landlock_for(false),
        TestConfig::cargo(&dir).keep_changes(true),
    );
    assert_pass_untouched(&record, "cargo test without Cargo.lock");
    assert!(dir.join("Cargo.lock").is_file(), "no Cargo.lock written");
}
