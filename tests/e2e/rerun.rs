//! Targeted retries with the real runners: the projects of
//! `tests/projects/rerun/` checked with `Rerun::Failed`, asserting what
//! each retry ran (its command, its selection, its counts) and the verdict.

use std::path::PathBuf;
use std::time::Duration;

use testgate::policy::{Rerun, Selection};
use testgate::{Cause, Record, Sandbox, SandboxedTests, TestConfig, Verdict};

use crate::projects::copy_dir;
use crate::{NoObserver, assert_fail, assert_inconclusive, repo_root};

/// A runner as a targeted retry selects its tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Cargo,
    Nextest,
    Pytest,
    Go,
    Jest,
    /// jest behind `npm test`, whose script is `jest --ci`.
    NpmJest,
    Vitest,
    Mocha,
    /// mocha behind `npm test`, whose script is `mocha`.
    NpmMocha,
    /// `node --test`.
    Node,
    /// `node --test` behind `npm test`, whose script is `node --test`.
    NpmNode,
}

impl Kind {
    /// The project directory under `tests/projects/rerun/`.
    fn project(self) -> &'static str {
        match self {
            Kind::Cargo | Kind::Nextest => "cargo",
            Kind::Pytest => "pytest",
            Kind::Go => "go",
            Kind::Jest | Kind::NpmJest => "node/jest",
            Kind::Vitest => "node/vitest",
            Kind::Mocha | Kind::NpmMocha => "node/mocha",
            Kind::Node | Kind::NpmNode => "node/node",
        }
    }

    /// The names the `fail` mode fails, as the parser spells them.
    fn failing(self) -> &'static [&'static str] {
        match self {
            Kind::Cargo | Kind::Nextest => &["tests::fails", "tests::ünïcode_fails"],
            Kind::Pytest => &[
                "tests/test_rerun.py::test_named[with space [and] - dash]",
                "tests/test_rerun.py::test_named[a.b*(c)|d]",
                "tests/test_rerun.py::TestBox::test_unicode_ünï",
            ],
            Kind::Go => &[
                "TestNamed",
                "TestNamed/with_space_(and)_[brackets]_+_ünï",
                "TestNamed/a.b*c|d^$",
                "TestOther",
            ],
            Kind::Jest | Kind::NpmJest => {
                &["calc › named (x) [y] + ünï › a.b*c|d^$ ✓", "calc › fails"]
            }
            // One name: see the fixture's `fails` test.
            Kind::Vitest => &["calc > named (x) [y] + ünï > a.b*c|d^$ ✓"],
            Kind::Mocha | Kind::NpmMocha => &["calc named (x) [y] + ünï a.b*c|d^$ ✓", "calc fails"],
            Kind::Node | Kind::NpmNode => {
                &["calc > named (x) [y] + ünï > a.b*c|d^$ ✓", "calc > fails"]
            }
        }
    }

    /// The name the `order` mode fails.
    fn victim(self) -> &'static str {
        match self {
            Kind::Cargo | Kind::Nextest => "tests::b_victim",
            Kind::Pytest => "tests/test_rerun.py::test_b_victim",
            Kind::Go => "TestBVictim",
            Kind::Jest | Kind::NpmJest => "calc › b victim",
            Kind::Vitest => "calc > b victim",
            Kind::Mocha | Kind::NpmMocha => "calc b victim",
            Kind::Node | Kind::NpmNode => "calc > b victim",
        }
    }
}

/// A fresh copy of a project, under the repository's `target/`.
struct Copy {
    dir: PathBuf,
    _tmp: tempfile::TempDir,
}

fn copy(kind: Kind) -> Copy {
    let base = repo_root().join("target/e2e");
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(&base).unwrap();
    let dir = tmp.path().join("project");
    copy_dir(
        &repo_root()
            .join("tests/projects/rerun")
            .join(kind.project()),
        &dir,
    );
    if matches!(
        kind,
        Kind::Jest | Kind::NpmJest | Kind::Vitest | Kind::Mocha | Kind::NpmMocha
    ) {
        let modules = repo_root().join("tests/projects/e2e/node/node_modules");
        assert!(
            modules.is_dir(),
            "{} is missing: run scripts/setup (npm ci)",
            modules.display()
        );
        std::os::unix::fs::symlink(&modules, dir.join("node_modules")).unwrap();
    }
    Copy { dir, _tmp: tmp }
}

