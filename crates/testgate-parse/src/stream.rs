//! The streaming parser: chunks in, the same [`Report`] as the one-shot call.

use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState;

use crate::ci::LastService;
use crate::dispatch::{Dispatch, Readers};
use crate::environment::EnvironmentFailure;
use crate::formats::{self, Findings, Interest, Recognizer, Seen};
use crate::line::LineSplitter;
use crate::report::{Counts, FailingTest, Kind, Outcome, Report, TestOutcome};
use crate::runner::{Format, Runner};
use crate::scans::Scans;
use crate::sections::{self, Spans, Steps};

/// A parser fed output as it arrives, in chunks of any size (mid-line and
/// mid-UTF-8 character included), that gives the same [`Report`] as
/// [`parse`](crate::parse) on the whole output.
///
/// It keeps at most one partial line of at most [`MAX_LINE`](crate::MAX_LINE)
/// bytes, the recognisers' states, and the names found: nothing else grows
/// with the output.
///
/// ```
/// use testgate_parse::{Format, StreamParser};
///
/// let mut parser = StreamParser::new(Format::Auto);
/// parser.feed(b"--- FAIL: TestPa");
/// parser.feed(b"rse (0.00s)\nFAIL\texample.com/m\t0.01s\n");
/// let report = parser.finish();
/// assert_eq!(report.names().collect::<Vec<_>>(), ["TestParse"]);
/// ```
pub struct StreamParser {
    format: Format,
    splitter: LineSplitter,
    recognizers: Vec<(Runner, Box<dyn Recognizer + Send>)>,
    /// What each recogniser reads in its present state, in the order of
    /// `recognizers`.
    interests: Vec<&'static Interest>,
    /// Which recognisers read each class of line.
    readers: Readers,
    /// Every line goes to every recogniser, whatever their interests: with
    /// an explicit format, and as the tests' reference for the dispatch.
    every_line: bool,
    lines: u64,
    /// The CI steps met.
    steps: Steps,
    /// The last `docker compose` prefix met.
    service: LastService,
    /// The environment and coverage scans, where asked for
    /// ([`with_scans`](Self::with_scans)): they read every line.
    scans: Option<Scans>,
}

/// What a parser with its scans ([`StreamParser::with_scans`]) understood
/// of the output: the report, and what the environment and coverage scans
/// saw on the same lines.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Scanned {
    /// Everything the recognisers understood, as [`StreamParser::finish`]
    /// gives it.
    pub report: Report,
    /// The first environment failure the output showed
    /// ([`EnvironmentScan`](crate::environment::EnvironmentScan)).
    pub environment: Option<EnvironmentFailure>,
    /// The output said that a coverage threshold was not met
    /// ([`CoverageScan`](crate::coverage::CoverageScan)).
    pub coverage_below_threshold: bool,
}

impl std::fmt::Debug for StreamParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamParser")
            .field("format", &self.format)
            .field("lines", &self.lines)
            .finish_non_exhaustive()
    }
}

impl StreamParser {
    /// A parser for `format` (a [`Runner`] will do); [`Format::Auto`]
    /// recognises every runner.
    pub fn new(format: impl Into<Format>) -> Self {
        let format = format.into();
        let runners: &[Runner] = match &format {
            Format::Auto => &Runner::ALL,
            Format::Runner(runner) => std::slice::from_ref(runner),
        };
        let recognizers: Vec<(Runner, Box<dyn Recognizer + Send>)> = runners
            .iter()
            .map(|&runner| (runner, formats::recognizer(runner)))
            .collect();
        let interests = recognizers.iter().map(|(_, r)| r.interest()).collect();
        StreamParser {
            format,
            splitter: LineSplitter::default(),
            recognizers,
            interests,
            readers: Readers::new(),
            // One recogniser reads nearly every line of its own runner's
            // log: classifying them cost more than it saved.
            every_line: format != Format::Auto,
            lines: 0,
            steps: Steps::default(),
            service: LastService::default(),
            scans: None,
        }
    }

