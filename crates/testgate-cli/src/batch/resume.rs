//! Resuming a batch: the ids already done in `--out`, each line streamed so
//! that a result line of any length (a Go suite's `-v` output passes 1 MiB)
//! is read in bounded memory.

use std::collections::HashSet;
use std::fs::File;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;
use testgate_documents::BatchLineKey;

/// Why a batch cannot resume from its `--out`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ResumeError {
    /// The file could not be read, or its torn last line cut off.
    #[error("cannot resume from {}: {source}", path.display())]
    Unreadable {
        /// `--out`.
        path: PathBuf,
        /// What the OS (or the JSON reader's reads) said.
        source: io::Error,
    },
    /// The file could not be read as JSON.
    #[error("cannot resume from {}: {source}", path.display())]
    UnreadableJson {
        /// `--out`.
        path: PathBuf,
        /// What the reads said.
        source: serde_json::Error,
    },
    /// A line is not a result line of a batch.
    #[error("cannot resume from {}: line {number} is not a batch result with an `id`", path.display())]
    NoResult {
        /// `--out`.
        path: PathBuf,
        /// The line, from 1.
        number: u64,
    },
}

/// The hash of an `id` by which resume recognises a check.
pub(super) fn id_hash(id: &Value) -> u64 {
    let mut hasher = DefaultHasher::new();
    id.to_string().hash(&mut hasher);
    hasher.finish()
}

/// The ids already done in `file` (the `--out` of `path`), whose checks a
/// resumed batch skips. An error line (the check could not run, or its
/// manifest line was invalid) is not done: its check is tried again. A last
/// line without its newline (the writer was killed mid-line) is cut off, so
/// the file stays one complete result per line.
///
/// `file` was opened by the safe path layer (no link followed, a regular
/// file, non-blocking); it is read through a buffer, one line at a time,
/// holding only each line's `id`.
pub(super) fn done_ids(file: &mut File, path: &Path) -> Result<HashSet<u64>, ResumeError> {
    let trouble = |source| ResumeError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    let mut done = HashSet::new();
    let mut reader = BufReader::new(&mut *file);
    let mut complete: u64 = 0;
    let mut number: u64 = 0;
    loop {
        // Buffered again: serde_json reads a reader byte by byte.
        let mut buffered = BufReader::new(LineReader::new(&mut reader));
        let key = read_key(&mut buffered);
        // Whatever the parse stopped at, the rest of the line is skipped.
        io::copy(&mut buffered, &mut io::sink()).map_err(trouble)?;
        let line = buffered.get_ref();
        if line.read == 0 {
            break;
        }
        number += 1;
        if !line.ended {
            break;
        }
        complete += line.read;
        if !line.nonblank {
            continue;
        }
        match key {
            Ok(BatchLineKey { id, error: false }) => {
                done.insert(id_hash(&id));
            }
            // Tried again: whatever kept it from running may be fixed.
            Ok(BatchLineKey { error: true, .. }) => {}
            Err(source) if source.is_io() => {
                return Err(ResumeError::UnreadableJson {
                    path: path.to_path_buf(),
                    source,
                });
            }
            Err(_) => {
                return Err(ResumeError::NoResult {
                    path: path.to_path_buf(),
                    number,
                });
            }
        }
    }
    drop(reader);
    let length = file.seek(SeekFrom::End(0)).map_err(trouble)?;
    if length > complete {
        file.set_len(complete).map_err(trouble)?;
    }
    Ok(done)
}

/// The key of the JSON object `line` holds, and nothing after it but
/// whitespace.
fn read_key(line: &mut impl Read) -> serde_json::Result<BatchLineKey> {
    let mut json = serde_json::Deserializer::from_reader(line);
    let key = BatchLineKey::deserialize(&mut json)?;
    json.end()?;
    Ok(key)
}

/// One line of a buffered reader as a reader of its own: it ends at the
/// newline (consumed, not given) or the end of the input, and counts what
/// it read.
struct LineReader<'a, R> {
    inner: &'a mut R,
    /// Bytes consumed, the newline included.
    read: u64,
    /// Whether a newline ended the line.
    ended: bool,
    /// Whether the line holds anything but whitespace.
    nonblank: bool,
    /// Whether the line is over (its newline or the end of the input).
    over: bool,
}