fn config(kind: Kind, dir: &std::path::Path) -> TestConfig {
    match kind {
        // `-q`: with one test thread libtest prints `test x ... ` before the
        // test runs, and cargo's status lines on stderr may land inside it.
        Kind::Cargo => TestConfig::new(dir, "cargo", ["test", "-q"])
            .format(testgate::parse::Runner::Cargo)
            .env("CARGO_TARGET_DIR", dir.join("target")),
        // nextest cancels the run at the first failure by default, which
        // would leave the second failing name to chance.
        Kind::Nextest => TestConfig::new(dir, "cargo", ["nextest", "run", "--no-fail-fast"])
            .format(testgate::parse::Runner::Nextest)
            .env("CARGO_TARGET_DIR", dir.join("target")),
        Kind::Pytest => TestConfig::pytest(dir),
        Kind::Go => TestConfig::go(dir),
        Kind::Jest => TestConfig::jest(dir),
        Kind::NpmJest => TestConfig::new(dir, "npm", ["test"])
            .format(testgate::parse::Runner::Jest)
            .env("CI", "true"),
        Kind::Vitest => TestConfig::vitest(dir),
        Kind::Mocha => TestConfig::mocha(dir),
        Kind::NpmMocha => TestConfig::new(dir, "npm", ["test"])
            .format(testgate::parse::Runner::Mocha)
            .preset(),
        Kind::Node => TestConfig::node_test(dir),
        Kind::NpmNode => TestConfig::new(dir, "npm", ["test"])
            .format(testgate::parse::Runner::Node)
            .preset(),
    }
}

/// `kind`'s project in `mode`, checked with targeted retries.
fn check(kind: Kind, mode: &str, retries: u32) -> Record {
    let project = copy(kind);
    let config = config(kind, &project.dir)
        .env("TESTGATE_FIXTURE", mode)
        .retrying(retries)
        .rerun(Rerun::Failed)
        .within(Duration::from_secs(120));
    // go in bubblewrap rebuilds the standard library's test support into a
    // private /tmp cache at every attempt (about 10 s each here): go runs
    // on the host with one cache shared by every go test instead. What a
    // retry selects does not depend on the sandbox.
    let (sandbox, config) = match kind {
        Kind::Go => (
            Sandbox::Host,
            config.env("GOCACHE", repo_root().join("target/e2e/go-cache")),
        ),
        Kind::Jest | Kind::NpmJest | Kind::Vitest | Kind::Mocha | Kind::NpmMocha => {
            (crate::projects::bwrap_for(true), config)
        }
        Kind::Cargo | Kind::Nextest | Kind::Pytest | Kind::Node | Kind::NpmNode => {
            (Sandbox::default(), config)
        }
    };
    SandboxedTests::new(sandbox, config).run_observed(&mut NoObserver)
}

/// The selections of the attempts, `F` for full and `O` for only.
fn shape(record: &Record) -> String {
    record
        .attempts
        .iter()
        .map(|a| match a.attempt.selection {
            Selection::Full => 'F',
            Selection::Only(_) => 'O',
        })
        .collect()
}

/// The ran count of attempt `index`, as the parser read it.
fn ran(record: &Record, index: usize) -> Option<u64> {
    record.attempts[index].report.counts.ran()
}

/// A consistent failure: two targeted retries that run exactly the failing
/// tests (and no test whose name they only start), then Fail.
fn consistent_failure(kind: Kind) {
    let record = check(kind, "fail", 2);
    let what = format!("{kind:?} fail");
    assert_fail(&record, kind.failing(), &what);
    assert_eq!(shape(&record), "FOO", "{what}: {:#?}", record.attempts);
    for index in [1, 2] {
        assert_eq!(
            ran(&record, index),
            Some(kind.failing().len() as u64),
            "{what}: attempt {} ran exactly the selected tests: {:?}",
            index + 1,
            record.attempts[index].command
        );
    }
    if matches!(kind, Kind::Jest | Kind::NpmJest | Kind::Vitest) {
        // Only the failing file ran: `other.test.js`'s test is not even
        // counted as skipped.
        let total = |index: usize| {
            let c = record.attempts[index].report.counts;
            c.passed.unwrap_or(0) + c.failed.unwrap_or(0) + c.skipped.unwrap_or(0)
        };
        assert_eq!(
            total(1) + 1,
            total(0),
            "{what}: {:?}",
            record.attempts[1].command
        );
    }
    // go states counts only with -v, which the targeted retry adds.
    if let Some(full) = ran(&record, 0) {
        assert!(full >= 20, "{what}: the full run ran {full} tests");
    }
}

/// Fails on its first run only: the targeted retry passes, the full run
/// that confirms it passes too: flaky.
fn flaky(kind: Kind) {
    let record = check(kind, "flaky", 2);
    let what = format!("{kind:?} flaky");
    assert_inconclusive(&record, Cause::Flaky, &what);
    assert_eq!(shape(&record), "FOF", "{what}: {:#?}", record.attempts);
}

