//! Each runner's own checks beyond the shared tests of `main.rs`, as data:
//! the `checks` of `runners/<runner>.json`, run by one test per runner
//! that has any (`<runner>_checks`, written by `build.rs`), so a runner's
//! crash, hang, other command or other mode adds lines to its data file,
//! not a Rust test.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;
use testgate::parse::Runner;
use testgate::{Cause, SandboxedTests, Verdict};

use crate::projects::{self, Project, RunData};
use crate::{NoObserver, Where, assert_fail, assert_inconclusive, assert_judged_by_report};

/// One check of a runner's e2e project: a command in a mode, in some
/// places, and what its record must show.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckData {
    /// What it checks, named when it fails.
    what: String,
    /// Its command, where it is not the e2e project's (`e2e.run`).
    #[serde(default)]
    run: Option<RunData>,
    /// `TESTGATE_FIXTURE`: what the project's tests do.
    mode: String,
    /// The retries allowed ([`testgate::TestConfig::retrying`]; none by
    /// default).
    #[serde(default)]
    retries: u32,
    /// The time limit of each attempt, in seconds.
    #[serde(default = "two_minutes")]
    within: u64,
    /// Where it runs: both sandboxes unless said.
    #[serde(default = "sandboxes")]
    places: Vec<Where>,
    /// Files written into the fresh copy of the project before the run,
    /// by their path inside it.
    #[serde(default)]
    write: BTreeMap<String, String>,
    /// What the record must show.
    expect: Expect,
    /// Why the data is as it is, for a reader.
    #[serde(default)]
    #[expect(dead_code, reason = "a comment for the reader of the file")]
    note: Option<String>,
}

/// What a check's record must show: its verdict, and optionally more.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// The verdict.
    verdict: Expected,
    /// Whether every attempt was judged by the runner's own report.
    #[serde(default)]
    by_report: bool,
    /// Whether the first attempt was judged by its console alone (no report
    /// asked, or one whose absence says the runner was not reached).
    #[serde(default)]
    console_alone: bool,
    /// The message of the first attempt's first failing test.
    #[serde(default)]
    message: Option<String>,
    /// The tests the first attempt's report calls flaky (the runner's own
    /// retry passed them).
    #[serde(default)]
    flaky: Option<Vec<String>>,
    /// The number of tests the first attempt's report counts as run.
    #[serde(default)]
    ran: Option<u64>,
    /// The number of attempts the check made.
    #[serde(default)]
    attempts: Option<usize>,
    /// Words the verdict's reason holds.
    #[serde(default)]
    reason_contains: Option<String>,
}

/// An expected verdict: `"pass"`, `{"fail": [names]}` or
/// `{"inconclusive": "cause"}` (a [`Cause::name`]).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Expected {
    /// A Pass, in one attempt.
    Pass,
    /// A Fail naming these tests, in any order (none: a Fail naming
    /// nothing).
    Fail(Vec<String>),
    /// Inconclusive for this cause.
    Inconclusive(#[serde(deserialize_with = "cause")] Cause),
}

fn two_minutes() -> u64 {
    120
}

fn sandboxes() -> Vec<Where> {
    vec![Where::Bwrap, Where::Landlock]
}

/// A [`Cause`] by its name, so a misspelt one fails when the data is read.
fn cause<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Cause, D::Error> {
    let name = String::deserialize(deserializer)?;
    Cause::ALL
        .into_iter()
        .find(|cause| cause.name() == name)
        .ok_or_else(|| serde::de::Error::custom(format!("no cause {name:?}")))
}

impl CheckData {
    /// Runs this check of `runner`'s project in `place`, on a fresh copy.
    fn record(&self, runner: Runner, place: Where) -> testgate::Record {
        let project = Project::copy(runner);
        for (path, text) in &self.write {
            std::fs::write(project.dir.join(path), text)
                .unwrap_or_else(|e| panic!("{runner}: {}: writing {path}: {e}", self.what));
        }
        let run = self
            .run
            .as_ref()
            .unwrap_or_else(|| &projects::data(runner).e2e.run);
        let config = run
            .config(runner, &project.dir)
            .env("TESTGATE_FIXTURE", &self.mode)
            .retrying(self.retries)
            .within(Duration::from_secs(self.within));
        SandboxedTests::new(place.sandbox_for(Some(runner)), config)
            .named(runner.name(), &self.mode)
            .run_observed(&mut NoObserver)
    }
}

impl Expect {
    /// Asserts `record` shows what is expected; `what` names the check.
    fn assert(&self, record: &testgate::Record, what: &str) {
        match &self.verdict {
            Expected::Pass => crate::assert_pass(record, what),
            Expected::Fail(names) if names.is_empty() => match &record.verdict {
                Verdict::Fail { failing, .. } => {
                    assert!(failing.is_empty(), "{what}: expected no names: {failing:?}");
                }
                other @ (Verdict::Pass { .. } | Verdict::Inconclusive { .. }) => {
                    panic!("{what}: expected a Fail naming nothing, got {other:#?}")
                }
            },
            Expected::Fail(names) => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                assert_fail(record, &names, what);
            }
            Expected::Inconclusive(cause) => assert_inconclusive(record, *cause, what),
        }
        if self.by_report {
            assert_judged_by_report(record, &format!("{what}: judged by the report"));
        }
        if self.console_alone {
            assert_eq!(
                record.attempts[0].attempt.evidence,
                testgate::policy::Evidence::ConsoleAlone,
                "{what}: judged by the console alone"
            );
        }
        let first = &record.attempts[0].report;
        if let Some(message) = &self.message {
            let got = first
                .failing
                .first()
                .and_then(|test| test.message.as_deref());
            assert_eq!(
                got,
                Some(message.as_str()),
                "{what}: the first failure's message"
            );
        }
        if let Some(flaky) = &self.flaky {
            assert_eq!(
                &first.flaky, flaky,
                "{what}: the first attempt's flaky tests"
            );
        }
        if let Some(ran) = self.ran {
            assert_eq!(first.counts.ran(), Some(ran), "{what}: the tests run");
        }
        if let Some(words) = &self.reason_contains {
            let reason = record.verdict.reason();
            assert!(
                reason.contains(words.as_str()),
                "{what}: the reason: {reason}"
            );
        }
        if let Some(attempts) = self.attempts {
            assert_eq!(record.attempts.len(), attempts, "{what}: the attempts");
        }
    }
}

/// Runs every check of the runner named `name`, in each of its places.
fn run_checks(name: &str) {
    let runner = crate::rerun::runner_named(name);
    let checks = &projects::data(runner).checks;
    assert!(!checks.is_empty(), "{runner}: no checks in its data file");
    for check in checks {
        for &place in &check.places {
            let what = format!("{runner} check {:?} in {place:?}", check.what);
            check.expect.assert(&check.record(runner, place), &what);
        }
    }
}

macro_rules! checks_tests {
    ($($test:ident: $runner:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_checks($runner);
            }
        )*
    };
}

// `checks_tests! { <name>_checks: "<name>", … }`, one line per runner whose
// data file has `checks`, written by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/checks_tests.rs"));
