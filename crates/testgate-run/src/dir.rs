//! A directory walked by descriptor: every entry is looked at relative to
//! its parent's open descriptor (`openat`, `fstatat`, `readlinkat`), never
//! through a path, so no symbolic link is followed and no depth is too long.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The most bytes of `user.*` extended attributes (names and values) read
/// from one entry; more is an error, not a truncation.
const XATTR_LIMIT: usize = 64 * 1024;

/// What an entry is, as `fstatat` without following says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (never followed).
    Symlink,
    /// A FIFO.
    Fifo,
    /// A socket.
    Socket,
    /// A character or block device.
    Device,
}

/// The status of an entry, as `fstat`/`fstatat` gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EntryStat {
    /// What the entry is.
    pub kind: EntryKind,
    /// The permission and set-id bits (`st_mode & 0o7777`).
    pub mode: u32,
    /// The size in bytes.
    pub size: u64,
    /// The device holding it.
    pub dev: u64,
    /// The inode number.
    pub ino: u64,
    /// The modification time, in nanoseconds since the epoch.
    pub mtime_ns: i128,
    /// The status-change time, in nanoseconds since the epoch: set by the
    /// kernel on every change and never settable by a process (short of
    /// changing the clock), so an unchanged one proves an unchanged file.
    pub ctime_ns: i128,
}

impl EntryStat {
    fn of(meta: &std::fs::Metadata) -> EntryStat {
        let ft = meta.file_type();
        EntryStat {
            kind: kind_of_mode(meta.mode()),
            mode: meta.mode() & 0o7777,
            size: if ft.is_file() { meta.size() } else { 0 },
            dev: meta.dev(),
            ino: meta.ino(),
            mtime_ns: i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()),
            ctime_ns: i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
        }
    }

    fn of_raw(st: &libc::stat) -> EntryStat {
        EntryStat {
            kind: kind_of_mode(st.st_mode),
            mode: st.st_mode & 0o7777,
            size: if st.st_mode & libc::S_IFMT == libc::S_IFREG {
                u64::try_from(st.st_size).unwrap_or(0)
            } else {
                0
            },
            dev: st.st_dev,
            ino: st.st_ino,
            mtime_ns: i128::from(st.st_mtime) * 1_000_000_000 + i128::from(st.st_mtime_nsec),
            ctime_ns: i128::from(st.st_ctime) * 1_000_000_000 + i128::from(st.st_ctime_nsec),
        }
    }
}

fn kind_of_mode(mode: u32) -> EntryKind {
    match mode & libc::S_IFMT {
        libc::S_IFREG => EntryKind::File,
        libc::S_IFDIR => EntryKind::Dir,
        libc::S_IFLNK => EntryKind::Symlink,
        libc::S_IFIFO => EntryKind::Fifo,
        libc::S_IFSOCK => EntryKind::Socket,
        // Character and block devices (and anything the kernel adds).
        _ => EntryKind::Device,
    }
}

/// An open directory; its entries are reached relative to it.
///
/// ```
/// # let tmp = tempfile::tempdir()?;
/// std::fs::create_dir(tmp.path().join("src"))?;
/// std::fs::write(tmp.path().join("src/lib.rs"), "x")?;
/// let root = testgate_run::Dir::open(tmp.path())?;
/// let src = root.open_dir("src".as_ref())?;
/// assert_eq!(src.names()?, vec![std::ffi::OsString::from("lib.rs")]);
/// assert_eq!(src.stat("lib.rs".as_ref())?.size, 1);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
}

fn cstring(name: &OsStr) -> io::Result<CString> {
    if name.is_empty() || name.as_bytes().contains(&b'/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not one path component", name.to_string_lossy()),
        ));
    }
    CString::new(name.as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "a name holds a NUL byte".to_owned(),
        )
    })
}

impl Dir {
    /// Opens the directory `path` (the one place a path is resolved: the
    /// caller's own root).
    pub fn open(path: &Path) -> io::Result<Dir> {
        let c = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the path"))?;
        // SAFETY: `c` is a valid NUL-terminated string; the result is checked.
        let fd = unsafe {
            libc::open(
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        Self::owned(fd)
    }

    fn owned(fd: libc::c_int) -> io::Result<Dir> {
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just returned by the kernel and is owned by no one else.
        Ok(Dir {
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
        })
    }

    /// Opens the subdirectory `name`; a symbolic link is refused (`ELOOP`
    /// or `ENOTDIR`), never followed.
    pub fn open_dir(&self, name: &OsStr) -> io::Result<Dir> {
        let c = cstring(name)?;
        // SAFETY: a valid descriptor and NUL-terminated name; result checked.
        let fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            )
        };
        Self::owned(fd)
    }

