//! mocha's events as testgate's recorder writes them: JSON lines, one per
//! event of mocha's runner as it happens (`start`, each `pass`, `fail` and
//! `pending`, `end` with mocha's stats), appended by every mocha run of the
//! attempt (docs/formats.md, "mocha").

use std::collections::HashSet;

use crate::report::ReportError;
use crate::report::{Counts, FailingTest, Kind, MAX_TESTS, Outcome, Report, TestOutcome};
use crate::runner::Runner;

/// One line of the report.
#[derive(serde::Deserialize)]
struct Record {
    /// `start`, `pass`, `fail`, `pending`, `retry` (a failed try mocha's
    /// own retry runs again), `end`, `unserved` (the
    /// recorder cannot record this mocha), or `asked` (testgate's preload
    /// gave mocha's program the recorder, behind a wrapper).
    event: String,
    /// The runnable's full title (`fullTitle()`), for a result.
    title: Option<String>,
    /// A failure of a hook, not of a test.
    #[serde(default)]
    hook: bool,
    /// A failure's error message.
    message: Option<String>,
    /// `end`: mocha's stats.
    passes: Option<u64>,
    failures: Option<u64>,
    pending: Option<u64>,
}

/// The most bytes of a failure message kept.
const MAX_MESSAGE: usize = 4096;

/// Everything testgate's mocha recorder wrote: every test's outcome, named
/// by mocha's full title as the console's list and `--grep` name it (a
/// failed hook by its own, `db "before all" hook for "reads"`, kind
/// suite), a failure with its error message; the counts as each run's
/// `end` states them (`passes`, `failures`, `pending`), summed over the
/// runs. A test that mocha's own retry (`this.retries(n)`) ran again after
/// a failed try and that then passed is [`flaky`](Report::flaky): a retry
/// that hides a failure is flakiness, whoever retries. A run that started and never ended (a test that exited node, a
/// crash) leaves the report [`unclosed`](Report::unclosed): no Pass can
/// stand on it. mocha's parallel runner may repeat `start` and `end`
/// within one run: a `start` inside a run and an `end` outside one add
/// nothing. A report of a mocha the recorder cannot serve (before 8.2,
/// which runs no global setup fixture: `unserved`) and nothing else names
/// no runner ([`Report::format`] `None`): it is no evidence either way.
/// An `asked` line (testgate's preload asked mocha's program behind a
/// wrapper) says nothing of the run: that line alone is no run, an error.
///
/// ```
/// let report = testgate_parse::parse_mocha_report(
///     b"{\"event\": \"start\"}\n\
///       {\"event\": \"pass\", \"title\": \"calc adds\"}\n\
///       {\"event\": \"fail\", \"title\": \"calc big millions\", \"message\": \"2 !== 1\"}\n\
///       {\"event\": \"end\", \"passes\": 1, \"failures\": 1, \"pending\": 0}\n",
/// )
/// .unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["calc big millions"]);
/// assert_eq!(report.failing[0].message.as_deref(), Some("2 !== 1"));
/// assert_eq!(report.unclosed, None);
/// ```
pub fn parse_mocha_report(bytes: &[u8]) -> Result<Report, ReportError> {
    let mut report = Report {
        format: Some(Runner::Mocha),
        ..Report::default()
    };
    let mut counts = Counts::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut open = false;
    let mut ended = false;
    let mut unserved = false;
    let mut retried = Retried::default();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        report.lines = report.lines.saturating_add(1);
        let not_mocha = |why: String| ReportError {
            message: format!("line {} is not a mocha record: {why}", index + 1),
        };
        let record: Record = serde_json::from_slice(line).map_err(|e| not_mocha(e.to_string()))?;
        let outcome = match record.event.as_str() {
            "start" => {
                open = true;
                continue;
            }
            "unserved" => {
                unserved = true;
                continue;
            }
            "asked" => continue,
            "end" => {
                if std::mem::take(&mut open) || !ended {
                    counts.add(record.counts());
                }
                ended = true;
                continue;
            }
            "pass" => Some(Outcome::Passed),
            "fail" => Some(Outcome::Failed),
            "pending" => Some(Outcome::Skipped),
            "retry" => None,
            other => return Err(not_mocha(format!("unknown event `{other}`"))),
        };
        let title = record
            .title
            .ok_or_else(|| not_mocha("a result without its title".to_owned()))?;
        let Some(outcome) = outcome else {
            retried.note(title);
            continue;
        };
        // A result outside a run (after its `end`) opens one: mocha's
        // events go on, and only another `end` closes them.
        open = true;
        let kind = if record.hook { Kind::Suite } else { Kind::Test };
        let message = record.message;
        note(&mut report, &mut seen, (title, kind), outcome, message);
    }
    if unserved && !open && !ended {
        return Ok(Report {
            lines: report.lines,
            ..Report::default()
        });
    }
    if !open && !ended {
        return Err(ReportError {
            message: "the report holds no mocha run".to_owned(),
        });
    }
    if open {
        report.unclosed = Some("a mocha run ended without its `end` event".to_owned());
    }
    report.flaky = retried.passed_in(&report);
    report.no_tests_ran = ended && counts.ran().is_none_or(|ran| ran == 0);
    report.counts = counts;
    Ok(report)
}

