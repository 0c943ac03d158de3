//! The exit codes of `testgate`, in one place: scripts depend on them.

/// The command did its job. For `parse`: every input was read and parsed,
/// whether or not it names failing tests.
pub(crate) const SUCCESS: u8 = 0;

/// The command could not do its job: a usage error (unknown option, bad
/// value), an input that could not be read, or output that could not be
/// written.
pub(crate) const TROUBLE: u8 = 2;
