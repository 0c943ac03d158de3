//! `parse --json`: what the parser understood of one file, one line each.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::shared::{Counts, Crash, Outcome};

/// The `schema` of each `parse --json` line, by [`CHECK_SCHEMA`]'s rule.
///
/// [`CHECK_SCHEMA`]: crate::CHECK_SCHEMA
pub const PARSE_SCHEMA: u32 = 1;

/// One line of `parse --json`: what the parser understood of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ParseDocument<'a> {
    /// The document's version, [`PARSE_SCHEMA`].
    pub schema: u32,
    /// The path as given (`-` for standard input); a path that is not
    /// UTF-8 is shown lossily.
    pub file: Cow<'a, str>,
    /// The output format recognised.
    pub format: Option<Cow<'a, str>>,
    /// The failing tests.
    pub failing: Vec<FailingTest<'a>>,
    /// The runner's totals.
    pub counts: Counts,
    /// The runner said it ran no test.
    pub no_tests_ran: bool,
    /// The first scope the runner opened and never closed, if any.
    pub unclosed: Option<Cow<'a, str>>,
    /// Tests that failed and then passed within the run.
    pub flaky: Cow<'a, [String]>,
    /// Re-runs of failed tests counted without names.
    pub reruns: u64,
    /// Tests started and not ended when the output stopped.
    pub running: Cow<'a, [String]>,
    /// Every test the output named, with its outcome.
    pub tests: Vec<Test<'a>>,
    /// Results left out of `tests` once it was full.
    pub tests_omitted: u64,
    /// Test binaries that died naming no failing test.
    pub crashes: Vec<Crash<'a>>,
    /// Tests the runner counted risky, not failed (PHPUnit's `There was 1
    /// risky test:`), with its reason: no failure of the run unless the
    /// project fails a run on them (`failOnRisky`). Absent where none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub risky: Vec<FailingTest<'a>>,
    /// Tests the runner warned about and did not count failed (PHPUnit
    /// 9's `There was 1 warning:`), with its warning: no failure of the run
    /// unless the project fails a run on them (`failOnWarning`). Absent
    /// where none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warned: Vec<FailingTest<'a>>,
    /// Lines read.
    pub lines: u64,
    /// Lines longer than the parser keeps.
    pub long_lines: u64,
    /// One section per runner per CI step, in order: a log of a job that
    /// ran several runners names each one's failing tests in its own
    /// section. Absent from documents of versions before it.
    #[serde(default)]
    pub sections: Vec<Section<'a>>,
}

/// One runner's part of a log: within one CI step, over a range of lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Section<'a> {
    /// The runner (`format`'s names).
    pub format: Cow<'a, str>,
    /// The CI step's command, or its name where the CI gives no command;
    /// null outside any step a CI marked.
    pub step: Option<Cow<'a, str>>,
    /// The section's first line, from 0.
    pub first_line: u64,
    /// The section's last line, from 0.
    pub last_line: u64,
    /// The failing tests this runner named in this section: positions in
    /// the document's `failing`, from 0.
    pub failing: Vec<usize>,
    /// Failing tests another runner's lines named within this section's
    /// runner's lines (a pytest session a cargo test printed): its output,
    /// not a run; positions in `failing`, in no section's `failing`.
    #[serde(default)]
    pub printed: Vec<usize>,
}

/// A failing test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FailingTest<'a> {
    /// The test.
    pub name: Cow<'a, str>,
    /// The output format that named it.
    pub format: Cow<'a, str>,
    /// Where it lies, if the runner said.
    pub context: Option<Cow<'a, str>>,
    /// What the name names: a test, a file, a binary...
    pub kind: Cow<'a, str>,
    /// The first line that states the failure, in the test's own output.
    pub message: Option<Cow<'a, str>>,
    /// The test's own output, bounded (docs/formats.md).
    pub excerpt: Option<Cow<'a, str>>,
}

/// A test the output named, with its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Test<'a> {
    /// The test.
    pub name: Cow<'a, str>,
    /// Its outcome.
    pub outcome: Outcome,
    /// What the name names.
    pub kind: Cow<'a, str>,
    /// The output format that named it.
    pub format: Cow<'a, str>,
    /// Where it lies, if the runner said.
    pub context: Option<Cow<'a, str>>,
}
