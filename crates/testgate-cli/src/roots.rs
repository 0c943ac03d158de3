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

/// Why the canonical folder `canonical` is a system folder, or None.
fn system_folder(canonical: &Path) -> Option<String> {
    if let Some(tree) = SYSTEM_TREES.iter().find(|t| canonical.starts_with(t)) {
        return Some(format!(
            "{} is in the system folder {tree}",
            canonical.display()
        ));
    }
    SYSTEM_FOLDERS
        .iter()
        .any(|f| canonical == Path::new(f))
        .then(|| format!("{} is a system folder", canonical.display()))
}

impl Roots {
    /// The roots `given` (canonical), or the current directory `cwd` when
    /// none is given; each must be a folder, neither the host's root, a
    /// home, a folder holding one ([`testgate::project_dir`]) nor a system
    /// folder.
    pub(crate) fn new(given: &[PathBuf], cwd: &Path) -> Result<Roots, String> {
        let given = if given.is_empty() {
            vec![cwd.to_path_buf()]
        } else {
            given.iter().map(|r| cwd.join(r)).collect()
        };
        let mut roots = Vec::new();
        for root in given {
            let canonical = testgate::project_dir(&root)
                .map_err(|e| format!("cannot serve {} (--root): {e}", root.display()))?;
            if let Some(why) = system_folder(&canonical) {
                return Err(format!(
                    "cannot serve {} (--root): {why}; give the folder that holds the projects",
                    root.display()
                ));
            }
            roots.push(canonical);
        }
        Ok(Roots(roots))
    }

    /// Whether the canonical folder `canonical` may be a check's
    /// workspace: in one of the roots, and no system folder; or why not.
    pub(crate) fn admit(&self, canonical: &Path) -> Result<(), String> {
        if let Some(why) = system_folder(canonical) {
            return Err(format!("refusing the workspace: {why}"));
        }
        if self.0.iter().any(|root| canonical.starts_with(root)) {
            return Ok(());
        }
        let roots: Vec<String> = self.0.iter().map(|r| r.display().to_string()).collect();
        Err(format!(
            "refusing the workspace {}: it is not in the folders this server was started \
             for ({}; `testgate mcp --root DIR` adds one)",
            canonical.display(),
            roots.join(", ")
        ))
    }
}
