//! What obtaining the runner's own report costs a check (issue 28 item 6):
//! per runner, a warm `testgate` check under Landlock with the report
//! testgate asks for by default, and the same check with the report turned
//! off, and the ratio.
//!
//! `cargo run --release -p testgate --example report_cost [REPO [RUNNER…]]`
//!
//! REPO is the testgate checkout (default: the current directory; its
//! `tests/projects/e2e/node/node_modules` installed with `npm ci`); the
//! projects are copied from its `tests/projects/e2e` or written into a
//! fresh folder under `target/`. RUNNERs (`pytest`, `go`, `jest`,
//! `vitest`, `mocha`, `cargo`, `nextest`) choose some; default all. The report is
//! turned off the way a user would, so that testgate asks for none
//! (docs/formats.md): pytest with `-p no:junitxml`; go with `-json=false`
//! (its report is the `-json` event stream, rendered back to text for the
//! console); jest and vitest with `--outputFile=/dev/null` (a file of the
//! user's, which neither writes without a JSON reporter); mocha with its
//! spec after a `--` (where testgate adds no `--require` of its recorder); nextest with
//! `--config-file .config/nextest.toml` (an empty configuration of the
//! crate's own). go is measured on three projects: the e2e project, five
//! packages of go's standard library (`strings bytes sort strconv
//! text/template`: real tests, 470 tests and subtests, 1,939 `-json`
//! events against 5 lines without; not `encoding/json`, whose
//! `TestHTTPDecoding` connects to a loopback listener, which Landlock
//! refuses without the network) and a synthetic package of 2,000 tests
//! that log a line each. cargo test gets no report
//! (docs/formats.md, "Where the outcomes come from"): its two columns run
//! the same check, so its ratio is the measurement's noise. Each figure is
//! the median of seven runs, the two kinds interleaved so that a change in
//! the machine's load falls on both; beside the wall time, the CPU time
//! (user and system, of this process and its children), which a loaded
//! machine disturbs less. Landlock rather than bubblewrap for that count:
//! testgate, the run's child subreaper, waits for every process of the run
//! itself, so all their CPU time reaches it; under bubblewrap the processes
//! inside are reaped by bwrap's own init, and much of theirs never does.
//! The report does not depend on the sandbox. The machine is shared:
//! compare the ratios of one run. Prints figures, asserts only that every run passed.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark program sets its projects up with cargo"
)]

mod harness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testgate::run::LandlockOptions;
use testgate::{Sandbox, SandboxedTests, TestConfig, Verdict};

use harness::{Quiet, copy, cpu_time, median};

