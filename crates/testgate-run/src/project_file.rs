//! The one door to a tree the code under test could change: paths resolved
//! beneath the project without following a link, files created exclusively
//! under a temporary name and renamed into place, reads capped and never
//! blocking.
//!
//! A suite that runs with the project writable can leave anything behind: a
//! symbolic link where a folder was (`tests -> /etc/cron.d`), a FIFO where a
//! configuration file was, a link to `/dev/zero`. testgate runs as root on
//! the host after the attempt, so every path it reads or writes there goes
//! through this module: [`ProjectDir`] for paths relative to the project,
//! [`replace_file`] and [`append_file`] for paths the user named (`--record`,
//! `batch --out`) that may lie inside it, [`read_project_file`] for one file.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a read or write through this module refused or failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProjectFileError {
    /// The file could not be opened (missing, unreadable, a socket).
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: io::Error,
    },
    /// The file is not a regular file (a FIFO, a device, a directory, a
    /// symbolic link, which is never followed).
    #[error("{path} is {kind}, not a regular file")]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead ("a FIFO", "a symbolic link", ...).
        kind: &'static str,
    },
    /// The file holds more than the cap.
    #[error("{path} is larger than {limit} bytes")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap, in bytes.
        limit: u64,
    },
    /// Reading the opened file failed.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: io::Error,
    },
    /// The path is not a plain relative one (`..`, absolute, empty), so it
    /// could name something outside the project.
    #[error("{path} is not a plain path inside the project")]
    NotBeneath {
        /// The path as given.
        path: PathBuf,
    },
    /// A folder on the way could not be opened without following a link
    /// (it is a symbolic link, not a folder, or missing).
    #[error("cannot reach {path} without following a link: {source}")]
    Resolve {
        /// The folder.
        path: PathBuf,
        /// The OS's reason (`ELOOP` for a link, `ENOTDIR`, `ENOENT`).
        source: io::Error,
    },
    /// Creating, writing, renaming or removing failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The OS's reason.
        source: io::Error,
    },
}

/// Reads `path`, at most `limit` bytes, as a file the code under test may
/// have replaced: the last component is never followed if it is a symbolic
/// link (`O_NOFOLLOW`), the open never waits for a writer (`O_NONBLOCK`),
/// and anything but a regular file (a FIFO, `/dev/zero`, a directory) is
/// refused after `fstat` on the opened descriptor, so a swap between check
/// and read cannot slip through. A file longer than `limit` is refused, not
/// truncated. (Folders above the last component are followed: use
/// [`ProjectDir::read`] when they are the project's too.)
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// let path = dir.path().join("package.json");
/// std::fs::write(&path, br#"{"scripts": {"test": "jest"}}"#)?;
/// let text = testgate_run::read_project_file(&path, 1 << 20)?;
/// assert!(text.starts_with(b"{"));
///
/// std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero"))?;
/// let refused = testgate_run::read_project_file(&dir.path().join("zero"), 1 << 20);
/// assert!(refused.unwrap_err().to_string().ends_with("is a symbolic link, not a regular file"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_project_file(path: &Path, limit: u64) -> Result<Vec<u8>, ProjectFileError> {
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|source| match source.raw_os_error() {
            // O_NOFOLLOW on a symbolic link.
            Some(libc::ELOOP) if is_symlink(path) => ProjectFileError::NotRegular {
                path: path.to_owned(),
                kind: "a symbolic link",
            },
            _ => ProjectFileError::Open {
                path: path.to_owned(),
                source,
            },
        })?;
    read_opened(file, path, limit)
}

