//! The runners' own reports: JUnit XML, as most runners (or a reporter
//! of theirs) write it; what each runner writes and reads differently,
//! and how its report is known, is its `JUNIT` ([`Junit`], in
//! `formats/<runner>.rs`). A report is written by the runner
//! after the tests ran, to a file: a test can print anything on the
//! console, but it cannot forge a line of this file without writing the
//! file itself.

use quick_xml::events::{BytesStart, Event};

use crate::junit_case::{Case, Junit};
use crate::report::{Counts, FailingTest, Kind, Outcome, Report, ReportError, TestOutcome};
use crate::runner::Runner;

/// Whether `bytes` look like a JUnit XML report rather than console output:
/// the first thing in them, after white space and a byte-order mark, is an
/// XML declaration or a `<testsuites`/`<testsuite` element.
///
/// ```
/// assert!(testgate_parse::is_junit(b"<?xml version=\"1.0\"?>\n<testsuites>"));
/// assert!(!testgate_parse::is_junit(b"running 1 test\n"));
/// ```
pub fn is_junit(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let rest = start.and_then(|at| bytes.get(at..)).unwrap_or_default();
    rest.starts_with(b"<?xml") || rest.starts_with(b"<testsuite")
}

/// Everything a JUnit XML report says: every test case with its outcome,
/// the failing ones, the counts. Names are made canonical as
/// `docs/formats.md` spells them for the runner that wrote the report,
/// where the report says which one did (its root's name: `nextest-run`,
/// `pytest`, `vitest tests`, `jest tests`; a go package path as suite name);
/// else a case's `name` is its name.
///
/// ```
/// let xml = r#"<testsuites name="nextest-run"><testsuite name="demo">
///   <testcase name="tests::adds" classname="demo"/>
///   <testcase name="tests::parses" classname="demo"><failure message="boom"/></testcase>
/// </testsuite></testsuites>"#;
/// let report = testgate_parse::parse_junit(xml.as_bytes()).unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["tests::parses"]);
/// assert_eq!(report.tests.len(), 2);
/// ```
pub fn parse_junit(xml: &[u8]) -> Result<Report, ReportError> {
    read_junit(xml, None)
}

/// [`parse_junit`] of a report `runner` wrote, where the report does not
/// say so itself: Gradle's `TEST-*.xml` name no producer, and its cases
/// are named `Class#method` only when read as Gradle's.
///
/// ```
/// use testgate_parse::{Runner, parse_junit_of};
///
/// let xml = r#"<testsuite name="com.example.SetupTest" tests="1" failures="1">
///   <testcase name="classMethod" classname="com.example.SetupTest"><failure message="x"/></testcase>
/// </testsuite>"#;
/// let report = parse_junit_of(Runner::Gradle, xml.as_bytes()).unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["com.example.SetupTest"]);
/// ```
pub fn parse_junit_of(runner: Runner, xml: &[u8]) -> Result<Report, ReportError> {
    read_junit(xml, Some(Producer::Known(runner)))
}

fn read_junit(xml: &[u8], known: Option<Producer>) -> Result<Report, ReportError> {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut reading = Reading {
        producer: known,
        ..Reading::default()
    };
    let mut buf = Vec::new();
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| ReportError {
            message: format!(
                "not well-formed XML at byte {}: {e}",
                reader.error_position()
            ),
        })?;
        if matches!(event, Event::Eof) {
            break;
        }
        reading.event(event);
        buf.clear();
    }
    reading.finish()
}

/// A JUnit report being read, event by event.
#[derive(Debug, Default)]
struct Reading {
    /// Who wrote it, once known.
    producer: Option<Producer>,
    /// The innermost open `<testsuite>`'s name; none after one closes.
    suite: Option<String>,
    /// The titles of the open `<testsuite>`s.
    path: SuitePath,
    /// The `<testcase>` whose children are being read.
    case: Option<Case>,
    /// The cases read.
    cases: Vec<Case>,
    /// A `<testsuites>` or `<testsuite>` was seen.
    saw_suite: bool,
    /// `<testsuites>` and `<testsuite>` elements open: one still open at
    /// the end is a report cut off (node's reporter writes its root's
    /// start first, and a run killed there leaves just that).
    open: u64,
}

