//! PHPUnit's own e2e test beyond those every runner shares (`main.rs`)
//! and its checks (`runners/phpunit.json`): kept in Rust as it is not only
//! data: it adds a test file to the project, then a `phpunit.xml` in the
//! middle of the test, and reads the Fail's reason.

use testgate::Verdict;
use testgate::parse::Runner;

use crate::projects::Project;
use crate::{Where, assert_fail, assert_judged_by_report, assert_pass, fixture_check};

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
