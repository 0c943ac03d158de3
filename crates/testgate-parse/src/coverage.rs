//! The runner's own words that a coverage threshold was not met: a run
//! whose tests all passed, failed by the runner for its coverage.

use crate::line::MAX_LINE;

/// A streaming scan for a coverage threshold that was not met (jest's
/// `coverageThreshold`, vitest's `thresholds`, pytest-cov's
/// `--cov-fail-under`). Feed it the output in chunks of any size.
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
    line: Vec<u8>,
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
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.push(&rest[..end]);
            self.end_line();
            rest = &rest[end + 1..];
        }
        self.push(rest);
    }

    fn push(&mut self, bytes: &[u8]) {
        let room = MAX_LINE.saturating_sub(self.line.len());
        self.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn end_line(&mut self) {
        let text = String::from_utf8_lossy(&self.line);
        self.below = self.below || below_threshold(text.trim());
        self.line.clear();
    }

    /// Whether the output said that coverage was below a threshold.
    pub fn finish(mut self) -> bool {
        if !self.line.is_empty() {
            self.end_line();
        }
        self.below
    }
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