impl Reading {
    /// One event of the XML, before its end.
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(element) if element.local_name().into_inner() == "testsuites" => {
                self.open = self.open.saturating_add(1);
                self.root(&element);
            }
            Event::Empty(element) if element.local_name().into_inner() == "testsuites" => {
                self.root(&element);
            }
            Event::Start(element) if element.local_name().into_inner() == "testsuite" => {
                self.open = self.open.saturating_add(1);
                let name = self.suite_start(&element);
                self.path.open(&name);
                self.suite = Some(name);
            }
            Event::Empty(element) if element.local_name().into_inner() == "testsuite" => {
                self.suite_start(&element);
            }
            Event::Start(element) if element.local_name().into_inner() == "testcase" => {
                self.case = Some(Case::of(
                    &element,
                    self.suite.as_deref(),
                    self.path.joined(),
                ));
            }
            Event::Empty(element) if element.local_name().into_inner() == "testcase" => {
                let case = Case::of(&element, self.suite.as_deref(), self.path.joined());
                self.cases.push(case);
            }
            Event::Start(element) | Event::Empty(element) => {
                if let Some(case) = &mut self.case {
                    case.child(&element);
                }
            }
            Event::End(element) if element.local_name().into_inner() == "testcase" => {
                self.cases.extend(self.case.take());
            }
            Event::End(element) if element.local_name().into_inner() == "testsuites" => {
                self.open = self.open.saturating_sub(1);
            }
            Event::End(element) if element.local_name().into_inner() == "testsuite" => {
                self.open = self.open.saturating_sub(1);
                self.path.close();
                self.suite = None;
            }
            Event::End(_)
            | Event::Eof
            | Event::Text(_)
            | Event::CData(_)
            | Event::Comment(_)
            | Event::Decl(_)
            | Event::PI(_)
            | Event::DocType(_)
            | Event::GeneralRef(_) => {}
        }
    }

    /// A `<testsuites>` root: its name may say who wrote the report.
    fn root(&mut self, element: &BytesStart<'_>) {
        self.saw_suite = true;
        self.producer = self
            .producer
            .or_else(|| Producer::of_root(&attribute(element, "name")));
    }

    /// A `<testsuite>`: its schema or name may say who wrote the report;
    /// its name.
    fn suite_start(&mut self, element: &BytesStart<'_>) -> String {
        self.saw_suite = true;
        let name = attribute(element, "name");
        self.producer = self
            .producer
            .or_else(|| Producer::of_schema(element))
            .or_else(|| Producer::of_root(&name));
        name
    }

    /// The report read, or why it is none.
    fn finish(self) -> Result<Report, ReportError> {
        if self.open > 0 {
            return Err(ReportError {
                message: "the report ends inside a <testsuites> or <testsuite> element: \
                          its writer did not finish it"
                    .to_owned(),
            });
        }
        if !self.saw_suite && self.cases.is_empty() {
            return Err(ReportError {
                message: "no <testsuites>, <testsuite> or <testcase> element: not a JUnit report"
                    .to_owned(),
            });
        }
        let producer = self
            .producer
            .unwrap_or_else(|| Producer::guess(&self.cases));
        Ok(report_of(producer, self.cases))
    }
}

/// The deepest nesting of `<testsuite>`s whose titles a case's
/// [`Case::path`] holds: a hostile report cannot grow it further.
const MAX_NESTING: usize = 64;

/// The titles of the open `<testsuite>`s, outermost first (node's
/// reporter nests one per describe and per test with subtests).
#[derive(Debug, Default)]
struct SuitePath {
    /// The titles of the first [`MAX_NESTING`] open suites, each joined
    /// with those above it by ` > `.
    joined: Vec<String>,
    /// How many suites are open.
    depth: usize,
}

impl SuitePath {
    /// A suite titled `title` opens.
    fn open(&mut self, title: &str) {
        self.depth = self.depth.saturating_add(1);
        if self.joined.len() < MAX_NESTING {
            let joined = match self.joined.last() {
                Some(outer) => format!("{outer} > {title}"),
                None => title.to_owned(),
            };
            self.joined.push(joined);
        }
    }

    /// The innermost open suite closes.
    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.joined.truncate(self.depth.min(MAX_NESTING));
    }

    /// The open suites' titles joined by ` > `; empty outside any.
    fn joined(&self) -> &str {
        self.joined.last().map_or("", String::as_str)
    }
}

/// Who wrote the report, as far as it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Producer {
    Known(Runner),
    Unknown,
}

impl Producer {
    /// The producer a root or first suite's name gives away (a runner's
    /// [`Junit::roots`]).
    fn of_root(name: &str) -> Option<Producer> {
        Runner::ALL
            .into_iter()
            .find(|&runner| crate::formats::junit(runner).roots.contains(&name))
            .map(Producer::Known)
    }

    /// How the producer's report is read.
    fn junit(self) -> &'static Junit {
        match self {
            Producer::Known(runner) => crate::formats::junit(runner),
            Producer::Unknown => &Junit::COMMON,
        }
    }

    /// The producer a suite's schema location gives away (a runner's
    /// [`Junit::schema`]).
    fn of_schema(suite: &BytesStart<'_>) -> Option<Producer> {
        let location = attribute(suite, "noNamespaceSchemaLocation");
        Runner::ALL
            .into_iter()
            .find(|&runner| {
                let schema = crate::formats::junit(runner).schema;
                !schema.is_empty() && location.contains(schema)
            })
            .map(Producer::Known)
    }

    /// The producer the cases' shape gives away where the report names
    /// none (a runner's [`Junit::wrote`]), the first in [`Runner::ALL`].
    fn guess(cases: &[Case]) -> Producer {
        Runner::ALL
            .into_iter()
            .find(|&runner| (crate::formats::junit(runner).wrote)(cases))
            .map_or(Producer::Unknown, Producer::Known)
    }
}

impl Case {
    fn of(element: &BytesStart<'_>, suite: Option<&str>, path: &str) -> Case {
        Case {
            name: attribute(element, "name"),
            path: path.to_owned(),
            classname: attribute(element, "classname"),
            file: attribute(element, "file"),
            suite: suite.unwrap_or_default().to_owned(),
            failed: false,
            errored: false,
            skipped: false,
            xfail: false,
            retried: false,
            duration_ms: seconds_to_millis(&attribute(element, "time")),
            ctest_status: match attribute(element, "status").as_str() {
                "run" => "run",
                "fail" => "fail",
                "notrun" => "notrun",
                "disabled" => "disabled",
                _ => "",
            },
            unrunnable: false,
            class: attribute(element, "class"),
            php: !attribute(element, "class").is_empty()
                && !attribute(element, "assertions").is_empty(),
            risky: false,
            warned: false,
        }
    }

