//! Files that run later on the host by convention. An attempt that creates
//! or changes one gives `tree_changed` even where git ignores it; the list
//! and what testgate does about each is in docs/sandbox.md. (The commands
//! refused for what they ask, watch mode and snapshot updates, are
//! [`crate::refused_commands`].)

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
