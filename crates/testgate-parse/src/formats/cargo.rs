//! The cargo output format. (Stub: to be written.)

use super::{Findings, Recognizer};
use crate::line::Line;

/// Recognises cargo output.
#[derive(Debug, Default)]
pub(crate) struct Cargo {
    findings: Findings,
}

impl Recognizer for Cargo {
    fn line(&mut self, _line: &Line<'_>) {}

    fn finish(&mut self) -> Findings {
        std::mem::take(&mut self.findings)
    }
}
