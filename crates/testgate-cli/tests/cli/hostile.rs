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
