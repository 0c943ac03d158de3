//! Failing test names from test-runner output: bytes in, names out.
//!
//! testgate-parse reads the output of the test runners of [`Runner::ALL`]
//! (Rust's, Python's, Go's, JavaScript's, Java's, C and C++'s, PHP's and
//! Ruby's; the README lists each with the outputs read), also as CI systems
//! store a job's log (GitHub Actions, Azure Pipelines, GitLab, Buildkite,
//! Jenkins, `docker compose`, tox and nox lines and prefixes taken off),
//! and says which tests failed, every test's outcome where the output
//! names it ([`Report::tests`]), how many ran, and whether the runner said that
//! no test ran at all. It starts no process and touches no file: it is
//! the part of testgate that log-analysis tools can depend on alone.
//!
//! The one-shot entry points are [`failing_tests`], [`detect`] and [`parse`],
//! which returns a [`Report`]. [`StreamParser`] gives the same `Report` from
//! output fed in chunks of any size, in memory bounded by [`MAX_LINE`] and
//! the names themselves. [`tail()`] cuts the end of a log, where runners
//! put their summary.
//!
//! ```
//! let log = "\
//! running 2 tests
//! test tests::adds ... ok
//! test tests::parses_empty ... FAILED
//!
//! failures:
//!     tests::parses_empty
//!
//! test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
//! ";
//! assert_eq!(testgate_parse::failing_tests(log), ["tests::parses_empty"]);
//!
//! let report = testgate_parse::parse(testgate_parse::Format::Auto, log);
//! assert_eq!(report.format, Some(testgate_parse::Runner::Cargo));
//! assert_eq!(report.counts.failed, Some(1));
//! ```
//!
//! # Code map
//!
//! A [`StreamParser`] (`stream.rs`) cuts output into bounded lines
//! ([`MAX_LINE`]; [`crate::line::LineSplitter`]), cleans them (ANSI, CR,
//! invalid UTF-8), takes off the prefixes CI systems put on a job log's
//! lines and drops the CI's own lines ([`crate::ci`]: GitHub Actions,
//! Azure, GitLab, Buildkite, Jenkins, docker compose, tox/nox), classifies
//! each line once ([`crate::formats::LineKey`]) and hands it to each
//! [`Recognizer`](crate::formats::Recognizer) whose
//! [`Interest`](crate::formats::Interest) in its present state holds that
//! class ([`crate::dispatch`]; with an explicit [`Format`] its one
//! recogniser reads every line). There is one recogniser per [`Runner`] in
//! [`crate::formats`], built by [`crate::formats::recognizer`], an
//! exhaustive match. Where a runner ends a scope (a binary, a run, a
//! package, a session) its candidates go through the one confirmation
//! rule, `formats/scope.rs`, with the runner's judgement. What jest
//! and vitest share is [`crate::formats::js`]; a failing test's own output
//! is cut by `formats/excerpt.rs`.
//!
//! [`GoEvents`] renders `go test -json`'s events back to the text `go test
//! -v` prints ([`GoEvents::feed_split`] hands a report's parser every line
//! but the tests' output). [`EnvironmentScan`] and [`CoverageScan`] are
//! recognisers of whole lines that [`StreamParser::with_scans`] runs on the
//! lines it splits itself ([`crate::scans`], below the stream and its
//! dispatch; [`StreamParser::finish_scanned`] gives
//! [`Scanned`]). [`Beside`] sets a runner's own report ([`parse_junit`],
//! [`parse_json_report`]) beside its console. [`Runner`] (`runner.rs`) is
//! the workspace's one list of runners. Fixtures:
//! `tests/fixtures/<format>/*.log`, captured by `tests/capture/*.sh` from
//! the projects in the repository's `tests/projects/parse/` (the
//! `real_*` ones from open-source projects at a pinned commit,
//! `tests/capture/real-projects.sh`).
#![deny(missing_docs)]
#![allow(
    rustdoc::private_intra_doc_links,
    reason = "the code map links the private modules, so that a stale name breaks `cargo doc`"
)]
#![forbid(unsafe_code)]

/// The crate's README, whose example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod beside;
mod ci;
mod coverage;
mod dispatch;
mod environment;
mod formats;
mod junit;
mod junit_case;
mod line;
mod printable;
mod report;
mod runner;
mod scans;
mod sections;
mod stream;
mod tail;

pub use crate::beside::Beside;
pub use crate::coverage::CoverageScan;
pub use crate::environment::{
    EnvironmentFailure, EnvironmentKind, EnvironmentScan, environment_failure,
};
pub use crate::formats::GoFraming;
pub use crate::formats::parse_minitest_report;
pub use crate::formats::parse_mocha_report;
pub use crate::formats::{GoEvents, MAX_EXCERPT, MAX_EXCERPTS, parse_unittest_report};
pub use crate::junit::parse_rspec_json;
pub use crate::junit::{
    is_json_report, is_junit, parse_json_report, parse_json_report_in, parse_junit, parse_junit_of,
};
pub use crate::line::MAX_LINE;
pub use crate::printable::{is_hidden, printable};
pub use crate::report::Section;
pub use crate::report::{
    Counts, Crash, FailingTest, Kind, MAX_TESTS, Outcome, Report, ReportError, TestOutcome,
};
pub use crate::runner::{Format, Runner, UnknownFormat};
pub use crate::stream::{Scanned, StreamParser};
pub use crate::tail::tail;

/// The names of the failing tests in `output`, the runner detected
/// automatically, in order of first appearance and without duplicates.
///
/// Each name is spelled as documented in `docs/formats.md` (for example
/// `tests::parses_empty` for libtest, `TestParse/empty_input` for go).
pub fn failing_tests(output: impl AsRef<[u8]>) -> Vec<String> {
    parse(Format::Auto, output)
        .failing
        .into_iter()
        .map(|test| test.name)
        .collect()
}

/// The runner whose output this is, or `None` when no known runner's lines
/// appear in it. Where several runners' outputs follow each other (a CI log),
/// the first one to appear is named.
pub fn detect(output: impl AsRef<[u8]>) -> Option<Runner> {
    parse(Format::Auto, output).format
}

/// Everything `format`'s parser understood of `output`. With
/// [`Format::Auto`] every known runner is recognised, also several in one
/// log; a [`Runner`] reads only that runner's lines.
pub fn parse(format: impl Into<Format>, output: impl AsRef<[u8]>) -> Report {
    let mut parser = StreamParser::new(format);
    parser.feed(output.as_ref());
    parser.finish()
}
