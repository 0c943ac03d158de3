//! The jest output format. (Stub: to be written.)

use super::{Findings, Recognizer};
use crate::line::Line;

/// Recognises jest output.
#[derive(Debug, Default)]
pub(crate) struct Jest {
    findings: Findings,
}

impl Recognizer for Jest {
    fn line(&mut self, _line: &Line<'_>) {}

    fn finish(&mut self) -> Findings {
        std::mem::take(&mut self.findings)
    }
}
