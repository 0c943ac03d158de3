//! A project's private state beside its private caches: the folder where
//! the facade keeps what earlier checks learnt of the project's tree.

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// The folder of a project's tree record in testgate's private state,
/// `<cache root>/<project>/tree-record` (docs/sandbox.md, "The tree is the
/// tree"): root's own (mode 0700), never bound into a sandbox (only the
/// private caches' subfolders are; the root of every project's caches is
/// hidden), removed with the project's caches when the project is gone or
/// the root is over its cap, and held against that eviction while the
/// value lives.
#[derive(Debug)]
pub struct PrivateState {
    dir: PathBuf,
    _claim: crate::evict::InUse,
}

impl PrivateState {
    /// The tree record folder of the project at `project` (canonicalised
    /// first, as the sandbox names its caches), made when missing and
    /// claimed; an error when there is no cache root or it cannot be made.
    pub fn open(project: &Path) -> std::io::Result<PrivateState> {
        let project = project.canonicalize()?;
        let homes = crate::env::home_directories();
        let root = crate::sandboxed::cache_root(&homes)
            .ok_or_else(|| std::io::Error::other("no cache directory"))?;
        if project.starts_with(&root) {
            return Err(std::io::Error::other("the project lies in the cache root"));
        }
        let mine = root.join(crate::host_view::cache_name(&project));
        let dir = mine.join("tree-record");
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)?;
        let claim = crate::evict::claim(&mine)?;
        Ok(PrivateState { dir, _claim: claim })
    }

    /// The folder (it exists).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Removes what earlier checks learnt of the project at `project`:
    /// after a check whose tests ran on the host, unsandboxed, and could
    /// have written it. Nothing learnt then reaches a later check.
    pub fn forget(project: &Path) -> std::io::Result<()> {
        let state = PrivateState::open(project)?;
        // std's removal opens each folder by descriptor and follows no link.
        std::fs::remove_dir_all(&state.dir)
    }
}