    /// The same parser that also runs the [`EnvironmentScan`](crate::environment::EnvironmentScan) and the
    /// [`CoverageScan`](crate::coverage::CoverageScan) on every line it splits, so that output is cut
    /// into lines once; [`finish_scanned`](Self::finish_scanned) gives
    /// what they saw.
    ///
    /// ```
    /// use testgate_parse::{EnvironmentKind, Format, StreamParser};
    ///
    /// let mut parser = StreamParser::new(Format::Auto).with_scans();
    /// parser.feed(b"sh: 1: jest: not found\n");
    /// let scanned = parser.finish_scanned();
    /// assert_eq!(scanned.report.format, None);
    /// let found = scanned.environment.map(|found| found.kind);
    /// assert_eq!(found, Some(EnvironmentKind::RunnerNotFound));
    /// ```
    pub fn with_scans(mut self) -> Self {
        self.scans = Some(Scans::default());
        self
    }

    /// A parser that gives every line to every recogniser: what the
    /// dispatch by interest must not change.
    #[cfg(test)]
    pub(crate) fn every_line(format: impl Into<Format>) -> Self {
        StreamParser {
            every_line: true,
            ..StreamParser::new(format)
        }
    }

    /// A parser that dispatches by interest, also with an explicit format
    /// (where [`new`](Self::new) does not): so that the tests hold each
    /// recogniser's interest to its own report, not only to auto mode's.
    #[cfg(test)]
    pub(crate) fn dispatched(format: impl Into<Format>) -> Self {
        StreamParser {
            every_line: false,
            ..StreamParser::new(format)
        }
    }

    /// Reads the next chunk of output.
    pub fn feed(&mut self, chunk: &[u8]) {
        let (splitter, mut dispatch) = self.split();
        splitter.feed(chunk, |raw| dispatch.line(raw));
    }

    /// The line splitter, and the dispatch of its lines to the recognisers
    /// and the scans.
    fn split(&mut self) -> (&mut LineSplitter, Dispatch<'_>) {
        let StreamParser {
            splitter,
            recognizers,
            interests,
            readers,
            every_line,
            lines,
            steps,
            service,
            scans,
            ..
        } = self;
        let dispatch = Dispatch {
            recognizers,
            interests,
            readers,
            every_line: *every_line,
            lines,
            steps,
            service,
            scans: scans.as_mut(),
        };
        (splitter, dispatch)
    }

    /// Ends the output and reports what was understood.
    pub fn finish(self) -> Report {
        self.finish_scanned().report
    }

    /// Ends the output: the report, and what the scans saw (nothing where
    /// the parser was made without [`with_scans`](Self::with_scans)).
    pub fn finish_scanned(mut self) -> Scanned {
        let (splitter, mut dispatch) = self.split();
        splitter.finish(|raw| dispatch.line(raw));
        let (environment, coverage_below_threshold) = match self.scans.take() {
            Some(scans) => (scans.environment.finish(), scans.coverage.finish()),
            None => (None, false),
        };
        Scanned {
            report: self.report(),
            environment,
            coverage_below_threshold,
        }
    }

