//! The tree the attempts run when it is not the tree as submitted: a model
//! patch applied (`--apply`) and the trusted tests put in (`--trusted REV`).
//!
//! The caller computes the files (from git, outside this crate) and hands
//! them over as data in a [`View`]; [`write_into`] writes them into the
//! project through [`testgate_run::ProjectDir`] after the tree was recorded
//! as found, and [`SandboxedTests`](crate::SandboxedTests) puts the tree
//! back as found after the last attempt (docs/security.md, "Trusted
//! tests").

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use testgate_parse::Runner;

/// The largest file of the submission read to compare with a trusted one.
const COMPARED_BYTES: u64 = 64 << 20;

/// One file of a [`View`]: its bytes and whether it is executable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewFile {
    /// What it holds.
    pub bytes: Vec<u8>,
    /// Whether git records it executable (mode 100755).
    pub executable: bool,
}

impl ViewFile {
    fn mode(&self) -> u32 {
        if self.executable { 0o755 } else { 0o644 }
    }
}

/// What the attempts run instead of the tree as submitted: the files a
/// model patch writes or removes, then the trusted revision's test files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    patched: BTreeMap<PathBuf, Option<ViewFile>>,
    trusted: Option<Trusted>,
    refused: Option<String>,
}

/// The trusted revision and its trusted files.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Trusted {
    revision: String,
    files: BTreeMap<PathBuf, ViewFile>,
    test_patch: bool,
}

impl View {
    /// A view that is the tree as submitted, until files are added.
    pub fn new() -> View {
        View::default()
    }

    /// A view that cannot be made (a patch that does not apply, a
    /// revision git does not know): the check runs nothing and is
    /// Inconclusive `prepare_failed` with `reason`.
    pub fn refused(reason: impl Into<String>) -> View {
        View {
            refused: Some(reason.into()),
            ..View::default()
        }
    }

    /// The model patch writes `file` at `path` (relative to the project),
    /// or removes it (`None`).
    pub fn patched(mut self, path: impl Into<PathBuf>, file: Option<ViewFile>) -> View {
        self.patched.insert(path.into(), file);
        self
    }

    /// The trusted tests: `files` (relative paths) as the trusted
    /// `revision` holds them (with a test patch applied). Every trusted
    /// path of the submission ([`is_trusted_path`]) that `files` lacks is
    /// removed from the view.
    pub fn trusted(
        mut self,
        revision: impl Into<String>,
        files: impl IntoIterator<Item = (PathBuf, ViewFile)>,
    ) -> View {
        self.trusted = Some(Trusted {
            revision: revision.into(),
            files: files.into_iter().collect(),
            test_patch: false,
        });
        self
    }

    /// Says that a test patch was applied to the trusted files given with
    /// [`View::trusted`] (the record says so).
    pub fn with_test_patch(mut self) -> View {
        if let Some(trusted) = &mut self.trusted {
            trusted.test_patch = true;
        }
        self
    }

    /// Why the view cannot be made, when it cannot.
    pub fn refusal(&self) -> Option<&str> {
        self.refused.as_deref()
    }
}

/// What the view made of the tree: the finding the check document states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ViewRecord {
    /// The trusted revision, when the trusted tests were put in.
    pub revision: Option<String>,
    /// Whether a test patch was applied to the trusted files.
    pub test_patch: bool,
    /// The files the model patch wrote or removed.
    pub patched: Vec<PathBuf>,
    /// Trusted files the submission holds with other content: the
    /// revision's were run instead.
    pub replaced: Vec<PathBuf>,
    /// Files on trusted paths the submission added and the revision lacks:
    /// not in the view.
    pub removed: Vec<PathBuf>,
    /// Trusted files the submission lacks: put back in the view.
    pub restored: Vec<PathBuf>,
    /// Whether the tree was put back as found after the check, or why not.
    pub put_back: Option<Result<(), String>>,
}

impl ViewRecord {
    /// Every path where the submission and the trusted files differ.
    pub fn differences(&self) -> impl Iterator<Item = &Path> {
        self.replaced
            .iter()
            .chain(&self.removed)
            .chain(&self.restored)
            .map(PathBuf::as_path)
    }
}

/// Whether `path` (relative to the project's top) is a trusted path of
/// `runner`, or of any runner when `runner` is None: what `check --trusted`
/// takes from the trusted revision (each runner's profile says).
///
/// ```
/// use std::path::Path;
/// use testgate::parse::Runner;
///
/// assert!(testgate::is_trusted_path(Some(Runner::Pytest), Path::new("pkg/conftest.py")));
/// assert!(!testgate::is_trusted_path(Some(Runner::Pytest), Path::new("pkg/calc.py")));
/// assert!(testgate::is_trusted_path(None, Path::new("calc_test.go")));
/// ```
pub fn is_trusted_path(runner: Option<Runner>, path: &Path) -> bool {
    crate::runners::is_trusted_path(runner, path)
}

