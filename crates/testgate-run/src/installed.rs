//! The project's installed folders under Landlock: recorded before the
//! command starts, walked again once every process of the run is gone;
//! what was added is removed, what changed or vanished is reported.
//!
//! Bubblewrap binds the installed folders ([`crate::protect::host_folders`])
//! read-only. Landlock can only add rights, and a folder's rights hold for
//! everything beneath it: protecting them would take the right to create
//! anything at the project's top (jest's `coverage/`, coverage's
//! `.coverage`), which costs honest projects their verdict. So the project
//! stays writable whole, and the kernel's record of each entry (device,
//! inode, kind, mode, size, modification and status-change time, which no
//! process can set back) is compared instead. An entry's bytes are not
//! copied: a change cannot be put back, only reported.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::dir::{Dir, EntryKind, EntryStat};
use crate::project_file::ProjectDir;

/// What a run did in the project's installed folders (under Landlock;
/// bubblewrap shows them read-only, and this stays empty). Paths are
/// relative to the run's directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InstalledChange {
    /// Entries the command added, removed after the run.
    pub removed: Vec<PathBuf>,
    /// Entries the command added that could not be removed.
    pub left: Vec<PathBuf>,
    /// Recorded entries whose inode, kind, mode, size, modification or
    /// status-change time changed. Not copied, so not put back.
    pub changed: Vec<PathBuf>,
    /// Recorded entries that are gone. Not copied, so not put back.
    pub vanished: Vec<PathBuf>,
    /// Installed folders that could not be walked whole after the run, and
    /// why: what the command did there is not known.
    pub unknown: Vec<(PathBuf, String)>,
}

impl InstalledChange {
    /// Whether the command touched no installed folder.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty()
            && self.left.is_empty()
            && self.changed.is_empty()
            && self.vanished.is_empty()
            && self.unknown.is_empty()
    }

    /// Whether what the command did is still there for the host to run:
    /// anything but additions that were removed.
    pub fn left_for_the_host(&self) -> bool {
        !(self.left.is_empty()
            && self.changed.is_empty()
            && self.vanished.is_empty()
            && self.unknown.is_empty())
    }
}

/// The bounds of one walk of the installed folders (all of them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// The most entries recorded.
    pub(crate) entries: usize,
    /// The longest the walk may take.
    pub(crate) time: Duration,
    /// The deepest folder walked, counted from the installed folder.
    pub(crate) depth: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            entries: 1_000_000,
            time: Duration::from_secs(60),
            depth: 256,
        }
    }
}

/// The installed folders of a run as they were before it started.
#[derive(Debug)]
pub(crate) struct Recorded {
    dir: PathBuf,
    /// Each folder (relative to `dir`) and its entries, the folder itself
    /// included, by path relative to `dir`.
    folders: Vec<(PathBuf, BTreeMap<PathBuf, EntryStat>)>,
    /// Paths left out of the walk (scratch folders the command may write).
    skip: Vec<PathBuf>,
    bounds: Bounds,
}

/// Records `folders` (absolute, beneath `dir`, canonical) but `skip` (the
/// scratch folders granted writable), within `bounds`. A folder that does
/// not fit is not watched, and a note says so.
pub(crate) fn record(
    dir: &Path,
    folders: &[PathBuf],
    skip: &[PathBuf],
    bounds: Bounds,
) -> (Recorded, Vec<String>) {
    let relative = |path: &PathBuf| path.strip_prefix(dir).ok().map(Path::to_path_buf);
    let skip: Vec<PathBuf> = skip.iter().filter_map(relative).collect();
    let mut budget = Budget::new(bounds);
    let mut notes = Vec::new();
    let mut recorded = Vec::new();
    for folder in folders.iter().filter_map(relative) {
        let mut entries = BTreeMap::new();
        match walk_folder(dir, &folder, &skip, &mut budget, &mut entries) {
            Ok(()) => recorded.push((folder, entries)),
            Err(why) => notes.push(format!(
                "the installed folder {} is not watched ({why}): a change the command makes there \
                 is not seen",
                folder.display()
            )),
        }
    }
    let recorded = Recorded {
        dir: dir.to_path_buf(),
        folders: recorded,
        skip,
        bounds,
    };
    (recorded, notes)
}

impl Recorded {
    /// Walks the folders again (every process of the run gone), removes
    /// what was added, through [`ProjectDir`] (no link followed), and says
    /// what changed or vanished.
    pub(crate) fn compare(&self) -> InstalledChange {
        let mut change = InstalledChange::default();
        let mut budget = Budget::new(self.bounds);
        let mut added = Vec::new();
        for (folder, before) in &self.folders {
            let mut now = BTreeMap::new();
            if let Err(why) = walk_folder(&self.dir, folder, &self.skip, &mut budget, &mut now) {
                change.unknown.push((folder.clone(), why));
            }
            let walked_whole = change.unknown.last().is_none_or(|(f, _)| f != folder);
            for (path, was) in before {
                match now.get(path) {
                    Some(is) if same(was, is) => {}
                    Some(_) => change.changed.push(path.clone()),
                    None if walked_whole => change.vanished.push(path.clone()),
                    None => {}
                }
            }
            added.extend(
                now.iter()
                    .filter(|(path, _)| !before.contains_key(*path))
                    .map(|(path, stat)| (path.clone(), stat.kind)),
            );
        }
        // Deepest first: paths sort a folder before what it holds.
        added.sort_by(|a, b| b.0.cmp(&a.0));
        let project = ProjectDir::open(&self.dir);
        for (path, kind) in added {
            let removed = match &project {
                Ok(project) if kind == EntryKind::Dir => project.remove_dir(&path),
                Ok(project) => project.remove(&path),
                Err(_) => Ok(false),
            };
            match removed {
                Ok(true) => change.removed.push(path),
                Ok(false) | Err(_) => change.left.push(path),
            }
        }
        change.removed.sort();
        change.left.sort();
        change
    }
}