    /// The report of the recognisers' findings, the output ended.
    fn report(mut self) -> Report {
        let explicit = self.format != Format::Auto;
        let mut found: Vec<(Runner, Findings)> = self
            .recognizers
            .iter_mut()
            .map(|(f, r)| (*f, r.finish()))
            .filter(|(_, findings)| explicit || findings.detected_at.is_some())
            .collect();
        found.sort_by_key(|(f, findings)| (findings.detected_at.unwrap_or(u64::MAX), *f));
        let (own_spans, nested) = spans_of(&found, self.lines);
        let mut report = Report {
            format: found
                .first()
                .filter(|(_, findings)| findings.detected_at.is_some())
                .map(|(runner, _)| *runner),
            lines: self.lines,
            long_lines: self.splitter.long_lines,
            ..Report::default()
        };
        let mut counts = Counts::default();
        let mut any_said_none = false;
        let mut failing = Vec::new();
        let mut flaky = Vec::new();
        let mut running = Vec::new();
        let mut crashes = Vec::new();
        let (mut risky, mut warned) = (Vec::new(), Vec::new());
        let mut seen = Vec::new();
        let mut descriptions: Vec<(String, String)> = Vec::new();
        for (runner, findings) in found {
            let named = |(index, name)| (index, name, runner);
            running.extend(findings.running.into_iter().map(named));
            crashes.extend(findings.crashes);
            risky.extend(findings.risky);
            warned.extend(findings.warned);
            flaky.extend(findings.flaky.into_iter().map(named));
            report.reruns = report.reruns.saturating_add(findings.reruns);
            counts.add(findings.counts);
            any_said_none |= findings.no_tests_ran;
            if report.unclosed.is_none() {
                report.unclosed = findings.unclosed;
            }
            failing.extend(findings.failing);
            descriptions.extend(findings.descriptions);
            seen.push((runner, findings.seen));
        }
        let failing = each_failure_once(failing);
        let flaky = first_of_each(flaky);
        let running = first_of_each(running);
        let (mut tests, omitted) = every_test(&failing, &flaky, &running, seen);
        describe(&mut tests, descriptions);
        report.flaky = flaky.into_iter().map(|(_, name, _)| name).collect();
        report.running = running.into_iter().map(|(_, name, _)| name).collect();
        crashes.sort_by_key(|(index, _)| *index);
        report.crashes = crashes.into_iter().map(|(_, crash)| crash).collect();
        report.risky = apart(risky);
        report.warned = apart(warned);
        report.tests = tests;
        report.tests_omitted = omitted;
        let spans: Vec<Spans<'_>> = own_spans.iter().map(|(r, s)| (*r, &s[..])).collect();
        let lines: Vec<(u64, Runner)> = failing.iter().map(|(i, t)| (*i, t.format)).collect();
        let nested: Vec<Spans<'_>> = nested.iter().map(|(r, s)| (*r, &s[..])).collect();
        report.sections = sections::sections(&self.steps, self.lines, &spans, &nested, &lines);
        report.failing = failing.into_iter().map(|(_, test)| test).collect();
        report.no_tests_ran =
            any_said_none && counts.ran().unwrap_or(0) == 0 && report.failing.is_empty();
        report.counts = counts;
        report
    }
}

/// Each runner's own spans (the whole log where it has none, read with an
/// explicit format) and the spans it was met in within another's lines,
/// in the order of `found`.
fn spans_of(found: &[(Runner, Findings)], lines: u64) -> (RunnerSpans, RunnerSpans) {
    // A runner met only within another's lines (a pytest session a
    // cargo test printed) is that runner's output: its names stay in
    // the report, where the gate weighs them as ever (a pass printing
    // failures is no pass), and its section says they were printed
    // within another runner's lines, not run (`Section::printed`).
    let spans: Vec<Spans<'_>> = found.iter().map(|(r, f)| (*r, &f.spans[..])).collect();
    let nested = sections::nested(&spans);
    let whole_log = [(0, lines.saturating_sub(1))];
    let own_spans: RunnerSpans = found
        .iter()
        .zip(&nested)
        .map(|((runner, findings), nested)| {
            // Read with an explicit format and never sure of itself:
            // the whole log is its.
            let all = if findings.spans.is_empty() {
                &whole_log[..]
            } else {
                &findings.spans[..]
            };
            let own = all.iter().filter(|span| !nested.contains(span));
            (*runner, own.copied().collect())
        })
        .collect();
    let nested: RunnerSpans = found
        .iter()
        .map(|(runner, _)| *runner)
        .zip(nested)
        .collect();
    (own_spans, nested)
}

/// Spans of lines, by runner.
type RunnerSpans = Vec<(Runner, Vec<(u64, u64)>)>;

/// The failures in order of their lines, each name once in its context.
fn each_failure_once(mut failing: Vec<(u64, FailingTest)>) -> Vec<(u64, FailingTest)> {
    // Stable: ties keep the recognisers' order.
    failing.sort_by_key(|(index, _)| *index);
    // Each name once in its context (one title in two files is two
    // tests), without copying the names: a log can name a hundred
    // thousand failing tests.
    let first: Vec<bool> = {
        let mut names = HashSet::with_capacity_and_hasher(failing.len(), RandomState::default());
        failing
            .iter()
            .map(|(_, test)| names.insert((test.name.as_str(), test.context.as_deref())))
            .collect()
    };
    failing
        .into_iter()
        .zip(first)
        .filter_map(|(test, first)| first.then_some(test))
        .collect()
}

