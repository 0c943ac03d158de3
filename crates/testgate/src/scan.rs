//! Reading a project tree by descriptor and within a budget: the entries
//! [`crate::project_tree`] records before the attempts and compares after each.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use testgate_run::{Cancel, Dir, EntryKind, EntryStat};

/// How much a snapshot may cost: beyond any of these it is not taken (the
/// verdict says so) rather than taken weaker.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Files larger than this are not hashed: they are compared by size,
    /// modification and status-change time, inode and device instead
    /// (the kernel sets the status-change time on every write, chmod or
    /// xattr change, and no process can set it back).
    pub hashed_file_bytes: u64,
    /// The most bytes hashed in one walk.
    pub hashed_total_bytes: u64,
    /// The longest one walk may take.
    pub time: Duration,
    /// The most entries (files, folders, links) one walk records.
    pub entries: usize,
    /// The deepest folder walked, counted from the project.
    pub depth: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            hashed_file_bytes: 16 * 1024 * 1024,
            hashed_total_bytes: 8 * 1024 * 1024 * 1024,
            time: Duration::from_secs(120),
            entries: 1_000_000,
            depth: 256,
        }
    }
}

/// Why a tree could not be recorded or compared.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// An entry could not be read (listed, stat'ed, opened, hashed).
    #[error("cannot read {path}: {source}")]
    Unreadable {
        /// The entry, relative to the project ("." for the project).
        path: PathBuf,
        /// The OS's reason.
        source: io::Error,
    },
    /// A folder lies deeper than [`Limits::depth`].
    #[error("{path} lies more than {limit} folders deep")]
    TooDeep {
        /// The folder, relative to the project (shortened).
        path: PathBuf,
        /// The limit.
        limit: usize,
    },
    /// The tree holds more than [`Limits::entries`] entries.
    #[error("the tree holds more than {limit} entries")]
    TooManyEntries {
        /// The limit.
        limit: usize,
    },
    /// Hashing would read more than [`Limits::hashed_total_bytes`].
    #[error("the tree holds more than {limit} bytes of files to hash")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The walk took longer than [`Limits::time`].
    #[error("reading the tree took longer than {}s ({files} entries, {bytes} bytes hashed by then)", limit.as_secs())]
    OverTime {
        /// The limit.
        limit: Duration,
        /// Entries recorded by then.
        files: usize,
        /// Bytes hashed by then.
        bytes: u64,
    },
    /// testgate was interrupted during the walk.
    #[error("interrupted while reading the tree")]
    Cancelled,
}

/// What a file's content is recorded as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Content {
    /// Its SHA-256.
    Digest([u8; 32]),
    /// Too large to hash: its size, and the stamp it is compared by.
    Large { size: u64, stamp: Stamp },
}

/// What an entry is, as compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    File {
        mode: u32,
        content: Content,
        xattrs: [u8; 32],
    },
    Symlink(PathBuf),
    Dir {
        mode: u32,
        xattrs: [u8; 32],
    },
    /// A FIFO, socket or device.
    Special {
        what: EntryKind,
        mode: u32,
    },
}

/// The status fields that any change to an entry moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    mode: u32,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
    ino: u64,
    dev: u64,
}

impl Stamp {
    fn of(stat: &EntryStat) -> Stamp {
        Stamp {
            mode: stat.mode,
            size: stat.size,
            mtime_ns: stat.mtime_ns,
            ctime_ns: stat.ctime_ns,
            ino: stat.ino,
            dev: stat.dev,
        }
    }
}

/// One recorded entry.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) kind: Kind,
    pub(crate) stamp: Stamp,
    /// The bytes, kept to put the file back.
    pub(crate) copy: Option<Kept>,
    /// Inside `node_modules/` (its `.bin` and the shims' targets): judged
    /// after an attempt, not after a preparation, whose job is to fill it.
    pub(crate) in_ignored: bool,
}

/// Where a recorded file's bytes are kept to put it back.
#[derive(Debug, Clone)]
pub(crate) enum Kept {
    /// In memory.
    Bytes(Vec<u8>),
    /// In the project's private state, by its digest ([`known`]).
    Stored,
}

/// Where a folder lies, for the walk.
enum Place {
    /// Walked.
    Walked,
    /// A folder runners write at its usual place: only these sub-paths of
    /// it are walked.
    Ignored(&'static [&'static str]),
}

