//! A cap on the root of the projects' private caches: when the root holds
//! more than the cap, the caches of the projects least recently checked
//! are removed, never one a run is using.
//!
//! Each run holds a shared lock on its project's `.in-use` file for as long
//! as it runs ([`claim`]); the file's modification time is when the project
//! was last checked. [`evict`] runs when a project's cache is made (the
//! root grows most then: in a batch, once per workspace) and otherwise at
//! most once an hour (a stamp file in the root), measures each project's
//! cache with a bounded walk, and
//! removes the oldest until the root fits, taking each one's lock
//! exclusively first and renaming it aside before removing it, so that a
//! run starting meanwhile makes a fresh cache instead of using a half-gone
//! one.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The default cap on the root of the private caches: 8 GiB, about sixteen
/// projects whose caches were seeded to the 512 MiB cap, or hundreds of
/// small ones.
pub(crate) const DEFAULT_CAP: u64 = 8 << 30;

/// The variable that sets another cap (`8G`, `500M`, a number of bytes).
pub(crate) const CAP_VARIABLE: &str = "TESTGATE_CACHE_MAX";

/// How often the root is measured: a walk of every project's cache costs a
/// few hundred milliseconds on a large root, too much for every check.
const EVERY: Duration = Duration::from_secs(3600);

/// How many entries the walk of one root looks at, all projects together:
/// its time stays bounded whatever the root holds.
const MAX_ENTRIES: u64 = 4_000_000;

/// The file whose lock a run holds, and whose mtime is its last use.
const IN_USE: &str = ".in-use";

/// The file whose mtime is the last eviction's.
const STAMP: &str = ".evicted";

/// A run's shared lock on its project's cache: held until dropped.
#[derive(Debug)]
pub(crate) struct InUse {
    _file: File,
}

// Claims compare equal: a view's equality is about what it shows.
impl PartialEq for InUse {
    fn eq(&self, _: &InUse) -> bool {
        true
    }
}

impl Eq for InUse {}

/// Marks the project cache `project` (an existing directory) as used now,
/// and holds it against eviction until the returned lock is dropped.
pub(crate) fn claim(project: &Path) -> io::Result<InUse> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(project.join(IN_USE))?;
    lock(&file, libc::LOCK_SH)?;
    file.set_modified(SystemTime::now())?;
    Ok(InUse { _file: file })
}

/// The cap a value of [`CAP_VARIABLE`] names: a number of bytes, or one
/// with a `K`, `M`, `G` or `T` suffix (powers of 1024); `None` when it is
/// not one.
pub(crate) fn parse_cap(value: &str) -> Option<u64> {
    let value = value.trim();
    let (digits, shift) = match value.char_indices().last()? {
        (i, 'k' | 'K') => (&value[..i], 10),
        (i, 'm' | 'M') => (&value[..i], 20),
        (i, 'g' | 'G') => (&value[..i], 30),
        (i, 't' | 'T') => (&value[..i], 40),
        _ => (value, 0),
    };
    let number: u64 = digits.trim().parse().ok()?;
    number.checked_mul(1 << shift)
}

/// What one [`evict`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Evicted {
    /// The projects whose caches were removed.
    pub(crate) projects: u64,
    /// Their bytes on disk.
    pub(crate) bytes: u64,
    /// What the root held afterwards, as measured.
    pub(crate) left: u64,
}

