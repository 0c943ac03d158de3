//! What the sandbox covers beyond a read-only `/`: the parts of `/proc`
//! that root could write or should not read, and the project's git
//! directories and installed folders, which host tools run code from.

use std::path::{Path, PathBuf};

use crate::project_file::read_project_file;
use crate::toolchain::{Installed, InstalledPart, Toolchain};

/// `/proc` entries bound read-only over themselves after `--proc`, as
/// runc and Docker do (their `readonlyPaths`). Sysctls check euid 0, not a
/// capability, so without this the sandbox's root writes the host's
/// `kernel.core_pattern`. bwrap's own cover of `/proc/sys` applies only
/// when `access(W_OK)` succeeds on it beforehand, which it does not when
/// the host's `/proc` is itself read-only. Bound with `--ro-bind-try`: an
/// entry this kernel lacks is skipped.
pub(crate) const PROC_READ_ONLY: [&str; 8] = [
    "/proc/sys",
    "/proc/sysrq-trigger",
    "/proc/irq",
    "/proc/bus",
    "/proc/fs",
    "/proc/acpi",
    "/proc/scsi",
    // PSI triggers: a write registers a host-wide monitor.
    "/proc/pressure",
];

/// `/proc` files hidden behind `/dev/null` (Docker's `maskedPaths` that are
/// files): kernel memory, the keys visible to uid 0, timers and scheduler
/// state of the whole host.
const PROC_MASKED: [&str; 7] = [
    "/proc/kcore",
    "/proc/keys",
    "/proc/key-users",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/latency_stats",
    "/proc/sched_debug",
];

/// The most a `.git` file or a `commondir` file may hold.
const GIT_LINK_LIMIT: u64 = 64 * 1024;

/// Paths the bwrap command line covers for a run in a given directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Protected {
    /// Entries of [`PROC_MASKED`] this kernel has (a mask needs its target
    /// to exist: bwrap cannot create a file in `/proc`).
    pub(crate) proc_masked: Vec<PathBuf>,
    /// The repository's `.git` (directory or file) and the directories a
    /// `.git` file leads to, bound read-only.
    pub(crate) git: Vec<PathBuf>,
    /// The project's folders the host installs into or builds in and runs
    /// from later ([`host_folders`]), bound read-only (under Landlock,
    /// watched: [`crate::installed`]).
    pub(crate) host_folders: Vec<PathBuf>,
    /// The whole project bound read-only ([`crate::ProjectWrites::Nothing`]).
    pub(crate) project_read_only: bool,
    /// Folders inside [`Protected::host_folders`] that a tool writes while
    /// it runs and never runs code from afterwards ([`Toolchain::scratch`]): writable,
    /// a fresh tmpfs each under bubblewrap.
    pub(crate) scratch: Vec<PathBuf>,
    /// Folders inside [`Protected::host_folders`] that a tool writes data
    /// to while it runs and reads only data from later ([`Toolchain::data_caches`]):
    /// read-only under bubblewrap, left out of Landlock's watch.
    pub(crate) data_caches: Vec<PathBuf>,
}

/// Whether `path` is a regular file (not through a link).
fn is_file(path: &Path) -> bool {
    path.symlink_metadata().is_ok_and(|m| m.is_file())
}

