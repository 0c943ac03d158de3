//! End to end: the real projects of `tests/projects/e2e/` run by the real
//! runners through `SandboxedTests`, in bubblewrap, under Landlock and on
//! the host.

use std::path::{Path, PathBuf};
use std::time::Duration;

use testgate::{Cause, Sandbox, SandboxedTests, TestConfig, Verdict};

mod checks;
mod django;
mod grading;
mod installed;
mod java;
mod projects;
mod real;
mod reports;
mod rerun;
/// A runner's own tests beyond the shared ones below that cannot be data
/// (`checks` in its `runners/<runner>.json`, run by `checks.rs`), in
/// `runners/<runner>.rs`: a module each, declared by `build.rs`, so a new
/// runner adds its file, not a line here.
mod runners {
    include!(concat!(env!("OUT_DIR"), "/runner_modules.rs"));
}
mod sandbox;
mod toolchains;
mod verdicts;

use projects::Project;
use testgate::parse::Runner;

/// Where a run happens (`"bwrap"`, `"landlock"`, `"host"` in a runner's
/// data file).
#[derive(Debug, Clone, Copy, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Where {
    Bwrap,
    Landlock,
    Host,
}

impl Where {
    fn sandbox(self) -> Sandbox {
        self.sandbox_for(None)
    }

    /// The sandbox for `runner`'s project (node projects need their shared
    /// node_modules visible).
    fn sandbox_for(self, runner: Option<Runner>) -> Sandbox {
        match self {
            Where::Bwrap => projects::bwrap_for(runner.is_some_and(projects::uses_node_modules)),
            Where::Landlock => {
                projects::landlock_for(runner.is_some_and(projects::uses_node_modules))
            }
            Where::Host => Sandbox::Host,
        }
    }
}

const EVERY_PLACE: [Where; 3] = [Where::Bwrap, Where::Landlock, Where::Host];

fn check(project: &Project, mode: &str, retries: u32, place: Where) -> testgate::Record {
    let config = project
        .config()
        .env("TESTGATE_FIXTURE", mode)
        .retrying(retries)
        // Generous: Gradle's cold start and compile took over 120 s at load
        // 30 on two shared cores.
        .within(Duration::from_secs(300));
    SandboxedTests::new(place.sandbox_for(Some(project.runner)), config)
        .named(project.runner.name(), mode)
        .run_observed(&mut NoObserver)
}

struct NoObserver;
impl testgate::Observer for NoObserver {}

fn assert_pass(record: &testgate::Record, what: &str) {
    assert!(
        matches!(record.verdict, Verdict::Pass { .. }),
        "{what}: expected Pass, got {:#?}",
        record.verdict
    );
    assert_eq!(record.attempts.len(), 1, "{what}: a pass runs once");
}

fn assert_fail(record: &testgate::Record, names: &[&str], what: &str) {
    match &record.verdict {
        Verdict::Fail { failing, reason } => {
            let mut got: Vec<&str> = failing.iter().map(String::as_str).collect();
            got.sort_unstable();
            let mut want = names.to_vec();
            want.sort_unstable();
            assert_eq!(got, want, "{what}: failing names; reason:\n{reason}");
            assert!(
                reason.starts_with(failing[0].as_str())
                    || reason.contains(&format!("\n{}", failing[0]))
                    || reason
                        .lines()
                        .next()
                        .is_some_and(|l| l.contains(failing[0].as_str())),
                "{what}: the reason must begin with the names:\n{reason}"
            );
        }
        other @ (Verdict::Pass { .. } | Verdict::Inconclusive { .. }) => {
            panic!("{what}: expected Fail, got {other:#?}")
        }
    }
}

fn assert_inconclusive(record: &testgate::Record, cause: Cause, what: &str) {
    match &record.verdict {
        Verdict::Inconclusive { cause: got, reason } => {
            assert_eq!(*got, cause, "{what}: cause; reason:\n{reason}");
        }
        other @ (Verdict::Pass { .. } | Verdict::Fail { .. }) => {
            panic!("{what}: expected Inconclusive({cause:?}), got {other:#?}")
        }
    }
}

