//! Honest verdicts with the real runners, in bubblewrap as the user runs
//! them: fail-fast runners and `pytest --lf` (names that agree decide), a
//! runner that is not installed, a coverage threshold under targeted
//! retries, and a crate whose dependencies cannot be downloaded.

use std::path::PathBuf;
use std::time::Duration;

use testgate::parse::Runner;
use testgate::policy::Rerun;
use testgate::{Cause, Record, Sandbox, SandboxedTests, TestConfig, Verdict};

use crate::projects::{bwrap_for, copy_dir, node_modules};
use crate::{NoObserver, assert_fail, assert_inconclusive, repo_root};

/// A fresh copy of `tests/projects/verdicts/NAME` (or of another project
/// under `tests/projects/`), under the repository's `target/`.
struct Copy {
    dir: PathBuf,
    _tmp: tempfile::TempDir,
}

fn copy(project: &str) -> Copy {
    let base = repo_root().join("target/e2e");
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(&base).unwrap();
    let dir = tmp.path().join("project");
    copy_dir(&repo_root().join("tests/projects").join(project), &dir);
    Copy { dir, _tmp: tmp }
}

fn run(sandbox: Sandbox, config: TestConfig) -> Record {
    SandboxedTests::new(sandbox, config.within(Duration::from_secs(300)))
        .run_observed(&mut NoObserver)
}

fn reason(record: &Record) -> &str {
    record.verdict.reason()
}

/// nextest's default fail-fast stops each failing attempt after a number of
/// tests that depends on timing; the same test fails every time, so the
/// verdict is Fail, not `different_suites`.
#[test]
fn nextest_fail_fast_with_a_consistent_failure_is_fail() {
    let project = copy("verdicts/failfast");
    let config = TestConfig::new(&project.dir, "cargo", ["nextest", "run"])
        .format(Runner::Nextest)
        .env("CARGO_TARGET_DIR", project.dir.join("target"))
        .retrying(2);
    let record = run(Sandbox::default(), config);
    assert_fail(&record, &["tests::t17_always_fails"], "nextest fail-fast");
    assert_eq!(record.attempts.len(), 3, "{}", reason(&record));
    let ran: Vec<Option<u64>> = record
        .attempts
        .iter()
        .map(|a| a.report.counts.ran())
        .collect();
    // Fail-fast cut every attempt short of the 40 tests.
    assert!(
        ran.iter().all(|r| r.is_some_and(|r| r < 40)),
        "{ran:?}: {}",
        reason(&record)
    );
}

/// `pytest --lf`: every attempt starts from the tree as submitted, whose
/// `.pytest_cache` (put back after each attempt) holds no last failures,
/// so each runs the whole suite; both fail the same tests. (Before the
/// tree was put back, the second attempt ran only the first's failures:
/// what one attempt left decided what the next ran.)
#[test]
fn pytest_last_failed_is_fail() {
    let project = copy("e2e/pytest");
    let config = TestConfig::new(&project.dir, "python3", ["-m", "pytest", "-q", "--lf"])
        .format(Runner::Pytest)
        .env("TESTGATE_FIXTURE", "fail")
        .retrying(1);
    let record = run(Sandbox::default(), config);
    assert_fail(
        &record,
        crate::projects::failing_names(Runner::Pytest),
        "pytest --lf",
    );
    let ran = |i: usize| record.attempts[i].report.counts.ran();
    assert_eq!(
        ran(1),
        ran(0),
        "the second attempt ran what the first did, not the first's failures"
    );
    assert!(!project.dir.join(".pytest_cache").exists());
}

