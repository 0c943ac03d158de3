//! The exit codes of `testgate`, in one place: scripts depend on them.

/// The command did its job. For `parse`: every input was read and parsed,
/// whether or not it names failing tests. For `check`: the verdict is Pass.
pub(crate) const SUCCESS: u8 = 0;

/// `check`: the verdict is Fail — the tests failed in every attempt.
pub(crate) const FAIL: u8 = 1;

/// The command could not do its job: a usage error (unknown option, bad
/// value, empty command, missing directory), an input that could not be
/// read, or output that could not be written.
pub(crate) const TROUBLE: u8 = 2;

/// `check`: the verdict is Inconclusive — flaky, timed out, refused, would
/// not start, no test ran, contradiction, killed from outside. 125 is what
/// `git bisect run` treats as "this commit cannot be tested: skip it".
pub(crate) const INCONCLUSIVE: u8 = 125;

/// `check`: testgate was interrupted (SIGINT, SIGTERM, SIGHUP) and ended
/// the run's whole process tree. 128 + SIGINT, as shells report it; `git
/// bisect run` aborts on it rather than skipping the commit.
pub(crate) const INTERRUPTED: u8 = 130;
