//! `testgate batch`: a manifest line (a check to run) and a result line.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::check::CheckDocument;
use crate::expect::ExpectFile;

/// The `schema` of a batch result line.
pub const BATCH_SCHEMA: u32 = 1;

/// One line of `batch --out`: a check's exit code and document, or why it
/// could not run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchLine<'a> {
    /// [`BATCH_SCHEMA`].
    pub schema: u32,
    /// The manifest line's `id` (any JSON), else its line number.
    pub id: serde_json::Value,
    /// The manifest line, from 1.
    pub line: u64,
    /// `check`'s exit code ([`crate::TestgateExitCode`]): 0, 1, 125, or 2
    /// with `error`.
    pub exit_code: u8,
    /// Whether the verdict met `expect_verdict`; null without one.
    pub as_expected: Option<bool>,
    /// Why the check could not run (an invalid line, a usage error).
    pub error: Option<String>,
    /// How long the check took.
    pub duration_ms: u64,
    /// The check's document; null with `error`.
    pub result: Option<CheckDocument<'a>>,
}

/// One line of a `testgate batch` manifest: a check, its options named as
/// `check`'s are (docs/cli.md, "`testgate batch`"). Paths are relative to
/// the manifest's folder; a key not named here is refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ManifestEntry {
    /// The line's id in its result line (any JSON); default its number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<serde_json::Value>,
    /// The project directory (`-C`).
    pub workspace: PathBuf,
    /// The test command; missing or empty: found from the project's files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// `--retries`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// `--timeout`: `90s`, `5m`, or seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Scalar>,
    /// `--sandbox`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// `--allow-network`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_network: Option<bool>,
    /// `--writable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writable: Option<Vec<PathBuf>>,
    /// `--tmpfs-size`: `512M`, or bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tmpfs_size: Option<Scalar>,
    /// `--env`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<ManifestEnv>,
    /// `--prepare`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepare: Option<Vec<String>>,
    /// `--rerun`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun: Option<String>,
    /// `--format`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `--restore` (does nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore: Option<bool>,
    /// `--keep-changes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_changes: Option<bool>,
    /// `--trusted`: the revision whose test files run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted: Option<String>,
    /// `--apply`: the patch file (relative to the manifest's folder), or
    /// `record`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply: Option<PathBuf>,
    /// `--expect`: a file's path, or its JSON inline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<ManifestExpect>,
    /// `--baseline`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<PathBuf>,
    /// `--quarantine`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quarantine: Option<PathBuf>,
    /// `--stress`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stress: Option<u32>,
    /// `--missing`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// `--strict`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// `--evidence`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// `--report` (a path inside the project).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<PathBuf>,
    /// `--structured`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<bool>,
    /// `--record`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<PathBuf>,
    /// `--junit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<PathBuf>,
    /// `--swebench-report`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swebench_report: Option<PathBuf>,
    /// `--sign`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sign: Option<PathBuf>,
    /// `--name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `--version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The verdict this check should reach; its result line's
    /// `as_expected` says whether it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_verdict: Option<ExpectVerdict>,
}

/// A value given as a string (`"5m"`) or a number (seconds, bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Scalar {
    /// As written: `90s`, `512M`.
    Text(String),
    /// A number: seconds, bytes.
    Number(u64),
}

impl Scalar {
    /// The value as `check`'s option takes it.
    pub fn word(&self) -> String {
        match self {
            Scalar::Text(text) => text.clone(),
            Scalar::Number(n) => n.to_string(),
        }
    }
}

/// A manifest's `env`: `{"NAME": "VALUE"}` (null passes the host's
/// through) or `["NAME", "NAME=VALUE"]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum ManifestEnv {
    /// Names to values; null passes the host's through.
    Map(BTreeMap<String, Option<String>>),
    /// `NAME` or `NAME=VALUE` words, as `--env` takes them.
    List(Vec<String>),
}

/// A manifest's `expect`: the path of an `--expect` file, or its JSON
/// (whose errors name the list at fault, as the file's do).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum ManifestExpect {
    /// The file's path.
    File(PathBuf),
    /// The file's JSON.
    Inline(Box<ExpectFile>),
}

/// `expect_verdict`: `"fail"`, or `{"verdict": "fail", "cause": …,
/// "failing": […]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum ExpectVerdict {
    /// The verdict alone.
    Verdict(String),
    /// The verdict, and its cause or failing tests.
    Full {
        /// `pass`, `fail` or `inconclusive`.
        verdict: String,
        /// The inconclusive verdict's cause.
        #[serde(default)]
        cause: Option<String>,
        /// The failing tests, in any order.
        #[serde(default)]
        failing: Option<Vec<String>>,
    },
}

impl<'de> Deserialize<'de> for ManifestExpect {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Expect;
        impl<'de> Visitor<'de> for Expect {
            type Value = ManifestExpect;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an --expect file's path or its JSON object")
            }
            fn visit_str<E: de::Error>(self, path: &str) -> Result<ManifestExpect, E> {
                Ok(ManifestExpect::File(PathBuf::from(path)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ManifestExpect, A::Error> {
                ExpectFile::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|file| ManifestExpect::Inline(Box::new(file)))
            }
        }
        deserializer.deserialize_any(Expect)
    }
}

impl<'de> Deserialize<'de> for ManifestEnv {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Env;
        impl<'de> Visitor<'de> for Env {
            type Value = ManifestEnv;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("{\"NAME\": \"VALUE\" or null} or [\"NAME\", \"NAME=VALUE\"]")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ManifestEnv, A::Error> {
                BTreeMap::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(ManifestEnv::Map)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<ManifestEnv, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(ManifestEnv::List)
            }
        }
        deserializer.deserialize_any(Env)
    }
}