/// Reads an opened `file` (named `path` in errors) if it is a regular file
/// of at most `limit` bytes.
fn read_opened(file: File, path: &Path, limit: u64) -> Result<Vec<u8>, ProjectFileError> {
    let read_error = |source| ProjectFileError::Read {
        path: path.to_owned(),
        source,
    };
    check_regular(&file, path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(ProjectFileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(bytes)
}

/// Refuses an opened `file` that is not a regular file, by `fstat`.
fn check_regular(file: &File, path: &Path) -> Result<(), ProjectFileError> {
    let kind = file
        .metadata()
        .map_err(|source| ProjectFileError::Read {
            path: path.to_owned(),
            source,
        })?
        .file_type();
    let not_regular = |kind| {
        Err(ProjectFileError::NotRegular {
            path: path.to_owned(),
            kind,
        })
    };
    if kind.is_fifo() {
        not_regular("a FIFO")
    } else if kind.is_char_device() || kind.is_block_device() {
        not_regular("a device")
    } else if kind.is_socket() {
        not_regular("a socket")
    } else if kind.is_dir() {
        not_regular("a directory")
    } else if !kind.is_file() {
        not_regular("not a file")
    } else {
        Ok(())
    }
}

fn is_symlink(path: &Path) -> bool {
    path.symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
}

/// One check's hold on a project: an exclusive `flock` on the project's
/// folder itself (nothing is written), taken before the tree is recorded
/// and released when the check has put the tree back. Every attempt runs
/// the tree as submitted and testgate leaves it so: a second check of the
/// same folder at the same time would record the first one's writes as the
/// tree, and put back over its run (a new file of one removed under the
/// other), so it waits for the hold (the CLI, `batch`, `testgate mcp` and
/// the library alike).
#[derive(Debug)]
pub struct ProjectLock {
    _dir: File,
}

impl ProjectLock {
    /// Takes the hold on `dir` if no other check has it: `Ok(None)` when
    /// one does. The folder is opened without following a final link.
    pub fn try_hold(dir: &Path) -> io::Result<Option<ProjectLock>> {
        let folder = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(dir)?;
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(folder.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(Some(ProjectLock { _dir: folder }));
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EWOULDBLOCK) => Ok(None),
            _ => Err(error),
        }
    }
}

/// A project folder, opened once, under which paths are resolved without
/// ever following a link: `openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`, or, where the kernel has no
/// `openat2`, one `openat(O_NOFOLLOW | O_DIRECTORY)` per component. A link
/// the code under test planted anywhere on the way is never passed through:
/// a read refuses it, a write replaces it.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let victim = tempfile::tempdir()?;
/// use std::path::Path;
/// use testgate_run::ProjectDir;
///
/// // The attempt replaced `tests/` with a link to a folder outside.
/// std::os::unix::fs::symlink(victim.path(), dir.path().join("tests"))?;
/// let project = ProjectDir::open(dir.path())?;
/// assert!(project.read(Path::new("tests/a_test.py"), 1 << 20).is_err());
/// project.write(Path::new("tests/a_test.py"), b"assert 1 == 2\n", 0o644)?;
/// // The link became a folder; nothing was written through it.
/// assert!(dir.path().join("tests").symlink_metadata()?.is_dir());
/// assert_eq!(std::fs::read_dir(victim.path())?.count(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ProjectDir {
    root: PathBuf,
    fd: OwnedFd,
}

impl ProjectDir {
    /// Opens the project folder `root` (the caller's path: links in it are
    /// followed, as the user named it).
    pub fn open(root: &Path) -> Result<ProjectDir, ProjectFileError> {
        let name = c_path(root.as_os_str(), root)?;
        let fd = openat(
            None,
            &name,
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            0,
        )
        .map_err(|source| ProjectFileError::Open {
            path: root.to_owned(),
            source,
        })?;
        Ok(ProjectDir {
            root: root.to_owned(),
            fd,
        })
    }

    /// The folder as opened.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Reads the regular file `rel`, at most `limit` bytes, as
    /// [`read_project_file`] does, with no link followed on the way either.
    pub fn read(&self, rel: &Path, limit: u64) -> Result<Vec<u8>, ProjectFileError> {
        let (parent, name) = split(rel)?;
        let dir = self.resolve(parent)?;
        let path = self.root.join(rel);
        let fd = openat(
            Some(dir.as_fd()),
            &c_path(name, rel)?,
            libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC,
            0,
        )
        .map_err(|source| match source.raw_os_error() {
            Some(libc::ELOOP) => ProjectFileError::NotRegular {
                path: path.clone(),
                kind: "a symbolic link",
            },
            _ => ProjectFileError::Open {
                path: path.clone(),
                source,
            },
        })?;
        read_opened(File::from(fd), &path, limit)
    }

    /// Puts `bytes` at `rel` with permission bits `mode`: missing folders
    /// are made, and a link, file or folder the attempt left where a folder
    /// or the file belongs is removed (never followed) first. The file is
    /// written under a temporary name beside it and renamed into place, so
    /// no reader sees half of it.
    pub fn write(&self, rel: &Path, bytes: &[u8], mode: u32) -> Result<(), ProjectFileError> {
        let (parent, name) = split(rel)?;
        let dir = self.make_dirs(parent)?;
        let path = self.root.join(rel);
        remove_folder_at(dir.as_fd(), name, &path)?;
        write_at(dir.as_fd(), name, bytes, mode, &path)
    }

