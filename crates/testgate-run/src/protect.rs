//! What the sandbox covers beyond a read-only `/`: the parts of `/proc`
//! that root could write or should not read, and the project's git
//! directories, which host tools run code from.

use std::path::{Path, PathBuf};

use crate::project_file::read_project_file;

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
}

/// What to cover for a run in `dir` (absolute, canonical).
pub(crate) fn protected(dir: &Path) -> Protected {
    Protected {
        proc_masked: PROC_MASKED
            .iter()
            .map(PathBuf::from)
            .filter(|path| path.symlink_metadata().is_ok())
            .collect(),
        git: git_paths(dir),
    }
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
    fn proc_masks_are_only_what_this_kernel_has() {
        let masked = protected(Path::new("/")).proc_masked;
        assert!(masked.iter().all(|p| p.symlink_metadata().is_ok()));
        assert!(
            masked.contains(&PathBuf::from("/proc/kcore")) || !Path::new("/proc/kcore").exists()
        );
    }
}
