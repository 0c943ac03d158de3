//! Every file git follows from the project's git directory, walked.
//!
//! The walk leaves most of the top `.git` alone (objects, refs, the index:
//! what an honest test's `git commit` changes), but git *follows* more than
//! its `config` and `hooks`: a `commondir` file makes another folder the
//! repository (its configuration, `core.fsmonitor` included, run by host
//! `git status`), a `gitdir` file or a top-level `.git` file names the git
//! directory, `objects/info/alternates` adds object stores, a linked
//! worktree's and a submodule's git directories (`worktrees/*`,
//! `modules/**`) hold configurations and hooks of their own, and a
//! configuration's `include.path` and `includeIf.*.path` pull in another
//! file. Each of these is recorded here when it exists, and its path is
//! *followed*: one appearing there after an attempt is judged like a
//! planted hook ([`Scan::run_following_git`]), so it is named and restored.
//! What lies outside the project is out of the tests' reach under both
//! sandboxes (read-only or hidden) and is not walked; testgate's own git
//! refuses to follow it (the CLI's `record`).

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use testgate_run::{Dir, EntryKind};

use super::{Entry, Kind, Scan, SnapshotError, Stamp};

/// The most of a configuration or link file read for the paths it names.
const GIT_FILE_LIMIT: u64 = 1 << 20;

/// How many git directories one walk follows (worktrees, submodules, a
/// common directory), so a planted loop or a forest of them stays bounded.
const GIT_DIRS: usize = 4096;

/// The files of a git directory that git reads to find another file or
/// folder, or that run code: recorded and followed wherever they are.
/// (`config` and `config.worktree` of the top `.git` are recorded by
/// [`Scan::git_configuration`]; elsewhere here.)
const FOLLOWED_FILES: &[&str] = &[
    "config",
    "config.worktree",
    "commondir",
    "gitdir",
    "objects/info/alternates",
    "objects/info/http-alternates",
];

/// The paths git follows from a project's `.git`, relative to the project:
/// whatever appears at one of them is judged.
#[derive(Debug, Default)]
pub(crate) struct Followed {
    pub(crate) paths: BTreeSet<PathBuf>,
    /// The git directories walked, relative to the project.
    git_dirs: BTreeSet<PathBuf>,
}

impl Followed {
    /// Whether `rel` is a path git follows, or lies under one (a hook of
    /// a submodule's git directory).
    pub(crate) fn covers(&self, rel: &Path) -> bool {
        self.paths.iter().any(|p| rel.starts_with(p))
    }
}

