//! What earlier checks learnt of a project's files, kept in testgate's
//! private state: each file's SHA-256 by the kernel's stamp, and copies of
//! the recorded files by digest, so that a check of a tree whose files did
//! not move since reads none of them (docs/sandbox.md, "The tree is the tree").

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use testgate_run::EntryStat;

/// How long before the record a file's status must have last changed for
/// its learnt digest to be trusted: a write in the same tick of the
/// kernel's coarse clock as the hash would leave the stamp as it was.
pub(crate) const MARGIN_NS: i128 = 1_000_000_000;

/// The stamps file's first line.
const MAGIC: &[u8] = b"testgate tree record 1\n";

/// One learnt file: 3 x u64, 3 x i128, two digests.
const RECORD: usize = 3 * 8 + 3 * 16 + 2 * 32;

/// The most files learnt (as [`crate::scan::Limits::entries`]).
const MOST: usize = 1_000_000;

/// What the kernel says of a file: any write, chmod, xattr change,
/// rename or link moves its status-change time, which no process sets
/// back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    dev: u64,
    ino: u64,
    size: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl Key {
    fn of(stat: &EntryStat) -> Key {
        Key {
            dev: stat.dev,
            ino: stat.ino,
            size: stat.size,
            mtime_ns: stat.mtime_ns,
            ctime_ns: stat.ctime_ns,
        }
    }
}

/// A file's content as hashed, and when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Learnt {
    pub(crate) digest: [u8; 32],
    pub(crate) xattrs: [u8; 32],
    hashed_at_ns: i128,
}

/// The learnt digests and stored copies of one project, read at the start
/// of a record and written back at its end.
#[derive(Debug)]
pub(crate) struct Known {
    dir: PathBuf,
    /// When this record started (wall clock, as status-change times).
    now_ns: i128,
    learnt: HashMap<Key, Learnt>,
    stored: HashSet<[u8; 32]>,
    /// What this record learnt or used: the next record's.
    kept: HashMap<Key, Learnt>,
}

impl Known {
    /// What the folder `dir` holds; nothing learnt where it holds nothing
    /// readable.
    pub(crate) fn open(dir: &Path) -> Known {
        Known::open_at(dir, wall_ns(SystemTime::now()))
    }

    fn open_at(dir: &Path, now_ns: i128) -> Known {
        Known {
            dir: dir.to_path_buf(),
            now_ns,
            learnt: read_stamps(&dir.join("stamps")).unwrap_or_default(),
            stored: stored_digests(&dir.join("copies")),
            kept: HashMap::new(),
        }
    }

    /// The learnt content of the file `stat` describes, when its stamp is
    /// the one it was hashed at and had not moved for [`MARGIN_NS`] then.
    pub(crate) fn content(&mut self, stat: &EntryStat) -> Option<Learnt> {
        let key = Key::of(stat);
        let learnt = *self.learnt.get(&key)?;
        if key.ctime_ns.saturating_add(MARGIN_NS) > learnt.hashed_at_ns {
            return None;
        }
        self.kept.insert(key, learnt);
        Some(learnt)
    }

    /// Whether a copy of `digest` is stored.
    pub(crate) fn is_stored(&self, digest: &[u8; 32]) -> bool {
        self.stored.contains(digest)
    }

    /// Learns the file `stat` describes as hashed now, and stores its
    /// `copy` (which hashes to `digest`) unless one is stored; whether a
    /// copy of it is stored now.
    pub(crate) fn learn(
        &mut self,
        stat: &EntryStat,
        digest: [u8; 32],
        xattrs: [u8; 32],
        copy: Option<&[u8]>,
    ) -> bool {
        if self.kept.len() < MOST {
            let learnt = Learnt {
                digest,
                xattrs,
                hashed_at_ns: self.now_ns,
            };
            self.kept.insert(Key::of(stat), learnt);
        }
        if let Some(copy) = copy
            && !self.stored.contains(&digest)
            && store(&self.dir.join("copies"), &digest, copy).is_ok()
        {
            self.stored.insert(digest);
        }
        self.stored.contains(&digest)
    }

