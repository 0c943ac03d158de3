//! The tree an attempt judges, and whether the attempt changed it.
//!
//! Before any preparation and the first attempt [`Snapshot::take`] records
//! every entry of the workspace by descriptor (never following a link, at
//! any depth): files (kind, mode, `user.*` xattrs, SHA-256 of the content,
//! or for a file over [`Limits::hashed_file_bytes`] its size and status
//! stamp), symlinks, folders (mode, xattrs) — except inside folders runners
//! write at their usual place (`target/` beside a `Cargo.toml`,
//! `node_modules/` beside a `package.json`, `.venv/` at the top, …), where
//! only what runs on the host is walked (`node_modules/.bin` and the files
//! its shims point at, `.git/hooks`). A snapshot that cannot be taken within
//! [`Limits`] is an error, never a weaker snapshot. After each attempt
//! [`Snapshot::compare`] names what changed: a recorded entry that changed
//! or vanished, or a new entry that runs later or is judged wherever it
//! appears (set-id files, outward links, bytecode, any `.git`,
//! tool configuration at any depth: docs/sandbox.md).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use testgate_run::{Cancel, EntryKind};

use crate::host_files;
use crate::scan::{Content, Entry, Followed, Kept, Kind, Scan, inside, known};
pub use crate::scan::{Limits, SnapshotError};

/// How many paths a reason names before it gives a count.
pub const NAMED_PATHS: usize = 10;

/// How a changed "path" that says the tree could not be walked begins.
const WALK_FAILED: &str = "(walk failed: ";

/// Files at most this large in total are kept to restore from.
const COPY_BUDGET: u64 = 512 * 1024 * 1024;

/// The recorded state of a workspace.
#[derive(Debug, Clone)]
pub struct Snapshot {
    root: PathBuf,
    files: BTreeMap<PathBuf, Entry>,
    /// The caller's own files ([`Snapshot::leave_out`]).
    own: OwnFiles,
    /// New files left in place ([`Snapshot::keeping_new`]).
    kept_new: Vec<PathBuf>,
    limits: Limits,
    cancel: Option<Cancel>,
    keep_copies: bool,
    /// The folder of the project's private state where the copies lie
    /// ([`Snapshot::take_remembering`]), held against eviction.
    state: Option<std::sync::Arc<(PathBuf, Option<testgate_run::PrivateState>)>>,
}

/// Why a change an attempt made costs its verdict: what the entry is to
/// the runner or to the host. The reason names it beside each path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Counts {
    /// It was in the tree as submitted (code, tests, configuration, data):
    /// the attempt changed what it was judging.
    Recorded,
    /// It runs later on the host, or configures a runner or a tool that
    /// does ([`host_files::runs_on_host`]).
    RunsOnHost,
    /// It is named like a test, or an expectation a test reads
    /// ([`is_test_file`]).
    TestFile,
    /// Bytecode, which an import reads instead of the source.
    Bytecode,
    /// A file with a set-user-id or set-group-id bit. (A plain execute
    /// bit costs nothing: within the attempt the test's own code can do
    /// whatever the file would, and the file is removed after it; what
    /// runs it later on the host counts as [`Counts::RunsOnHost`].)
    SetId,
    /// A link that leads out of the project.
    OutwardLink,
    /// A FIFO or a device.
    Special,
    /// A world-writable, sticky or set-id folder.
    OpenFolder,
}

impl Counts {
    /// The words the reason puts after the path.
    pub fn words(self) -> &'static str {
        match self {
            Counts::Recorded => "in the tree as submitted",
            Counts::RunsOnHost => "runs later on the host",
            Counts::TestFile => "named like a test",
            Counts::Bytecode => "bytecode an import reads",
            Counts::SetId => "set-id",
            Counts::OutwardLink => "a link out of the project",
            Counts::Special => "a FIFO or device",
            Counts::OpenFolder => "a world-writable or set-id folder",
        }
    }
}

/// What an attempt did to the tree. [`TreeChange::is_empty`] when nothing
/// it judges changed; what it changed that costs nothing (a new empty
/// folder, what a tool writes at its conventional place) is
/// [`TreeChange::incidental`], put back and noted all the same.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeChange {
    /// Recorded files whose content, mode or kind changed.
    pub changed: Vec<PathBuf>,
    /// Recorded files that no longer exist.
    pub deleted: Vec<PathBuf>,
    /// New entries a runner or the host reads as code or configuration
    /// ([`Counts`]).
    pub added: Vec<PathBuf>,
    /// What the attempt changed that costs no verdict: new entries nothing
    /// reads as code or configuration (a new empty folder, `.benchmarks`,
    /// coverage output, a log) and recorded ones inside the folders tools
    /// write at their conventional place (`.pytest_cache`, `.hypothesis`):
    /// removed or put back all the same, and noted.
    pub incidental: Vec<PathBuf>,
    /// What putting the tree back did: `None` when the changes were left
    /// in place (`--keep-changes` after the last attempt).
    pub restored: Option<Result<usize, String>>,
    /// Why each judged path counts.
    why: BTreeMap<PathBuf, Counts>,
    /// The new entries whose folder was recorded: what putting the tree
    /// back removes (with everything in them).
    new: Vec<PathBuf>,
    /// What the attempt did in the installed folders the host runs from,
    /// which Landlock cannot show read-only ([`testgate_run::InstalledChange`]):
    /// additions removed, changes that cannot be put back.
    pub installed: testgate_run::InstalledChange,
}