struct Case {
    /// How the runner is chosen on the command line.
    key: &'static str,
    name: &'static str,
    dir: PathBuf,
    program: &'static str,
    /// The command as a user runs it: testgate asks for the report.
    with_report: Vec<&'static str>,
    /// The same command, with the report turned off.
    without_report: Vec<&'static str>,
    env: Vec<(&'static str, PathBuf)>,
    /// A path the node projects need writable (their shared node_modules).
    writable: Vec<PathBuf>,
}

/// How many times each figure is measured.
const RUNS: usize = 7;

fn main() {
    let (repo, chosen, scratch) = harness::setup("report-cost");
    let e2e = repo.join("tests/projects/e2e");
    let root = scratch.path();

    let pytest = root.join("pytest");
    copy(&e2e.join("pytest"), &pytest);
    let go = root.join("go");
    copy(&e2e.join("go"), &go);
    let go_many = root.join("go-many");
    many_tests_go(&go_many);
    let modules = e2e.join("node/node_modules");
    let jest = root.join("jest");
    copy(&e2e.join("node/jest"), &jest);
    std::os::unix::fs::symlink(&modules, jest.join("node_modules")).expect("node_modules");
    let vitest = root.join("vitest");
    copy(&e2e.join("node/vitest"), &vitest);
    std::os::unix::fs::symlink(&modules, vitest.join("node_modules")).expect("node_modules");
    let mocha = root.join("mocha");
    copy(&e2e.join("node/mocha"), &mocha);
    std::os::unix::fs::symlink(&modules, mocha.join("node_modules")).expect("node_modules");
    let krate = root.join("cargo");
    many_tests_crate(&krate);
    // nextest's own configuration, empty: named with `--config-file`, it
    // turns testgate's request for nextest's report off.
    std::fs::create_dir_all(krate.join(".config")).expect(".config");
    std::fs::write(krate.join(".config/nextest.toml"), "").expect("nextest.toml");
    let target = vec![("CARGO_TARGET_DIR", krate.join("target"))];
    let ci = vec![("CI", PathBuf::from("true"))];
    let std_packages = ["strings", "bytes", "sort", "strconv", "text/template"];
    let go_std = |extra: &[&'static str]| {
        let mut args = vec!["test", "-count=1"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&std_packages);
        args
    };

    let cases = [
        Case {
            key: "pytest",
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
            writable: Vec::new(),
        },
        Case {
            key: "go",
            name: "go (e2e)",
            dir: go.clone(),
            program: "go",
            with_report: vec!["test", "-count=1", "./..."],
            without_report: vec!["test", "-count=1", "-json=false", "./..."],
            env: Vec::new(),
            writable: Vec::new(),
        },
        Case {
            key: "go",
            name: "go (std, 5 pkgs)",
            dir: go,
            program: "go",
            with_report: go_std(&[]),
            without_report: go_std(&["-json=false"]),
            env: Vec::new(),
            writable: Vec::new(),
        },
        Case {
            key: "go",
            name: "go (2,000 logs)",
            dir: go_many,
            program: "go",
            with_report: vec!["test", "-count=1", "./..."],
            without_report: vec!["test", "-count=1", "-json=false", "./..."],
            env: Vec::new(),
            writable: Vec::new(),
        },
        Case {
            key: "jest",
            name: "jest",
            dir: jest,
            program: "npx",
            with_report: vec!["--no-install", "jest"],
            without_report: vec!["--no-install", "jest", "--outputFile=/dev/null"],
            env: ci.clone(),
            writable: vec![modules.clone()],
        },
        Case {
            key: "vitest",
            name: "vitest",
            dir: vitest,
            program: "npx",
            with_report: vec!["--no-install", "vitest", "run"],
            without_report: vec!["--no-install", "vitest", "run", "--outputFile=/dev/null"],
            env: ci.clone(),
            writable: vec![modules.clone()],
        },
        Case {
            key: "mocha",
            name: "mocha",
            dir: mocha,
            program: "npx",
            with_report: vec!["--no-install", "mocha"],
            without_report: vec!["--no-install", "mocha", "--", "test/"],
            env: ci,
            writable: vec![modules],
        },
        Case {
            key: "cargo",
            name: "cargo test",
            dir: krate.clone(),
            program: "cargo",
            with_report: vec!["test", "--offline"],
            without_report: vec!["test", "--offline"],
            env: target.clone(),
            writable: Vec::new(),
        },
        Case {
            key: "nextest",
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
            writable: Vec::new(),
        },
    ];
    println!(
        "{:<18} {:>12} {:>12} {:>8} {:>10} {:>10} {:>10}",
        "runner", "with report", "without", "ratio", "cpu with", "without", "cpu ratio"
    );
    for case in cases
        .iter()
        .filter(|case| chosen.is_empty() || chosen.iter().any(|key| key == case.key))
    {
        let sandbox = Sandbox::Landlock(LandlockOptions {
            writable: case.writable.clone(),
            ..LandlockOptions::default()
        });
        // Warm-up: the build, the host's caches, the private caches.
        check(case, &case.with_report, &sandbox);
        check(case, &case.without_report, &sandbox);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            with.push(check(case, &case.with_report, &sandbox));
            without.push(check(case, &case.without_report, &sandbox));
        }
        let wall = |runs: &[(Duration, Duration)]| median(runs.iter().map(|r| r.0).collect());
        let cpu = |runs: &[(Duration, Duration)]| median(runs.iter().map(|r| r.1).collect());
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        println!(
            "{:<18} {:>11.3}s {:>11.3}s {:>7.3}x {:>9.3}s {:>9.3}s {:>9.3}x",
            case.name,
            wall(&with).as_secs_f64(),
            wall(&without).as_secs_f64(),
            ratio(wall(&with), wall(&without)),
            cpu(&with).as_secs_f64(),
            cpu(&without).as_secs_f64(),
            ratio(cpu(&with), cpu(&without)),
        );
    }
}

/// One `testgate` check of `args` in `sandbox`, timed from the outside:
/// its wall time and CPU time.
fn check(case: &Case, args: &[&str], sandbox: &Sandbox) -> (Duration, Duration) {
    let mut config = TestConfig::new(&case.dir, case.program, args.iter().copied());
    for (name, value) in &case.env {
        config = config.env(name, value);
    }
    let (started, cpu) = (Instant::now(), cpu_time());
    let record = SandboxedTests::new(sandbox.clone(), config).run_observed(&mut Quiet);
    let took = (started.elapsed(), cpu_time() - cpu);
    if !matches!(record.verdict, Verdict::Pass { .. }) {
        panic!("{} {args:?}: {:?}", case.name, record.verdict);
    }
    took
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

/// A go module of one package of 2,000 passing tests that each log a line
/// (seen only in `-v` and `-json` runs, as go prints a passing test's log).
fn many_tests_go(dir: &Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    std::fs::write(dir.join("go.mod"), "module example.com/many\n\ngo 1.19\n").expect("go.mod");
    let mut tests = String::from("package many\n\nimport \"testing\"\n\n");
    for i in 0..2000 {
        tests.push_str(&format!(
            "func TestAdds{i}(t *testing.T) {{\n\tt.Logf(\"adding %d\", {i})\n\tif {i}+1 != {} {{\n\t\tt.Fatal(\"wrong\")\n\t}}\n}}\n\n",
            i + 1
        ));
    }
    std::fs::write(dir.join("many_test.go"), tests).expect("many_test.go");
}
