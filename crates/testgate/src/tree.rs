//! The tree an attempt judges, and whether the attempt changed it.
//!
//! Before the first attempt [`Snapshot::take`] records, for every file of
//! the workspace that is not ignored by a runner-typical ignore list
//! ([`IGNORED`]), its kind, mode and SHA-256 digest, plus the files that run
//! later on the host by convention ([`crate::watch`]) even where they are
//! ignored (`node_modules/.bin`, `.git/hooks`). After each attempt
//! [`Snapshot::compare`] names what changed: a file recorded that changed or
//! vanished, or a test file or watched file that appeared.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::watch;

/// Directories never walked: build output, dependency and cache folders
/// that runners write on every run.
pub const IGNORED: &[&str] = &[
    ".git",
    "target",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    ".tox",
    ".nox",
    ".gradle",
    ".cache",
    "coverage",
    ".nyc_output",
];

/// How many paths a reason names before it gives a count.
pub const NAMED_PATHS: usize = 10;

/// How a changed "path" that says the tree could not be walked begins.
const WALK_FAILED: &str = "(walk failed: ";

/// Files at most this large in total are kept to restore from.
const COPY_BUDGET: u64 = 512 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    File { mode: u32, digest: [u8; 32] },
    Symlink(PathBuf),
}

#[derive(Debug, Clone)]
struct Entry {
    kind: Kind,
    copy: Option<Vec<u8>>,
}

/// The recorded state of a workspace.
#[derive(Debug, Clone)]
pub struct Snapshot {
    root: PathBuf,
    files: BTreeMap<PathBuf, Entry>,
    /// The caller's own files ([`Snapshot::leave_out`]).
    own: OwnFiles,
}

/// What an attempt did to the tree; empty when nothing it judges changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeChange {
    /// Recorded files whose content, mode or kind changed.
    pub changed: Vec<PathBuf>,
    /// Recorded files that no longer exist.
    pub deleted: Vec<PathBuf>,
    /// Test files or watched files that appeared.
    pub added: Vec<PathBuf>,
    /// What `--restore` did, when it was asked for.
    pub restored: Option<Result<usize, String>>,
}

impl TreeChange {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.deleted.is_empty() && self.added.is_empty()
    }

    /// Every path, files that run later on the host first.
    pub fn paths(&self) -> Vec<&Path> {
        let mut all: Vec<&Path> = self
            .changed
            .iter()
            .chain(&self.deleted)
            .chain(&self.added)
            .map(PathBuf::as_path)
            .collect();
        all.sort_by_key(|p| (!watch::runs_on_host(p), p.to_path_buf()));
        all
    }

    /// Whether files that run later on the host may be left changed or
    /// planted: one of the paths runs on the host, or the tree could not be
    /// walked (what it holds is unknown), and `--restore` did not put
    /// everything back.
    pub fn may_leave_host_run_files(&self) -> bool {
        let unknown = self.changed.iter().any(|p| {
            p.as_os_str()
                .as_encoded_bytes()
                .starts_with(WALK_FAILED.as_bytes())
        });
        let host = self.paths().iter().any(|p| watch::runs_on_host(p));
        let restored = matches!(self.restored, Some(Ok(_)));
        (unknown || host) && !restored
    }

    /// One sentence for the verdict's reason.
    pub fn reason(&self, attempt: usize) -> String {
        format!(
            "attempt {attempt} changed the tree it was judging, so its result is not evidence: {}.{}",
            self.named(),
            self.restored_sentence()
        )
    }

    /// The note of the attempt that changed the tree when the Fail the
    /// first attempt proved stands ([`testgate_policy::AfterTreeChange`]).
    pub fn failure_stands_note(&self) -> String {
        format!(
            "it changed the tree it was judging: {}; the failures stand, as the attempts started \
             from the tree as submitted.{}",
            self.named(),
            self.restored_sentence()
        )
    }

    /// The paths, each with what happened to it, the first
    /// [`NAMED_PATHS`] of them.
    fn named(&self) -> String {
        let paths = self.paths();
        let mut named: Vec<String> = paths
            .iter()
            .take(NAMED_PATHS)
            .map(|p| {
                let what = if self.deleted.iter().any(|d| d == p) {
                    "deleted"
                } else if self.added.iter().any(|a| a == p) {
                    "added"
                } else {
                    "changed"
                };
                let host = if watch::runs_on_host(p) {
                    ", runs later on the host"
                } else {
                    ""
                };
                format!("{} ({what}{host})", p.display())
            })
            .collect();
        if paths.len() > NAMED_PATHS {
            named.push(format!("and {} more", paths.len() - NAMED_PATHS));
        }
        named.join(", ")
    }

    /// What `--restore` did, as a sentence after the paths.
    fn restored_sentence(&self) -> String {
        match &self.restored {
            None => {
                " The files are left as the attempt left them; --restore puts them back.".to_owned()
            }
            Some(Ok(n)) => format!(" Restored {n} file(s) to the recorded state."),
            Some(Err(why)) => format!(" Restoring failed: {why}."),
        }
    }
}