impl TreeChange {
    /// Whether nothing the attempt judges changed.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty()
            && self.deleted.is_empty()
            && self.added.is_empty()
            && self.installed.is_empty()
    }

    /// Whether nothing changed at all, incidental changes included: there
    /// is nothing to put back.
    pub fn is_untouched(&self) -> bool {
        self.is_empty() && self.incidental.is_empty() && self.new.is_empty()
    }

    /// Why `path` counts, when it is one of the judged paths.
    pub fn why(&self, path: &Path) -> Option<Counts> {
        self.why.get(path).copied()
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
        all.sort_by_key(|p| (!host_files::runs_on_host(p), p.to_path_buf()));
        all
    }

    /// Whether files that run later on the host may be left changed or
    /// planted: one of the paths runs on the host, or the tree could not be
    /// walked (what it holds is unknown), and they were not all put back.
    pub fn may_leave_host_run_files(&self) -> bool {
        let unknown = self.changed.iter().any(|p| {
            p.as_os_str()
                .as_encoded_bytes()
                .starts_with(WALK_FAILED.as_bytes())
        });
        let host = self.paths().iter().any(|p| host_files::runs_on_host(p));
        let restored = matches!(self.restored, Some(Ok(_)));
        ((unknown || host) && !restored) || self.installed.left_for_the_host()
    }

    /// Whether the tree is as submitted again: the changes were put back,
    /// all of them.
    pub fn put_back(&self) -> bool {
        matches!(self.restored, Some(Ok(_)))
    }

    /// One sentence for the verdict's reason.
    pub fn reason(&self, attempt: usize) -> String {
        self.reason_for(&format!("attempt {attempt}"))
    }

    /// One sentence for the verdict's reason when the preparation
    /// `command` (`--prepare`) changed the tree the attempts were to judge.
    pub fn preparation_reason(&self, command: &str) -> String {
        self.reason_for(&format!("the preparation `{command}`"))
    }

    fn reason_for(&self, who: &str) -> String {
        if self.is_empty() {
            // Only what costs nothing changed, and not all of it went.
            let left: Vec<String> = self
                .incidental
                .iter()
                .take(NAMED_PATHS)
                .map(|p| p.display().to_string())
                .collect();
            return format!(
                "{who} changed the tree, and it could not all be put back, so the next attempt \
                 would not start from the tree as submitted: {}.{}",
                left.join(", "),
                self.restored_sentence()
            );
        }
        format!(
            "{who} changed the tree it was judging, so its result is not evidence of a pass: {}.{}",
            self.named(),
            self.restored_sentence()
        )
    }

    /// The note of an attempt that changed the tree when the verdict the
    /// attempts gave stands ([`testgate_policy::AfterTreeChange`]): a Fail
    /// every attempt proved, or an Inconclusive of their own.
    pub fn verdict_stands_note(&self) -> String {
        format!(
            "it changed the tree it was judging: {}; the verdict stands, as every attempt started \
             from the tree as submitted.{}",
            self.named(),
            self.restored_sentence()
        )
    }

    /// The note of an attempt that changed only what costs nothing
    /// ([`TreeChange::incidental`]); `None` when it changed nothing of it.
    pub fn incidental_note(&self) -> Option<String> {
        if self.incidental.is_empty() {
            return None;
        }
        let mut named: Vec<String> = self
            .incidental
            .iter()
            .take(NAMED_PATHS)
            .map(|p| p.display().to_string())
            .collect();
        if self.incidental.len() > NAMED_PATHS {
            named.push(format!("and {} more", self.incidental.len() - NAMED_PATHS));
        }
        let done = match &self.restored {
            Some(Ok(_)) => "removed or put back",
            Some(Err(_)) => "not all put back",
            None => "left in place (--keep-changes)",
        };
        Some(format!(
            "it wrote what no runner reads as code or configuration, {done}: {}",
            named.join(", ")
        ))
    }

    /// The paths, each with what happened to it and why it counts, the
    /// first [`NAMED_PATHS`] of them.
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
                // A recorded entry's "changed" or "deleted" is its why,
                // said once after the list.
                match self.why(p) {
                    Some(Counts::Recorded) | None => format!("{} ({what})", p.display()),
                    Some(why) => format!("{} ({what}, {})", p.display(), why.words()),
                }
            })
            .collect();
        if paths.len() > NAMED_PATHS {
            named.push(format!("and {} more", paths.len() - NAMED_PATHS));
        }
        named.extend(installed_named(&self.installed));
        let recorded = if self.why.values().any(|w| *w == Counts::Recorded) {
            " (what is changed or deleted was in the tree as submitted)"
        } else {
            ""
        };
        format!("{}{recorded}", named.join(", "))
    }

    /// What putting the tree back did, as a sentence after the paths.
    fn restored_sentence(&self) -> String {
        match &self.restored {
            None => " The last attempt's changes are left in place (--keep-changes).".to_owned(),
            Some(Ok(n)) => format!(" Restored {n} file(s) to the recorded state."),
            Some(Err(why)) => format!(" Restoring failed: {why}."),
        }
    }
}

/// The installed folders' changes, each with what happened to it and why
/// it counts, the first [`NAMED_PATHS`] of each kind.
fn installed_named(installed: &testgate_run::InstalledChange) -> Vec<String> {
    const WHY: &str = "in an installed folder the host runs from";
    let mut named = Vec::new();
    let mut name = |paths: &[PathBuf], what: &str| {
        for p in paths.iter().take(NAMED_PATHS) {
            named.push(format!("{} ({what} {WHY})", p.display()));
        }
        if paths.len() > NAMED_PATHS {
            named.push(format!("and {} more {what}", paths.len() - NAMED_PATHS));
        }
    };
    name(&installed.changed, "changed, not put back,");
    name(&installed.vanished, "deleted, not put back,");
    name(&installed.left, "added, not removed,");
    name(&installed.removed, "added and removed,");
    for (folder, why) in &installed.unknown {
        named.push(format!(
            "{} (not walked after the attempt: {why}; an installed folder the host runs from)",
            folder.display()
        ));
    }
    named
}

impl Snapshot {
    /// Records `root` within the default [`Limits`]; with `keep_copies`,
    /// keeps the files' bytes (up to a budget) so that
    /// [`Snapshot::restore`] can put them back.
    pub fn take(root: &Path, keep_copies: bool) -> Result<Snapshot, SnapshotError> {
        Snapshot::take_within(root, keep_copies, Limits::default(), None)
    }

    /// [`take`](Snapshot::take) within `limits`, stopping with
    /// [`SnapshotError::Cancelled`] as soon as `cancel` is tripped (checked
    /// between entries and between chunks of a file). The limits and the
    /// handle also bound every later [`compare`](Snapshot::compare).
    pub fn take_within(
        root: &Path,
        keep_copies: bool,
        limits: Limits,
        cancel: Option<Cancel>,
    ) -> Result<Snapshot, SnapshotError> {
        let budget = if keep_copies { COPY_BUDGET } else { 0 };
        let files = Scan::new(&limits, cancel.as_ref(), None, budget).run(root)?;
        Ok(Snapshot {
            root: root.to_path_buf(),
            files,
            limits,
            cancel,
            keep_copies,
            own: OwnFiles::default(),
            kept_new: Vec::new(),
            state: None,
        })
    }

    /// [`take_within`](Snapshot::take_within), keeping copies, with what
    /// earlier checks of the project learnt in its private state
    /// ([`testgate_run::PrivateState`]): a file whose stamp (device,
    /// inode, size, modification and status-change time) is the one an
    /// earlier check hashed it at, at least a second after it last changed,
    /// is not read; its copy is the one stored by digest, used to put it
    /// back only where it still hashes to its digest. What this record
    /// read is learnt and stored for the next; copies it does not hold are
    /// removed. Where there is no such state (no cache directory), it is
    /// [`take_within`](Snapshot::take_within) keeping copies.
    pub fn take_remembering(
        root: &Path,
        limits: Limits,
        cancel: Option<Cancel>,
    ) -> Result<Snapshot, SnapshotError> {
        let Ok(state) = testgate_run::PrivateState::open(root) else {
            return Snapshot::take_within(root, true, limits, cancel);
        };
        let dir = state.dir().to_path_buf();
        let known = known::Known::open(&dir);
        Snapshot::take_knowing(root, known, (dir, Some(state)), limits, cancel)
    }