    /// A child element of the case: its result, if it is one.
    fn child(&mut self, element: &BytesStart<'_>) {
        match element.local_name().into_inner() {
            "failure" => self.failed = true,
            "error" if is_phpunit_risky(&attribute(element, "type")) => self.risky = true,
            "error" => self.errored = true,
            "warning" => self.warned = true,
            "skipped" => {
                self.skipped = true;
                self.unrunnable |=
                    attribute(element, "message").starts_with("Unable to find executable");
                // pytest: `<skipped type="pytest.xfail" …>`.
                self.xfail |= attribute(element, "type") == "pytest.xfail";
            }
            "flakyFailure" | "flakyError" | "rerunFailure" | "rerunError" => {
                self.retried = true;
            }
            _ => {}
        }
    }

    /// The case's outcome. `<error>` is pytest's error (a fixture, a setup
    /// or teardown); other runners write it for what their console calls a
    /// failure (nextest: a crash, a leak its policy fails).
    fn outcome(&self, producer: Producer) -> Outcome {
        let junit = producer.junit();
        if let Some(outcome) = (junit.outcome)(self) {
            return outcome;
        }
        let errors_apart = junit.errors_apart;
        // PHPUnit's warning is its run's failure only under
        // `failOnWarning` (`Report::warned`); another writer's is a failure.
        let failed = self.failed || (self.warned && !self.php);
        match (failed, self.errored, self.retried, self.skipped) {
            (true, _, _, _) => Outcome::Failed,
            (false, true, _, _) if errors_apart => Outcome::Error,
            (false, true, _, _) => Outcome::Failed,
            (false, false, true, _) => Outcome::Flaky,
            (false, false, false, true) if self.xfail => Outcome::XFailed,
            (false, false, false, true) => Outcome::Skipped,
            (false, false, false, false) => Outcome::Passed,
        }
    }

    /// The canonical name and context for `producer`.
    fn canonical(&self, producer: Producer) -> (String, Option<String>) {
        (producer.junit().name)(self)
    }
}

/// Whether an `<error>`'s `type` is one PHPUnit 9 reports a risky test
/// with (`addRiskyTest`): the console counts these risky, not failed.
fn is_phpunit_risky(kind: &str) -> bool {
    matches!(
        kind,
        "PHPUnit\\Framework\\RiskyTestError"
            | "PHPUnit\\Framework\\OutputError"
            | "PHPUnit\\Framework\\UnintentionallyCoveredCodeError"
            | "PHPUnit\\Framework\\CoveredCodeNotExecutedException"
            | "PHPUnit\\Framework\\MissingCoversAnnotationException"
            | "PHPUnit\\Framework\\InvalidCoversTargetException"
    )
}

fn report_of(producer: Producer, cases: Vec<Case>) -> Report {
    let format = match producer {
        Producer::Known(runner) => Some(runner),
        Producer::Unknown => None,
    };
    let (risky, warned) = phpunit_apart(producer, &cases);
    let mut cases = cases;
    if producer.junit().failed_first {
        // Each name's first case stands.
        cases.sort_by_key(|case| !(case.failed || case.errored));
    }
    let cases = cases
        .into_iter()
        .map(|case| {
            let outcome = case.outcome(producer);
            let duration_ms = case.duration_ms;
            let (name, context) = case.canonical(producer);
            let kind = (producer.junit().kind)(&name);
            (name, outcome, kind, context, duration_ms)
        })
        .collect();
    let mut report = report_of_cases(format, cases);
    report.risky = risky;
    report.warned = warned;
    report
}

/// PHPUnit's risky and warned tests that did not fail
/// ([`Report::risky`], [`Report::warned`]), each once, in order.
fn phpunit_apart(producer: Producer, cases: &[Case]) -> (Vec<FailingTest>, Vec<FailingTest>) {
    let (mut risky, mut warned) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashSet::new();
    for case in cases {
        let passed = !case.failed && !case.errored && !case.skipped;
        let apart = if case.risky {
            &mut risky
        } else if case.warned && case.php {
            &mut warned
        } else {
            continue;
        };
        let (name, _) = case.canonical(producer);
        if passed && seen.insert(name.clone()) {
            apart.push(FailingTest::new(name, Runner::Phpunit, None));
        }
    }
    (risky, warned)
}

/// One case of a runner's report: its name, outcome, kind, context and
/// duration in milliseconds.
type ReportCase = (String, Outcome, Kind, Option<String>, Option<u64>);