    /// Puts a symbolic link to `target` at `rel`, as [`ProjectDir::write`]
    /// puts a file.
    pub fn symlink(&self, rel: &Path, target: &Path) -> Result<(), ProjectFileError> {
        let (parent, name) = split(rel)?;
        let dir = self.make_dirs(parent)?;
        let path = self.root.join(rel);
        remove_folder_at(dir.as_fd(), name, &path)?;
        let write_error = |source| ProjectFileError::Write {
            path: path.clone(),
            source,
        };
        let temporary = temporary_name();
        let target = c_path(target.as_os_str(), target)?;
        // SAFETY: both strings are NUL-terminated and outlive the call; the
        // descriptor is open.
        let made = unsafe { libc::symlinkat(target.as_ptr(), dir.as_raw_fd(), temporary.as_ptr()) };
        if made != 0 {
            return Err(write_error(io::Error::last_os_error()));
        }
        rename_into_place(dir.as_fd(), &temporary, &c_path(name, rel)?).map_err(write_error)
    }

    /// Makes the folder `rel` with permission bits `mode` (and any missing
    /// folder on the way): a link or file the attempt left where a folder
    /// belongs is removed (never followed) first; a folder already there
    /// gets `mode` back.
    pub fn make_dir(&self, rel: &Path, mode: u32) -> Result<(), ProjectFileError> {
        let dir = self.make_dirs(rel)?;
        // SAFETY: an open descriptor; fchmod has no memory effects.
        if unsafe { libc::fchmod(dir.as_raw_fd(), (mode & 0o7777) as libc::mode_t) } != 0 {
            return Err(ProjectFileError::Write {
                path: self.root.join(rel),
                source: io::Error::last_os_error(),
            });
        }
        Ok(())
    }

