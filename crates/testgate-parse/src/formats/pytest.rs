//! The pytest output format. (Stub: to be written.)

use super::{Findings, Recognizer};
use crate::line::Line;

/// Recognises pytest output.
#[derive(Debug, Default)]
pub(crate) struct Pytest {
    findings: Findings,
}

impl Recognizer for Pytest {
    fn line(&mut self, _line: &Line<'_>) {}

    fn finish(&mut self) -> Findings {
        std::mem::take(&mut self.findings)
    }
}
