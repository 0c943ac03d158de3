//! The runner's own report of a run set beside its console's: the report's
//! outcomes, with what only the console can say, and the console's word
//! kept for the cross-check.

use crate::report::{Counts, Kind, Outcome, Report};

/// One run's outcomes as two channels gave them: the runner's own report
/// (a JUnit or JSON file, go's `test2json` events) and its console.
///
/// The report's outcomes are the ones believed: [`report`](Self::report)
/// is the runner's report, to which the console adds only what the report
/// cannot say (each failing test's own output, how the output ended,
/// retries the report does not record, a module that did not build),
/// never a test's name or outcome of its own. What the console said of the failures is kept beside it, for
/// whoever judges the run to compare: testgate's policy reads a console
/// that names a failure the report does not, or counts that disagree, as
/// a run that cannot be believed (docs/policy.md, "Three channels must
/// agree").
///
/// ```
/// use testgate_parse::{Beside, Runner, parse, parse_junit};
///
/// let console = parse(
///     Runner::Pytest,
///     "t.py F\n\
///      =========================== short test summary info ============================\n\
///      FAILED t.py::test_printed - assert 0\n\
///      ============================== 1 failed in 0.01s ===============================\n",
/// );
/// let report = parse_junit(
///     br#"<testsuites><testsuite name="pytest"><testcase classname="t" name="test_printed"/></testsuite></testsuites>"#,
/// )
/// .unwrap();
/// let beside = Beside::report(report, console);
/// assert_eq!(beside.report.names().count(), 0, "the report's outcomes");
/// assert_eq!(beside.console_failing, ["t.py::test_printed"], "the console's word, kept");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Beside {
    /// The outcomes to judge by: the runner's report, with the console's
    /// attributed text and how the output ended.
    pub report: Report,
    /// The failing tests the console named, in order, each once.
    pub console_failing: Vec<String>,
    /// The counts the console's summary stated, `None` where it stated none.
    pub console_counts: Option<Counts>,
}

impl Beside {
    /// A report file (JUnit XML, jest's or vitest's JSON) beside the
    /// console of the same run. The console adds each failing test's own
    /// output where it showed one (its excerpt and message: attributed
    /// text, never a name, docs/formats.md), a flaky test the report may
    /// call a pass (vitest's junit calls a retried pass a pass), and how
    /// the output ended: the test still running, a cut-off summary, the
    /// re-runs counted, a crashed binary or fork, a package or module that
    /// did not build (no report holds it), the lines read.
    pub fn report(mut report: Report, console: Report) -> Beside {
        let (console_failing, console_counts) = console_word(&console);
        for test in &mut report.failing {
            if let Some(shown) = console.failing.iter().find(|c| c.name == test.name) {
                if shown.excerpt.is_some() {
                    test.excerpt.clone_from(&shown.excerpt);
                }
                if shown.message.is_some() {
                    test.message.clone_from(&shown.message);
                }
            }
        }
        // PHPUnit's risky and warned tests: the console's reason (its
        // report has none) beside the report's name.
        for (tests, shown) in [
            (&mut report.risky, &console.risky),
            (&mut report.warned, &console.warned),
        ] {
            let shown: std::collections::HashMap<&str, &crate::FailingTest> =
                shown.iter().map(|t| (t.name.as_str(), t)).collect();
            for test in tests.iter_mut() {
                if let Some(shown) = shown.get(test.name.as_str()) {
                    test.message.clone_from(&shown.message);
                    test.excerpt.clone_from(&shown.excerpt);
                }
            }
        }
        for name in &console.flaky {
            if !report.flaky.contains(name) {
                report.flaky.push(name.clone());
                if let Some(test) = report.tests.iter_mut().find(|t| t.name == *name) {
                    test.outcome = Outcome::Flaky;
                }
            }
        }
        report.unclosed = console.unclosed;
        report.running = console.running;
        // A forked JVM that died (Surefire's crashed fork) writes no report
        // of the class it ran: only the console says so.
        if report.crashes.is_empty() {
            report.crashes = console.crashes;
        }
        // Nor does a module that did not build (a reactor's module whose
        // compilation failed after another module wrote its reports).
        for module in console.failing.iter().filter(|t| t.kind == Kind::Package) {
            if !report.failing.iter().any(|t| t.name == module.name) {
                report.failing.push(module.clone());
            }
        }
        // Nor does node's junit hold a suite whose hook failed (an `after`
        // hook's failure is in no case): its console names it, kind suite.
        if report.format == Some(crate::Runner::Node) {
            for suite in console.failing.iter().filter(|t| t.kind == Kind::Suite) {
                if !report.failing.iter().any(|t| t.name == suite.name) {
                    report.failing.push(suite.clone());
                }
            }
        }
        report.reruns = console.reruns;
        report.lines = console.lines;
        report.long_lines = console.long_lines;
        report.format = report.format.or(console.format);
        Beside {
            report,
            console_failing,
            console_counts,
        }
    }

    /// `go test -json`'s events (parsed as [`Runner::Go`](crate::Runner)
    /// output) beside the console rendered back from them
    /// ([`GoEvents`](crate::GoEvents)). The events name every test's
    /// outcome, a failure a later run passed over (`-count=N`) and a binary
    /// that ended mid-test; the console adds each failing test's own
    /// output, which go prints only as text, and what the events left
    /// unsaid of how the output ended. Events that name no runner (go
    /// stopped before any package ran) are no report: the caller decides
    /// so before setting them beside the console.
    pub fn events(events: Report, console: Report) -> Beside {
        let (console_failing, console_counts) = console_word(&console);
        let mut report = events;
        for test in &mut report.failing {
            if let Some(shown) = console.failing.iter().find(|c| c.name == test.name) {
                test.message.clone_from(&shown.message);
                test.excerpt.clone_from(&shown.excerpt);
            }
        }
        for name in &console.flaky {
            if !report.flaky.contains(name) {
                report.flaky.push(name.clone());
            }
        }
        if report.unclosed.is_none() {
            report.unclosed = console.unclosed;
        }
        if report.running.is_empty() {
            report.running = console.running;
        }
        if report.crashes.is_empty() {
            report.crashes = console.crashes;
        }
        report.lines = console.lines;
        report.long_lines = console.long_lines;
        Beside {
            report,
            console_failing,
            console_counts,
        }
    }
}

