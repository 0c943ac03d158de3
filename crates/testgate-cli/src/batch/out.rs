//! `batch --out`: where it may lie, and taking back only what batch wrote.
//!
//! A result file a suite could write would let it append a PASS line for
//! another check (the last line of an id wins) or make a resume skip a
//! check. So `--out` may not lie in any workspace or `writable` path of the
//! manifest ([`refuse_exposed`]), and [`OutFile`] keeps the file open and
//! knows every byte it wrote this run: bytes it did not write are found
//! (by the file's length before and after each write, and a SHA-256 of this
//! run's bytes read back at the end) and this run's part of the file is cut
//! off, an error, never a verdict; a resume then runs those checks again.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::manifest::Job;

/// `--out`'s canonical path: its folder resolved, its own name as given
/// (the file may not exist yet).
pub(super) fn canonical_out(out: &Path) -> io::Result<PathBuf> {
    let name = out
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "names no file"))?;
    let folder = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        Some(_) | None => Path::new("."),
    };
    Ok(std::fs::canonicalize(folder)?.join(name))
}

/// `--out` lies where a check's tests could write: they could write
/// results of their own into it.
#[derive(Debug, thiserror::Error)]
#[error(
    "refusing --out {}: it lies in the {what} {} of manifest line {line}, whose tests \
     could write results of their own into it",
    out.display(),
    path.display()
)]
pub(crate) struct Exposed {
    /// `--out`, canonical.
    out: PathBuf,
    /// What of the check it lies in (`workspace`, `writable path`).
    what: &'static str,
    /// That folder, canonical.
    path: PathBuf,
    /// The check's manifest line.
    line: u64,
}

/// `--out` held bytes this batch did not write: this run's part of the
/// file was cut off (its checks run again on a resume), or cutting it off
/// failed.
#[derive(Debug, thiserror::Error)]
#[error(
    "--out was written by something other than this batch: {found}; a line it did not \
     write is no result, so {}",
    cut_words(*start, cut.as_ref())
)]
pub(crate) struct WrittenByAnother {
    /// What was found, in words.
    found: String,
    /// The file's length before this run.
    start: u64,
    /// Whether this run's part could be cut off.
    cut: Result<(), io::Error>,
}

/// What became of this run's results in a file written by another.
fn cut_words(start: u64, cut: Result<&(), &io::Error>) -> String {
    match cut {
        Ok(()) => format!(
            "this run's results were removed (the file is back to its {start} bytes before \
             it); run the batch again"
        ),
        Err(e) => format!("and cutting this run's results off failed: {e}"),
    }
}

/// Why the check `job` could write `out` (canonical): it lies in its
/// workspace, one of its `writable` paths, or the build output the line's
/// `env` makes writable (`CARGO_TARGET_DIR`); or None. (batch's own
/// `CARGO_TARGET_DIR`, bound writable too, is not refused: a user's
/// results beside their builds are common; a line written there by a
/// suite is caught by [`OutFile`].)
pub(super) fn refuse_exposed(out: &Path, job: &Job) -> Option<Exposed> {
    let target_dir = job
        .args
        .env_words()
        .iter()
        .filter_map(|word| word.strip_prefix("CARGO_TARGET_DIR="))
        .map(PathBuf::from)
        .next_back();
    let exposed = std::iter::once(job.args.dir())
        .map(|dir| ("workspace", dir))
        .chain(
            job.args
                .writable()
                .iter()
                .map(|w| ("writable path", w.as_path())),
        )
        .chain(
            target_dir
                .as_deref()
                .map(|t| ("build output (CARGO_TARGET_DIR)", t)),
        );
    for (what, path) in exposed {
        let Ok(path) = std::fs::canonicalize(path) else {
            continue;
        };
        if out.starts_with(&path) {
            return Some(Exposed {
                out: out.to_path_buf(),
                what,
                path,
                line: job.line,
            });
        }
    }
    None
}

/// The results file, appended to by this process only.
pub(super) struct OutFile {
    file: File,
    /// Its length when this run began (after a resume cut a torn line).
    start: u64,
    /// Its length as this run wrote it.
    expected: u64,
    /// The SHA-256 of the bytes this run wrote.
    written: Sha256,
    /// What this run found written by someone else, first.
    foreign: Option<String>,
}

impl OutFile {
    /// Takes over `file`, positioned anywhere, appended to from its end.
    pub(super) fn new(mut file: File) -> io::Result<OutFile> {
        let start = file.seek(SeekFrom::End(0))?;
        Ok(OutFile {
            file,
            start,
            expected: start,
            written: Sha256::new(),
            foreign: None,
        })
    }

    fn length(&self) -> io::Result<u64> {
        Ok(self.file.metadata()?.len())
    }

