//! Hostile test suites (`tests/hostile/`), each run through `testgate
//! check` as CI runs it (root, bubblewrap). Every test asserts the verdict
//! and its cause, then that no process of the run survived, that the host
//! is unchanged and that testgate's own memory stayed bounded
//! (`harness::Attack::assert_contained`). The threat model and the map of
//! attack to test are in docs/security.md.

mod harness;

mod caches;
mod channels;
mod containment;
mod ctest_forgery;
mod escape;
mod excerpts;
mod git_follows;
mod grading;
mod gradle_forgery;
mod gtest_forgery;
mod held_secrets;
mod host_side;
mod integrity;
mod itself;
mod jest_forgery;
mod kernel;
mod landlock;
mod leftovers;
mod lies;
mod mocha_forgery;
mod node_forgery;
mod output;
mod paths;
mod persistence;
mod phpunit_forgery;
mod private_writes;
mod processes;
mod resources;
mod restore;
mod ruby_forgery;
mod tampering;
mod terminal;
mod trusted;
mod unittest_forgery;
mod vitest_forgery;

use testgate::parse::Runner;

/// For each runner, in `Runner::ALL`'s order, the driver module here that
/// holds its forgery attacks (its rows in docs/formats.md's "Forgeries
/// refused" name tests of it): as long as `Runner::ALL`, so that a new
/// runner fails to compile here until its row, and its driver, are written
/// (`every_runner_has_a_forgery_driver` checks the rest).
const FORGERIES: [(Runner, &str); Runner::ALL.len()] = [
    (Runner::Cargo, "lies"),
    (Runner::Nextest, "channels"),
    (Runner::Pytest, "channels"),
    (Runner::Go, "lies"),
    (Runner::Jest, "jest_forgery"),
    (Runner::Vitest, "vitest_forgery"),
    (Runner::Mocha, "mocha_forgery"),
    (Runner::Node, "node_forgery"),
    (Runner::Unittest, "unittest_forgery"),
    (Runner::Maven, "channels"),
    (Runner::Gradle, "gradle_forgery"),
    (Runner::Ctest, "ctest_forgery"),
    (Runner::Phpunit, "phpunit_forgery"),
    (Runner::Rspec, "ruby_forgery"),
    (Runner::Minitest, "ruby_forgery"),
    (Runner::Gtest, "gtest_forgery"),
];

/// `FORGERIES` is in `Runner::ALL`'s order, and each runner's module is
/// declared above (`mod X;`, so its tests are built and run) and names the
/// runner.
#[test]
fn every_runner_has_a_forgery_driver() {
    let runners: Vec<Runner> = FORGERIES.iter().map(|&(runner, _)| runner).collect();
    assert_eq!(
        runners,
        Runner::ALL,
        "FORGERIES is not in Runner::ALL's order"
    );
    let declared = include_str!("hostile.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/hostile");
    for (runner, module) in FORGERIES {
        assert!(
            declared
                .lines()
                .any(|line| line == format!("mod {module};")),
            "FORGERIES names `{module}` for {}, which hostile.rs does not declare",
            runner.name()
        );
        let source = std::fs::read_to_string(dir.join(format!("{module}.rs")))
            .unwrap_or_else(|e| panic!("tests/cli/hostile/{module}.rs: {e}"));
        assert!(
            source.to_lowercase().contains(runner.name()),
            "tests/cli/hostile/{module}.rs, {}'s forgery driver, never names it",
            runner.name()
        );
    }
}

/// Every driver in `hostile/` has its `mod` line above: the compiler
/// cannot point at a missing one (the file is then never built), so a new
/// runner's forgery driver fails this until it is declared.
#[test]
fn every_driver_is_declared() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/hostile");
    let declared = include_str!("hostile.rs");
    for entry in std::fs::read_dir(&dir).expect("tests/cli/hostile/") {
        let name = entry.expect("a directory entry").file_name();
        let Some(module) = name.to_str().and_then(|n| n.strip_suffix(".rs")) else {
            continue;
        };
        assert!(
            declared
                .lines()
                .any(|line| line == format!("mod {module};")),
            "tests/cli/hostile/{module}.rs has no `mod {module};` in hostile.rs"
        );
    }
}

/// Every row of a runner's "Forgeries refused" table in docs/formats.md
/// names, first in its Test cell, a test of a driver here
/// (`` `MODULE::NAME` ``, `fn NAME` in `hostile/MODULE.rs`), as do its
/// other names of a driver's module: a claim moved or renamed stays
/// proved by a test that exists.
#[test]
fn every_forgery_row_names_a_hostile_test() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let formats =
        std::fs::read_to_string(manifest.join("../../docs/formats.md")).expect("docs/formats.md");
    let mut rows = 0;
    let mut inside = false;
    for line in formats.lines() {
        if line.starts_with('#') {
            inside = line == "### Forgeries refused";
            continue;
        }
        let Some(test) = line.split(" | ").nth(2).filter(|_| inside) else {
            continue;
        };
        if line.starts_with("| Attack |") || line.starts_with("| --- |") {
            continue;
        }
        let names: Vec<(&str, &str)> = test
            .split('`')
            .skip(1)
            .step_by(2)
            .filter_map(|name| name.split_once("::"))
            .collect();
        let driver = |module: &str| {
            std::fs::read_to_string(manifest.join(format!("tests/cli/hostile/{module}.rs"))).ok()
        };
        let first = names.first().map(|&(module, _)| module);
        assert!(
            first.is_some_and(|module| driver(module).is_some()),
            "docs/formats.md: a forgery row names no hostile test first: {line}"
        );
        for (module, name) in names {
            if let Some(source) = driver(module) {
                assert!(
                    source.contains(&format!("fn {name}(")),
                    "docs/formats.md names `{module}::{name}`, which hostile/{module}.rs lacks"
                );
            }
        }
        rows += 1;
    }
    assert!(rows > 0, "docs/formats.md: no \"Forgeries refused\" row");
}
