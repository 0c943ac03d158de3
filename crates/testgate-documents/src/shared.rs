//! The parts more than one document holds: counts, crashes, outcomes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The runner's own totals, each absent where the output gave none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Counts {
    /// Tests that passed.
    pub passed: Option<u64>,
    /// Tests that failed.
    pub failed: Option<u64>,
    /// Tests skipped or ignored.
    pub skipped: Option<u64>,
}

/// A test binary that died naming no failing test (a go panic in a
/// goroutine, go's `-timeout`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Crash<'a> {
    /// The output format that reported it.
    pub format: Cow<'a, str>,
    /// The binary as the runner names it (go: the package).
    pub binary: Option<Cow<'a, str>>,
    /// `panic`, or go's `test timed out after 1s`.
    pub cause: Cow<'a, str>,
    /// The test the runner said was running when it died.
    pub running: Option<Cow<'a, str>>,
    /// The test that started the goroutine that panicked.
    pub started_by: Option<Cow<'a, str>>,
}

/// One test's outcome in one run, as the runner's output gave it.
///
/// Matched exhaustively by readers: a value this version does not know is
/// a deserialisation error that names it, never read as another outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// It passed.
    Passed,
    /// It failed.
    Failed,
    /// It errored outside its body (pytest's `ERROR`).
    Error,
    /// It was skipped or ignored.
    Skipped,
    /// It failed as expected (pytest's `XFAIL`).
    #[serde(rename = "xfailed")]
    XFailed,
    /// It passed although expected to fail (pytest's `XPASS`, not strict).
    #[serde(rename = "xpassed")]
    XPassed,
    /// It failed and then passed within the one run.
    Flaky,
    /// It had started and not ended when the output stopped.
    Running,
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    #[test]
    fn every_outcome_reads_back_as_itself() {
        for (outcome, name) in [
            (Outcome::Passed, "passed"),
            (Outcome::Failed, "failed"),
            (Outcome::Error, "error"),
            (Outcome::Skipped, "skipped"),
            (Outcome::XFailed, "xfailed"),
            (Outcome::XPassed, "xpassed"),
            (Outcome::Flaky, "flaky"),
            (Outcome::Running, "running"),
        ] {
            let text = serde_json::to_string(&outcome).unwrap();
            assert_eq!(text, format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<Outcome>(&text).unwrap(), outcome);
        }
    }

    #[test]
    fn an_unknown_outcome_is_an_error_that_names_it_not_another_outcome() {
        let error = serde_json::from_str::<Outcome>("\"quarantined\"").unwrap_err();
        assert!(error.to_string().contains("quarantined"), "{error}");
    }
}