/// `npm test` whose script calls a runner that is not installed: the
/// shell's 127 is a runner that would not start.
#[test]
fn npm_test_calling_a_missing_runner_would_not_start() {
    let project = copy("verdicts/npm-missing");
    let config = TestConfig::new(&project.dir, "npm", ["test"]).retrying(2);
    let record = run(Sandbox::default(), config);
    assert_inconclusive(&record, Cause::WouldNotStart, "npm test, missing runner");
    assert_eq!(record.attempts.len(), 1, "not retried: {}", reason(&record));
    assert!(
        reason(&record).contains("testgate-missing-runner: not found"),
        "{}",
        reason(&record)
    );
}

#[test]
fn sh_calling_a_missing_runner_would_not_start() {
    let project = copy("verdicts/npm-missing");
    let config =
        TestConfig::new(&project.dir, "sh", ["-c", "testgate-missing-runner --run"]).retrying(2);
    let record = run(Sandbox::default(), config);
    assert_inconclusive(&record, Cause::WouldNotStart, "sh -c, missing runner");
}

/// `npx --no-install jest` where jest is not installed: npx looks it up
/// in the registry. npm is offline in the sandbox, so it fails at once
/// (`ENOTCACHED`); told otherwise (`npm_config_offline=false`), it cannot
/// reach the registry (`EAI_AGAIN`). Either is environment, with the fix
/// first.
#[test]
fn npx_of_a_runner_that_is_not_installed_is_environment() {
    let project = copy("verdicts/npm-missing");
    for (offline, fix) in [
        (
            None,
            "install the project's dependencies first: `npm ci` in the project on the host",
        ),
        (
            Some("false"),
            "the sandbox has no network: install the dependencies first with --prepare 'npm ci'",
        ),
    ] {
        // One fetch try instead of npm's default retries, which take a
        // minute, when npm goes to the registry.
        let mut config = TestConfig::new(&project.dir, "npx", ["--no-install", "jest"])
            .env("npm_config_fetch_retries", "0")
            .retrying(1);
        if let Some(offline) = offline {
            config = config.env("npm_config_offline", offline);
        }
        let record = run(Sandbox::default(), config);
        let what = format!("npx, missing runner, npm_config_offline={offline:?}");
        assert_inconclusive(&record, Cause::Environment, &what);
        assert_eq!(record.attempts.len(), 1, "{what}: not retried");
        assert!(
            reason(&record).starts_with(fix),
            "{what}: the fix leads: {}",
            reason(&record)
        );
    }
}

fn jest_coverage(mode: &str) -> Record {
    let project = copy("verdicts/jest-coverage");
    let modules = node_modules();
    assert!(
        modules.is_dir(),
        "{} is missing: run scripts/setup (npm ci)",
        modules.display()
    );
    std::os::unix::fs::symlink(&modules, project.dir.join("node_modules")).unwrap();
    let config = TestConfig::jest(&project.dir)
        .env("TESTGATE_FIXTURE", mode)
        .retrying(2)
        .rerun(Rerun::Failed);
    run(bwrap_for(true), config)
}

/// Every test passes, but the coverage threshold is missed: Fail, with a
/// reason that says so, not a test name.
#[test]
fn jest_coverage_threshold_under_rerun_failed_is_fail_with_the_reason() {
    let record = jest_coverage("pass");
    match &record.verdict {
        Verdict::Fail { failing, reason } => {
            assert!(failing.is_empty(), "{failing:?}");
            assert!(
                reason.starts_with(
                    "all 3 tests passed; the runner failed the run: coverage below threshold"
                ),
                "{reason}"
            );
        }
        other @ (Verdict::Pass { .. } | Verdict::Inconclusive { .. }) => {
            panic!("expected Fail, got {other:#?}")
        }
    }
}

/// A test fails on the first run only: the targeted retry turns coverage
/// off (one test cannot meet a global threshold) and passes, the full run
/// that confirms it has every test passing: flaky, never a Fail naming
/// the test that just passed.
#[test]
fn jest_coverage_threshold_does_not_turn_a_passing_retry_into_a_fail() {
    let record = jest_coverage("flaky");
    assert_inconclusive(&record, Cause::Flaky, "jest coverage, flaky");
    let retry = &record.attempts[1];
    assert!(
        retry.command.iter().any(|a| a == "--coverage=false"),
        "{:?}",
        retry.command
    );
    assert_eq!(
        retry.attempt.ending,
        testgate::policy::Ending::Exited { code: 0 }
    );
}