/// Removes the caches of the least recently checked projects under `root`
/// until it holds at most `cap` bytes on disk, keeping `keep` (the running
/// project's) and every cache a run holds. Unless `fresh` (`keep` was just
/// made, and will be seeded: the root grows most then, in a batch once per
/// workspace), does nothing when the root was measured less than an hour
/// before `now`. `None` when nothing was measured.
pub(crate) fn evict(
    root: &Path,
    keep: &Path,
    cap: u64,
    now: SystemTime,
    fresh: bool,
) -> Option<Evicted> {
    let stamp = root.join(STAMP);
    if let (false, Ok(meta)) = (fresh, fs::symlink_metadata(&stamp)) {
        let last = meta.modified().ok()?;
        if now.duration_since(last).is_ok_and(|age| age < EVERY) {
            return None;
        }
    }
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(&stamp)
        .ok()?;
    // One eviction at a time; another run's is as good as ours.
    lock(&file, libc::LOCK_EX | libc::LOCK_NB).ok()?;
    file.set_modified(now).ok()?;

    let mut budget = MAX_ENTRIES;
    let mut caches: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
    for entry in fs::read_dir(root).ok()?.flatten() {
        let name = entry.file_name();
        if name.as_encoded_bytes().first() == Some(&b'.') {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() {
            continue;
        }
        let used = fs::symlink_metadata(path.join(IN_USE))
            .and_then(|m| m.modified())
            .or_else(|_| meta.modified())
            .unwrap_or(SystemTime::UNIX_EPOCH);
        let bytes = disk_usage(&path, &mut budget);
        caches.push((used, bytes, path));
    }
    let mut evicted = Evicted {
        left: caches
            .iter()
            .map(|(_, bytes, _)| *bytes)
            .fold(0, u64::saturating_add),
        ..Evicted::default()
    };
    caches.sort();
    for (_, bytes, path) in caches {
        if evicted.left <= cap {
            break;
        }
        if path == keep || !remove_unless_in_use(root, &path) {
            continue;
        }
        evicted.projects += 1;
        evicted.bytes = evicted.bytes.saturating_add(bytes);
        evicted.left = evicted.left.saturating_sub(bytes);
    }
    Some(evicted)
}

/// Removes the project cache `path` unless a run holds it: its lock taken
/// exclusively, then renamed aside (a run starting now makes a fresh one),
/// then removed. Whether it was removed.
fn remove_unless_in_use(root: &Path, path: &Path) -> bool {
    let in_use = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path.join(IN_USE));
    // A cache without the file is from before the lock existed, or its
    // run has not claimed it yet: only the former is old enough to be
    // chosen, and a claim opens the file in the renamed directory, which
    // is then removed under it (its run has fresh caches, its next a
    // fresh one).
    let _held = match in_use {
        Ok(file) => {
            if lock(&file, libc::LOCK_EX | libc::LOCK_NB).is_err() {
                return false;
            }
            Some(file)
        }
        Err(_) => None,
    };
    let aside = root.join(format!(
        ".evicting-{}-{}",
        std::process::id(),
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    ));
    if fs::rename(path, &aside).is_err() {
        return false;
    }
    // std's remove_dir_all does not follow symlinks a test left.
    let _ = fs::remove_dir_all(&aside);
    true
}

/// The bytes on disk under `dir` (its blocks, so a reflinked or sparse file
/// counts what it holds), symlinks not followed, at most `budget` entries.
fn disk_usage(dir: &Path, budget: &mut u64) -> u64 {
    let mut total = 0_u64;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if *budget == 0 {
                return total;
            }
            *budget -= 1;
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            total = total.saturating_add(meta.blocks().saturating_mul(512));
            if meta.is_dir() {
                stack.push(entry.path());
            }
        }
    }
    total
}

