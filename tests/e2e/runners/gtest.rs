//! GoogleTest's own e2e tests, beyond those every runner shares (`main.rs`).

use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::projects::{self, Project};
use crate::{
    NoObserver, Where, assert_fail, assert_inconclusive, assert_judged_by_report, assert_pass,
    check,
};

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
