//! Files that run later on the host by convention. An attempt that creates
//! or changes one gives `tree_changed` even where git ignores it; the list
//! and what testgate does about each is in docs/sandbox.md.

use std::ffi::OsString;
use std::path::Path;

/// Folders and files under ignored ones that are still walked, because
/// what is in them runs on the host: `node_modules/.bin` shims, `.git/hooks`,
/// and git's configuration (`core.fsmonitor`, `core.hooksPath`, aliases),
/// which only bubblewrap keeps read-only: under Landlock the project's
/// `.git` is writable, and a change there is found here.
pub(crate) const WATCHED_INSIDE_IGNORED: &[&str] = &[
    "node_modules/.bin",
    ".git/hooks",
    ".git/config",
    ".git/config.worktree",
    ".git/info",
];

/// Whether `path` (relative to the workspace) runs later on the host by
/// convention: direnv, editor settings, cargo config and build scripts,
/// npm shims and scripts, make, pre-commit, git hooks.
pub fn runs_on_host(path: &Path) -> bool {
    let text = path.to_string_lossy();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    matches!(
        name.as_str(),
        ".envrc"
            | "build.rs"
            | "Makefile"
            | "makefile"
            | "GNUmakefile"
            | "package.json"
            | ".pre-commit-config.yaml"
            | "conftest.py"
    ) || text.starts_with(".vscode/")
        || text.starts_with(".idea/")
        || text == ".cargo/config.toml"
        || text == ".cargo/config"
        || text.starts_with("node_modules/.bin/")
        || text.starts_with(".git/hooks/")
        || text == ".git/config"
        || text == ".git/config.worktree"
        || text.starts_with(".git/info/")
}

/// The snapshot-update flag in a command or its environment, if any: a
/// gate must not let tests rewrite their own expectations.
pub fn snapshot_update(args: &[OsString], env: &[(OsString, Option<OsString>)]) -> Option<String> {
    let is_js = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a.ends_with("jest") || a.ends_with("vitest")
    });
    for arg in args {
        let a = arg.to_string_lossy();
        let flagged = matches!(
            a.as_ref(),
            "--updateSnapshot"
                | "--update-snapshots"
                | "--update-snapshot"
                | "--snapshot-update"
                | "--snapshot-update-all"
                | "--insta-update"
        ) || a.starts_with("--updateSnapshot=")
            || (is_js && matches!(a.as_ref(), "-u" | "--update" | "-ci=false"));
        if flagged {
            return Some(format!(
                "`{a}` lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it"
            ));
        }
    }
    for (name, value) in env {
        let value = value.as_ref().map(|v| v.to_string_lossy().into_owned());
        if name == "INSTA_UPDATE" && !matches!(value.as_deref(), Some("no" | "0")) {
            return Some(
                "INSTA_UPDATE lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it".to_owned(),
            );
        }
        if name == "UPDATE_SNAPSHOTS" || name == "SNAPSHOT_UPDATE" {
            return Some(format!(
                "{} lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it",
                name.to_string_lossy()
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn host_conventions() {
        for p in [
            ".envrc",
            "a/build.rs",
            ".cargo/config.toml",
            ".vscode/tasks.json",
            "node_modules/.bin/jest",
            ".git/hooks/pre-commit",
            "Makefile",
            "package.json",
            ".pre-commit-config.yaml",
            "tests/conftest.py",
        ] {
            assert!(runs_on_host(Path::new(p)), "{p}");
        }
        assert!(!runs_on_host(Path::new("src/lib.rs")));
    }

    #[test]
    fn snapshot_updates_are_refused() {
        assert!(snapshot_update(&args(&["npx", "jest", "-u"]), &[]).is_some());
        assert!(snapshot_update(&args(&["npx", "vitest", "run", "-u"]), &[]).is_some());
        assert!(snapshot_update(&args(&["npx", "jest", "--updateSnapshot"]), &[]).is_some());
        assert!(snapshot_update(&args(&["pytest", "--snapshot-update"]), &[]).is_some());
        assert!(
            snapshot_update(
                &args(&["cargo", "test"]),
                &[("INSTA_UPDATE".into(), Some("always".into()))]
            )
            .is_some()
        );
        assert!(snapshot_update(&args(&["cargo", "test", "-u"]), &[]).is_none());
        assert!(snapshot_update(&args(&["npx", "jest"]), &[]).is_none());
    }
}