/// Whether the folder `name` in `rel`, whose entries are `siblings`, is a
/// folder runners write at its usual place: its own manifest beside it, or
/// the project's top. By name alone (`coverage` anywhere) it is walked.
fn place(rel: &Path, name: &OsStr, siblings: &[OsString]) -> Place {
    let top = rel.as_os_str().is_empty();
    let beside = |manifests: &[&str]| manifests.iter().any(|m| siblings.iter().any(|s| s == *m));
    let python = [
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "tox.ini",
        "pytest.ini",
    ];
    let Some(name) = name.to_str() else {
        return Place::Walked;
    };
    let ignored = match name {
        ".git" => top,
        "target" => beside(&["Cargo.toml"]),
        // The build folder of a CMake project detection prepares
        // (`runners::ctest::BUILD_DIR`), as cargo's `target`.
        "testgate-build" => beside(&["CMakeLists.txt"]),
        // What tools write beside the tests (`.pytest_cache`, coverage's
        // output: `runners::tool_outputs`) is walked, so that it is put back
        // after each attempt; these are dependencies and caches.
        "node_modules" => beside(&["package.json"]),
        ".venv" | "venv" | ".cache" => top,
        ".mypy_cache" | ".ruff_cache" | ".tox" | ".nox" => top || beside(&python),
        ".gradle" => {
            top || beside(&[
                "build.gradle",
                "build.gradle.kts",
                "settings.gradle",
                "settings.gradle.kts",
            ])
        }
        _ => false,
    };
    match (ignored, name) {
        (false, _) => Place::Walked,
        (true, ".git") => Place::Ignored(&["hooks", "info"]),
        (true, "node_modules") => Place::Ignored(&[".bin"]),
        (true, _) => Place::Ignored(&[]),
    }
}

