//! End to end: the real projects of `tests/projects/e2e/` run by the real
//! runners through `SandboxedTests`, in bubblewrap, under Landlock and on
//! the host.

use std::path::{Path, PathBuf};
use std::time::Duration;

use testgate::{Cause, Sandbox, SandboxedTests, TestConfig, Verdict};

mod django;
mod grading;
mod installed;
mod java;
mod projects;
mod real;
mod reports;
mod rerun;
mod sandbox;
mod toolchains;
mod verdicts;

use projects::Project;
use testgate::parse::Runner;

/// Where a run happens.
#[derive(Debug, Clone, Copy)]
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

/// ctest's project in both sandboxes, beyond the shared tests: a crash
/// names its test, ctest's own retries (`--repeat until-pass:2`) make a
/// flaky test flaky within one attempt, and a hang times out; the build
/// runs first as `--prepare` steps (`runners/ctest.json`).
#[test]
fn ctest_crashes_retries_and_hangs() {
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("ctest in {place:?}");
        let project = Project::copy(Runner::Ctest);
        let record = check(&project, "crash", 1, place);
        assert_fail(&record, &["calc.adds"], &what);
        let failing = &record.attempts[0].report.failing;
        assert_eq!(
            failing[0].message.as_deref(),
            Some("Exception: SegFault"),
            "{what}"
        );
        let config = TestConfig::new(
            &project.dir,
            "ctest",
            ["--test-dir", "testgate-build", "--repeat", "until-pass:2"],
        )
        .format(Runner::Ctest)
        .preset()
        .prepare("cmake -S . -B testgate-build")
        .prepare("cmake --build testgate-build")
        .env("TESTGATE_FIXTURE", "flaky")
        .retrying(2)
        .within(Duration::from_secs(120));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::Flaky, &format!("{what}, --repeat"));
        assert_eq!(
            record.attempts[0].report.flaky,
            ["calc.sometimes"],
            "{what}: ctest's own retry"
        );
        let config = project
            .config()
            .env("TESTGATE_FIXTURE", "hang")
            .retrying(2)
            .within(Duration::from_secs(10));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::TimedOut, &format!("{what}, hang"));
    }
}

/// GoogleTest's binary in both sandboxes, beyond the shared tests: Pass,
/// Fail with its names, flaky, a segfault names the test it stopped in, a
/// hang times out, and the bare binary (no `--gtest_` flag: no runner
/// recognised) is judged beside the XML report asked through
/// `GTEST_OUTPUT`; the build runs first as `--prepare` steps
/// (`runners/gtest.json`).
#[test]
fn gtest_crashes_hangs_and_a_bare_binary() {
    let runner = Runner::Gtest;
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("gtest in {place:?}");
        let project = Project::copy(runner);
        assert_pass(&check(&project, "pass", 2, place), &what);
        let record = check(&project, "fail", 1, place);
        assert_fail(&record, projects::failing_names(runner), &what);
        let record = check(&project, "flaky", 2, place);
        assert_inconclusive(&record, Cause::Flaky, &what);
        let record = check(&project, "crash", 1, place);
        assert_fail(&record, &["Calc.Adds"], &format!("{what}, crash"));
        let config = project
            .config()
            .env("TESTGATE_FIXTURE", "hang")
            .within(Duration::from_secs(10));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::TimedOut, &format!("{what}, hang"));
        let bare = |mode: &str| {
            let config = TestConfig::new(
                &project.dir,
                "testgate-build/calc_test",
                std::iter::empty::<&str>(),
            )
            .prepare("cmake -S . -B testgate-build")
            .prepare("cmake --build testgate-build")
            .env("TESTGATE_FIXTURE", mode)
            .retrying(1)
            .within(Duration::from_secs(120));
            SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver)
        };
        let record = bare("fail");
        assert_fail(
            &record,
            projects::failing_names(runner),
            &format!("{what}, bare"),
        );
        for attempt in &record.attempts {
            assert!(
                matches!(
                    attempt.attempt.evidence,
                    testgate::policy::Evidence::Report { .. }
                ),
                "{what}, bare: the XML report is read beside the console: {:?}",
                attempt.attempt.evidence
            );
        }
        assert_pass(&bare("pass"), &format!("{what}, bare"));
    }
}

