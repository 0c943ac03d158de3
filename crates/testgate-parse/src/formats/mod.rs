//! One module per runner. Each holds a [`Recognizer`]: a line-by-line state
//! machine that notes its runner's failing tests, counts and "no test ran",
//! and decides at the end which of its candidates the runner's own result
//! confirms.

use crate::format::Format;
use crate::line::Line;
use crate::report::{Counts, FailingTest};

mod cargo;
mod go;
mod jest;
mod nextest;
mod pytest;
mod vitest;

/// A runner's line-by-line recogniser.
///
/// Every line of the output reaches every recogniser in auto mode, so
/// `line` must reject foreign lines cheaply (a first-byte or prefix check
/// before any regex) and must keep no list that grows with the output
/// except the names themselves.
pub(crate) trait Recognizer {
    /// Reads one cleaned line.
    fn line(&mut self, line: &Line<'_>);
    /// Ends the output: what this runner's lines said, its candidates now
    /// confirmed or dropped by the runner's own result where it gave one.
    fn finish(&mut self) -> Findings;
}

/// What one recogniser found in a whole log.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    /// The index of the first line that was unmistakably this runner's, or
    /// `None` when none was: then auto mode ignores these findings.
    pub(crate) detected_at: Option<u64>,
    /// Failing tests with the index of the line that first named each.
    pub(crate) failing: Vec<(u64, FailingTest)>,
    /// Counts from the runner's summaries, summed.
    pub(crate) counts: Counts,
    /// The runner said that no test ran.
    pub(crate) no_tests_ran: bool,
}

/// A fresh recogniser for `format`; `None` for [`Format::Auto`].
pub(crate) fn recognizer(format: Format) -> Option<Box<dyn Recognizer + Send>> {
    match format {
        Format::Auto => None,
        Format::Cargo => Some(Box::new(cargo::Cargo::default())),
        Format::Nextest => Some(Box::new(nextest::Nextest::default())),
        Format::Pytest => Some(Box::new(pytest::Pytest::default())),
        Format::Go => Some(Box::new(go::Go::default())),
        Format::Jest => Some(Box::new(jest::Jest::default())),
        Format::Vitest => Some(Box::new(vitest::Vitest::default())),
    }
}
