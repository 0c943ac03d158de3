//! Grading a change against expected tests, with the real runners under
//! bubblewrap: one runner a language, each in a mode that names passing
//! tests (its `grading` in `runners/<runner>.json`).

use std::time::Duration;

use testgate::parse::Runner;
use testgate::policy::{Expectations, Missing};
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::NoObserver;
use crate::projects::{self, GradingData, Project, failing_names};

/// The runners grading is tested with, in [`Runner::ALL`]'s order: those
/// whose data (`runners/<runner>.json`) has `grading` (one a language, in
/// a mode that names passing tests), so a new runner adds nothing here.
fn graded() -> impl Iterator<Item = Runner> {
    Runner::ALL
        .into_iter()
        .filter(|&runner| projects::data(runner).grading.is_some())
}

/// `runner`'s `grading` data.
fn grading(runner: Runner) -> &'static GradingData {
    projects::data(runner)
        .grading
        .as_ref()
        .unwrap_or_else(|| panic!("{runner}: no `grading` in its runners/{runner}.json"))
}

/// A test that passes in every mode but `hang`.
fn steady(runner: Runner) -> &'static str {
    &grading(runner).steady
}

/// The test the `flaky` mode fails on odd-numbered runs.
fn sometimes(runner: Runner) -> &'static str {
    &grading(runner).sometimes
}

/// The project's command in a mode whose console names passing tests: its
/// `grading` command, else the e2e project's.
fn verbose(project: &Project) -> TestConfig {
    match &grading(project.runner).run {
        Some(run) => run.config(project.runner, &project.dir),
        None => project.config(),
    }
}

fn check(project: &Project, config: TestConfig, mode: &str) -> testgate::Record {
    let config = config
        .env("TESTGATE_FIXTURE", mode)
        .within(Duration::from_secs(120));
    let node = projects::uses_node_modules(project.runner);
    SandboxedTests::new(projects::bwrap_for(node), config).run_observed(&mut NoObserver)
}

fn none() -> Vec<String> {
    Vec::new()
}

#[test]
fn a_fix_graded_by_its_tests_passes_beside_an_unrelated_failure() {
    for runner in graded() {
        let project = Project::copy(runner);
        // `fail` mode: the unrelated tests fail; the fixed one passes.
        let expect = Expectations::new([steady(runner)], none());
        let graded = check(&project, verbose(&project).expect(expect), "fail");
        assert!(
            graded.verdict.is_pass(),
            "{runner}: {}",
            graded.verdict.reason()
        );
        let whole = check(&project, verbose(&project), "fail");
        assert_eq!(whole.verdict.name(), "fail", "{runner}: without --expect");
    }
}

#[test]
fn a_change_that_breaks_a_passing_test_fails_naming_it_as_was_passing() {
    for runner in graded() {
        let project = Project::copy(runner);
        let broken = failing_names(runner)[0];
        let expect = Expectations::new([steady(runner)], [broken]);
        let record = check(&project, verbose(&project).expect(expect), "fail");
        assert_eq!(record.verdict.failing(), [broken], "{runner}");
        assert!(
            record
                .verdict
                .reason()
                .starts_with(&format!("{broken} (was passing)\n")),
            "{runner}: {}",
            record.verdict.reason()
        );
    }
}

#[test]
fn a_flaky_listed_test_is_inconclusive_and_a_renamed_one_not_run() {
    for runner in graded() {
        let project = Project::copy(runner);
        let expect = Expectations::new([steady(runner)], [sometimes(runner)]);
        let record = check(
            &project,
            verbose(&project).expect(expect).retrying(2),
            "flaky",
        );
        assert_eq!(
            record.verdict.cause(),
            Some(Cause::Flaky),
            "{runner}: {}",
            record.verdict.reason()
        );
        let renamed = Expectations::new(["test_that_was_renamed"], none());
        let record = check(&project, verbose(&project).expect(renamed), "pass");
        assert_eq!(
            record.verdict.cause(),
            Some(Cause::NotRun),
            "{runner}: {}",
            record.verdict.reason()
        );
    }
}

/// `pytest -q` names only its failures: a listed test among its counted
/// passes is not seen on the console, and under `--missing fail` that
/// all-green run was a Fail ("never ran") before; where only the console
/// judges (here: the command line turns pytest's JUnit plugin off, so no
/// report can be asked for) it is `not_run`, and the reason says to run
/// `pytest -v`. By default testgate reads pytest's own report, which names
/// every test: the listed test passes under `-q` (issue 28).
#[test]
fn a_runner_that_names_only_failures_cannot_fail_a_listed_test_as_missing() {
    let project = Project::copy(Runner::Pytest);
    let console_alone = TestConfig::new(
        &project.dir,
        "python3",
        [
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:junitxml",
        ],
    )
    .format(Runner::Pytest);
    let expect = Expectations::new([steady(Runner::Pytest)], none()).with_missing(Missing::Fail);
    let record = check(&project, console_alone.expect(expect.clone()), "pass");
    assert_eq!(
        record.verdict.cause(),
        Some(Cause::NotRun),
        "{}",
        record.verdict.reason()
    );
    assert!(
        record.verdict.reason().contains("pytest -v"),
        "{}",
        record.verdict.reason()
    );
    // With pytest's report (the default) the pass is named under -q too.
    let quiet = check(
        &project,
        pytest_quiet(&project).expect(expect.clone()),
        "pass",
    );
    assert!(quiet.verdict.is_pass(), "{}", quiet.verdict.reason());
    // With -v the pass is named on the console as well.
    let named = check(&project, verbose(&project).expect(expect), "pass");
    assert!(named.verdict.is_pass(), "{}", named.verdict.reason());
}