/// `npx jest -t nomatch`: jest says no test ran and exits 1 because of the
/// threshold; nothing was proved.
#[test]
fn jest_with_a_filter_that_matches_nothing_is_no_tests_ran() {
    let project = copy("verdicts/jest-coverage");
    std::os::unix::fs::symlink(node_modules(), project.dir.join("node_modules")).unwrap();
    let config = TestConfig::new(
        &project.dir,
        "npx",
        ["--no-install", "jest", "-t", "testgate-nomatch"],
    )
    .format(Runner::Jest)
    .env("CI", "true");
    let record = run(bwrap_for(true), config);
    assert_inconclusive(&record, Cause::NoTestsRan, "jest -t nomatch");
}

/// cargo test without the network on a crate whose registry dependency was
/// never downloaded: the toolchain failed, not the code.
#[test]
fn cargo_without_network_and_dependencies_is_environment() {
    let project = copy("verdicts/cargo-offline");
    let home = project.dir.join("cargo-home");
    let config = TestConfig::cargo(&project.dir)
        .env("CARGO_TARGET_DIR", project.dir.join("target"))
        .env("CARGO_HOME", &home)
        .env("CARGO_NET_RETRY", "0")
        .retrying(2);
    let record = run(Sandbox::default(), config);
    assert_inconclusive(&record, Cause::Environment, "cargo offline");
    assert_eq!(record.attempts.len(), 1, "not retried");
    let reason = reason(&record);
    assert!(
        reason.lines().next().is_some_and(|l| l.contains("--prepare 'cargo fetch'")
            && l.contains("--allow-network")),
        "{reason}"
    );
}

/// The same crate with `--prepare 'cargo fetch'`: the preparation has the
/// network, the attempts then build offline from what it fetched.
#[test]
fn cargo_fetch_as_a_preparation_lets_the_tests_run() {
    let project = copy("verdicts/cargo-offline");
    let home = project.dir.join("cargo-home");
    let config = TestConfig::cargo(&project.dir)
        .env("CARGO_TARGET_DIR", project.dir.join("target"))
        .env("CARGO_HOME", &home)
        .prepare("cargo fetch");
    let record = run(Sandbox::default(), config);
    assert_eq!(record.preparations.len(), 1);
    assert!(
        record.verdict.is_pass(),
        "{:#?}\n{}",
        record.verdict,
        record.preparations[0].preparation.tail
    );
}

/// A toolchain older than the project declares is the environment's
/// failure: before this, `go test` on a module whose go.mod asked for a
/// newer Go was a Fail without names, and `git bisect run` blamed the
/// commit that raised go.mod's version.
#[test]
fn a_toolchain_older_than_the_project_asks_for_is_environment() {
    let cargo = copy("verdicts/cargo-too-old");
    let config = TestConfig::cargo(&cargo.dir)
        .env("CARGO_TARGET_DIR", cargo.dir.join("target"))
        .retrying(1);
    let record = run(Sandbox::default(), config);
    assert_inconclusive(&record, Cause::Environment, "cargo rust-version");
    assert!(
        reason(&record).contains("rustup update"),
        "{}",
        reason(&record)
    );

    for project in ["verdicts/go-too-old", "verdicts/go-new-std"] {
        let go = copy(project);
        let config = TestConfig::new(&go.dir, "go", ["test", "./..."])
            .format(Runner::Go)
            .env("GOTOOLCHAIN", "local")
            .retrying(1);
        let record = run(Sandbox::default(), config);
        assert_inconclusive(&record, Cause::Environment, project);
        assert!(
            reason(&record)
                .lines()
                .next()
                .is_some_and(|l| l.contains("go.mod's `go` line")),
            "{project}: {}",
            reason(&record)
        );
    }
}