    /// The directory's own status.
    pub fn stat_self(&self) -> io::Result<EntryStat> {
        let file = File::from(self.fd.try_clone()?);
        Ok(EntryStat::of(&file.metadata()?))
    }

    /// The status of the entry `name`, not following a symbolic link.
    pub fn stat(&self, name: &OsStr) -> io::Result<EntryStat> {
        let c = cstring(name)?;
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: valid descriptor, name and out-pointer; result checked.
        let rc = unsafe {
            libc::fstatat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                st.as_mut_ptr(),
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fstatat returned 0, so it filled `st`.
        let st = unsafe { st.assume_init() };
        Ok(EntryStat::of_raw(&st))
    }

    /// The names of the entries, without `.` and `..`, sorted bytewise.
    pub fn names(&self) -> io::Result<Vec<OsString>> {
        self.names_at_most(usize::MAX)
    }

    /// At most `limit` names of the entries (the first the kernel lists,
    /// then sorted bytewise), without `.` and `..`: a folder the code under
    /// test filled with millions of entries costs no more than `limit`.
    pub fn names_at_most(&self, limit: usize) -> io::Result<Vec<OsString>> {
        let dup = self.fd.try_clone()?;
        // SAFETY: `dup` is an owned directory descriptor; fdopendir takes it
        // over (closedir closes it), so it is released from `OwnedFd`.
        let stream = unsafe { libc::fdopendir(std::os::fd::IntoRawFd::into_raw_fd(dup)) };
        if stream.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh stream.
        unsafe { libc::rewinddir(stream) };
        let mut names = Vec::new();
        let result = loop {
            // SAFETY: errno is thread-local; readdir's contract is to
            // return NULL with errno unchanged at the end.
            unsafe { *libc::__errno_location() = 0 };
            // SAFETY: `stream` is open until closedir below.
            let entry = unsafe { libc::readdir(stream) };
            if entry.is_null() {
                let error = io::Error::last_os_error();
                break match error.raw_os_error() {
                    Some(0) | None => Ok(()),
                    Some(_) => Err(error),
                };
            }
            // SAFETY: d_name is NUL-terminated within the entry.
            let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) }.to_bytes();
            if name != b"." && name != b".." {
                if names.len() >= limit {
                    break Ok(());
                }
                names.push(OsString::from_vec(name.to_vec()));
            }
        };
        // SAFETY: the stream was opened above and is closed once.
        unsafe { libc::closedir(stream) };
        result?;
        names.sort();
        Ok(names)
    }

    /// Opens the regular file `name` for reading: not through a symbolic
    /// link, without blocking (a FIFO swapped in does not hang), and
    /// anything but a regular file refused after `fstat` on the descriptor.
    pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let c = cstring(name)?;
        // SAFETY: valid descriptor and name; result checked.
        let fd = unsafe {
            libc::openat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                libc::O_RDONLY
                    | libc::O_NOFOLLOW
                    | libc::O_NONBLOCK
                    | libc::O_NOCTTY
                    | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a fresh descriptor owned by no one else.
        let file = unsafe { File::from_raw_fd(fd) };
        if !file.metadata()?.file_type().is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is no longer a regular file", name.to_string_lossy()),
            ));
        }
        Ok(file)
    }

    /// Where the symbolic link `name` points (`readlinkat`).
    pub fn read_link(&self, name: &OsStr) -> io::Result<PathBuf> {
        let c = cstring(name)?;
        let mut buf = vec![0u8; libc::PATH_MAX as usize + 1];
        // SAFETY: valid descriptor, name and buffer of the given length.
        let n = unsafe {
            libc::readlinkat(
                self.fd.as_raw_fd(),
                c.as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        let n = usize::try_from(n).map_err(|_| io::Error::last_os_error())?;
        buf.truncate(n);
        Ok(PathBuf::from(OsString::from_vec(buf)))
    }

    /// The directory's own `user.*` extended attributes, sorted by name.
    pub fn user_xattrs(&self) -> io::Result<Vec<(OsString, Vec<u8>)>> {
        user_xattrs_of(self.fd.as_raw_fd())
    }
}

/// The `user.*` extended attributes of an open file, sorted by name (at
/// most 64 KiB of them; more is an error).
pub fn user_xattrs(file: &File) -> io::Result<Vec<(OsString, Vec<u8>)>> {
    user_xattrs_of(file.as_raw_fd())
}

fn too_many() -> io::Error {
    io::Error::other(format!(
        "more than {XATTR_LIMIT} bytes of extended attributes"
    ))
}

fn user_xattrs_of(fd: libc::c_int) -> io::Result<Vec<(OsString, Vec<u8>)>> {
    let mut list = vec![0u8; XATTR_LIMIT];
    // SAFETY: valid descriptor and buffer of the given length.
    let n = unsafe { libc::flistxattr(fd, list.as_mut_ptr().cast(), list.len()) };
    let n = match usize::try_from(n) {
        Ok(n) => n,
        Err(_) => {
            let error = io::Error::last_os_error();
            return match error.raw_os_error() {
                Some(libc::ENOTSUP) => Ok(Vec::new()),
                Some(libc::ERANGE) => Err(too_many()),
                _ => Err(error),
            };
        }
    };
    list.truncate(n);
    let mut out = Vec::new();
    let mut total = 0usize;
    for name in list.split(|b| *b == 0).filter(|n| n.starts_with(b"user.")) {
        let c = CString::new(name).map_err(|_| too_many())?;
        let mut value = vec![0u8; XATTR_LIMIT];
        // SAFETY: valid descriptor, name and buffer of the given length.
        let v = unsafe { libc::fgetxattr(fd, c.as_ptr(), value.as_mut_ptr().cast(), value.len()) };
        let v = match usize::try_from(v) {
            Ok(v) => v,
            Err(_) => {
                let error = io::Error::last_os_error();
                match error.raw_os_error() {
                    // Removed between the list and the read.
                    Some(libc::ENODATA) => continue,
                    Some(libc::ERANGE) => return Err(too_many()),
                    _ => return Err(error),
                }
            }
        };
        value.truncate(v);
        total = total.saturating_add(name.len() + v);
        if total > XATTR_LIMIT {
            return Err(too_many());
        }
        out.push((OsString::from_vec(name.to_vec()), value));
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_never_followed_and_depth_is_unbounded_by_path_max() {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::os::unix::fs::symlink("/", tmp.path().join("up")).expect("link");
        let root = Dir::open(tmp.path()).expect("open");
        assert!(root.open_dir("up".as_ref()).is_err());
        assert!(root.open_file("up".as_ref()).is_err());
        assert_eq!(
            root.stat("up".as_ref()).expect("stat").kind,
            EntryKind::Symlink
        );
        assert_eq!(root.read_link("up".as_ref()).expect("link"), Path::new("/"));
        assert!(root.open_dir("a/b".as_ref()).is_err(), "one component only");

        // 40 levels of 200-byte names: 8 KB of path, twice PATH_MAX.
        let name = OsString::from("d".repeat(200));
        let mut dir = Dir::open(tmp.path()).expect("open");
        for _ in 0..40 {
            let c = cstring(&name).expect("name");
            // SAFETY: valid descriptor and name.
            let rc = unsafe { libc::mkdirat(dir.fd.as_raw_fd(), c.as_ptr(), 0o755) };
            assert_eq!(rc, 0, "{}", io::Error::last_os_error());
            dir = dir.open_dir(&name).expect("deeper");
        }
        assert_eq!(dir.names().expect("names"), Vec::<OsString>::new());
        assert_eq!(dir.stat_self().expect("stat").kind, EntryKind::Dir);
    }

    #[test]
    fn a_fifo_is_not_opened_as_a_file() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let c = CString::new(tmp.path().join("pipe").as_os_str().as_bytes()).expect("c");
        // SAFETY: valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let root = Dir::open(tmp.path()).expect("open");
        assert_eq!(
            root.stat("pipe".as_ref()).expect("stat").kind,
            EntryKind::Fifo
        );
        assert!(root.open_file("pipe".as_ref()).is_err());
    }

    #[test]
    fn a_listing_stops_at_its_limit() {
        let tmp = tempfile::tempdir().expect("tempdir");
        for name in ["a", "b", "c", "d", "e"] {
            std::fs::write(tmp.path().join(name), "").expect("write");
        }
        let root = Dir::open(tmp.path()).expect("open");
        assert_eq!(root.names().expect("names").len(), 5);
        let some = root.names_at_most(3).expect("names");
        assert_eq!(some.len(), 3);
        assert!(some.windows(2).all(|w| w[0] < w[1]), "sorted: {some:?}");
        assert_eq!(
            root.names_at_most(0).expect("names"),
            Vec::<OsString>::new()
        );
        assert_eq!(root.names_at_most(99).expect("names").len(), 5);
    }
}
