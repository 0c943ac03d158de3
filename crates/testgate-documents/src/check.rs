//! `check --json`: the verdict and everything that led to it.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::shared::{Counts, Crash, Outcome};

/// The `schema` of `check --json`'s document. A field added keeps it; a
/// field removed, renamed or given another meaning bumps it.
pub const CHECK_SCHEMA: u32 = 1;

/// `check --json`: the verdict and everything that led to it. A `--record`
/// file holds the same document as its `record.result`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckDocument<'a> {
    /// The document's version, [`CHECK_SCHEMA`].
    pub schema: u32,
    /// `pass`, `fail` or `inconclusive`.
    pub verdict: Cow<'a, str>,
    /// Why an inconclusive verdict is one (`flaky`, `timed_out`, …, as
    /// docs/cli.md lists them); null otherwise. A string, not an enum here:
    /// a cause the facade adds reaches the document unchanged.
    pub cause: Option<Cow<'a, str>>,
    /// A Fail's failing tests.
    pub failing: Cow<'a, [String]>,
    /// Each name of `failing` with its own output, where a parser kept it.
    /// Added after the first version of the schema: a document written
    /// before it reads as none.
    #[serde(default)]
    pub failures: Vec<Failure<'a>>,
    /// The verdict in a sentence.
    pub reason: Cow<'a, str>,
    /// The suite's name and version, where the project gives them.
    pub suite: Option<Suite<'a>>,
    /// What the attempts showed together.
    pub findings: Findings<'a>,
    /// The preparation commands run before the attempts.
    pub preparations: Vec<Preparation<'a>>,
    /// Every attempt, in order.
    pub attempts: Vec<Attempt<'a>>,
    /// The digest of the project tree checked.
    pub tree_digest: Option<Cow<'a, str>>,
    /// What the attempts changed in the tree, if anything.
    pub tree: Option<Tree>,
    /// Every test any attempt's output named, with its outcome in each.
    pub tests: Vec<TestHistory<'a>>,
    /// The listed tests and their grades, under `--expect`.
    pub grading: Option<Grading<'a>>,
    /// Under `--stress`: the runs and every test whose outcome varied.
    pub stress: Option<Stress<'a>>,
    /// The sandbox the attempts ran in, and why `auto` chose it. Always
    /// written; null only in a document written before the field was
    /// added (a field added keeps the schema's version).
    #[serde(default)]
    pub sandbox: Option<Sandbox<'a>>,
    /// The channels that judged every attempt: `["exit", "report",
    /// "console"]`, or `["exit", "console"]` when the console judged alone
    /// in any (docs/policy.md, "Three channels must agree"); empty when no
    /// attempt ran (or in a document written before the field was added).
    #[serde(default)]
    pub evidence: Vec<Cow<'a, str>>,
    /// The command testgate chose from the project's files when none was
    /// given; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detected: Option<Detected>,
    /// The view the attempts ran when it was not the tree as submitted
    /// (`--apply`, `--trusted`, an instance record's `base_commit` and
    /// `test_patch`): the patch applied, the trusted files put in, the
    /// differences between the submission and the trusted files (a
    /// finding, not by itself a verdict), and whether the tree was put
    /// back as found. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View>,
}

/// `view`: what the view the attempts ran made of the tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct View {
    /// The trusted revision, as given (`--trusted`, the record's
    /// `base_commit`); null when only a patch was applied.
    pub revision: Option<String>,
    /// Whether a test patch was applied to the trusted files.
    pub test_patch: bool,
    /// The files the patch (`--apply`) wrote or removed.
    pub patched: Vec<String>,
    /// Trusted files the submission holds with other content: the
    /// revision's ran instead.
    pub replaced: Vec<String>,
    /// Files on trusted paths that the submission added and the revision
    /// lacks: not in the view.
    pub removed: Vec<String>,
    /// Trusted files the submission lacks: put back in the view.
    pub restored: Vec<String>,
    /// Whether the tree was put back as found after the check.
    pub put_back: bool,
    /// Why it was not, when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub put_back_error: Option<String>,
}

/// `detected`: the command `check` chose with no command given, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Detected {
    /// The command that ran.
    pub command: Vec<String>,
    /// The runner it starts (`cargo`, `pytest`, …).
    pub runner: String,
    /// What in the project showed it (`found Cargo.toml`).
    pub why: String,
}

