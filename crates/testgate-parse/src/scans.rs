//! The scans a parser runs beside its recognisers ([`Scans`]): the
//! environment's failures and the coverage threshold, read on the same
//! lines; below both the stream and its dispatch.

use crate::coverage::CoverageScan;
use crate::environment::EnvironmentScan;

/// The scans a parser runs beside its recognisers, on the same lines.
#[derive(Debug, Default)]
pub(crate) struct Scans {
    pub(crate) environment: EnvironmentScan,
    pub(crate) coverage: CoverageScan,
}

impl Scans {
    /// Reads one cleaned line.
    pub(crate) fn line(&mut self, text: &str) {
        self.environment.line(text);
        self.coverage.line(text);
    }
}
