//! Targeted retries with the real runners: the projects of
//! `tests/projects/rerun/` checked with `Rerun::Failed`, asserting what
//! each retry ran (its command, its selection, its counts) and the verdict.

use std::path::PathBuf;
use std::time::Duration;

use testgate::parse::Runner;
use testgate::policy::{Rerun, Selection};
use testgate::{Cause, Record, Sandbox, SandboxedTests, TestConfig, Verdict};

use crate::projects::{copy_dir, data};
use crate::{NoObserver, assert_fail, assert_inconclusive, repo_root};

/// A runner as a targeted retry selects its tests: its own command, or
/// `npm test` whose script is the runner's command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The runner's own command (`TestConfig`'s preset for it).
    Direct(Runner),
    /// `npm test`, whose script runs the runner (`jest --ci`, `mocha`,
    /// `node --test`).
    Npm(Runner),
}

/// What a runner's rerun test checks, each by its project's mode of that
/// name (`TESTGATE_FIXTURE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Two tests fail on every run: [`consistent_failure`].
    Fail,
    /// A test fails on its first run only: [`flaky`].
    Flaky,
    /// A test fails after another, passes alone: [`order_dependent`].
    Order,
}

impl Mode {
    /// The mode named `name` in a runner's data (`fail`, `flaky`, `order`).
    fn named(name: &str) -> Option<Mode> {
        match name {
            "fail" => Some(Mode::Fail),
            "flaky" => Some(Mode::Flaky),
            "order" => Some(Mode::Order),
            _ => None,
        }
    }
}

/// What a runner's rerun test checks: the modes run by its own command,
/// and whether `npm test` is checked too.
struct Cases {
    modes: Vec<Mode>,
    npm: bool,
}

/// `runner`'s [`Cases`], from its data (`tests/e2e/runners/<name>.json`,
/// `rerun`); a runner without its file fails
/// `every_runner_has_its_rerun_test`.
fn cases(runner: Runner) -> Cases {
    let rerun = &data(runner).rerun;
    Cases {
        modes: rerun
            .modes
            .iter()
            .map(|name| Mode::named(name).unwrap_or_else(|| panic!("{runner}: no mode {name}")))
            .collect(),
        npm: rerun.npm,
    }
}

impl Kind {
    fn runner(self) -> Runner {
        match self {
            Kind::Direct(runner) | Kind::Npm(runner) => runner,
        }
    }

    /// The project directory under `tests/projects/rerun/`.
    fn project(self) -> &'static str {
        &data(self.runner()).rerun.project
    }

    /// The names the `fail` mode fails, as the parser spells them.
    fn failing(self) -> &'static [&'static str] {
        data(self.runner()).rerun.failing
    }

    /// The name the `order` mode fails.
    fn victim(self) -> &'static str {
        let runner = self.runner();
        data(runner)
            .rerun
            .victim
            .as_deref()
            .unwrap_or_else(|| panic!("{runner}: no order case"))
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
    if crate::projects::uses_node_modules(kind.runner()) {
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
    let runner = match kind {
        Kind::Npm(runner) => {
            return TestConfig::new(dir, "npm", ["test"])
                .format(runner)
                .preset();
        }
        Kind::Direct(runner) => runner,
    };
    let data = data(runner);
    data.rerun
        .run
        .as_ref()
        .unwrap_or(&data.e2e.run)
        .config(runner, dir)
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
    let (sandbox, config) = if kind.runner() == Runner::Go {
        (
            Sandbox::Host,
            config.env("GOCACHE", repo_root().join("target/e2e/go-cache")),
        )
    } else if crate::projects::uses_node_modules(kind.runner()) {
        (crate::projects::bwrap_for(true), config)
    } else {
        (Sandbox::default(), config)
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
    if matches!(kind.runner(), Runner::Jest | Runner::Vitest) {
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

/// `runner`'s [`cases`]: each mode by its own command, then a consistent
/// failure behind `npm test`.
fn reruns_only_the_failed_tests(runner: Runner) {
    let cases = cases(runner);
    for &mode in &cases.modes {
        match mode {
            Mode::Fail => consistent_failure(Kind::Direct(runner)),
            Mode::Flaky => flaky(Kind::Direct(runner)),
            Mode::Order => order_dependent(Kind::Direct(runner)),
        }
    }
    if cases.npm {
        consistent_failure(Kind::Npm(runner));
    }
}

/// One test per runner, and the list of the runners that have one.
macro_rules! rerun_tests {
    ($($test:ident: $runner:literal,)*) => {
        $(
            #[test]
            fn $test() {
                reruns_only_the_failed_tests(runner_named($runner));
            }
        )*

        /// The runners with a test of their own above, by name.
        const TESTED: &[&str] = &[$($runner),*];
    };
}

/// The runner `name` names.
pub(crate) fn runner_named(name: &str) -> Runner {
    Runner::ALL
        .into_iter()
        .find(|runner| runner.name() == name)
        .unwrap_or_else(|| panic!("no runner {name}"))
}

// `rerun_tests! { <name>_reruns_only_the_failed_tests: "<name>", … }`, one
// line per runner's data file, written by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/rerun_tests.rs"));

/// A new runner in `Runner::ALL` fails here until it has its rerun test,
/// its cases, its project and its names (needs no runner installed).
#[test]
fn every_runner_has_its_rerun_test() {
    let mut every: Vec<&str> = Runner::ALL.iter().map(|runner| runner.name()).collect();
    every.sort_unstable();
    assert_eq!(TESTED, every, "one rerun test per runner");
    for runner in Runner::ALL {
        let cases = cases(runner);
        assert!(
            cases.modes.contains(&Mode::Fail),
            "{runner}: {:?}",
            cases.modes
        );
        let kind = Kind::Direct(runner);
        let project = repo_root()
            .join("tests/projects/rerun")
            .join(kind.project());
        assert!(
            project.is_dir(),
            "{runner}: {} is missing",
            project.display()
        );
        assert!(!kind.failing().is_empty(), "{runner}: no failing names");
        if cases.modes.contains(&Mode::Order) {
            assert!(!kind.victim().is_empty(), "{runner}: no victim");
        }
        let _ = config(kind, &project);
    }
}

#[test]
fn a_selector_that_matches_nothing_gives_a_full_retry() {
    let record = check(Kind::Direct(Runner::Pytest), "nomatch", 1);
    let what = "pytest nomatch";
    assert_fail(&record, Kind::Direct(Runner::Pytest).failing(), what);
    assert_eq!(shape(&record), "FOF", "{what}: {:#?}", record.attempts);
    let note = record.attempts[2].attempt.note.as_deref().unwrap_or("");
    assert!(
        note.contains("so the retry runs the full suite"),
        "{what}: the note of attempt 3: {note:?}"
    );
}

#[test]
fn a_command_that_cannot_be_rewritten_runs_in_full_with_a_note() {
    let project = copy(Kind::Direct(Runner::Pytest));
    let config = TestConfig::new(
        &project.dir,
        "sh",
        ["-c", "python3 -m pytest -q -p no:cacheprovider"],
    )
    .env("TESTGATE_FIXTURE", "fail")
    .retrying(1)
    .rerun(Rerun::Failed);
    let record = SandboxedTests::new(Sandbox::Host, config).run_observed(&mut NoObserver);
    assert_fail(
        &record,
        Kind::Direct(Runner::Pytest).failing(),
        "sh -c pytest",
    );
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
    let project = crate::projects::Project::copy(Runner::Pytest);
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
