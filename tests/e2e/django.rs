//! A real Django project (`django-admin startproject site_cfg .` and
//! `manage.py startapp shop`, Django 5.2.9, `tests/projects/e2e/django`)
//! checked with `manage.py test` as detection finds it and as a command,
//! in bubblewrap and under Landlock, as root with default options: Fail
//! with unittest's names, flaky, Pass; graded against names as SWE-bench's
//! Django lists keep them (Python 3.11's spelling, a docstring's line),
//! each shown as listed. Needs Django importable by `python3`
//! (scripts/setup installs it).

use std::path::PathBuf;
use std::time::Duration;

use testgate::parse::Runner;
use testgate::policy::{Evidence, Expectations, Grade};
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::projects::copy_dir;
use crate::{NoObserver, Where, assert_fail, assert_inconclusive, assert_pass, repo_root};

/// The names the `fail` mode fails, as testgate spells them.
const FAILING: [&str; 2] = [
    "test_count (shop.tests.ItemTests)",
    "test_words (shop.tests.PlainTests)",
];

/// A fresh copy of the Django project.
struct Site {
    dir: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Site {
    fn copy() -> Site {
        let base = repo_root().join("target/e2e");
        std::fs::create_dir_all(&base).unwrap();
        let tmp = tempfile::tempdir_in(&base).unwrap();
        let dir = tmp.path().join("django");
        copy_dir(&repo_root().join("tests/projects/e2e/django"), &dir);
        Site { dir, _tmp: tmp }
    }

    /// The command detection finds for the project.
    fn detected(&self) -> TestConfig {
        let found = testgate::detect_command(&self.dir).expect("Django's manage.py");
        assert_eq!(found.runner, Runner::Unittest);
        let (program, args) = found.command.split_first().expect("a program");
        TestConfig::new(&self.dir, program, args.to_vec())
    }
}

fn check(config: TestConfig, mode: &str, place: Where) -> testgate::Record {
    let config = config
        .env("TESTGATE_FIXTURE", mode)
        .retrying(2)
        .within(Duration::from_secs(120));
    SandboxedTests::new(place.sandbox(), config).run_observed(&mut NoObserver)
}

/// Every attempt of `record` was judged by the recorder's report beside
/// the console.
fn assert_report_read(record: &testgate::Record, what: &str) {
    for attempt in &record.attempts {
        assert!(
            matches!(attempt.attempt.evidence, Evidence::Report { .. }),
            "{what}: {:?}",
            attempt.attempt.evidence
        );
    }
}

#[test]
fn a_django_project_fails_with_its_names_flakes_and_passes() {
    for place in [Where::Bwrap, Where::Landlock] {
        let site = Site::copy();
        let verbose = TestConfig::new(&site.dir, "python3", ["manage.py", "test", "-v", "2"]);
        for (config, how) in [
            (site.detected(), "zero-config"),
            (verbose, "manage.py test -v 2"),
        ] {
            let what = format!("{how} in {place:?}");
            let failed = check(config.clone(), "fail", place);
            assert_fail(&failed, &FAILING, &what);
            assert_report_read(&failed, &what);
            let flaky = check(config.clone(), "flaky", place);
            assert_inconclusive(&flaky, Cause::Flaky, &what);
            let passed = check(config, "pass", place);
            assert_pass(&passed, &what);
            assert_report_read(&passed, &what);
        }
    }
}

/// SWE-bench's Django lists name a test as Python 3.11's `-v` prints it,
/// and a test with a docstring by the docstring's line alone (its parser
/// keys each result by the text before ` ... `). Each is graded as its
/// test (from the recorder's report without `-v`, from the console too
/// with it) and shown as the list gave it. Before, both were `not_run`.
#[test]
fn swebench_django_names_are_graded_and_shown_as_listed() {
    let site = Site::copy();
    let listed = [
        "Counts the items it made.",
        "test_words (shop.tests.PlainTests.test_words)",
    ];
    for args in [
        &["manage.py", "test"][..],
        &["manage.py", "test", "-v", "2"],
    ] {
        let expect = Expectations::new(listed, ["test_create (shop.tests.ItemTests.test_create)"]);
        let config = TestConfig::new(&site.dir, "python3", args.to_vec()).expect(expect);
        let record = check(config, "fail", Where::Bwrap);
        let grading = record.grading.as_ref().expect("a grading");
        let shown: Vec<(&str, Option<&str>, Grade)> = grading
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.as_listed.as_deref(), t.grade))
            .collect();
        assert_eq!(
            shown,
            [
                (FAILING[0], Some(listed[0]), Grade::Failed),
                (FAILING[1], Some(listed[1]), Grade::Failed),
                (
                    "test_create (shop.tests.ItemTests)",
                    Some("test_create (shop.tests.ItemTests.test_create)"),
                    Grade::Passed
                ),
            ],
            "{args:?}: {}",
            record.verdict.reason()
        );
        assert_eq!(record.verdict.failing(), FAILING, "{args:?}");
    }
}

/// Python's `-E` ignores `PYTHONPATH`, where the recorder is: no report is
/// written, so the honest project's Pass cannot stand, and the note names
/// the flag (before, it said only that no report was written).
#[test]
fn python_without_pythonpath_is_told_by_its_flag() {
    let site = Site::copy();
    let config = TestConfig::new(&site.dir, "python3", ["-E", "manage.py", "test"]);
    let record = check(config, "pass", Where::Bwrap);
    assert_inconclusive(&record, Cause::Truncated, "python3 -E");
    let note = record.attempts[0]
        .attempt
        .note
        .as_deref()
        .unwrap_or_default();
    assert!(note.starts_with("python's -E ignores PYTHONPATH"), "{note}");
}