/// Whether an entry is as recorded. A folder's times and size move with
/// what it holds, which is compared entry by entry: its own inode, kind and
/// mode are.
fn same(was: &EntryStat, is: &EntryStat) -> bool {
    let own = was.dev == is.dev && was.ino == is.ino && was.kind == is.kind && was.mode == is.mode;
    own && (was.kind == EntryKind::Dir
        || (was.size == is.size && was.mtime_ns == is.mtime_ns && was.ctime_ns == is.ctime_ns))
}

/// What is left of a walk's [`Bounds`].
struct Budget {
    entries: usize,
    deadline: Instant,
    bounds: Bounds,
}

impl Budget {
    fn new(bounds: Bounds) -> Budget {
        Budget {
            entries: bounds.entries,
            deadline: Instant::now() + bounds.time,
            bounds,
        }
    }

    /// Takes one entry, or says which bound it passes.
    fn take(&mut self) -> Result<(), String> {
        if self.entries == 0 {
            return Err(format!("more than {} entries", self.bounds.entries));
        }
        if Instant::now() > self.deadline {
            return Err(format!("longer than {} s", self.bounds.time.as_secs()));
        }
        self.entries -= 1;
        Ok(())
    }
}

/// Records the folder `folder` (relative to `dir`) itself and everything
/// beneath it, reached one name at a time without following a link.
fn walk_folder(
    dir: &Path,
    folder: &Path,
    skip: &[PathBuf],
    budget: &mut Budget,
    out: &mut BTreeMap<PathBuf, EntryStat>,
) -> Result<(), String> {
    let failed = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    let mut parent = Dir::open(dir).map_err(|e| failed(dir, e))?;
    let names: Vec<&OsStr> = folder.iter().collect();
    let Some((last, on_the_way)) = names.split_last() else {
        return Err("not beneath the project".to_owned());
    };
    for name in on_the_way {
        parent = parent.open_dir(name).map_err(|e| failed(folder, e))?;
    }
    let stat = parent.stat(last).map_err(|e| failed(folder, e))?;
    budget.take()?;
    out.insert(folder.to_path_buf(), stat);
    if stat.kind != EntryKind::Dir {
        return Err(format!("{} is no longer a folder", folder.display()));
    }
    let opened = parent.open_dir(last).map_err(|e| failed(folder, e))?;
    walk(&opened, folder, 0, skip, budget, out)
}

