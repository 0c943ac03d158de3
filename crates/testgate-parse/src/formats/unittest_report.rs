//! unittest's report as testgate's recorder writes it: JSON lines, one per
//! result a `unittest.TextTestRunner` gave, and one closing line per run
//! with the result's own counts (docs/formats.md, "Where the outcomes come
//! from").

use std::collections::HashSet;

use crate::report::ReportError;
use crate::report::{Counts, FailingTest, Kind, MAX_TESTS, Outcome, Report, TestOutcome};
use crate::runner::Runner;

/// One line of the report: a result (`test`, `outcome`), a run's closing
/// line (`ran` and the result's counts), or the word that the process ran
/// no `TextTestRunner` (`unrecorded`).
#[derive(serde::Deserialize)]
struct Record {
    test: Option<String>,
    outcome: Option<String>,
    /// The test's `shortDescription()`, where it has one.
    description: Option<String>,
    ran: Option<u64>,
    #[serde(default)]
    failures: u64,
    #[serde(default)]
    errors: u64,
    #[serde(default)]
    skipped: u64,
    #[serde(default)]
    expected_failures: u64,
    #[serde(default)]
    unexpected_successes: u64,
    unrecorded: Option<String>,
}

/// Everything testgate's unittest recorder wrote: every test's outcome,
/// named as unittest's console names it (`test_x (module.Class)` on every
/// Python, a doctest `func (module)`, a module that failed to import by its
/// dotted name), a failed subtest failing its test and an unexpected
/// success failing as unittest's `wasSuccessful` says; the counts as the
/// closing lines state them, summed over the runs. A result after the last
/// closing line (the process ended mid-run) leaves the report
/// [`unclosed`](Report::unclosed). A report of a process that ran no
/// `TextTestRunner` (a wrapper, another runner) names no runner
/// ([`Report::format`] `None`): it is no evidence either way.
///
/// ```
/// let report = testgate_parse::parse_unittest_report(
///     b"{\"test\": \"test_a (m.C.test_a)\", \"outcome\": \"passed\"}\n\
///       {\"test\": \"test_b (m.C)\", \"outcome\": \"failed\"}\n\
///       {\"ran\": 2, \"failures\": 1}\n",
/// )
/// .unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["test_b (m.C)"]);
/// assert_eq!(report.tests[0].name, "test_a (m.C)");
/// assert_eq!(report.unclosed, None);
/// ```
pub fn parse_unittest_report(bytes: &[u8]) -> Result<Report, ReportError> {
    let mut report = Report::default();
    let mut counts = Counts::default();
    let mut closed = false;
    let mut recorded = false;
    let mut unrecorded = false;
    let mut seen: HashSet<String> = HashSet::new();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        report.lines = report.lines.saturating_add(1);
        let record: Record = serde_json::from_slice(line).map_err(|e| ReportError {
            message: format!("line {} is not a unittest record: {e}", index + 1),
        })?;
        if record.unrecorded.is_some() {
            unrecorded = true;
            continue;
        }
        if let Some(ran) = record.ran {
            counts.add(record.closing_counts(ran));
            report.no_tests_ran |= ran == 0;
            closed = true;
            continue;
        }
        let (Some(test), Some(outcome)) = (record.test, record.outcome) else {
            return Err(ReportError {
                message: format!("line {} is not a unittest record", index + 1),
            });
        };
        let outcome = outcome_of(index, &outcome)?;
        recorded = true;
        closed = false;
        let name = super::unittest::canonical(&test).map_or(test, |(name, _)| name);
        let description = record.description.filter(|d| !d.trim().is_empty());
        note(&mut report, &mut seen, name, outcome, description);
    }
    if unrecorded && !recorded && !closed {
        // No TextTestRunner ran where the recorder was: no runner's word.
        return Ok(Report {
            lines: report.lines,
            ..Report::default()
        });
    }
    if !recorded && !closed {
        return Err(ReportError {
            message: "the report holds no unittest record".to_owned(),
        });
    }
    report.format = Some(Runner::Unittest);
    report.counts = counts;
    if !closed {
        report.unclosed = Some("a unittest run ended without its closing record".to_owned());
    }
    Ok(report)
}

impl Record {
    /// The counts of a run's closing record, which ran `ran` tests.
    fn closing_counts(&self, ran: u64) -> Counts {
        let failed = self
            .failures
            .saturating_add(self.errors)
            .saturating_add(self.unexpected_successes);
        let skipped = self.skipped.saturating_add(self.expected_failures);
        Counts {
            passed: Some(ran.saturating_sub(failed).saturating_sub(skipped)),
            failed: Some(failed),
            skipped: Some(skipped),
        }
    }
}