/// The tests a failed try of which mocha's own retry ran again, in order
/// of first retry, each once (at most [`MAX_TESTS`]).
#[derive(Default)]
struct Retried {
    order: Vec<String>,
    seen: HashSet<String>,
}

impl Retried {
    /// Notes a `retry` of the test `title`.
    fn note(&mut self, title: String) {
        if self.order.len() < MAX_TESTS && self.seen.insert(title.clone()) {
            self.order.push(title);
        }
    }

    /// Those of the retried tests that passed in `report`: flaky.
    fn passed_in(self, report: &Report) -> Vec<String> {
        let passed: HashSet<&str> = report
            .tests
            .iter()
            .filter(|test| test.outcome == Outcome::Passed)
            .map(|test| test.name.as_str())
            .collect();
        self.order
            .into_iter()
            .filter(|name| passed.contains(name.as_str()))
            .collect()
    }
}

impl Record {
    /// The counts of an `end` record (mocha's stats).
    fn counts(&self) -> Counts {
        Counts {
            passed: Some(self.passes.unwrap_or(0)),
            failed: Some(self.failures.unwrap_or(0)),
            skipped: Some(self.pending.unwrap_or(0)),
        }
    }
}

/// `text` cut to at most [`MAX_MESSAGE`] bytes, at a character boundary.
fn cut(mut text: String) -> String {
    if text.len() > MAX_MESSAGE {
        let mut end = MAX_MESSAGE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// Notes `outcome` of the runnable `name` of `kind`: a failure wins over
/// any other outcome of the same name (a test that passed, then failed in
/// its `afterEach` or called `done` twice).
fn note(
    report: &mut Report,
    seen: &mut HashSet<String>,
    (name, kind): (String, Kind),
    outcome: Outcome,
    message: Option<String>,
) {
    let failing = |name: &str| {
        FailingTest::new(name, Runner::Mocha, None)
            .with_kind(kind)
            .with_output(message.map(cut), None)
    };
    if !seen.insert(name.clone()) {
        if let Some(known) = report.tests.iter_mut().find(|t| t.name == name)
            && !known.outcome.is_failure()
            && outcome.is_failure()
        {
            known.outcome = outcome;
            report.failing.push(failing(&name));
        }
        return;
    }
    if outcome.is_failure() {
        report.failing.push(failing(&name));
    }
    if report.tests.len() < MAX_TESTS || outcome.is_failure() {
        report.tests.push(TestOutcome {
            name,
            outcome,
            kind,
            format: Runner::Mocha,
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

    fn parsed(text: &str) -> Report {
        parse_mocha_report(text.as_bytes()).expect("a report")
    }

    #[test]
    fn a_failed_hook_is_a_suite_and_counts_are_mochas() {
        let report = parsed(
            r#"{"event":"start"}
{"event":"fail","title":"db \"before all\" hook for \"reads\"","hook":true,"message":"no db"}
{"event":"pass","title":"ok works"}
{"event":"pending","title":"ok later"}
{"event":"end","passes":1,"failures":1,"pending":1}
"#,
        );
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["db \"before all\" hook for \"reads\""]
        );
        assert_eq!(report.failing[0].kind, Kind::Suite);
        assert_eq!(report.tests[1].kind, Kind::Test);
        assert_eq!(report.tests[2].outcome, Outcome::Skipped);
        assert_eq!(
            (
                report.counts.passed,
                report.counts.failed,
                report.counts.skipped
            ),
            (Some(1), Some(1), Some(1))
        );
        assert_eq!(report.unclosed, None);
        assert!(!report.no_tests_ran);
    }

    #[test]
    fn a_report_cut_before_its_end_is_unclosed() {
        // The forged epilogue's run: a test failed, the next exited node.
        let report = parsed(
            "{\"event\":\"start\"}\n\
             {\"event\":\"fail\",\"title\":\"forgery fails\",\"hook\":false,\"message\":\"2 !== 3\"}\n",
        );
        assert!(report.unclosed.is_some());
        assert_eq!(report.names().collect::<Vec<_>>(), ["forgery fails"]);
        // A started run with no result, and results after a closed run.
        assert!(parsed("{\"event\":\"start\"}\n").unclosed.is_some());
        let after = parsed(
            "{\"event\":\"start\"}\n{\"event\":\"end\",\"passes\":0}\n\
             {\"event\":\"pass\",\"title\":\"late\"}\n",
        );
        assert!(after.unclosed.is_some());
        // Where it must not fire: two closed runs (two mocha commands),
        // and mocha's parallel runner repeating `start` and `end`.
        let two = parsed(
            "{\"event\":\"start\"}\n{\"event\":\"pass\",\"title\":\"a\"}\n\
             {\"event\":\"end\",\"passes\":1,\"failures\":0,\"pending\":0}\n\
             {\"event\":\"start\"}\n{\"event\":\"start\"}\n{\"event\":\"fail\",\"title\":\"b\"}\n\
             {\"event\":\"end\",\"passes\":0,\"failures\":1,\"pending\":0}\n\
             {\"event\":\"end\",\"passes\":0,\"failures\":1,\"pending\":0}\n",
        );
        assert_eq!(two.unclosed, None);
        assert_eq!((two.counts.passed, two.counts.failed), (Some(1), Some(1)));
        assert_eq!(two.names().collect::<Vec<_>>(), ["b"]);
    }

    #[test]
    fn a_failure_after_a_pass_fails_the_test_once() {
        let report = parsed(
            "{\"event\":\"start\"}\n{\"event\":\"pass\",\"title\":\"s t\"}\n\
             {\"event\":\"fail\",\"title\":\"s t\",\"message\":\"done() called multiple times\"}\n\
             {\"event\":\"fail\",\"title\":\"s t\"}\n\
             {\"event\":\"end\",\"passes\":1,\"failures\":2,\"pending\":0}\n",
        );
        assert_eq!(report.names().collect::<Vec<_>>(), ["s t"]);
        assert_eq!(report.tests[0].outcome, Outcome::Failed);
        let long = format!(
            "{{\"event\":\"start\"}}\n{{\"event\":\"fail\",\"title\":\"x\",\"message\":\"{}\"}}\n",
            "é".repeat(MAX_MESSAGE)
        );
        let message = parsed(&long).failing[0].message.clone().unwrap_or_default();
        assert!(message.len() <= MAX_MESSAGE && message.len() > MAX_MESSAGE - 2);
    }

    #[test]
    fn a_retried_test_that_then_passed_is_flaky() {
        let report = parsed(
            "{\"event\":\"start\"}\n\
             {\"event\":\"retry\",\"title\":\"calc sometimes\",\"message\":\"no\"}\n\
             {\"event\":\"pass\",\"title\":\"calc sometimes\"}\n\
             {\"event\":\"retry\",\"title\":\"calc never\"}\n\
             {\"event\":\"fail\",\"title\":\"calc never\"}\n\
             {\"event\":\"end\",\"passes\":1,\"failures\":1,\"pending\":0}\n",
        );
        // Passed after a retry: flaky; failed after one: a failure, not flaky.
        assert_eq!(report.flaky, ["calc sometimes"]);
        assert_eq!(report.names().collect::<Vec<_>>(), ["calc never"]);
        assert_eq!(report.unclosed, None);
    }

    #[test]
    fn a_run_of_no_test_says_so() {
        let report = parsed(
            "{\"event\":\"start\"}\n{\"event\":\"end\",\"passes\":0,\"failures\":0,\"pending\":0}\n",
        );
        assert!(report.no_tests_ran);
        assert_eq!(report.unclosed, None);
    }

    #[test]
    fn a_mocha_the_recorder_cannot_serve_names_no_runner() {
        let text =
            "{\"event\":\"unserved\",\"why\":\"mocha 8.1.3 runs no global setup fixture\"}\n";
        assert_eq!(parsed(text).format, None);
        // Where it must not fire: a run recorded beside it.
        let text = format!("{text}{{\"event\":\"start\"}}\n");
        assert_eq!(parsed(&text).format, Some(Runner::Mocha));
    }

    #[test]
    fn what_is_no_report_is_an_error() {
        for text in [
            "",
            "not json\n",
            "{\"event\":\"pass\"}\n",
            "{\"event\":\"start\"}\n{\"event\":\"rerun\",\"title\":\"t\"}\n",
            "{\"event\":\"start\"}\n{\"event\":\"retry\"}\n",
            "{\"event\":\"asked\"}\n",
            "{\"title\":\"t\"}\n",
        ] {
            assert!(parse_mocha_report(text.as_bytes()).is_err(), "{text:?}");
        }
    }
}