impl Scan<'_> {
    /// The git directory at `rel` (`git` open on it): each of
    /// [`FOLLOWED_FILES`] recorded and followed, the configurations'
    /// includes, a `commondir` inside the project, and the git directories
    /// of linked worktrees and submodules, with their hooks and `info`.
    pub(super) fn git_directory(
        &mut self,
        root: &Dir,
        git: &Dir,
        rel: &Path,
        walk_hooks: bool,
    ) -> Result<(), SnapshotError> {
        if self.followed.git_dirs.len() >= GIT_DIRS || !self.followed.git_dirs.insert(rel.into()) {
            return Ok(());
        }
        for file in FOLLOWED_FILES {
            let at = rel.join(file);
            self.followed.paths.insert(at.clone());
            let (parent, name) = match file.rsplit_once('/') {
                Some((parent, name)) => (open_below(git, Path::new(parent))?, name),
                None => (Some(reopen(git)?), *file),
            };
            if let Some(parent) = parent {
                self.record_followed(&parent, OsStr::new(name), at)?;
            }
        }
        if walk_hooks {
            for inner in ["hooks", "info"] {
                let at = rel.join(inner);
                self.followed.paths.insert(at.clone());
                if let Some(deeper) = open_below(git, Path::new(inner))? {
                    self.walk(root, &deeper, &at, rel.components().count() + 1, false)?;
                }
            }
        }
        for config in ["config", "config.worktree"] {
            for include in include_paths(&read_small(git, config)?) {
                let Some(target) = self.in_project(rel, &include) else {
                    continue;
                };
                self.followed.paths.insert(target.clone());
                self.record_at(root, &target)?;
            }
        }
        if let Some(common) = read_small(git, "commondir").ok().and_then(first_line)
            && let Some(common) = self.in_project(rel, Path::new(&common))
            && let Some(dir) = open_below(root, &common)?
        {
            self.git_directory(root, &dir, &common, true)?;
        }
        // A linked worktree's own folder: its `HEAD`, `commondir`, `gitdir`
        // and `config.worktree` (hooks are the common directory's).
        if let Some(worktrees) = open_below(git, Path::new("worktrees"))? {
            for name in worktrees
                .names()
                .map_err(unreadable(&rel.join("worktrees")))?
            {
                if let Ok(dir) = worktrees.open_dir(&name) {
                    self.git_directory(root, &dir, &rel.join("worktrees").join(&name), false)?;
                }
            }
        }
        // A submodule's git directory, `modules/NAME` (a name may hold `/`):
        // a repository of its own, hooks and all.
        if let Some(modules) = open_below(git, Path::new("modules"))? {
            self.submodules(root, &modules, &rel.join("modules"), 0)?;
        }
        Ok(())
    }

    /// The git directories under `modules` (at `rel`), `depth` folders down.
    fn submodules(
        &mut self,
        root: &Dir,
        modules: &Dir,
        rel: &Path,
        depth: usize,
    ) -> Result<(), SnapshotError> {
        if depth > self.limits.depth {
            return Ok(());
        }
        for name in modules.names().map_err(unreadable(rel))? {
            let Ok(dir) = modules.open_dir(&name) else {
                continue;
            };
            let at = rel.join(&name);
            if dir.stat(OsStr::new("HEAD")).is_ok() || dir.stat(OsStr::new("config")).is_ok() {
                self.git_directory(root, &dir, &at, true)?;
            } else {
                self.submodules(root, &dir, &at, depth + 1)?;
            }
        }
        Ok(())
    }

    /// The project's top `.git` when it is a file (`gitdir: PATH`) naming
    /// a git directory inside the project: that directory is followed.
    pub(super) fn git_file_at_top(&mut self, root: &Dir) -> Result<(), SnapshotError> {
        let name = OsStr::new(".git");
        if !root.stat(name).is_ok_and(|s| s.kind == EntryKind::File) {
            return Ok(());
        }
        let Some(named) = read_small(root, ".git")
            .ok()
            .and_then(first_line)
            .and_then(|l| l.strip_prefix("gitdir:").map(|p| p.trim().to_owned()))
        else {
            return Ok(());
        };
        if let Some(git_dir) = self.in_project(Path::new(""), Path::new(&named))
            && let Some(dir) = open_below(root, &git_dir)?
        {
            self.git_directory(root, &dir, &git_dir, true)?;
        }
        Ok(())
    }

    /// `target`, named by a file in the git directory at `rel`, relative to
    /// the project when it lies in it (absolute paths under the project's
    /// own path included); None when it leads outside or home (`~`).
    fn in_project(&self, rel: &Path, target: &Path) -> Option<PathBuf> {
        if target.starts_with("~") {
            return None;
        }
        let relative = match target.strip_prefix(self.root_path.as_deref()?) {
            Ok(below) => super::inside(Path::new(""), below)?,
            Err(_) => super::inside(rel, target)?,
        };
        (!relative.as_os_str().is_empty()).then_some(relative)
    }

    /// Records the entry at `rel` (relative to the project), reached from
    /// `root` without following a link; nothing when it does not exist.
    fn record_at(&mut self, root: &Dir, rel: &Path) -> Result<(), SnapshotError> {
        let (Some(parent), Some(name)) = (rel.parent(), rel.file_name()) else {
            return Ok(());
        };
        if let Some(dir) = open_below(root, parent)? {
            self.record_followed(&dir, name, rel.to_path_buf())?;
        }
        Ok(())
    }

    /// Records `name` in `dir` as `rel`: a file by its content, anything
    /// else by its kind, so that its appearing or changing is seen.
    fn record_followed(
        &mut self,
        dir: &Dir,
        name: &OsStr,
        rel: PathBuf,
    ) -> Result<(), SnapshotError> {
        let stat = match dir.stat(name) {
            Ok(stat) => stat,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(source) => return Err(unreadable(&rel)(source)),
        };
        match stat.kind {
            EntryKind::File => self.record_file(dir, name, rel, &stat, false),
            EntryKind::Dir => Ok(()),
            EntryKind::Symlink | EntryKind::Fifo | EntryKind::Socket | EntryKind::Device => {
                let entry = Entry {
                    kind: Kind::Special {
                        what: stat.kind,
                        mode: stat.mode,
                    },
                    stamp: Stamp::of(&stat),
                    copy: None,
                    in_ignored: false,
                };
                self.insert(rel, entry)
            }
        }
    }
}