/// The outcome a result record on line `index` (from 0) gives: an
/// unexpected success fails, as unittest's `wasSuccessful` says.
fn outcome_of(index: usize, outcome: &str) -> Result<Outcome, ReportError> {
    Ok(match outcome {
        "passed" => Outcome::Passed,
        "failed" | "xpassed" => Outcome::Failed,
        "error" => Outcome::Error,
        "skipped" => Outcome::Skipped,
        "xfailed" => Outcome::XFailed,
        other => {
            return Err(ReportError {
                message: format!("line {}: unknown outcome `{other}`", index + 1),
            });
        }
    })
}

/// Notes `outcome` of the test `name`: a failure wins over any other
/// outcome of the same name (a failed subtest, then the test's own
/// result; a class hook's error beside its tests). `description` is the
/// test's `shortDescription()`, where it has one.
fn note(
    report: &mut Report,
    seen: &mut HashSet<String>,
    name: String,
    outcome: Outcome,
    description: Option<String>,
) {
    let kind = if name.contains(' ') {
        Kind::Test
    } else {
        Kind::File
    };
    if !seen.insert(name.clone()) {
        if let Some(known) = report.tests.iter_mut().find(|t| t.name == name)
            && !known.outcome.is_failure()
            && outcome.is_failure()
        {
            known.outcome = outcome;
            report
                .failing
                .push(FailingTest::new(name, Runner::Unittest, None).with_kind(kind));
        }
        return;
    }
    if outcome.is_failure() {
        report
            .failing
            .push(FailingTest::new(name.clone(), Runner::Unittest, None).with_kind(kind));
    }
    if report.tests.len() < MAX_TESTS || outcome.is_failure() {
        report.tests.push(TestOutcome {
            name,
            outcome,
            kind,
            format: Runner::Unittest,
            context: None,
            duration_ms: None,
            description,
        });
    } else {
        report.tests_omitted = report.tests_omitted.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Report {
        parse_unittest_report(text.as_bytes()).expect("a report")
    }

    #[test]
    fn a_failed_subtest_fails_its_test_once() {
        let report = parsed(
            "{\"test\": \"test_sub (m.C.test_sub)\", \"outcome\": \"failed\"}\n\
             {\"test\": \"test_sub (m.C.test_sub)\", \"outcome\": \"failed\"}\n\
             {\"ran\": 1, \"failures\": 2}\n",
        );
        assert_eq!(report.names().collect::<Vec<_>>(), ["test_sub (m.C)"]);
        assert_eq!(report.counts.failed, Some(2), "as the console counts");
    }

    #[test]
    fn a_docstring_is_the_tests_description() {
        let report = parsed(
            "{\"test\": \"test_a (m.C.test_a)\", \"outcome\": \"failed\", \"description\": \"Counts the items, wrongly.\"}\n\
             {\"test\": \"test_b (m.C.test_b)\", \"outcome\": \"passed\", \"description\": null}\n\
             {\"ran\": 2, \"failures\": 1}\n",
        );
        let described: Vec<_> = report
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.description.as_deref()))
            .collect();
        assert_eq!(
            described,
            [
                ("test_a (m.C)", Some("Counts the items, wrongly.")),
                ("test_b (m.C)", None)
            ]
        );
    }

    #[test]
    fn a_run_without_its_closing_record_is_unclosed() {
        let report = parsed("{\"test\": \"test_a (m.C)\", \"outcome\": \"passed\"}\n");
        assert!(report.unclosed.is_some());
        // Where it must not fire: a closed run, then another closed run.
        let two = parsed(
            "{\"test\": \"test_a (m.C)\", \"outcome\": \"passed\"}\n{\"ran\": 1}\n\
             {\"test\": \"test_b (n.D)\", \"outcome\": \"error\"}\n{\"ran\": 1, \"errors\": 1}\n",
        );
        assert_eq!(two.unclosed, None);
        assert_eq!(two.counts.passed, Some(1));
        assert_eq!(two.names().collect::<Vec<_>>(), ["test_b (n.D)"]);
    }

    #[test]
    fn a_process_that_ran_no_runner_names_none() {
        let report = parsed("{\"unrecorded\": \"no unittest.TextTestRunner ran\"}\n");
        assert_eq!(report.format, None);
        // Where it must not fire: a process that ran one and wrote both.
        let ran = parsed("{\"ran\": 0}\n{\"unrecorded\": \"no unittest.TextTestRunner ran\"}\n");
        assert_eq!(ran.format, Some(Runner::Unittest));
        assert!(ran.no_tests_ran);
    }

    #[test]
    fn what_is_no_report_is_an_error() {
        for text in [
            "",
            "not json\n",
            "{\"test\": \"t (m.C)\"}\n",
            "{\"test\": \"t (m.C)\", \"outcome\": \"fine\"}\n",
        ] {
            assert!(parse_unittest_report(text.as_bytes()).is_err(), "{text:?}");
        }
    }
}