/// A copy of the GoogleTest project with a second binary, `other_test`,
/// and how to check `calc_test; other_test` behind one `sh -c` wrapper in
/// `place` with `TESTGATE_FIXTURE` set to a mode. `other_test` fails
/// `Other.Fails` under `fail`; under `forge`, `Other.Forges` prints a
/// `[ RUN      ] Other.Ghost` that no result follows and passes; under
/// `forge_at_exit` the process prints it after GoogleTest's closing and
/// exits 0.
fn two_gtest_binaries(place: Where) -> (Project, impl Fn(&str) -> testgate::Record) {
    let project = Project::copy(Runner::Gtest);
    std::fs::write(
        project.dir.join("other_test.cc"),
        r#"#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>

static bool mode(const char* m) {
  const char* set = std::getenv("TESTGATE_FIXTURE");
  return set != nullptr && std::strcmp(set, m) == 0;
}

static void ghost() { std::printf("[ RUN      ] Other.Ghost\n"); }

TEST(Other, Passes) { EXPECT_EQ(2, 1 + 1); }
TEST(Other, Fails) { EXPECT_EQ(mode("fail") ? 3 : 2, 1 + 1); }
TEST(Other, Forges) {
  if (mode("forge")) ghost();
  if (mode("forge_at_exit")) std::atexit(ghost);
}
"#,
    )
    .unwrap();
    let cmake = project.dir.join("CMakeLists.txt");
    let mut lists = std::fs::read_to_string(&cmake).unwrap();
    lists.push_str(
        "add_executable(other_test other_test.cc)\n\
         target_link_libraries(other_test GTest::gtest_main)\n",
    );
    std::fs::write(&cmake, lists).unwrap();
    let dir = project.dir.clone();
    let run = move |mode: &str| {
        let config = TestConfig::new(
            &dir,
            "sh",
            [
                "-c",
                "testgate-build/calc_test; a=$?; testgate-build/other_test; b=$?; \
                 exit $((a | b))",
            ],
        )
        .prepare("cmake -S . -B testgate-build")
        .prepare("cmake --build testgate-build")
        .env("TESTGATE_FIXTURE", mode)
        .retrying(1)
        .within(Duration::from_secs(120));
        SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver)
    };
    (project, run)
}

/// Two GoogleTest binaries behind one wrapper, each with a failing test:
/// asked `GTEST_OUTPUT=xml:DIR/`, each writes its own file there and every
/// file is read, so both binaries' failures are named (before, one
/// `xml:FILE` that the second binary overwrote: only its names). In both
/// sandboxes; and a pass where both pass.
#[test]
fn two_gtest_binaries_behind_one_wrapper_are_both_reported() {
    let runner = Runner::Gtest;
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("two gtest binaries in {place:?}");
        let (_project, run) = two_gtest_binaries(place);
        let record = run("fail");
        let mut names = projects::failing_names(runner).to_vec();
        names.push("Other.Fails");
        assert_fail(&record, &names, &what);
        assert_judged_by_report(&record, &what);
        let record = run("pass");
        assert_pass(&record, &what);
        assert_judged_by_report(&record, &what);
    }
}

/// Two GoogleTest binaries behind one wrapper, the first segfaulting in
/// `Calc.Adds` (the wrapper exits 139): it writes no file into the
/// report's directory and the other's has no failure, so the console's
/// `[ RUN      ] Calc.Adds` with no result names it (before: a Fail naming
/// nothing). Hostile: a passing test that prints a `RUN` line with no
/// result while it runs is its own output (a Pass naming nothing); one
/// printed after the closing, with exit 0, cannot be told from a test
/// that ended the process with 0 mid-run: Inconclusive, never a Pass or a
/// Fail. In both sandboxes.
#[test]
fn a_crashing_gtest_binary_behind_a_wrapper_names_the_test_it_died_in() {
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("two gtest binaries, one crashing, in {place:?}");
        let (_project, run) = two_gtest_binaries(place);
        let record = run("crash");
        assert_fail(&record, &["Calc.Adds"], &what);
        assert_judged_by_report(&record, &what);
        let record = run("forge");
        assert_pass(&record, &format!("{what}: a RUN printed by a test"));
        let record = run("forge_at_exit");
        assert_inconclusive(
            &record,
            Cause::Contradiction,
            &format!("{what}: a RUN printed at exit"),
        );
    }
}