    /// Appends `line`, having cut off what someone else appended since the
    /// last write; a change that cannot be cut off so (the file made
    /// shorter, bytes put between this run's) is remembered for
    /// [`OutFile::finish`].
    pub(super) fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        let before = self.length()?;
        if before != self.expected {
            self.note_foreign(before);
            if before > self.expected {
                self.file.set_len(self.expected)?;
            }
        }
        self.file.write_all(line)?;
        self.file.flush()?;
        self.written.update(line);
        self.expected += line.len() as u64;
        let after = self.length()?;
        if after != self.expected {
            self.note_foreign(after);
        }
        Ok(())
    }

    fn note_foreign(&mut self, length: u64) {
        self.foreign.get_or_insert_with(|| {
            format!(
                "it was {length} bytes long where this batch had written {}",
                self.expected
            )
        });
    }

    /// Reads back what this run wrote: when anything in it is not this
    /// run's own, this run's part of the file is cut off (its checks run
    /// again on a resume) and the error names what was found.
    pub(super) fn finish(mut self) -> Result<(), WrittenByAnother> {
        match self.length() {
            Ok(length) if length != self.expected => self.note_foreign(length),
            Ok(_) => {}
            Err(e) => {
                self.foreign
                    .get_or_insert(format!("its length cannot be read ({e})"));
            }
        }
        let mut found = self.foreign.take();
        if found.is_none() {
            match self.read_back() {
                Ok(true) => return Ok(()),
                Ok(false) => found = Some("its bytes are not the ones this batch wrote".to_owned()),
                Err(e) => found = Some(format!("it cannot be read back ({e})")),
            }
        }
        let cut = self.file.set_len(self.start);
        Err(WrittenByAnother {
            found: found.unwrap_or_default(),
            start: self.start,
            cut,
        })
    }

    /// Whether the file is `expected` bytes long and this run's part of it
    /// hashes to what it wrote.
    fn read_back(&mut self) -> io::Result<bool> {
        if self.length()? != self.expected {
            return Ok(false);
        }
        let mut hasher = Sha256::new();
        let mut buffer = vec![0u8; 64 * 1024];
        let mut at = self.start;
        while at < self.expected {
            let n = self.file.read_at(&mut buffer, at)?;
            if n == 0 {
                return Ok(false);
            }
            hasher.update(&buffer[..n]);
            at += n as u64;
        }
        Ok(hasher.finalize() == self.written.clone().finalize())
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests write their own results files, in folders no test command ran in"
)]
mod tests {
    use super::*;

    fn opened(path: &Path) -> OutFile {
        let file = File::options()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .unwrap();
        OutFile::new(file).unwrap()
    }

    fn append(path: &Path, text: &str) {
        let mut file = File::options().append(true).open(path).unwrap();
        file.write_all(text.as_bytes()).unwrap();
    }

    #[test]
    fn only_its_own_lines_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "{\"id\":\"old\"}\n").unwrap();
        let mut out = opened(&path);
        out.write_line(b"{\"id\":\"a\"}\n").unwrap();
        out.write_line(b"{\"id\":\"b\"}\n").unwrap();
        assert!(out.finish().is_ok());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"id\":\"old\"}\n{\"id\":\"a\"}\n{\"id\":\"b\"}\n"
        );
    }

    #[test]
    fn a_line_appended_by_another_writer_is_cut_off_and_this_runs_part_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "{\"id\":\"old\"}\n").unwrap();
        let mut out = opened(&path);
        out.write_line(b"{\"id\":\"a\",\"verdict\":\"fail\"}\n")
            .unwrap();
        append(&path, "{\"id\":\"a\",\"verdict\":\"pass\"}\n");
        out.write_line(b"{\"id\":\"b\"}\n").unwrap();
        let why = out.finish().unwrap_err().to_string();
        assert!(
            why.starts_with(
                "--out was written by something other than this batch: it was 69 bytes long \
                 where this batch had written 41;"
            ),
            "{why}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"id\":\"old\"}\n"
        );
    }

    #[test]
    fn a_line_appended_after_the_last_write_or_rewritten_in_place_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let mut out = opened(&path);
        out.write_line(b"{\"id\":\"a\",\"v\":\"fail\"}\n").unwrap();
        append(&path, "{\"id\":\"a\",\"v\":\"pass\"}\n");
        assert!(out.finish().unwrap_err().to_string().contains("bytes long"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");

        let mut out = opened(&path);
        out.write_line(b"{\"id\":\"a\",\"v\":\"fail\"}\n").unwrap();
        std::fs::write(&path, "{\"id\":\"a\",\"v\":\"pass\"}\n").unwrap();
        let why = out.finish().unwrap_err().to_string();
        assert!(why.contains("not the ones this batch wrote"), "{why}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
    }
}