fn unreadable(path: &Path) -> impl Fn(io::Error) -> SnapshotError + '_ {
    move |source| SnapshotError::Unreadable {
        path: path.to_path_buf(),
        source,
    }
}

/// `dir` opened again (a second descriptor on the same folder).
fn reopen(dir: &Dir) -> Result<Dir, SnapshotError> {
    dir.open_dir(OsStr::new("."))
        .map_err(unreadable(Path::new(".")))
}

/// The folder `rel` below `dir`, each component opened without following
/// a link; None when one is missing, not a folder, or a link.
fn open_below(dir: &Dir, rel: &Path) -> Result<Option<Dir>, SnapshotError> {
    let mut current = reopen(dir)?;
    for component in rel.components() {
        let Component::Normal(name) = component else {
            return Ok(None);
        };
        current = match current.open_dir(name) {
            Ok(next) => next,
            Err(_) => return Ok(None),
        };
    }
    Ok(Some(current))
}

/// The first [`GIT_FILE_LIMIT`] bytes of the file `name` in `dir` (never
/// through a link, never blocking on a FIFO); empty when it is missing.
fn read_small(dir: &Dir, name: &str) -> Result<Vec<u8>, SnapshotError> {
    let name = OsStr::new(name);
    if !dir.stat(name).is_ok_and(|s| s.kind == EntryKind::File) {
        return Ok(Vec::new());
    }
    let mut bytes = Vec::new();
    match dir.open_file(name) {
        Ok(file) => {
            let _ = file.take(GIT_FILE_LIMIT).read_to_end(&mut bytes);
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(source) => return Err(unreadable(Path::new(name))(source)),
    }
    Ok(bytes)
}

/// The first line of a link file (`commondir`, `.git`), trimmed.
fn first_line(bytes: Vec<u8>) -> Option<String> {
    let text = String::from_utf8(bytes).ok()?;
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.to_owned())
}

/// The paths a git configuration includes: `path` under `[include]` and
/// under any `[includeIf "…"]` (whatever its condition: it may hold),
/// unquoted, in the order written. Parsing never fails: what is not
/// understood is skipped.
pub(crate) fn include_paths(config: &[u8]) -> Vec<PathBuf> {
    let text = String::from_utf8_lossy(config);
    let mut section = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let mut line = line.trim();
        if let Some(rest) = line.strip_prefix('[') {
            let Some(end) = rest.find(']') else { continue };
            let header = &rest[..end];
            section = header
                .split(|c: char| c.is_whitespace() || c == '"' || c == '.')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            // `[include] path = x` on one line.
            line = rest[end + 1..].trim();
            if line.is_empty() {
                continue;
            }
        }
        if section != "include" && section != "includeif" {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if !key.trim().eq_ignore_ascii_case("path") {
            continue;
        }
        let value = unquote(value.trim());
        if !value.is_empty() {
            out.push(PathBuf::from(value));
        }
    }
    out
}