/// What the console said of the failures: their names, and its counts
/// where its summary stated any.
fn console_word(console: &Report) -> (Vec<String>, Option<Counts>) {
    let c = &console.counts;
    let stated = c.passed.is_some() || c.failed.is_some() || c.skipped.is_some();
    (
        console.names().map(str::to_owned).collect(),
        stated.then_some(*c),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Runner, parse, parse_junit};

    const PYTEST: &str = "test_x.py F.\n\
        =========================== short test summary info ============================\n\
        FAILED test_x.py::test_printed - assert 0\n\
        ========================= 1 failed, 1 passed in 0.01s ==========================\n";

    /// The report's outcomes, the console's word beside them, never in
    /// them: a console that names a failure the report passed is kept for
    /// the cross-check, not believed.
    #[test]
    fn the_reports_outcomes_the_consoles_word_beside() {
        let console = parse(Runner::Pytest, PYTEST);
        let junit = br#"<testsuites name="pytest tests"><testsuite name="pytest">
<testcase classname="test_x" name="test_printed"/><testcase classname="test_x" name="test_b"/>
</testsuite></testsuites>"#;
        let beside = Beside::report(parse_junit(junit).unwrap(), console);
        assert_eq!(beside.report.names().count(), 0);
        assert_eq!(beside.report.tests.len(), 2);
        assert_eq!(beside.console_failing, ["test_x.py::test_printed"]);
        let counts = beside.console_counts.unwrap();
        assert_eq!(
            (counts.passed, counts.failed, counts.skipped),
            (Some(1), Some(1), Some(0))
        );
    }

    /// A failure both name keeps the report's message where the console
    /// showed none; a console with no summary states no counts, rather
    /// than zeros.
    #[test]
    fn a_failure_both_name_keeps_a_message_the_console_did_not_show() {
        let console = parse(Runner::Pytest, PYTEST);
        let junit = br#"<testsuites><testsuite name="pytest">
<testcase classname="test_x" name="test_printed"><failure message="m"/></testcase>
</testsuite></testsuites>"#;
        let mut report = parse_junit(junit).unwrap();
        let own = Some("the report's own words".to_owned());
        report.failing[0].message.clone_from(&own);
        let beside = Beside::report(report, console.clone());
        let names: Vec<_> = beside.report.names().collect();
        assert_eq!(names, ["test_x.py::test_printed"]);
        assert_eq!(console.failing[0].message, None);
        assert_eq!(beside.report.failing[0].message, own);
        assert_eq!(beside.report.lines, console.lines, "how the output ended");
        let silent = Beside::report(parse_junit(junit).unwrap(), parse(Runner::Pytest, ""));
        assert_eq!(silent.console_counts, None);
        assert!(silent.console_failing.is_empty());
    }

    /// A reactor's module that did not compile after another module wrote
    /// its reports: the report holds only the other's passes, the console
    /// alone names the module, which stays named; a test the console alone
    /// names does not.
    #[test]
    fn a_module_that_did_not_build_is_kept_beside_the_reports_passes() {
        let console = parse(
            Runner::Maven,
            "[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s -- in com.example.core.CalcTest\n\
             [ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project app: Compilation failure\n",
        );
        assert_eq!(console.names().collect::<Vec<_>>(), ["app"]);
        let junit = br#"<testsuite name="com.example.core.CalcTest"><testcase classname="com.example.core.CalcTest" name="adds"/></testsuite>"#;
        let beside = Beside::report(parse_junit(junit).unwrap(), console);
        assert_eq!(beside.report.names().collect::<Vec<_>>(), ["app"]);
        assert_eq!(beside.report.failing[0].kind, Kind::Package);
        let tests = Beside::report(parse_junit(junit).unwrap(), parse(Runner::Pytest, PYTEST));
        assert_eq!(tests.report.names().count(), 0);
    }

    /// go's events name every outcome; a binary the console saw die is
    /// kept where the events said none, and the console's failing names
    /// are its own.
    #[test]
    fn events_keep_their_outcomes_and_take_what_only_the_console_says() {
        let events = parse(
            Runner::Go,
            "{\"Action\":\"run\",\"Package\":\"m\",\"Test\":\"TestA\"}\n\
             {\"Action\":\"fail\",\"Package\":\"m\",\"Test\":\"TestA\",\"Elapsed\":0}\n\
             {\"Action\":\"fail\",\"Package\":\"m\",\"Elapsed\":0}\n",
        );
        let console = parse(
            Runner::Go,
            "=== RUN   TestA\n    a_test.go:3: boom\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tm\t0.01s\n",
        );
        let beside = Beside::events(events.clone(), console.clone());
        assert_eq!(
            beside.report.names().collect::<Vec<_>>(),
            events.names().collect::<Vec<_>>()
        );
        assert_eq!(beside.console_failing, ["TestA"]);
        assert_eq!(beside.report.lines, console.lines);
        if let (Some(merged), Some(shown)) =
            (beside.report.failing.first(), console.failing.first())
        {
            assert_eq!(merged.excerpt, shown.excerpt);
        }
    }
}
