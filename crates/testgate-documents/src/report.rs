//! A parser's [`Report`] as `parse --json`'s document (the `report` feature).

use std::borrow::Cow;

use testgate_parse::Report;

use crate::parse::{FailingTest, PARSE_SCHEMA, ParseDocument, Section, Test};
use crate::shared::{Counts, Crash, Outcome};

impl<'a> ParseDocument<'a> {
    /// `parse --json`'s line for `report`, parsed from `file` (`-` for
    /// standard input): what `testgate parse --json` writes, for a tool that
    /// reads logs with `testgate-parse` and writes testgate's own document.
    ///
    /// ```
    /// use testgate_documents::ParseDocument;
    ///
    /// let report = testgate_parse::parse(
    ///     testgate_parse::Format::Auto,
    ///     "--- FAIL: TestParse (0.00s)\nFAIL\texample.com/m\t0.01s\n",
    /// );
    /// let document = ParseDocument::of_file("go.log", &report);
    /// assert_eq!(document.file, "go.log");
    /// assert_eq!(document.failing[0].name, "TestParse");
    /// assert_eq!(document.format.as_deref(), Some("go"));
    /// ```
    pub fn of_file(file: impl Into<Cow<'a, str>>, report: &'a Report) -> ParseDocument<'a> {
        ParseDocument {
            file: file.into(),
            ..ParseDocument::from(report)
        }
    }
}

/// A failing (or risky, or warned) test as the documents give it.
impl<'a> From<&'a testgate_parse::FailingTest> for FailingTest<'a> {
    fn from(test: &'a testgate_parse::FailingTest) -> FailingTest<'a> {
        FailingTest {
            name: Cow::Borrowed(&test.name),
            format: Cow::Borrowed(test.format.name()),
            context: test.context.as_deref().map(Cow::Borrowed),
            kind: Cow::Borrowed(test.kind.name()),
            message: test.message.as_deref().map(Cow::Borrowed),
            excerpt: test.excerpt.as_deref().map(Cow::Borrowed),
        }
    }
}

/// The document of `report` with `file` `-`: set `file` to where it was
/// read, or use [`ParseDocument::of_file`].
impl<'a> From<&'a Report> for ParseDocument<'a> {
    fn from(report: &'a Report) -> ParseDocument<'a> {
        ParseDocument {
            schema: PARSE_SCHEMA,
            file: Cow::Borrowed("-"),
            format: report.format.map(|f| Cow::Borrowed(f.name())),
            failing: report.failing.iter().map(FailingTest::from).collect(),
            counts: Counts {
                passed: report.counts.passed,
                failed: report.counts.failed,
                skipped: report.counts.skipped,
            },
            no_tests_ran: report.no_tests_ran,
            unclosed: report.unclosed.as_deref().map(Cow::Borrowed),
            flaky: Cow::Borrowed(&report.flaky),
            reruns: report.reruns,
            running: Cow::Borrowed(&report.running),
            tests: report
                .tests
                .iter()
                .map(|test| Test {
                    name: Cow::Borrowed(&test.name),
                    outcome: Outcome::from(test.outcome),
                    kind: Cow::Borrowed(test.kind.name()),
                    format: Cow::Borrowed(test.format.name()),
                    context: test.context.as_deref().map(Cow::Borrowed),
                })
                .collect(),
            tests_omitted: report.tests_omitted,
            crashes: report.crashes.iter().map(Crash::from).collect(),
            risky: report.risky.iter().map(FailingTest::from).collect(),
            warned: report.warned.iter().map(FailingTest::from).collect(),
            lines: report.lines,
            long_lines: report.long_lines,
            sections: report
                .sections
                .iter()
                .map(|section| Section {
                    format: Cow::Borrowed(section.runner.name()),
                    step: section.step.as_deref().map(Cow::Borrowed),
                    first_line: section.first_line,
                    last_line: section.last_line,
                    failing: section.failing.clone(),
                    printed: section.printed.clone(),
                })
                .collect(),
        }
    }
}

/// The parser's outcome as the documents spell it.
impl From<testgate_parse::Outcome> for Outcome {
    fn from(outcome: testgate_parse::Outcome) -> Outcome {
        match outcome {
            testgate_parse::Outcome::Passed => Outcome::Passed,
            testgate_parse::Outcome::Failed => Outcome::Failed,
            testgate_parse::Outcome::Error => Outcome::Error,
            testgate_parse::Outcome::Skipped => Outcome::Skipped,
            testgate_parse::Outcome::XFailed => Outcome::XFailed,
            testgate_parse::Outcome::XPassed => Outcome::XPassed,
            testgate_parse::Outcome::Flaky => Outcome::Flaky,
            testgate_parse::Outcome::Running => Outcome::Running,
        }
    }
}

/// A test binary's death as the documents give it.
impl<'a> From<&'a testgate_parse::Crash> for Crash<'a> {
    fn from(crash: &'a testgate_parse::Crash) -> Crash<'a> {
        Crash {
            format: Cow::Borrowed(crash.format.name()),
            binary: crash.binary.as_deref().map(Cow::Borrowed),
            cause: Cow::Borrowed(&crash.cause),
            running: crash.running.as_deref().map(Cow::Borrowed),
            started_by: crash.started_by.as_deref().map(Cow::Borrowed),
        }
    }
}
