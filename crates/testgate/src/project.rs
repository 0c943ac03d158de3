//! Which folder may be the project: never the host's root, a home
//! directory, or a folder that holds one.
//!
//! The project is writable inside the sandbox, and testgate itself reads,
//! restores and records under it as root afterwards: `-C /` or `-C /root`
//! would hand the tests the host or the shell files, keys and credentials
//! that run later on it. [`project_dir`] is where the facade accepts a
//! project, for `check`, `batch` and the Python API alike, and
//! [`SandboxedTests::run`](crate::SandboxedTests::run) refuses one again.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a folder cannot be the project.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProjectRefused {
    /// The folder does not exist or cannot be resolved.
    #[error("cannot use {} as the project directory: {source}", path.display())]
    Unusable {
        /// The path as given.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// The path names a file, not a folder.
    #[error("cannot use {} as the project directory: not a directory", path.display())]
    NotADirectory {
        /// The path as given.
        path: PathBuf,
    },
    /// The folder is the root, a home directory, or holds one.
    #[error(
        "refusing {} as the project directory: {why}, which the tests would be free to write",
        path.display()
    )]
    HostFolder {
        /// The path as given.
        path: PathBuf,
        /// Which host folder it is or holds.
        why: String,
    },
}

/// The canonical form of `path` if it may be a project: an existing
/// folder that is not `/`, not a home directory (of any account in
/// `/etc/passwd`, of the user running testgate, `$HOME`, `/root`) and holds
/// none.
///
/// ```
/// let refused = testgate::project_dir(std::path::Path::new("/")).unwrap_err();
/// assert_eq!(
///     refused.to_string(),
///     "refusing / as the project directory: it is the root directory, \
///      which the tests would be free to write"
/// );
/// ```
pub fn project_dir(path: &Path) -> Result<PathBuf, ProjectRefused> {
    let canonical = std::fs::canonicalize(path).map_err(|source| ProjectRefused::Unusable {
        path: path.to_owned(),
        source,
    })?;
    if !canonical.is_dir() {
        return Err(ProjectRefused::NotADirectory {
            path: path.to_owned(),
        });
    }
    match host_folder(&canonical) {
        Some(why) => Err(ProjectRefused::HostFolder {
            path: path.to_owned(),
            why,
        }),
        None => Ok(canonical),
    }
}

/// Why the canonical folder `canonical` must not be opened to the tests,
/// in a few words ("it is the root directory", "it holds the home
/// directory /root"), or None. `--writable` asks the same question.
pub fn host_folder(canonical: &Path) -> Option<String> {
    if canonical == Path::new("/") {
        return Some("it is the root directory".to_owned());
    }
    for home in all_home_directories() {
        // A home that is the root itself (`systemd-network:…:/`) is the
        // root's case, above.
        let Ok(home) = std::fs::canonicalize(&home) else {
            continue;
        };
        if home == Path::new("/") {
            continue;
        }
        if home == canonical {
            return Some(format!("it is the home directory {}", home.display()));
        }
        if home.starts_with(canonical) {
            return Some(format!("it holds the home directory {}", home.display()));
        }
    }
    None
}

/// The most of `/etc/passwd` read.
const PASSWD_LIMIT: u64 = 16 << 20;

/// `/root`, [`home_directories`](crate::home_directories) (`$HOME` and the
/// user's own from the password database) and every home field of
/// `/etc/passwd`.
fn all_home_directories() -> Vec<PathBuf> {
    let mut homes = vec![PathBuf::from("/root")];
    homes.extend(testgate_run::home_directories());
    let mut passwd = Vec::new();
    if let Ok(file) = std::fs::File::open("/etc/passwd") {
        // Read as far as it goes: a partial list still refuses what it names.
        let _ = file.take(PASSWD_LIMIT).read_to_end(&mut passwd);
    }
    for line in passwd.split(|&b| b == b'\n') {
        let Some(home) = line.split(|&b| b == b':').nth(5) else {
            continue;
        };
        if home.first() == Some(&b'/') {
            let home = PathBuf::from(String::from_utf8_lossy(home).into_owned());
            if !homes.contains(&home) {
                homes.push(home);
            }
        }
    }
    homes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &str) -> String {
        project_dir(Path::new(path))
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn the_root_homes_and_their_parents_are_refused_in_one_line() {
        assert!(refusal("/").contains("it is the root directory"));
        assert!(refusal("/root").contains("it is the home directory /root"));
        assert!(refusal("/root/").contains("it is the home directory /root"));
        let home = std::fs::canonicalize(std::env::var_os("HOME").expect("HOME")).unwrap();
        let shown = home.display().to_string();
        assert!(
            refusal(&shown).contains("it is the home directory"),
            "{shown}"
        );
        if let Some(parent) = home.parent().filter(|p| *p != Path::new("/")) {
            let why = refusal(&parent.display().to_string());
            assert!(why.contains("it holds the home directory"), "{why}");
        }
        for why in [refusal("/"), refusal("/root"), refusal("/no/such/folder")] {
            assert!(!why.contains('\n'), "{why}");
        }
        assert!(refusal("/etc/passwd").ends_with("not a directory"));
    }

    #[test]
    fn an_ordinary_folder_is_accepted_canonical() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("project");
        std::fs::create_dir(&inner).unwrap();
        let given = dir.path().join("project/../project");
        assert_eq!(
            project_dir(&given).unwrap(),
            std::fs::canonicalize(&inner).unwrap()
        );
    }
}
