//! minitest's report as testgate's reporter plugin writes it: one JSON
//! document holding each run of the attempt (a `Minitest.run` that
//! reported), each with its results and counts (docs/formats.md, "Where
//! the outcomes come from").

use std::collections::HashSet;

use crate::report::ReportError;
use crate::report::{Counts, FailingTest, Kind, MAX_TESTS, Outcome, Report, TestOutcome};
use crate::runner::Runner;

/// The whole document: `{"runs": [...]}`.
#[derive(serde::Deserialize)]
struct Document {
    runs: Vec<Run>,
}

/// One `Minitest.run` that reported.
#[derive(serde::Deserialize)]
struct Run {
    results: Vec<Record>,
    runs: u64,
    #[serde(default)]
    failures: u64,
    #[serde(default)]
    errors: u64,
    #[serde(default)]
    skips: u64,
}

/// One result minitest gave its reporters.
#[derive(serde::Deserialize)]
struct Record {
    class: String,
    name: String,
    outcome: String,
    message: Option<String>,
}

/// The most bytes of a failure message kept.
const MAX_MESSAGE: usize = 4096;

/// Everything testgate's minitest reporter plugin wrote: every test's
/// outcome, named `Class#test_name` as minitest's console and `-n` name it
/// (a spec's `Spec name#test_0001_does x` too), an error failing as a
/// failure does, with minitest's failure message; the counts as the runs
/// state them, summed. The plugin writes a run when minitest reports it,
/// so a run that ended early (a test that ended ruby) is absent, and the
/// file is missing where no run reported: the caller's missing report. A
/// run that lists fewer results than it counts leaves the report
/// [`unclosed`](Report::unclosed).
///
/// ```
/// let report = testgate_parse::parse_minitest_report(
///     br#"{"runs": [{"results": [
///        {"class": "CalcTest", "name": "test_adds", "outcome": "passed", "message": null},
///        {"class": "CalcTest", "name": "test_fails", "outcome": "failed", "message": "Expected: 3"}],
///      "runs": 2, "failures": 1, "errors": 0, "skips": 0}]}"#,
/// )
/// .unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["CalcTest#test_fails"]);
/// assert_eq!(report.failing[0].message.as_deref(), Some("Expected: 3"));
/// assert_eq!(report.unclosed, None);
/// ```
pub fn parse_minitest_report(bytes: &[u8]) -> Result<Report, ReportError> {
    let document: Document = serde_json::from_slice(bytes).map_err(|e| ReportError {
        message: format!("not a minitest report of testgate's plugin: {e}"),
    })?;
    let mut report = Report {
        format: Some(Runner::Minitest),
        ..Report::default()
    };
    let mut counts = Counts::default();
    let mut seen: HashSet<String> = HashSet::new();
    for run in document.runs {
        let failed = run.failures.saturating_add(run.errors);
        counts.add(Counts {
            passed: Some(run.runs.saturating_sub(failed).saturating_sub(run.skips)),
            failed: Some(failed),
            skipped: Some(run.skips),
        });
        if (run.results.len() as u64) < run.runs {
            report.unclosed = Some(format!(
                "a minitest run counts {} results and lists {}",
                run.runs,
                run.results.len()
            ));
        }
        for record in run.results {
            let outcome = match record.outcome.as_str() {
                "passed" => Outcome::Passed,
                "failed" => Outcome::Failed,
                "error" => Outcome::Error,
                "skipped" => Outcome::Skipped,
                other => {
                    return Err(ReportError {
                        message: format!("a minitest result's unknown outcome `{other}`"),
                    });
                }
            };
            let name = format!("{}#{}", record.class, record.name);
            note(&mut report, &mut seen, name, outcome, record.message);
        }
    }
    report.no_tests_ran = counts.ran().is_none_or(|ran| ran == 0);
    report.counts = counts;
    Ok(report)
}

/// Notes `outcome` of the test `name`: a failure wins over any other
/// outcome of the same name (a test run again in a later run).
fn note(
    report: &mut Report,
    seen: &mut HashSet<String>,
    name: String,
    outcome: Outcome,
    message: Option<String>,
) {
    let failing = || {
        let message = message.map(|mut text| {
            if text.len() > MAX_MESSAGE {
                let mut end = MAX_MESSAGE;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
            }
            text
        });
        FailingTest::new(name.clone(), Runner::Minitest, None).with_output(message, None)
    };
    if !seen.insert(name.clone()) {
        if let Some(known) = report.tests.iter_mut().find(|t| t.name == name)
            && !known.outcome.is_failure()
            && outcome.is_failure()
        {
            known.outcome = outcome;
            report.failing.push(failing());
        }
        return;
    }
    if outcome.is_failure() {
        report.failing.push(failing());
    }
    if report.tests.len() < MAX_TESTS || outcome.is_failure() {
        report.tests.push(TestOutcome {
            name,
            outcome,
            kind: Kind::Test,
            format: Runner::Minitest,
            context: None,
            duration_ms: None,
            description: None,
        });
    } else {
        report.tests_omitted = report.tests_omitted.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_runs_add_up_and_a_failure_wins() {
        let text = r#"{"runs": [
          {"results": [
            {"class": "A", "name": "test_x", "outcome": "passed", "message": null},
            {"class": "Spec a", "name": "test_0001_works", "outcome": "error", "message": "RuntimeError: boom"},
            {"class": "A", "name": "test_s", "outcome": "skipped", "message": "later"}],
           "runs": 3, "failures": 0, "errors": 1, "skips": 1},
          {"results": [
            {"class": "A", "name": "test_x", "outcome": "failed", "message": "Expected: 1"}],
           "runs": 1, "failures": 1, "errors": 0, "skips": 0}]}"#;
        let report = parse_minitest_report(text.as_bytes()).unwrap();
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["Spec a#test_0001_works", "A#test_x"]
        );
        assert_eq!(report.tests[0].outcome, Outcome::Failed);
        assert_eq!(
            (
                report.counts.passed,
                report.counts.failed,
                report.counts.skipped
            ),
            (Some(1), Some(2), Some(1))
        );
        assert_eq!(report.unclosed, None);
        assert!(!report.no_tests_ran);
    }

    #[test]
    fn a_run_listing_fewer_results_than_it_counts_is_unclosed() {
        let text =
            r#"{"runs": [{"results": [], "runs": 2, "failures": 0, "errors": 0, "skips": 0}]}"#;
        let report = parse_minitest_report(text.as_bytes()).unwrap();
        assert!(report.unclosed.is_some());
    }

    #[test]
    fn no_run_is_no_test_ran_and_foreign_documents_are_errors() {
        let report = parse_minitest_report(br#"{"runs": []}"#).unwrap();
        assert!(report.no_tests_ran);
        for text in [
            "",
            "{}",
            "[]",
            r#"{"runs": [{"results": [{"class": "A", "name": "t", "outcome": "odd"}], "runs": 1}]}"#,
            "\u{0}",
        ] {
            assert!(parse_minitest_report(text.as_bytes()).is_err(), "{text:?}");
        }
    }
}