impl Snapshot {
    /// Records `root`; with `keep_copies`, keeps the files' bytes (up to a
    /// budget) so that [`Snapshot::restore`] can put them back.
    #[expect(
        clippy::disallowed_methods,
        reason = "the copy reads a file the walk just saw regular, before any attempt; \
                  the walk's own bounds (size, time, FIFOs) are the digest's work, issue 24"
    )]
    pub fn take(root: &Path, keep_copies: bool) -> io::Result<Snapshot> {
        let mut files = BTreeMap::new();
        let mut budget = if keep_copies { COPY_BUDGET } else { 0 };
        walk(root, Path::new(""), &mut |rel, entry| {
            let kind = kind_of(&root.join(rel), entry)?;
            let copy = match (&kind, entry.len() <= budget) {
                (Kind::File { .. }, true) => {
                    budget = budget.saturating_sub(entry.len());
                    Some(fs::read(root.join(rel))?)
                }
                _ => None,
            };
            files.insert(rel.to_path_buf(), Entry { kind, copy });
            Ok(())
        })?;
        Ok(Snapshot {
            root: root.to_path_buf(),
            files,
            own: OwnFiles::default(),
        })
    }

    /// How many files were recorded.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file was recorded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// One SHA-256 over every recorded path, kind, mode and content digest.
    pub fn digest(&self) -> String {
        let mut hasher = Sha256::new();
        for (path, entry) in &self.files {
            hasher.update(path.as_os_str().as_encoded_bytes());
            hasher.update([0]);
            match &entry.kind {
                Kind::File { mode, digest } => {
                    hasher.update(b"f");
                    hasher.update(mode.to_le_bytes());
                    hasher.update(digest);
                }
                Kind::Symlink(target) => {
                    hasher.update(b"l");
                    hasher.update(target.as_os_str().as_encoded_bytes());
                    hasher.update([0]);
                }
            }
        }
        hex(&hasher.finalize())
    }

    /// What changed since the snapshot was taken. An unreadable tree counts
    /// as changed at the path that could not be read.
    pub fn compare(&self) -> TreeChange {
        let mut change = TreeChange::default();
        let mut seen = std::collections::BTreeSet::new();
        let walked = walk(&self.root, Path::new(""), &mut |rel, meta| {
            seen.insert(rel.to_path_buf());
            let now = kind_of(&self.root.join(rel), meta);
            match (self.files.get(rel), now) {
                (Some(before), Ok(now)) if before.kind == now => {}
                (Some(_), _) => change.changed.push(rel.to_path_buf()),
                (None, _) if is_test_file(rel) || watch::runs_on_host(rel) => {
                    change.added.push(rel.to_path_buf())
                }
                (None, _) => {}
            }
            Ok(())
        });
        if let Err(error) = walked {
            change
                .changed
                .push(PathBuf::from(format!("{WALK_FAILED}{error})")));
        }
        change.deleted = self
            .files
            .keys()
            .filter(|p| !seen.contains(*p))
            .cloned()
            .collect();
        self.own.leave_out_of(&self.root, &mut change);
        change
    }

    /// Puts changed and deleted files back from the recorded copies and
    /// removes added ones. Returns how many files it restored. Every write
    /// goes through [`testgate_run::ProjectDir`]: a link the attempt planted
    /// on the way (`tests -> /etc/cron.d`) or at the file is removed and
    /// replaced, never written through.
    pub fn restore(&self, change: &TreeChange) -> Result<usize, String> {
        let project = testgate_run::ProjectDir::open(&self.root).map_err(|e| e.to_string())?;
        let mut restored = 0usize;
        let mut missing = Vec::new();
        // Added files first: a link the attempt put where a recorded folder
        // was goes before the folder is made again in its place.
        for rel in &change.added {
            match project.remove(rel) {
                Ok(true) => restored = restored.saturating_add(1),
                Ok(false) => {}
                Err(e) => missing.push(format!("{} ({e})", rel.display())),
            }
        }
        for rel in change.changed.iter().chain(&change.deleted) {
            let Some(entry) = self.files.get(rel) else {
                continue;
            };
            let result = match (&entry.kind, &entry.copy) {
                (Kind::File { mode, .. }, Some(bytes)) => project.write(rel, bytes, *mode),
                (Kind::Symlink(target), _) => project.symlink(rel, target),
                (Kind::File { .. }, None) => {
                    missing.push(rel.display().to_string());
                    continue;
                }
            };
            match result {
                Ok(()) => restored = restored.saturating_add(1),
                Err(e) => missing.push(format!("{} ({e})", rel.display())),
            }
        }
        if missing.is_empty() {
            Ok(restored)
        } else {
            Err(format!(
                "restored {restored} file(s) but not {}",
                missing.join(", ")
            ))
        }
    }
}

