//! The exit codes of `testgate`, in one place: scripts depend on them.

/// The exit codes of `testgate` (`check`, `parse`, `diff`, `verify`,
/// `batch`, `mcp`), as named constants; a batch result line's
/// `exit_code` is one of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestgateExitCode;

impl TestgateExitCode {
    /// The command did its job. For `parse`: every input was read and
    /// parsed, whether or not it names failing tests. For `check`: the
    /// verdict is Pass.
    pub const SUCCESS: u8 = 0;

    /// `check`: the verdict is Fail — the tests failed in every attempt.
    /// `verify`: the record does not hold; `batch`: a check did not meet
    /// its `expect_verdict`.
    pub const FAIL: u8 = 1;

    /// The command could not do its job: a usage error (unknown option,
    /// bad value, empty command, missing directory), an input that could
    /// not be read, or output that could not be written.
    pub const TROUBLE: u8 = 2;

    /// `check`: the verdict is Inconclusive — flaky, timed out, refused,
    /// would not start, no test ran, contradiction, killed from outside.
    /// 125 is what `git bisect run` treats as "this commit cannot be
    /// tested: skip it".
    pub const INCONCLUSIVE: u8 = 125;

    /// testgate was interrupted (SIGINT, SIGTERM, SIGHUP) and ended the
    /// run's whole process tree. 128 + SIGINT, as shells report it; `git
    /// bisect run` aborts on it rather than skipping the commit.
    pub const INTERRUPTED: u8 = 130;
}