/// The report of a runner's report's cases: each name once (its first
/// case), failing ones in `failing` (and nextest's flaky ones, as its
/// console parser keeps them), the counts from the cases.
fn report_of_cases(format: Option<Runner>, cases: Vec<ReportCase>) -> Report {
    let runner = format.unwrap_or(Runner::Cargo);
    let mut report = Report {
        format,
        ..Report::default()
    };
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    let mut seen = std::collections::HashSet::new();
    for (name, outcome, kind, context, duration_ms) in cases {
        match outcome {
            Outcome::Failed | Outcome::Error => failed = failed.saturating_add(1),
            Outcome::Skipped | Outcome::XFailed => skipped = skipped.saturating_add(1),
            Outcome::Passed | Outcome::XPassed | Outcome::Flaky | Outcome::Running => {
                passed = passed.saturating_add(1);
            }
        }
        // A name is the test's identity within its context: one title in
        // two files is two tests.
        if !seen.insert((name.clone(), context.clone())) {
            continue;
        }
        let kept = outcome == Outcome::Flaky
            && format.is_some_and(|runner| crate::formats::junit(runner).flaky_failing);
        if outcome.is_failure() || kept {
            let test = FailingTest::new(name.clone(), runner, context.clone()).with_kind(kind);
            report.failing.push(test);
        }
        if outcome == Outcome::Flaky {
            report.flaky.push(name.clone());
        }
        if report.tests.len() < crate::report::MAX_TESTS || outcome.is_failure() {
            report.tests.push(TestOutcome {
                name,
                outcome,
                kind,
                format: runner,
                context,
                duration_ms,
                description: None,
            });
        } else {
            report.tests_omitted = report.tests_omitted.saturating_add(1);
        }
    }
    report.counts = Counts {
        passed: Some(passed),
        failed: Some(failed),
        skipped: Some(skipped),
    };
    report.no_tests_ran = passed == 0 && failed == 0;
    report
}

/// JUnit's `time` (seconds, `0.012`) in milliseconds; None when absent,
/// malformed, negative or not finite.
fn seconds_to_millis(text: &str) -> Option<u64> {
    millis(text.trim().parse::<f64>().ok()? * 1000.0)
}

/// A duration in milliseconds as a whole number; None when negative or
/// not finite.
fn millis(ms: f64) -> Option<u64> {
    if !ms.is_finite() || ms < 0.0 {
        return None;
    }
    // Rounded; beyond u64 it saturates (`as` from a float does).
    Some(ms.round() as u64)
}

/// An attribute's unescaped value; empty when absent or malformed.
fn attribute(element: &BytesStart<'_>, key: &str) -> String {
    // Without quick_xml's check for repeated names (a quadratic pass over
    // every element's attributes, 2 % of a check of PHP-Parser): the first
    // attribute of the name is taken either way.
    element
        .attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().into_inner() == key)
        .and_then(|a| {
            let value = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .ok()?;
            Some(value.into_owned())
        })
        .unwrap_or_default()
}

/// Whether `bytes` look like a jest `--json` or vitest `--reporter=json`
/// report: a JSON object whose first 64 KiB hold its `numTotalTests` and
/// `testResults` keys (go's and libtest's JSON are lines of events, and
/// hold neither).
///
/// ```
/// assert!(testgate_parse::is_json_report(br#"{"numTotalTests":1,"testResults":[]}"#));
/// assert!(!testgate_parse::is_json_report(br#"{"Action":"run","Package":"p"}"#));
/// ```
pub fn is_json_report(bytes: &[u8]) -> bool {
    let head = bytes.get(..bytes.len().min(64 << 10)).unwrap_or(bytes);
    let start = head.iter().position(|b| !b.is_ascii_whitespace());
    start.and_then(|at| head.get(at)) == Some(&b'{')
        && memchr::memmem::find(head, b"\"numTotalTests\"").is_some()
        && memchr::memmem::find(head, b"\"testResults\"").is_some()
}

/// Everything a jest `--json` or vitest `--reporter=json` report says:
/// every test with its outcome (passed, failed, skipped for pending, skipped
/// and todo; flaky for a test that passed after a failed try within the
/// run: jest's `retryTimes`, more than one `invocations` or a
/// `retryReasons`; vitest's `--retry`, a passed test with
/// `failureMessages`), named as their consoles name them (jest's titles
/// joined by ` › `, vitest's by ` > `; one title in two files is two
/// entries of one name), the file as context; a file that failed as a whole (jest's `Test suite failed to
/// run`, a vitest file with no test that failed) by its path, kind `file`.
/// A report that lists fewer tests than its `numTotalTests`, fewer failed
/// ones than its `numFailedTests`, or says `wasInterrupted` is incomplete
/// ([`Report::unclosed`]). jest's report has keys vitest's lacks
/// (`wasInterrupted`, `openHandles`): that tells them apart. Paths stay
/// as the report gives them (absolute); [`parse_json_report_in`] makes
/// them relative, as the consoles print them.
///
/// ```
/// let json = br#"{"numTotalTests":2,"wasInterrupted":false,"testResults":[{"name":"/p/a.test.js","status":"failed","message":"","assertionResults":[
///   {"ancestorTitles":["math"],"title":"adds","status":"passed"},
///   {"ancestorTitles":["math"],"title":"subtracts","status":"failed"}]}]}"#;
/// let report = testgate_parse::parse_json_report(json).unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["math › subtracts"]);
/// assert_eq!(report.format, Some(testgate_parse::Runner::Jest));
/// assert_eq!(report.unclosed, None);
/// ```
pub fn parse_json_report(bytes: &[u8]) -> Result<Report, ReportError> {
    parse_json_report_in(bytes, "")
}

