//! The go output format. (Stub: to be written.)

use super::{Findings, Recognizer};
use crate::line::Line;

/// Recognises go output.
#[derive(Debug, Default)]
pub(crate) struct Go {
    findings: Findings,
}

impl Recognizer for Go {
    fn line(&mut self, _line: &Line<'_>) {}

    fn finish(&mut self) -> Findings {
        std::mem::take(&mut self.findings)
    }
}