    /// [`take_remembering`](Snapshot::take_remembering) with `learnt`,
    /// read from the folder `state.0`.
    pub(crate) fn take_knowing(
        root: &Path,
        mut learnt: known::Known,
        state: (PathBuf, Option<testgate_run::PrivateState>),
        limits: Limits,
        cancel: Option<Cancel>,
    ) -> Result<Snapshot, SnapshotError> {
        let files = Scan::new(&limits, cancel.as_ref(), None, COPY_BUDGET)
            .knowing(&mut learnt)
            .run(root)?;
        let copied = files
            .values()
            .filter_map(|entry| match (&entry.kind, &entry.copy) {
                (
                    Kind::File {
                        content: Content::Digest(digest),
                        ..
                    },
                    Some(_),
                ) => Some(*digest),
                _ => None,
            })
            .collect();
        learnt.save(&copied);
        Ok(Snapshot {
            root: root.to_path_buf(),
            files,
            limits,
            cancel,
            keep_copies: true,
            own: OwnFiles::default(),
            kept_new: Vec::new(),
            state: Some(std::sync::Arc::new(state)),
        })
    }

    /// Records the tree again, as it is now (after the preparations), with
    /// the same limits; files whose status did not move are not read again.
    pub fn retake(&self) -> Result<Snapshot, SnapshotError> {
        let budget = if self.keep_copies { COPY_BUDGET } else { 0 };
        let files = Scan::new(
            &self.limits,
            self.cancel.as_ref(),
            Some(&self.files),
            budget,
        )
        .run(&self.root)?;
        Ok(Snapshot {
            files,
            ..self.clone()
        })
    }

    /// Leaves a new regular file at `rel` in place when it is no judged
    /// change (the user's own `--report`, which they asked the runner to
    /// write): it is neither noted nor removed.
    pub fn keeping_new(mut self, rel: &Path) -> Snapshot {
        self.kept_new.push(rel.to_path_buf());
        self
    }

    /// The same record, its comparisons no longer stopped by the cancel
    /// handle: the tree as found is put back after a check that was
    /// interrupted too (`check --trusted`).
    pub(crate) fn uncancelled(mut self) -> Snapshot {
        self.cancel = None;
        self
    }

