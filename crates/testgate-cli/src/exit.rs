//! The exit codes of `testgate`: testgate-documents' [`TestgateExitCode`],
//! published there because scripts and batch result lines depend on them.

use testgate_documents::TestgateExitCode;

/// [`TestgateExitCode::SUCCESS`].
pub(crate) const SUCCESS: u8 = TestgateExitCode::SUCCESS;

/// [`TestgateExitCode::FAIL`].
pub(crate) const FAIL: u8 = TestgateExitCode::FAIL;

/// [`TestgateExitCode::TROUBLE`].
pub(crate) const TROUBLE: u8 = TestgateExitCode::TROUBLE;

/// [`TestgateExitCode::INCONCLUSIVE`].
pub(crate) const INCONCLUSIVE: u8 = TestgateExitCode::INCONCLUSIVE;

/// [`TestgateExitCode::INTERRUPTED`].
pub(crate) const INTERRUPTED: u8 = TestgateExitCode::INTERRUPTED;