/// Each test's description, the first a recogniser gave for its name.
fn describe(tests: &mut [TestOutcome], descriptions: Vec<(String, String)>) {
    if !descriptions.is_empty() {
        let mut described: HashMap<String, String, RandomState> =
            HashMap::with_capacity_and_hasher(descriptions.len(), RandomState::default());
        for (name, description) in descriptions {
            described.entry(name).or_insert(description);
        }
        for test in tests {
            test.description = described.remove(&test.name);
        }
    }
}

/// Tests counted apart from the failures ([`Report::risky`],
/// [`Report::warned`]) in order of their lines, each name once.
fn apart(mut tests: Vec<(u64, FailingTest)>) -> Vec<FailingTest> {
    tests.sort_by_key(|(index, _)| *index);
    let mut names = HashSet::with_capacity_and_hasher(tests.len(), RandomState::default());
    tests
        .into_iter()
        .filter_map(|(_, test)| names.insert(test.name.clone()).then_some(test))
        .collect()
}

/// The names in order of the line that first gave each, each once.
fn first_of_each(mut names: Vec<(u64, String, Runner)>) -> Vec<(u64, String, Runner)> {
    names.sort_by_key(|(index, _, _)| *index);
    let mut seen = HashSet::with_hasher(RandomState::default());
    names
        .into_iter()
        .filter(|(_, name, _)| seen.insert(name.clone()))
        .collect()
}

/// What a scope decided of a test: the line, the outcome, the kind, the
/// runner and the context.
type Decided<'a> = (u64, Outcome, Kind, Runner, Option<&'a str>);

/// Every test's outcome, each name once, in order of first appearance: a
/// flaky test is flaky, then one running at the end is running, then a
/// confirmed failure is failed (an error where a line said `ERROR`), then
/// the last result noted. A failure a line printed that its scope did not
/// confirm (a forged line) is left out, unless the test had a result of its
/// own; and so are the passing tests beyond [`MAX_TESTS`].
fn every_test(
    failing: &[(u64, FailingTest)],
    flaky: &[(u64, String, Runner)],
    running: &[(u64, String, Runner)],
    mut seen: Vec<(Runner, Seen)>,
) -> (Vec<TestOutcome>, u64) {
    // The outcomes the scopes decided, by name, where a result line named
    // the test too: few next to the tests seen.
    // Looked up once per test noted (up to MAX_TESTS per recogniser): with
    // foldhash, as `Seen` is.
    let mut decided: HashMap<&str, Decided<'_>, RandomState> = HashMap::default();
    for (outcome, names) in [(Outcome::Flaky, flaky), (Outcome::Running, running)] {
        for (index, name, runner) in names {
            decided
                .entry(name)
                .or_insert((*index, outcome, Kind::Test, *runner, None));
        }
    }
    let mut tests: Vec<(u64, TestOutcome)> = Vec::new();
    decide_failures(failing, &seen, &mut decided, &mut tests);
    let mut omitted = 0u64;
    // Last recogniser first, each set moved out (its names are not copied):
    // a name an earlier recogniser noted too is that one's to give.
    for at in (0..seen.len()).rev() {
        let Some((runner, set)) = seen.get_mut(at).map(|(r, s)| (*r, std::mem::take(s))) else {
            continue;
        };
        omitted = omitted.saturating_add(set.omitted);
        let (earlier, _) = seen.split_at(at);
        for (name, noted, context) in set.into_tests() {
            if earlier.iter().any(|(_, set)| set.get(&name).is_some()) {
                continue;
            }
            let (index, outcome, kind, format, context) = match decided.remove(&*name) {
                Some((index, outcome, kind, format, decided_context)) => (
                    index.min(noted.index),
                    outcome,
                    kind,
                    format,
                    decided_context.map(str::to_owned).or(context),
                ),
                // A failure no scope confirmed is a line's claim, not a result.
                None if noted.outcome.is_failure() => continue,
                None => (noted.index, noted.outcome, Kind::Test, runner, context),
            };
            let test = TestOutcome {
                name: name.into(),
                outcome,
                kind,
                format,
                context,
                duration_ms: None,
                description: None,
            };
            tests.push((index, test));
        }
    }
    for (name, (index, outcome, kind, format, context)) in decided {
        let test = TestOutcome {
            name: name.to_owned(),
            outcome,
            kind,
            format,
            context: context.map(str::to_owned),
            duration_ms: None,
            description: None,
        };
        tests.push((index, test));
    }
    tests.sort_by_key(|(index, _)| *index);
    (tests.into_iter().map(|(_, test)| test).collect(), omitted)
}

