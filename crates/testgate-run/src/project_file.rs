//! Reading a file the tests control (package.json, a `.git` file) without
//! trusting it: no symlink followed, an open that cannot block, regular
//! files only, a size cap.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Why [`read_project_file`] refused or failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProjectFileError {
    /// The file could not be opened (missing, unreadable, a socket).
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: io::Error,
    },
    /// The file is not a regular file (a FIFO, a device, a directory, a
    /// symbolic link, which is never followed).
    #[error("{path} is {kind}, not a regular file")]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead ("a FIFO", "a symbolic link", ...).
        kind: &'static str,
    },
    /// The file holds more than the cap.
    #[error("{path} is larger than {limit} bytes")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap, in bytes.
        limit: u64,
    },
    /// Reading the opened file failed.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: io::Error,
    },
}

/// Reads `path`, at most `limit` bytes, as a file the code under test may
/// have replaced: the last component is never followed if it is a symbolic
/// link (`O_NOFOLLOW`), the open never waits for a writer (`O_NONBLOCK`),
/// and anything but a regular file (a FIFO, `/dev/zero`, a directory) is
/// refused after `fstat` on the opened descriptor, so a swap between check
/// and read cannot slip through. A file longer than `limit` is refused, not
/// truncated.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// let path = dir.path().join("package.json");
/// std::fs::write(&path, br#"{"scripts": {"test": "jest"}}"#)?;
/// let text = testgate_run::read_project_file(&path, 1 << 20)?;
/// assert!(text.starts_with(b"{"));
///
/// std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero"))?;
/// let refused = testgate_run::read_project_file(&dir.path().join("zero"), 1 << 20);
/// assert!(refused.unwrap_err().to_string().ends_with("is a symbolic link, not a regular file"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_project_file(path: &Path, limit: u64) -> Result<Vec<u8>, ProjectFileError> {
    let file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|source| match source.raw_os_error() {
            // O_NOFOLLOW on a symbolic link.
            Some(libc::ELOOP) if is_symlink(path) => ProjectFileError::NotRegular {
                path: path.to_owned(),
                kind: "a symbolic link",
            },
            _ => ProjectFileError::Open {
                path: path.to_owned(),
                source,
            },
        })?;
    let read_error = |source| ProjectFileError::Read {
        path: path.to_owned(),
        source,
    };
    let kind = file.metadata().map_err(read_error)?.file_type();
    let not_regular = |kind| ProjectFileError::NotRegular {
        path: path.to_owned(),
        kind,
    };
    if kind.is_fifo() {
        return Err(not_regular("a FIFO"));
    } else if kind.is_char_device() || kind.is_block_device() {
        return Err(not_regular("a device"));
    } else if kind.is_socket() {
        return Err(not_regular("a socket"));
    } else if kind.is_dir() {
        return Err(not_regular("a directory"));
    } else if !kind.is_file() {
        return Err(not_regular("not a file"));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(ProjectFileError::TooLarge {
            path: path.to_owned(),
            limit,
        });
    }
    Ok(bytes)
}

fn is_symlink(path: &Path) -> bool {
    path.symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(path: &Path, limit: u64) -> String {
        read_project_file(path, limit)
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("package.json");
        std::fs::write(&path, b"{}\n").expect("write");
        assert_eq!(read_project_file(&path, 3).expect("read"), b"{}\n");
        assert_eq!(read_project_file(&path, 1 << 20).expect("read"), b"{}\n");
    }

    #[test]
    fn odd_files_are_one_line_refusals_never_a_hang() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: mkfifo on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        // No writer: an open without O_NONBLOCK would block here forever.
        assert!(refusal(&fifo, 100).ends_with("fifo is a FIFO, not a regular file"));

        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        assert!(refusal(&link, 100).ends_with("zero is a symbolic link, not a regular file"));
        assert!(
            refusal(Path::new("/dev/zero"), 100)
                .ends_with("/dev/zero is a device, not a regular file")
        );
        assert!(refusal(dir.path(), 100).ends_with("is a directory, not a regular file"));

        let big = dir.path().join("big");
        std::fs::write(&big, vec![b' '; 101]).expect("write");
        assert!(refusal(&big, 100).ends_with("big is larger than 100 bytes"));
        assert!(refusal(&dir.path().join("missing"), 100).starts_with("cannot open "));
        for message in [refusal(&fifo, 1), refusal(&big, 1)] {
            assert!(!message.contains('\n'), "{message}");
        }
    }
}