/// What to cover for a run in `dir` (absolute, canonical) that may write
/// `writes` of it, whose command may use `toolchains`.
pub(crate) fn protected(
    dir: &Path,
    writes: crate::ProjectWrites,
    toolchains: &[Toolchain],
) -> Protected {
    use crate::ProjectWrites;
    let host_folders = match writes {
        ProjectWrites::AllButInstalled => host_folders(dir, toolchains),
        ProjectWrites::All | ProjectWrites::Nothing => Vec::new(),
    };
    // Only where the folder lies beside its manifest (npm's `node_modules`
    // beside a `package.json`): the tree check leaves such a folder out,
    // so the folder made is no change.
    let parts = |parts: fn(&Toolchain) -> &'static [InstalledPart]| {
        let host_folders = &host_folders;
        toolchains
            .iter()
            .flat_map(parts)
            .flat_map(move |part| {
                host_folders.iter().filter_map(move |folder| {
                    let beside = folder.file_name() == Some(part.installed.as_ref())
                        && folder
                            .parent()
                            .is_some_and(|up| is_file(&up.join(part.beside)));
                    beside.then(|| folder.join(part.path))
                })
            })
            .collect::<Vec<PathBuf>>()
    };
    let data_caches = parts(|t| t.data_caches);
    let scratch = parts(|t| t.scratch)
        .into_iter()
        .filter(|path| {
            // Made in a real folder (the walk followed no link), never
            // through a link planted at the name.
            let _ = std::fs::create_dir(path);
            path.symlink_metadata().is_ok_and(|m| m.is_dir())
        })
        .collect();
    Protected {
        scratch,
        data_caches,
        project_read_only: writes == ProjectWrites::Nothing,
        proc_masked: PROC_MASKED
            .iter()
            .map(PathBuf::from)
            .filter(|path| path.symlink_metadata().is_ok())
            .collect(),
        git: git_paths(dir),
        host_folders,
    }
}

/// How deep below the project a folder of the host's is looked for: its
/// top (`.venv`, `node_modules`, `target`) and a workspace's members two
/// folders down (`packages/web/node_modules`, `services/api/.venv`).
const HOST_FOLDER_DEPTH: usize = 3;

/// The most folders the look lists: a bound on its cost in a huge tree.
const HOST_FOLDER_WALK: usize = 4096;

/// The folders of the project `dir` (absolute, canonical) that the host's
/// tools install into or build in, and run code from afterwards: each of
/// `toolchains`' [`Installed`] (a virtual environment, a folder holding
/// `pyvenv.cfg`, or conda's `conda-meta`; `node_modules`; `target` beside
/// a `Cargo.toml`). A plant there (a
/// `.pth` in `site-packages`, a test binary in `target/debug/deps`) would
/// run in the host's next `python` or `cargo test`, so the sandbox shows
/// them read-only (bubblewrap; under Landlock they are recorded and
/// compared instead, [`crate::installed`]). Looked for [`HOST_FOLDER_DEPTH`] folders deep at most,
/// listing at most [`HOST_FOLDER_WALK`] folders; links are not followed
/// and `.git` is not entered. Sorted, outermost only.
pub(crate) fn host_folders(dir: &Path, toolchains: &[Toolchain]) -> Vec<PathBuf> {
    let is_dir = |path: &Path| path.symlink_metadata().is_ok_and(|m| m.is_dir());
    let mut found = Vec::new();
    let mut queue = std::collections::VecDeque::from([(dir.to_path_buf(), 0usize)]);
    let mut listed = 0usize;
    while let Some((folder, depth)) = queue.pop_front() {
        if listed == HOST_FOLDER_WALK {
            break;
        }
        listed += 1;
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            // A link is not a folder here: `file_type` does not follow it.
            if !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                continue;
            }
            let path = entry.path();
            let name = entry.file_name();
            let installed = toolchains
                .iter()
                .flat_map(|t| t.installed)
                .any(|installed| match *installed {
                    Installed::Named(named) => name == named,
                    Installed::Beside {
                        name: named,
                        manifest,
                    } => name == named && is_file(&folder.join(manifest)),
                    Installed::HoldingFile(file) => is_file(&path.join(file)),
                    Installed::HoldingFolder(inner) => is_dir(&path.join(inner)),
                });
            if installed {
                found.push(path);
            } else if name != ".git" && depth + 1 < HOST_FOLDER_DEPTH {
                queue.push_back((path, depth + 1));
            }
        }
    }
    found.sort();
    found
}