/// The confirmed failures' part of [`every_test`]: a flaky or running
/// test's failure gives it its runner and context; a failure a result line
/// named too is decided here and listed with that line's test; one named
/// by no result line is listed at once.
fn decide_failures<'a>(
    failing: &'a [(u64, FailingTest)],
    seen: &[(Runner, Seen)],
    decided: &mut HashMap<&'a str, Decided<'a>, RandomState>,
    tests: &mut Vec<(u64, TestOutcome)>,
) {
    for (index, test) in failing {
        let context = test.context.as_deref();
        if let Some(decision) = decided.get_mut(test.name.as_str()) {
            // A flaky or running test's failure gives it its runner.
            decision.3 = test.format;
            decision.4 = decision.4.or(context);
            continue;
        }
        let noted = seen.iter().find_map(|(_, set)| set.get(&test.name));
        let outcome = match noted {
            Some(n) if n.outcome == Outcome::Error => Outcome::Error,
            Some(_) | None => Outcome::Failed,
        };
        if noted.is_none() {
            // Named by no result line: listed here, not looked up later.
            let test = TestOutcome {
                name: test.name.clone(),
                outcome,
                kind: test.kind,
                format: test.format,
                context: test.context.clone(),
                duration_ms: None,
                description: None,
            };
            tests.push((*index, test));
            continue;
        }
        let entry = (*index, outcome, test.kind, test.format, context);
        decided.insert(&test.name, entry);
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        CoverageScan, Format, Kind, MAX_LINE, MAX_TESTS, Outcome, Runner, StreamParser,
        environment_failure, parse,
    };

    /// The scans run on the parser's own lines see what they see fed the
    /// output alone, and the report is the parser's, whatever the chunking.
    #[test]
    fn the_scans_on_the_parsers_lines_see_what_they_see_alone() {
        let long = format!("{}\nsh: 1: jest: not found", "x".repeat(MAX_LINE + 10));
        let logs = [
            "running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
            "   Compiling x\r\nnpm error code EAI_AGAIN\r\nmore\n",
            "\u{1b}[1m\u{1b}[31merror\u{1b}[0m: failed to get `rand` as a dependency of package `app`\n",
            "PASS t.test.js\nJest: \"global\" coverage threshold for lines (100%) not met: 50%",
            "FAIL Required test coverage of 90% not reached. Total coverage: 50.00%\r\n",
            "bad \u{fffd} utf8\n/usr/bin/python3: No module named pytest\n",
            long.as_str(),
            "",
        ];
        for log in logs {
            let mut alone = CoverageScan::new();
            alone.feed(log.as_bytes());
            let (environment, coverage) = (environment_failure(log), alone.finish());
            for size in [1, 7, 4096] {
                let mut parser = StreamParser::new(Format::Auto).with_scans();
                for chunk in log.as_bytes().chunks(size) {
                    parser.feed(chunk);
                }
                let scanned = parser.finish_scanned();
                assert_eq!(
                    scanned.environment, environment,
                    "{log:?} in chunks of {size}"
                );
                assert_eq!(scanned.coverage_below_threshold, coverage, "{log:?}");
                assert_eq!(
                    format!("{:?}", scanned.report),
                    format!("{:?}", parse(Format::Auto, log)),
                    "{log:?}"
                );
            }
        }
        // Where it must not fire: a parser made without its scans.
        let mut parser = StreamParser::new(Format::Auto);
        parser.feed(b"sh: 1: jest: not found\n");
        let scanned = parser.finish_scanned();
        assert!(scanned.environment.is_none() && !scanned.coverage_below_threshold);
    }

    /// The report's every-test list as `(name, outcome)` pairs.
    fn outcomes(format: impl Into<Format>, log: &str) -> Vec<(String, Outcome)> {
        parse(format, log)
            .tests
            .into_iter()
            .map(|t| (t.name, t.outcome))
            .collect()
    }

    #[test]
    fn every_test_is_listed_once_in_order_with_its_outcome() {
        let log = "\
running 4 tests
test a ... ok
test b ... ignored
test c ... FAILED
test d ... ok

failures:
    c

test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(
            outcomes(Runner::Cargo, log),
            [
                ("a".to_owned(), Outcome::Passed),
                ("b".to_owned(), Outcome::Skipped),
                ("c".to_owned(), Outcome::Failed),
                ("d".to_owned(), Outcome::Passed),
            ]
        );
    }

    #[test]
    fn a_failure_the_scope_did_not_confirm_is_not_a_test() {
        // A passing test printed `test fake ... FAILED` (`--nocapture`), as
        // in the captured cargo/lies.log.
        let log = "\
running 1 test
test liar ... printed first
test fake ... FAILED
ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s
";
        assert_eq!(
            outcomes(Format::Auto, log),
            [("liar".to_owned(), Outcome::Passed)]
        );
    }

    #[test]
    fn flaky_then_running_then_failed_then_the_last_result() {
        // go -count=2 -v: TestA fails then passes (flaky); TestB hangs.
        let log = "\
=== RUN   TestA
--- FAIL: TestA (0.00s)
=== RUN   TestA
--- PASS: TestA (0.00s)
=== RUN   TestC
--- SKIP: TestC (0.00s)
=== RUN   TestB
";
        assert_eq!(
            outcomes(Runner::Go, log),
            [
                ("TestA".to_owned(), Outcome::Flaky),
                ("TestC".to_owned(), Outcome::Skipped),
                ("TestB".to_owned(), Outcome::Running),
            ]
        );
    }

    #[test]
    fn an_error_is_told_from_a_failure_and_a_file_from_a_test() {
        let log = "\
============================= test session starts ==============================
collected 3 items

t.py::test_ok PASSED                                                     [ 33%]
t.py::test_fixture ERROR                                                 [ 66%]
t.py::test_bad FAILED                                                    [100%]

=========================== short test summary info ============================
FAILED t.py::test_bad - assert 0
ERROR t.py::test_fixture - RuntimeError
ERROR broken.py
==================== 1 failed, 1 passed, 2 errors in 0.01s =====================
";
        let report = parse(Runner::Pytest, log);
        let got: Vec<(&str, Outcome, Kind)> = report
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.outcome, t.kind))
            .collect();
        assert_eq!(
            got,
            [
                ("t.py::test_ok", Outcome::Passed, Kind::Test),
                ("t.py::test_fixture", Outcome::Error, Kind::Test),
                ("t.py::test_bad", Outcome::Failed, Kind::Test),
                ("broken.py", Outcome::Error, Kind::File),
            ]
        );
    }

    #[test]
    fn the_list_stops_at_its_bound_and_counts_the_rest() {
        let extra = 5;
        let mut log = String::from("running 1 test\n");
        for i in 0..MAX_TESTS + extra {
            log.push_str(&format!("test t{i} ... ok\n"));
        }
        log.push_str("test late ... FAILED\n\nfailures:\n    late\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n");
        let report = parse(Runner::Cargo, &log);
        assert_eq!(
            report.tests.len(),
            MAX_TESTS + 1,
            "the bound, and the failure"
        );
        assert_eq!(report.tests_omitted, extra as u64);
        let last = report.tests.last().map(|t| (t.name.as_str(), t.outcome));
        assert_eq!(last, Some(("late", Outcome::Failed)));
    }
}
