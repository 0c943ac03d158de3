//! `check --record FILE`: the verdict record and its signed envelope.

use serde::{Deserialize, Serialize};

use crate::check::CheckDocument;

/// The `schema` of a verdict record ([`RecordDocument::schema`]).
pub const RECORD_SCHEMA: &str = "testgate-record/1";

/// A `--record` file: the record and its signature (null when unsigned).
/// The signature is ed25519 over the record as serde_json writes it as a
/// `Value` (compact, keys sorted); `testgate verify` reads `record` as such
/// a value (`R = serde_json::Value`) so that fields a later version added
/// stay signed, and `check --record` writes a [`RecordDocument`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SignedRecord<R> {
    /// The record.
    pub record: R,
    /// Its signature, or null for an unsigned record.
    pub signature: Option<Signature>,
}

/// The signature of a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Signature {
    /// `ed25519`.
    pub algorithm: String,
    /// The signer's public key, 32 bytes in hex.
    pub public_key: String,
    /// The signature, 64 bytes in hex.
    pub value: String,
}

/// The verdict record: what was checked (the suite, its tree, the command,
/// the options, the sandbox, the environment's names, the toolchain) and
/// the check's document (`result`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordDocument<'a> {
    /// [`RECORD_SCHEMA`].
    pub schema: String,
    /// The version of testgate that wrote it.
    pub testgate: String,
    /// The suite checked.
    pub suite: RecordSuite,
    /// The digest of the project tree checked.
    pub tree_digest: Option<String>,
    /// Paths the tree digest could not bind (unreadable, too large).
    pub tree_unbound: Vec<String>,
    /// The test command, as run.
    pub command: Vec<String>,
    /// The check's options.
    pub options: RecordOptions,
    /// The sandbox asked for and used.
    pub sandbox: RecordSandbox,
    /// The names `--env` set or passed through (never their values).
    pub env: Vec<String>,
    /// The names of every variable the command's environment held.
    pub environment: Vec<String>,
    /// The runner's toolchain versions, asked before the attempts.
    pub toolchain: Vec<ToolchainVersion>,
    /// The host.
    pub host: Host,
    /// When the attempts started, in seconds since the Unix epoch.
    pub started_at: u64,
    /// When they ended.
    pub ended_at: u64,
    /// `pass`, `fail` or `inconclusive`: the result's verdict.
    pub verdict: String,
    /// `check --json`'s document of the check.
    pub result: CheckDocument<'a>,
    /// How testgate chose the command, when none was given; absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command_detected: Option<CommandDetected>,
}

/// `suite`: the suite's name and version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordSuite {
    /// `--name`, else the directory's name.
    pub name: String,
    /// `--version`, else the git commit (`-dirty` with uncommitted
    /// changes); null outside a repository.
    pub version: Option<String>,
    /// The uncommitted changes, where the version is a dirty commit.
    pub dirty: Option<Dirty>,
}

/// `suite.dirty`: the uncommitted changes, or why they were not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Dirty {
    /// How many paths changed, and a digest of the changes.
    Paths {
        /// How many paths `git status` reports.
        paths: usize,
        /// The digest of the changes.
        digest: String,
    },
    /// Why the changes were not read.
    Unchecked {
        /// The reason.
        unchecked: String,
    },
}

/// `options`: the check's options that change a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordOptions {
    /// `--timeout`, in milliseconds.
    pub timeout_ms: u64,
    /// `--retries`.
    pub retries: u32,
    /// `--rerun`: `all` or `failed`.
    pub rerun: String,
    /// `--format`.
    pub format: String,
    /// Whether the tree was put back after each attempt.
    pub restore: bool,
    /// `--keep-changes`.
    pub keep_changes: bool,
    /// `--evidence`: `any` or `report`.
    pub evidence: String,
}

/// `sandbox`: the sandbox asked for and the one used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RecordSandbox {
    /// The sandbox used: `bwrap`, `landlock` or `none`.
    pub kind: String,
    /// `--sandbox`: `auto`, `bwrap`, `landlock` or `none`.
    pub requested: String,
    /// Why `auto` chose `kind`, where it chose.
    pub why: Option<String>,
    /// `--allow-network`.
    pub allow_network: bool,
    /// `--writable`.
    pub writable: Vec<String>,
    /// `--tmpfs-size`, in bytes.
    pub tmpfs_size: u64,
}

/// One toolchain question and its answer (`cargo --version`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ToolchainVersion {
    /// The command asked.
    pub question: String,
    /// Its output's first line.
    pub answer: String,
}

/// `host`: the kernel and the sandbox's version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Host {
    /// The kernel's release (`uname -r`).
    pub kernel: String,
    /// `bwrap --version`, under bubblewrap.
    pub bwrap: Option<String>,
}

/// `command_detected`: the runner testgate found, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CommandDetected {
    /// The runner (`cargo`, `pytest`, …).
    pub runner: String,
    /// What in the project showed it.
    pub why: String,
}
