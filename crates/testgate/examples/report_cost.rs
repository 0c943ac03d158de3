//! What obtaining the runner's own report costs a check (issue 28 item 6):
//! per runner, a warm `testgate` check under bubblewrap with the report
//! testgate asks for by default, and the same check with the report turned
//! off, and the ratio.
//!
//! `cargo run --release -p testgate --example report_cost [REPO]`
//!
//! REPO is the testgate checkout (default: the current directory); the
//! projects are copied from its `tests/projects/e2e` (pytest) or written
//! (a crate of 50 tests, no dependency) into a fresh folder under
//! `target/`. The report is turned off the way a user would: pytest with
//! `-p no:junitxml`, nextest with `--config-file .config/nextest.toml` (an
//! empty configuration of the crate's own; testgate then asks for none,
//! docs/formats.md). cargo test gets no report (docs/formats.md, "Where the
//! outcomes come from"): its two columns run the same check, so its ratio
//! is the measurement's noise. Each figure is the median of seven runs, the two
//! kinds interleaved so that a change in the machine's load falls on both.
//! The machine is shared: compare the ratios of one run. Prints figures,
//! asserts only that every run passed.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark program sets its projects up with cargo"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testgate::run::BwrapOptions;
use testgate::{Observer, Sandbox, SandboxedTests, TestConfig, Verdict};

struct Quiet;
impl Observer for Quiet {}

struct Case {
    name: &'static str,
    dir: PathBuf,
    program: &'static str,
    /// The command as a user runs it: testgate asks for the report.
    with_report: Vec<&'static str>,
    /// The same command, with the report turned off.
    without_report: Vec<&'static str>,
    env: Vec<(&'static str, PathBuf)>,
}

/// How many times each figure is measured.
const RUNS: usize = 7;

fn main() {
    let repo = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::current_dir().expect("cwd"));
    let e2e = repo.join("tests/projects/e2e");
    let base = repo.join("target/report-cost");
    std::fs::create_dir_all(&base).expect("target/report-cost");
    let scratch = tempfile::tempdir_in(&base).expect("scratch dir");
    let root = scratch.path();

    let pytest = root.join("pytest");
    copy(&e2e.join("pytest"), &pytest);
    let krate = root.join("cargo");
    many_tests_crate(&krate);
    // nextest's own configuration, empty: named with `--config-file`, it
    // turns testgate's request for nextest's report off.
    std::fs::create_dir_all(krate.join(".config")).expect(".config");
    std::fs::write(krate.join(".config/nextest.toml"), "").expect("nextest.toml");
    let target = vec![("CARGO_TARGET_DIR", krate.join("target"))];

    let cases = [
        Case {
            name: "pytest",
            dir: pytest,
            program: "python3",
            with_report: vec!["-m", "pytest", "-q", "-p", "no:cacheprovider"],
            without_report: vec![
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:junitxml",
            ],
            env: Vec::new(),
        },
        Case {
            name: "cargo test",
            dir: krate.clone(),
            program: "cargo",
            with_report: vec!["test", "--offline"],
            without_report: vec!["test", "--offline"],
            env: target.clone(),
        },
        Case {
            name: "cargo nextest",
            dir: krate.clone(),
            program: "cargo",
            with_report: vec!["nextest", "run", "--offline"],
            without_report: vec![
                "nextest",
                "run",
                "--offline",
                "--config-file",
                ".config/nextest.toml",
            ],
            env: target,
        },
    ];
    let sandbox = Sandbox::Bubblewrap(BwrapOptions::default());
    println!(
        "{:<16} {:>12} {:>12} {:>8}",
        "runner", "with report", "without", "ratio"
    );
    for case in &cases {
        // Warm-up: the build, the host's caches, the private caches.
        check(case, &case.with_report, &sandbox);
        check(case, &case.without_report, &sandbox);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            with.push(check(case, &case.with_report, &sandbox));
            without.push(check(case, &case.without_report, &sandbox));
        }
        let (with, without) = (median(with), median(without));
        println!(
            "{:<16} {:>11.3}s {:>11.3}s {:>7.3}x",
            case.name,
            with.as_secs_f64(),
            without.as_secs_f64(),
            with.as_secs_f64() / without.as_secs_f64(),
        );
    }
}

/// One `testgate` check of `args` in `sandbox`, timed from the outside.
fn check(case: &Case, args: &[&str], sandbox: &Sandbox) -> Duration {
    let mut config = TestConfig::new(&case.dir, case.program, args.iter().copied());
    for (name, value) in &case.env {
        config = config.env(name, value);
    }
    let started = Instant::now();
    let record = SandboxedTests::new(sandbox.clone(), config).run_observed(&mut Quiet);
    let took = started.elapsed();
    if !matches!(record.verdict, Verdict::Pass { .. }) {
        panic!("{} {args:?}: {:?}", case.name, record.verdict);
    }
    took
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if name == "node_modules" || name == "target" || name == "__pycache__" {
            continue;
        }
        if entry.file_type().expect("file type").is_dir() {
            copy(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).expect("copy");
        }
    }
}

/// A crate of 50 passing unit tests and no dependency, with its lock file.
fn many_tests_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"many-tests\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .expect("Cargo.toml");
    let tests: String = (0..50)
        .map(|i| {
            format!(
                "#[test]\nfn adds_{i}() {{\n    assert_eq!({i} + 1, {} );\n}}\n",
                i + 1
            )
        })
        .collect();
    std::fs::write(dir.join("src/lib.rs"), tests).expect("lib.rs");
    let status = Command::new("cargo")
        .args(["generate-lockfile", "--offline", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .status()
        .expect("cargo generate-lockfile");
    assert!(status.success(), "cargo generate-lockfile --offline failed");
}
