//! What a reader needs of a document, and no more: a check's tests for
//! grading, a batch line's key for resuming, a stress run's varied tests.

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::check::Stress;
use crate::shared::Outcome;

/// What `diff`, `--baseline` and the MCP `diff` tool read of a file: a
/// [`CheckDocument`](crate::CheckDocument)'s tests, or those of the check a
/// `--record` file holds. Only the tests' names, contexts and outcomes are
/// read, so a
/// document a caller wrote by hand need carry nothing else (a test's
/// `context` may be left out); an outcome this
/// version does not know is an error naming it, never read as another.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CheckTests {
    /// A record's check, when the file is a record.
    pub record: Option<RecordedCheck>,
    /// The check document's tests.
    pub tests: Option<Vec<TestOutcomes>>,
}

impl CheckTests {
    /// The tests, from the record's check first; `None` when the file has
    /// neither.
    pub fn into_tests(self) -> Option<Vec<TestOutcomes>> {
        match self {
            CheckTests {
                record: Some(RecordedCheck { result }),
                ..
            } => Some(result.tests),
            CheckTests { tests, .. } => tests,
        }
    }
}

/// A record's `result`, as [`CheckTests`] reads it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RecordedCheck {
    /// The check document.
    pub result: RecordedTests,
}

/// A record's check document's tests.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RecordedTests {
    /// Its tests.
    pub tests: Vec<TestOutcomes>,
}

/// A test of a check's document ([`TestHistory`](crate::TestHistory)) as
/// grading reads it: its name, its place, and its outcome in each attempt.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TestOutcomes {
    /// [`TestHistory::name`](crate::TestHistory::name).
    pub name: String,
    /// [`TestHistory::context`](crate::TestHistory::context): with the
    /// name, the test's identity. Absent reads as none.
    #[serde(default)]
    pub context: Option<String>,
    /// [`TestHistory::outcomes`](crate::TestHistory::outcomes).
    pub outcomes: Vec<Option<Outcome>>,
}

/// What `batch --resume` reads of a [`BatchLine`](crate::BatchLine): its
/// `id`, and whether it is an error line. Every other field (`result`, the
/// long one) is skipped as it streams past, never held.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct BatchLineKey {
    /// [`BatchLine::id`](crate::BatchLine::id).
    pub id: serde_json::Value,
    /// Whether [`BatchLine::error`](crate::BatchLine::error) is set.
    #[serde(default, deserialize_with = "is_set")]
    pub error: bool,
}

fn is_set<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Option::<IgnoredAny>::deserialize(deserializer).map(|error| error.is_some())
}

/// What `--quarantine` reads of a JSON file: `check --stress --json`'s
/// `stress` (each varied test by its name and place), or a list of its own,
/// `{"quarantine": [...]}`, whose entries are names or `{"name": …,
/// "file": …}` as an `--expect` list's are ([`TestList`](crate::TestList)).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct StressOfCheck {
    /// [`CheckDocument::stress`](crate::CheckDocument::stress).
    #[serde(default)]
    pub stress: Option<Stress<'static>>,
    /// The tests quarantined by a list of their own.
    #[serde(default)]
    pub quarantine: Option<crate::TestList>,
}

/// What `testgate verify` reads of a record it checks the signature of
/// as a value (`SignedRecord<serde_json::Value>`): the tree's digest and
/// the verdict, each absent in a record that lacks it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RecordedVerdict {
    /// [`RecordDocument::tree_digest`](crate::RecordDocument::tree_digest).
    #[serde(default)]
    pub tree_digest: Option<String>,
    /// [`RecordDocument::verdict`](crate::RecordDocument::verdict).
    #[serde(default)]
    pub verdict: Option<String>,
}

/// What `batch` reads of a manifest line before it reads the line whole:
/// its `id`, so that the error line of a line that is no check carries it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ManifestId {
    /// [`ManifestEntry::id`](crate::ManifestEntry::id); null reads as absent.
    #[serde(default)]
    pub id: Option<serde_json::Value>,
}