// ---------------------------------------------------------------------------
// The caller's own files: what testgate's stdout and stderr write to.

/// A file the caller itself writes to (testgate's own stdout or stderr sent
/// to a file in the project: `testgate check -- cargo test > tg.log`), by
/// device and inode number ([`OwnFile::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OwnFile {
    /// The device the file is on (`st_dev`).
    pub device: u64,
    /// Its inode number (`st_ino`).
    pub inode: u64,
}

impl OwnFile {
    /// The file `metadata` describes (of an open descriptor: `File::metadata`
    /// of a duplicate of fd 1), when it is a regular file; a pipe, a
    /// terminal or `/dev/null` is no file of any tree.
    pub fn of(metadata: &fs::Metadata) -> Option<OwnFile> {
        use std::os::unix::fs::MetadataExt;
        metadata.is_file().then(|| OwnFile {
            device: metadata.dev(),
            inode: metadata.ino(),
        })
    }
}

/// The recorded paths that were, when the snapshot was taken, one of the
/// caller's own files.
#[derive(Debug, Clone, Default)]
struct OwnFiles {
    paths: BTreeMap<PathBuf, OwnFile>,
}

impl OwnFiles {
    /// Drops from `change` each path that was one of the caller's own files
    /// when the snapshot was taken and still is the same file: a path that
    /// now holds another file (a rename or a hard link onto it), or that
    /// was deleted, is a change like any other. A path is never left out by
    /// its inode alone: a test could link the caller's file to a new path.
    fn leave_out_of(&self, root: &Path, change: &mut TreeChange) {
        if self.paths.is_empty() {
            return;
        }
        change.changed.retain(|rel| {
            let still_own = self.paths.get(rel).is_some_and(|own| {
                fs::symlink_metadata(root.join(rel))
                    .ok()
                    .and_then(|m| OwnFile::of(&m))
                    == Some(*own)
            });
            !still_own
        });
    }
}

impl Snapshot {
    /// Leaves the caller's own files out of what [`Snapshot::compare`]
    /// reports, and so out of what [`Snapshot::restore`] puts back: the
    /// recorded paths that are one of `own` now (testgate's stdout or
    /// stderr sent to a file in the project), and stay that file. Their
    /// recorded copies are dropped. Call it right after
    /// [`Snapshot::take`]; it reads the metadata of each recorded file
    /// once, and nothing when `own` is empty.
    pub fn leave_out(mut self, own: &[OwnFile]) -> Snapshot {
        if own.is_empty() {
            return self;
        }
        for (rel, entry) in &mut self.files {
            let Ok(meta) = fs::symlink_metadata(self.root.join(rel)) else {
                continue;
            };
            if let Some(file) = OwnFile::of(&meta).filter(|f| own.contains(f)) {
                entry.copy = None;
                self.own.paths.insert(rel.clone(), file);
            }
        }
        self
    }
}