/// `flock` on `file`.
fn lock(file: &File, operation: libc::c_int) -> io::Result<()> {
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), operation) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A project cache of `bytes` in one file, last used `age` before now.
    fn cache(root: &Path, name: &str, bytes: usize, age: Duration) -> PathBuf {
        let dir = root.join(name);
        fs::create_dir_all(dir.join("home-cache")).expect("mkdir");
        fs::write(dir.join("home-cache/blob"), vec![7_u8; bytes]).expect("write");
        drop(claim(&dir).expect("claim"));
        let file = File::options()
            .write(true)
            .open(dir.join(IN_USE))
            .expect("open");
        file.set_modified(SystemTime::now() - age).expect("mtime");
        dir
    }

    #[test]
    fn the_least_recently_used_caches_go_until_the_root_fits() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        let hour = Duration::from_secs(3600);
        let oldest = cache(root, "+a", 1 << 20, hour * 30);
        let older = cache(root, "+b", 1 << 20, hour * 20);
        let recent = cache(root, "+c", 1 << 20, hour);
        let running = cache(root, "+d", 1 << 20, hour * 40);
        let evicted = evict(root, &running, 5 << 19, SystemTime::now(), false).expect("measured");
        assert_eq!(evicted.projects, 2, "{evicted:?}");
        assert!(!oldest.exists() && !older.exists());
        assert!(
            recent.exists() && running.exists(),
            "the running project is kept"
        );
        assert!(evicted.left <= 5 << 19, "{evicted:?}");
        let leftovers: Vec<_> = fs::read_dir(root)
            .expect("ls")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".evicting"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_cache_a_run_holds_is_never_removed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        let old = cache(root, "+held", 1 << 20, Duration::from_secs(86_400));
        let held = claim(&old).expect("claim");
        let other = cache(root, "+other", 1 << 20, Duration::from_secs(60));
        let evicted =
            evict(root, Path::new("/nowhere"), 0, SystemTime::now(), false).expect("measured");
        assert!(old.exists(), "a held cache stays");
        assert!(!other.exists(), "the one nobody holds goes");
        assert_eq!(evicted.projects, 1);
        drop(held);
    }

    #[test]
    fn the_root_is_measured_at_most_once_an_hour() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        let keep = Path::new("/nowhere");
        assert!(evict(root, keep, DEFAULT_CAP, SystemTime::now(), false).is_some());
        let old = cache(root, "+old", 1 << 20, Duration::from_secs(86_400));
        assert_eq!(evict(root, keep, 0, SystemTime::now(), false), None);
        assert!(old.exists());
        let later = SystemTime::now() + EVERY + Duration::from_secs(1);
        assert_eq!(
            evict(root, keep, 0, later, false).map(|e| e.projects),
            Some(1)
        );
        assert!(!old.exists());
    }

    #[test]
    fn a_new_projects_cache_measures_the_root_at_once() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path();
        let keep = Path::new("/nowhere");
        assert!(evict(root, keep, DEFAULT_CAP, SystemTime::now(), false).is_some());
        let old = cache(root, "+old", 1 << 20, Duration::from_secs(86_400));
        assert_eq!(
            evict(root, keep, 0, SystemTime::now(), true).map(|e| e.projects),
            Some(1),
            "a batch of new workspaces keeps to the cap within the hour"
        );
        assert!(!old.exists());
    }

    #[test]
    fn a_planted_link_in_a_cache_is_removed_not_followed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("root");
        let outside = tmp.path().join("outside");
        fs::create_dir_all(&outside).expect("mkdir");
        fs::write(outside.join("precious"), b"x").expect("write");
        let dir = cache(&root, "+p", 1024, Duration::from_secs(86_400));
        std::os::unix::fs::symlink(&outside, dir.join("home-cache/link")).expect("symlink");
        // A planted `.in-use` link is neither locked through nor followed.
        let linked = cache(&root, "+q", 1024, Duration::from_secs(86_400));
        fs::remove_file(linked.join(IN_USE)).expect("rm");
        std::os::unix::fs::symlink(outside.join("precious"), linked.join(IN_USE)).expect("symlink");
        assert!(claim(&linked).is_err(), "a claim does not open a link");
        let evicted =
            evict(&root, Path::new("/nowhere"), 0, SystemTime::now(), false).expect("measured");
        assert_eq!(evicted.projects, 2);
        assert!(!dir.exists() && !linked.exists());
        assert_eq!(fs::read(outside.join("precious")).expect("read"), b"x");
    }

    #[test]
    fn caps_read_as_sizes() {
        assert_eq!(parse_cap("8G"), Some(8 << 30));
        assert_eq!(parse_cap(" 500m "), Some(500 << 20));
        assert_eq!(parse_cap("1234"), Some(1234));
        assert_eq!(parse_cap("2T"), Some(2 << 40));
        assert_eq!(parse_cap("lots"), None);
        assert_eq!(parse_cap("G"), None);
        assert_eq!(parse_cap(""), None);
        assert_eq!(parse_cap("99999999999999999999T"), None);
        assert_eq!(parse_cap("18446744073709551615T"), None);
    }
}
