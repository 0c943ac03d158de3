//! Seeding a project's private toolchain cache with a copy of the host's,
//! so that the first check of a project is as warm as the host, while what
//! the sandbox writes stays in the copy.
//!
//! A copy, never a hard link: root inside the sandbox writes through a hard
//! link into the host's file. A reflink (`FICLONE`) where the filesystem
//! has them, else a plain copy. Only regular files are copied, symlinks are
//! not followed, and the copy is made in a directory the sandbox never sees
//! and renamed into place, so a concurrent run cannot redirect it.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// How much of one host cache is copied, newest files first: a developer's
/// Go build cache grows to gigabytes, and what the project last used is
/// the newest part of it (go refreshes an entry's mtime when it uses it).
pub(crate) const SEED_CAP: u64 = 512 << 20;

/// How many files of one host cache are looked at: the walk's memory stays
/// bounded whatever the cache holds.
const MAX_FILES: usize = 200_000;

/// How deep the walk goes (npm's `_cacache` is five levels, pip's six).
const MAX_DEPTH: usize = 12;

/// What [`seed`] copied, and what the cap left out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Seeded {
    /// Files copied.
    pub(crate) files: u64,
    /// Their bytes.
    pub(crate) bytes: u64,
    /// Files left out by the cap (or the walk's bound).
    pub(crate) skipped_files: u64,
    /// Their bytes.
    pub(crate) skipped_bytes: u64,
}

/// Copies the newest regular files of the host cache `host`, up to `cap`
/// bytes, into `target`, which must not exist yet: the copy is made in
/// `work` (a fresh path beside the project's caches, outside every bind)
/// and renamed to `target`. `None` when there is nothing to seed: `target`
/// exists (seeded before, or made by the toolchain), or `host` is not a
/// directory owned by `uid` (another user's directory under `/tmp`, named
/// as a tool names its cache there, is not trusted).
pub(crate) fn seed(
    host: &Path,
    target: &Path,
    work: &Path,
    uid: u32,
    cap: u64,
) -> io::Result<Option<Seeded>> {
    if target.symlink_metadata().is_ok() {
        return Ok(None);
    }
    let Ok(host) = host.canonicalize() else {
        return Ok(None);
    };
    match fs::metadata(&host) {
        Ok(meta) if meta.is_dir() && meta.uid() == uid => {}
        _ => return Ok(None),
    }
    let (files, walk_skipped) = walk(&host);
    let (mut chosen, mut seeded) = newest_under_cap(files, walk_skipped, cap);
    // Directory by directory: files created in mtime order land in every
    // directory in turn, which made ext4 several times slower than `cp -r`.
    chosen.sort();
    let _ = fs::remove_dir_all(work);
    fs::DirBuilder::new().mode(0o700).create(work)?;
    match copy_and_rename(&host, &chosen, work, target, &mut seeded) {
        Ok(()) => Ok(Some(seeded)),
        Err(error) => {
            let _ = fs::remove_dir_all(work);
            if target.symlink_metadata().is_ok() {
                // Another run of the project seeded it first.
                Ok(None)
            } else {
                Err(error)
            }
        }
    }
}

/// The newest of `files` whose bytes together stay within `cap` (their
/// paths), and the count of what was left out, `walk_skipped` (what the
/// walk's bound left out) included.
fn newest_under_cap(
    mut files: Vec<CacheFile>,
    walk_skipped: u64,
    cap: u64,
) -> (Vec<PathBuf>, Seeded) {
    files.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.rel.cmp(&b.rel)));
    let mut seeded = Seeded {
        skipped_files: walk_skipped,
        ..Seeded::default()
    };
    let mut chosen = Vec::new();
    let mut chosen_bytes = 0_u64;
    for file in files {
        if chosen_bytes.saturating_add(file.len) > cap {
            seeded.skipped_files = seeded.skipped_files.saturating_add(1);
            seeded.skipped_bytes = seeded.skipped_bytes.saturating_add(file.len);
        } else {
            chosen_bytes = chosen_bytes.saturating_add(file.len);
            chosen.push(file.rel);
        }
    }
    (chosen, seeded)
}

/// Copies the `chosen` files of `host` into `work`, counting them in
/// `seeded`, and renames `work` to `target`.
fn copy_and_rename(
    host: &Path,
    chosen: &[PathBuf],
    work: &Path,
    target: &Path,
    seeded: &mut Seeded,
) -> io::Result<()> {
    let mut made: Option<PathBuf> = None;
    // Once the filesystem says it cannot reflink, it is not asked again.
    let mut reflinks = true;
    for rel in chosen {
        let to = work.join(rel);
        if let Some(parent) = to.parent()
            && made.as_deref() != Some(parent)
        {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(parent)?;
            made = Some(parent.to_path_buf());
        }
        // A file that vanished or changed kind since the walk (the
        // toolchain trims its cache) is left out, not an error.
        if let Ok(len) = copy_file(&host.join(rel), &to, &mut reflinks) {
            seeded.files = seeded.files.saturating_add(1);
            seeded.bytes = seeded.bytes.saturating_add(len);
        }
    }
    if let Some(parent) = target.parent() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)?;
    }
    // rename does not follow a symlink planted at `target` meanwhile:
    // it fails (a directory cannot replace a file), and the copy goes.
    fs::rename(work, target)
}

/// One regular file of a host cache.
struct CacheFile {
    rel: PathBuf,
    len: u64,
    modified: SystemTime,
}