/// `pytest -q` names the every-other-run test only when it fails: stress
/// called it "failed in every one of 4 runs", a Fail, before.
#[test]
fn stress_with_a_runner_that_names_only_failures_finds_the_variation() {
    let project = Project::copy(Runner::Pytest);
    let quiet = pytest_quiet(&project);
    let record = check(&project, quiet.stress(4), "flaky");
    assert_eq!(
        record.verdict.cause(),
        Some(Cause::Flaky),
        "{}",
        record.verdict.reason()
    );
    let varied = record.stress.expect("a stress record");
    let names: Vec<(&str, usize, usize)> = varied
        .iter()
        .map(|v| (v.name.as_str(), v.failed_in, v.out_of))
        .collect();
    assert_eq!(names, [(sometimes(Runner::Pytest), 2, 4)]);
}

#[test]
fn a_baseline_round_trip_fails_what_broke() {
    for runner in graded() {
        let project = Project::copy(runner);
        let base = check(&project, verbose(&project), "pass");
        assert!(
            base.verdict.is_pass(),
            "{runner}: {}",
            base.verdict.reason()
        );
        // What passed on the base commit must keep passing.
        let passed: Vec<String> = base.attempts[0]
            .report
            .tests
            .iter()
            .filter(|t| t.outcome == testgate::parse::Outcome::Passed)
            .map(|t| t.name.clone())
            .collect();
        assert!(passed.len() >= 3, "{runner}: {passed:?}");
        let expect = Expectations::new(none(), passed.clone());
        let same = check(&project, verbose(&project).expect(expect.clone()), "pass");
        assert!(
            same.verdict.is_pass(),
            "{runner}: {}",
            same.verdict.reason()
        );
        let broke = check(&project, verbose(&project).expect(expect), "fail");
        assert_eq!(
            broke.verdict.name(),
            "fail",
            "{runner}: {}",
            broke.verdict.reason()
        );
        for name in broke.verdict.failing() {
            assert!(
                failing_names(runner).contains(&name.as_str()),
                "{runner}: {name}"
            );
            assert!(passed.contains(name), "{runner}: {name} was passing");
        }
    }
}

#[test]
fn stress_finds_the_test_that_fails_every_other_run() {
    for runner in graded() {
        let project = Project::copy(runner);
        let started = std::time::Instant::now();
        let record = check(&project, verbose(&project).stress(10), "flaky");
        let varied = record.stress.expect("a stress record");
        assert_eq!(record.attempts.len(), 10, "{runner}: every run ran");
        let names: Vec<(&str, usize, usize)> = varied
            .iter()
            .map(|v| (v.name.as_str(), v.failed_in, v.out_of))
            .collect();
        assert_eq!(names, [(sometimes(runner), 5, 10)], "{runner}");
        assert_eq!(record.verdict.cause(), Some(Cause::Flaky), "{runner}");
        // The cost of stress mode, for the record (not asserted).
        eprintln!(
            "stress {runner}: 10 runs in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
}

/// `pytest -q` on `project`: it names only the failing tests.
fn pytest_quiet(project: &Project) -> TestConfig {
    TestConfig::new(
        &project.dir,
        "python3",
        ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
    )
    .format(Runner::Pytest)
}

/// unittest without `-v` (its console names no passing test) graded against
/// names as Python 3.11's unittest prints them and SWE-bench's Django lists
/// keep them (`test_x (module.Class.test_x)`): the recorder's report names
/// every test, and the listed names are read as testgate spells them. Before
/// the report (and that reading) every listed test was `not_run`.
#[test]
fn unittest_in_dots_is_graded_by_its_report_against_python_311_names() {
    let project = Project::copy(Runner::Unittest);
    let config = TestConfig::new(&project.dir, "python3", ["-m", "unittest"]);
    let expect = Expectations::new(["test_adds (tests.test_calc.CalcTest.test_adds)"], none());
    let graded = check(&project, config.clone().expect(expect), "fail");
    assert!(graded.verdict.is_pass(), "{}", graded.verdict.reason());
    let broken = failing_names(Runner::Unittest)[0];
    let (method, class) = broken
        .strip_suffix(')')
        .and_then(|n| n.split_once(" ("))
        .expect("a unittest name");
    let as_listed = format!("{method} ({class}.{method})");
    let expect = Expectations::new([as_listed.as_str()], none());
    let record = check(&project, config.expect(expect), "fail");
    assert_eq!(
        record.verdict.failing(),
        [broken],
        "{}",
        record.verdict.reason()
    );
}