/// The path `target` (a link's content) names, relative to the project,
/// when the link lies in `dir`; None when it leads outside (absolute, or
/// above the project by `..`).
pub(crate) fn inside(dir: &Path, target: &Path) -> Option<PathBuf> {
    let mut out = dir.to_path_buf();
    for component in target.components() {
        match component {
            Component::Normal(c) => out.push(c),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

mod git_followed;
pub(crate) mod known;

pub(crate) use git_followed::Followed;

/// One walk of a tree.
pub(crate) struct Scan<'a> {
    limits: &'a Limits,
    cancel: Option<&'a Cancel>,
    /// The previous walk's entries: a file whose stamp did not move keeps
    /// its recorded content without being read again.
    previous: Option<&'a BTreeMap<PathBuf, Entry>>,
    copy_budget: u64,
    /// Whether files the previous walk did not record are read; a
    /// comparison needs only their kind and mode.
    read_new: bool,
    started: Instant,
    hashed: u64,
    files: BTreeMap<PathBuf, Entry>,
    /// The project's path, which absolute paths in git's files are read
    /// against ([`git_followed`]).
    root_path: Option<PathBuf>,
    /// The paths git follows from the project's `.git`.
    followed: Followed,
    /// What earlier checks learnt of the project's files: a file whose
    /// stamp it knows is not read.
    known: Option<&'a mut known::Known>,
}

impl<'a> Scan<'a> {
    pub(crate) fn new(
        limits: &'a Limits,
        cancel: Option<&'a Cancel>,
        previous: Option<&'a BTreeMap<PathBuf, Entry>>,
        copy_budget: u64,
    ) -> Scan<'a> {
        Scan {
            limits,
            cancel,
            previous,
            copy_budget,
            read_new: true,
            started: Instant::now(),
            hashed: 0,
            files: BTreeMap::new(),
            root_path: None,
            followed: Followed::default(),
            known: None,
        }
    }

    /// Takes the content of files whose stamp `known` learnt from it, and
    /// teaches it the files read.
    pub(crate) fn knowing(mut self, known: &'a mut known::Known) -> Scan<'a> {
        self.known = Some(known);
        self
    }

    /// Leaves files the previous walk did not record unread (their content
    /// is recorded by size and stamp): what a comparison needs of them is
    /// their kind and mode, and a suite's gigabytes of new logs are not
    /// hashed.
    pub(crate) fn leaving_new_files_unread(mut self) -> Scan<'a> {
        self.read_new = false;
        self
    }

    /// Walks `root` and returns every entry it records.
    pub(crate) fn run(self, root: &Path) -> Result<BTreeMap<PathBuf, Entry>, SnapshotError> {
        self.run_following_git(root).map(|(files, _)| files)
    }

    /// [`run`](Scan::run), with the paths git follows from the project's
    /// `.git` ([`git_followed`]): whatever appears at one is judged.
    pub(crate) fn run_following_git(
        mut self,
        root: &Path,
    ) -> Result<(BTreeMap<PathBuf, Entry>, Followed), SnapshotError> {
        let dir = Dir::open(root).map_err(|source| SnapshotError::Unreadable {
            path: PathBuf::from("."),
            source,
        })?;
        self.root_path = Some(root.to_path_buf());
        self.walk(&dir, &dir, Path::new(""), 0, false)?;
        self.git_file_at_top(&dir)?;
        Ok((self.files, self.followed))
    }

    fn check(&self) -> Result<(), SnapshotError> {
        if self.cancel.is_some_and(Cancel::is_cancelled) {
            return Err(SnapshotError::Cancelled);
        }
        if self.started.elapsed() > self.limits.time {
            return Err(SnapshotError::OverTime {
                limit: self.limits.time,
                files: self.files.len(),
                bytes: self.hashed,
            });
        }
        Ok(())
    }

    fn insert(&mut self, rel: PathBuf, entry: Entry) -> Result<(), SnapshotError> {
        if self.files.len() >= self.limits.entries {
            return Err(SnapshotError::TooManyEntries {
                limit: self.limits.entries,
            });
        }
        self.files.insert(rel, entry);
        Ok(())
    }

    /// Walks the folder `dir` (at `rel`); returns how many entries it holds.
    fn walk(
        &mut self,
        root: &Dir,
        dir: &Dir,
        rel: &Path,
        depth: usize,
        in_ignored: bool,
    ) -> Result<usize, SnapshotError> {
        self.check()?;
        let unreadable = |path: &Path| {
            let path = path.to_path_buf();
            move |source| SnapshotError::Unreadable { path, source }
        };
        let names = dir.names().map_err(unreadable(rel))?;
        for name in &names {
            let child = rel.join(name);
            let stat = match dir.stat(name) {
                Ok(stat) => stat,
                // Gone between the listing and the look.
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(source) => return Err(unreadable(&child)(source)),
            };
            match stat.kind {
                EntryKind::Dir => {
                    if depth + 1 > self.limits.depth {
                        return Err(SnapshotError::TooDeep {
                            path: shorten(&child),
                            limit: self.limits.depth,
                        });
                    }
                    let sub = dir.open_dir(name).map_err(unreadable(&child))?;
                    match place(rel, name, &names) {
                        Place::Walked => {
                            self.walk(root, &sub, &child, depth + 1, in_ignored)?;
                            self.record_dir(&sub, child, &stat, in_ignored)?;
                        }
                        Place::Ignored(inner) => {
                            if name == ".git" {
                                // Its appearing or vanishing is seen.
                                self.record_dir(&sub, child.clone(), &stat, in_ignored)?;
                            }
                            // What a preparation (`npm ci`) is for.
                            let dependencies = name == "node_modules";
                            self.walk_inside_ignored(
                                root,
                                &sub,
                                &child,
                                inner,
                                depth,
                                dependencies,
                            )?;
                            if name == ".git" {
                                self.git_configuration(&sub, &child)?;
                                self.git_directory(root, &sub, &child, false)?;
                            }
                        }
                    }
                }
                EntryKind::File => self.record_file(dir, name, child, &stat, in_ignored)?,
                EntryKind::Symlink => {
                    let target = dir.read_link(name).map_err(unreadable(&child))?;
                    let entry = Entry {
                        kind: Kind::Symlink(target),
                        stamp: Stamp::of(&stat),
                        copy: None,
                        in_ignored,
                    };
                    self.insert(child, entry)?;
                }
                EntryKind::Fifo | EntryKind::Socket | EntryKind::Device => {
                    self.insert(child, special(&stat, in_ignored))?;
                }
            }
        }
        Ok(names.len())
    }

    /// Walks the sub-paths `inner` of the ignored folder `sub` (at `rel`,
    /// `depth` deep) that exist, and the targets of the shims in a `.bin`
    /// among them; `dependencies`: what they hold is a preparation's.
    fn walk_inside_ignored(
        &mut self,
        root: &Dir,
        sub: &Dir,
        rel: &Path,
        inner: &[&str],
        depth: usize,
        dependencies: bool,
    ) -> Result<(), SnapshotError> {
        for inner in inner {
            let inner = OsStr::new(inner);
            match sub.open_dir(inner) {
                Ok(deeper) => {
                    let at = rel.join(inner);
                    self.walk(root, &deeper, &at, depth + 2, dependencies)?;
                    if inner == ".bin" {
                        self.shim_targets(root, &at)?;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(SnapshotError::Unreadable {
                        path: rel.join(inner),
                        source,
                    });
                }
            }
        }
        Ok(())
    }

    /// The files of an ignored `.git` that run on the host: its
    /// configuration (`core.fsmonitor`, `core.hooksPath`, aliases), which
    /// only bubblewrap keeps read-only; under Landlock the project's `.git`
    /// is writable, and a change there is found here.
    fn git_configuration(&mut self, git: &Dir, rel: &Path) -> Result<(), SnapshotError> {
        for file in ["config", "config.worktree"] {
            let name = OsStr::new(file);
            let child = rel.join(file);
            let stat = match git.stat(name) {
                Ok(stat) => stat,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(source) => {
                    return Err(SnapshotError::Unreadable {
                        path: child,
                        source,
                    });
                }
            };
            match stat.kind {
                EntryKind::File => self.record_file(git, name, child, &stat, false)?,
                EntryKind::Symlink
                | EntryKind::Dir
                | EntryKind::Fifo
                | EntryKind::Socket
                | EntryKind::Device => {
                    // Not git's own: recorded by kind, so that its
                    // appearing or changing is seen.
                    self.insert(child, special(&stat, false))?;
                }
            }
        }
        Ok(())
    }

    fn record_dir(
        &mut self,
        dir: &Dir,
        rel: PathBuf,
        stat: &EntryStat,
        in_ignored: bool,
    ) -> Result<(), SnapshotError> {
        let stamp = Stamp::of(stat);
        let reused = self
            .previous
            .and_then(|p| p.get(&rel))
            .filter(|p| p.stamp.ctime_ns == stamp.ctime_ns && p.stamp.ino == stamp.ino)
            .and_then(|p| match &p.kind {
                Kind::Dir { xattrs, .. } => Some(*xattrs),
                Kind::File { .. } | Kind::Symlink(_) | Kind::Special { .. } => None,
            });
        let xattrs = match reused {
            Some(x) => x,
            None => {
                xattr_digest(dir.user_xattrs()).map_err(|source| SnapshotError::Unreadable {
                    path: rel.clone(),
                    source,
                })?
            }
        };
        let entry = Entry {
            kind: Kind::Dir {
                mode: stat.mode,
                xattrs,
            },
            stamp,
            copy: None,
            in_ignored,
        };
        self.insert(rel, entry)
    }

    fn record_file(
        &mut self,
        dir: &Dir,
        name: &OsStr,
        rel: PathBuf,
        stat: &EntryStat,
        in_ignored: bool,
    ) -> Result<(), SnapshotError> {
        let stamp = Stamp::of(stat);
        let recorded = self.previous.and_then(|p| p.get(&rel));
        let unmoved = recorded
            .filter(|before| before.stamp == stamp && matches!(before.kind, Kind::File { .. }));
        if let Some(before) = unmoved {
            let entry = self.kept_unread(before, stamp, in_ignored);
            return self.insert(rel, entry);
        }
        let known = recorded.is_some();
        if !self.read_new && !known {
            return self.insert(rel, unread_file(stat, stamp, in_ignored));
        }
        if let Some(entry) = self.learnt_earlier(stat, stamp, in_ignored) {
            return self.insert(rel, entry);
        }
        match self.read_file(dir, name, &rel, stat, in_ignored)? {
            Some(entry) => self.insert(rel, entry),
            // Gone between the look and the open.
            None => Ok(()),
        }
    }

    /// A file an earlier check hashed at the stamp it has now: its learnt
    /// content, and its stored copy while the copy budget lasts; None when
    /// it must be read (unknown, or a copy is wanted and none is stored).
    fn learnt_earlier(
        &mut self,
        stat: &EntryStat,
        stamp: Stamp,
        in_ignored: bool,
    ) -> Option<Entry> {
        let known = self.known.as_deref_mut()?;
        let learnt = known.content(stat)?;
        let copy = if stat.size <= self.copy_budget {
            if !known.is_stored(&learnt.digest) {
                return None;
            }
            self.copy_budget -= stat.size;
            Some(Kept::Stored)
        } else {
            None
        };
        Some(Entry {
            kind: Kind::File {
                mode: stat.mode,
                content: Content::Digest(learnt.digest),
                xattrs: learnt.xattrs,
            },
            stamp,
            copy,
            in_ignored,
        })
    }

    /// A file whose stamp did not move since `before` was recorded: its
    /// recorded content, and its copy while the copy budget lasts.
    fn kept_unread(&mut self, before: &Entry, stamp: Stamp, in_ignored: bool) -> Entry {
        let size = stamp.size;
        let copy = before.copy.clone().filter(|_| size <= self.copy_budget);
        if copy.is_some() {
            self.copy_budget -= size;
        }
        Entry {
            kind: before.kind.clone(),
            stamp,
            copy,
            in_ignored,
        }
    }

    /// The file `name` of `dir` (at `rel`) read: its extended attributes,
    /// its digest unless it is too large to hash, a copy while the copy
    /// budget lasts. None when it is gone.
    fn read_file(
        &mut self,
        dir: &Dir,
        name: &OsStr,
        rel: &Path,
        stat: &EntryStat,
        in_ignored: bool,
    ) -> Result<Option<Entry>, SnapshotError> {
        let stamp = Stamp::of(stat);
        let unreadable = |source| SnapshotError::Unreadable {
            path: rel.to_path_buf(),
            source,
        };
        let mut file = match dir.open_file(name) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(unreadable(source)),
        };
        let xattrs = xattr_digest(testgate_run::user_xattrs(&file)).map_err(unreadable)?;
        let content = if stat.size > self.limits.hashed_file_bytes {
            None
        } else {
            if self.hashed.saturating_add(stat.size) > self.limits.hashed_total_bytes {
                return Err(SnapshotError::TooLarge {
                    limit: self.limits.hashed_total_bytes,
                });
            }
            let keep = stat.size <= self.copy_budget;
            self.hash(&mut file, keep).map_err(|e| match e {
                Hashing::Io(source) => unreadable(source),
                Hashing::Stopped(e) => e,
            })?
        };
        let (content, copy) = match content {
            Some((digest, copy)) => (Content::Digest(digest), copy),
            None => (
                Content::Large {
                    size: stat.size,
                    stamp,
                },
                None,
            ),
        };
        if let Some(c) = &copy {
            self.copy_budget = self.copy_budget.saturating_sub(c.len() as u64);
        }
        let stored = match (self.known.as_deref_mut(), &content) {
            (Some(known), Content::Digest(digest)) => {
                known.learn(stat, *digest, xattrs, copy.as_deref())
            }
            (None, _) | (Some(_), Content::Large { .. }) => false,
        };
        // A stored copy is read back only to put the file back: the walk
        // holds one file's bytes at a time.
        let copy = copy.map(|bytes| {
            if stored {
                Kept::Stored
            } else {
                Kept::Bytes(bytes)
            }
        });
        Ok(Some(Entry {
            kind: Kind::File {
                mode: stat.mode,
                content,
                xattrs,
            },
            stamp,
            copy,
            in_ignored,
        }))
    }

    /// Hashes `file` in chunks, honouring cancellation and the time budget
    /// between them; None when it held more than the per-file limit (it
    /// grew since its status was read).
    #[expect(clippy::type_complexity, reason = "a digest and the kept copy")]
    fn hash(
        &mut self,
        file: &mut std::fs::File,
        keep: bool,
    ) -> Result<Option<([u8; 32], Option<Vec<u8>>)>, Hashing> {
        let mut hasher = Sha256::new();
        let mut copy = keep.then(Vec::new);
        let mut buf = vec![0u8; 64 * 1024];
        let mut read = 0u64;
        loop {
            self.check().map_err(Hashing::Stopped)?;
            let n = match file.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Hashing::Io(e)),
            };
            read += n as u64;
            self.hashed = self.hashed.saturating_add(n as u64);
            if read > self.limits.hashed_file_bytes {
                return Ok(None);
            }
            hasher.update(&buf[..n]);
            if let Some(copy) = &mut copy {
                copy.extend_from_slice(&buf[..n]);
            }
        }
        Ok(Some((hasher.finalize().into(), copy)))
    }

    /// Records the files the `node_modules/.bin` shims under `bin` point
    /// at, where they lie inside the project: what `npx` runs.
    fn shim_targets(&mut self, root: &Dir, bin: &Path) -> Result<(), SnapshotError> {
        let shims: Vec<PathBuf> = self
            .files
            .range(bin.to_path_buf()..)
            .take_while(|(p, _)| p.starts_with(bin))
            .filter_map(|(_, e)| match &e.kind {
                Kind::Symlink(target) => inside(bin, target),
                Kind::File { .. } | Kind::Dir { .. } | Kind::Special { .. } => None,
            })
            .collect();
        for target in shims {
            self.record_inside(root, target)?;
        }
        Ok(())
    }

    /// Records the regular file at `rel`, following links inside the
    /// project only (at most 40), never a link that leaves it.
    fn record_inside(&mut self, root: &Dir, mut rel: PathBuf) -> Result<(), SnapshotError> {
        'hops: for _ in 0..40 {
            if self.files.contains_key(&rel) {
                return Ok(());
            }
            let parts: Vec<OsString> = rel.iter().map(OsStr::to_os_string).collect();
            let mut at = PathBuf::new();
            let mut held: Option<Dir> = None;
            for (i, part) in parts.iter().enumerate() {
                let dir = held.as_ref().unwrap_or(root);
                let Ok(stat) = dir.stat(part) else {
                    return Ok(());
                };
                let last = i + 1 == parts.len();
                match stat.kind {
                    EntryKind::Symlink => {
                        let Ok(target) = dir.read_link(part) else {
                            return Ok(());
                        };
                        let Some(mut next) = inside(&at, &target) else {
                            return Ok(());
                        };
                        next.extend(&parts[i + 1..]);
                        rel = next;
                        continue 'hops;
                    }
                    EntryKind::Dir if !last => {
                        let Ok(next) = dir.open_dir(part) else {
                            return Ok(());
                        };
                        held = Some(next);
                        at.push(part);
                    }
                    EntryKind::File if last => {
                        return self.record_file(dir, part, rel.clone(), &stat, true);
                    }
                    EntryKind::Dir
                    | EntryKind::File
                    | EntryKind::Fifo
                    | EntryKind::Socket
                    | EntryKind::Device => return Ok(()),
                }
            }
            return Ok(());
        }
        Ok(())
    }
}