/// The `.git` that git would use in `dir` — the first one in `dir` or an
/// ancestor — and, when it is a file (`gitdir: …`, as in a linked worktree
/// or a submodule), the git directory it names and that directory's
/// `commondir` (a worktree's main repository), all canonical. Hooks,
/// `core.fsmonitor` and aliases in any of them run on the host later.
///
/// The `.git` file is read as the tests may have left it (between
/// attempts), so through [`read_project_file`]; a directory it names counts
/// only if it looks like a git directory (holds `HEAD`), so that a planted
/// `gitdir: /` cannot make the run's own directory read-only.
pub(crate) fn git_paths(dir: &Path) -> Vec<PathBuf> {
    let Some(dot_git) = dir
        .ancestors()
        .map(|d| d.join(".git"))
        .find(|p| p.symlink_metadata().is_ok())
    else {
        return Vec::new();
    };
    let Ok(real) = dot_git.canonicalize() else {
        return Vec::new();
    };
    // A `.git` symlink is followed like a `.git` file: to a git directory
    // only (a planted `.git -> /` must not make the run's directory
    // read-only). The link itself cannot be covered by a mount.
    let is_link = dot_git
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    if is_link && real.is_dir() && real.join("HEAD").symlink_metadata().is_err() {
        return Vec::new();
    }
    let mut paths = vec![real.clone()];
    if real.is_file() {
        let base = real.parent().unwrap_or(Path::new("/"));
        if let Some(git_dir) = linked_dir(&real, base, "gitdir: ") {
            paths.push(git_dir.clone());
            if let Some(common) = linked_dir(&git_dir.join("commondir"), &git_dir, "") {
                paths.push(common);
            }
        }
    } else if let Some(common) = linked_dir(&real.join("commondir"), &real, "") {
        paths.push(common);
    }
    paths.dedup();
    paths
}