/// Fails in the suite, passes alone: Inconclusive `order_dependent`, the
/// victim named first, then "fails in the full suite, passes alone".
fn order_dependent(kind: Kind) {
    let record = check(kind, "order", 2);
    let what = format!("{kind:?} order");
    assert_inconclusive(&record, Cause::OrderDependent, &what);
    assert_eq!(shape(&record), "FOF", "{what}: {:#?}", record.attempts);
    assert_eq!(
        ran(&record, 1),
        Some(1),
        "{what}: the targeted retry ran the victim alone"
    );
    let Verdict::Inconclusive { reason, .. } = &record.verdict else {
        unreachable!("assert_inconclusive checked it");
    };
    assert!(reason.starts_with(kind.victim()), "{what}: {reason}");
    assert!(
        reason.contains("fails in the full suite, passes alone"),
        "{what}: {reason}"
    );
}

#[test]
fn cargo_test_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Cargo);
    flaky(Kind::Cargo);
    order_dependent(Kind::Cargo);
}

#[test]
fn cargo_nextest_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Nextest);
    // nextest runs each test in its own process: no order dependence.
    flaky(Kind::Nextest);
}

#[test]
fn pytest_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Pytest);
    flaky(Kind::Pytest);
    order_dependent(Kind::Pytest);
}

#[test]
fn go_test_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Go);
    flaky(Kind::Go);
    order_dependent(Kind::Go);
}

#[test]
fn jest_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Jest);
    order_dependent(Kind::Jest);
    consistent_failure(Kind::NpmJest);
}

#[test]
fn vitest_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Vitest);
    flaky(Kind::Vitest);
}

#[test]
fn mocha_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Mocha);
    flaky(Kind::Mocha);
    order_dependent(Kind::Mocha);
    consistent_failure(Kind::NpmMocha);
}

#[test]
fn node_test_reruns_only_the_failed_tests() {
    consistent_failure(Kind::Node);
    flaky(Kind::Node);
    order_dependent(Kind::Node);
    consistent_failure(Kind::NpmNode);
}

#[test]
fn a_selector_that_matches_nothing_gives_a_full_retry() {
    let record = check(Kind::Pytest, "nomatch", 1);
    let what = "pytest nomatch";
    assert_fail(&record, Kind::Pytest.failing(), what);
    assert_eq!(shape(&record), "FOF", "{what}: {:#?}", record.attempts);
    let note = record.attempts[2].attempt.note.as_deref().unwrap_or("");
    assert!(
        note.contains("so the retry runs the full suite"),
        "{what}: the note of attempt 3: {note:?}"
    );
}

#[test]
fn a_command_that_cannot_be_rewritten_runs_in_full_with_a_note() {
    let project = copy(Kind::Pytest);
    let config = TestConfig::new(
        &project.dir,
        "sh",
        ["-c", "python3 -m pytest -q -p no:cacheprovider"],
    )
    .env("TESTGATE_FIXTURE", "fail")
    .retrying(1)
    .rerun(Rerun::Failed);
    let record = SandboxedTests::new(Sandbox::Host, config).run_observed(&mut NoObserver);
    assert_fail(&record, Kind::Pytest.failing(), "sh -c pytest");
    // The retry ran the full command, and is recorded as full: it must not
    // count as "passed when run alone".
    assert_eq!(shape(&record), "FF", "{:#?}", record.attempts);
    let note = record.attempts[1].attempt.note.as_deref().unwrap_or("");
    assert_eq!(
        note,
        "ran the full suite instead of only 3 tests: `sh` is not a test runner testgate can \
         select tests of"
    );
}

/// Why `Rerun::All` stays the default: a test that fails on odd-numbered
/// runs (the e2e pytest fixture's `flaky` mode) fails in full, passes
/// alone, and fails in the confirming full run, which one confirming run
/// cannot tell from order dependence. `Rerun::All` calls it flaky
/// (`flaky_suites_are_inconclusive`); `Rerun::Failed` Inconclusive
/// `order_dependent` — never a Fail, since the attempts disagreed.
#[test]
fn alternating_flakiness_reads_as_order_dependence_under_rerun_failed() {
    let project = crate::projects::Project::copy(testgate::parse::Runner::Pytest);
    let config = project
        .config()
        .env("TESTGATE_FIXTURE", "flaky")
        .retrying(2)
        .rerun(Rerun::Failed);
    let record = SandboxedTests::new(Sandbox::default(), config).run_observed(&mut NoObserver);
    assert_inconclusive(&record, Cause::OrderDependent, "alternating flake");
    assert!(
        record
            .verdict
            .reason()
            .starts_with("tests/test_calc.py::test_sometimes\n"),
        "{}",
        record.verdict.reason()
    );
    assert_eq!(
        record.findings.always_failed,
        ["tests/test_calc.py::test_sometimes"]
    );
    assert!(record.findings.order_dependence.is_some());
    assert_eq!(shape(&record), "FOF", "{:#?}", record.attempts);
}
