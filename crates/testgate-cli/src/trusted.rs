//! `check --trusted REV` and `--apply PATCH`: the files of the view the
//! attempts run, read from git outside the project and handed to the
//! facade as data ([`testgate::View`]).
//!
//! git runs on the host with the hardened options of the record's own git
//! ([`crate::record`]): the project's git directory given, never
//! discovered, and not at all when it or its object store points out of
//! the project or its configuration runs a command. The revision's files
//! are checked out and the patches applied in a private folder under the
//! system's temporary folder, never in the project.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use testgate::parse::Runner;
use testgate::{View, ViewFile};

/// The most bytes of trusted or patched files a view holds.
const VIEW_BYTES: u64 = 512 << 20;
/// The largest patch read.
pub(crate) const PATCH_BYTES: u64 = 64 << 20;
/// How long one git command may take.
const GIT_TIME: Duration = Duration::from_secs(300);

/// Why the view of a check cannot be made: a one-line message, the reason
/// of [`View::refused`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ViewError {
    /// The private folder cannot be made.
    #[error("cannot make a scratch folder {}: {source}", path.display())]
    Scratch {
        /// The folder.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A test patch without a trusted revision.
    #[error("a test patch needs a trusted revision (--trusted REV)")]
    TestPatchAlone,
    /// The revision is empty, an option, or holds a NUL.
    #[error("the trusted revision `{}` is not a revision", testgate::parse::printable(.0.as_bytes()))]
    NotARevision(String),
    /// The project is not the top of a git work tree.
    #[error(
        "the trusted revision {revision} cannot be read: {} is not the top of a git work tree",
        dir.display()
    )]
    NoWorkTree {
        /// The revision.
        revision: String,
        /// The project.
        dir: PathBuf,
    },
    /// The project's git may not be run.
    #[error("the trusted revision {revision} cannot be read: {why}")]
    GitRefused {
        /// The revision.
        revision: String,
        /// Why not.
        why: String,
    },
    /// The revision names no commit.
    #[error("the trusted revision {0} is no commit of the project's repository")]
    NoCommit(String),
    /// The revision's files cannot be listed.
    #[error("the files of {0} cannot be listed")]
    Unlisted(String),
    /// The revision's files cannot be read into the private index.
    #[error("the files of {0} cannot be read")]
    Unread(String),
    /// The revision's files cannot be checked out.
    #[error("the files of {revision} cannot be checked out: {said}")]
    CheckOut {
        /// The revision.
        revision: String,
        /// What git said.
        said: String,
    },
    /// The test patch cannot be kept in the private folder.
    #[error("cannot keep the test patch: {0}")]
    KeepTestPatch(#[source] testgate::run::ProjectFileError),
    /// The test patch does not apply to the revision.
    #[error("the test patch does not apply to {revision}: {why}")]
    TestPatch {
        /// The revision.
        revision: String,
        /// Why not.
        #[source]
        why: PatchError,
    },
    /// The patch cannot be kept in the private folder.
    #[error("cannot keep the patch: {0}")]
    KeepPatch(#[source] testgate::run::ProjectFileError),
    /// The patch does not apply to the submitted tree.
    #[error("the patch does not apply: {0}")]
    Patch(#[source] PatchError),
    /// The view's files are more than [`VIEW_BYTES`].
    #[error("the view's files are more than the {} MiB held", VIEW_BYTES >> 20)]
    TooLarge,
    /// A folder of the view cannot be made.
    #[error("{0}")]
    Folder(#[source] std::io::Error),
    /// A file of the view cannot be read or written.
    #[error("{0}")]
    File(#[from] testgate::run::ProjectFileError),
}

/// Why a patch does not apply: what git said, or a path it names outside
/// the project.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum PatchError {
    /// git cannot read the patch.
    #[error("git cannot read it: {0}")]
    Unreadable(String),
    /// The patch names a path outside the project.
    #[error("it names {}, outside the project", .0.display())]
    Outside(PathBuf),
    /// git would not apply it: what it said.
    #[error("{0}")]
    Refused(String),
}

/// What an instance record says of the trusted tests and the patch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct InstanceFields {
    /// `base_commit` (SWE-bench) or `base.sha` (Multi-SWE-bench).
    pub(crate) base_commit: Option<String>,
    /// `test_patch`.
    pub(crate) test_patch: Option<String>,
    /// `model_patch`, else `patch` (`fix_patch`).
    pub(crate) patch: Option<String>,
}

/// What the view of a check is made of: the trusted revision and test
/// patch, and the model patch.
#[derive(Debug, Default)]
pub(crate) struct ViewAsked {
    /// The trusted revision, as the user or the record named it.
    pub(crate) revision: Option<String>,
    /// The test patch applied to the trusted files.
    pub(crate) test_patch: Option<String>,
    /// The model patch applied to the submitted tree first.
    pub(crate) patch: Option<String>,
}

impl ViewAsked {
    /// Whether the attempts run the tree as submitted.
    pub(crate) fn is_empty(&self) -> bool {
        self.revision.is_none() && self.patch.is_none()
    }
}

/// The view `asked` makes of the project `dir`, whose runner is `runner`;
/// a view that cannot be made is [`View::refused`] with the reason.
pub(crate) fn view(dir: &Path, runner: Option<Runner>, asked: &ViewAsked) -> View {
    match make(dir, runner, asked) {
        Ok(view) => view,
        Err(why) => View::refused(why.to_string()),
    }
}

fn make(dir: &Path, runner: Option<Runner>, asked: &ViewAsked) -> Result<View, ViewError> {
    let scratch = Scratch::new()?;
    let mut view = View::new();
    if let Some(patch) = &asked.patch {
        for (path, file) in patched(dir, patch, &scratch)? {
            view = view.patched(path, file);
        }
    }
    if let Some(revision) = &asked.revision {
        let files = trusted_files(dir, runner, revision, asked.test_patch.as_deref(), &scratch)?;
        view = view.trusted(revision.clone(), files);
        if asked.test_patch.is_some() {
            view = view.with_test_patch();
        }
    } else if asked.test_patch.is_some() {
        return Err(ViewError::TestPatchAlone);
    }
    Ok(view)
}

/// A private folder under the system's temporary folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, ViewError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path =
            std::env::temp_dir().join(format!("testgate-view-{}-{nanos}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => Ok(Scratch(path)),
            Err(source) => Err(ViewError::Scratch { path, source }),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What git said, and whether it exited 0.
struct Said {
    ok: bool,
    output: Vec<u8>,
}

/// Runs git on the host with the record's hardened options, in `cwd`,
/// with `env` set; standard error kept only with `keep_errors` (else
/// discarded, so that `output` is standard output alone).
fn git(cwd: &Path, env: &[(&str, &OsStr)], args: &[&OsStr], keep_errors: bool) -> Said {
    let script = if keep_errors {
        "exec \"$0\" \"$@\" 2>&1"
    } else {
        "exec \"$0\" \"$@\" 2>/dev/null"
    };
    let mut all: Vec<OsString> = vec!["-c".into(), script.into(), "env".into()];
    for (name, value) in env {
        let mut pair = OsString::from(format!("{name}="));
        pair.push(value);
        all.push(pair);
    }
    all.extend(crate::record::HARDENED_GIT.iter().map(OsString::from));
    all.extend(args.iter().map(|a| a.to_os_string()));
    let spec = testgate::run::RunSpec::new("sh", &all)
        .dir(cwd)
        .env(testgate::run::EnvPolicy::new().set("GIT_CONFIG_NOSYSTEM", "1"))
        .timeout(GIT_TIME)
        .sandbox(testgate::run::Sandbox::Host);
    let mut output = Vec::new();
    let mut sink = |chunk: &[u8]| {
        if output.len() < (VIEW_BYTES as usize) {
            output.extend_from_slice(chunk);
        }
    };
    let ok = testgate::run::run(&spec, &mut sink)
        .is_ok_and(|finished| matches!(finished.ending, testgate::run::Ending::Exited(0)));
    Said { ok, output }
}

/// The paths `patch` (a file in the scratch folder) writes, as git reads
/// it (`git apply --numstat -z`): each relative, inside the project.
fn paths_of_patch(file: &Path, cwd: &Path) -> Result<BTreeSet<PathBuf>, PatchError> {
    let said = git(
        cwd,
        &[],
        &[
            OsStr::new("apply"),
            OsStr::new("--numstat"),
            OsStr::new("-z"),
            file.as_os_str(),
        ],
        true,
    );
    if !said.ok {
        return Err(PatchError::Unreadable(testgate::parse::printable(
            said.output.trim_ascii(),
        )));
    }
    // `ADDED\tDELETED\tPATH\0`, or for a rename `ADDED\tDELETED\t\0FROM\0TO\0`.
    let mut paths = BTreeSet::new();
    for field in said.output.split(|&b| b == 0) {
        let name = match field.iter().rposition(|&b| b == b'\t') {
            Some(tab) => &field[tab + 1..],
            None => field,
        };
        if name.is_empty() {
            continue;
        }
        let path = PathBuf::from(OsStr::from_bytes(name));
        if !inside(&path) {
            return Err(PatchError::Outside(path));
        }
        paths.insert(path);
    }
    Ok(paths)
}

/// Whether `path` is plain, relative and stays inside the project.
fn inside(path: &Path) -> bool {
    !path.as_os_str().is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Applies the patch file `file` to the files under `work` (git outside a
/// repository: `GIT_CEILING_DIRECTORIES` stops the search at the scratch
/// folder), or says why not.
fn apply(file: &Path, work: &Path, scratch: &Scratch) -> Result<(), PatchError> {
    let said = git(
        work,
        &[("GIT_CEILING_DIRECTORIES", scratch.0.as_os_str())],
        &[
            OsStr::new("apply"),
            OsStr::new("--whitespace=nowarn"),
            file.as_os_str(),
        ],
        true,
    );
    if said.ok {
        Ok(())
    } else {
        Err(PatchError::Refused(testgate::parse::printable(
            said.output.trim_ascii(),
        )))
    }
}

/// The file at `path` under `work` as a view holds it, if it is a file.
fn read_back(work: &Path, path: &Path, budget: &mut u64) -> Result<Option<ViewFile>, ViewError> {
    let full = work.join(path);
    let Ok(meta) = std::fs::symlink_metadata(&full) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Ok(None);
    }
    *budget = budget.checked_sub(meta.len()).ok_or(ViewError::TooLarge)?;
    // Read without following a link (a patch may make one).
    let folder = testgate::run::ProjectDir::open(work)?;
    let Ok(bytes) = folder.read(path, meta.len()) else {
        return Ok(None);
    };
    Ok(Some(ViewFile {
        bytes,
        executable: meta.permissions().mode() & 0o111 != 0,
    }))
}

/// The files the model patch `patch` writes (`Some`) or removes (`None`)
/// when applied to the submitted tree `dir`.
fn patched(
    dir: &Path,
    patch: &str,
    scratch: &Scratch,
) -> Result<Vec<(PathBuf, Option<ViewFile>)>, ViewError> {
    let file = scratch.path("model.patch");
    testgate::run::replace_file(&file, patch.as_bytes(), 0o600).map_err(ViewError::KeepPatch)?;
    let paths = paths_of_patch(&file, &scratch.0).map_err(ViewError::Patch)?;
    let work = scratch.path("submitted");
    std::fs::create_dir(&work).map_err(ViewError::Folder)?;
    let project = testgate::run::ProjectDir::open(dir)?;
    let copies = testgate::run::ProjectDir::open(&work)?;
    let mut before = BTreeSet::new();
    for path in &paths {
        // What the patch changes is copied out without following a link.
        let Ok(bytes) = project.read(path, PATCH_BYTES) else {
            continue;
        };
        let executable = std::fs::symlink_metadata(dir.join(path))
            .is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
        let mode = if executable { 0o755 } else { 0o644 };
        copies.write(path, &bytes, mode)?;
        before.insert(path.clone());
    }
    apply(&file, &work, scratch).map_err(ViewError::Patch)?;
    let mut budget = VIEW_BYTES;
    let mut out = Vec::new();
    for path in paths {
        let after = read_back(&work, &path, &mut budget)?;
        if after.is_some() || before.contains(&path) {
            out.push((path, after));
        }
    }
    Ok(out)
}

/// The trusted files of `revision` in the repository of `dir`: every path
/// of the revision that is a trusted path of `runner`, and every path the
/// test patch writes, with the test patch applied.
fn trusted_files(
    dir: &Path,
    runner: Option<Runner>,
    revision: &str,
    test_patch: Option<&str>,
    scratch: &Scratch,
) -> Result<BTreeMap<PathBuf, ViewFile>, ViewError> {
    let git_dir = git_dir_of(dir, revision)?;
    let commit = commit_of(&git_dir, revision, scratch)?;
    let in_revision = files_of(&git_dir, &commit, revision, scratch)?;
    let patch_file = scratch.path("test.patch");
    let patch_paths = match test_patch {
        Some(patch) => {
            testgate::run::replace_file(&patch_file, patch.as_bytes(), 0o600)
                .map_err(ViewError::KeepTestPatch)?;
            paths_of_patch(&patch_file, &scratch.0).map_err(|why| ViewError::TestPatch {
                revision: revision.to_owned(),
                why,
            })?
        }
        None => BTreeSet::new(),
    };
    let wanted: Vec<&PathBuf> = in_revision
        .iter()
        .filter(|path| testgate::is_trusted_path(runner, path) || patch_paths.contains(*path))
        .collect();
    let work = scratch.path("trusted");
    std::fs::create_dir(&work).map_err(ViewError::Folder)?;
    if !wanted.is_empty() {
        check_out(&git_dir, &commit, revision, &wanted, &work, scratch)?;
    }
    if test_patch.is_some() {
        apply(&patch_file, &work, scratch).map_err(|why| ViewError::TestPatch {
            revision: revision.to_owned(),
            why,
        })?;
    }
    let mut budget = VIEW_BYTES;
    let mut files = BTreeMap::new();
    for path in wanted.into_iter().chain(&patch_paths) {
        if let Some(file) = read_back(&work, path, &mut budget)? {
            files.insert(path.clone(), file);
        }
    }
    Ok(files)
}

/// git's `--git-dir=` option for the repository of `dir`, once `revision`
/// is a revision and the repository one git may read.
fn git_dir_of(dir: &Path, revision: &str) -> Result<OsString, ViewError> {
    if revision.is_empty() || revision.starts_with('-') || revision.contains('\0') {
        return Err(ViewError::NotARevision(revision.to_owned()));
    }
    let repository = crate::record::repository(dir).ok_or_else(|| ViewError::NoWorkTree {
        revision: revision.to_owned(),
        dir: dir.to_path_buf(),
    })?;
    if let Some(why) = crate::record::git_refused(&repository, dir) {
        return Err(ViewError::GitRefused {
            revision: revision.to_owned(),
            why,
        });
    }
    let mut arg = OsString::from("--git-dir=");
    arg.push(repository.git_dir());
    Ok(arg)
}

/// The commit `revision` names, in full.
fn commit_of(git_dir: &OsStr, revision: &str, scratch: &Scratch) -> Result<String, ViewError> {
    let commit = git(
        &scratch.0,
        &[],
        &[
            git_dir,
            OsStr::new("rev-parse"),
            OsStr::new("--verify"),
            OsStr::new("--quiet"),
            OsStr::new("--end-of-options"),
            OsStr::new(&format!("{revision}^{{commit}}")),
        ],
        false,
    );
    let commit = String::from_utf8_lossy(commit.output.trim_ascii()).into_owned();
    if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ViewError::NoCommit(revision.to_owned()));
    }
    Ok(commit)
}

/// The paths of the files (blobs) of `commit`, the commit of `revision`.
fn files_of(
    git_dir: &OsStr,
    commit: &str,
    revision: &str,
    scratch: &Scratch,
) -> Result<BTreeSet<PathBuf>, ViewError> {
    let listing = git(
        &scratch.0,
        &[],
        &[
            git_dir,
            OsStr::new("ls-tree"),
            OsStr::new("-r"),
            OsStr::new("-z"),
            OsStr::new("--full-tree"),
            OsStr::new(commit),
        ],
        false,
    );
    if !listing.ok {
        return Err(ViewError::Unlisted(revision.to_owned()));
    }
    // `MODE TYPE OID\tPATH\0`: the revision's files (blobs), by path.
    Ok(listing
        .output
        .split(|&b| b == 0)
        .filter_map(|entry| {
            let tab = entry.iter().position(|&b| b == b'\t')?;
            let (head, path) = (&entry[..tab], &entry[tab + 1..]);
            head.split(|&b| b == b' ')
                .nth(1)
                .filter(|kind| *kind == b"blob")?;
            Some(PathBuf::from(OsStr::from_bytes(path)))
        })
        .collect())
}

/// Checks the files `wanted` of `commit` (of `revision`) out under `work`,
/// through an index of the scratch folder's own.
fn check_out(
    git_dir: &OsStr,
    commit: &str,
    revision: &str,
    wanted: &[&PathBuf],
    work: &Path,
    scratch: &Scratch,
) -> Result<(), ViewError> {
    let index = scratch.path("index");
    let env = [("GIT_INDEX_FILE", index.as_os_str())];
    let read = git(
        &scratch.0,
        &env,
        &[git_dir, OsStr::new("read-tree"), OsStr::new(commit)],
        true,
    );
    if !read.ok {
        return Err(ViewError::Unread(revision.to_owned()));
    }
    let mut work_tree = OsString::from("--work-tree=");
    work_tree.push(work);
    for chunk in wanted.chunks(2000) {
        let mut args: Vec<&OsStr> = vec![
            git_dir,
            &work_tree,
            OsStr::new("checkout-index"),
            OsStr::new("-f"),
            OsStr::new("--"),
        ];
        args.extend(chunk.iter().map(|p| p.as_os_str()));
        let said = git(&scratch.0, &env, &args, true);
        if !said.ok {
            return Err(ViewError::CheckOut {
                revision: revision.to_owned(),
                said: testgate::parse::printable(said.output.trim_ascii()),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::inside;
    use std::path::Path;

    #[test]
    fn only_plain_relative_paths_are_inside() {
        assert!(inside(Path::new("tests/test_a.py")));
        for outside in ["", "/etc/passwd", "../x", "a/../../x", "./a"] {
            assert!(!inside(Path::new(outside)), "{outside}");
        }
    }
}