/// The git directory named in the file `link` after `prefix` (relative
/// paths from `base`), if it is one.
fn linked_dir(link: &Path, base: &Path, prefix: &str) -> Option<PathBuf> {
    let bytes = read_project_file(link, GIT_LINK_LIMIT).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    let named = text.lines().next()?.strip_prefix(prefix)?.trim();
    if named.is_empty() {
        return None;
    }
    let dir = base.join(named).canonicalize().ok()?;
    let looks_like_git = dir.join("HEAD").symlink_metadata().is_ok();
    (dir.is_dir() && looks_like_git).then_some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn canonical(path: &Path) -> PathBuf {
        path.canonicalize().expect("canonical")
    }

    #[test]
    fn a_plain_repository_protects_its_git_directory_from_any_subdirectory() {
        let root = tempfile::tempdir().expect("tempdir");
        let repo = canonical(root.path());
        fs::create_dir_all(repo.join(".git")).expect("mkdir .git");
        fs::write(repo.join(".git/HEAD"), "ref: refs/heads/main\n").expect("HEAD");
        fs::create_dir_all(repo.join("crates/a")).expect("mkdir sub");
        assert_eq!(git_paths(&repo), [repo.join(".git")]);
        assert_eq!(git_paths(&repo.join("crates/a")), [repo.join(".git")]);
    }

    #[test]
    fn a_worktree_protects_its_git_file_its_git_dir_and_the_common_dir() {
        let root = tempfile::tempdir().expect("tempdir");
        let root = canonical(root.path());
        let main_git = root.join("main/.git");
        let linked = main_git.join("worktrees/wt");
        fs::create_dir_all(&linked).expect("mkdir");
        fs::write(main_git.join("HEAD"), "ref: refs/heads/main\n").expect("HEAD");
        fs::write(linked.join("HEAD"), "ref: refs/heads/wt\n").expect("HEAD");
        fs::write(linked.join("commondir"), "../..\n").expect("commondir");
        let wt = root.join("wt");
        fs::create_dir_all(&wt).expect("mkdir wt");
        fs::write(wt.join(".git"), format!("gitdir: {}\n", linked.display())).expect(".git");
        assert_eq!(
            git_paths(&wt),
            [wt.join(".git"), linked.clone(), main_git.clone()]
        );
        // A relative gitdir (submodules write those) resolves from the file.
        fs::write(wt.join(".git"), "gitdir: ../main/.git/worktrees/wt\n").expect(".git");
        assert_eq!(git_paths(&wt), [wt.join(".git"), linked, main_git]);
    }

    #[test]
    fn a_git_file_naming_no_git_directory_protects_only_itself() {
        let root = tempfile::tempdir().expect("tempdir");
        let dir = canonical(root.path());
        for named in ["/", "/etc", "missing", ""] {
            fs::write(dir.join(".git"), format!("gitdir: {named}\n")).expect(".git");
            assert_eq!(git_paths(&dir), [dir.join(".git")], "gitdir: {named}");
        }
        fs::write(dir.join(".git"), "not a link\n").expect(".git");
        assert_eq!(git_paths(&dir), [dir.join(".git")]);
        fs::remove_file(dir.join(".git")).expect("rm .git");
        std::os::unix::fs::symlink("/", dir.join(".git")).expect("symlink");
        assert_eq!(git_paths(&dir), Vec::<PathBuf>::new());
    }

    /// The worktree this crate is built in, when it is one (`/work/wt/*`
    /// are): its git directory and the main repository are found.
    #[test]
    fn this_checkout_is_protected() {
        let here = canonical(Path::new(env!("CARGO_MANIFEST_DIR")));
        let paths = git_paths(&here);
        let Some(first) = paths.first() else {
            return; // not built from a git checkout (a packaged crate)
        };
        assert_eq!(first.file_name(), Some(".git".as_ref()));
        if first.is_file() {
            assert_eq!(paths.len(), 3, "{paths:?}");
            assert!(paths[2].join("config").is_file(), "{paths:?}");
        }
    }

    #[test]
    fn venvs_node_modules_and_cargo_targets_are_the_hosts_folders() {
        let root = tempfile::tempdir().expect("tempdir");
        let dir = canonical(root.path());
        let folder = |rel: &str| {
            fs::create_dir_all(dir.join(rel)).expect("mkdir");
            dir.join(rel)
        };
        let file = |rel: &str| fs::write(dir.join(rel), "").expect("write");
        folder(".venv/lib/python3.11/site-packages");
        file(".venv/pyvenv.cfg");
        folder("envs/conda/conda-meta");
        folder("node_modules/jest");
        folder("packages/web/node_modules/.bin");
        folder("target/debug");
        file("Cargo.toml");
        // Where it must not fire: a `target` beside no manifest, a `venv`
        // without `pyvenv.cfg`, a link, too deep, inside `.git`.
        folder("docs/target");
        folder("venv/bin");
        folder("a/b/c/node_modules");
        folder(".git/node_modules");
        std::os::unix::fs::symlink("/usr", dir.join("docs/node_modules")).expect("symlink");
        assert_eq!(
            host_folders(&dir, &crate::toolchain::FOR_TESTS),
            [
                dir.join(".venv"),
                dir.join("envs/conda"),
                dir.join("node_modules"),
                dir.join("packages/web/node_modules"),
                dir.join("target"),
            ]
        );
        // The folders are the toolchains' the caller names: none, none.
        assert!(host_folders(&dir, &[]).is_empty());
    }

    #[test]
    fn proc_masks_are_only_what_this_kernel_has() {
        let masked = protected(Path::new("/"), crate::ProjectWrites::All, &[]).proc_masked;
        assert!(masked.iter().all(|p| p.symlink_metadata().is_ok()));
        assert!(
            masked.contains(&PathBuf::from("/proc/kcore")) || !Path::new("/proc/kcore").exists()
        );
    }
}