/// Runners that retry inside one attempt: a retry that hides a failure is
/// flakiness, whoever retries. Each of these exited 0 or failed only for
/// the flaky test, and was a contradiction, a Pass or a Fail before.
fn flaky_within(project: &str, config: impl Fn(&std::path::Path) -> TestConfig, what: &str) {
    let project = copy(project);
    let record = run(Sandbox::default(), config(&project.dir).retrying(2));
    assert_inconclusive(&record, Cause::Flaky, what);
    assert_eq!(
        record.attempts.len(),
        1,
        "{what}: not retried: {}",
        reason(&record)
    );
    assert!(
        !record.attempts[0].attempt.flaky_within.is_empty()
            || record.attempts[0].attempt.reruns > 0,
        "{what}: {}",
        reason(&record)
    );
    assert!(
        reason(&record).contains("the suite is flaky"),
        "{what}: {}",
        reason(&record)
    );
}

#[test]
fn nextest_retries_that_pass_a_failed_test_are_flaky() {
    flaky_within(
        "parse/cargo/nextest",
        |dir| {
            TestConfig::new(
                dir,
                "cargo",
                [
                    "nextest",
                    "run",
                    "--retries",
                    "2",
                    "-E",
                    "binary(flaky) & test(fails_once)",
                ],
            )
            .format(Runner::Nextest)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            // The counter in the attempt's private /tmp: nothing is written
            // into the project, and each attempt starts from zero.
            .env("FLAKY_COUNTER", "/tmp/flaky-counter")
        },
        "nextest --retries 2",
    );
}

#[test]
fn pytest_reruns_that_pass_a_failed_test_are_flaky() {
    for verbosity in ["-v", "-q"] {
        flaky_within(
            "parse/pytest/rerun",
            |dir| {
                TestConfig::new(
                    dir,
                    "python3",
                    [
                        "-m",
                        "pytest",
                        verbosity,
                        "-p",
                        "no:cacheprovider",
                        "--reruns",
                        "2",
                        "test_rerun.py",
                    ],
                )
                .format(Runner::Pytest)
            },
            &format!("pytest {verbosity} --reruns 2"),
        );
    }
}

#[test]
fn go_test_count_with_a_flaky_test_is_flaky() {
    flaky_within(
        "parse/go/mod",
        |dir| TestConfig::new(dir, "go", ["test", "-count=3", "-v", "./flaky"]).format(Runner::Go),
        "go test -count=3 -v",
    );
}

/// The same without `-v`, over `./...` (issue 28): go's plain console
/// prints the one failed run and the package's `FAIL`, the passes are
/// silent, and this was a Fail. testgate adds `-json` to a recognised `go
/// test`: the events show the failure the later runs passed over.
#[test]
fn go_test_count_without_v_is_flaky_from_its_events() {
    let project = copy("parse/go/mod");
    // Only the flaky package (and go.mod): `./...` is then this suite.
    for entry in std::fs::read_dir(&project.dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.ends_with("flaky") {
            std::fs::remove_dir_all(&path).unwrap();
        }
    }
    let config = TestConfig::new(&project.dir, "go", ["test", "-count=3", "./..."]).retrying(2);
    let record = run(Sandbox::default(), config);
    assert_inconclusive(&record, Cause::Flaky, "go test -count=3 ./...");
    go_count_is_flaky_from_its_events(&record);
    // The same behind `bash -c` (issue 36): go is asked for its events in
    // the script (a Fail before, where the console judged alone).
    let config =
        TestConfig::new(&project.dir, "bash", ["-c", "go test -count=3 ./..."]).retrying(2);
    let record = run(Sandbox::default(), config);
    assert_inconclusive(&record, Cause::Flaky, "bash -c 'go test -count=3 ./...'");
    let script = &record.attempts[0].command;
    assert!(
        script[..2] == ["bash", "-c"]
            && (script[2].contains(" -json ") || script[2].ends_with(" -v=test2json")),
        "{script:?}"
    );
    go_count_is_flaky_from_its_events(&record);
}

