//! PHPUnit's own e2e tests, beyond those every runner shares (`main.rs`).

use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Cause, SandboxedTests, Verdict};

use crate::projects::{self, Project};
use crate::{
    EVERY_PLACE, NoObserver, Where, assert_fail, assert_inconclusive, assert_judged_by_report,
    assert_pass, check, fixture_check,
};

/// PHPUnit's project alone, in both sandboxes (the shared tests of
/// `main.rs` run it among every runner): Pass, Fail with its names, flaky,
/// and a hang timed out.
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
