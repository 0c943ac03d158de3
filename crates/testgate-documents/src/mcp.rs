//! The arguments of the `testgate mcp` tools; each doc comment is the
//! argument's description in `tools/list`.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::batch::Scalar;
use crate::expect::ExpectFile;

/// The `check` tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CheckArguments {
    /// The project directory the command runs in (read-write in the sandbox); relative to the server's directory. It must lie in a folder the server serves (`testgate mcp --root`) and be no system folder.
    pub workspace: String,
    /// The test command and its arguments, e.g. ["cargo", "test"]. Leave it out to have testgate find the project's runner from its files (Cargo.toml, go.mod, pytest's configuration, package.json's test script); the result's `detected` says what it chose and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<Vec<String>>,
    /// Further attempts after a failing one (detect flakiness; never turn a failure into a pass). Default 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<u32>,
    /// Another name for retries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// The time limit of one attempt: 90s, 5m, 1h30m, or seconds. Default 10m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Scalar>,
    /// Grade against listed tests: {"must_pass": [...], "keep_passing": [...]} or SWE-bench's {"FAIL_TO_PASS": [...], "PASS_TO_PASS": [...]}.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<ExpectFile>,
    /// What a retry runs. Default all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerun: Option<RerunArgument>,
    /// Variables to set: {"NAME": "VALUE"} or ["NAME=VALUE"]. The host's are never passed through, and none that changes a mount, path, search path or loader (PATH, PYTHONPATH, HOME, *_TARGET_DIR, caches, LD_*, *FLAGS, NODE_OPTIONS…) is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<EnvArgument>,
    /// Let the command reach the network. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_network: Option<bool>,
    /// The runner whose output to read; auto by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// Accepted, does nothing: the tree is put back after every attempt by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restore: Option<bool>,
    /// Leave what the last attempt changed in the tree in place instead of putting it back. Default false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_changes: Option<bool>,
    /// A git revision of the workspace (a branch, a tag, a commit) whose test files and test configuration (conftest.py, jest's configuration and setup files, *_test.go, …) run instead of the submitted ones; "none" runs the tests as submitted. With an instance record in expect, its base_commit by default, with its test_patch applied. The tree is left as found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trusted: Option<String>,
    /// A patch (a unified diff, the text itself) applied to the submitted tree before the tests run, in the view the attempts run; the tree is left as found. One that does not apply runs nothing (inconclusive, prepare_failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply: Option<String>,
    /// With expect: what a listed test that never ran makes of the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<MissingArgument>,
    /// With expect: tests on no list gate too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// Run the suite N times and list every test whose outcome varied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 2)))]
    pub stress: Option<u32>,
    /// What a pass needs: `report` gives no pass without the runner's own report (inconclusive no_report where the runner cannot be asked for one). Default any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<EvidenceArgument>,
    /// Return `testgate check --json`'s whole document (every test's outcome in every attempt, the attempts' details: often 100+ KB) instead of the compact result (verdict, cause, failing tests with the first line of their message, a grading summary, the attempts in a line each). Default false. The `diff` tool needs whole documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full: Option<bool>,
}

/// What a retry runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum RerunArgument {
    /// The command as given.
    All,
    /// Only the tests that failed.
    Failed,
}

/// What a listed test that never ran makes of the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum MissingArgument {
    /// Inconclusive `not_run`.
    NotRun,
    /// Fail, as SWE-bench grades a test missing from the log.
    Fail,
}

/// What a pass needs of the runner's own report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceArgument {
    /// The report where the runner can be asked for one, else the console.
    Any,
    /// No pass without the runner's own report.
    Report,
}

/// The `check` tool's `env`: `{"NAME": "VALUE"}` or `["NAME=VALUE"]`; a
/// value is always given (the host's are never passed through).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum EnvArgument {
    /// Names to values.
    Map(BTreeMap<String, String>),
    /// `NAME=VALUE` words.
    List(Vec<String>),
}

/// The `parse` tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ParseArguments {
    /// A test runner's output, or its JUnit XML or JSON report.
    pub text: String,
    /// The runner that wrote it; auto (the default) recognises every runner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// The `diff` tool's arguments: two check documents (or records holding
/// one), each as JSON or as its JSON text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiffArguments {
    /// The earlier check's document (the check tool's result, or a record).
    pub before: serde_json::Value,
    /// The later check's document.
    pub after: serde_json::Value,
}

impl<'de> Deserialize<'de> for EnvArgument {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Env;
        impl<'de> Visitor<'de> for Env {
            type Value = EnvArgument;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("{\"NAME\": \"VALUE\"} or [\"NAME=VALUE\"]")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EnvArgument, A::Error> {
                let mut values = BTreeMap::new();
                while let Some(name) = map.next_key::<String>()? {
                    // Null passes the host's variable through on the
                    // command line and in a manifest; never here.
                    let Some(value) = map.next_value::<Option<String>>()? else {
                        return Err(de::Error::custom(
                            "null: give a value; the server sets variables and never passes \
                             the host's through (they may hold secrets)",
                        ));
                    };
                    values.insert(name, value);
                }
                Ok(EnvArgument::Map(values))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<EnvArgument, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(EnvArgument::List)
            }
        }
        deserializer.deserialize_any(Env)
    }
}
