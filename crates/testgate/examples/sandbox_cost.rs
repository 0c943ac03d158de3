//! What Landlock costs a check, against the bare runner and against
//! bubblewrap: for the e2e projects of go, cargo (a registry dependency),
//! pytest and jest, the wall time of the bare runner, then of a warm
//! `testgate` check under bubblewrap and under Landlock (the project's
//! private caches already seeded), and the ratios.
//!
//! `cargo run --release -p testgate --example sandbox_cost [REPO [PROJECT…]]`
//!
//! REPO is the testgate checkout (default: the current directory; its
//! `tests/projects/e2e/node/node_modules` installed with `npm ci`); the
//! projects are copied from its `tests/projects/e2e` into a fresh folder
//! under `target/`. PROJECTs (`go`, `cargo`, `pytest`, `jest`) choose
//! some; default all. Each figure is the median of five runs, the three
//! kinds interleaved so that a change in the machine's load falls on all
//! of them. The machine is shared: compare the ratios of one run. A second
//! table gives, per project, the CPU time (user and system, of this process
//! and its children) of the bare runner and of the Landlock check, which a
//! loaded machine disturbs far less than the wall time (not bubblewrap's:
//! the processes inside are reaped by bwrap's own init, and much of their
//! CPU time never reaches testgate), and how long the check's attempt
//! itself took (`Attempt::duration`): the rest of the check is testgate's
//! own work around it. Prints figures, asserts only that every run passed.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark program times the bare runner and sets its projects up with cargo"
)]

mod harness;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testgate::run::{BwrapOptions, LandlockOptions};
use testgate::{Sandbox, SandboxedTests, TestConfig, Verdict};

use harness::{Quiet, cargo_crate, copy, cpu_time, median};

struct Case {
    /// How the project is chosen on the command line.
    key: &'static str,
    name: &'static str,
    dir: PathBuf,
    program: &'static str,
    args: Vec<&'static str>,
    env: Vec<(&'static str, PathBuf)>,
    /// A path the node projects need writable (their shared node_modules).
    writable: Vec<PathBuf>,
}

/// How many times each figure is measured.
const RUNS: usize = 5;

fn main() {
    let (repo, chosen, scratch) = harness::setup("sandbox-cost");
    let e2e = repo.join("tests/projects/e2e");
    let root = scratch.path();

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

    let cases = [
        Case {
            key: "go",
            name: "go test",
            dir: go,
            program: "go",
            args: vec!["test", "-count=1", "./..."],
            env: Vec::new(),
            writable: Vec::new(),
        },
        Case {
            key: "cargo",
            name: "cargo test (libc)",
            dir: krate.clone(),
            program: "cargo",
            args: vec!["test", "-q"],
            env: vec![("CARGO_TARGET_DIR", krate.join("target"))],
            writable: Vec::new(),
        },
        Case {
            key: "pytest",
            name: "pytest",
            dir: pytest,
            program: "python3",
            args: vec!["-m", "pytest", "-q", "-p", "no:cacheprovider"],
            env: Vec::new(),
            writable: Vec::new(),
        },
        Case {
            key: "jest",
            name: "jest",
            dir: jest,
            program: "npx",
            args: vec!["--no-install", "jest"],
            env: vec![("CI", PathBuf::from("true"))],
            writable: vec![modules],
        },
    ];
    let cases: Vec<Case> = cases
        .into_iter()
        .filter(|case| chosen.is_empty() || chosen.iter().any(|key| key == case.key))
        .collect();
    let mut cpu_rows = Vec::new();
    println!(
        "{:<20} {:>8} {:>8} {:>9} {:>13} {:>14} {:>16}",
        "project", "bare", "bwrap", "landlock", "bwrap/bare", "landlock/bare", "landlock/bwrap"
    );
    for case in &cases {
        let bwrap = Sandbox::Bubblewrap(BwrapOptions {
            writable: case.writable.clone(),
            ..BwrapOptions::default()
        });
        let landlock = Sandbox::Landlock(LandlockOptions {
            writable: case.writable.clone(),
            ..LandlockOptions::default()
        });
        // Warm-up: the host's caches, and the project's private caches
        // seeded by the first check (the same directories for both).
        bare(case);
        check(case, &bwrap);
        check(case, &landlock);
        let (mut bares, mut bwraps, mut landlocks) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            bares.push(bare(case));
            bwraps.push(check(case, &bwrap));
            landlocks.push(check(case, &landlock));
        }
        let wall = |runs: &[Timed]| median(runs.iter().map(|t| t.wall).collect());
        let (bare_time, bwrap_time, landlock_time) =
            (wall(&bares), wall(&bwraps), wall(&landlocks));
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        println!(
            "{:<20} {:>7.2}s {:>7.2}s {:>8.2}s {:>12.2}x {:>13.2}x {:>15.2}x",
            case.name,
            bare_time.as_secs_f64(),
            bwrap_time.as_secs_f64(),
            landlock_time.as_secs_f64(),
            ratio(bwrap_time, bare_time),
            ratio(landlock_time, bare_time),
            ratio(landlock_time, bwrap_time),
        );
        cpu_rows.push((case.name, bares, bwraps, landlocks));
    }
    println!();
    println!(
        "{:<20} {:>9} {:>13} {:>14} {:>17}",
        "project", "bare cpu", "landlock cpu", "bwrap attempt", "landlock attempt"
    );
    for (name, bares, bwraps, landlocks) in &cpu_rows {
        let cpu = |runs: &[Timed]| median(runs.iter().map(|t| t.cpu).collect()).as_secs_f64();
        let attempt =
            |runs: &[Timed]| median(runs.iter().map(|t| t.attempt).collect()).as_secs_f64();
        println!(
            "{:<20} {:>8.2}s {:>12.2}s {:>13.2}s {:>16.2}s",
            name,
            cpu(bares),
            cpu(landlocks),
            attempt(bwraps),
            attempt(landlocks),
        );
    }
}

/// One run's figures: its wall time, its CPU time (this process's and its
/// children's), and the wall time of the check's attempts (the bare run's
/// own wall time for the bare runner).
struct Timed {
    wall: Duration,
    cpu: Duration,
    attempt: Duration,
}

/// One `testgate` check in `sandbox`, timed from the outside.
fn check(case: &Case, sandbox: &Sandbox) -> Timed {
    let mut config = TestConfig::new(&case.dir, case.program, case.args.iter().copied());
    for (name, value) in &case.env {
        config = config.env(name, value);
    }
    let (started, cpu) = (Instant::now(), cpu_time());
    let record = SandboxedTests::new(sandbox.clone(), config).run_observed(&mut Quiet);
    let (wall, cpu) = (started.elapsed(), cpu_time() - cpu);
    if !matches!(record.verdict, Verdict::Pass { .. }) {
        panic!("{} in {}: {:?}", case.name, sandbox.name(), record.verdict);
    }
    let attempt = record.attempts.iter().map(|a| a.attempt.duration).sum();
    Timed { wall, cpu, attempt }
}

/// The runner alone, on the host, output discarded.
fn bare(case: &Case) -> Timed {
    let (started, cpu) = (Instant::now(), cpu_time());
    let status = Command::new(case.program)
        .args(&case.args)
        .current_dir(&case.dir)
        .envs(case.env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the bare runner");
    let (wall, cpu) = (started.elapsed(), cpu_time() - cpu);
    assert!(status.success(), "{}: the bare run failed", case.name);
    Timed {
        wall,
        cpu,
        attempt: wall,
    }
}