/// unittest: a test module that fails to import is a failure named by the
/// module's dotted name, as unittest's header names it, in both sandboxes.
#[test]
fn a_unittest_module_that_fails_to_import_is_named() {
    for place in [Where::Bwrap, Where::Landlock] {
        let project = Project::copy(Runner::Unittest);
        let record = check(&project, "import", 1, place);
        assert_fail(
            &record,
            &["tests.test_imports"],
            &format!("unittest, a module that fails to import, in {place:?}"),
        );
    }
}

/// A check of `runner`'s e2e project in `dir` by `program args` in
/// `place`, the fixture in `mode`, `retries` retries, within 120 s, the
/// runner's preset otherwise.
fn fixture_check<'a>(
    place: Where,
    runner: Runner,
    dir: &Path,
    program: &str,
    args: impl IntoIterator<Item = &'a str>,
    mode: &str,
    retries: u32,
) -> testgate::Record {
    let config = TestConfig::new(dir, program, args)
        .format(runner)
        .preset()
        .env("TESTGATE_FIXTURE", mode)
        .retrying(retries)
        .within(Duration::from_secs(120));
    SandboxedTests::new(place.sandbox_for(Some(runner)), config)
        .named(runner.name(), mode)
        .run_observed(&mut NoObserver)
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

/// RSpec behind `rake spec` (RSpec's rake task), in both sandboxes: judged
/// by its JSON report (asked through `SPEC_OPTS`, which reaches the rspec
/// rake starts), Fail with its names, and flaky: the retry selects the
/// failed example through a `SPEC_OPTS=` argument of rake's, which then
/// also carries the report's request.
#[test]
fn rspec_behind_rake_spec() {
    let runner = Runner::Rspec;
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("rake spec in {place:?}");
        let project = Project::copy(runner);
        let run = |mode: &str, retries: u32| {
            fixture_check(place, runner, &project.dir, "rake", ["spec"], mode, retries)
        };
        let record = run("pass", 2);
        assert_pass(&record, &what);
        assert!(
            matches!(
                record.attempts[0].attempt.evidence,
                testgate::policy::Evidence::Report { .. }
            ),
            "{what}: {:?}",
            record.attempts[0].attempt.evidence
        );
        let record = run("fail", 1);
        assert_fail(&record, projects::failing_names(runner), &what);
        let record = run("flaky", 2);
        assert_inconclusive(&record, Cause::Flaky, &what);
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
}

/// PHPUnit behind `composer test` (the project's `test` script, a plain
/// PHPUnit command), in both sandboxes: judged by its JUnit report
/// (`--log-junit` after the command's `--`, which composer appends to the
/// script), Fail with its names, and flaky: the retry's `--filter` goes
/// after `--` too.
#[test]
fn phpunit_behind_composer_test() {
    let runner = Runner::Phpunit;
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("composer test in {place:?}");
        let project = Project::copy(runner);
        std::fs::write(
            project.dir.join("composer.json"),
            r#"{"scripts": {"test": "phpunit --colors=never"}}"#,
        )
        .unwrap();
        let run = |mode: &str, retries: u32| {
            fixture_check(
                place,
                runner,
                &project.dir,
                "composer",
                ["test"],
                mode,
                retries,
            )
        };
        let judged_by_report = |record: &testgate::Record| assert_judged_by_report(record, &what);
        let record = run("pass", 2);
        assert_pass(&record, &what);
        judged_by_report(&record);
        let record = run("fail", 1);
        assert_fail(&record, projects::failing_names(runner), &what);
        judged_by_report(&record);
        let record = run("flaky", 2);
        assert_inconclusive(&record, Cause::Flaky, &what);
        judged_by_report(&record);
    }
}

