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

    /// One sentence for the verdict's reason.
    pub fn reason(&self, attempt: usize) -> String {
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
        let restored = match &self.restored {
            None => {
                " The files are left as the attempt left them; --restore puts them back.".to_owned()
            }
            Some(Ok(n)) => format!(" Restored {n} file(s) to the recorded state."),
            Some(Err(why)) => format!(" Restoring failed: {why}."),
        };
        format!(
            "attempt {attempt} changed the tree it was judging, so its result is not evidence: {}.{restored}",
            named.join(", ")
        )
    }
}

impl Snapshot {
    /// Records `root`; with `keep_copies`, keeps the files' bytes (up to a
    /// budget) so that [`Snapshot::restore`] can put them back.
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
                .push(PathBuf::from(format!("(walk failed: {error})")));
        }
        change.deleted = self
            .files
            .keys()
            .filter(|p| !seen.contains(*p))
            .cloned()
            .collect();
        change
    }

    /// Puts changed and deleted files back from the recorded copies and
    /// removes added ones. Returns how many files it restored.
    pub fn restore(&self, change: &TreeChange) -> Result<usize, String> {
        let mut restored = 0usize;
        let mut missing = Vec::new();
        for rel in change.changed.iter().chain(&change.deleted) {
            let Some(entry) = self.files.get(rel) else {
                continue;
            };
            let path = self.root.join(rel);
            let result = match (&entry.kind, &entry.copy) {
                (Kind::File { mode, .. }, Some(bytes)) => put_file(&path, bytes, *mode),
                (Kind::Symlink(target), _) => put_symlink(&path, target),
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
        for rel in &change.added {
            match fs::remove_file(self.root.join(rel)) {
                Ok(()) => restored = restored.saturating_add(1),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
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

fn put_file(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    if fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        remove_any(path)?;
    }
    // Never write through a symlink the attempt planted.
    let _ = fs::remove_file(path);
    fs::write(path, bytes)?;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

fn put_symlink(path: &Path, target: &Path) -> io::Result<()> {
    if fs::symlink_metadata(path).is_ok() {
        remove_any(path)?;
    }
    std::os::unix::fs::symlink(target, path)
}

fn remove_any(path: &Path) -> io::Result<()> {
    if fs::symlink_metadata(path)?.is_dir() {
        fs::remove_dir_all(path)
    } else {
        fs::remove_file(path)
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
                        let inside = child.join(sub);
                        // A watched file (`.git/config`) rather than a folder.
                        match fs::symlink_metadata(root.join(&inside)) {
                            Ok(m) if m.is_file() || m.file_type().is_symlink() => {
                                visit(&inside, &m)?
                            }
                            _ => walk(root, &inside, visit)?,
                        }
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

    /// Under Landlock the project's `.git` is writable: what host git runs
    /// from it (hooks, `core.fsmonitor`, `core.hooksPath`, aliases) is
    /// judged and restored; its objects and index are not.
    #[test]
    fn gits_configuration_and_hooks_are_judged_and_restored_its_objects_not() {
        let dir = tree();
        fs::create_dir_all(dir.path().join(".git/objects")).unwrap();
        fs::write(dir.path().join(".git/config"), "[core]\n").unwrap();
        let snap = Snapshot::take(dir.path(), true).unwrap();
        fs::write(dir.path().join(".git/objects/ab"), "object").unwrap();
        fs::write(dir.path().join(".git/index"), "index").unwrap();
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
        fs::write(
            dir.path().join(".git/config"),
            "[core]\n\tfsmonitor = touch /tmp/pwned\n",
        )
        .unwrap();
        fs::write(dir.path().join(".git/config.worktree"), "[alias]\n").unwrap();
        fs::create_dir_all(dir.path().join(".git/info")).unwrap();
        fs::write(dir.path().join(".git/info/attributes"), "* filter=x\n").unwrap();
        let change = snap.compare();
        assert_eq!(change.changed, vec![PathBuf::from(".git/config")]);
        assert_eq!(
            change.added,
            vec![
                PathBuf::from(".git/config.worktree"),
                PathBuf::from(".git/info/attributes")
            ]
        );
        // The config put back, the planted files removed.
        assert_eq!(snap.restore(&change), Ok(3));
        assert_eq!(
            fs::read_to_string(dir.path().join(".git/config")).unwrap(),
            "[core]\n"
        );
        assert!(!dir.path().join(".git/config.worktree").exists());
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
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
}
