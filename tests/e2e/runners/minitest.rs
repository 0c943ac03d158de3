//! minitest's own e2e tests, beyond those every runner shares (`main.rs`).

use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::projects::{self, Project};
use crate::{
    EVERY_PLACE, NoObserver, Where, assert_fail, assert_inconclusive, assert_judged_by_report,
    assert_pass, fixture_check,
};

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