    /// Removes the file or link at `rel` (a link itself, never its target).
    /// Returns whether there was one; nothing at `rel`, a folder at `rel`,
    /// or a folder on the way that is missing or is now a link, is `false`:
    /// there is no file of the project there to remove.
    pub fn remove(&self, rel: &Path) -> Result<bool, ProjectFileError> {
        let (parent, name) = split(rel)?;
        let dir = match self.resolve(parent) {
            Ok(dir) => dir,
            Err(ProjectFileError::Resolve { .. }) => return Ok(false),
            Err(e) => return Err(e),
        };
        let name = c_path(name, rel)?;
        // SAFETY: a NUL-terminated name and an open descriptor.
        if unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) } == 0 {
            return Ok(true);
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::ENOENT | libc::EISDIR) => Ok(false),
            _ => Err(ProjectFileError::Write {
                path: self.root.join(rel),
                source: error,
            }),
        }
    }

    /// Removes whatever is at `rel`: a file or link (the link itself), or a
    /// folder with everything in it, each level opened without following a
    /// link. Returns whether there was anything; a folder on the way that
    /// is missing or is now a link is `false`, as for [`ProjectDir::remove`].
    pub fn remove_entry(&self, rel: &Path) -> Result<bool, ProjectFileError> {
        if self.remove(rel)? {
            return Ok(true);
        }
        let (parent, name) = split(rel)?;
        let dir = match self.resolve(parent) {
            Ok(dir) => dir,
            Err(ProjectFileError::Resolve { .. }) => return Ok(false),
            Err(e) => return Err(e),
        };
        let path = self.root.join(rel);
        let c_name = c_path(name, rel)?;
        let there = open_folder(dir.as_fd(), &c_name).is_ok();
        remove_folder_at(dir.as_fd(), name, &path)?;
        Ok(there)
    }

    /// Removes the empty folder at `rel`, reached without following a link.
    /// Returns whether there was one; nothing at `rel`, a file or link
    /// there, or a folder on the way that is missing or is now a link, is
    /// `false`. A folder that is not empty is an error.
    pub fn remove_dir(&self, rel: &Path) -> Result<bool, ProjectFileError> {
        let (parent, name) = split(rel)?;
        let dir = match self.resolve(parent) {
            Ok(dir) => dir,
            Err(ProjectFileError::Resolve { .. }) => return Ok(false),
            Err(e) => return Err(e),
        };
        let name = c_path(name, rel)?;
        // SAFETY: a NUL-terminated name and an open descriptor.
        if unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) } == 0 {
            return Ok(true);
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::ENOENT | libc::ENOTDIR) => Ok(false),
            _ => Err(ProjectFileError::Write {
                path: self.root.join(rel),
                source: error,
            }),
        }
    }

    /// The folder `rel` beneath the root, reached without following a link.
    fn resolve(&self, rel: &Path) -> Result<OwnedFd, ProjectFileError> {
        let resolve_error = |source| ProjectFileError::Resolve {
            path: self.root.join(rel),
            source,
        };
        if rel.as_os_str().is_empty() {
            return dup(self.fd.as_fd()).map_err(resolve_error);
        }
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
        match openat2_beneath(self.fd.as_fd(), &c_path(rel.as_os_str(), rel)?, flags) {
            Ok(fd) => Ok(fd),
            // No openat2 (an old kernel, a seccomp filter that refuses it):
            // the same, one component at a time.
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENOSYS | libc::EPERM)) => {
                walk_beneath(self.fd.as_fd(), rel)?.map_err(resolve_error)
            }
            Err(e) => Err(resolve_error(e)),
        }
    }

    /// The folder `rel`, made where it is missing, one component at a time;
    /// a link or file where a folder belongs is removed and a folder made.
    fn make_dirs(&self, rel: &Path) -> Result<OwnedFd, ProjectFileError> {
        if let Ok(dir) = self.resolve(rel) {
            return Ok(dir);
        }
        let mut dir = dup(self.fd.as_fd()).map_err(|source| ProjectFileError::Resolve {
            path: self.root.clone(),
            source,
        })?;
        let mut walked = self.root.clone();
        for name in rel.iter() {
            walked.push(name);
            let write_error = |source| ProjectFileError::Write {
                path: walked.clone(),
                source,
            };
            let name = c_path(name, rel)?;
            dir = match open_folder(dir.as_fd(), &name) {
                Ok(next) => next,
                Err(e) => {
                    if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) {
                        // A link or a file: removed itself, never followed.
                        // SAFETY: a NUL-terminated name and an open descriptor.
                        if unsafe { libc::unlinkat(dir.as_raw_fd(), name.as_ptr(), 0) } != 0 {
                            return Err(write_error(io::Error::last_os_error()));
                        }
                    } else if e.raw_os_error() != Some(libc::ENOENT) {
                        return Err(write_error(e));
                    }
                    // SAFETY: a NUL-terminated name and an open descriptor.
                    if unsafe { libc::mkdirat(dir.as_raw_fd(), name.as_ptr(), 0o755) } != 0 {
                        return Err(write_error(io::Error::last_os_error()));
                    }
                    open_folder(dir.as_fd(), &name).map_err(write_error)?
                }
            };
        }
        Ok(dir)
    }
}

/// The folder `rel` (plain, relative) beneath `root`, one
/// `openat(O_NOFOLLOW | O_DIRECTORY)` per component: what `openat2`'s
/// `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` does, where it is missing.
fn walk_beneath(root: BorrowedFd<'_>, rel: &Path) -> Result<io::Result<OwnedFd>, ProjectFileError> {
    let mut dir = match dup(root) {
        Ok(dir) => dir,
        Err(e) => return Ok(Err(e)),
    };
    for name in rel.iter() {
        dir = match open_folder(dir.as_fd(), &c_path(name, rel)?) {
            Ok(next) => next,
            Err(e) => return Ok(Err(e)),
        };
    }
    Ok(Ok(dir))
}

/// Writes `bytes` to `path`, a path the user named (`--record FILE`) that
/// may lie in a tree the code under test wrote: the folder is the user's
/// (followed as given), but the last component is never followed. The
/// bytes go to a new temporary file beside it (`O_EXCL`), renamed over
/// whatever is there, so a symbolic link planted at `path` is replaced,
/// its target untouched. A folder at `path` is refused. In the kernel's
/// own folders (`/dev`, `/proc`), where no test can plant anything,
/// `path` is opened as named: `--record /dev/stdout` writes to standard
/// output instead of replacing the host's `/dev/stdout`.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// let victim = dir.path().join("victim");
/// std::fs::write(&victim, "host file\n")?;
/// let record = dir.path().join("verdict.json");
/// std::os::unix::fs::symlink(&victim, &record)?;
/// testgate_run::replace_file(&record, b"{}\n", 0o644)?;
/// assert_eq!(std::fs::read(&victim)?, b"host file\n");
/// assert!(record.symlink_metadata()?.is_file());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replace_file(path: &Path, bytes: &[u8], mode: u32) -> Result<(), ProjectFileError> {
    let (dir, name) = open_parent(path)?;
    if in_kernel_folder(dir.as_fd()) {
        let write_error = |source| ProjectFileError::Write {
            path: path.to_owned(),
            source,
        };
        let mut file = File::options()
            .write(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(path)
            .map_err(write_error)?;
        return file.write_all(bytes).map_err(write_error);
    }
    write_at(dir.as_fd(), name, bytes, mode, path)
}

