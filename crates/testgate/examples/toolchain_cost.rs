//! What the sandbox costs a toolchain: for a Go module, a cargo crate with
//! a registry dependency, a pytest project and a jest project, the bare
//! runner's wall time, then the first and the second `testgate` check
//! under the default bubblewrap sandbox, as ratios to the bare runner, and
//! what the second check adds to the bare runner in milliseconds.
//!
//! `cargo run --release -p testgate --example toolchain_cost [REPO]`
//!
//! REPO is the testgate checkout (default: the current directory); the
//! projects are copied from its `tests/projects/e2e` into a fresh folder
//! under `target/`. The bare runs go first, twice (the first warms the
//! host's caches); a first check is one whose project has no private cache
//! yet (it is removed before each, so the check seeds it from the host's
//! warm caches); a second check is one after it. Each figure is the median
//! of five runs. The machine is shared: compare ratios of one run.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark program times the bare runner and sets its projects up with cargo"
)]

mod harness;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testgate::run::BwrapOptions;
use testgate::{Sandbox, SandboxedTests, TestConfig, Verdict};

use harness::{Quiet, cargo_crate, copy, median};

struct Case {
    name: &'static str,
    dir: PathBuf,
    program: &'static str,
    args: Vec<&'static str>,
    env: Vec<(&'static str, PathBuf)>,
    sandbox: Sandbox,
}

fn main() {
    let (repo, _, scratch) = harness::setup("toolchain-cost");
    let e2e = repo.join("tests/projects/e2e");
    let root = scratch.path();
    let trash = root.join("trash");
    std::fs::create_dir_all(&trash).expect("trash");

    let go = root.join("go");
    copy(&e2e.join("go"), &go);
    let pytest = root.join("pytest");
    copy(&e2e.join("pytest"), &pytest);
    let jest = root.join("jest");
    copy(&e2e.join("node/jest"), &jest);
    let modules = e2e.join("node/node_modules");
    std::os::unix::fs::symlink(&modules, jest.join("node_modules")).expect("node_modules");
    let krate = root.join("cargo");
    cargo_crate(&repo, &krate);

    let mut node = BwrapOptions::default();
    node.writable.push(modules);
    let cases = [
        Case {
            name: "go test",
            dir: go,
            program: "go",
            args: vec!["test", "-count=1", "./..."],
            env: Vec::new(),
            sandbox: Sandbox::default(),
        },
        Case {
            name: "cargo test (libc)",
            dir: krate.clone(),
            program: "cargo",
            args: vec!["test", "-q"],
            env: vec![("CARGO_TARGET_DIR", krate.join("target"))],
            sandbox: Sandbox::default(),
        },
        Case {
            name: "pytest",
            dir: pytest,
            program: "python3",
            args: vec!["-m", "pytest", "-q", "-p", "no:cacheprovider"],
            env: Vec::new(),
            sandbox: Sandbox::default(),
        },
        Case {
            name: "jest",
            dir: jest,
            program: "npx",
            args: vec!["--no-install", "jest"],
            env: vec![("CI", PathBuf::from("true"))],
            sandbox: Sandbox::Bubblewrap(node),
        },
    ];
    println!(
        "{:<20} {:>9} {:>13} {:>14} {:>7} {:>7} {:>10}",
        "project", "bare", "first check", "second check", "first", "second", "added"
    );
    for case in &cases {
        bare(case); // warms the host's caches
        let bare_time = median((0..RUNS).map(|_| bare(case)).collect());
        let mut firsts = Vec::new();
        let mut seconds = Vec::new();
        for _ in 0..RUNS {
            forget_private_cache(&case.dir, &trash);
            firsts.push(check(case));
            seconds.push(check(case));
        }
        forget_private_cache(&case.dir, &trash);
        let first = median(firsts);
        let second = median(seconds);
        let ratio = |d: Duration| d.as_secs_f64() / bare_time.as_secs_f64();
        // What a warm check adds to the runner: bwrap's setup, the tree
        // digest, the view; a fixed cost, not one that grows with the suite.
        let added = second.as_secs_f64() - bare_time.as_secs_f64();
        println!(
            "{:<20} {:>8.2}s {:>12.2}s {:>13.2}s {:>6.2}x {:>6.2}x {:>8.0}ms",
            case.name,
            bare_time.as_secs_f64(),
            first.as_secs_f64(),
            second.as_secs_f64(),
            ratio(first),
            ratio(second),
            added * 1000.0,
        );
    }
}

/// How many times each figure is measured.
const RUNS: usize = 5;

/// Moves testgate's private cache of the project `dir`
/// (`$XDG_CACHE_HOME/testgate/sandbox/<path with / as +>`; the paths here
/// have no other byte testgate escapes) into `trash`, removed at the end:
/// deleting a thousand files just before a check made ext4 create the
/// next thousand (the check's copy of the host's cache) ten times slower,
/// which a user's first check does not meet.
fn forget_private_cache(dir: &Path, trash: &Path) {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let root = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
    let name = dir
        .canonicalize()
        .expect("the project")
        .to_str()
        .expect("a UTF-8 path")
        .replace('/', "+");
    let private = root.join("testgate/sandbox").join(name);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if std::fs::rename(&private, trash.join(n.to_string())).is_err() {
        let _ = std::fs::remove_dir_all(&private);
    }
}

/// The runner alone, on the host, output discarded.
fn bare(case: &Case) -> Duration {
    let started = Instant::now();
    let status = Command::new(case.program)
        .args(&case.args)
        .current_dir(&case.dir)
        .envs(case.env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the bare runner");
    assert!(status.success(), "{}: the bare run failed", case.name);
    started.elapsed()
}

/// One `testgate` check with its defaults, timed from the outside.
fn check(case: &Case) -> Duration {
    let mut config = TestConfig::new(&case.dir, case.program, case.args.iter().copied());
    for (name, value) in &case.env {
        config = config.env(name, value);
    }
    let started = Instant::now();
    let record = SandboxedTests::new(case.sandbox.clone(), config).run_observed(&mut Quiet);
    let took = started.elapsed();
    if !matches!(record.verdict, Verdict::Pass { .. }) {
        panic!("{}: {:?}", case.name, record.verdict);
    }
    took
}