enum Hashing {
    Io(io::Error),
    Stopped(SnapshotError),
}

/// One SHA-256 over an entry's `user.*` extended attributes.
fn xattr_digest(xattrs: io::Result<Vec<(OsString, Vec<u8>)>>) -> io::Result<[u8; 32]> {
    let mut hasher = Sha256::new();
    for (name, value) in xattrs? {
        hasher.update(name.as_encoded_bytes());
        hasher.update([0]);
        hasher.update((value.len() as u64).to_le_bytes());
        hasher.update(&value);
    }
    Ok(hasher.finalize().into())
}

/// A FIFO, socket or device, recorded by kind and mode.
fn special(stat: &EntryStat, in_ignored: bool) -> Entry {
    Entry {
        kind: Kind::Special {
            what: stat.kind,
            mode: stat.mode,
        },
        stamp: Stamp::of(stat),
        copy: None,
        in_ignored,
    }
}

/// A file the walk leaves unread: its content recorded by size and stamp.
fn unread_file(stat: &EntryStat, stamp: Stamp, in_ignored: bool) -> Entry {
    Entry {
        kind: Kind::File {
            mode: stat.mode,
            content: Content::Large {
                size: stat.size,
                stamp,
            },
            xattrs: [0; 32],
        },
        stamp,
        copy: None,
        in_ignored,
    }
}

/// A path short enough for a one-line reason: its first and last parts.
fn shorten(path: &Path) -> PathBuf {
    let parts: Vec<&OsStr> = path.iter().collect();
    if parts.len() <= 6 {
        return path.to_path_buf();
    }
    let mut out: PathBuf = parts[..2].iter().collect();
    out.push(format!("…({} more)…", parts.len() - 4));
    out.extend(&parts[parts.len() - 2..]);
    out
}