/// [`parse_json_report`], with each file's path made relative to `root`
/// (the directory the runner ran in, where jest and vitest print paths
/// from), as the consoles print them: the names and contexts of the report
/// and of the console then agree. A path outside `root`, or any path when
/// `root` is empty, stays as the report gives it.
///
/// ```
/// let json = br#"{"numTotalTests":1,"testResults":[{"name":"/p/src/a.test.js","status":"failed","message":"","assertionResults":[
///   {"ancestorTitles":[],"title":"adds","status":"failed"}]}]}"#;
/// let report = testgate_parse::parse_json_report_in(json, "/p").unwrap();
/// assert_eq!(report.failing[0].context.as_deref(), Some("src/a.test.js"));
/// assert_eq!(report.format, Some(testgate_parse::Runner::Vitest));
/// ```
pub fn parse_json_report_in(bytes: &[u8], root: &str) -> Result<Report, ReportError> {
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| ReportError {
        message: format!("not a JSON report: {e}"),
    })?;
    let Some(suites) = value
        .get("testResults")
        .and_then(serde_json::Value::as_array)
    else {
        return Err(ReportError {
            message: "no `testResults` list: not a jest or vitest JSON report".to_owned(),
        });
    };
    let jest = value.get("wasInterrupted").is_some() || value.get("openHandles").is_some();
    let (runner, join) = if jest {
        (Runner::Jest, " › ")
    } else {
        (Runner::Vitest, " > ")
    };
    let root = root.trim_end_matches('/');
    let mut cases: Vec<ReportCase> = Vec::new();
    let mut listed = (0u64, 0u64);
    for suite in suites {
        json_suite_cases(suite, root, join, &mut cases, &mut listed);
    }
    let (tests_listed, failed_listed) = listed;
    let mut report = report_of_cases(Some(runner), cases);
    report.unclosed = incomplete(&value, tests_listed, failed_listed);
    Ok(report)
}