fn walk(
    dir: &Dir,
    rel: &Path,
    depth: usize,
    skip: &[PathBuf],
    budget: &mut Budget,
    out: &mut BTreeMap<PathBuf, EntryStat>,
) -> Result<(), String> {
    let failed = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    let names = dir
        .names_at_most(budget.entries.saturating_add(1))
        .map_err(|e| failed(rel, e))?;
    for name in names {
        let path = rel.join(&name);
        if skip.contains(&path) {
            continue;
        }
        budget.take()?;
        let stat = match dir.stat(&name) {
            Ok(stat) => stat,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(failed(&path, e)),
        };
        out.insert(path.clone(), stat);
        if stat.kind == EntryKind::Dir {
            if depth + 1 > budget.bounds.depth {
                return Err(format!("deeper than {} folders", budget.bounds.depth));
            }
            let sub = dir.open_dir(&name).map_err(|e| failed(&path, e))?;
            walk(&sub, &path, depth + 1, skip, budget, out)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn project() -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().expect("tempdir");
        let dir = root.path().canonicalize().expect("canonical");
        for rel in [".venv/lib/site-packages", "node_modules/dep", "src"] {
            fs::create_dir_all(dir.join(rel)).expect("mkdir");
        }
        fs::write(dir.join(".venv/pyvenv.cfg"), "home = /usr/bin\n").expect("write");
        fs::write(dir.join(".venv/lib/site-packages/dep.py"), "VALUE = 1\n").expect("write");
        fs::write(dir.join("node_modules/dep/index.js"), "1;\n").expect("write");
        fs::write(dir.join("node_modules/dep/gone.js"), "1;\n").expect("write");
        (root, dir)
    }

    fn folders(dir: &Path) -> Vec<PathBuf> {
        vec![dir.join(".venv"), dir.join("node_modules")]
    }

    #[test]
    fn an_untouched_folder_and_writes_elsewhere_are_no_change() {
        let (_root, dir) = project();
        let (recorded, notes) = record(&dir, &folders(&dir), &[], Bounds::default());
        assert!(notes.is_empty(), "{notes:?}");
        fs::write(dir.join("src/new.py"), "x").expect("write");
        fs::create_dir(dir.join("coverage")).expect("mkdir");
        assert_eq!(recorded.compare(), InstalledChange::default());
    }

    #[test]
    fn additions_are_removed_and_changes_reported() {
        let (_root, dir) = project();
        let (recorded, _) = record(&dir, &folders(&dir), &[], Bounds::default());
        let site = dir.join(".venv/lib/site-packages");
        fs::write(site.join("evil.pth"), "import os\n").expect("plant");
        fs::create_dir_all(site.join("evil/deep")).expect("mkdir");
        fs::write(site.join("evil/deep/x.py"), "").expect("plant");
        std::os::unix::fs::symlink("/etc", site.join("link")).expect("symlink");
        fs::write(site.join("dep.py"), "VALUE = 2\n").expect("rewrite");
        fs::remove_file(dir.join("node_modules/dep/gone.js")).expect("rm");
        let change = recorded.compare();
        let rel = |p: &str| PathBuf::from(p);
        assert_eq!(
            change.removed,
            [
                ".venv/lib/site-packages/evil",
                ".venv/lib/site-packages/evil/deep",
                ".venv/lib/site-packages/evil/deep/x.py",
                ".venv/lib/site-packages/evil.pth",
                ".venv/lib/site-packages/link",
            ]
            .map(rel)
        );
        assert_eq!(change.changed, [rel(".venv/lib/site-packages/dep.py")]);
        assert_eq!(change.vanished, [rel("node_modules/dep/gone.js")]);
        assert!(change.left.is_empty() && change.unknown.is_empty());
        assert!(change.left_for_the_host());
        assert!(!site.join("evil").exists() && !site.join("evil.pth").exists());
        assert!(
            Path::new("/etc").is_dir(),
            "the link was removed, not followed"
        );
    }

    #[test]
    fn a_folder_replaced_by_a_link_is_reported_not_followed() {
        let (_root, dir) = project();
        let (recorded, _) = record(&dir, &folders(&dir), &[], Bounds::default());
        fs::rename(dir.join("node_modules"), dir.join("moved")).expect("mv");
        std::os::unix::fs::symlink(dir.join("moved"), dir.join("node_modules")).expect("ln");
        let change = recorded.compare();
        assert_eq!(change.changed, [PathBuf::from("node_modules")]);
        assert_eq!(change.unknown.len(), 1, "{change:?}");
        assert!(change.removed.is_empty() && change.vanished.is_empty());
    }

    #[test]
    fn over_its_bounds_a_folder_is_said_unwatched_and_a_flood_is_unknown() {
        let (_root, dir) = project();
        let small = Bounds {
            entries: 6,
            ..Bounds::default()
        };
        // .venv: itself, pyvenv.cfg, lib, site-packages, dep.py (5); then
        // node_modules passes the bound.
        let (recorded, notes) = record(&dir, &folders(&dir), &[], small);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("node_modules is not watched"),
            "{notes:?}"
        );
        assert!(notes[0].contains("more than 6 entries"), "{notes:?}");
        for n in 0..3 {
            fs::write(dir.join(format!(".venv/flood-{n}")), "").expect("write");
        }
        let change = recorded.compare();
        assert_eq!(change.unknown.len(), 1, "{change:?}");
        assert!(change.left_for_the_host());
    }

    /// The fixtures' `node_modules` (about 100 MB, after `scripts/setup`),
    /// when present: recorded whole within the default bounds, and walked
    /// again as unchanged. Prints the cost of each walk (docs/scale.md).
    #[test]
    fn a_real_node_modules_is_recorded_whole_and_compares_unchanged() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let Ok(dir) = repo.join("tests/projects/e2e/node").canonicalize() else {
            return;
        };
        let modules = dir.join("node_modules");
        if !modules.is_dir() {
            return; // scripts/setup has not run
        }
        let started = Instant::now();
        let (recorded, notes) = record(&dir, &[modules], &[], Bounds::default());
        let recording = started.elapsed();
        assert!(notes.is_empty(), "{notes:?}");
        let entries: usize = recorded.folders.iter().map(|(_, e)| e.len()).sum();
        let started = Instant::now();
        let change = recorded.compare();
        let comparing = started.elapsed();
        assert_eq!(change, InstalledChange::default());
        eprintln!("{entries} entries: recorded in {recording:?}, compared in {comparing:?}");
    }

    #[test]
    fn a_scratch_folder_is_left_out() {
        let (_root, dir) = project();
        let scratch = dir.join("node_modules/.vite-temp");
        fs::create_dir(&scratch).expect("mkdir");
        let (recorded, _) = record(
            &dir,
            &folders(&dir),
            std::slice::from_ref(&scratch),
            Bounds::default(),
        );
        fs::write(scratch.join("vite.config.mjs"), "").expect("write");
        assert_eq!(recorded.compare(), InstalledChange::default());
        assert!(scratch.join("vite.config.mjs").exists());
    }
}
