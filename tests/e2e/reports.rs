//! The runner's own report, asked for by default (issue 28): jest's
//! `retryTimes` and vitest's `--retry` retry a failed test inside one run,
//! which no console mode of theirs shows (jest without
//! `logErrorsBeforeRetry`; vitest 4.1's default and dot reporters, only its
//! verbose one prints `(retry x1)`); their JSON reports record the failed
//! try; nextest's `--retries` under `--status-level none
//! --final-status-level none` shows only `5 passed (1 flaky)`, which its
//! JUnit report (asked for through a tool configuration) names. Real runs
//! of the e2e projects in bubblewrap, as root, with default options.

use std::time::Duration;

use testgate::parse::Runner;
use testgate::policy::Evidence;
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::projects::{Project, failing_names};
use crate::{NoObserver, Where, assert_fail, assert_inconclusive, assert_pass};

/// `args` run by `npx --no-install` in `runner`'s e2e project in mode
/// `retried`, in bubblewrap.
fn retried(runner: Runner, args: &[&str]) -> testgate::Record {
    let mut words = vec!["--no-install"];
    words.extend_from_slice(args);
    retried_by(runner, "npx", &words)
}

/// `program args` in `runner`'s e2e project in mode `retried`, in
/// bubblewrap.
fn retried_by(runner: Runner, program: &str, args: &[&str]) -> testgate::Record {
    let project = Project::copy(runner);
    let config = TestConfig::new(&project.dir, program, args)
        .env("TESTGATE_FIXTURE", "retried")
        .retrying(2)
        .within(Duration::from_secs(120));
    SandboxedTests::new(Where::Bwrap.sandbox_for(Some(runner)), config)
        .run_observed(&mut NoObserver)
}

/// The record's first attempt named `name` flaky within its run, and the
/// verdict is Inconclusive `flaky` after that one attempt.
fn assert_flaky_within(record: &testgate::Record, name: &str, what: &str) {
    assert_inconclusive(record, Cause::Flaky, what);
    let first = &record.attempts[0];
    assert_eq!(first.report.flaky, [name], "{what}: {:#?}", first.report);
    assert!(
        first.report.failing.is_empty(),
        "{what}: nothing failed in the end"
    );
}

#[test]
fn jest_retry_times_without_logging_is_flaky_in_every_console_mode() {
    for args in [&["jest"][..], &["jest", "--verbose"], &["jest", "--silent"]] {
        let record = retried(Runner::Jest, args);
        assert_flaky_within(&record, "calc › once", &format!("{args:?}"));
    }
}

#[test]
fn vitest_retry_is_flaky_in_every_console_mode() {
    for args in [
        &["vitest", "run", "--retry", "2"][..],
        &["vitest", "run", "--retry", "2", "--reporter=dot"],
        &["vitest", "run", "--retry", "2", "--reporter=verbose"],
    ] {
        let record = retried(Runner::Vitest, args);
        assert_flaky_within(&record, "calc > once", &format!("{args:?}"));
    }
}

/// The same two behind `bash -c` (issue 36: immer's and pathe's shapes,
/// run by a harness through a shell): each runner is asked for its report
/// in the script, as a bare command is. PASS on the code before (the
/// console judged alone, and neither console shows the retry).
#[test]
fn retried_within_behind_bash_c_is_flaky() {
    let record = retried_by(Runner::Jest, "bash", &["-c", "npx --no-install jest"]);
    assert_flaky_within(&record, "calc › once", "bash -c 'npx jest'");
    let record = retried_by(
        Runner::Vitest,
        "bash",
        &["-c", "npx --no-install vitest run --retry 2"],
    );
    assert_flaky_within(&record, "calc > once", "bash -c 'npx vitest run --retry 2'");
}