/// Pushes onto `cases` one file of a jest or vitest JSON report: each of
/// its tests ([`json_test_case`]), then the file itself when it failed
/// with no test failing in it; counts into `listed` the tests and the
/// failed ones it lists.
fn json_suite_cases(
    suite: &serde_json::Value,
    root: &str,
    join: &str,
    cases: &mut Vec<ReportCase>,
    (tests_listed, failed_listed): &mut (u64, u64),
) {
    let path = json_text(suite, "name");
    let file = relative(&path, root).to_owned();
    let context = (!file.is_empty()).then(|| file.clone());
    let assertions = suite
        .get("assertionResults")
        .and_then(serde_json::Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut any_failed = false;
    for test in assertions {
        let case = json_test_case(test, join, context.as_deref());
        let failed = case.1 == Outcome::Failed;
        any_failed |= failed;
        *tests_listed = tests_listed.saturating_add(1);
        *failed_listed = failed_listed.saturating_add(u64::from(failed));
        cases.push(case);
    }
    // A file that failed with no test failing in it failed as a whole.
    if json_text(suite, "status") == "failed" && !any_failed {
        cases.push((file.clone(), Outcome::Failed, Kind::File, context, None));
    }
}

/// One test of a jest or vitest JSON report: its titles joined by `join`,
/// its outcome, its file as `context` and its duration.
fn json_test_case(test: &serde_json::Value, join: &str, context: Option<&str>) -> ReportCase {
    let mut titles: Vec<String> = test
        .get("ancestorTitles")
        .and_then(serde_json::Value::as_array)
        .map(|t| {
            t.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    titles.push(json_text(test, "title"));
    let invocations = test
        .get("invocations")
        .and_then(serde_json::Value::as_u64)
        .unwrap_or(1);
    // A failed try the runner retried into a pass: jest counts its
    // invocations and keeps `retryReasons`; vitest keeps the failed
    // tries' `failureMessages` on the passed test.
    let retried = invocations > 1
        || json_listed(test, "retryReasons")
        || json_listed(test, "failureMessages");
    let outcome = match json_text(test, "status").as_str() {
        "passed" if retried => Outcome::Flaky,
        "passed" => Outcome::Passed,
        "failed" => Outcome::Failed,
        _ => Outcome::Skipped,
    };
    // jest's and vitest's `duration`: milliseconds, a number.
    let duration_ms = test
        .get("duration")
        .and_then(serde_json::Value::as_f64)
        .and_then(millis);
    (
        titles.join(join),
        outcome,
        Kind::Test,
        context.map(str::to_owned),
        duration_ms,
    )
}

/// `value`'s string at `key`, or an empty one.
fn json_text(value: &serde_json::Value, key: &str) -> String {
    value
        .get(key)
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Whether `value`'s list at `key` holds an entry.
fn json_listed(value: &serde_json::Value, key: &str) -> bool {
    value
        .get(key)
        .and_then(serde_json::Value::as_array)
        .is_some_and(|list| !list.is_empty())
}

/// A report RSpec's JSON formatter wrote (`--format json --out FILE`):
/// each example by its `full_description`, as the console's lists name
/// it; a pending one skipped. A spec file that did not load is no example:
/// the report gives it only in RSpec's own message (`An error occurred
/// while loading ./spec/x_spec.rb.`), and it is named by its path, kind
/// file. rspec-retry's earlier tries are not in the report (the console
/// names them).
///
/// ```
/// let json = br#"{"version":"3.12.0","examples":[
///   {"full_description":"Calc adds","status":"failed","run_time":0.01},
///   {"full_description":"Calc subtracts","status":"passed"}],
///   "summary":{"example_count":2,"failure_count":1,"pending_count":0,
///   "errors_outside_of_examples_count":0}}"#;
/// let report = testgate_parse::parse_rspec_json(json).unwrap();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["Calc adds"]);
/// ```
pub fn parse_rspec_json(bytes: &[u8]) -> Result<Report, ReportError> {
    #[derive(serde::Deserialize)]
    struct Document {
        examples: Vec<Example>,
        summary: Option<Summary>,
        #[serde(default)]
        messages: Vec<String>,
    }
    #[derive(serde::Deserialize)]
    struct Example {
        full_description: String,
        status: String,
        run_time: Option<f64>,
    }
    #[derive(serde::Deserialize)]
    struct Summary {
        example_count: u64,
    }
    let document: Document = serde_json::from_slice(bytes).map_err(|e| ReportError {
        message: format!("not an RSpec JSON report: {e}"),
    })?;
    let mut cases: Vec<ReportCase> = document
        .examples
        .iter()
        .map(|example| {
            let outcome = match example.status.as_str() {
                "passed" => Outcome::Passed,
                "failed" => Outcome::Failed,
                _ => Outcome::Skipped,
            };
            let duration_ms = example.run_time.and_then(|s| millis(s * 1000.0));
            (
                example.full_description.clone(),
                outcome,
                Kind::Test,
                None,
                duration_ms,
            )
        })
        .collect();
    for message in &document.messages {
        for line in message.lines() {
            if let Some(path) = line
                .strip_prefix("An error occurred while loading ")
                .and_then(|rest| rest.strip_suffix('.'))
            {
                cases.push((path.to_owned(), Outcome::Failed, Kind::File, None, None));
            }
        }
    }
    let mut report = report_of_cases(Some(Runner::Rspec), cases);
    // A report whose summary counts more examples than it lists is not the
    // whole run's; one without a summary was cut.
    report.unclosed = match document.summary {
        None => Some("the report has no summary".to_owned()),
        Some(summary) if summary.example_count > document.examples.len() as u64 => {
            Some("the report counts more examples than it lists".to_owned())
        }
        Some(_) => None,
    };
    Ok(report)
}

/// `path` relative to `root`, when it lies beneath it.
fn relative<'a>(path: &'a str, root: &str) -> &'a str {
    if root.is_empty() {
        return path;
    }
    path.strip_prefix(root)
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(path)
}

/// Why a jest or vitest JSON report is not the whole run's, if it is not:
/// jest says it was interrupted, or the report counts more tests (failed
/// tests) than it lists. A run that ended early writes no report at all;
/// this catches one cut or written by someone else.
fn incomplete(value: &serde_json::Value, tests: u64, failed: u64) -> Option<String> {
    let count = |key: &str| value.get(key).and_then(serde_json::Value::as_u64);
    if value
        .get("wasInterrupted")
        .and_then(serde_json::Value::as_bool)
        == Some(true)
    {
        return Some("the jest report says the run was interrupted".to_owned());
    }
    if let Some(total) = count("numTotalTests").filter(|total| *total > tests) {
        return Some(format!(
            "the JSON report counts {total} tests and lists {tests}"
        ));
    }
    if let Some(total) = count("numFailedTests").filter(|total| *total > failed) {
        return Some(format!(
            "the JSON report counts {total} failed tests and lists {failed}"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report cut off inside its root (node's junit reporter writes
    /// `<testsuites>` first: a run killed then leaves just that) is no
    /// report, not a run of no tests.
    #[test]
    fn a_report_cut_inside_its_root_is_no_report() {
        let cut = b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<testsuites>\n";
        assert!(parse_junit_of(Runner::Node, cut).is_err());
        let cut = b"<testsuites><testsuite name=\"a\"><testcase name=\"t\"/>";
        assert!(parse_junit(cut).is_err());
        let whole =
            b"<testsuites><testsuite name=\"a\"><testcase name=\"t\"/></testsuite></testsuites>";
        assert_eq!(parse_junit(whole).unwrap().tests.len(), 1);
    }

    #[test]
    fn malformed_and_foreign_xml_are_errors_not_panics() {
        for xml in [
            "<testsuites><testsuite>",
            "<html></html>",
            "<a",
            "",
            "\u{0}",
        ] {
            let result = parse_junit(xml.as_bytes());
            if let Ok(report) = &result {
                assert!(report.tests.is_empty(), "{xml:?}");
            }
        }
        assert!(parse_junit(b"<html></html>").is_err());
    }

    #[test]
    fn outcomes_of_every_child() {
        let xml = r#"<testsuites name="pytest tests"><testsuite name="pytest">
<testcase classname="t" name="test_ok"/>
<testcase classname="t" name="test_bad"><failure message="x"/></testcase>
<testcase classname="t" name="test_setup"><error message="x"/></testcase>
<testcase classname="t" name="test_skip"><skipped message="no"/></testcase>
<testcase classname="t" name="test_xfail"><skipped type="pytest.xfail" message="bug"/></testcase>
<testcase classname="t" name="test_rerun"><rerunFailure message="x"/></testcase>
</testsuite></testsuites>"#;
        let report = parse_junit(xml.as_bytes()).unwrap();
        let got: Vec<(&str, Outcome)> = report
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.outcome))
            .collect();
        assert_eq!(
            got,
            [
                ("t.py::test_ok", Outcome::Passed),
                ("t.py::test_bad", Outcome::Failed),
                ("t.py::test_setup", Outcome::Error),
                ("t.py::test_skip", Outcome::Skipped),
                ("t.py::test_xfail", Outcome::XFailed),
                ("t.py::test_rerun", Outcome::Flaky),
            ]
        );
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["t.py::test_bad", "t.py::test_setup"]
        );
        assert_eq!(report.flaky, ["t.py::test_rerun"]);
        assert_eq!(report.format, Some(Runner::Pytest));
    }

    #[test]
    fn durations_are_read_where_the_report_gives_them_and_only_there() {
        let xml = br#"<testsuite name="pytest"><testcase classname="t" name="a" time="0.25"/>
            <testcase classname="t" name="b" time="-1"/><testcase classname="t" name="c" time="x"/>
            <testcase classname="t" name="d"/></testsuite>"#;
        let report = parse_junit(xml).expect("a JUnit report");
        let durations: Vec<Option<u64>> = report.tests.iter().map(|t| t.duration_ms).collect();
        assert_eq!(durations, [Some(250), None, None, None]);
        let jest = json_report(
            r#"{"numTotalTests":1,"numFailedTests":0,"testResults":[{"name":"/r/a.test.js",
               "status":"passed","assertionResults":[{"ancestorTitles":[],"title":"t",
               "status":"passed","duration":12}]}]}"#,
        );
        assert_eq!(jest.tests[0].duration_ms, Some(12));
    }

    fn json_report(json: &str) -> Report {
        parse_json_report_in(json.as_bytes(), "/p").unwrap()
    }

    #[test]
    fn retries_within_the_run_are_flaky() {
        // jest: more than one invocation, or retry reasons; vitest: a
        // passed test that kept a retried try's failure message.
        let jest = json_report(
            r#"{"numTotalTests":3,"wasInterrupted":false,"testResults":[{"name":"/p/a.test.js","status":"passed","assertionResults":[
              {"ancestorTitles":["n"],"title":"twice","status":"passed","invocations":2},
              {"ancestorTitles":[],"title":"reasons","status":"passed","invocations":1,"retryReasons":["boom"]},
              {"ancestorTitles":[],"title":"steady","status":"passed","invocations":1,"retryReasons":[],"failureMessages":[]}]}]}"#,
        );
        assert_eq!(jest.flaky, ["n › twice", "reasons"]);
        assert!(jest.failing.is_empty());
        let vitest = json_report(
            r#"{"numTotalTests":2,"testResults":[{"name":"/p/a.test.js","status":"passed","assertionResults":[
              {"ancestorTitles":[],"title":"once","status":"passed","failureMessages":["AssertionError"]},
              {"ancestorTitles":[],"title":"steady","status":"passed","failureMessages":[]}]}]}"#,
        );
        assert_eq!(vitest.flaky, ["once"]);
        // Where it must not fire: a failed test keeps its failure messages.
        let failed = json_report(
            r#"{"numTotalTests":1,"testResults":[{"name":"/p/a.test.js","status":"failed","assertionResults":[
              {"ancestorTitles":[],"title":"fails","status":"failed","failureMessages":["x"]}]}]}"#,
        );
        assert!(failed.flaky.is_empty());
        assert_eq!(failed.names().collect::<Vec<_>>(), ["fails"]);
    }

    #[test]
    fn an_incomplete_report_is_unclosed() {
        let interrupted =
            json_report(r#"{"numTotalTests":0,"wasInterrupted":true,"testResults":[]}"#);
        assert_eq!(
            interrupted.unclosed.as_deref(),
            Some("the jest report says the run was interrupted")
        );
        let short = json_report(
            r#"{"numTotalTests":3,"numFailedTests":0,"testResults":[{"name":"/p/a.test.js","status":"passed","assertionResults":[
              {"ancestorTitles":[],"title":"a","status":"passed"}]}]}"#,
        );
        assert_eq!(
            short.unclosed.as_deref(),
            Some("the JSON report counts 3 tests and lists 1")
        );
        let unnamed = json_report(
            r#"{"numTotalTests":1,"numFailedTests":2,"testResults":[{"name":"/p/a.test.js","status":"failed","assertionResults":[
              {"ancestorTitles":[],"title":"a","status":"failed"}]}]}"#,
        );
        assert_eq!(
            unnamed.unclosed.as_deref(),
            Some("the JSON report counts 2 failed tests and lists 1")
        );
        // Where it must not fire: a report that lists what it counts, and
        // a file that failed to run (jest counts no test of it).
        let whole = json_report(
            r#"{"numTotalTests":1,"numFailedTests":0,"wasInterrupted":false,"testResults":[
              {"name":"/p/a.test.js","status":"passed","assertionResults":[{"ancestorTitles":[],"title":"a","status":"passed"}]},
              {"name":"/p/b.test.js","status":"failed","message":"Test suite failed to run","assertionResults":[]}]}"#,
        );
        assert_eq!(whole.unclosed, None);
        assert_eq!(whole.names().collect::<Vec<_>>(), ["b.test.js"]);
    }

    /// A name is the test's identity (issue 36): a title two files share is
    /// two entries of one name, told apart by their context.
    #[test]
    fn a_failing_title_two_files_share_is_two_tests_by_context() {
        let report = json_report(
            r#"{"numTotalTests":6,"wasInterrupted":false,"testResults":[
              {"name":"/p/src/a.test.js","status":"failed","assertionResults":[
                {"ancestorTitles":[],"title":"adds","status":"failed"},
                {"ancestorTitles":[],"title":"zero","status":"passed"},
                {"ancestorTitles":["m"],"title":"once","status":"failed"}]},
              {"name":"/p/src/b.test.js","status":"failed","assertionResults":[
                {"ancestorTitles":[],"title":"adds","status":"failed"},
                {"ancestorTitles":[],"title":"zero","status":"passed"},
                {"ancestorTitles":[],"title":"once","status":"failed"}]}]}"#,
        );
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["adds", "m › once", "adds", "once"]
        );
        assert_eq!(report.failing[0].context.as_deref(), Some("src/a.test.js"));
        assert_eq!(report.failing[2].context.as_deref(), Some("src/b.test.js"));
        let zero: Vec<_> = report.tests.iter().filter(|t| t.name == "zero").collect();
        assert_eq!(zero.len(), 2, "{:?}", report.tests);
        // Where it must not fire: one title twice in one file (a
        // `test.each` that names its cases alike) stays one name.
        let same_file = json_report(
            r#"{"numTotalTests":2,"testResults":[{"name":"/p/a.test.js","status":"failed","assertionResults":[
              {"ancestorTitles":[],"title":"case","status":"failed"},
              {"ancestorTitles":[],"title":"case","status":"failed"}]}]}"#,
        );
        assert_eq!(same_file.names().collect::<Vec<_>>(), ["case"]);
    }

    #[test]
    fn paths_relative_to_the_root_only_beneath_it() {
        assert_eq!(relative("/p/src/a.test.js", "/p"), "src/a.test.js");
        assert_eq!(relative("/p/a.test.js", ""), "/p/a.test.js");
        // Where it must not fire: a sibling that shares the prefix, the
        // root itself, another tree.
        assert_eq!(relative("/pq/a.test.js", "/p"), "/pq/a.test.js");
        assert_eq!(relative("/p/", "/p"), "/p/");
        assert_eq!(
            relative("/elsewhere/a.test.js", "/p"),
            "/elsewhere/a.test.js"
        );
    }

    /// ctest's report, known by its `status` attributes: a disabled test is
    /// skipped, a test whose program ctest could not find failed (as its
    /// console says), a `SKIP_RETURN_CODE` skipped (ctest 3.25's shapes).
    #[test]
    fn ctest_reports_say_what_its_console_says() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="(empty)" tests="4" failures="1" disabled="1" skipped="2">
  <testcase name="ok" classname="ok" time="0.01" status="run"><system-out></system-out></testcase>
  <testcase name="skip me" classname="skip me" time="0" status="notrun"><skipped message="SKIP_RETURN_CODE=77"/></testcase>
  <testcase name="dis" classname="dis" time="0" status="disabled"><system-out>Disabled</system-out></testcase>
  <testcase name="gone" classname="gone" time="0" status="notrun"><skipped message="Unable to find executable"/></testcase>
