//! `diff --json`: how each test changed between two checks.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The `schema` of `diff --json`'s document.
pub const DIFF_SCHEMA: u32 = 1;

/// `diff --json`: every test of either check and how it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiffDocument<'a> {
    /// The document's version, [`DIFF_SCHEMA`].
    pub schema: u32,
    /// Every test, with its change.
    pub tests: Vec<DiffEntry<'a>>,
    /// How many tests each change holds, by change.
    pub counts: BTreeMap<Cow<'a, str>, usize>,
}

/// One test and how it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DiffEntry<'a> {
    /// The test.
    pub name: Cow<'a, str>,
    /// Where it lies (its `context` in the checks: a file, a package), if
    /// the runner said: two tests of one name in two files are two
    /// entries. Absent where the runner gave none (added after the first
    /// version of the schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Cow<'a, str>>,
    /// `broken`, `fixed`, `still_failing`, `new`, `gone`, `flaky`,
    /// `not_run` or `still_passing`.
    pub change: Cow<'a, str>,
    /// Its grade in the earlier check, if it was in it.
    pub before: Option<Cow<'a, str>>,
    /// Its grade in the later check, if it is in it.
    pub after: Option<Cow<'a, str>>,
}
