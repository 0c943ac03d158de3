//! `testgate check` with no command: the project's test command, found from
//! its files by each runner's profile ([`RunnerProfile::detect`]).
//!
//! The files are the code under test's (an untrusted pull request, an agent
//! rewarded for a Pass), read before anything runs, as root, on the host.
//! So [`ProjectView`] reads them only through `testgate-run`'s door for
//! untrusted trees: no link is followed (a planted `package.json ->
//! /etc/shadow` is not read, a `.venv` linked out is not entered), a FIFO
//! or device is never opened for a wait, every read and listing is capped,
//! and nothing is executed: the command chosen (a project's
//! `.venv/bin/python` included) runs only inside the sandbox.

use std::path::{Path, PathBuf};

use testgate_parse::Runner;
use testgate_run::{EntryKind, ProjectFileError};

// Also named through here by the profiles' tests and branches in flight.
use crate::project_view::one_line;
pub(crate) use crate::project_view::{Detected, HostFacts, ProjectView};
use crate::runners::profile;

/// The most sub-folders of the root a monorepo's search looks into.
const FOLDERS_LIMIT: usize = 64;

/// Folders a monorepo's search skips: dependencies, build output, caches.
const NOT_PACKAGES: &[&str] = &[
    "node_modules",
    "target",
    "vendor",
    "dist",
    "build",
    "venv",
    "__pycache__",
];

/// What detection looks for, for the message of a project where it found
/// nothing: each profile's [`looks_for`](crate::runners::RunnerProfile::looks_for),
/// in [`Runner::ALL`]'s order, each phrase once (docs/cli.md lists the same,
/// with what each file means).
fn looked_for() -> String {
    let mut phrases: Vec<&str> = Vec::new();
    for runner in Runner::ALL {
        for phrase in profile(runner).looks_for() {
            if !phrases.contains(phrase) {
                phrases.push(phrase);
            }
        }
    }
    phrases.join(", ")
}

/// Why detection chose no command.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DetectError {
    /// The project folder could not be opened.
    #[error("cannot look for the test runner: {0}")]
    Unreadable(#[from] ProjectFileError),
    /// Nothing in the project names a runner.
    #[error(
        "found no test runner in {}: looked for {}; pass the test command after `--`",
        dir.display(),
        looked_for()
    )]
    Unknown {
        /// The project folder.
        dir: PathBuf,
    },
    /// More than one runner's files lie at the root, and none is clearly
    /// the project's.
    #[error(
        "found more than one test runner in {}: {}; pass the one to run after `--` \
         (e.g. `testgate check -- {}`)",
        dir.display(),
        list(candidates),
        candidates.first().map(Detected::shown_command).unwrap_or_default()
    )]
    Ambiguous {
        /// The project folder.
        dir: PathBuf,
        /// Each runner found, in [`Runner::ALL`]'s order.
        candidates: Vec<Detected>,
    },
    /// Nothing at the root names a runner, but folders below it do: a
    /// monorepo, whose packages are checked one by one.
    #[error(
        "found no test runner at the root of {}, but in its folders: {}; check each \
         with -C FOLDER, or pass the command to run here after `--`",
        dir.display(),
        packages.iter().map(|(folder, found)| format!("{}/ ({found})", one_line(folder.as_os_str().as_encoded_bytes())))
            .collect::<Vec<_>>().join(", ")
    )]
    Monorepo {
        /// The project folder.
        dir: PathBuf,
        /// Each folder (relative to `dir`) and what was found there.
        packages: Vec<(PathBuf, Detected)>,
    },
}

fn list(candidates: &[Detected]) -> String {
    candidates
        .iter()
        .map(Detected::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The test command of the project `dir` (a folder
/// [`project_dir`](crate::project_dir) accepted): the one runner whose
/// files lie at its root, or why there is none to choose (docs/cli.md, "check
/// without a command"). Nothing is executed; no link is followed.
pub fn detect_command(dir: &Path) -> Result<Detected, DetectError> {
    detect_with(dir, &HostFacts::current())
}

/// [`detect_command`] with the host's answers given.
pub(crate) fn detect_with(dir: &Path, host: &HostFacts) -> Result<Detected, DetectError> {
    let view = ProjectView::open(dir, host)?;
    let mut candidates = candidates(&view);
    if candidates.len() == 1 {
        return Ok(candidates.remove(0));
    }
    if !candidates.is_empty() {
        return Err(DetectError::Ambiguous {
            dir: dir.to_owned(),
            candidates,
        });
    }
    let packages = packages(&view, host);
    if packages.is_empty() {
        Err(DetectError::Unknown {
            dir: dir.to_owned(),
        })
    } else {
        Err(DetectError::Monorepo {
            dir: dir.to_owned(),
            packages,
        })
    }
}

/// What each runner's profile found at the root of `view`; a candidate only
/// the layout showed counts only when no file names a runner.
fn candidates(view: &ProjectView<'_>) -> Vec<Detected> {
    let all: Vec<Detected> = Runner::ALL
        .into_iter()
        .filter_map(|runner| profile(runner).detect(view))
        .collect();
    if all.iter().any(|c| !c.layout_only) {
        all.into_iter().filter(|c| !c.layout_only).collect()
    } else {
        all
    }
}

/// The folders just below the root of `view` where exactly one runner was
/// found, by name.
fn packages(view: &ProjectView<'_>, host: &HostFacts) -> Vec<(PathBuf, Detected)> {
    let mut packages = Vec::new();
    let folders = view
        .names()
        .into_iter()
        .filter(|name| {
            let text = name.to_string_lossy();
            !text.starts_with('.') && !NOT_PACKAGES.contains(&text.as_ref())
        })
        .filter(|name| view.kind(Path::new(name)) == Some(EntryKind::Dir))
        .take(FOLDERS_LIMIT);
    for name in folders {
        // Reached by a name the root's listing gave and a stat that did not
        // follow: the folder itself is the project's.
        let Ok(sub) = ProjectView::open(&view.root().join(&name), host) else {
            continue;
        };
        let mut found = candidates(&sub);
        if found.len() == 1 {
            packages.push((PathBuf::from(name), found.remove(0)));
        }
    }
    packages
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures (a FIFO), in folders no test command ran in"
)]
mod tests;