    /// The files and links recorded, relative to the root.
    pub(crate) fn file_paths(&self) -> std::collections::BTreeSet<PathBuf> {
        self.files
            .iter()
            .filter(|(_, entry)| matches!(entry.kind, Kind::File { .. } | Kind::Symlink(_)))
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// How many entries (files, links, folders) were recorded.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The recorded files over [`Limits::hashed_file_bytes`]: compared by
    /// their status stamp, never hashed, so [`Snapshot::digest`] binds only
    /// their size, and never copied, so they cannot be put back.
    pub fn unbound(&self) -> Vec<&Path> {
        self.files
            .iter()
            .filter(|(_, e)| {
                matches!(
                    e.kind,
                    Kind::File {
                        content: Content::Large { .. },
                        ..
                    }
                )
            })
            .map(|(p, _)| p.as_path())
            .collect()
    }

    /// One SHA-256 over every recorded file's and link's path, kind, mode
    /// and content digest (a file over [`Limits::hashed_file_bytes`]: its
    /// size, [`Snapshot::unbound`]): the same for the same content wherever
    /// it is checked out. Folders, xattrs and bytecode caches are compared
    /// after each attempt but left out of it.
    pub fn digest(&self) -> String {
        let mut hasher = Sha256::new();
        for (path, entry) in &self.files {
            if path.iter().any(|c| c == "__pycache__") {
                continue;
            }
            match &entry.kind {
                Kind::File { mode, content, .. } => {
                    hasher.update(path.as_os_str().as_encoded_bytes());
                    hasher.update([0]);
                    hasher.update(b"f");
                    hasher.update(mode.to_le_bytes());
                    match content {
                        Content::Digest(digest) => hasher.update(digest),
                        Content::Large { size, .. } => {
                            hasher.update(b"large");
                            hasher.update(size.to_le_bytes());
                        }
                    }
                }
                Kind::Symlink(target) => {
                    hasher.update(path.as_os_str().as_encoded_bytes());
                    hasher.update([0]);
                    hasher.update(b"l");
                    hasher.update(target.as_os_str().as_encoded_bytes());
                    hasher.update([0]);
                }
                Kind::Dir { .. } | Kind::Special { .. } => {}
            }
        }
        hex(&hasher.finalize())
    }

    /// What changed since the snapshot was taken. A tree that cannot be
    /// read again within the limits counts as changed, the reason named.
    pub fn compare(&self) -> TreeChange {
        self.compare_judging(false)
    }

    /// What a preparation step changed: as [`compare`](Snapshot::compare),
    /// except inside `node_modules/` (its `.bin` and the shims' targets) and
    /// inside new folders the preparation made (a `CARGO_HOME` in the
    /// project, `*.egg-info`): filling those is what preparations are for;
    /// and only judged new entries are removed when it is put back.
    pub fn compare_preparation(&self) -> TreeChange {
        self.compare_judging(true)
    }

    /// Whether `rel` lies at the top or in a folder recorded before: a
    /// preparation's own new folders (a `CARGO_HOME` or a registry inside
    /// the project, `*.egg-info`, a venv) hold what it is for, and are
    /// judged by their top entry only.
    fn beside_recorded(&self, rel: &Path) -> bool {
        match rel.parent() {
            None => true,
            Some(parent) if parent.as_os_str().is_empty() => true,
            Some(parent) => self
                .files
                .get(parent)
                .is_some_and(|e| matches!(e.kind, Kind::Dir { .. })),
        }
    }

    /// Whether `rel` lies in (or is) a folder or file a tool writes at its
    /// conventional place ([`crate::runners::tool_outputs`]): its name at
    /// the project's top or beside one of the manifests the runner's
    /// profile names, recorded before anything ran (a manifest an attempt
    /// plants makes no place conventional).
    fn in_tool_output(&self, rel: &Path) -> bool {
        rel.ancestors().any(|at| {
            let (Some(name), Some(parent)) = (at.file_name(), at.parent()) else {
                return false;
            };
            crate::runners::tool_outputs().any(|output| {
                name == output.name
                    && (parent.as_os_str().is_empty()
                        || output
                            .beside
                            .iter()
                            .any(|manifest| self.files.contains_key(&parent.join(manifest))))
            })
        })
    }

    fn compare_judging(&self, preparation: bool) -> TreeChange {
        let mut change = TreeChange::default();
        let (now, followed) =
            match Scan::new(&self.limits, self.cancel.as_ref(), Some(&self.files), 0)
                .leaving_new_files_unread()
                .run_following_git(&self.root)
            {
                Ok(now) => now,
                Err(error) => {
                    change
                        .changed
                        .push(PathBuf::from(format!("{WALK_FAILED}{error})")));
                    return change;
                }
            };
        let judged = |entry: &Entry| !(preparation && entry.in_ignored);
        let recorded_counts = |rel: &Path| self.recorded_counts(rel);
        let note = |change: &mut TreeChange, rel: &PathBuf, counts: Option<Counts>| match counts {
            Some(why) => {
                change.why.insert(rel.clone(), why);
                true
            }
            None => {
                change.incidental.push(rel.clone());
                false
            }
        };
        let (paired, gone) = paired(&now, &self.files);
        for (rel, entry, before) in paired {
            match before {
                Some(before) if before.kind == entry.kind => {}
                Some(before) if judged(before) || judged(entry) => {
                    if note(&mut change, rel, recorded_counts(rel)) {
                        change.changed.push(rel.clone());
                    }
                }
                Some(_) => {}
                None if preparation => {
                    if judged(entry)
                        && self.beside_recorded(rel)
                        && let Some(why) = counts_when_new(rel, entry, false)
                            .or_else(|| followed.covers(rel).then_some(Counts::RunsOnHost))
                    {
                        change.why.insert(rel.clone(), why);
                        change.added.push(rel.clone());
                        change.new.push(rel.clone());
                    }
                }
                None => self.note_new_entry(&mut change, rel, entry, &now, &followed),
            }
        }
        for (rel, entry) in gone {
            if judged(entry) && note(&mut change, rel, recorded_counts(rel)) {
                change.deleted.push(rel.clone());
            }
        }
        // A new entry nothing judged lies in is noted, by its top entry.
        let new_incidental: Vec<PathBuf> = change
            .new
            .iter()
            .filter(|top| !change.added.iter().any(|a| a.starts_with(top)))
            .cloned()
            .collect();
        if !preparation {
            change.incidental.extend(new_incidental);
            change.incidental.sort();
        }
        self.own.leave_out_of(&self.root, &mut change);
        change
    }

    /// What a recorded entry's change costs: nothing inside a tool's
    /// output at its place, unless it runs later (a `conftest.py` planted
    /// in `.pytest_cache` counts).
    fn recorded_counts(&self, rel: &Path) -> Option<Counts> {
        if host_files::runs_on_host(rel) {
            Some(Counts::RunsOnHost)
        } else if self.in_tool_output(rel) {
            None
        } else {
            Some(Counts::Recorded)
        }
    }

    /// Notes the entry `rel` an attempt made (it is not recorded): why it
    /// counts, if it does, and whether it is removed as the top new entry
    /// of what `now` holds.
    fn note_new_entry(
        &self,
        change: &mut TreeChange,
        rel: &Path,
        entry: &Entry,
        now: &BTreeMap<PathBuf, Entry>,
        followed: &Followed,
    ) {
        // What git follows from `.git` (an include's target, a
        // commondir's copy) runs later on the host wherever it lies.
        let why = counts_when_new(rel, entry, self.in_tool_output(rel))
            .or_else(|| followed.covers(rel).then_some(Counts::RunsOnHost));
        if let Some(why) = why {
            change.why.insert(rel.to_path_buf(), why);
            change.added.push(rel.to_path_buf());
        }
        // Removed by its top new entry, with what it holds (a folder that
        // is not recorded, as `node_modules/.bin`, is no new entry).
        let top_most = rel
            .ancestors()
            .skip(1)
            .filter(|a| !a.as_os_str().is_empty())
            .all(|a| !now.contains_key(a) || self.files.contains_key(a));
        let kept = self.kept_new.iter().any(|k| k == rel)
            && matches!(entry.kind, Kind::File { .. })
            && !change.added.iter().any(|added| added == rel);
        if top_most && !kept {
            change.new.push(rel.to_path_buf());
        }
    }

    /// Puts changed and deleted entries back from the recorded copies and
    /// removes new ones (a new folder with everything in it), then compares
    /// again: anything still not as recorded is an error naming it.
    /// Returns how many entries it put back or removed.
    pub fn put_back(&self, change: &TreeChange) -> Result<usize, String> {
        let restored = self.restore(change)?;
        let left = self.compare();
        if left.is_untouched() {
            return Ok(restored);
        }
        let mut paths: Vec<&Path> = left.paths();
        paths.extend(left.incidental.iter().map(PathBuf::as_path));
        let paths: Vec<String> = paths
            .iter()
            .take(NAMED_PATHS)
            .map(|p| p.display().to_string())
            .collect();
        Err(format!(
            "restored {restored} file(s) but {} still differ(s) from the recorded tree",
            paths.join(", ")
        ))
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
        // New entries first: a link the attempt put where a recorded folder
        // was goes before the folder is made again in its place.
        for rel in &change.new {
            match project.remove_entry(rel) {
                Ok(true) => restored = restored.saturating_add(1),
                Ok(false) => {}
                Err(e) => missing.push(format!("{} ({e})", rel.display())),
            }
        }
        // Parents before what they hold (paths sort so).
        let mut back: Vec<&PathBuf> = change
            .changed
            .iter()
            .chain(&change.deleted)
            .chain(&change.incidental)
            .filter(|rel| self.files.contains_key(*rel))
            .collect();
        back.sort();
        back.dedup();
        for rel in back {
            let Some(entry) = self.files.get(rel) else {
                continue;
            };
            match self.entry_back(&project, rel, entry) {
                Ok(()) => restored = restored.saturating_add(1),
                Err(why) => missing.push(format!("{} ({why})", rel.display())),
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
    /// Puts the recorded `entry` back at `rel`; why not, when it cannot.
    fn entry_back(
        &self,
        project: &testgate_run::ProjectDir,
        rel: &Path,
        entry: &Entry,
    ) -> Result<(), String> {
        let written = match (&entry.kind, &entry.copy) {
            (Kind::File { mode, .. }, Some(Kept::Bytes(bytes))) => project.write(rel, bytes, *mode),
            (
                Kind::File {
                    mode,
                    content: Content::Digest(digest),
                    ..
                },
                Some(Kept::Stored),
            ) => match self.stored_copy(digest) {
                Some(bytes) => project.write(rel, &bytes, *mode),
                None => {
                    return Err("its stored copy is gone or no longer hashes to its digest".into());
                }
            },
            (Kind::Symlink(target), _) => project.symlink(rel, target),
            (
                Kind::File {
                    content: Content::Large { .. },
                    ..
                },
                None | Some(Kept::Stored),
            ) => {
                return Err(format!(
                    "over the {} MiB copy limit",
                    self.limits.hashed_file_bytes >> 20
                ));
            }
            (Kind::File { .. }, None) => {
                return Err(format!(
                    "beyond the {} MiB of copies kept",
                    COPY_BUDGET >> 20
                ));
            }
            // A folder the attempt replaced (by a link to a host
            // folder) or whose mode it changed: made again in place,
            // its recorded files restored after it.
            (Kind::Dir { mode, .. }, _) => project.make_dir(rel, *mode),
            (Kind::Special { .. }, _) => return Err("not a file".into()),
        };
        written.map_err(|e| e.to_string())
    }

    /// The copy of `digest` a check stored in the project's private state,
    /// when it still hashes to it.
    fn stored_copy(&self, digest: &[u8; 32]) -> Option<Vec<u8>> {
        known::stored_copy(&self.state.as_ref()?.0, digest)
    }

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

/// Why a new entry at `rel` costs the attempt its verdict, when it does:
/// it runs later on the host or configures what does (at any depth, and
/// inside a tool's output folder too), it is bytecode, it is named like a
/// test (outside a tool's output, `in_tool_output`, where `htmlcov/test_x_py.html`
/// is a report), it is a file with a set-id bit, a FIFO or
/// device, a symlink that leads outside the project, or a world-writable
/// or set-id folder. Anything else (an empty folder, a log, build output,
/// what pytest-benchmark or coverage write) costs nothing: it is removed
/// after the attempt all the same, and noted.
fn counts_when_new(rel: &Path, entry: &Entry, in_tool_output: bool) -> Option<Counts> {
    if host_files::runs_on_host(rel) {
        return Some(Counts::RunsOnHost);
    }
    if rel.iter().any(|c| c == "__pycache__") {
        return Some(Counts::Bytecode);
    }
    if !in_tool_output && is_test_file(rel) {
        return Some(Counts::TestFile);
    }
    match &entry.kind {
        Kind::File { mode, .. } => (mode & 0o6000 != 0).then_some(Counts::SetId),
        Kind::Symlink(target) => inside(rel.parent().unwrap_or(Path::new("")), target)
            .is_none()
            .then_some(Counts::OutwardLink),
        Kind::Dir { mode, .. } => (mode & 0o7002 != 0).then_some(Counts::OpenFolder),
        Kind::Special { what, .. } => match what {
            EntryKind::Fifo | EntryKind::Device => Some(Counts::Special),
            EntryKind::Socket | EntryKind::File | EntryKind::Dir | EntryKind::Symlink => None,
        },
    }
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

/// Each entry of a walk, with the recorded entry at its path.
type Paired<'a, V> = Vec<(&'a PathBuf, &'a V, Option<&'a V>)>;

/// Pairs each entry of `now` with the entry `recorded` holds at its path,
/// and lists the recorded entries `now` lacks, both in the maps' order, in
/// one pass over the two: a lookup per entry compared the paths component
/// by component some ten times over (2 ms of a check of PHP-Parser's 1,000
/// entries).
fn paired<'a, V>(
    now: &'a BTreeMap<PathBuf, V>,
    recorded: &'a BTreeMap<PathBuf, V>,
) -> (Paired<'a, V>, Vec<(&'a PathBuf, &'a V)>) {
    let mut pairs = Vec::with_capacity(now.len());
    let mut gone = Vec::new();
    let mut recorded = recorded.iter().peekable();
    for (rel, entry) in now {
        let mut before = None;
        while let Some((at, _)) = recorded.peek() {
            match (*at).cmp(rel) {
                std::cmp::Ordering::Less => gone.extend(recorded.next()),
                std::cmp::Ordering::Equal => {
                    before = recorded.next().map(|(_, e)| e);
                    break;
                }
                std::cmp::Ordering::Greater => break,
            }
        }
        pairs.push((rel, entry, before));
    }
    gone.extend(recorded);
    (pairs, gone)
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use std::time::Duration;

    use super::*;
    use std::io;
    use std::os::unix::fs::PermissionsExt;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("tests")).unwrap();
        fs::write(dir.path().join("tests/a_test.py"), "assert 1 == 2\n").unwrap();
        fs::write(dir.path().join("lib.py"), "x = 1\n").unwrap();
        fs::write(dir.path().join("Cargo.toml"), "[package]\n").unwrap();
        fs::create_dir_all(dir.path().join("target")).unwrap();
        fs::write(dir.path().join("target/out"), "build").unwrap();
        dir
    }

    fn paths(list: &[PathBuf]) -> Vec<&str> {
        list.iter().map(|p| p.to_str().unwrap()).collect()
    }

    #[test]
    fn an_untouched_tree_is_unchanged() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), false).unwrap();
        fs::write(dir.path().join("target/out"), "rebuilt").unwrap();
        fs::write(dir.path().join("scratch.log"), "log").unwrap();
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
        // lib.py, Cargo.toml, tests/ and tests/a_test.py; not target/.
        assert_eq!(snap.len(), 4);
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
        let reason = change.reason(1);
        assert!(
            reason.starts_with(
                "attempt 1 changed the tree it was judging, so its result is not evidence of a \
                 pass: .cargo/config.toml (added, runs later on the host), lib.py (changed), \
                 tests/a_test.py (deleted) (what is changed or deleted was in the tree as \
                 submitted)."
            ),
            "{reason}"
        );
        // The planted file goes with the new folder it is in.
        assert_eq!(snap.put_back(&change), Ok(3));
        assert!(!dir.path().join(".cargo").exists());
        assert!(snap.compare().is_untouched());
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
        assert!(
            reason.contains("left in place (--keep-changes)"),
            "{reason}"
        );
        assert!(
            reason.contains("tests/t0.py (added, named like a test)"),
            "{reason}"
        );
        let reason = snap.compare().preparation_reason("npm ci");
        assert!(
            reason.starts_with("the preparation `npm ci` changed the tree"),
            "{reason}"
        );
    }

    #[test]
    fn folders_are_ignored_only_where_runners_write_them() {
        let dir = tree();
        let root = dir.path();
        for (path, body) in [
            ("lib/coverage/x.js", "code"),
            ("src/target/y.rs", "code"),
            ("a/b/.cache/z.py", "code"),
            ("web/package.json", "{}"),
            ("web/coverage/report.html", "report"),
            ("web/node_modules/dep/index.js", "dep"),
            (".venv/lib/site.py", "venv"),
            ("sub/venv/code.py", "code"),
        ] {
            fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            fs::write(root.join(path), body).unwrap();
        }
        let snap = Snapshot::take(root, true).unwrap();
        for path in [
            "lib/coverage/x.js",
            "src/target/y.rs",
            "a/b/.cache/z.py",
            "sub/venv/code.py",
            "web/coverage/report.html",
            "web/node_modules/dep/index.js",
            ".venv/lib/site.py",
            "target/out",
        ] {
            fs::write(root.join(path), "rewritten").unwrap();
        }
        let change = snap.compare();
        assert_eq!(
            paths(&change.changed),
            [
                "a/b/.cache/z.py",
                "lib/coverage/x.js",
                "src/target/y.rs",
                "sub/venv/code.py"
            ]
        );
        // Coverage's output beside the recorded manifest costs nothing, and
        // is put back all the same.
        assert_eq!(paths(&change.incidental), ["web/coverage/report.html"]);
        // A manifest planted beside a folder cannot make it a tool's place:
        // what was recorded in it still counts.
        fs::write(root.join("lib/package.json"), "{}").unwrap();
        let change = snap.compare();
        assert_eq!(paths(&change.added), ["lib/package.json"]);
        assert!(paths(&change.changed).contains(&"lib/coverage/x.js"));
        assert_eq!(snap.put_back(&change), Ok(6));
        assert_eq!(
            fs::read_to_string(root.join("lib/coverage/x.js")).unwrap(),
            "code"
        );
        assert_eq!(
            fs::read_to_string(root.join("web/coverage/report.html")).unwrap(),
            "report"
        );
    }

    #[test]
    fn what_runs_later_is_judged_wherever_it_appears() {
        let dir = tree();
        let root = dir.path();
        fs::create_dir_all(root.join("src/pkg/__pycache__")).unwrap();
        fs::write(root.join("src/pkg/mod.py"), "x = 1\n").unwrap();
        fs::write(root.join("src/pkg/__pycache__/mod.cpython-311.pyc"), "old").unwrap();
        let snap = Snapshot::take(root, true).unwrap();
        let plant = |path: &str, body: &str, mode: u32| {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, body).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        };
        plant("tools/sh", "#!/bin/sh\n", 0o4755);
        plant("tools/run", "#!/bin/sh\n", 0o755);
        plant("src/deep/er/sitecustomize.py", "import os\n", 0o644);
        plant("src/x.pth", "import os\n", 0o644);
        plant("pytest.py", "", 0o644);
        plant("sub/pytest.ini", "[pytest]\n", 0o644);
        plant("crates/a/.cargo/config.toml", "[build]\n", 0o644);
        plant("vendor/dep/.git/config", "[core]\n", 0o644);
        plant("src/pkg/__pycache__/other.cpython-311.pyc", "forged", 0o644);
        plant("src/pkg/__pycache__/mod.cpython-311.pyc", "forged", 0o644);
        plant("web/.npmrc", "script-shell=/tmp/x\n", 0o644);
        plant("rust-toolchain.toml", "[toolchain]\n", 0o644);
        plant("notes.txt", "not judged", 0o644);
        fs::create_dir_all(root.join("test-results")).unwrap();
        std::os::unix::fs::symlink("/root/.ssh/id_ed25519", root.join("test-results/junit.xml"))
            .unwrap();
        std::os::unix::fs::symlink("../lib.py", root.join("test-results/inward")).unwrap();
        fs::create_dir_all(root.join("empty/inside")).unwrap();
        fs::create_dir_all(root.join("open")).unwrap();
        fs::write(root.join("open/file.txt"), "").unwrap();
        fs::set_permissions(root.join("open"), fs::Permissions::from_mode(0o777)).unwrap();
        fs::set_permissions(root.join("tests"), fs::Permissions::from_mode(0o777)).unwrap();
        let change = snap.compare();
        assert_eq!(
            paths(&change.changed),
            ["src/pkg/__pycache__/mod.cpython-311.pyc", "tests"]
        );
        assert_eq!(
            paths(&change.added),
            [
                "crates/a/.cargo/config.toml",
                "open",
                "pytest.py",
                "rust-toolchain.toml",
                "src/deep/er/sitecustomize.py",
                "src/pkg/__pycache__/other.cpython-311.pyc",
                "src/x.pth",
                "sub/pytest.ini",
                "test-results/junit.xml",
                "tools/sh",
                "vendor/dep/.git",
                "vendor/dep/.git/config",
                "web/.npmrc",
            ]
        );
        // A new empty folder, a plain new file and a new executable one
        // (thor's specs copy an executable fixture into `spec/sandbox/`)
        // cost nothing: noted, and removed when the tree is put back.
        assert_eq!(paths(&change.incidental), ["empty", "notes.txt"]);
        assert_eq!(snap.put_back(&change).map(|_| ()), Ok(()));
        assert!(!root.join("empty").exists() && !root.join("notes.txt").exists());
        assert!(!root.join("tools/run").exists());
    }

    /// thor's specs copy the executable fixture `preserve/script.sh` into
    /// the git-ignored `spec/sandbox/` and leave it: a new executable costs
    /// nothing (was `tree_changed`, "executable"), and it is removed.
    #[test]
    fn a_new_executable_file_costs_nothing_and_is_removed() {
        let dir = tree();
        let root = dir.path();
        let snap = Snapshot::take(root, true).unwrap();
        fs::create_dir_all(root.join("spec/sandbox/preserve")).unwrap();
        let script = root.join("spec/sandbox/preserve/script.sh");
        fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        let change = snap.compare();
        assert!(change.is_empty(), "{change:?}");
        assert_eq!(paths(&change.incidental), ["spec"]);
        assert_eq!(snap.put_back(&change).map(|_| ()), Ok(()));
        assert!(!root.join("spec").exists());
    }

    #[test]
    fn a_user_xattr_on_a_recorded_file_or_folder_is_a_change() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), false).unwrap();
        // Where the file system keeps no user xattrs there is nothing to see.
        if !xattr_set(&dir.path().join("lib.py")) {
            return;
        }
        assert!(xattr_set(&dir.path().join("tests")));
        assert_eq!(paths(&snap.compare().changed), ["lib.py", "tests"]);
    }

    /// Sets `user.testgate` on `path` with the host's Python.
    fn xattr_set(path: &Path) -> bool {
        crate::host_output(
            "python3",
            &[
                "-c",
                "import os, sys; os.setxattr(sys.argv[1], 'user.testgate', b'1')",
                path.to_str().unwrap(),
            ],
            Path::new("/"),
            Duration::from_secs(30),
        )
        .is_some()
    }

    #[test]
    fn node_modules_shims_and_their_targets_are_watched() {
        let dir = tree();
        let root = dir.path();
        fs::write(root.join("package.json"), "{}").unwrap();
        fs::create_dir_all(root.join("node_modules/jest/bin")).unwrap();
        fs::create_dir_all(root.join("node_modules/.pnpm/real/bin")).unwrap();
        fs::create_dir_all(root.join("node_modules/.bin")).unwrap();
        fs::write(root.join("node_modules/jest/bin/jest.js"), "jest").unwrap();
        fs::write(root.join("node_modules/jest/index.js"), "lib").unwrap();
        fs::write(root.join("node_modules/.pnpm/real/bin/v.js"), "vitest").unwrap();
        std::os::unix::fs::symlink(".pnpm/real", root.join("node_modules/vitest")).unwrap();
        std::os::unix::fs::symlink("../jest/bin/jest.js", root.join("node_modules/.bin/jest"))
            .unwrap();
        std::os::unix::fs::symlink("../vitest/bin/v.js", root.join("node_modules/.bin/vitest"))
            .unwrap();
        let snap = Snapshot::take(root, false).unwrap();
        fs::write(root.join("node_modules/jest/index.js"), "not watched").unwrap();
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
        fs::write(root.join("node_modules/jest/bin/jest.js"), "planted").unwrap();
        fs::write(root.join("node_modules/.pnpm/real/bin/v.js"), "planted").unwrap();
        let change = snap.compare();
        assert_eq!(
            paths(&change.changed),
            [
                "node_modules/.pnpm/real/bin/v.js",
                "node_modules/jest/bin/jest.js"
            ]
        );
        // A preparation (`npm ci`) may rewrite them: that is its job.
        assert!(snap.compare_preparation().is_empty());
        let again = snap.retake().unwrap();
        assert!(again.compare().is_empty());
    }

    #[test]
    fn a_tree_deeper_than_path_max_is_recorded_and_beyond_the_limit_refused() {
        let dir = tree();
        // 40 levels of 200-byte names (8 KB of path), made bottom-up so that
        // no path handed to the kernel exceeds PATH_MAX.
        let mut short = dir.path().join("deep");
        for _ in 0..40 {
            short.push("x");
        }
        fs::create_dir_all(&short).unwrap();
        fs::write(short.join("test_deep.py"), "assert False\n").unwrap();
        let long = "d".repeat(200);
        for level in (1..=40).rev() {
            let mut at = dir.path().join("deep");
            for _ in 0..level {
                at.push("x");
            }
            fs::rename(&at, at.with_file_name(&long)).unwrap();
        }
        let snap = Snapshot::take(dir.path(), false).unwrap();
        let deep = snap
            .files
            .keys()
            .find(|p| p.ends_with("test_deep.py"))
            .expect("the deep file is recorded");
        assert!(deep.as_os_str().len() > 4096);
        let shallow = Limits {
            depth: 10,
            ..Limits::default()
        };
        let refused = Snapshot::take_within(dir.path(), false, shallow, None).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("lies more than 10 folders deep"),
            "{refused}"
        );
    }

    #[test]
    fn hashing_is_bounded_and_cancellable() {
        let dir = tree();
        // 20 GiB, sparse: compared by its status, never read.
        let big = fs::File::create(dir.path().join("big.bin")).unwrap();
        big.set_len(20 << 30).unwrap();
        let small_budget = Limits {
            hashed_total_bytes: 1024,
            ..Limits::default()
        };
        let snap = Snapshot::take_within(dir.path(), false, small_budget.clone(), None).unwrap();
        assert!(snap.compare().is_empty());
        big.set_len(20 << 30).unwrap();
        drop(big);
        fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join("big.bin"))
            .unwrap();
        let touched = fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join("big.bin"))
            .unwrap();
        touched.set_len((20 << 30) + 1).unwrap();
        assert_eq!(paths(&snap.compare().changed), ["big.bin"]);

        let tiny = Limits {
            hashed_total_bytes: 8,
            ..Limits::default()
        };
        let error = Snapshot::take_within(dir.path(), false, tiny, None).unwrap_err();
        assert!(
            matches!(error, SnapshotError::TooLarge { limit: 8 }),
            "{error}"
        );
        let few = Limits {
            entries: 2,
            ..Limits::default()
        };
        let error = Snapshot::take_within(dir.path(), false, few, None).unwrap_err();
        assert_eq!(error.to_string(), "the tree holds more than 2 entries");
        let no_time = Limits {
            time: Duration::ZERO,
            ..Limits::default()
        };
        let error = Snapshot::take_within(dir.path(), false, no_time, None).unwrap_err();
        assert!(matches!(error, SnapshotError::OverTime { .. }), "{error}");
        let cancel = Cancel::new();
        cancel.cancel();
        let error =
            Snapshot::take_within(dir.path(), false, Limits::default(), Some(cancel)).unwrap_err();
        assert!(matches!(error, SnapshotError::Cancelled), "{error}");
    }

    #[test]
    fn a_preparation_may_fill_new_folders_but_not_plant_beside_the_tests() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), false).unwrap();
        let store = dir.path().join("cargo-home/registry/src/itoa-1.0.1");
        fs::create_dir_all(store.join("tests")).unwrap();
        fs::write(store.join("tests/test.rs"), "#[test] fn t() {}").unwrap();
        fs::write(store.join("build.rs"), "fn main() {}").unwrap();
        assert!(snap.compare_preparation().is_empty());
        assert!(!snap.compare().is_empty(), "an attempt may not");
        fs::write(dir.path().join("tests/conftest.py"), "").unwrap();
        assert_eq!(
            paths(&snap.compare_preparation().added),
            ["tests/conftest.py"]
        );
    }

    #[test]
    fn a_file_rewritten_with_its_own_bytes_is_unchanged() {
        let dir = tree();
        let snap = Snapshot::take(dir.path(), false).unwrap();
        fs::write(dir.path().join("lib.py"), "x = 1\n").unwrap();
        assert!(snap.compare().is_empty(), "{:?}", snap.compare());
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

    /// What pytest-benchmark, coverage and pytest's cache write at their
    /// place, and a new empty folder, cost nothing and are put back; a
    /// file that runs later still counts inside them, and a name like a
    /// test still counts outside them.
    #[test]
    fn tool_output_and_empty_folders_cost_nothing_and_are_put_back() {
        let dir = tree();
        let root = dir.path();
        fs::write(root.join("pyproject.toml"), "[project]\n").unwrap();
        fs::create_dir_all(root.join(".pytest_cache/v/cache")).unwrap();
        fs::write(root.join(".pytest_cache/v/cache/lastfailed"), "{}").unwrap();
        let snap = Snapshot::take(root, true).unwrap();
        fs::create_dir_all(root.join(".benchmarks")).unwrap();
        fs::create_dir_all(root.join("build/empty")).unwrap();
        fs::create_dir_all(root.join("htmlcov")).unwrap();
        fs::write(root.join("htmlcov/test_lib_py.html"), "<html>").unwrap();
        fs::write(root.join(".coverage"), "sqlite").unwrap();
        fs::write(
            root.join(".pytest_cache/v/cache/lastfailed"),
            "{\"tests/a_test.py\": true}",
        )
        .unwrap();
        let change = snap.compare();
        assert!(change.is_empty(), "{change:?}");
        assert_eq!(
            paths(&change.incidental),
            [
                ".benchmarks",
                ".coverage",
                ".pytest_cache/v/cache/lastfailed",
                "build",
                "htmlcov"
            ]
        );
        assert!(
            change
                .incidental_note()
                .is_some_and(|n| n.contains(".benchmarks, .coverage")),
            "{change:?}"
        );
        assert_eq!(snap.put_back(&change), Ok(5));
        assert_eq!(
            fs::read_to_string(root.join(".pytest_cache/v/cache/lastfailed")).unwrap(),
            "{}"
        );
        assert!(!root.join(".benchmarks").exists() && !root.join("htmlcov").exists());

        // Where it must not fire: what pytest reads as configuration or
        // code inside the cache, bytecode, and a test's name away from a
        // tool's place.
        fs::create_dir_all(root.join(".benchmarks")).unwrap();
        fs::write(root.join(".pytest_cache/conftest.py"), "import os\n").unwrap();
        fs::write(root.join(".pytest_cache/pytest.ini"), "[pytest]\n").unwrap();
        fs::create_dir_all(root.join(".hypothesis/__pycache__")).unwrap();
        fs::write(root.join(".hypothesis/__pycache__/x.pyc"), "forged").unwrap();
        fs::create_dir_all(root.join("lib/htmlcov")).unwrap();
        fs::write(root.join("lib/htmlcov/test_x.py"), "def test(): pass\n").unwrap();
        let change = snap.compare();
        assert_eq!(
            paths(&change.added),
            [
                ".hypothesis/__pycache__",
                ".hypothesis/__pycache__/x.pyc",
                ".pytest_cache/conftest.py",
                ".pytest_cache/pytest.ini",
                "lib/htmlcov/test_x.py"
            ]
        );
        let reason = change.reason(1);
        assert!(
            reason.contains(".pytest_cache/conftest.py (added, runs later on the host)"),
            "{reason}"
        );
        assert!(
            reason.contains(".hypothesis/__pycache__/x.pyc (added, bytecode an import reads)"),
            "{reason}"
        );
        assert!(
            reason.contains("lib/htmlcov/test_x.py (added, named like a test)"),
            "{reason}"
        );
        assert_eq!(paths(&change.incidental), [".benchmarks"]);
        assert!(snap.put_back(&change).is_ok());
        assert!(snap.compare().is_untouched());
    }

    /// Every change is put back, whatever it costs: a new folder with what
    /// it holds (a dependency folder a runner would not be walked in
    /// included), a deleted folder with its files, a mode.
    #[test]
    fn put_back_leaves_the_tree_as_submitted() {
        let dir = tree();
        let root = dir.path();
        fs::create_dir_all(root.join("docs/deep")).unwrap();
        fs::write(root.join("docs/deep/a.md"), "a").unwrap();
        let snap = Snapshot::take(root, true).unwrap();
        let before = snap.digest();
        fs::remove_dir_all(root.join("docs")).unwrap();
        fs::create_dir_all(root.join("gen/pkg/node_modules/x")).unwrap();
        fs::write(root.join("gen/pkg/package.json"), "{}").unwrap();
        fs::write(root.join("gen/pkg/node_modules/x/index.js"), "").unwrap();
        fs::set_permissions(root.join("tests"), fs::Permissions::from_mode(0o700)).unwrap();
        let change = snap.compare();
        assert!(!change.is_empty());
        assert_eq!(snap.put_back(&change).map(|_| ()), Ok(()));
        assert!(!root.join("gen").exists());
        assert_eq!(
            fs::read_to_string(root.join("docs/deep/a.md")).unwrap(),
            "a"
        );
        assert_eq!(Snapshot::take(root, false).unwrap().digest(), before);
    }

    /// A file too large to copy cannot be put back: said, never silent; and
    /// the digest does not bind its content, which `unbound` names.
    #[test]
    fn what_cannot_be_put_back_is_said_and_what_is_not_hashed_is_named() {
        let dir = tree();
        let root = dir.path();
        fs::write(root.join("big.bin"), "0123456789".repeat(4)).unwrap();
        let small = Limits {
            hashed_file_bytes: 16,
            ..Limits::default()
        };
        let snap = Snapshot::take_within(root, true, small, None).unwrap();
        assert_eq!(snap.unbound(), [Path::new("big.bin")]);
        fs::write(root.join("big.bin"), "9876543210".repeat(4)).unwrap();
        let change = snap.compare();
        assert_eq!(paths(&change.changed), ["big.bin"]);
        let error = snap.put_back(&change).unwrap_err();
        assert!(error.contains("big.bin (over the"), "{error}");
    }

    #[test]
    fn pairing_in_one_pass_is_what_a_lookup_per_entry_gives() {
        // Path order is not byte order: `a/b` sorts before `a.b` and
        // `a-b`, and a folder's entries before a sibling named after it.
        let paths = ["a", "a/b", "a.b", "a-b", "a-b/c", "ab", "b", "b/a"];
        // Every path in neither map, in one, or in both.
        for mask in 0u32..(1 << (2 * paths.len())) {
            let pick = |shift: usize| -> BTreeMap<PathBuf, usize> {
                paths
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> (2 * i + shift) & 1 == 1)
                    .map(|(i, p)| (PathBuf::from(p), i + 100 * shift))
                    .collect()
            };
            let (now, recorded) = (pick(0), pick(1));
            let (pairs, gone) = paired(&now, &recorded);
            let looked_up: Vec<_> = now
                .iter()
                .map(|(rel, entry)| (rel, entry, recorded.get(rel)))
                .collect();
            let lacking: Vec<_> = recorded
                .iter()
                .filter(|(rel, _)| !now.contains_key(*rel))
                .collect();
            assert_eq!(pairs, looked_up, "{now:?} {recorded:?}");
            assert_eq!(gone, lacking, "{now:?} {recorded:?}");
        }
    }
}