impl<'a, R: BufRead> LineReader<'a, R> {
    fn new(inner: &'a mut R) -> Self {
        LineReader {
            inner,
            read: 0,
            ended: false,
            nonblank: false,
            over: false,
        }
    }
}

impl<R: BufRead> Read for LineReader<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.over || out.is_empty() {
            return Ok(0);
        }
        let buffer = self.inner.fill_buf()?;
        if buffer.is_empty() {
            self.over = true;
            return Ok(0);
        }
        let (length, ends_here) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) if at <= out.len() => (at, true),
            Some(_) | None => (buffer.len().min(out.len()), false),
        };
        let given = &buffer[..length];
        out[..length].copy_from_slice(given);
        self.nonblank |= !given.iter().all(u8::is_ascii_whitespace);
        let consumed = length + usize::from(ends_here);
        self.inner.consume(consumed);
        self.read += consumed as u64;
        if ends_here {
            // The newline is not given; an empty read then ends the line.
            self.ended = true;
            self.over = true;
        }
        Ok(length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// The ids of `text` as `--out`, and what the file holds afterwards;
    /// opened as `run` opens it.
    fn resume(text: &[u8]) -> Result<(HashSet<u64>, Vec<u8>), ResumeError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let mut file = testgate::run::append_file(&path).unwrap();
        file.write_all(text).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        let done = done_ids(&mut file, &path)?;
        let mut kept = Vec::new();
        file.seek(SeekFrom::Start(0)).unwrap();
        file.read_to_end(&mut kept).unwrap();
        Ok((done, kept))
    }

    fn hashes(ids: &[Value]) -> HashSet<u64> {
        ids.iter().map(id_hash).collect()
    }

    #[test]
    fn ids_of_another_type_are_other_ids() {
        assert_ne!(id_hash(&Value::from("3")), id_hash(&Value::from(3)));
        assert_eq!(id_hash(&Value::from("a")), id_hash(&Value::from("a")));
    }

    #[test]
    fn a_line_of_several_mebibytes_is_read_past() {
        // Hand-made: the shape of a result line whose `result` holds 3 MiB
        // of output, with its `id` first as batch writes it, and also last.
        let long = "x".repeat(3 << 20);
        let text = format!(
            "{{\"schema\":1,\"id\":\"a\",\"result\":{{\"tail\":\"{long}\"}}}}\n\
             {{\"result\":[\"{long}\"],\"id\":7,\"error\":null}}\n\n\
             {{\"id\":\"c\",\"error\":null}}\n"
        );
        let (done, kept) = resume(text.as_bytes()).unwrap();
        assert_eq!(
            done,
            hashes(&[Value::from("a"), Value::from(7), Value::from("c")])
        );
        assert_eq!(kept.len(), text.len(), "nothing cut");
    }

    #[test]
    fn error_lines_are_not_done() {
        let text = b"{\"id\":\"a\",\"error\":\"manifest line 1: unknown field\"}\n\
                     {\"id\":\"b\",\"error\":null}\n";
        let (done, _) = resume(text).unwrap();
        assert_eq!(done, hashes(&[Value::from("b")]));
    }

    #[test]
    fn a_torn_last_line_is_cut_off_however_long() {
        let long = "y".repeat(2 << 20);
        let text = format!("{{\"id\":\"a\"}}\n{{\"id\":\"b\",\"result\":\"{long}");
        let (done, kept) = resume(text.as_bytes()).unwrap();
        assert_eq!(done, hashes(&[Value::from("a")]));
        assert_eq!(kept, b"{\"id\":\"a\"}\n");
        // A torn line that is not even JSON yet is cut off too.
        let (done, kept) = resume(b"{\"id\":1}\n{\"id").unwrap();
        assert_eq!(done, hashes(&[Value::from(1)]));
        assert_eq!(kept, b"{\"id\":1}\n");
    }

    #[test]
    fn a_line_that_is_no_result_is_refused_with_its_number() {
        for text in [
            &b"{\"id\":1}\n\nnot json\n"[..],
            b"{\"id\":1}\n\n{\"schema\":1}\n",
            b"{\"id\":1}\n\n{\"id\":2} trailing\n",
        ] {
            let why = resume(text).unwrap_err().to_string();
            assert!(
                why.contains("line 3 is not a batch result with an `id`"),
                "{why}"
            );
        }
    }
}