/// Writes `view` into the project at `root`, whose entries as found are
/// `found` (files and links, relative): the patch's files first, then the
/// trusted files, and the trusted paths the revision lacks removed.
pub(crate) fn write_into(
    view: &View,
    root: &Path,
    found: &BTreeSet<PathBuf>,
    runner: Option<Runner>,
) -> Result<ViewRecord, String> {
    if let Some(why) = &view.refused {
        return Err(why.clone());
    }
    let project = testgate_run::ProjectDir::open(root).map_err(|e| e.to_string())?;
    let mut record = ViewRecord::default();
    let mut submitted: BTreeSet<PathBuf> = found.clone();
    for (path, file) in &view.patched {
        match file {
            Some(file) => {
                project
                    .write(path, &file.bytes, file.mode())
                    .map_err(|e| format!("the patch could not be written: {e}"))?;
                submitted.insert(path.clone());
            }
            None => {
                project
                    .remove(path)
                    .map_err(|e| format!("the patch could not be written: {e}"))?;
                submitted.remove(path);
            }
        }
        record.patched.push(path.clone());
    }
    let Some(trusted) = &view.trusted else {
        return Ok(record);
    };
    record.revision = Some(trusted.revision.clone());
    record.test_patch = trusted.test_patch;
    let cannot = |e: testgate_run::ProjectFileError| {
        format!(
            "the trusted tests of {} could not be written: {e}",
            trusted.revision
        )
    };
    for (path, file) in &trusted.files {
        if submitted.contains(path) {
            let same = project
                .read(path, COMPARED_BYTES)
                .is_ok_and(|bytes| bytes == file.bytes)
                && std::fs::symlink_metadata(root.join(path)).is_ok_and(|meta| {
                    use std::os::unix::fs::PermissionsExt;
                    (meta.permissions().mode() & 0o111 != 0) == file.executable
                });
            if same {
                continue;
            }
            record.replaced.push(path.clone());
        } else {
            record.restored.push(path.clone());
        }
        project
            .write(path, &file.bytes, file.mode())
            .map_err(cannot)?;
    }
    for path in &submitted {
        if trusted.files.contains_key(path) || !is_trusted_path(runner, path) {
            continue;
        }
        project.remove(path).map_err(cannot)?;
        record.removed.push(path.clone());
    }
    Ok(record)
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use super::*;

    fn file(text: &str) -> ViewFile {
        ViewFile {
            bytes: text.as_bytes().to_vec(),
            executable: false,
        }
    }

    /// The patch first, then the trusted files: one the submission changed
    /// is replaced, one it added on a trusted path is removed, one it
    /// deleted is restored; what is on no trusted path is left alone.
    #[test]
    fn a_view_replaces_removes_and_restores_only_trusted_paths() {
        let tmp = tempfile::tempdir().expect("tmp");
        let root = tmp.path();
        for (path, text) in [
            ("calc.py", "bug"),
            ("test_calc.py", "forged test"),
            ("conftest.py", "forged hook"),
            ("notes.txt", "mine"),
        ] {
            std::fs::write(root.join(path), text).expect("write");
        }
        let found: BTreeSet<PathBuf> = ["calc.py", "test_calc.py", "conftest.py", "notes.txt"]
            .into_iter()
            .map(PathBuf::from)
            .collect();
        let view = View::new().patched("calc.py", Some(file("fixed"))).trusted(
            "base",
            [
                (PathBuf::from("test_calc.py"), file("honest test")),
                (PathBuf::from("tests/test_more.py"), file("more")),
            ],
        );
        let made = write_into(&view, root, &found, Some(Runner::Pytest)).expect("written");
        assert_eq!(made.patched, [PathBuf::from("calc.py")]);
        assert_eq!(made.replaced, [PathBuf::from("test_calc.py")]);
        assert_eq!(made.removed, [PathBuf::from("conftest.py")]);
        assert_eq!(made.restored, [PathBuf::from("tests/test_more.py")]);
        let read = |p: &str| std::fs::read_to_string(root.join(p)).ok();
        assert_eq!(read("calc.py").as_deref(), Some("fixed"));
        assert_eq!(read("test_calc.py").as_deref(), Some("honest test"));
        assert_eq!(read("conftest.py"), None);
        assert_eq!(read("notes.txt").as_deref(), Some("mine"));
    }

    /// A view that cannot be made writes nothing.
    #[test]
    fn a_refused_view_writes_nothing() {
        let tmp = tempfile::tempdir().expect("tmp");
        let view = View::refused("the patch does not apply");
        let got = write_into(&view, tmp.path(), &BTreeSet::new(), None);
        assert_eq!(got, Err("the patch does not apply".to_owned()));
        assert_eq!(std::fs::read_dir(tmp.path()).expect("dir").count(), 0);
    }
}
