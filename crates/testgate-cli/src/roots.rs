//! The folders `testgate mcp`'s `check` tool may run a project in
//! (`--root`), and the system folders no workspace may be.

use std::path::{Path, PathBuf};

/// The folders a `check` tool's workspace may lie in, canonical.
#[derive(Debug)]
pub(crate) struct Roots(pub(crate) Vec<PathBuf>);

/// Folders no workspace may lie in, whatever the roots: the system's own.
const SYSTEM_TREES: &[&str] = &[
    "/etc",
    "/usr",
    "/boot",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/proc",
    "/sys",
    "/dev",
    "/run",
    "/var/spool",
    "/var/mail",
    "/var/log",
    "/var/cache",
];

/// Folders no workspace or root may be, though a project may lie below.
const SYSTEM_FOLDERS: &[&str] = &[
    "/", "/opt", "/var", "/var/lib", "/srv", "/home", "/tmp", "/mnt", "/media", "/snap",
];

/// A canonical folder that is a system folder, or lies in one.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum SystemFolder {
    /// It lies in one of [`SYSTEM_TREES`].
    #[error("{} is in the system folder {tree}", path.display())]
    InTree {
        /// The folder.
        path: PathBuf,
        /// The system's tree it lies in.
        tree: &'static str,
    },
    /// It is one of [`SYSTEM_FOLDERS`].
    #[error("{} is a system folder", path.display())]
    Is {
        /// The folder.
        path: PathBuf,
    },
}

/// Why a root cannot be served, or a workspace is refused: a one-line
/// message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum RootsError {
    /// A `--root` is no folder testgate would run a project in.
    #[error("cannot serve {} (--root): {source}", root.display())]
    Unservable {
        /// The root as given, from the current directory.
        root: PathBuf,
        /// Why not.
        source: testgate::ProjectRefused,
    },
    /// A `--root` is a system folder.
    #[error(
        "cannot serve {} (--root): {why}; give the folder that holds the projects",
        root.display()
    )]
    SystemRoot {
        /// The root as given, from the current directory.
        root: PathBuf,
        /// Which system folder.
        #[source]
        why: SystemFolder,
    },
    /// A workspace is a system folder.
    #[error("refusing the workspace: {0}")]
    SystemWorkspace(#[source] SystemFolder),
    /// A workspace lies in none of the roots.
    #[error(
        "refusing the workspace {}: it is not in the folders this server was started \
         for ({}; `testgate mcp --root DIR` adds one)",
        workspace.display(),
        roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    OutsideRoots {
        /// The workspace, canonical.
        workspace: PathBuf,
        /// The roots.
        roots: Vec<PathBuf>,
    },
}

/// Which system folder the canonical folder `canonical` is, or lies in;
/// or None.
fn system_folder(canonical: &Path) -> Option<SystemFolder> {
    if let Some(tree) = SYSTEM_TREES.iter().find(|t| canonical.starts_with(t)) {
        return Some(SystemFolder::InTree {
            path: canonical.to_path_buf(),
            tree,
        });
    }
    SYSTEM_FOLDERS
        .iter()
        .any(|f| canonical == Path::new(f))
        .then(|| SystemFolder::Is {
            path: canonical.to_path_buf(),
        })
}

impl Roots {
    /// The roots `given` (canonical), or the current directory `cwd` when
    /// none is given; each must be a folder, neither the host's root, a
    /// home, a folder holding one ([`testgate::project_dir`]) nor a system
    /// folder.
    pub(crate) fn new(given: &[PathBuf], cwd: &Path) -> Result<Roots, RootsError> {
        let given = if given.is_empty() {
            vec![cwd.to_path_buf()]
        } else {
            given.iter().map(|r| cwd.join(r)).collect()
        };
        let mut roots = Vec::new();
        for root in given {
            let canonical = match testgate::project_dir(&root) {
                Ok(canonical) => canonical,
                Err(source) => return Err(RootsError::Unservable { root, source }),
            };
            if let Some(why) = system_folder(&canonical) {
                return Err(RootsError::SystemRoot { root, why });
            }
            roots.push(canonical);
        }
        Ok(Roots(roots))
    }

    /// Whether the canonical folder `canonical` may be a check's
    /// workspace: in one of the roots, and no system folder; or why not.
    pub(crate) fn admit(&self, canonical: &Path) -> Result<(), RootsError> {
        if let Some(why) = system_folder(canonical) {
            return Err(RootsError::SystemWorkspace(why));
        }
        if self.0.iter().any(|root| canonical.starts_with(root)) {
            return Ok(());
        }
        Err(RootsError::OutsideRoots {
            workspace: canonical.to_path_buf(),
            roots: self.0.clone(),
        })
    }
}
