//! The streaming parser: chunks in, the same [`Report`] as the one-shot call.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::formats::{self, Findings, Recognizer};
use crate::line::{Line, LineSplitter};
use crate::report::{Counts, Report};
use crate::runner::{Format, Runner};

/// A parser fed output as it arrives, in chunks of any size (mid-line and
/// mid-UTF-8 character included), that gives the same [`Report`] as
/// [`parse`](crate::parse) on the whole output.
///
/// It keeps at most one partial line of at most [`MAX_LINE`](crate::MAX_LINE)
/// bytes, the recognisers' states, and the names found: nothing else grows
/// with the output.
///
/// ```
/// use testgate_parse::{Format, StreamParser};
///
/// let mut parser = StreamParser::new(Format::Auto);
/// parser.feed(b"--- FAIL: TestPa");
/// parser.feed(b"rse (0.00s)\nFAIL\texample.com/m\t0.01s\n");
/// let report = parser.finish();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["TestParse"]);
/// ```
pub struct StreamParser {
    format: Format,
    splitter: LineSplitter,
    recognizers: Vec<(Runner, Box<dyn Recognizer + Send>)>,
    lines: u64,
}

impl std::fmt::Debug for StreamParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamParser")
            .field("format", &self.format)
            .field("lines", &self.lines)
            .finish_non_exhaustive()
    }
}

impl StreamParser {
    /// A parser for `format` (a [`Runner`] will do); [`Format::Auto`]
    /// recognises every runner.
    pub fn new(format: impl Into<Format>) -> Self {
        let format = format.into();
        let runners: &[Runner] = match &format {
            Format::Auto => &Runner::ALL,
            Format::Runner(runner) => std::slice::from_ref(runner),
        };
        let recognizers = runners
            .iter()
            .map(|&runner| (runner, formats::recognizer(runner)))
            .collect();
        StreamParser {
            format,
            splitter: LineSplitter::default(),
            recognizers,
            lines: 0,
        }
    }

    /// Reads the next chunk of output.
    pub fn feed(&mut self, chunk: &[u8]) {
        let StreamParser {
            splitter,
            recognizers,
            lines,
            ..
        } = self;
        splitter.feed(chunk, |raw| read_line(recognizers, lines, raw));
    }

    /// Ends the output and reports what was understood.
    pub fn finish(mut self) -> Report {
        let StreamParser {
            splitter,
            recognizers,
            lines,
            ..
        } = &mut self;
        splitter.finish(|raw| read_line(recognizers, lines, raw));

        let explicit = self.format != Format::Auto;
        let mut found: Vec<(Runner, Findings)> = self
            .recognizers
            .iter_mut()
            .map(|(f, r)| (*f, r.finish()))
            .filter(|(_, findings)| explicit || findings.detected_at.is_some())
            .collect();
        found.sort_by_key(|(f, findings)| (findings.detected_at.unwrap_or(u64::MAX), *f));

        let mut report = Report {
            format: found
                .first()
                .filter(|(_, findings)| findings.detected_at.is_some())
                .map(|(runner, _)| *runner),
            lines: self.lines,
            long_lines: self.splitter.long_lines,
            ..Report::default()
        };
        let mut counts = Counts::default();
        let mut any_said_none = false;
        let mut failing = Vec::new();
        let mut flaky = Vec::new();
        let mut running = Vec::new();
        for (_, findings) in found {
            running.extend(findings.running);
            flaky.extend(findings.flaky);
            report.reruns = report.reruns.saturating_add(findings.reruns);
            counts.add(findings.counts);
            any_said_none |= findings.no_tests_ran;
            if report.unclosed.is_none() {
                report.unclosed = findings.unclosed;
            }
            failing.extend(findings.failing);
        }
        // Stable: ties keep the recognisers' order.
        failing.sort_by_key(|(index, _)| *index);
        let mut seen = HashSet::new();
        report.failing = failing
            .into_iter()
            .filter(|(_, test)| seen.insert(test.name.clone()))
            .map(|(_, test)| test)
            .collect();
        flaky.sort_by_key(|(index, _)| *index);
        let mut seen = HashSet::new();
        report.flaky = flaky
            .into_iter()
            .filter(|(_, name)| seen.insert(name.clone()))
            .map(|(_, name)| name)
            .collect();
        running.sort_by_key(|(index, _)| *index);
        let mut seen = HashSet::new();
        report.running = running
            .into_iter()
            .filter(|(_, name)| seen.insert(name.clone()))
            .map(|(_, name)| name)
            .collect();
        report.no_tests_ran =
            any_said_none && counts.ran().unwrap_or(0) == 0 && report.failing.is_empty();
        report.counts = counts;
        report
    }
}

fn read_line(
    recognizers: &mut [(Runner, Box<dyn Recognizer + Send>)],
    lines: &mut u64,
    text: Cow<'_, str>,
) {
    let line = Line {
        text,
        index: *lines,
    };
    *lines += 1;
    for (_, recognizer) in recognizers.iter_mut() {
        recognizer.line(&line);
    }
}