/// PHPUnit `--testdox`: the console names tests by sentences (`✘ Adds
/// negative`), which name no test `--filter` selects; the JUnit report,
/// asked always, names them `Tests\CalcTest::testAddsNegative`: Fail with
/// those names, and a flaky test's retry selects it, in both sandboxes.
#[test]
fn phpunit_testdox_is_named_by_its_report() {
    let runner = Runner::Phpunit;
    for place in [Where::Bwrap, Where::Landlock] {
        let what = format!("phpunit --testdox in {place:?}");
        let project = Project::copy(runner);
        let run = |mode: &str, retries: u32| {
            fixture_check(
                place,
                runner,
                &project.dir,
                "phpunit",
                ["--testdox"],
                mode,
                retries,
            )
        };
        let record = run("fail", 1);
        assert_fail(&record, projects::failing_names(runner), &what);
        assert!(
            matches!(
                record.attempts[0].attempt.evidence,
                testgate::policy::Evidence::Report { .. }
            ),
            "{what}: {:?}",
            record.attempts[0].attempt.evidence
        );
        assert_inconclusive(&run("flaky", 2), Cause::Flaky, &what);
    }
}

/// PHPUnit 9's risky tests and warnings fail a run only where the project
/// asks (`--fail-on-risky`, `--fail-on-warning`; also `failOnRisky` in
/// phpunit.xml): then the run exits 1 with no test failed, and the check
/// names them; otherwise they pass. Judged by the JUnit report, in both
/// sandboxes. Before, the first was a Fail with no name and a run with a
/// warning that PHPUnit passed was Inconclusive (`contradiction`).
#[test]
fn phpunit_risky_and_warned_tests_fail_only_where_the_project_asks() {
    let runner = Runner::Phpunit;
    let risky = "Tests\\ApartTest::testChecksNothing";
    let warned = "Tests\\ApartTest::testWarns";
    for place in [Where::Bwrap, Where::Landlock] {
        let project = Project::copy(runner);
        std::fs::write(
            project.dir.join("tests/ApartTest.php"),
            r#"<?php
namespace Tests;

use PHPUnit\Framework\TestCase;

final class ApartTest extends TestCase
{
    public function testChecksNothing(): void
    {
        if (!in_array(mode(), ['risky', 'both', 'incomplete'], true)) {
            $this->assertTrue(true);
        }
    }

    public function testWarns(): void
    {
        if (in_array(mode(), ['warn', 'both'], true)) {
            $this->addWarning('careful');
        }
        $this->assertTrue(true);
    }

    public function testIsIncomplete(): void
    {
        if (mode() === 'incomplete') {
            $this->markTestIncomplete('later');
        }
        $this->assertTrue(true);
    }
}
"#,
        )
        .unwrap();
        let run = |args: &[&str], mode: &str| {
            let record = fixture_check(
                place,
                runner,
                &project.dir,
                "phpunit",
                args.iter().copied(),
                mode,
                1,
            );
            let what = format!("phpunit {args:?} ({mode}) in {place:?}");
            assert_judged_by_report(&record, &what);
            (record, what)
        };
        let (record, what) = run(&["--fail-on-risky"], "risky");
        assert_fail(&record, &[risky], &what);
        let Verdict::Fail { reason, .. } = &record.verdict else {
            unreachable!("{what}")
        };
        assert!(reason.contains("risky, not failed"), "{what}: {reason}");
        let (record, what) = run(&[], "risky");
        assert_pass(&record, &what);
        let (record, what) = run(&[], "warn");
        assert_pass(&record, &what);
        let (record, what) = run(&["--fail-on-warning"], "warn");
        assert_fail(&record, &[warned], &what);
        // Both kinds in one run: only the kind the project fails on is
        // named, by its flags or its phpunit.xml (before: both).
        let (record, what) = run(&["--fail-on-warning"], "both");
        assert_fail(&record, &[warned], &what);
        let (record, what) = run(&["--fail-on-risky", "--fail-on-warning"], "both");
        assert_fail(&record, &[risky, warned], &what);
        let config = project.dir.join("phpunit.xml.dist");
        let dist = std::fs::read_to_string(&config).unwrap();
        std::fs::write(
            project.dir.join("phpunit.xml"),
            dist.replace("<phpunit ", "<phpunit failOnRisky=\"true\" "),
        )
        .unwrap();
        let (record, what) = run(&[], "both");
        assert_fail(&record, &[risky], &what);
        std::fs::remove_file(project.dir.join("phpunit.xml")).unwrap();
        // failOnIncomplete fails the run on an incomplete test: the risky
        // one beside it did not (before: named), and nothing says which
        // test was incomplete but its outcome: a Fail naming nothing.
        let (record, what) = run(&["--fail-on-incomplete"], "incomplete");
        match &record.verdict {
            Verdict::Fail { failing, .. } => assert!(failing.is_empty(), "{what}: {failing:?}"),
            other @ (Verdict::Pass { .. } | Verdict::Inconclusive { .. }) => {
                panic!("{what}: expected a Fail naming nothing, got {other:#?}")
            }
        }
        let (record, what) = run(&[], "incomplete");
        assert_pass(&record, &what);
    }
}