/// A configuration value without its quotes, escapes and trailing comment.
fn unquote(value: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => quoted = !quoted,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            '#' | ';' if !quoted => break,
            other => out.push(other),
        }
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_under_include_and_include_if_whatever_the_condition() {
        let config = b"[core]\n\tpath = not-this\n\
            [include]\n\tpath = ../shared.gitconfig\n\
            [includeIf \"gitdir:/never/\"]\n\tPath = \"tools/git config\" ; why\n\
            [include] path = one-line\n\
            [user]\n\tname = x\n";
        assert_eq!(
            include_paths(config),
            [
                PathBuf::from("../shared.gitconfig"),
                PathBuf::from("tools/git config"),
                PathBuf::from("one-line"),
            ]
        );
        // Where it must not fire: other sections' `path`, a comment.
        assert!(include_paths(b"[submodule \"a\"]\n\tpath = lib/a\n# [include]\n").is_empty());
        assert!(include_paths(b"\xff\xfe[include\n").is_empty());
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod walk_tests {
    use std::fs;

    use crate::project_tree::Snapshot;

    fn write(root: &std::path::Path, rel: &str, text: &str) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// A repository at the top, as `git init` and a commit leave it, with a
    /// submodule's git directory and a linked worktree's folder.
    fn repository() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "lib.py", "x = 1\n");
        write(root, ".git/HEAD", "ref: refs/heads/main\n");
        write(
            root,
            ".git/config",
            "[core]\n\tbare = false\n[include]\n\tpath = ../target/git.inc\n",
        );
        write(root, ".git/objects/ab/cdef", "blob");
        write(root, ".git/refs/heads/main", "abcdef\n");
        write(root, ".git/index", "index");
        write(root, ".git/modules/vendor/lib/HEAD", "0123\n");
        write(root, ".git/modules/vendor/lib/config", "[core]\n");
        write(root, ".git/worktrees/wt/gitdir", "/elsewhere/wt/.git\n");
        write(root, ".git/worktrees/wt/commondir", "../..\n");
        write(root, "Cargo.toml", "[package]\n");
        fs::create_dir_all(root.join("target")).unwrap();
        dir
    }

    fn names(list: &[std::path::PathBuf]) -> Vec<&str> {
        list.iter().map(|p| p.to_str().unwrap()).collect()
    }

    #[test]
    fn a_planted_commondir_and_what_git_follows_are_named_and_restored() {
        let dir = repository();
        let root = dir.path();
        let snap = Snapshot::take(root, true).unwrap();
        // A copy of the repository whose configuration runs a command, made
        // the common directory by a new `.git/commondir`.
        write(
            root,
            "build/copy/config",
            "[core]\n\tfsmonitor = touch /tmp/x; false\n",
        );
        write(root, "build/copy/HEAD", "ref: refs/heads/main\n");
        write(root, ".git/commondir", "../build/copy\n");
        write(root, ".git/objects/info/alternates", "/host/objects\n");
        write(
            root,
            ".git/modules/vendor/lib/config",
            "[core]\n\tfsmonitor = x\n",
        );
        write(
            root,
            ".git/modules/vendor/lib/hooks/pre-commit",
            "#!/bin/sh\n",
        );
        write(root, ".git/worktrees/wt/commondir", "../../../build/copy\n");
        // The include names a file in `target/`, which the walk leaves
        // alone otherwise.
        write(root, "target/git.inc", "[core]\n\thooksPath = /x\n");
        let change = snap.compare();
        assert_eq!(
            names(&change.changed),
            [
                ".git/modules/vendor/lib/config",
                ".git/worktrees/wt/commondir"
            ]
        );
        assert_eq!(
            names(&change.added),
            [
                ".git/commondir",
                ".git/modules/vendor/lib/hooks/pre-commit",
                ".git/objects/info/alternates",
                // The common directory it names, followed.
                "build/copy/config",
                "target/git.inc",
            ]
        );
        assert!(snap.restore(&change).is_ok(), "{:?}", snap.restore(&change));
        assert!(!root.join(".git/commondir").exists());
        assert!(!root.join("target/git.inc").exists());
        assert!(!root.join("build/copy/config").exists());
        assert_eq!(
            fs::read_to_string(root.join(".git/worktrees/wt/commondir")).unwrap(),
            "../..\n"
        );
        let after = snap.compare();
        assert!(
            after.changed.is_empty() && after.deleted.is_empty(),
            "{after:?}"
        );
    }

    #[test]
    fn a_git_file_naming_a_git_directory_in_the_project_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, ".git", "gitdir: .repo\n");
        write(root, ".repo/HEAD", "ref: refs/heads/main\n");
        write(root, ".repo/config", "[core]\n");
        let snap = Snapshot::take(root, true).unwrap();
        write(root, ".repo/commondir", "../elsewhere\n");
        write(root, ".repo/hooks/pre-commit", "#!/bin/sh\n");
        let change = snap.compare();
        assert_eq!(
            names(&change.added),
            [".repo/commondir", ".repo/hooks", ".repo/hooks/pre-commit"]
        );
        // The same outside the project is not followed (the sandbox keeps
        // it out of reach), and the `.git` file itself is a recorded file.
        write(root, ".git", "gitdir: /elsewhere/.git\n");
        assert_eq!(names(&snap.compare().changed), [".git"]);
    }

    /// Where it must not fire: what an honest `git commit` or `git status`
    /// in the project changes (objects, refs, the index, logs, HEAD).
    #[test]
    fn what_git_commit_changes_is_no_change() {
        let dir = repository();
        let root = dir.path();
        let snap = Snapshot::take(root, false).unwrap();
        write(root, ".git/objects/12/3456", "blob");
        write(root, ".git/refs/heads/main", "123456\n");
        write(root, ".git/index", "index 2");
        write(root, ".git/logs/HEAD", "0 1 commit\n");
        write(root, ".git/COMMIT_EDITMSG", "msg\n");
        write(root, ".git/modules/vendor/lib/index", "index");
        write(root, ".git/worktrees/wt/HEAD", "123456\n");
        let change = snap.compare();
        assert!(change.is_empty(), "{change:?}");
    }
}