</testsuite>"#;
        let report = parse_junit(xml.as_bytes()).unwrap();
        assert_eq!(report.format, Some(Runner::Ctest));
        assert_eq!(report.names().collect::<Vec<_>>(), ["gone"]);
        let outcomes: Vec<(&str, Outcome)> = report
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.outcome))
            .collect();
        assert_eq!(
            outcomes,
            [
                ("ok", Outcome::Passed),
                ("skip me", Outcome::Skipped),
                ("dis", Outcome::Skipped),
                ("gone", Outcome::Failed),
            ]
        );
    }

    #[test]
    fn phpunits_report_names_as_its_console_and_risky_is_no_failure() {
        // Captured with default.log by tests/capture/phpunit.sh.
        let xml = include_str!("../tests/fixtures/phpunit/default.junit.xml");
        let expected = include_str!("../tests/fixtures/phpunit/default.expected");
        let report = parse_junit(xml.as_bytes()).unwrap();
        assert_eq!(report.format, Some(Runner::Phpunit));
        let mut names: Vec<&str> = report.names().collect();
        names.sort_unstable();
        let mut want: Vec<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
        want.sort_unstable();
        assert_eq!(names, want);
        let risky = report
            .tests
            .iter()
            .find(|t| t.name == "Demo\\Tests\\CalcTest::testRisky")
            .map(|t| t.outcome);
        assert_eq!(risky, Some(Outcome::Passed));
        let warned = report
            .tests
            .iter()
            .find(|t| t.name == "Demo\\Tests\\CalcTest::testWarns")
            .map(|t| t.outcome);
        // PHPUnit 9 fails a run on a warning only under `failOnWarning`.
        assert_eq!(warned, Some(Outcome::Passed));
        let apart =
            |tests: &[FailingTest]| tests.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert_eq!(apart(&report.risky), ["Demo\\Tests\\CalcTest::testRisky"]);
        assert_eq!(apart(&report.warned), ["Demo\\Tests\\CalcTest::testWarns"]);
    }
}