    /// Writes what this record learnt for the next, and removes the stored
    /// copies it does not hold; `recorded`: the digests of the files this
    /// record keeps copies of.
    pub(crate) fn save(self, recorded: &HashSet<[u8; 32]>) {
        let _ = write_stamps(&self.dir, &self.kept);
        let copies = self.dir.join("copies");
        let Ok(entries) = fs::read_dir(&copies) else {
            return;
        };
        for entry in entries.flatten() {
            let keep = entry
                .file_name()
                .to_str()
                .and_then(unhex)
                .is_some_and(|d| recorded.contains(&d));
            if !keep {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// The stored copy of `digest` in the tree record folder `dir`, when there
/// is one and it hashes to its name (a copy that does not is not used).
pub(crate) fn stored_copy(dir: &Path, digest: &[u8; 32]) -> Option<Vec<u8>> {
    let path = dir.join("copies").join(hex(digest));
    let mut file = fs::OpenOptions::new().read(true).open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let got: [u8; 32] = Sha256::digest(&bytes).into();
    (got == *digest).then_some(bytes)
}

fn wall_ns(time: SystemTime) -> i128 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(d) => i128::try_from(d.as_nanos()).unwrap_or(i128::MAX),
        Err(e) => -i128::try_from(e.duration().as_nanos()).unwrap_or(i128::MAX),
    }
}

fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(name: &str) -> Option<[u8; 32]> {
    if name.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(name.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn stored_digests(copies: &Path) -> HashSet<[u8; 32]> {
    let Ok(entries) = fs::read_dir(copies) else {
        return HashSet::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str().and_then(unhex))
        .collect()
}

/// Writes `bytes` as the copy of `digest`: a new file renamed into place.
fn store(copies: &Path, digest: &[u8; 32], bytes: &[u8]) -> io::Result<()> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(copies)?;
    let name = hex(digest);
    let temporary = copies.join(format!(".{name}.{}", std::process::id()));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temporary)
        .and_then(|mut file| file.write_all(bytes));
    match written.and_then(|()| fs::rename(&temporary, copies.join(&name))) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&temporary);
            Err(e)
        }
    }
}

fn read_stamps(path: &Path) -> Option<HashMap<Key, Learnt>> {
    let file = fs::OpenOptions::new().read(true).open(path).ok()?;
    let mut bytes = Vec::new();
    file.take((MAGIC.len() + MOST * RECORD) as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    let records = bytes.strip_prefix(MAGIC)?;
    let mut out = HashMap::new();
    for record in records.chunks_exact(RECORD) {
        let (key, learnt) = decode(record)?;
        out.insert(key, learnt);
    }
    Some(out)
}

fn decode(record: &[u8]) -> Option<(Key, Learnt)> {
    let u64_at = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(record.get(at..at + 8)?.try_into().ok()?))
    };
    let i128_at = |at: usize| -> Option<i128> {
        Some(i128::from_le_bytes(
            record.get(at..at + 16)?.try_into().ok()?,
        ))
    };
    let digest_at = |at: usize| -> Option<[u8; 32]> { record.get(at..at + 32)?.try_into().ok() };
    let key = Key {
        dev: u64_at(0)?,
        ino: u64_at(8)?,
        size: u64_at(16)?,
        mtime_ns: i128_at(24)?,
        ctime_ns: i128_at(40)?,
    };
    let learnt = Learnt {
        hashed_at_ns: i128_at(56)?,
        digest: digest_at(72)?,
        xattrs: digest_at(104)?,
    };
    Some((key, learnt))
}

