//! How a JUnit report's `<testcase>` is read: the case as the XML gives
//! it ([`Case`]), and what each runner reads differently ([`Junit`], one
//! value in each `formats/<runner>.rs`). Apart from `junit.rs`, which reads
//! the XML, so that the formats can name these without reaching it.

use crate::report::{Kind, Outcome};

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// Its `name`.
    pub(crate) name: String,
    /// Its `classname`.
    pub(crate) classname: String,
    /// Its `file` (pytest's xunit1 family).
    pub(crate) file: String,
    /// The name of the `<testsuite>` it lies in.
    pub(crate) suite: String,
    /// The names of every `<testsuite>` it lies in, outermost first, joined
    /// by ` > ` (node's reporter nests one per describe); empty outside
    /// any.
    pub(crate) path: String,
    /// It has a `<failure>`.
    pub(crate) failed: bool,
    /// It has an `<error>` (not PHPUnit's risky one).
    pub(crate) errored: bool,
    /// It has a `<skipped>`.
    pub(crate) skipped: bool,
    /// Its `<skipped>` is pytest's expected failure.
    pub(crate) xfail: bool,
    /// A failure the runner retried into a pass (nextest's `flakyFailure`,
    /// a rerun plugin's `rerunFailure`).
    pub(crate) retried: bool,
    /// Its `time`, in milliseconds.
    pub(crate) duration_ms: Option<u64>,
    /// ctest's `status` attribute (`run`, `fail`, `notrun`, `disabled`),
    /// which no other writer gives a case; empty without one.
    pub(crate) ctest_status: &'static str,
    /// Its `<skipped>` says ctest could not find the test's program, which
    /// ctest's console counts as a failure (`Not Run`).
    pub(crate) unrunnable: bool,
    /// PHPUnit's `class` attribute (`Ns\\Class`).
    pub(crate) class: String,
    /// It has PHPUnit's `class` and `assertions` attributes.
    pub(crate) php: bool,
    /// PHPUnit wrote a risky test's `<error>` (its console and exit
    /// status count the test risky, not failed).
    pub(crate) risky: bool,
    /// It has a `<warning>`: PHPUnit's, which fails PHPUnit 9's run only
    /// under `failOnWarning`.
    pub(crate) warned: bool,
}

impl Case {
    /// The name, in its class as the context: the common reading.
    pub(crate) fn in_classname(&self) -> (String, Option<String>) {
        (self.name.clone(), some(&self.classname))
    }

    /// The name, in its class or else its suite as the context.
    pub(crate) fn in_classname_or_suite(&self) -> (String, Option<String>) {
        (
            self.name.clone(),
            some(&self.classname).or_else(|| some(&self.suite)),
        )
    }
}

/// `s`, unless empty.
fn some(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

/// How one runner's JUnit report is read where it differs from the common
/// reading ([`Junit::COMMON`]): the runner's own, in its
/// `formats/<runner>.rs`, reached through [`crate::formats::junit`]'s
/// exhaustive match.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Junit {
    /// Root or first-suite names that say the runner wrote the report.
    pub(crate) roots: &'static [&'static str],
    /// A `<testsuite>`'s schema location (`noNamespaceSchemaLocation`)
    /// holding this says the runner wrote the report; empty: none does.
    pub(crate) schema: &'static str,
    /// Whether a report that names no writer (no root or schema of a
    /// runner's) is the runner's by its cases alone: all of them are as
    /// only it writes them. Tried in [`crate::Runner::ALL`]'s order.
    pub(crate) wrote: fn(&[Case]) -> bool,
    /// A case's canonical name and context, as the runner's console names
    /// the test.
    pub(crate) name: fn(&Case) -> (String, Option<String>),
    /// What a case of that canonical name is: a test, a file, a suite.
    pub(crate) kind: fn(&str) -> Kind,
    /// The case's outcome where the runner's own attributes decide it
    /// before the common reading.
    pub(crate) outcome: fn(&Case) -> Option<Outcome>,
    /// An `<error>` is an error outside the test's assertions (a fixture,
    /// an exception), as the runner's console says, not a failure.
    pub(crate) errors_apart: bool,
    /// A flaky case stays in `failing`, as the console's parser keeps it.
    pub(crate) flaky_failing: bool,
    /// Several binaries' files may be joined under one root, one of which a
    /// test may have written: a name that failed in any of them failed.
    pub(crate) failed_first: bool,
}

impl Junit {
    /// The common reading: every case a test, named by its `name` in its
    /// `classname`, its outcome by its children.
    pub(crate) const COMMON: Junit = Junit {
        roots: &[],
        schema: "",
        wrote: |_| false,
        name: Case::in_classname,
        kind: |_| Kind::Test,
        outcome: |_| None,
        errors_apart: false,
        flaky_failing: false,
        failed_first: false,
    };
}
