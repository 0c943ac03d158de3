//! The nextest output format. (Stub: to be written.)

use super::{Findings, Recognizer};
use crate::line::Line;

/// Recognises nextest output.
#[derive(Debug, Default)]
pub(crate) struct Nextest {
    findings: Findings,
}

impl Recognizer for Nextest {
    fn line(&mut self, _line: &Line<'_>) {}

    fn finish(&mut self) -> Findings {
        std::mem::take(&mut self.findings)
    }
}
