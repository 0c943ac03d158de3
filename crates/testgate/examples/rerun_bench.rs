//! Targeted retries against full retries: the wall time of a check with
//! `--retries 2` under `Rerun::Failed` and `Rerun::All`, as multiples of one
//! full run, on generated suites of 2,000 tests of which 3 always fail.
//!
//! ```text
//! cargo run --release -p testgate --example rerun_bench -- [SECONDS] [--bwrap]
//! ```
//!
//! SECONDS (default 20) is about how long one full run of each suite takes:
//! each test sleeps SECONDS / 2,000 (one test thread for cargo, so the time
//! is the sum). `--bwrap` runs in the default sandbox instead of on the host.
//! The suites are generated under `target/rerun-bench/`.
#![expect(
    clippy::disallowed_methods,
    reason = "a benchmark writes the projects it generates before any test runs"
)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use testgate::policy::Rerun;
use testgate::{Record, Sandbox, SandboxedTests, TestConfig};

/// Tests per suite.
const TESTS: usize = 2_000;
/// Tests per generated file (pytest) or module (cargo).
const PER_FILE: usize = 100;
/// The tests that always fail.
const FAILING: [usize; 3] = [7, 1_003, 1_999];

#[derive(Debug, Clone, Copy)]
enum Suite {
    Cargo,
    Pytest,
}

fn main() {
    let mut seconds = 20.0_f64;
    let mut bwrap = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--bwrap" => bwrap = true,
            other => {
                seconds = other
                    .parse()
                    .unwrap_or_else(|_| panic!("not a number of seconds: {other}"));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/rerun-bench");
    println!(
        "{TESTS} tests, {} failing, --retries 2, about {seconds} s per full run, {}",
        FAILING.len(),
        if bwrap {
            "in bubblewrap"
        } else {
            "on the host"
        }
    );
    let sandbox = if bwrap {
        Sandbox::default()
    } else {
        Sandbox::Host
    };
    for suite in [Suite::Cargo, Suite::Pytest] {
        let dir = generate(&root, suite, seconds);
        // The first check builds the cargo suite; it is not measured.
        if let Suite::Cargo = suite {
            check(suite, &dir, &sandbox, 0, Rerun::All);
        }
        let (one, _) = check(suite, &dir, &sandbox, 0, Rerun::All);
        let (failed, failed_record) = check(suite, &dir, &sandbox, 2, Rerun::Failed);
        let (all, all_record) = check(suite, &dir, &sandbox, 2, Rerun::All);
        let describe = |time: Duration, record: &Record| {
            format!(
                "{:6.2} s = {:.2}x one full run ({} attempts, {})",
                time.as_secs_f64(),
                time.as_secs_f64() / one.as_secs_f64(),
                record.attempts.len(),
                record.verdict.name()
            )
        };
        println!("{suite:?}: one full run {:6.2} s", one.as_secs_f64());
        println!("  rerun failed {}", describe(failed, &failed_record));
        println!("  rerun all    {}", describe(all, &all_record));
    }
}

fn check(
    suite: Suite,
    dir: &Path,
    sandbox: &Sandbox,
    retries: u32,
    rerun: Rerun,
) -> (Duration, Record) {
    let config = match suite {
        Suite::Cargo => TestConfig::cargo(dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env("RUST_TEST_THREADS", "1"),
        Suite::Pytest => TestConfig::pytest(dir),
    }
    .retrying(retries)
    .rerun(rerun)
    .within(Duration::from_secs(600));
    let start = Instant::now();
    let record = SandboxedTests::new(sandbox.clone(), config).run_observed(&mut Silent);
    (start.elapsed(), record)
}

struct Silent;
impl testgate::Observer for Silent {}

/// Writes the suite's project (afresh each time) and returns its directory.
fn generate(root: &Path, suite: Suite, seconds: f64) -> PathBuf {
    let sleep_ms = seconds * 1000.0 / TESTS as f64;
    let body = |n: usize| FAILING.contains(&n);
    let write = |path: PathBuf, text: String| {
        std::fs::create_dir_all(path.parent().expect("a file has a parent")).expect("create dir");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    };
    match suite {
        Suite::Cargo => {
            let dir = root.join("cargo");
            write(
                dir.join("Cargo.toml"),
                "[package]\nname = \"bench\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n"
                    .to_owned(),
            );
            let mut lib = format!(
                "//! {TESTS} generated tests.\n\n#[cfg(test)]\nfn work() {{\n    std::thread::sleep(std::time::Duration::from_micros({}));\n}}\n",
                (sleep_ms * 1000.0) as u64
            );
            for module in 0..TESTS / PER_FILE {
                lib.push_str(&format!("\n#[cfg(test)]\nmod m{module:02} {{\n"));
                for n in module * PER_FILE..(module + 1) * PER_FILE {
                    let fails = if body(n) {
                        "\n        assert_eq!(1 + 1, 3);"
                    } else {
                        ""
                    };
                    lib.push_str(&format!(
                        "    #[test]\n    fn t{n:04}() {{\n        super::work();{fails}\n    }}\n"
                    ));
                }
                lib.push_str("}\n");
            }
            write(dir.join("src/lib.rs"), lib);
            dir
        }
        Suite::Pytest => {
            let dir = root.join("pytest");
            for file in 0..TESTS / PER_FILE {
                let mut text = format!("import time\n\nD = {}\n", sleep_ms / 1000.0);
                for n in file * PER_FILE..(file + 1) * PER_FILE {
                    let fails = if body(n) {
                        "\n    assert 1 + 1 == 3"
                    } else {
                        ""
                    };
                    text.push_str(&format!(
                        "\n\ndef test_{n:04}():\n    time.sleep(D){fails}\n"
                    ));
                }
                write(dir.join(format!("tests/test_gen_{file:02}.py")), text);
            }
            dir
        }
    }
}
