//! The JSON documents `testgate` writes, as Serialize + Deserialize types
//! that the producer (the `testgate` command) and its readers (`diff`,
//! `check --baseline`, `--quarantine`, your own tools) share. The principal types are
//! [`CheckDocument`] (`check --json`), [`ParseDocument`] (`parse --json`)
//! and [`DiffDocument`] (`diff --json`); besides them, [`JunitReport`]
//! (`check --junit`), [`SwebenchReport`] (`check --swebench-report`),
//! [`CompactCheck`] (the `testgate mcp` `check` tool's result),
//! [`RecordDocument`] in its [`SignedRecord`] (`check --record`),
//! [`BatchLine`] (`batch --out`); and what testgate reads:
//! [`ManifestEntry`] (a `batch` manifest line), [`ExpectFile`] (`check
//! --expect`), and the `testgate mcp` tools' [`CheckArguments`],
//! [`ParseArguments`] and [`DiffArguments`]; its exit codes are
//! [`TestgateExitCode`]'s constants. What a reader needs of a document and
//! no more is a view here too ([`CheckTests`], [`BatchLineKey`],
//! [`StressOfCheck`]), never a copy in the reader. With the `schema` feature,
//! `schema_of` gives each one's JSON Schema, published in docs/schema/;
//! with the `report` feature, `ParseDocument::from(&Report)` (and
//! `ParseDocument::of_file`) makes `parse --json`'s document of a
//! `testgate_parse::Report`, as the `testgate` command does.
//!
//! A document's `schema` field is its version: a field added keeps it; a
//! field removed, renamed or given another meaning bumps it. A reader meets
//! an outcome it does not know as a deserialisation error that names it,
//! never as some other outcome. The verdict and its cause are strings (the
//! facade's `Verdict::name` and `Cause::name`): a cause added there reaches
//! the document with no change here, and docs/cli.md lists them.
//!
//! Adding a field to a document: add it to the type here (an `Option`, or
//! `#[serde(default)]`, so that documents written before it still read),
//! set it in `testgate-cli`'s `json.rs`, and regenerate `docs/schema/`
//! (`TESTGATE_UPDATE_SCHEMA=1 cargo test -p testgate-documents --features
//! schema --test schema`); the Python dataclasses' test then names the
//! field `python/testgate/_documents.py` still lacks.
//!
//! ```
//! use testgate_documents::{CheckDocument, Outcome};
//!
//! let text = r#"{"schema":1,"verdict":"pass","cause":null,"failing":[],
//!   "reason":"passed","suite":null,
//!   "findings":{"always_failed":[],"sometimes_failed":[],"order_dependence":null,
//!               "stopped_by":null,"notes":[]},
//!   "preparations":[],"attempts":[],"tree_digest":null,"tree":null,
//!   "tests":[{"name":"t","kind":"test","context":null,"outcomes":["passed"]}],
//!   "grading":null,"stress":null,"failures":[],
//!   "sandbox":{"kind":"bwrap","why":null}}"#;
//! let check: CheckDocument<'static> = serde_json::from_str(text).unwrap();
//! assert_eq!(check.tests[0].outcomes, [Some(Outcome::Passed)]);
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// The crate's README, whose example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod batch;
mod check;
mod compact;
mod diff;
mod exit;
mod expect;
mod junit;
mod mcp;
mod parse;
mod record;
#[cfg(feature = "report")]
mod report;
#[cfg(feature = "schema")]
mod schema;
mod shared;
mod swebench;
mod views;

pub use batch::{
    BATCH_SCHEMA, BatchLine, ExpectVerdict, ManifestEntry, ManifestEnv, ManifestExpect, Scalar,
};
pub use check::{
    Attempt, CHECK_SCHEMA, CheckDocument, Detected, Environment, Failure, Findings, GradedTest,
    Grading, Note, OrderDependence, Preparation, Restored, Sandbox, SometimesFailed, StoppedBy,
    Stress, Suite, TestHistory, Tree, Varied, View,
};
pub use compact::{
    COMPACT_CHARS, COMPACT_NAMES, COMPACT_SCHEMA, CheckToolResult, CompactCheck, CompactFailure,
    GradingSummary, NotPassed,
};
pub use diff::{DIFF_SCHEMA, DiffDocument, DiffEntry};
pub use exit::TestgateExitCode;
pub use expect::{ExpectFile, ListedName, TestList};
pub use junit::{JunitCase, JunitReport, JunitResult, JunitSuite};
pub use mcp::{
    CheckArguments, DiffArguments, EnvArgument, EvidenceArgument, MissingArgument, ParseArguments,
    RerunArgument,
};
pub use parse::{FailingTest, PARSE_SCHEMA, ParseDocument, Section, Test};
pub use record::{
    CommandDetected, Dirty, Host, RECORD_SCHEMA, RecordDocument, RecordOptions, RecordSandbox,
    RecordSuite, Signature, SignedRecord, ToolchainVersion,
};
#[cfg(feature = "schema")]
pub use schema::{DOCUMENTS, check_tool_schema, schema_of, tool_input_schema};
pub use shared::{Counts, Crash, Outcome};
pub use swebench::{SuccessFailure, SwebenchInstance, SwebenchReport, TestsStatus};
pub use views::{
    BatchLineKey, CheckTests, ManifestId, RecordedCheck, RecordedTests, RecordedVerdict,
    StressOfCheck, TestOutcomes,
};