fn write_stamps(dir: &Path, kept: &HashMap<Key, Learnt>) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(MAGIC.len() + kept.len() * RECORD);
    bytes.extend_from_slice(MAGIC);
    for (key, learnt) in kept {
        bytes.extend_from_slice(&key.dev.to_le_bytes());
        bytes.extend_from_slice(&key.ino.to_le_bytes());
        bytes.extend_from_slice(&key.size.to_le_bytes());
        bytes.extend_from_slice(&key.mtime_ns.to_le_bytes());
        bytes.extend_from_slice(&key.ctime_ns.to_le_bytes());
        bytes.extend_from_slice(&learnt.hashed_at_ns.to_le_bytes());
        bytes.extend_from_slice(&learnt.digest);
        bytes.extend_from_slice(&learnt.xattrs);
    }
    let temporary = dir.join(format!(".stamps.{}", std::process::id()));
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&temporary)
        .and_then(|mut file| file.write_all(&bytes));
    match written.and_then(|()| fs::rename(&temporary, dir.join("stamps"))) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&temporary);
            Err(e)
        }
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;
    use crate::project_tree::{Limits, Snapshot};

    /// A project with one file, and a private state folder beside it.
    struct Fixture {
        project: tempfile::TempDir,
        state: tempfile::TempDir,
    }

    impl Fixture {
        fn new() -> Fixture {
            let project = tempfile::tempdir().unwrap();
            fs::write(project.path().join("data.txt"), "as submitted\n").unwrap();
            Fixture {
                project,
                state: tempfile::tempdir().unwrap(),
            }
        }

        fn file(&self) -> PathBuf {
            self.project.path().join("data.txt")
        }

        fn ctime_ns(&self) -> i128 {
            let meta = fs::metadata(self.file()).unwrap();
            i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec())
        }

        /// A record with what the state knows, as if it started at `now_ns`.
        fn record_at(&self, now_ns: i128) -> Snapshot {
            let known = Known::open_at(self.state.path(), now_ns);
            let state = (self.state.path().to_path_buf(), None);
            Snapshot::take_knowing(self.project.path(), known, state, Limits::default(), None)
                .unwrap()
        }

        /// Replaces every learnt digest with one of nothing in the tree.
        fn forge_learnt_digests(&self) {
            let path = self.state.path().join("stamps");
            let mut learnt = read_stamps(&path).unwrap();
            assert!(!learnt.is_empty());
            for l in learnt.values_mut() {
                l.digest = [7; 32];
            }
            fs::remove_file(&path).unwrap();
            write_stamps(self.state.path(), &learnt).unwrap();
            // A copy under its name, so that nothing sends the record to
            // the file for one.
            store(&self.state.path().join("copies"), &[7; 32], b"forged").unwrap();
        }

        fn real_digest(&self) -> String {
            Snapshot::take(self.project.path(), false).unwrap().digest()
        }
    }

    #[test]
    fn a_learnt_stamp_is_used_and_a_moved_ctime_is_hashed_again() {
        let f = Fixture::new();
        let real = f.real_digest();
        let later = f.ctime_ns() + 10 * MARGIN_NS;
        assert_eq!(f.record_at(later).digest(), real);
        // The file is not read: what was learnt of its stamp is used.
        f.forge_learnt_digests();
        assert_ne!(f.record_at(later + MARGIN_NS).digest(), real);
        // A chmod to the same mode moves the status-change time only.
        let mode = fs::metadata(f.file()).unwrap().permissions();
        fs::set_permissions(f.file(), mode).unwrap();
        let moved = f.ctime_ns() + 10 * MARGIN_NS;
        assert_eq!(f.record_at(moved).digest(), real);
    }

    #[test]
    fn a_file_hashed_within_the_margin_of_its_last_change_is_hashed_again() {
        let f = Fixture::new();
        let real = f.real_digest();
        // Hashed half a second after it changed: a write in the same tick
        // of the coarse clock could have followed unseen.
        f.record_at(f.ctime_ns() + MARGIN_NS / 2);
        f.forge_learnt_digests();
        assert_eq!(f.record_at(f.ctime_ns() + 10 * MARGIN_NS).digest(), real);
        // Hashed again then, past the margin: trusted from now on.
        f.forge_learnt_digests();
        assert_ne!(f.record_at(f.ctime_ns() + 11 * MARGIN_NS).digest(), real);
    }

    #[test]
    fn a_stored_copy_puts_the_file_back_and_a_tampered_one_is_not_used() {
        let f = Fixture::new();
        let later = f.ctime_ns() + 10 * MARGIN_NS;
        f.record_at(later);
        let copies: Vec<PathBuf> = fs::read_dir(f.state.path().join("copies"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(copies.len(), 1, "{copies:?}");

        // Recorded from the store (nothing read), put back from it.
        let snapshot = f.record_at(later + MARGIN_NS);
        fs::write(f.file(), "changed by a test\n").unwrap();
        let change = snapshot.compare();
        assert_eq!(snapshot.put_back(&change), Ok(1));
        assert_eq!(fs::read_to_string(f.file()).unwrap(), "as submitted\n");

        // A copy that no longer hashes to its name is not written back.
        let later = f.ctime_ns() + 10 * MARGIN_NS;
        f.record_at(later);
        let snapshot = f.record_at(later + MARGIN_NS);
        fs::write(&copies[0], "tampered store\n").unwrap();
        fs::write(f.file(), "changed by a test\n").unwrap();
        let error = snapshot.put_back(&snapshot.compare()).unwrap_err();
        assert!(error.contains("stored copy"), "{error}");
        assert_eq!(fs::read_to_string(f.file()).unwrap(), "changed by a test\n");
    }

    #[test]
    fn copies_the_tree_no_longer_holds_are_removed() {
        let f = Fixture::new();
        f.record_at(f.ctime_ns() + 10 * MARGIN_NS);
        fs::write(f.file(), "another content\n").unwrap();
        fs::set_permissions(f.file(), fs::Permissions::from_mode(0o644)).unwrap();
        f.record_at(f.ctime_ns() + 10 * MARGIN_NS);
        let stored: Vec<String> = fs::read_dir(f.state.path().join("copies"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let digest: [u8; 32] = Sha256::digest(b"another content\n").into();
        assert_eq!(stored, vec![hex(&digest)]);
    }

    #[test]
    fn an_unreadable_stamps_file_learns_nothing() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("stamps"), b"not a record").unwrap();
        assert!(Known::open(dir.path()).learnt.is_empty());
        let mut bad = MAGIC.to_vec();
        bad.extend_from_slice(&[1; RECORD - 1]);
        fs::write(dir.path().join("stamps"), bad).unwrap();
        assert!(Known::open(dir.path()).learnt.is_empty());
    }
}