/// One failing test of a Fail and its own output: the message and excerpt
/// of the latest attempt whose parser kept one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Failure<'a> {
    /// The test, as named in `failing`.
    pub name: Cow<'a, str>,
    /// The first line that states the failure, in the test's own output.
    pub message: Option<Cow<'a, str>>,
    /// The test's own output, bounded (docs/formats.md).
    pub excerpt: Option<Cow<'a, str>>,
    /// The attempt the message and excerpt come from; null where no
    /// attempt's parser kept either.
    pub attempt: Option<usize>,
}

/// The sandbox the attempts ran in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Sandbox<'a> {
    /// `bwrap`, `landlock`, `none`, or `auto` when none could start.
    pub kind: Cow<'a, str>,
    /// Why `auto` chose it, or why none could start; null when the sandbox
    /// was named.
    pub why: Option<Cow<'a, str>>,
}

/// The suite's name and version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Suite<'a> {
    /// The suite's name.
    pub name: Cow<'a, str>,
    /// Its version.
    pub version: Cow<'a, str>,
}

/// What the attempts showed together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Findings<'a> {
    /// Tests that failed in every attempt that ran them (a Fail's names).
    pub always_failed: Cow<'a, [String]>,
    /// Tests that failed in some attempts and not in others.
    pub sometimes_failed: Vec<SometimesFailed<'a>>,
    /// Tests that passed alone and failed again with the others.
    pub order_dependence: Option<OrderDependence<'a>>,
    /// The attempt that stopped the retries, and why.
    pub stopped_by: Option<StoppedBy<'a>>,
    /// Remarks on single attempts.
    pub notes: Vec<Note<'a>>,
}

/// A test that failed in some attempts only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SometimesFailed<'a> {
    /// The test.
    pub name: Cow<'a, str>,
    /// How many attempts it failed in.
    pub failed_in: usize,
    /// Of how many that ran it.
    pub out_of: usize,
}

/// Tests whose failure depends on what ran before them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OrderDependence<'a> {
    /// The tests.
    pub names: Cow<'a, [String]>,
    /// The attempt in which they passed alone.
    pub passed_alone_in: usize,
    /// The attempt in which they failed again with the others.
    pub failed_again_in: usize,
}

/// The attempt that stopped the retries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StoppedBy<'a> {
    /// Its number.
    pub attempt: usize,
    /// The cause it showed.
    pub cause: Cow<'a, str>,
}

/// A remark on one attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Note<'a> {
    /// The attempt's number.
    pub attempt: usize,
    /// The remark.
    pub text: Cow<'a, str>,
}

/// What the attempts changed in the project tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Tree {
    /// Files changed.
    pub changed: Vec<String>,
    /// Files deleted.
    pub deleted: Vec<String>,
    /// Files added.
    pub added: Vec<String>,
    /// Whether the tree was put back, if testgate tried.
    pub restored: Option<Restored>,
}

/// How putting the tree back went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum Restored {
    /// Put back: this many files written.
    Files {
        /// The files written.
        files: usize,
    },
    /// Not put back.
    Error {
        /// Why not.
        error: String,
    },
}

/// One preparation command and how it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Preparation<'a> {
    /// Its number, from 1.
    pub number: usize,
    /// The command.
    pub command: Cow<'a, str>,
    /// How it ended: `exited`, `signalled`, `timed_out`, `sandbox_refused`,
    /// `would_not_start`, `cancelled` or `lost`.
    pub outcome: Cow<'a, str>,
    /// The exit code, if it exited.
    pub exit_code: Option<i32>,
    /// The signal, if one ended it.
    pub signal: Option<i32>,
    /// Why it was refused, did not start or was lost.
    pub detail: Option<Cow<'a, str>>,
    /// How long it ran.
    pub duration_ms: u64,
    /// What it removed.
    pub removed: Cow<'a, [String]>,
}

