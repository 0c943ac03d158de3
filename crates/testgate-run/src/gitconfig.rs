//! The git configuration the sandboxed command finds in its home: a neutral
//! identity and the project's repository marked safe, nothing of the host's.
//!
//! The host's `~/.gitconfig` is hidden with the rest of the home (it holds
//! credential helpers, includes, `core.hooksPath`, aliases), so without
//! this a test that runs `git commit` fails with `Author identity unknown`
//! in the sandbox and passes on the host. The file is the command's
//! *global* configuration, the lowest place git reads an identity from
//! after the system's: a repository's own `git config user.name`, the
//! `GIT_AUTHOR_*`/`GIT_COMMITTER_*` variables and a `HOME` or
//! `GIT_CONFIG_GLOBAL` of the test's own all win over it.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The name the sandbox's global git configuration gives commits.
pub(crate) const NAME: &str = "testgate";
/// The e-mail address the sandbox's global git configuration gives commits.
pub(crate) const EMAIL: &str = "testgate@localhost";

/// The bytes of the sandbox's `~/.gitconfig`: `[user]` with [`NAME`] and
/// [`EMAIL`], and `[safe]` with each of `safe_directories`.
///
/// `safe.directory`: run as root on a checkout another user owns, git
/// refuses the repository ("detected dubious ownership"); the host's
/// configuration may have allowed it, and the sandbox hides that. Inside,
/// the project's repository is the tests' own code already, so trusting it
/// gives them nothing; only the project's own directories are named, never
/// `*`. No `core.hooksPath`, no `init.defaultBranch` (git's own default,
/// the same on every machine), no signing, no credential helper.
pub(crate) fn contents(safe_directories: &[PathBuf]) -> Vec<u8> {
    let mut out = format!(
        "# Written by testgate for this sandboxed run; the host's ~/.gitconfig is hidden.\n\
         [user]\n\tname = {NAME}\n\temail = {EMAIL}\n"
    )
    .into_bytes();
    if !safe_directories.is_empty() {
        out.extend_from_slice(b"[safe]\n");
        for dir in safe_directories {
            out.extend_from_slice(b"\tdirectory = ");
            quoted(dir, &mut out);
            out.push(b'\n');
        }
    }
    out
}

/// `path` as a double-quoted git config value: `\` and `"` escaped, a
/// newline and a tab as `\n` and `\t` (git's own escapes), other bytes as
/// they are, so a path cannot end the value or open a section.
fn quoted(path: &Path, out: &mut Vec<u8>) {
    out.push(b'"');
    for &byte in path.as_os_str().as_bytes() {
        match byte {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            other => out.push(other),
        }
    }
    out.push(b'"');
}

/// The directories to mark safe for a run in `dir`: `dir` and the top of
/// the repository git would use there (the directory holding the first
/// `.git` of `git`, [`crate::protect::git_paths`]), both canonical.
pub(crate) fn safe_directories(dir: &Path, git: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let top = git
        .first()
        .filter(|dot_git| dot_git.file_name().is_some_and(|name| name == ".git"))
        .and_then(|dot_git| dot_git.parent());
    if let Some(top) = top
        && top != dir
    {
        out.push(top.to_path_buf());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_and_the_project_marked_safe_nothing_else() {
        let text = contents(&[PathBuf::from("/p/sub"), PathBuf::from("/p")]);
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "# Written by testgate for this sandboxed run; the host's ~/.gitconfig is hidden.\n\
             [user]\n\tname = testgate\n\temail = testgate@localhost\n\
             [safe]\n\tdirectory = \"/p/sub\"\n\tdirectory = \"/p\"\n"
        );
        let bare = String::from_utf8(contents(&[])).unwrap();
        assert!(!bare.contains("[safe]"), "{bare}");
    }

    #[test]
    fn a_path_cannot_end_its_value_or_open_a_section() {
        let path = PathBuf::from("/p/a\"\n[core]\n\thooksPath = /x\\");
        let text = String::from_utf8(contents(&[path])).unwrap();
        assert!(
            text.ends_with("\tdirectory = \"/p/a\\\"\\n[core]\\n\\thooksPath = /x\\\\\"\n"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 6, "{text}");
    }

    #[test]
    fn the_repository_top_is_safe_beside_the_directory() {
        let git = [PathBuf::from("/r/.git")];
        assert_eq!(
            safe_directories(Path::new("/r/sub"), &git),
            [PathBuf::from("/r/sub"), PathBuf::from("/r")]
        );
        assert_eq!(
            safe_directories(Path::new("/r"), &git),
            [PathBuf::from("/r")]
        );
        assert_eq!(
            safe_directories(Path::new("/p"), &[]),
            [PathBuf::from("/p")]
        );
    }
}