fn kind_of(path: &Path, meta: &fs::Metadata) -> io::Result<Kind> {
    if meta.file_type().is_symlink() {
        return Ok(Kind::Symlink(fs::read_link(path)?));
    }
    let mut hasher = Sha256::new();
    let mut file = fs::File::open(path)?;
    io::copy(&mut file, &mut hasher)?;
    Ok(Kind::File {
        mode: meta.permissions().mode() & 0o7777,
        digest: hasher.finalize().into(),
    })
}

/// Calls `visit` with every regular file and symlink under `root/rel`, not
/// descending into [`IGNORED`] folders except where files there run on the
/// host by convention.
fn walk(
    root: &Path,
    rel: &Path,
    visit: &mut dyn FnMut(&Path, &fs::Metadata) -> io::Result<()>,
) -> io::Result<()> {
    let dir = root.join(rel);
    let mut entries: Vec<_> = match fs::read_dir(&dir) {
        Ok(entries) => entries.collect::<Result<_, _>>()?,
        Err(e) if e.kind() == io::ErrorKind::NotFound && !rel.as_os_str().is_empty() => {
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name();
        let child = rel.join(&name);
        let meta = fs::symlink_metadata(entry.path())?;
        if meta.is_dir() {
            if IGNORED.iter().any(|i| name == *i) {
                for inner in watch::WATCHED_INSIDE_IGNORED {
                    let (top, sub) = inner.split_once('/').unwrap_or((inner, ""));
                    if name == top {
                        walk(root, &child.join(sub), visit)?;
                    }
                }
            } else {
                walk(root, &child, visit)?;
            }
        } else if meta.is_file() || meta.file_type().is_symlink() {
            visit(&child, &meta)?;
        }
    }
    Ok(())
}

/// Whether a path looks like a test, or an expectation a test reads: test
/// files by the runners' own conventions, and snapshot files.
pub fn is_test_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let in_test_dir = path.components().any(|c| {
        matches!(
            c.as_os_str().to_str(),
            Some("tests" | "test" | "__tests__" | "__snapshots__" | "snapshots" | "testdata")
        )
    });
    in_test_dir
        || name.starts_with("test_")
        || name.ends_with("_test.py")
        || name.ends_with("_test.go")
        || name.ends_with(".snap")
        || name.ends_with(".snap.new")
        || [".test.", ".spec."].iter().any(|m| name.contains(m))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("tests")).unwrap();
        fs::write(dir.path().join("tests/a_test.py"), "assert 1 == 2\n").unwrap();
        fs::write(dir.path().join("lib.py"), "x = 1\n").unwrap();
        fs::create_dir_all(dir.path().join("target")).unwrap();
        fs::write(dir.path().join("target/out"), "build").unwrap();
        dir
    }

    #[test]
    fn an_untouched_tree_is_unchanged() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), false).unwrap();
        fs::write(dir.path().join("target/out"), "rebuilt").unwrap();
        fs::write(dir.path().join("scratch.log"), "log").unwrap();
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
        assert_eq!(snap.len(), 2);
    }

    #[test]
    fn an_edited_assertion_is_named_and_restored() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), true).unwrap();
        let before = snap.digest();
        fs::write(dir.path().join("tests/a_test.py"), "assert 1 == 1\n").unwrap();
        let change = snap.compare();
        assert_eq!(change.changed, vec![PathBuf::from("tests/a_test.py")]);
        assert_eq!(snap.restore(&change), Ok(1));
        assert!(snap.compare().is_empty());
        assert_eq!(Snapshot::take(dir.path(), false).unwrap().digest(), before);
    }

    #[test]
    fn a_mode_change_deletion_and_planted_config_count() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), true).unwrap();
        fs::set_permissions(dir.path().join("lib.py"), fs::Permissions::from_mode(0o755)).unwrap();
        fs::remove_file(dir.path().join("tests/a_test.py")).unwrap();
        fs::create_dir_all(dir.path().join(".cargo")).unwrap();
        fs::write(dir.path().join(".cargo/config.toml"), "[build]\n").unwrap();
        let change = snap.compare();
        assert_eq!(change.changed, vec![PathBuf::from("lib.py")]);
        assert_eq!(change.deleted, vec![PathBuf::from("tests/a_test.py")]);
        assert_eq!(change.added, vec![PathBuf::from(".cargo/config.toml")]);
        assert!(change.reason(1).starts_with(
            "attempt 1 changed the tree it was judging, so its result is not evidence: .cargo/config.toml (added, runs later on the host)"
        ));
        assert_eq!(snap.restore(&change), Ok(3));
        assert!(snap.compare().is_empty());
    }

    fn own(path: &Path) -> Vec<OwnFile> {
        OwnFile::of(&fs::metadata(path).unwrap())
            .into_iter()
            .collect()
    }

    #[test]
    fn the_callers_own_output_file_is_left_out_and_never_restored() {
        let dir = tree();
        let log = dir.path().join("tests/tg.log");
        fs::write(&log, "attempt 1\n").unwrap();
        let mut writer = fs::OpenOptions::new().append(true).open(&log).unwrap();
        let snap = Snapshot::take(dir.path(), true)
            .unwrap()
            .leave_out(&own(&log));
        io::Write::write_all(&mut writer, b"verdict: pass\n").unwrap();
        fs::write(dir.path().join("lib.py"), "x = 2\n").unwrap();
        let change = snap.compare();
        assert_eq!(change.changed, vec![PathBuf::from("lib.py")]);
        assert_eq!(snap.restore(&change), Ok(1));
        assert_eq!(
            fs::read_to_string(&log).unwrap(),
            "attempt 1\nverdict: pass\n"
        );
        // Without the hook, the log is a change, and restoring it replaces
        // the file the writer still writes to.
        let plain = Snapshot::take(dir.path(), true).unwrap();
        io::Write::write_all(&mut writer, b"more\n").unwrap();
        assert_eq!(plain.compare().changed, vec![PathBuf::from("tests/tg.log")]);
    }

    #[test]
    fn the_callers_file_linked_or_moved_elsewhere_is_a_change() {
        let dir = tree();
        let log = dir.path().join("tg.log");
        fs::write(&log, "").unwrap();
        let snap = Snapshot::take(dir.path(), true)
            .unwrap()
            .leave_out(&own(&log));
        // The caller's file under a name that runs later, and in place of a
        // recorded test file: the same inode, other paths.
        fs::write(&log, "import os\n").unwrap();
        fs::hard_link(&log, dir.path().join("conftest.py")).unwrap();
        fs::remove_file(dir.path().join("tests/a_test.py")).unwrap();
        fs::hard_link(&log, dir.path().join("tests/a_test.py")).unwrap();
        let change = snap.compare();
        assert_eq!(change.changed, vec![PathBuf::from("tests/a_test.py")]);
        assert_eq!(change.added, vec![PathBuf::from("conftest.py")]);
        // Another file moved onto the caller's path is a change too.
        let dir = tree();
        let log = dir.path().join("tg.log");
        fs::write(&log, "").unwrap();
        let snap = Snapshot::take(dir.path(), false)
            .unwrap()
            .leave_out(&own(&log));
        fs::rename(dir.path().join("lib.py"), &log).unwrap();
        let change = snap.compare();
        assert_eq!(change.changed, vec![PathBuf::from("tg.log")]);
        assert_eq!(change.deleted, vec![PathBuf::from("lib.py")]);
    }

    #[test]
    fn many_paths_are_counted() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), false).unwrap();
        for i in 0..15 {
            fs::write(dir.path().join(format!("tests/t{i}.py")), "").unwrap();
        }
        let reason = snap.compare().reason(2);
        assert!(reason.contains("and 5 more"), "{reason}");
        assert!(reason.contains("--restore puts them back"), "{reason}");
    }

    #[test]
    fn a_restore_replaces_a_planted_folder_link_and_writes_nothing_through_it() {
        let dir = tree();
        let victim = tempfile::tempdir().unwrap();
        fs::write(victim.path().join("a_test.py"), "host\n").unwrap();
        let snap = Snapshot::take(dir.path(), true).unwrap();
        fs::remove_dir_all(dir.path().join("tests")).unwrap();
        std::os::unix::fs::symlink(victim.path(), dir.path().join("tests")).unwrap();
        let change = snap.compare();
        assert_eq!(change.deleted, vec![PathBuf::from("tests/a_test.py")]);
        assert_eq!(snap.restore(&change), Ok(2));
        assert_eq!(
            fs::read(victim.path().join("a_test.py")).unwrap(),
            b"host\n"
        );
        assert_eq!(fs::read_dir(victim.path()).unwrap().count(), 1);
        assert!(
            fs::symlink_metadata(dir.path().join("tests"))
                .unwrap()
                .is_dir()
        );
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
    }
}