/// One attempt: a run of the test command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Attempt<'a> {
    /// Its number, from 1.
    pub number: usize,
    /// The command run.
    pub command: Cow<'a, [String]>,
    /// The tests selected, or null for the whole suite.
    pub selected: Option<Cow<'a, [String]>>,
    /// How it ended, as [`Preparation::outcome`].
    pub outcome: Cow<'a, str>,
    /// The exit code, if it exited.
    pub exit_code: Option<i32>,
    /// The signal, if one ended it.
    pub signal: Option<i32>,
    /// Why it was refused, did not start or was lost.
    pub detail: Option<Cow<'a, str>>,
    /// How long it ran.
    pub duration_ms: u64,
    /// The tests that failed in it.
    pub failing: Cow<'a, [String]>,
    /// The runner's totals, if its output gave them.
    pub counts: Option<Counts>,
    /// The runner said it ran no test.
    pub no_tests_ran: bool,
    /// The output format recognised.
    pub format: Option<Cow<'a, str>>,
    /// Processes outlived the command.
    pub leaked_processes: bool,
    /// A remark on the attempt.
    pub note: Option<Cow<'a, str>>,
    /// The environment was at fault, and how to fix it.
    pub environment: Option<Environment<'a>>,
    /// The coverage tool failed the run on its threshold.
    pub coverage_below_threshold: bool,
    /// Tests that failed and then passed within the attempt (the runner's
    /// own retries, `go test -count=N`).
    pub flaky_within: Cow<'a, [String]>,
    /// Re-runs of failed tests the runner counted without naming them.
    pub reruns: u64,
    /// Tests started and not ended when the output stopped.
    pub running: Cow<'a, [String]>,
    /// Results left out of the top-level `tests` once this attempt's list
    /// was full.
    pub tests_omitted: u64,
    /// Test binaries that died naming no failing test.
    pub crashes: Vec<Crash<'a>>,
    /// The channels that judged the attempt: `["exit", "report",
    /// "console"]` or `["exit", "console"]` (empty in a document written
    /// before the field was added).
    #[serde(default)]
    pub evidence: Vec<Cow<'a, str>>,
    /// The runner's own report: `read`, `missing` (asked for, none
    /// complete), or `none` (not asked for).
    #[serde(default)]
    pub report: Option<Cow<'a, str>>,
    /// Where the report was read, the failing tests the console named
    /// (`failing` is then the report's).
    #[serde(default)]
    pub console_failing: Option<Cow<'a, [String]>>,
}

/// The environment was at fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Environment<'a> {
    /// What was wrong.
    pub what: Cow<'a, str>,
    /// How to fix it.
    pub fix: Cow<'a, str>,
}

/// One test across the attempts: its outcome in each, null where an
/// attempt's output did not name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestHistory<'a> {
    /// The test.
    pub name: Cow<'a, str>,
    /// What the name names: a test, a file, a binary...
    pub kind: Cow<'a, str>,
    /// Where it lies (a file, a package), if the runner said.
    pub context: Option<Cow<'a, str>>,
    /// Its outcome in each attempt.
    pub outcomes: Vec<Option<Outcome>>,
    /// How long it ran in each attempt, in milliseconds, null where the
    /// attempt's runner report gave no duration (JUnit's `time`, jest's and
    /// vitest's `duration`); absent when no attempt's did (a console gives
    /// none). Added after the first version of the schema.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub durations_ms: Vec<Option<u64>>,
}

/// The listed tests and their grades, under `--expect`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Grading<'a> {
    /// Every listed test.
    pub tests: Vec<GradedTest<'a>>,
    /// Tests on no list that failed.
    pub unlisted_failed: Cow<'a, [String]>,
}

/// A listed test and its grade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GradedTest<'a> {
    /// The test, named exactly as the list gave it (so that a harness
    /// finds its own entries): a Python 3.11 unittest name, a docstring's
    /// line as SWE-bench's Django lists keep it.
    pub name: Cow<'a, str>,
    /// The runner's own name for the test, where it is not `name` (the
    /// list spelled it otherwise, or named it by its docstring). Absent
    /// where they are the same (added after the first version of the
    /// schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical: Option<Cow<'a, str>>,
    /// The file it lies in, where the list gave one or the runner placed
    /// the tests of the name (each place graded on its own). Absent
    /// where neither did (added after the first version of the schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Cow<'a, str>>,
    /// The list it is on.
    pub list: Cow<'a, str>,
    /// What its attempts add up to.
    pub grade: Cow<'a, str>,
    /// Its result in each attempt, null where it did not run.
    pub results: Vec<Option<Cow<'a, str>>>,
}

/// Under `--stress`: the runs and every test whose outcome varied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Stress<'a> {
    /// The runs made.
    pub runs: usize,
    /// The tests whose outcome varied.
    pub varied: Vec<Varied<'a>>,
}

/// A test whose outcome varied under `--stress`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Varied<'a> {
    /// The test.
    pub name: Cow<'a, str>,
    /// The place the runner gave it (jest's and vitest's file, go's
    /// package): one name that varied in two files is two entries. Absent
    /// where the runner gave none (added after the first version of the
    /// schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Cow<'a, str>>,
    /// How many runs it failed in.
    pub failed_in: usize,
    /// Of how many.
    pub out_of: usize,
}
