//! The vitest output format. (Stub: to be written.)

use super::{Findings, Recognizer};
use crate::line::Line;

/// Recognises vitest output.
#[derive(Debug, Default)]
pub(crate) struct Vitest {
    findings: Findings,
}

impl Recognizer for Vitest {
    fn line(&mut self, _line: &Line<'_>) {}

    fn finish(&mut self) -> Findings {
        std::mem::take(&mut self.findings)
    }
}
