//! Verdict records: `check --record FILE [--sign KEY]`, `keygen`, `verify`.
//!
//! A record file is one JSON object `{"record": {...}, "signature": ...}`.
//! The signature is ed25519 over the compact serialisation of `record` (keys
//! sorted, as serde_json writes a map), `{"algorithm": "ed25519",
//! "public_key": HEX, "value": HEX}`, or null when unsigned. A key file is
//! the 32-byte secret seed in hex on one line (mode 0600); `KEY.pub` holds
//! the public key in hex.

use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde_json::{Value, json};

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
    /// The trusted public key (KEY.pub from `keygen`). Without it the
    /// record's own key is used, which proves integrity, not origin.
    #[arg(long, value_name = "PUB")]
    key: Option<PathBuf>,
    /// Also check that the tree of DIR matches the recorded digest.
    #[arg(short = 'C', value_name = "DIR")]
    dir: Option<PathBuf>,
}

fn bad(what: impl std::fmt::Display) -> Error {
    Error::Record(what.to_string())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(text: &str, what: &str) -> Result<[u8; N], Error> {
    let text = text.trim();
    let mut out = [0u8; N];
    if text.len() != 2 * N || !text.is_ascii() {
        return Err(bad(format!("{what} is not {N} bytes of hex")));
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
            .map_err(|_| bad(format!("{what} is not hex")))?;
    }
    Ok(out)
}

/// The most of a record read: a record is a few kilobytes.
const MAX_RECORD: u64 = 16 << 20;

/// Reads a record, which may lie in a project a suite wrote: no link
/// followed, no FIFO waited on, at most [`MAX_RECORD`] bytes.
fn read(path: &Path) -> Result<String, Error> {
    let bytes = testgate::read_project_file(path, MAX_RECORD).map_err(bad)?;
    String::from_utf8(bytes).map_err(|_| bad(format!("{} is not UTF-8 text", path.display())))
}

/// Reads a key file: the user's, kept outside any project (a secrets mount
/// may well make it a symbolic link).
#[expect(
    clippy::disallowed_methods,
    reason = "a key is the user's file, outside the project"
)]
fn read_key(path: &Path) -> Result<String, Error> {
    fs::read_to_string(path).map_err(|e| bad(format!("cannot read {}: {e}", path.display())))
}

pub(crate) fn keygen(args: &KeygenArgs) -> Result<(), Error> {
    let mut seed = [0u8; 32];
    let mut random =
        fs::File::open("/dev/urandom").map_err(|e| bad(format!("/dev/urandom: {e}")))?;
    std::io::Read::read_exact(&mut random, &mut seed)
        .map_err(|e| bad(format!("/dev/urandom: {e}")))?;
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
            .map_err(|e| bad(format!("cannot create {}: {e}", path.display())))?;
        writeln!(file, "{text}").map_err(|e| bad(format!("{}: {e}", path.display())))?;
    }
    println!(
        "wrote {} (secret, 0600) and {}",
        args.key.display(),
        public.display()
    );
    Ok(())
}

/// Wraps `record` with its signature (by the key in `key`, if any) and
/// writes it to `path`.
pub(crate) fn write(path: &Path, record: Value, key: Option<&Path>) -> Result<(), Error> {
    let signature = match key {
        None => Value::Null,
        Some(key) => {
            let seed: [u8; 32] = unhex(&read_key(key)?, &format!("the key {}", key.display()))?;
            let key = SigningKey::from_bytes(&seed);
            let signature = key.sign(record.to_string().as_bytes());
            json!({
                "algorithm": "ed25519",
                "public_key": hex(key.verifying_key().as_bytes()),
                "value": hex(&signature.to_bytes()),
            })
        }
    };
    let document = json!({"record": record, "signature": signature});
    // The path may lie in the project the suite just wrote: a link planted
    // there is replaced, never written through.
    testgate::replace_file(path, format!("{document:#}\n").as_bytes(), 0o644)
        .map_err(|e| bad(format!("cannot write the record: {e}")))
}