/// Whether the opened folder `dir` is in `/dev` or `/proc` (devtmpfs and
/// procfs, which no sandboxed test can write on the host).
fn in_kernel_folder(dir: BorrowedFd<'_>) -> bool {
    let Ok(real) = std::fs::read_link(format!("/proc/self/fd/{}", dir.as_raw_fd())) else {
        return false;
    };
    ["/dev", "/proc"]
        .iter()
        .any(|kernel| real.starts_with(kernel))
}

/// Opens `path` (a path the user named, `batch --out FILE`) to read it
/// from the start and append to it, creating it (mode 0644) when missing.
/// The last component is never followed and the open never blocks: a
/// symbolic link, a FIFO, a device or a folder there is refused, so a link
/// a suite planted is neither truncated nor appended through.
pub fn append_file(path: &Path) -> Result<File, ProjectFileError> {
    let file = File::options()
        .read(true)
        .append(true)
        .create(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|source| match source.raw_os_error() {
            Some(libc::ELOOP) => ProjectFileError::NotRegular {
                path: path.to_owned(),
                kind: "a symbolic link",
            },
            _ => ProjectFileError::Open {
                path: path.to_owned(),
                source,
            },
        })?;
    check_regular(&file, path)?;
    Ok(file)
}

/// The folder of `path` (opened as given) and its last component.
fn open_parent(path: &Path) -> Result<(OwnedFd, &OsStr), ProjectFileError> {
    let Some(name) = path.file_name() else {
        return Err(ProjectFileError::Write {
            path: path.to_owned(),
            source: io::Error::new(io::ErrorKind::InvalidInput, "it names no file"),
        });
    };
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let dir = openat(
        None,
        &c_path(parent.as_os_str(), parent)?,
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        0,
    )
    .map_err(|source| ProjectFileError::Open {
        path: parent.to_owned(),
        source,
    })?;
    Ok((dir, name))
}

/// Writes a new temporary file in `dir` and renames it to `name`.
fn write_at(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    bytes: &[u8],
    mode: u32,
    path: &Path,
) -> Result<(), ProjectFileError> {
    let write_error = |source| ProjectFileError::Write {
        path: path.to_owned(),
        source,
    };
    let temporary = temporary_name();
    let fd = openat(
        Some(dir),
        &temporary,
        libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        0o600,
    )
    .map_err(write_error)?;
    let mut file = File::from(fd);
    let written = file.write_all(bytes).and_then(|()| {
        file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(mode & 0o7777))
    });
    drop(file);
    let name = c_path(name, path)?;
    let renamed = written.and_then(|()| rename_into_place(dir, &temporary, &name));
    if let Err(e) = renamed {
        // SAFETY: a NUL-terminated name and an open descriptor.
        unsafe { libc::unlinkat(dir.as_raw_fd(), temporary.as_ptr(), 0) };
        return Err(match e.raw_os_error() {
            Some(libc::EISDIR | libc::ENOTEMPTY | libc::EEXIST) => ProjectFileError::NotRegular {
                path: path.to_owned(),
                kind: "a directory",
            },
            _ => write_error(e),
        });
    }
    Ok(())
}