/// The regular files under `root` (symlinks and other kinds left out, not
/// followed), at most [`MAX_FILES`], and how many more there were.
fn walk(root: &Path) -> (Vec<CacheFile>, u64) {
    let mut files = Vec::new();
    let mut over = 0_u64;
    let mut stack = vec![(PathBuf::new(), 0_usize)];
    while let Some((rel, depth)) = stack.pop() {
        let Ok(entries) = fs::read_dir(root.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            let path = rel.join(entry.file_name());
            if meta.is_dir() && depth < MAX_DEPTH {
                stack.push((path, depth + 1));
            } else if meta.is_file() {
                if files.len() >= MAX_FILES {
                    over = over.saturating_add(1);
                    continue;
                }
                files.push(CacheFile {
                    rel: path,
                    len: meta.len(),
                    modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                });
            }
        }
    }
    (files, over)
}

/// Copies one regular file (not following a symlink at `from`) to the new
/// file `to`, with its permission bits: a reflink where the filesystem can
/// (`reflinks` is cleared when it cannot), else its bytes. Returns the
/// length copied.
fn copy_file(from: &Path, to: &Path, reflinks: &mut bool) -> io::Result<u64> {
    let source = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(from)?;
    let meta = source.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut dest = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(meta.mode() & 0o777)
        .open(to)?;
    if *reflinks {
        if reflink(&source, &dest) {
            return Ok(meta.len());
        }
        *reflinks = false;
    }
    let mut source = source;
    io::copy(&mut source, &mut dest)
}

/// `FICLONE`: `dest` shares `source`'s blocks copy-on-write (btrfs, XFS);
/// false where the filesystem cannot (ext4, tmpfs).
fn reflink(source: &File, dest: &File) -> bool {
    // SAFETY: an ioctl on two descriptors this function borrows; FICLONE
    // takes the source descriptor as its argument.
    unsafe { libc::ioctl(dest.as_raw_fd(), libc::FICLONE, source.as_raw_fd()) == 0 }
}

/// `bytes` for a note: whole MiB, at least 1 when not zero.
pub(crate) fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::time::Duration;

    fn uid() -> u32 {
        // SAFETY: geteuid cannot fail.
        unsafe { libc::geteuid() }
    }

    fn aged(path: &Path, text: &str, seconds_ago: u64) {
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, text).expect("write");
        let file = File::options().write(true).open(path).expect("open");
        file.set_modified(SystemTime::now() - Duration::from_secs(seconds_ago))
            .expect("mtime");
    }

    #[test]
    fn the_newest_files_are_copied_up_to_the_cap_and_writes_stay_in_the_copy() {
        let root = tempfile::tempdir().expect("tempdir");
        let host = root.path().join("host");
        aged(&host.join("00/new-d"), "0123456789", 10);
        aged(&host.join("00/old-d"), "abcdefghij", 1000);
        aged(&host.join("ff/newer-a"), "xyz", 5);
        symlink("/etc/hostname", host.join("ff/link")).expect("symlink");
        let target = root.path().join("private/go-build");
        let work = root.path().join("work");
        let seeded = seed(&host, &target, &work, uid(), 13)
            .expect("seed")
            .expect("seeded");
        assert_eq!(
            seeded,
            Seeded {
                files: 2,
                bytes: 13,
                skipped_files: 1,
                skipped_bytes: 10
            }
        );
        assert_eq!(
            fs::read_to_string(target.join("00/new-d")).unwrap(),
            "0123456789"
        );
        assert!(!target.join("00/old-d").exists());
        assert!(target.join("ff/link").symlink_metadata().is_err());
        assert!(!work.exists());
        // The copy is not the host's file: writing it leaves the host's.
        fs::write(target.join("00/new-d"), "planted").expect("write the copy");
        assert_eq!(
            fs::read_to_string(host.join("00/new-d")).unwrap(),
            "0123456789"
        );
        assert_ne!(
            fs::metadata(target.join("00/new-d")).unwrap().ino(),
            fs::metadata(host.join("00/new-d")).unwrap().ino()
        );
        // Seeded once: a target that exists is left as it is.
        assert_eq!(seed(&host, &target, &work, uid(), 1 << 20).unwrap(), None);
    }

    #[test]
    fn nothing_is_seeded_from_a_missing_or_foreign_directory_or_over_a_symlink() {
        let root = tempfile::tempdir().expect("tempdir");
        let host = root.path().join("host");
        aged(&host.join("a"), "a", 1);
        let work = root.path().join("work");
        let missing = root.path().join("missing");
        let target = root.path().join("t1");
        assert_eq!(seed(&missing, &target, &work, uid(), 100).unwrap(), None);
        assert_eq!(
            seed(&host, &target, &work, uid().wrapping_add(1), 100).unwrap(),
            None
        );
        assert!(!target.exists());
        // A symlink planted where the copy goes (a run of the project made
        // it, aiming at a host directory) is neither followed nor replaced.
        let aimed = root.path().join("aimed");
        fs::create_dir(&aimed).expect("mkdir");
        let planted = root.path().join("t2");
        symlink(&aimed, &planted).expect("symlink");
        assert_eq!(seed(&host, &planted, &work, uid(), 100).unwrap(), None);
        assert_eq!(fs::read_dir(&aimed).unwrap().count(), 0);
    }

    #[test]
    fn mib_rounds_up() {
        assert_eq!(mib(0), 0);
        assert_eq!(mib(1), 1);
        assert_eq!(mib(1 << 20), 1);
        assert_eq!(mib(u64::MAX), 1 << 44);
    }
}