/// Checks a record; Ok(true) when every check held.
pub(crate) fn verify(args: &VerifyArgs) -> Result<bool, Error> {
    let text = read(&args.record)?;
    let document: Value = serde_json::from_str(&text)
        .map_err(|e| bad(format!("{} is not a record: {e}", args.record.display())))?;
    let record = &document["record"];
    if !record.is_object() {
        return Err(bad(format!("{} has no record", args.record.display())));
    }
    let mut ok = true;
    let signature = &document["signature"];
    if signature.is_null() {
        println!("signature: none (the record is unsigned)");
        ok = args.key.is_none();
        if !ok {
            println!("FAIL: --key was given but the record is unsigned");
        }
    } else {
        let embedded: [u8; 32] = unhex(
            signature["public_key"].as_str().unwrap_or(""),
            "the record's public key",
        )?;
        let trusted = match &args.key {
            Some(path) => unhex(&read_key(path)?, &format!("the key {}", path.display()))?,
            None => embedded,
        };
        let value: [u8; 64] = unhex(signature["value"].as_str().unwrap_or(""), "the signature")?;
        let key =
            VerifyingKey::from_bytes(&trusted).map_err(|e| bad(format!("the public key: {e}")))?;
        let good = key
            .verify(
                record.to_string().as_bytes(),
                &Signature::from_bytes(&value),
            )
            .is_ok();
        let whose = if args.key.is_some() {
            "the given key"
        } else {
            "the record's own key (not a trusted one: pass --key)"
        };
        if good {
            println!("signature: ok, by {whose}");
        } else {
            println!(
                "FAIL: the signature does not match {whose}: the record was changed or signed by another key"
            );
            ok = false;
        }
    }
    if let Some(dir) = &args.dir {
        let recorded = record["tree_digest"].as_str().unwrap_or("");
        let now = testgate::tree::Snapshot::take(dir, false)
            .map_err(|e| bad(format!("cannot read the tree {}: {e}", dir.display())))?
            .digest();
        if now == recorded {
            println!(
                "tree: ok, {} matches the recorded digest {now}",
                dir.display()
            );
        } else {
            println!(
                "FAIL: the tree of {} ({now}) is not the recorded one ({recorded})",
                dir.display()
            );
            ok = false;
        }
    }
    println!(
        "verdict recorded: {}",
        record["verdict"].as_str().unwrap_or("?")
    );
    Ok(ok)
}

/// The uncommitted state of the git work tree `dir`, read before the first
/// attempt: None outside git (or without a usable git), Some(None) when the
/// tree is clean, Some(Some(dirty)) with the changed paths' count and a
/// SHA-256 over `git status` and `git diff HEAD --binary` otherwise.
///
/// git runs on the host, so it is run as a gate must run it on a tree it
/// does not trust: no fsmonitor, no hooks, no external diff or textconv
/// drivers, no optional locks, no system configuration. (A test cannot have
/// planted any of these: `.git` is read-only in the sandbox.)
pub(crate) fn git_dirty(dir: &Path) -> Option<Option<Value>> {
    let git = |args: &[&str]| -> Option<Vec<u8>> {
        let mut all = vec![
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.untrackedCache=false",
            "--no-optional-locks",
        ];
        all.extend_from_slice(args);
        testgate::host_output("git", &all, dir, std::time::Duration::from_secs(60))
    };
    let status = git(&["status", "--porcelain=v1", "-z", "--untracked-files=all"])?;
    if status.is_empty() {
        return Some(None);
    }
    let diff =
        git(&["diff", "HEAD", "--binary", "--no-ext-diff", "--no-textconv"]).unwrap_or_default();
    let mut hasher = <sha2::Sha256 as sha2::Digest>::new();
    sha2::Digest::update(&mut hasher, &status);
    sha2::Digest::update(&mut hasher, &diff);
    let digest = hex(&sha2::Digest::finalize(hasher));
    let paths = status.split(|&b| b == 0).filter(|p| !p.is_empty()).count();
    Some(Some(json!({"paths": paths, "digest": digest})))
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