fn each_runner(f: impl Fn(Runner, Where)) {
    for runner in projects::projects() {
        for place in EVERY_PLACE {
            f(runner, place);
        }
    }
}

#[test]
fn passing_suites_pass() {
    each_runner(|runner, place| {
        let project = Project::copy(runner);
        let record = check(&project, "pass", 2, place);
        assert_pass(&record, &format!("{runner:?} in {place:?}"));
    });
}

#[test]
fn failing_suites_fail_with_their_names() {
    each_runner(|runner, place| {
        let project = Project::copy(runner);
        let record = check(&project, "fail", 1, place);
        assert_fail(
            &record,
            projects::failing_names(runner),
            &format!("{runner:?} in {place:?}"),
        );
        assert_eq!(
            record.attempts.len(),
            2,
            "{runner:?}: every attempt runs before a Fail"
        );
    });
}

#[test]
fn flaky_suites_are_inconclusive() {
    each_runner(|runner, place| {
        let project = Project::copy(runner);
        let record = check(&project, "flaky", 2, place);
        assert_inconclusive(&record, Cause::Flaky, &format!("{runner:?} in {place:?}"));
        assert_eq!(
            record.attempts.len(),
            2,
            "{runner:?}: a pass after a failure stops at once"
        );
    });
}

/// Asserts every attempt of `record` was judged by the runner's own report.
fn assert_judged_by_report(record: &testgate::Record, what: &str) {
    for attempt in &record.attempts {
        assert!(
            matches!(
                attempt.attempt.evidence,
                testgate::policy::Evidence::Report { .. }
            ),
            "{what}: {:?}",
            attempt.attempt.evidence
        );
    }
}

#[test]
fn a_hang_times_out() {
    for place in EVERY_PLACE {
        let project = Project::copy(Runner::Pytest);
        let config = project
            .config()
            .env("TESTGATE_FIXTURE", "hang")
            .retrying(2)
            .within(Duration::from_secs(5));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::TimedOut, &format!("hang in {place:?}"));
        assert_eq!(record.attempts.len(), 1, "a timeout is never retried");
    }
}

#[test]
fn a_missing_program_would_not_start() {
    for place in EVERY_PLACE {
        let dir = tempfile::tempdir().unwrap();
        let config = TestConfig::new(dir.path(), "testgate-no-such-runner", ["--x"]);
        let verdict = SandboxedTests::new(place.sandbox(), config).run();
        assert_eq!(
            verdict.cause(),
            Some(Cause::WouldNotStart),
            "{place:?}: {verdict:#?}"
        );
        assert!(
            verdict.reason().contains("testgate-no-such-runner"),
            "{verdict:#?}"
        );
    }
}

#[test]
fn no_test_ran_is_inconclusive() {
    for place in EVERY_PLACE {
        // A filter that matches nothing: cargo test exits 0 having run nothing.
        let project = Project::copy(Runner::Cargo);
        let config = TestConfig::new(&project.dir, "cargo", ["test", "no_test_has_this_name"])
            .env("CARGO_TARGET_DIR", project.dir.join("target"));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(
            &record,
            Cause::NoTestsRan,
            &format!("cargo filter in {place:?}"),
        );
    }
}

#[test]
fn an_exit_status_that_contradicts_the_output_is_inconclusive() {
    for place in EVERY_PLACE {
        let project = Project::copy(Runner::Pytest);
        let config = TestConfig::new(
            &project.dir,
            "sh",
            ["-c", "python3 -m pytest -q -p no:cacheprovider; exit 0"],
        )
        .env("TESTGATE_FIXTURE", "fail");
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(
            &record,
            Cause::Contradiction,
            &format!("exit 0 over failures in {place:?}"),
        );
    }
}

#[test]
fn a_record_names_its_suite() {
    let project = Project::copy(Runner::Pytest);
    let record = check(&project, "pass", 0, Where::Bwrap);
    assert_eq!(record.suite, Some(("pytest".to_owned(), "pass".to_owned())));
    let attempt = &record.attempts[0];
    assert_eq!(attempt.number, 1);
    assert!(
        attempt.report.counts.passed >= Some(5),
        "{:?}",
        attempt.report.counts
    );
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}
