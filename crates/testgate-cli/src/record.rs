//! Verdict records: `check --record FILE [--sign KEY]`, `keygen`, `verify`.
//!
//! A record file is one JSON object `{"record": {...}, "signature": ...}`.
//! The signature is ed25519 over the compact serialisation of `record` (keys
//! sorted, as serde_json writes a map), `{"algorithm": "ed25519",
//! "public_key": HEX, "value": HEX}`, or null when unsigned. A key file is
//! the 32-byte secret seed in hex on one line (mode 0600); `KEY.pub` holds
//! the public key in hex.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::Deserialize;
use serde_json::Value;
use testgate_documents::{Dirty, RecordDocument, RecordedVerdict, SignedRecord};

use crate::Error;

/// Write a new ed25519 key pair for `check --sign`: KEY (secret, mode 0600)
/// and KEY.pub (public, for `verify --key`).
#[derive(Debug, clap::Args)]
pub(crate) struct KeygenArgs {
    /// Where to write the secret key; the public key goes to KEY.pub.
    #[arg(value_name = "KEY")]
    key: PathBuf,
}

/// Check a verdict record: its signature and, with -C, that the project's
/// tree still has the recorded digest. Exit 0 when it holds, 1 when not.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    /// The record written by `check --record`.
    #[arg(value_name = "RECORD")]
    record: PathBuf,
    /// The trusted public key (KEY.pub from `keygen`). Required to pass a
    /// signed record: without it the signature is not checked (exit 1).
    #[arg(long, value_name = "PUB")]
    key: Option<PathBuf>,
    /// Also check that the tree of DIR matches the recorded digest.
    #[arg(short = 'C', value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Why a record, key or signature could not be read, written or used: a