/// Behind pnpm's `test` script (issue 36): the script is read as npm's
/// is, and the runner asked by arguments the way pnpm passes them on
/// (pnpm 9, installed with `npm i -g pnpm`). yarn 1 is asked the same way
/// (`channels.rs`'s unit test) but does not run in the sandbox: it opens
/// `/root/.npmrc`, which the sandbox refuses (`EACCES`), and exits 1.
#[test]
fn retried_within_behind_pnpm_scripts_is_flaky() {
    for (program, runner, script, name) in [
        ("pnpm", Runner::Jest, "jest", "calc › once"),
        (
            "pnpm",
            Runner::Vitest,
            "vitest run --retry 2",
            "calc > once",
        ),
    ] {
        let project = Project::copy(runner);
        std::fs::write(
            project.dir.join("package.json"),
            format!(r#"{{"private": true, "scripts": {{"test": "{script}"}}}}"#),
        )
        .expect("package.json");
        let config = TestConfig::new(&project.dir, program, ["test"])
            .env("TESTGATE_FIXTURE", "retried")
            .retrying(2)
            .within(Duration::from_secs(120));
        let record = SandboxedTests::new(Where::Bwrap.sandbox_for(Some(runner)), config)
            .run_observed(&mut NoObserver);
        assert_flaky_within(&record, name, &format!("{program} test: {script}"));
    }
}

/// Behind `make test`, which no argument reaches, jest and vitest are
/// asked through node's `NODE_OPTIONS`: the same verdicts.
#[test]
fn retried_within_behind_make_is_flaky() {
    for (runner, recipe, name) in [
        (Runner::Jest, "npx --no-install jest", "calc › once"),
        (
            Runner::Vitest,
            "npx --no-install vitest run --retry 2",
            "calc > once",
        ),
    ] {
        let project = Project::copy(runner);
        std::fs::write(project.dir.join("Makefile"), format!("test:\n\t{recipe}\n"))
            .expect("Makefile");
        let config = TestConfig::new(&project.dir, "make", ["test"])
            .env("TESTGATE_FIXTURE", "retried")
            .retrying(2)
            .within(Duration::from_secs(120));
        let record = SandboxedTests::new(Where::Bwrap.sandbox_for(Some(runner)), config)
            .run_observed(&mut NoObserver);
        assert_flaky_within(&record, name, &format!("make test: {recipe}"));
    }
}

/// `cargo nextest run --no-fail-fast ARGS` in the e2e cargo project in
/// mode `mode`, in bubblewrap, retried up to twice.
fn nextest(mode: &str, args: &[&str]) -> testgate::Record {
    let project = Project::copy(Runner::Nextest);
    let mut words = vec!["nextest", "run", "--no-fail-fast"];
    words.extend_from_slice(args);
    let config = TestConfig::new(&project.dir, "cargo", words)
        .env("CARGO_TARGET_DIR", project.dir.join("target"))
        .env("TESTGATE_FIXTURE", mode)
        .retrying(2)
        .within(Duration::from_secs(300));
    SandboxedTests::new(Where::Bwrap.sandbox_for(Some(Runner::Nextest)), config)
        .run_observed(&mut NoObserver)
}

/// Every attempt of `record` was judged by nextest's JUnit report beside
/// its console.
fn assert_report_judged(record: &testgate::Record, what: &str) {
    for attempt in &record.attempts {
        assert!(
            matches!(attempt.attempt.evidence, Evidence::Report { .. }),
            "{what}: {:?}",
            attempt.attempt.evidence
        );
    }
}

#[test]
fn nextest_report_judges_a_pass_and_a_fail_with_its_names() {
    let record = nextest("pass", &[]);
    assert_pass(&record, "nextest pass");
    assert_report_judged(&record, "nextest pass");
    assert_eq!(record.attempts[0].report.counts.ran(), Some(5));
    let record = nextest("fail", &[]);
    assert_fail(&record, failing_names(Runner::Nextest), "nextest fail");
    assert_report_judged(&record, "nextest fail");
}

/// On main before nextest's report was asked for, the silent console mode
/// gave Pass: only the summary's `(1 flaky)` showed the failed try.
#[test]
fn nextest_retries_are_flaky_in_every_console_mode() {
    for args in [
        &["--retries", "2"][..],
        &[
            "--retries",
            "2",
            "--status-level",
            "none",
            "--final-status-level",
            "none",
        ],
    ] {
        let what = format!("{args:?}");
        let record = nextest("flaky", args);
        // nextest's console names the failed try as a failure (docs/formats.md,
        // "Retries: a flake is a failure"), so only the cause is asked here.
        assert_inconclusive(&record, Cause::Flaky, &what);
        let first = &record.attempts[0];
        assert_eq!(
            first.report.flaky,
            ["tests::sometimes"],
            "{what}: {:#?}",
            first.report
        );
        assert_report_judged(&record, &what);
    }
}

/// Where the project's own nextest configuration mentions `junit`,
/// testgate asks for no report (its own would win over a tool's) and the
/// console judges alone; with the `TRY` lines hidden, the summary's `(1
/// flaky)` is all that shows the failed try. It was PASS before the
/// summary's flaky count was read (run by hand with the old binary).
#[test]
fn nextest_retries_hidden_from_the_console_alone_are_flaky() {
    let project = Project::copy(Runner::Nextest);
    std::fs::create_dir_all(project.dir.join(".config")).expect(".config");
    std::fs::write(
        project.dir.join(".config/nextest.toml"),
        "[profile.default.junit]\npath = \"junit.xml\"\n",
    )
    .expect("nextest.toml");
    let words = [
        "nextest",
        "run",
        "--no-fail-fast",
        "--retries",
        "2",
        "--status-level",
        "fail",
        "--final-status-level",
        "fail",
    ];
    let config = TestConfig::new(&project.dir, "cargo", words)
        .env("CARGO_TARGET_DIR", project.dir.join("target"))
        .env("TESTGATE_FIXTURE", "flaky")
        .retrying(2)
        .within(Duration::from_secs(300));
    let record = SandboxedTests::new(Where::Bwrap.sandbox_for(Some(Runner::Nextest)), config)
        .run_observed(&mut NoObserver);
    assert_inconclusive(&record, Cause::Flaky, "the console alone");
    let first = &record.attempts[0];
    assert!(
        first.attempt.evidence == Evidence::ConsoleAlone,
        "{:?}",
        first.attempt.evidence
    );
    assert_eq!(first.report.reruns, 1, "{:#?}", first.report);
}
