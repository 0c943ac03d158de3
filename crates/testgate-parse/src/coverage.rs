//! The runner's own words that a coverage threshold was not met: a run
//! whose tests all passed, failed by the runner for its coverage.

use crate::line::LineSplitter;

/// A streaming scan for a coverage threshold that was not met (jest's
/// `coverageThreshold`, vitest's `thresholds`, pytest-cov's
/// `--cov-fail-under`). Feed it the output in chunks of any size; its
/// lines are cut and cleaned as the parser's are, and a
/// [`StreamParser::with_scans`](crate::StreamParser::with_scans) runs it on
/// the lines it splits itself.
///
/// ```
/// use testgate_parse::CoverageScan;
///
/// let mut scan = CoverageScan::new();
/// scan.feed(b"Jest: \"global\" coverage threshold for lines (100%) not met: 50%\n");
/// assert!(scan.finish());
/// ```
#[derive(Debug, Clone, Default)]
pub struct CoverageScan {
    /// The lines of what [`feed`](Self::feed) is given; unused where a
    /// parser gives the lines.
    splitter: LineSplitter,
    below: bool,
}

impl CoverageScan {
    /// A scan that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads `chunk`.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.below {
            return;
        }
        let CoverageScan { splitter, below } = self;
        splitter.feed(chunk, |line| see_output(below, line));
    }

    /// Reads one cleaned line (the parser's recogniser form), `may` its
    /// pre-filter's answer ([`Wanted`](crate::scans::Wanted)).
    pub(crate) fn line(&mut self, text: &str, may: bool) {
        see(&mut self.below, text, may);
    }

    /// Whether the output said that coverage was below a threshold.
    pub fn finish(mut self) -> bool {
        let CoverageScan { splitter, below } = &mut self;
        splitter.finish(|line| see_output(below, line));
        self.below
    }
}

/// A line of the output as fed, through [`see`] without the CI's
/// prefixes, as the parser gives its lines (a CI's own line is none).
fn see_output(below: &mut bool, line: &str) {
    if let Some(line) = crate::ci::runner_text(line) {
        see(below, line, may_be_below(line));
    }
}

/// Whether `line` says coverage missed its threshold, unless one did
/// already; `may` is [`may_be_below`] of it.
fn see(below: &mut bool, line: &str, may: bool) {
    *below = *below || (may && below_threshold(line.trim()));
}

/// Whether `line` may say so: it starts (past its indentation) with the
/// `J` of `Jest: ` or the `F` of `FAIL Required` ([`starts_as_a_verdict`]),
/// or holds the `Coverage ` that the searches within a line need, found
/// from its `C` ([`word_at`]). Most lines cost a byte comparison and one
/// `memchr`, not four searches. The parser's scans read the same in one
/// pass with the environment scan's ([`Wanted`](crate::scans::Wanted)).
pub(crate) fn may_be_below(line: &str) -> bool {
    let bytes = line.as_bytes();
    starts_as_a_verdict(line)
        || memchr::memchr_iter(RARE_BYTE, bytes)
            .any(|at| word_at(bytes.get(at..).unwrap_or_default()))
}

/// Whether `line` starts, past its indentation, as a verdict on coverage
/// may: with the `J` of `Jest: ` or the `F` of `FAIL Required`.
pub(crate) fn starts_as_a_verdict(line: &str) -> bool {
    let first = match line.as_bytes().first() {
        Some(&b) if b <= b' ' || b >= 0x80 => line.trim_start().as_bytes().first(),
        first => first,
    };
    matches!(first, Some(b'J' | b'F'))
}

/// The byte [`word_at`] starts from.
pub(crate) const RARE_BYTE: u8 = b'C';

/// Whether `rest` (of a line, from a [`RARE_BYTE`]) starts with the
/// `Coverage ` the searches within a line need.
pub(crate) fn word_at(rest: &[u8]) -> bool {
    rest.starts_with(b"Coverage ")
}

/// One line of a runner saying that coverage missed its threshold: jest's
/// `Jest: "global" coverage threshold for lines (100%) not met: 50%` (jest
/// 29) and `Jest: Coverage for lines (20%) does not meet "global" threshold
/// (100%)` (jest 30),
/// vitest's `ERROR: Coverage for lines (50%) does not meet global threshold
/// (100%)`, pytest-cov's `FAIL Required test coverage of 90% not reached.`
/// and `Coverage failure: total of 50 is less than fail-under=90`.
fn below_threshold(line: &str) -> bool {
    (line.starts_with("Jest: ")
        && ((line.contains("coverage threshold") && line.contains(" not met"))
            || (line.contains("Coverage for ") && line.contains(" does not meet "))))
        || (line.contains("ERROR: Coverage for ") && line.contains("does not meet"))
        || (line.starts_with("FAIL Required test coverage of ") && line.contains("not reached"))
        || line.contains("Coverage failure: total of ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn below(log: &str) -> bool {
        let mut scan = CoverageScan::new();
        scan.feed(log.as_bytes());
        scan.finish()
    }

    #[test]
    fn each_runners_words() {
        // jest 30.5.2, from tests/e2e/verdicts.rs's project.
        assert!(below(
            "Jest: Coverage for lines (20%) does not meet \"global\" threshold (100%)\n"
        ));
        assert!(below(
            "Jest: \"global\" coverage threshold for statements (90%) not met: 50%\n"
        ));
        assert!(below(
            "ERROR: Coverage for lines (50%) does not meet global threshold (100%)\n"
        ));
        assert!(below(
            "FAIL Required test coverage of 90% not reached. Total coverage: 50.00%\n"
        ));
        assert!(below(
            "ERROR: Coverage failure: total of 50 is less than fail-under=90"
        ));
        // Coloured, as the parser's lines are cleaned.
        assert!(below(
            "\u{1b}[31mFAIL Required test coverage of 90% not reached.\u{1b}[0m\r\n"
        ));
    }

    /// The pre-filter passes each runner's words, indented or not, and
    /// not a runner's ordinary line.
    #[test]
    fn the_pre_filter_passes_each_runners_words() {
        for line in [
            "Jest: \"global\" coverage threshold for lines (100%) not met: 50%",
            "  Jest: Coverage for lines (20%) does not meet \"global\" threshold (100%)",
            "ERROR: Coverage for lines (50%) does not meet global threshold (100%)",
            "FAIL Required test coverage of 90% not reached. Total coverage: 50.00%",
            "x Coverage failure: total of 50 is less than fail-under=90",
        ] {
            assert!(
                may_be_below(line) && below_threshold(line.trim()),
                "{line:?}"
            );
        }
        for line in [
            "test tests::adds ... ok",
            "=== RUN   TestConfig",
            "t.py::test_a PASSED",
        ] {
            assert!(!may_be_below(line), "{line:?}");
        }
    }

    #[test]
    fn not_a_coverage_report_that_passed() {
        assert!(!below(
            "Required test coverage of 90% reached. Total coverage: 95.00%\n"
        ));
        assert!(!below(
            "All files |     100 |      100 |     100 |     100 |\n"
        ));
        assert!(!below("    expect(coverage).toBe('threshold not met')\n"));
    }
}