/// one-line message naming the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum RecordError {
    /// A key, public key or signature is not the hex of its bytes.
    #[error("{what} is not {bytes} bytes of hex")]
    NotHexBytes {
        /// What it is, in words (`the signature`).
        what: String,
        /// How many bytes it holds.
        bytes: usize,
    },
    /// A key, public key or signature holds what is not hex.
    #[error("{what} is not hex")]
    NotHex {
        /// What it is, in words.
        what: String,
    },
    /// The record cannot be read as a project's file.
    #[error("{0}")]
    Unreadable(#[source] testgate::run::ProjectFileError),
    /// The record is not UTF-8.
    #[error("{} is not UTF-8 text", path.display())]
    NotUtf8 {
        /// The record.
        path: PathBuf,
    },
    /// A key file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    KeyUnreadable {
        /// The key file.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// No randomness for a new key.
    #[error("/dev/urandom: {0}")]
    Random(#[source] io::Error),
    /// A new key file cannot be created.
    #[error("cannot create {}: {source}", path.display())]
    KeyUncreated {
        /// The key file.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// A new key file cannot be written.
    #[error("{}: {source}", path.display())]
    KeyUnwritten {
        /// The key file.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// The record cannot be serialised.
    #[error("{0}")]
    Serialise(#[source] serde_json::Error),
    /// The record cannot be written.
    #[error("cannot write the record: {0}")]
    Unwritten(#[source] testgate::run::ProjectFileError),
    /// The public key is no ed25519 key.
    #[error("the public key: {0}")]
    PublicKey(#[source] ed25519_dalek::SignatureError),
    /// The file is not a record.
    #[error("{} is not a record: {source}", path.display())]
    NotARecord {
        /// The file.
        path: PathBuf,
        /// What serde_json said.
        source: serde_json::Error,
    },
    /// The file's `record` is not an object.
    #[error("{} has no record", path.display())]
    NoRecord {
        /// The file.
        path: PathBuf,
    },
    /// The tree to compare with the recorded digest cannot be read.
    #[error("cannot read the tree {}: {source}", dir.display())]
    Tree {
        /// The tree.
        dir: PathBuf,
        /// Why not.
        source: testgate::project_tree::SnapshotError,
    },
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str, what: &str) -> Result<[u8; N], RecordError> {
    let text = text.trim();
    let mut out = [0u8; N];
    if text.len() != 2 * N || !text.is_ascii() {
        return Err(RecordError::NotHexBytes {
            what: what.to_owned(),
            bytes: N,
        });
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte =
            u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| RecordError::NotHex {
                what: what.to_owned(),
            })?;
    }
    Ok(out)
}

/// The most of a record read: a record is a few kilobytes.
const MAX_RECORD: u64 = 16 << 20;

/// Reads a record, which may lie in a project a suite wrote: no link
/// followed, no FIFO waited on, at most [`MAX_RECORD`] bytes.
fn read(path: &Path) -> Result<String, RecordError> {
    let bytes =
        testgate::run::read_project_file(path, MAX_RECORD).map_err(RecordError::Unreadable)?;
    String::from_utf8(bytes).map_err(|_| RecordError::NotUtf8 {
        path: path.to_path_buf(),
    })
}

/// Reads a key file: the user's, kept outside any project (a secrets mount
/// may well make it a symbolic link).
#[expect(
    clippy::disallowed_methods,
    reason = "a key is the user's file, outside the project"
)]
fn read_key(path: &Path) -> Result<String, RecordError> {
    fs::read_to_string(path).map_err(|source| RecordError::KeyUnreadable {
        path: path.to_path_buf(),
        source,
    })
}

pub(crate) fn keygen(args: &KeygenArgs) -> Result<(), Error> {
    let mut seed = [0u8; 32];
    let mut random = fs::File::open("/dev/urandom").map_err(RecordError::Random)?;
    std::io::Read::read_exact(&mut random, &mut seed).map_err(RecordError::Random)?;
    let key = SigningKey::from_bytes(&seed);
    let public = args.key.with_extension(match args.key.extension() {
        Some(ext) => format!("{}.pub", ext.to_string_lossy()),
        None => "pub".to_owned(),
    });
    for (path, text, mode) in [
        (&args.key, hex(&seed), 0o600),
        (&public, hex(key.verifying_key().as_bytes()), 0o644),
    ] {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(path)
            .map_err(|source| RecordError::KeyUncreated {
                path: path.clone(),
                source,
            })?;
        writeln!(file, "{text}").map_err(|source| RecordError::KeyUnwritten {
            path: path.clone(),
            source,
        })?;
    }
    println!(
        "wrote {} (secret, 0600) and {}",
        args.key.display(),
        public.display()
    );
    Ok(())
}

/// Wraps `record` with its signature (by the key in `key`, if any) and
/// writes it to `path`. The signature covers the record as a `Value`
/// (keys sorted) of its printable form: what `verify` reads back.
pub(crate) fn write(
    path: &Path,
    record: &RecordDocument<'_>,
    key: Option<&Path>,
) -> Result<(), Error> {
    let record = crate::json::printable_value(record).map_err(RecordError::Serialise)?;
    let signature = match key {
        None => None,
        Some(key) => {
            let seed: [u8; 32] = unhex(&read_key(key)?, &format!("the key {}", key.display()))?;
            let key = SigningKey::from_bytes(&seed);
            let signature = key.sign(record.to_string().as_bytes());
            Some(testgate_documents::Signature {
                algorithm: "ed25519".to_owned(),
                public_key: hex(key.verifying_key().as_bytes()),
                value: hex(&signature.to_bytes()),
            })
        }
    };
    let text = crate::json::pretty_text(&SignedRecord { record, signature })
        .map_err(RecordError::Serialise)?;
    // The path may lie in the project the suite just wrote: a link planted
    // there is replaced, never written through.
    testgate::run::replace_file(path, text.as_bytes(), 0o644)
        .map_err(|e| RecordError::Unwritten(e).into())
}

/// Checks `signature` over `record`, saying what held; `ok` turns false
/// when it does not.
fn verify_signature(
    signature: &testgate_documents::Signature,
    record: &Value,
    args: &VerifyArgs,
    say: &mut impl FnMut(std::fmt::Arguments<'_>),
    ok: &mut bool,
) -> Result<(), Error> {
    let embedded: [u8; 32] = unhex(&signature.public_key, "the record's public key")?;
    let trusted = match &args.key {
        Some(path) => unhex(&read_key(path)?, &format!("the key {}", path.display()))?,
        None => embedded,
    };
    let value: [u8; 64] = unhex(&signature.value, "the signature")?;
    let key = VerifyingKey::from_bytes(&trusted).map_err(RecordError::PublicKey)?;
    let good = key
        .verify(
            record.to_string().as_bytes(),
            &Signature::from_bytes(&value),
        )
        .is_ok();
    let whose = if args.key.is_some() {
        "the given key"
    } else {
        "the record's own key"
    };
    if good && args.key.is_none() {
        // Anyone can re-sign an edited record with a key of their own:
        // a signature checked against the key it carries proves nothing.
        say(format_args!(
            "FAIL: the signature was not checked: it matches the record's own key, which anyone can make; pass --key KEY.pub"
        ));
        *ok = false;
    } else if good {
        say(format_args!("signature: ok, by {whose}"));
    } else {
        say(format_args!(
            "FAIL: the signature does not match {whose}: the record was changed or signed by another key"
        ));
        *ok = false;
    }
    Ok(())
}

/// Checks a record; Ok(true) when every check held.
pub(crate) fn verify(args: &VerifyArgs) -> Result<bool, Error> {
    let text = read(&args.record)?;
    // The record as a value: the signature covers every field of it, also
    // those a later version of testgate added.
    let not_a_record = |source| RecordError::NotARecord {
        path: args.record.clone(),
        source,
    };
    let document: SignedRecord<Value> = serde_json::from_str(&text).map_err(not_a_record)?;
    let record = &document.record;
    if !record.is_object() {
        return Err(RecordError::NoRecord {
            path: args.record.clone(),
        }
        .into());
    }
    let recorded = RecordedVerdict::deserialize(record).map_err(not_a_record)?;
    let mut ok = true;
    // Each line is said for the reader; one who stopped reading (`verify … |
    // head -1`) changes nothing of the exit status, which is what held.
    let mut out = io::stdout().lock();
    let mut say = |line: std::fmt::Arguments<'_>| {
        let _ = writeln!(out, "{line}");
    };
    if let Some(signature) = &document.signature {
        verify_signature(signature, record, args, &mut say, &mut ok)?;
    } else {
        say(format_args!("signature: none (the record is unsigned)"));
        ok = args.key.is_none();
        if !ok {
            say(format_args!(
                "FAIL: --key was given but the record is unsigned"
            ));
        }
    }
    if let Some(dir) = &args.dir {
        let recorded = recorded.tree_digest.as_deref().unwrap_or("");
        let snapshot = testgate::project_tree::Snapshot::take(dir, false).map_err(|source| {
            RecordError::Tree {
                dir: dir.clone(),
                source,
            }
        })?;
        let now = snapshot.digest();
        // A file over the hashing limit is bound by its size alone: an
        // edit in place is not seen, so "ok" never covers it.
        let unbound: Vec<String> = snapshot
            .unbound()
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        if now == recorded && unbound.is_empty() {
            say(format_args!(
                "tree: ok, {} matches the recorded digest {now}",
                dir.display()
            ));
        } else if now == recorded {
            say(format_args!(
                "tree: ok except {} file(s) the digest does not bind, only their size (over {} MiB, not hashed): {}",
                unbound.len(),
                testgate::project_tree::Limits::default().hashed_file_bytes >> 20,
                unbound.join(", ")
            ));
        } else {
            say(format_args!(
                "FAIL: the tree of {} ({now}) is not the recorded one ({recorded})",
                dir.display()
            ));
            ok = false;
        }
    }
    say(format_args!(
        "verdict recorded: {}",
        recorded.verdict.as_deref().unwrap_or("?")
    ));
    Ok(ok)
}

/// The largest `.git` file, `HEAD`, `commondir` or loose ref read.
const GIT_FILE_LIMIT: u64 = 64 << 10;
/// The largest `packed-refs` read.
const PACKED_REFS_LIMIT: u64 = 16 << 20;

/// The repository whose work tree is the project, found before the first
/// attempt: its git directory and the commit checked out.
pub(crate) struct Repository {
    git_dir: PathBuf,
    /// The commit `HEAD` names, as read from the git directory.
    pub(crate) head: String,
}

impl Repository {
    /// Its git directory.
    pub(crate) fn git_dir(&self) -> &Path {
        &self.git_dir
    }
}

/// `env`'s words that run git as [`git_dirty`] does, on a repository it
/// does not trust: no system or global configuration, attributes,
/// fsmonitor, hooks, transport, replace objects or optional locks. The
/// git directory and the subcommand follow.
pub(crate) const HARDENED_GIT: &[&str] = &[
    "GIT_CONFIG_NOSYSTEM=1",
    "GIT_CONFIG_GLOBAL=/dev/null",
    "GIT_ATTR_NOSYSTEM=1",
    "GIT_NO_LAZY_FETCH=1",
    "GIT_NO_REPLACE_OBJECTS=1",
    "GIT_TERMINAL_PROMPT=0",
    "GIT_OPTIONAL_LOCKS=0",
    "GIT_PAGER=cat",
    "git",
    "--no-pager",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.attributesFile=/dev/null",
    "-c",
    "core.excludesFile=/dev/null",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "protocol.allow=never",
    "--no-optional-locks",
];

/// Why git may not be run on `repository` (the work tree `dir`), or None:
/// it would follow a file out of the project ([`follows_outside`]), or its
/// configuration runs a command ([`runs_a_command`]).
pub(crate) fn git_refused(repository: &Repository, dir: &Path) -> Option<String> {
    if let Some(why) = follows_outside(&repository.git_dir, dir) {
        return Some(why);
    }
    let git_dir = format!("--git-dir={}", repository.git_dir.to_str()?);
    let mut all: Vec<&str> = HARDENED_GIT.to_vec();
    all.extend([git_dir.as_str(), "config", "--list", "-z", "--includes"]);
    let Some(config) = testgate::host_output("env", &all, dir, std::time::Duration::from_secs(60))
    else {
        return Some("git cannot read the repository's configuration".to_owned());
    };
    config
        .split(|&b| b == 0)
        .filter_map(|entry| {
            let key = entry.split(|&b| b == b'\n').next()?;
            let key = String::from_utf8_lossy(key).into_owned();
            runs_a_command(&key.to_ascii_lowercase()).then_some(key)
        })
        .next()
        .map(|key| {
            format!(
                "the repository's configuration sets {}, which runs a command",
                testgate::parse::printable(key.as_bytes())
            )
        })
}

/// A small file of the git directory, read with the project's reader (no
/// final symlink followed, no FIFO waited on, capped), as text.
fn git_file(path: &Path, limit: u64) -> Option<String> {
    let bytes = testgate::run::read_project_file(path, limit).ok()?;
    String::from_utf8(bytes).ok()
}

/// The repository of `dir` when `dir` is a work tree's top (`dir/.git` a
/// directory, or a file naming one): read from `.git`, no git is run.
/// None outside git, for an unborn branch, or when `.git` is a symbolic
/// link.
pub(crate) fn repository(dir: &Path) -> Option<Repository> {
    let dot_git = dir.join(".git");
    let meta = fs::symlink_metadata(&dot_git).ok()?;
    let git_dir = if meta.is_dir() {
        dot_git
    } else if meta.is_file() {
        let text = git_file(&dot_git, GIT_FILE_LIMIT)?;
        dir.join(text.strip_prefix("gitdir:")?.trim())
    } else {
        return None;
    };
    let head = git_file(&git_dir.join("HEAD"), GIT_FILE_LIMIT)?;
    let head = head.trim();
    let Some(reference) = head.strip_prefix("ref:").map(str::trim) else {
        return Some(Repository {
            head: head.to_owned(),
            git_dir,
        });
    };
    // A ref is a path under the git directory: never one that leaves it.
    if !reference.starts_with("refs/") || reference.split('/').any(|c| c == "..") {
        return None;
    }
    let common = git_file(&git_dir.join("commondir"), GIT_FILE_LIMIT)
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|| git_dir.clone());
    let found = [&git_dir, &common].into_iter().find_map(|base| {
        if let Some(id) = git_file(&base.join(reference), GIT_FILE_LIMIT) {
            return Some(id.trim().to_owned());
        }
        let packed = git_file(&base.join("packed-refs"), PACKED_REFS_LIMIT)?;
        let suffix = format!(" {reference}");
        let line = packed.lines().find(|l| l.ends_with(&suffix))?;
        line.split_whitespace().next().map(str::to_owned)
    });
    found.map(|head| Repository { head, git_dir })
}

/// Why git, run in the work tree `dir` with the git directory `git_dir`,
/// would follow a file out of the project, or None: the git directory (a
/// `.git` file's `gitdir:`), its `commondir` or an `objects/info/alternates`
/// of either lies outside `dir`. The tests may have written each of them
/// (`.git` is writable under Landlock), and what lies outside is beyond the
/// snapshot's walk, so git is not pointed there. A linked worktree's or a
/// submodule's checkout is refused so too: its state is left unchecked.
fn follows_outside(git_dir: &Path, dir: &Path) -> Option<String> {
    let inside = |path: &Path| {
        fs::canonicalize(path)
            .map(|real| real.starts_with(dir))
            // What does not exist is nothing git can follow.
            .unwrap_or(true)
    };
    if !inside(git_dir) {
        return Some(format!(
            "the git directory {} lies outside the project",
            git_dir.display()
        ));
    }
    let common =
        git_file(&git_dir.join("commondir"), GIT_FILE_LIMIT).map(|c| git_dir.join(c.trim()));
    if let Some(common) = common.as_ref().filter(|c| !inside(c)) {
        return Some(format!(
            "its commondir names {}, outside the project",
            common.display()
        ));
    }
    for base in std::iter::once(git_dir).chain(common.as_deref()) {
        let objects = base.join("objects");
        for file in ["alternates", "http-alternates"] {
            let Some(text) = git_file(&objects.join("info").join(file), GIT_FILE_LIMIT) else {
                continue;
            };
            let outside = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .find(|l| l.contains("://") || !inside(&objects.join(l)));
            if let Some(line) = outside {
                return Some(format!(
                    "objects/info/{file} names {}, outside the project",
                    testgate::parse::printable(line.as_bytes())
                ));
            }
        }
    }
    None
}

/// The configuration keys (as `git config --list` prints them: section and
/// name lowercased) that make `git status` or `git diff` run a command or
/// reach beyond the repository: filter drivers, diff drivers (textconv,
/// external diff), an external diff, a partial clone's lazy fetch. A
/// repository whose own configuration holds one is not given to git at all.
fn runs_a_command(key: &str) -> bool {
    let mut parts = key.splitn(2, '.');
    let section = parts.next().unwrap_or_default();
    let rest = parts.next().unwrap_or_default();
    match section {
        "filter" => true,
        // `diff.<driver>.*`: a driver (a dot in what follows the section);
        // `diff.external` is a command too.
        "diff" => rest.contains('.') || rest == "external",
        "extensions" => rest == "partialclone",
        "remote" => rest.ends_with(".promisor") || rest.ends_with(".partialclonefilter"),
        // `core.fsmonitor`, `core.pager`, `core.sshCommand` run commands
        // too, but the command line overrides the first, `--no-pager` the
        // second, and no transport is allowed for the third; the listing
        // holds the command line's own `core.fsmonitor=false`.
        _ => false,
    }
}

/// The uncommitted state of the work tree `dir` of `repository`, read
/// before the first attempt: None without a usable git, Some(None) when
/// the tree is clean, Some(Some(dirty)) with the changed paths' count and a
/// SHA-256 over `git status` and `git diff HEAD --binary` otherwise, or
/// with `{"unchecked": WHY}` when git was not run.
///
/// The repository may have been made by a previous check's tests (the
/// project was a subfolder of a repository, or had none), so git is run as
/// a gate must run it on a tree it does not trust: the git directory and
/// the work tree given (no discovery, no `GIT_DIR` of the caller's), no
/// system or global configuration, no attributes file, no fsmonitor, no
/// hooks, no submodules, no transport (no lazy fetch), no external diff
/// or textconv, no optional locks; and not at all when the repository's
/// own configuration defines a filter, a diff driver or anything else that
/// runs a command ([`runs_a_command`]).
pub(crate) fn git_dirty(repository: &Repository, dir: &Path) -> Option<Option<Dirty>> {
    if let Some(why) = follows_outside(&repository.git_dir, dir) {
        return Some(Some(Dirty::Unchecked {
            unchecked: format!("git was not run: {why}"),
        }));
    }
    let git_dir = format!("--git-dir={}", repository.git_dir.to_str()?);
    let work_tree = format!("--work-tree={}", dir.to_str()?);
    let git = |args: &[&str]| -> Option<Vec<u8>> {
        // `env` sets what git reads from its environment; the variables
        // name no path of the project's.
        let mut all = HARDENED_GIT.to_vec();
        all.extend_from_slice(&[&git_dir, &work_tree]);
        all.extend_from_slice(args);
        testgate::host_output("env", &all, dir, std::time::Duration::from_secs(60))
    };
    let config = git(&["config", "--list", "-z", "--includes"])?;
    let refused = config
        .split(|&b| b == 0)
        .filter_map(|entry| {
            let key = entry.split(|&b| b == b'\n').next()?;
            let key = String::from_utf8_lossy(key).into_owned();
            runs_a_command(&key.to_ascii_lowercase()).then_some(key)
        })
        .next();
    if let Some(key) = refused {
        let why = format!(
            "git was not run: the repository's configuration sets {}, which runs a command",
            testgate::parse::printable(key.as_bytes())
        );
        return Some(Some(Dirty::Unchecked { unchecked: why }));
    }
    let status = git(&[
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules=all",
    ])?;
    if status.is_empty() {
        return Some(None);
    }
    let diff = git(&[
        "diff",
        "HEAD",
        "--binary",
        "--no-ext-diff",
        "--no-textconv",
        "--ignore-submodules=all",
    ])
    .unwrap_or_default();
    let mut hasher = <sha2::Sha256 as sha2::Digest>::new();
    sha2::Digest::update(&mut hasher, &status);
    sha2::Digest::update(&mut hasher, &diff);
    let digest = hex(&sha2::Digest::finalize(hasher));
    let paths = status.split(|&b| b == 0).filter(|p| !p.is_empty()).count();
    Some(Some(Dirty::Paths { paths, digest }))
}

/// `bwrap --version`'s one line ("bubblewrap 0.8.0"), or None.
pub(crate) fn bwrap_version() -> Option<String> {
    let out = testgate::host_output(
        "bwrap",
        &["--version"],
        Path::new("/"),
        std::time::Duration::from_secs(10),
    )?;
    let text = String::from_utf8_lossy(&out).trim().to_owned();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use super::*;

    #[test]
    fn what_runs_a_command_is_refused() {
        for key in [
            "filter.lfs.clean",
            "filter.x.process",
            "filter.x.required",
            "diff.x.textconv",
            "diff.x.command",
            "diff.external",
            "extensions.partialclone",
            "remote.origin.promisor",
        ] {
            assert!(runs_a_command(key), "{key}");
        }
    }

    /// What an ordinary repository's configuration holds is not refused.
    #[test]
    fn an_ordinary_configuration_is_not_refused() {
        for key in [
            "core.repositoryformatversion",
            "core.filemode",
            "core.bare",
            "core.logallrefupdates",
            "remote.origin.url",
            "remote.origin.fetch",
            "branch.main.remote",
            "branch.main.merge",
            "user.name",
            "diff.renames",
            "diff.algorithm",
            "pull.rebase",
            "extensions.worktreeconfig",
            "alias.st",
            "core.fsmonitor",
            "",
            "filterx.y",
        ] {
            assert!(!runs_a_command(key), "{key}");
        }
    }

    /// testgate's own git follows no `gitdir`, `commondir` or alternates
    /// out of the project (issue 35).
    #[test]
    fn git_is_not_pointed_out_of_the_project() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = fs::canonicalize(dir.path()).expect("canonical");
        let project = root.join("project");
        let git = project.join(".git");
        fs::create_dir_all(git.join("objects/info")).expect("objects");
        fs::create_dir_all(root.join("elsewhere")).expect("elsewhere");
        assert_eq!(follows_outside(&git, &project), None);
        // Inside the project: followed.
        fs::create_dir_all(project.join("build/copy")).expect("copy");
        fs::write(git.join("commondir"), "../build/copy\n").expect("commondir");
        assert_eq!(follows_outside(&git, &project), None);
        fs::write(git.join("commondir"), "../../elsewhere\n").expect("commondir");
        let why = follows_outside(&git, &project).expect("refused");
        assert!(why.starts_with("its commondir names "), "{why}");
        fs::remove_file(git.join("commondir")).expect("rm");
        fs::write(
            git.join("objects/info/alternates"),
            "# a comment\n../../build/copy\n",
        )
        .expect("alternates");
        assert_eq!(follows_outside(&git, &project), None);
        fs::write(git.join("objects/info/alternates"), "/\n").expect("alternates");
        let why = follows_outside(&git, &project).expect("refused");
        assert!(why.starts_with("objects/info/alternates names /"), "{why}");
        // A `.git` file's git directory elsewhere.
        let why = follows_outside(&root.join("elsewhere"), &project).expect("refused");
        assert!(why.ends_with("lies outside the project"), "{why}");
    }

    #[test]
    fn a_head_is_read_without_git_and_a_planted_ref_path_is_not_followed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let git = dir.path().join(".git");
        fs::create_dir_all(git.join("refs/heads")).expect("refs");
        fs::write(git.join("HEAD"), "ref: refs/heads/main\n").expect("HEAD");
        fs::write(git.join("refs/heads/main"), "abc123\n").expect("ref");
        let repo = repository(dir.path()).expect("a repository");
        assert_eq!(repo.head, "abc123");
        assert_eq!(repo.git_dir, git);
        fs::write(git.join("HEAD"), "ref: ../../../etc/passwd\n").expect("HEAD");
        assert!(repository(dir.path()).is_none());
        fs::write(git.join("HEAD"), "ref: refs/../../x\n").expect("HEAD");
        assert!(repository(dir.path()).is_none());
        // A FIFO for HEAD is refused, not waited on.
        fs::remove_file(git.join("HEAD")).expect("rm");
        let fifo = std::ffi::CString::new(git.join("HEAD").into_os_string().into_encoded_bytes())
            .expect("path");
        // SAFETY: mkfifo with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        assert!(repository(dir.path()).is_none());
    }
}