/// One attempt, which named the flaky test from go's events, whose tail is
/// go's text rendered back from them.
fn go_count_is_flaky_from_its_events(record: &testgate::Record) {
    assert_eq!(record.attempts.len(), 1, "{}", reason(record));
    let attempt = &record.attempts[0];
    assert_eq!(
        attempt.attempt.flaky_within,
        ["TestFailsOnce"],
        "{}",
        reason(record)
    );
    // The command that ran is the user's with `-v=test2json` (go 1.20+:
    // the test binaries' framing, converted by testgate) or `-json`; the
    // tail is go's text rendered back from the events, not JSON.
    assert!(
        attempt.command.iter().any(|w| w == "-json"
            || w.contains(" -json ")
            || w == "-v=test2json"
            || w.ends_with(" -v=test2json")),
        "{:?}",
        attempt.command
    );
    assert!(
        attempt.attempt.tail.contains("--- FAIL: TestFailsOnce"),
        "{}",
        attempt.attempt.tail
    );
    assert!(
        !attempt.attempt.tail.contains("\"Action\""),
        "{}",
        attempt.attempt.tail
    );
}

/// A target without libtest's harness that fails beside a failing doctest
/// (`tests/projects/parse/cargo/harness`, the shape of env_logger's
/// `regexp_filter`): the Fail names the target by cargo's selector as well
/// as the doctest, and not the `liar` target, which printed cargo's failure
/// lines for itself and passed.
#[test]
fn a_failing_target_without_libtests_harness_is_named() {
    let project = copy("parse/cargo/harness");
    let config = TestConfig::new(&project.dir, "cargo", ["test", "--no-fail-fast"])
        .format(Runner::Cargo)
        .env("CARGO_TARGET_DIR", project.dir.join("target"))
        .retrying(1);
    let record = run(Sandbox::default(), config);
    assert_fail(
        &record,
        &["--test panics", "src/lib.rs - double (line 5)"],
        "harness = false",
    );
    // The liar alone exits 0: its forged line names nothing, and the
    // attempt is a Pass, not a contradiction.
    let config = TestConfig::new(&project.dir, "cargo", ["test", "--test", "liar"])
        .format(Runner::Cargo)
        .env("CARGO_TARGET_DIR", project.dir.join("target"));
    let record = run(Sandbox::default(), config);
    assert!(
        matches!(record.verdict, Verdict::Pass { .. }),
        "{:#?}",
        record.verdict
    );
}

/// A panic in a goroutine a test started kills go's test binary with no
/// `--- FAIL:` line (`tests/projects/parse/go/mod/goroutinepanic`, the
/// shape of BurntSushi/toml's TestDecodeParallel): the Fail names no test,
/// and its reason leads with the binary that died and the test running.
#[test]
fn a_panic_in_a_goroutine_is_said_first() {
    let project = copy("parse/go/mod");
    let config = TestConfig::new(
        &project.dir,
        "go",
        ["test", "-v", "-count=1", "./goroutinepanic"],
    )
    .format(Runner::Go)
    .retrying(1);
    let record = run(Sandbox::default(), config);
    let Verdict::Fail { failing, reason } = &record.verdict else {
        panic!("expected Fail, got {:#?}", record.verdict);
    };
    assert!(failing.is_empty(), "{failing:?}");
    assert!(
        reason.starts_with(
            "the test binary of example.com/tgfixture/goroutinepanic died (panic) \
             while TestPanicsInAGoroutine was running; the goroutine that panicked \
             was started by TestPanicsInAGoroutine (attempts 1, 2)\n"
        ),
        "{reason}"
    );
}