/// minitest: a test file that fails to load (no test runs, minitest
/// reports nothing) is a failure named by the file's path, relative to the
/// project, through `rake test` (whose loader gives ruby the absolute
/// path) and `ruby -Itest FILE`, in both sandboxes.
#[test]
fn a_minitest_file_that_fails_to_load_is_named() {
    let runner = Runner::Minitest;
    for place in [Where::Bwrap, Where::Landlock] {
        for (program, args) in [
            ("rake", &["test"][..]),
            ("ruby", &["-Itest", "test/loads_test.rb"][..]),
        ] {
            let project = Project::copy(runner);
            let config = TestConfig::new(&project.dir, program, args.iter().copied())
                .format(runner)
                .preset()
                .env("TESTGATE_FIXTURE", "load")
                .within(Duration::from_secs(120));
            let record = SandboxedTests::new(place.sandbox_for(Some(runner)), config)
                .named(runner.name(), "load")
                .run_observed(&mut NoObserver);
            assert_fail(
                &record,
                &["test/loads_test.rb"],
                &format!("minitest, {program} {args:?}, a file that fails to load, in {place:?}"),
            );
        }
    }
}

/// minitest without `-v` (its dots name nothing) judged by the report of
/// testgate's plugin, through `rake test` and `ruby -Itest FILE`, in both
/// sandboxes and on the host: Pass, Fail with its names, flaky.
#[test]
fn minitest_is_judged_by_its_plugins_report() {
    let runner = Runner::Minitest;
    for place in EVERY_PLACE {
        for (program, args) in [
            ("rake", &["test"][..]),
            ("ruby", &["-Itest", "test/calc_test.rb"][..]),
        ] {
            let what = format!("{program} {args:?} in {place:?}");
            let project = Project::copy(runner);
            let run = |mode: &str, retries: u32| {
                fixture_check(
                    place,
                    runner,
                    &project.dir,
                    program,
                    args.iter().copied(),
                    mode,
                    retries,
                )
            };
            let judged_by_report =
                |record: &testgate::Record| assert_judged_by_report(record, &what);
            let record = run("pass", 2);
            assert_pass(&record, &what);
            judged_by_report(&record);
            assert_eq!(record.attempts[0].report.counts.ran(), Some(5), "{what}");
            let record = run("fail", 1);
            assert_fail(&record, projects::failing_names(runner), &what);
            judged_by_report(&record);
            assert_inconclusive(&run("flaky", 2), Cause::Flaky, &what);
        }
    }
}

/// PHPUnit's project alone, in both sandboxes (the shared tests above run
/// it among every runner): Pass, Fail with its names, flaky, and a hang
/// timed out.
#[test]
fn phpunit_in_both_sandboxes() {
    let runner = Runner::Phpunit;
    for place in EVERY_PLACE {
        let what = format!("phpunit in {place:?}");
        let project = Project::copy(runner);
        assert_pass(&check(&project, "pass", 2, place), &what);
        let record = check(&project, "fail", 1, place);
        assert_fail(&record, projects::failing_names(runner), &what);
        let record = check(&project, "flaky", 2, place);
        assert_inconclusive(&record, Cause::Flaky, &what);
        let config = project
            .config()
            .env("TESTGATE_FIXTURE", "hang")
            .within(Duration::from_secs(5));
        let record = SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver);
        assert_inconclusive(&record, Cause::TimedOut, &what);
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
