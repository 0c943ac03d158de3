//! The runner's own report, asked for by default (issue 28): jest's
//! `retryTimes` and vitest's `--retry` retry a failed test inside one run,
//! which no console mode of theirs shows (jest without
//! `logErrorsBeforeRetry`; vitest 4.1's default and dot reporters, only its
//! verbose one prints `(retry x1)`); their JSON reports record the failed
//! try. Real runs of the e2e projects in bubblewrap, as root, with default
//! options.

use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Cause, SandboxedTests, TestConfig};

use crate::projects::Project;
use crate::{NoObserver, Where, assert_inconclusive};

/// `args` run by `npx --no-install` in `runner`'s e2e project in mode
/// `retried`, in bubblewrap.
fn retried(runner: Runner, args: &[&str]) -> testgate::Record {
    let project = Project::copy(runner);
    let mut words = vec!["--no-install"];
    words.extend_from_slice(args);
    let config = TestConfig::new(&project.dir, "npx", words)
        .env("TESTGATE_FIXTURE", "retried")
        .retrying(2)
        .within(Duration::from_secs(120));
    SandboxedTests::new(Where::Bwrap.sandbox_for(Some(runner)), config)
        .run_observed(&mut NoObserver)
}

/// The record's first attempt named `name` flaky within its run, and the
/// verdict is Inconclusive `flaky` after that one attempt.
fn assert_flaky_within(record: &testgate::Record, name: &str, what: &str) {
    assert_inconclusive(record, Cause::Flaky, what);
    let first = &record.attempts[0];
    assert_eq!(first.report.flaky, [name], "{what}: {:#?}", first.report);
    assert!(
        first.report.failing.is_empty(),
        "{what}: nothing failed in the end"
    );
}

#[test]
fn jest_retry_times_without_logging_is_flaky_in_every_console_mode() {
    for args in [&["jest"][..], &["jest", "--verbose"], &["jest", "--silent"]] {
        let record = retried(Runner::Jest, args);
        assert_flaky_within(&record, "calc › once", &format!("{args:?}"));
    }
}

#[test]
fn vitest_retry_is_flaky_in_every_console_mode() {
    for args in [
        &["vitest", "run", "--retry", "2"][..],
        &["vitest", "run", "--retry", "2", "--reporter=dot"],
        &["vitest", "run", "--retry", "2", "--reporter=verbose"],
    ] {
        let record = retried(Runner::Vitest, args);
        assert_flaky_within(&record, "calc > once", &format!("{args:?}"));
    }
}
