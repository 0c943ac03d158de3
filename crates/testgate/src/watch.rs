//! Files that run later on the host by convention. An attempt that creates
//! or changes one gives `tree_changed` even where git ignores it; the list
//! and what testgate does about each is in docs/sandbox.md.

use std::ffi::OsString;
use std::path::Path;

use testgate_parse::Runner;

use crate::runners::{self, HostFile, Module};

/// Whether `path` (relative to the workspace) runs later, or changes what
/// runs later, by convention, at any depth: direnv, editor settings, make,
/// pre-commit, git (any `.git`, its hooks); and what each toolchain and
/// runner names (the runner profiles' `host_files`, `src/runners/`):
/// cargo (its config, build scripts, a toolchain file); npm and yarn
/// (`package.json`, their rc files, `node_modules/.bin` shims); Python's
/// start-up and pytest's configuration (`sitecustomize.py`,
/// `usercustomize.py`, `*.pth`, `conftest.py`, `pytest.ini`, `tox.ini`,
/// `noxfile.py`, `setup.cfg`, `setup.py`); and modules that shadow a
/// runner ([`shadows_a_runner`]).
pub fn runs_on_host(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let inside = |folder: &str| path.iter().any(|c| c == folder);
    let named = matches!(
        name.as_str(),
        ".envrc" | "Makefile" | "makefile" | "GNUmakefile" | ".pre-commit-config.yaml" | ".git"
    );
    named
        || inside(".vscode")
        || inside(".idea")
        || inside(".git")
        || host_files().any(|file| file.matches(path))
        || shadows_a_runner(path)
}

/// Every toolchain's and every runner's [`HostFile`]s.
fn host_files() -> impl Iterator<Item = &'static HostFile> {
    let toolchains = runners::toolchains()
        .into_iter()
        .flat_map(|toolchain| toolchain.host_files);
    let own = Runner::ALL
        .into_iter()
        .flat_map(|runner| runners::profile(runner).host_files());
    toolchains.chain(own)
}

/// Whether `path` is a module or package that a runner would import
/// instead of its own when it runs from the folder holding it: `pytest.py`,
/// `pytest/`, `_pytest`, `unittest.py`, `pluggy.py`, `py.py`, `site.py`
/// (each toolchain's and runner profile's `shadowed` modules).
pub fn shadows_a_runner(path: &Path) -> bool {
    let modules: Vec<&Module> = runners::toolchains()
        .into_iter()
        .flat_map(|toolchain| toolchain.shadowed)
        .chain(
            Runner::ALL
                .into_iter()
                .flat_map(|runner| runners::profile(runner).shadowed()),
        )
        .collect();
    let parts: Vec<_> = path.iter().map(|c| c.to_string_lossy()).collect();
    parts
        .iter()
        .enumerate()
        .any(|(i, c)| match c.strip_suffix(".py") {
            Some(module) if i + 1 == parts.len() => modules.iter().any(|m| m.name == module),
            Some(_) => false,
            None => {
                i + 1 < parts.len() && modules.iter().any(|m| m.package && m.name == c.as_ref())
            }
        })
}

/// The first word of `words` (a whole command, or an npm script's words)
/// that puts a test runner in watch mode, where it would wait for changes
/// instead of ending: `--watch`, `--watchAll`, vitest's `watch` and `dev`
/// commands, mocha's `-w`. Each runner's own words are its profile's
/// (`crates/testgate/src/runners/`).
///
/// ```
/// let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// assert_eq!(testgate::watch::watch_word(&words("npx jest --watch")), Some("--watch"));
/// assert_eq!(testgate::watch::watch_word(&words("npx jest --watch=false")), None);
/// ```
pub fn watch_word(words: &[String]) -> Option<&str> {
    crate::runners::watch_word(words)
}

/// The snapshot-update flag in a command or its environment, if any: a
/// gate must not let tests rewrite their own expectations. Each runner's
/// flags are its profile's; the variables are the snapshot libraries'
/// (`INSTA_UPDATE`) and any runner's (`UPDATE_SNAPSHOTS`).
pub fn snapshot_update(args: &[OsString], env: &[(OsString, Option<OsString>)]) -> Option<String> {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(a) = crate::runners::snapshot_update_word(&words) {
        return Some(format!(
            "`{a}` lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it"
        ));
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
            "a/b/sitecustomize.py",
            "lib/python3/site-packages/evil.pth",
            "pytest.py",
            "pytest/__init__.py",
            "sub/pytest.ini",
            "tox.ini",
            "noxfile.py",
            "pkg/setup.cfg",
            "web/.npmrc",
            "web/.yarnrc.yml",
            "tools/rust-toolchain.toml",
            "crates/a/.cargo/config.toml",
            "vendor/x/.git",
            "vendor/x/.git/config",
            "web/node_modules/.bin/jest",
        ] {
            assert!(runs_on_host(Path::new(p)), "{p}");
        }
        for p in [
            "src/lib.rs",
            "src/pytest_helpers.py",
            "docs/unittesting.md",
            "node_modules/jest/bin/jest.js",
            "src/config.toml",
            ".cargo/registry.toml",
        ] {
            assert!(!runs_on_host(Path::new(p)), "{p}");
        }
    }

    /// Each runner's words are its own: a short flag only where its
    /// runner is named, the long ones in any command (docs/cli.md).
    #[test]
    fn each_runner_refuses_its_own_words() {
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let snapshot = |s: &str| snapshot_update(&args(&s.split(' ').collect::<Vec<_>>()), &[]);
        assert_eq!(watch_word(&words("npx mocha -w")), Some("-w"));
        assert_eq!(watch_word(&words("npx jest -w")), None, "-w is mocha's");
        assert_eq!(watch_word(&words("vitest dev")), Some("dev"));
        assert_eq!(watch_word(&words("npx jest dev")), None, "dev is vitest's");
        assert_eq!(watch_word(&words("make test --watch")), Some("--watch"));
        assert!(snapshot("npx jest -u").is_some());
        assert!(
            snapshot("make -u").is_none(),
            "-u only where jest or vitest is named"
        );
        assert!(snapshot("npx vitest --update").is_some());
        assert!(snapshot("node --test --test-update-snapshots").is_some());
        assert!(snapshot("cargo test -- --insta-update").is_some());
        assert!(snapshot("tox -- --snapshot-update").is_some());
        assert!(snapshot("go test -update ./...").is_none());
    }

    #[test]
    fn snapshot_updates_are_refused() {
        assert!(snapshot_update(&args(&["npx", "jest", "-u"]), &[]).is_some());
        assert!(snapshot_update(&args(&["npx", "vitest", "run", "-u"]), &[]).is_some());
        assert!(snapshot_update(&args(&["npx", "jest", "--updateSnapshot"]), &[]).is_some());
        assert!(snapshot_update(&args(&["pytest", "--snapshot-update"]), &[]).is_some());
        // node 22's snapshot tests.
        assert!(
            snapshot_update(&args(&["node", "--test", "--test-update-snapshots"]), &[]).is_some()
        );
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
