//! `check --junit FILE` and `--swebench-report FILE`: the check's results
//! in the formats other harnesses read, written as `--record` is.

use std::path::Path;

use testgate_documents::{CheckDocument, JunitReport, SwebenchReport};

use crate::Error;

/// Why `--junit` or `--swebench-report` could not be written: a one-line
/// message naming the report.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum OutputError {
    /// The SWE-bench report could not be serialised.
    #[error("cannot write the SWE-bench report: {0}")]
    Serialise(#[source] serde_json::Error),
    /// The file could not be written.
    #[error("cannot write {what}: {source}")]
    Write {
        /// The report, in words (`the JUnit report`).
        what: &'static str,
        /// Why not.
        source: testgate::run::ProjectFileError,
    },
}

/// What `--swebench-report` needs besides the check: the instance's id and
/// every listed test with its list, for a check that graded none.
#[derive(Debug, Clone)]
pub(crate) struct Instance {
    /// The instance record's `instance_id`, else the suite's name.
    pub(crate) id: String,
    /// Every listed test and its list (`must_pass`, `keep_passing`).
    pub(crate) listed: Vec<(String, String)>,
}

/// Writes `check`'s JUnit XML report to `path`.
pub(crate) fn write_junit(path: &Path, check: &CheckDocument<'_>) -> Result<(), Error> {
    let xml = JunitReport::of(check).to_xml();
    write(path, xml.as_bytes(), "the JUnit report")
}

/// Writes `check`'s SWE-bench report for `instance` to `path`.
pub(crate) fn write_swebench(
    path: &Path,
    check: &CheckDocument<'_>,
    instance: &Instance,
) -> Result<(), Error> {
    let report = SwebenchReport::of(check, &instance.id, &instance.listed);
    let text = crate::json::pretty_text(&report).map_err(OutputError::Serialise)?;
    write(path, text.as_bytes(), "the SWE-bench report")
}

/// The path may lie in the project the suite just wrote: as for
/// `--record`, the bytes go to a new file created exclusively beside it
/// and renamed over it, so a link planted there is replaced, never written
/// through.
fn write(path: &Path, bytes: &[u8], what: &'static str) -> Result<(), Error> {
    testgate::run::replace_file(path, bytes, 0o644)
        .map_err(|source| OutputError::Write { what, source }.into())
}