/// Renames `temporary` over `name`, both in `dir` (a link at `name` is
/// replaced, not followed).
fn rename_into_place(dir: BorrowedFd<'_>, temporary: &CString, name: &CString) -> io::Result<()> {
    // SAFETY: NUL-terminated names and an open descriptor.
    let renamed = unsafe {
        libc::renameat(
            dir.as_raw_fd(),
            temporary.as_ptr(),
            dir.as_raw_fd(),
            name.as_ptr(),
        )
    };
    if renamed == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Removes a folder (with what it holds, no link followed) at `name` in
/// `dir`, where a file is to be put; anything else is left to the rename.
fn remove_folder_at(
    dir: BorrowedFd<'_>,
    name: &OsStr,
    path: &Path,
) -> Result<(), ProjectFileError> {
    let c_name = c_path(name, path)?;
    // SAFETY: an all-zero stat is a valid value of a C struct of integers;
    // fstatat fills it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated name, an open descriptor, a valid stat.
    let found = unsafe {
        libc::fstatat(
            dir.as_raw_fd(),
            c_name.as_ptr(),
            &mut stat,
            libc::AT_SYMLINK_NOFOLLOW,
        )
    };
    if found != 0 || stat.st_mode & libc::S_IFMT != libc::S_IFDIR {
        return Ok(());
    }
    // std's remove_dir_all opens every level with O_NOFOLLOW and removes
    // by descriptor; the magic link names `dir` itself, so nothing on the
    // way can be swapped for a link.
    let through_descriptor = Path::new("/proc/self/fd")
        .join(dir.as_raw_fd().to_string())
        .join(name);
    std::fs::remove_dir_all(through_descriptor).map_err(|source| ProjectFileError::Write {
        path: path.to_owned(),
        source,
    })
}

/// A name no other write of this process uses, and that the `O_EXCL`
/// create refuses if something is already there.
fn temporary_name() -> CString {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let text = format!(".testgate-{}-{n}.tmp", std::process::id());
    CString::new(text).unwrap_or_default()
}

/// `rel`'s folder and last component; `rel` must be plain and relative.
fn split(rel: &Path) -> Result<(&Path, &OsStr), ProjectFileError> {
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    match (plain, rel.parent(), rel.file_name()) {
        (true, Some(parent), Some(name)) => Ok((parent, name)),
        _ => Err(ProjectFileError::NotBeneath {
            path: rel.to_owned(),
        }),
    }
}

fn c_path(name: &OsStr, path: &Path) -> Result<CString, ProjectFileError> {
    CString::new(name.as_bytes()).map_err(|_| ProjectFileError::NotBeneath {
        path: path.to_owned(),
    })
}

fn openat(
    dir: Option<BorrowedFd<'_>>,
    name: &CString,
    flags: libc::c_int,
    mode: libc::mode_t,
) -> io::Result<OwnedFd> {
    let dir = dir.map_or(libc::AT_FDCWD, |d| d.as_raw_fd());
    // SAFETY: a NUL-terminated name; `dir` is open or AT_FDCWD.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags, libc::c_uint::from(mode)) };
    if fd < 0 {
        Err(io::Error::last_os_error())
    } else {
        // SAFETY: openat returned a new descriptor that nothing else owns.
        Ok(unsafe { OwnedFd::from_raw_fd(fd) })
    }
}

/// Opens the folder `name` in `dir`, never following a link.
fn open_folder(dir: BorrowedFd<'_>, name: &CString) -> io::Result<OwnedFd> {
    openat(
        Some(dir),
        name,
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        0,
    )
}

fn dup(fd: BorrowedFd<'_>) -> io::Result<OwnedFd> {
    fd.try_clone_to_owned()
}

/// `openat2(dir, rel, flags)` confined beneath `dir` with no link at all.
fn openat2_beneath(dir: BorrowedFd<'_>, rel: &CString, flags: libc::c_int) -> io::Result<OwnedFd> {
    // SAFETY: an all-zero open_how is valid (no flags, no mode, no resolve).
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = u64::try_from(flags).unwrap_or_default();
    how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_SYMLINKS | libc::RESOLVE_NO_MAGICLINKS;
    // SAFETY: a NUL-terminated path, an open descriptor, and `how` with
    // its own size, all alive for the call.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir.as_raw_fd(),
            rel.as_ptr(),
            &how as *const libc::open_how,
            std::mem::size_of::<libc::open_how>(),
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = libc::c_int::try_from(fd)
        .map_err(|_| io::Error::other("openat2 returned no descriptor"))?;
    // SAFETY: openat2 returned a new descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &Path, limit: u64) -> String {
        read_project_file(path, limit)
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("package.json");
        std::fs::write(&path, b"{}\n").expect("write");
        assert_eq!(read_project_file(&path, 3).expect("read"), b"{}\n");
        assert_eq!(read_project_file(&path, 1 << 20).expect("read"), b"{}\n");
    }

    #[test]
    fn odd_files_are_one_line_refusals_never_a_hang() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        // No writer: an open without O_NONBLOCK would block here forever.
        assert!(refusal(&fifo, 100).ends_with("fifo is a FIFO, not a regular file"));

        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        assert!(refusal(&link, 100).ends_with("zero is a symbolic link, not a regular file"));
        assert!(
            refusal(Path::new("/dev/zero"), 100)
                .ends_with("/dev/zero is a device, not a regular file")
        );
        assert!(refusal(dir.path(), 100).ends_with("is a directory, not a regular file"));

        let big = dir.path().join("big");
        std::fs::write(&big, vec![b' '; 101]).expect("write");
        assert!(refusal(&big, 100).ends_with("big is larger than 100 bytes"));
        assert!(refusal(&dir.path().join("missing"), 100).starts_with("cannot open "));
        for message in [refusal(&fifo, 1), refusal(&big, 1)] {
            assert!(!message.contains('\n'), "{message}");
        }
    }

    fn project() -> (tempfile::TempDir, tempfile::TempDir, ProjectDir) {
        let dir = tempfile::tempdir().expect("tempdir");
        let victim = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("tests")).expect("mkdir");
        std::fs::write(dir.path().join("tests/a_test.py"), "recorded\n").expect("write");
        let project = ProjectDir::open(dir.path()).expect("open");
        (dir, victim, project)
    }

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("read_dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_a_planted_folder_link_and_never_writes_through_it() {
        let (dir, victim, project) = project();
        std::fs::write(victim.path().join("a_test.py"), "host\n").expect("write");
        std::fs::remove_dir_all(dir.path().join("tests")).expect("rm");
        std::os::unix::fs::symlink(victim.path(), dir.path().join("tests")).expect("symlink");
        let rel = Path::new("tests/a_test.py");
        assert!(
            project
                .read(rel, 100)
                .expect_err("through a link")
                .to_string()
                .starts_with("cannot reach ")
        );
        assert!(
            !project.remove(rel).expect("remove"),
            "nothing of ours there"
        );
        project.write(rel, b"recorded\n", 0o640).expect("write");
        assert_eq!(
            std::fs::read(victim.path().join("a_test.py")).unwrap(),
            b"host\n"
        );
        assert_eq!(listing(victim.path()), ["a_test.py"]);
        assert!(
            dir.path()
                .join("tests")
                .symlink_metadata()
                .unwrap()
                .is_dir()
        );
        assert_eq!(project.read(rel, 100).expect("read"), b"recorded\n");
        let mode = dir.path().join(rel).metadata().unwrap().permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o640
        );
        assert_eq!(
            listing(&dir.path().join("tests")),
            ["a_test.py"],
            "no temporary left"
        );
    }

    #[test]
    fn a_write_replaces_a_link_file_or_folder_at_the_last_component() {
        let (dir, victim, project) = project();
        let target = victim.path().join("passwd");
        std::fs::write(&target, "host\n").expect("write");
        let rel = Path::new("tests/a_test.py");
        std::fs::remove_file(dir.path().join(rel)).unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join(rel)).expect("symlink");
        project.write(rel, b"one\n", 0o644).expect("over a link");
        assert_eq!(std::fs::read(&target).unwrap(), b"host\n");
        assert!(dir.path().join(rel).symlink_metadata().unwrap().is_file());

        std::fs::remove_file(dir.path().join(rel)).unwrap();
        std::fs::create_dir_all(dir.path().join(rel).join("deep")).unwrap();
        std::os::unix::fs::symlink(victim.path(), dir.path().join(rel).join("deep/out"))
            .expect("symlink");
        project.write(rel, b"two\n", 0o644).expect("over a folder");
        assert_eq!(std::fs::read(dir.path().join(rel)).unwrap(), b"two\n");
        assert_eq!(listing(victim.path()), ["passwd"]);

        project
            .symlink(Path::new("tests/link"), Path::new("a_test.py"))
            .expect("symlink");
        assert_eq!(
            std::fs::read_link(dir.path().join("tests/link")).unwrap(),
            Path::new("a_test.py")
        );
        // A file where a folder belongs is replaced by the folder.
        project
            .write(Path::new("tests/a_test.py/inner"), b"three\n", 0o644)
            .expect("through a file");
        assert!(dir.path().join("tests/a_test.py").is_dir());
    }

    #[test]
    fn paths_that_leave_the_project_are_refused() {
        let (_dir, _victim, project) = project();
        for rel in ["../x", "/etc/passwd", "", "tests/../../x"] {
            let message = project
                .write(Path::new(rel), b"", 0o644)
                .expect_err(rel)
                .to_string();
            assert!(
                message.ends_with("is not a plain path inside the project"),
                "{message}"
            );
            assert!(project.read(Path::new(rel), 1).is_err());
            assert!(project.remove(Path::new(rel)).is_err());
        }
    }

    #[test]
    fn the_walk_without_openat2_refuses_links_as_openat2_does() {
        let (dir, victim, project) = project();
        std::os::unix::fs::symlink(victim.path(), dir.path().join("out")).expect("symlink");
        let walked = |rel: &str| walk_beneath(project.fd.as_fd(), Path::new(rel)).expect("plain");
        assert!(walked("tests").is_ok());
        // O_NOFOLLOW | O_DIRECTORY on a link says ENOTDIR.
        assert_eq!(
            walked("out").expect_err("link").raw_os_error(),
            Some(libc::ENOTDIR)
        );
        assert_eq!(
            walked("tests/a_test.py").expect_err("file").raw_os_error(),
            Some(libc::ENOTDIR)
        );
        let beneath = |rel: &str| {
            openat2_beneath(
                project.fd.as_fd(),
                &CString::new(rel).unwrap(),
                libc::O_RDONLY | libc::O_DIRECTORY,
            )
        };
        assert!(beneath("tests").is_ok());
        assert_eq!(
            beneath("out").expect_err("link").raw_os_error(),
            Some(libc::ELOOP)
        );
    }

    #[test]
    fn a_user_path_is_replaced_not_followed_and_appended_only_when_regular() {
        let (dir, victim, _project) = project();
        let target = victim.path().join("cron");
        std::fs::write(&target, "host\n").expect("write");
        let record = dir.path().join("verdict.json");
        std::os::unix::fs::symlink(&target, &record).expect("symlink");
        let refused = append_file(&record).expect_err("a link").to_string();
        assert!(
            refused.ends_with("verdict.json is a symbolic link, not a regular file"),
            "{refused}"
        );
        replace_file(&record, b"{}\n", 0o644).expect("replace");
        assert_eq!(std::fs::read(&target).unwrap(), b"host\n");
        assert_eq!(std::fs::read(&record).unwrap(), b"{}\n");
        let mut file = append_file(&record).expect("regular");
        file.write_all(b"more\n").unwrap();
        assert_eq!(std::fs::read(&record).unwrap(), b"{}\nmore\n");
        let folder = replace_file(dir.path(), b"", 0o644);
        assert!(folder.is_err());
        // In /proc (as in /dev: `--record /dev/stdout`) the path is written
        // as named, through the kernel's link, never replaced (which would
        // fail there; in /dev it would replace the host's device).
        let target = dir.path().join("through-proc");
        let opened = File::options()
            .write(true)
            .create_new(true)
            .open(&target)
            .expect("create");
        let by_descriptor = format!("/proc/self/fd/{}", opened.as_raw_fd());
        replace_file(Path::new(&by_descriptor), b"{}\n", 0o644).expect("through /proc");
        assert_eq!(std::fs::read(&target).unwrap(), b"{}\n");
        let fifo = dir.path().join("fifo");
        let name = CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let refused = append_file(&fifo).expect_err("a FIFO").to_string();
        assert!(
            refused.ends_with("fifo is a FIFO, not a regular file"),
            "{refused}"
        );
    }

    /// A new folder goes with everything in it, a link inside it removed
    /// as a link (its target untouched), and a folder reached through a
    /// link on the way is not the project's: nothing is removed there.
    #[test]
    fn remove_entry_takes_a_folder_whole_and_follows_no_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let victim = tempfile::tempdir().expect("victim");
        std::fs::write(victim.path().join("keep"), "host").expect("victim file");
        let new = dir.path().join("new/deeper");
        std::fs::create_dir_all(&new).expect("folders");
        std::fs::write(new.join("file"), "x").expect("file");
        std::os::unix::fs::symlink(victim.path(), new.join("out")).expect("link");
        std::os::unix::fs::symlink(victim.path(), dir.path().join("via")).expect("link");
        let project = ProjectDir::open(dir.path()).expect("open");
        assert!(!project.remove_entry(Path::new("via/keep")).expect("via"));
        assert!(project.remove_entry(Path::new("new")).expect("new"));
        assert!(!dir.path().join("new").exists());
        assert!(project.remove_entry(Path::new("via")).expect("the link"));
        assert!(!project.remove_entry(Path::new("gone")).expect("nothing"));
        assert_eq!(
            std::fs::read_to_string(victim.path().join("keep")).expect("kept"),
            "host"
        );
    }
}
