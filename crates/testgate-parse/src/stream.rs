//! The streaming parser: chunks in, the same [`Report`] as the one-shot call.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState;

use crate::formats::{self, Findings, Interest, LineKey, Recognizer, Seen};
use crate::line::{Line, LineSplitter};
use crate::report::{Counts, FailingTest, Kind, Outcome, Report, TestOutcome};
use crate::runner::{Format, Runner};

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
        }
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
        let StreamParser {
            splitter,
            recognizers,
            interests,
            readers,
            every_line,
            lines,
            ..
        } = self;
        let mut dispatch = Dispatch {
            recognizers,
            interests,
            readers,
            every_line: *every_line,
            lines,
        };
        splitter.feed(chunk, |raw| dispatch.line(raw));
    }

    /// Ends the output and reports what was understood.
    pub fn finish(mut self) -> Report {
        let StreamParser {
            splitter,
            recognizers,
            interests,
            readers,
            every_line,
            lines,
            ..
        } = &mut self;
        let mut dispatch = Dispatch {
            recognizers,
            interests,
            readers,
            every_line: *every_line,
            lines,
        };
        splitter.finish(|raw| dispatch.line(raw));

        let explicit = self.format != Format::Auto;
        let mut found: Vec<(Runner, Findings)> = self
            .recognizers
            .iter_mut()
            .map(|(f, r)| (*f, r.finish()))
            .filter(|(_, findings)| explicit || findings.detected_at.is_some())
            .collect();
        found.sort_by_key(|(f, findings)| (findings.detected_at.unwrap_or(u64::MAX), *f));

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
        let mut seen = Vec::new();
        for (runner, findings) in found {
            let named = |(index, name)| (index, name, runner);
            running.extend(findings.running.into_iter().map(named));
            flaky.extend(findings.flaky.into_iter().map(named));
            report.reruns = report.reruns.saturating_add(findings.reruns);
            counts.add(findings.counts);
            any_said_none |= findings.no_tests_ran;
            if report.unclosed.is_none() {
                report.unclosed = findings.unclosed;
            }
            failing.extend(findings.failing);
            seen.push((runner, findings.seen));
        }
        // Stable: ties keep the recognisers' order.
        failing.sort_by_key(|(index, _)| *index);
        // Each name once, without copying the names: a log can name a
        // hundred thousand failing tests.
        let first: Vec<bool> = {
            let mut names =
                HashSet::with_capacity_and_hasher(failing.len(), RandomState::default());
            failing
                .iter()
                .map(|(_, test)| names.insert(test.name.as_str()))
                .collect()
        };
        let failing: Vec<(u64, FailingTest)> = failing
            .into_iter()
            .zip(first)
            .filter_map(|(test, first)| first.then_some(test))
            .collect();
        let flaky = first_of_each(flaky);
        let running = first_of_each(running);
        let (tests, omitted) = every_test(&failing, &flaky, &running, seen);
        report.flaky = flaky.into_iter().map(|(_, name, _)| name).collect();
        report.running = running.into_iter().map(|(_, name, _)| name).collect();
        report.tests = tests;
        report.tests_omitted = omitted;
        report.failing = failing.into_iter().map(|(_, test)| test).collect();
        report.no_tests_ran =
            any_said_none && counts.ran().unwrap_or(0) == 0 && report.failing.is_empty();
        report.counts = counts;
        report
    }
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
            };
            tests.push((*index, test));
            continue;
        }
        let entry = (*index, outcome, test.kind, test.format, context);
        decided.insert(&test.name, entry);
    }
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
        };
        tests.push((index, test));
    }
    tests.sort_by_key(|(index, _)| *index);
    (tests.into_iter().map(|(_, test)| test).collect(), omitted)
}

/// The parser's parts that each line goes through.
struct Dispatch<'p> {
    recognizers: &'p mut [(Runner, Box<dyn Recognizer + Send>)],
    interests: &'p mut [&'static Interest],
    readers: &'p mut Readers,
    every_line: bool,
    lines: &'p mut u64,
}

impl Dispatch<'_> {
    /// Gives the line to the recognisers that read its class, once
    /// classified: in auto mode most lines are foreign to most recognisers.
    fn line(&mut self, text: &str) {
        let line = Line {
            text: Cow::Borrowed(text),
            index: *self.lines,
        };
        *self.lines += 1;
        if self.every_line {
            for (_, recognizer) in self.recognizers.iter_mut() {
                recognizer.line(&line);
            }
            return;
        }
        let mut readers = self.readers.of(LineKey::of(text), self.interests);
        // In the recognisers' order, as a loop over all of them would.
        while readers != 0 {
            let at = readers.trailing_zeros() as usize;
            readers &= readers - 1;
            let (Some((_, recognizer)), Some(interest)) =
                (self.recognizers.get_mut(at), self.interests.get_mut(at))
            else {
                break;
            };
            recognizer.line(&line);
            let now = recognizer.interest();
            if !std::ptr::eq(now, *interest) {
                *interest = now;
                self.readers.forget();
            }
        }
    }
}

/// Which recognisers read each class of line, one bit per recogniser,
/// worked out from their interests the first time a key (an end) is met
/// and kept until an interest changes: most lines then cost a lookup, not
/// a test per recogniser. A change only makes the cache stale (a new
/// generation), so a log whose every line changes a recogniser's state
/// costs what testing each recogniser on each line would.
struct Readers {
    generation: u32,
    /// Per [`LineKey::key`]: the generation it was worked out in, the
    /// recognisers that read it whatever its end, those that read it with
    /// some ends.
    by_key: Vec<(u32, u16, u16)>,
    /// Per last byte: the generation, the recognisers whose ends hold it.
    by_end: Vec<(u32, u16)>,
}

const _: () = assert!(
    Runner::ALL.len() <= 16,
    "Readers has a bit per recogniser in a u16"
);

impl Readers {
    fn new() -> Readers {
        Readers {
            generation: 1,
            by_key: vec![(0, 0, 0); 512],
            by_end: vec![(0, 0); 256],
        }
    }

    /// The recognisers that read a line of class `line`.
    fn of(&mut self, line: LineKey, interests: &[&'static Interest]) -> u16 {
        let generation = self.generation;
        let (any_end, some_ends) = match self.by_key.get_mut(usize::from(line.key())) {
            Some((known, any_end, some_ends)) if *known == generation => (*any_end, *some_ends),
            Some(entry) => {
                let (mut any_end, mut some_ends) = (0, 0);
                for (at, interest) in interests.iter().enumerate() {
                    let (any, some) = interest.by_key(line.key());
                    any_end |= u16::from(any) << at;
                    some_ends |= u16::from(some) << at;
                }
                *entry = (generation, any_end, some_ends);
                (any_end, some_ends)
            }
            None => (u16::MAX, 0),
        };
        if some_ends == 0 {
            return any_end;
        }
        let ends = match self.by_end.get_mut(usize::from(line.last())) {
            Some((known, ends)) if *known == generation => *ends,
            Some(entry) => {
                let mut ends = 0;
                for (at, interest) in interests.iter().enumerate() {
                    ends |= u16::from(interest.by_end(line.last())) << at;
                }
                *entry = (generation, ends);
                ends
            }
            None => u16::MAX,
        };
        any_end | (some_ends & ends)
    }

    /// An interest changed: what was worked out is stale.
    fn forget(&mut self) {
        match self.generation.checked_add(1) {
            Some(next) => self.generation = next,
            None => *self = Readers::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Format, Kind, MAX_TESTS, Outcome, Runner, StreamParser, parse};

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

    /// The cached readers of each class are those whose interest says so,
    /// before and after interests change, also across the generation's
    /// wrap.
    #[test]
    fn readers_are_the_interests_that_want_the_line() {
        use crate::formats::{Interest, LineKey};

        static LINES: Interest = Interest::NONE.first(b"ab").indented(b"-");
        static ENDED: Interest = Interest::NONE.first_ending(b"t=", b"n ").braced();
        let lines: Vec<String> = [
            "", "a", "b", "x", "  -", "   x", "ten", "t=", "x}", "=  ", "é\u{a0}",
        ]
        .iter()
        .map(|line| (*line).to_owned())
        .collect();
        let mut readers = super::Readers::new();
        let mut interests: Vec<&'static Interest> = vec![&LINES, &ENDED, &Interest::ALL];
        for round in 0..4 {
            if round == 2 {
                readers.generation = u32::MAX;
            }
            for line in &lines {
                let key = LineKey::of(line);
                let expected = interests
                    .iter()
                    .enumerate()
                    .fold(0u16, |m, (at, i)| m | u16::from(i.wants(key)) << at);
                assert_eq!(
                    readers.of(key, &interests),
                    expected,
                    "{line:?} in round {round}"
                );
            }
            interests.rotate_left(1);
            readers.forget();
        }
    }

    /// Fragments of each runner's output, the lines that change a
    /// recogniser's state (lists, pending results, sessions, blocks,
    /// trees, sections) among them, to build mixed logs from. Not whole
    /// lines only: glued, they make lines no runner prints too.
    const RUNNERS: [&[&str]; 6] = [CARGO, NEXTEST, GO, PYTEST, JEST, VITEST];
    const CARGO: &[&str] = &[
        "running 2 tests\n",
        "running 0 tests\n",
        "test a ... ",
        "test b - should panic ... ",
        "FAILED\n",
        "ok\n",
        "ignored, slow\n",
        "\n",
        "failures:\n",
        "    a\n",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
        "     Running tests/it.rs (target/debug/deps/it-1)\n",
        "   Doc-tests demo\n",
        "test slow has been running for over 60 seconds\n",
        "error: could not compile `demo`\n",
        "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 2 }\n",
        "{ \"type\": \"test\", \"event\": \"started\", \"name\": \"a\" }\n",
        "printed{ \"type\": \"test\", \"event\": \"failed\", \"name\": \"a\" }\n",
        "{ \"type\": \"suite\", \"event\": \"failed\", \"passed\": 1, \"failed\": 1 }\n",
        "} \n",
        "    b\n",
        "    c d\n",
    ];
    const NEXTEST: &[&str] = &[
        "    Starting 2 tests across 1 binary\n",
        " Nextest run ID 1\n",
        "       START [   0.000s] demo d\n",
        "        SLOW [> 60.000s] demo d\n",
        "         --- [   0.010s] demo d\n",
        "        FAIL [   0.010s] (1/2) demo a\n",
        "  TRY 1 FAIL [   0.010s] demo b\n",
        "  TRY 2 PASS [   0.010s] demo b\n",
        "   FLAKY 2/2 [   0.010s] demo b\n",
        "        PASS [   0.010s] (2/2) demo d\n",
        "     Summary [   0.1s] 2 tests run: 1 passed, 1 failed, 0 skipped\n",
        "error: no tests to run\n",
    ];
    const GO: &[&str] = &[
        "=== RUN   TestA\n",
        "=== RUN   TestA/b\n",
        "--- FAIL: TestA (0.00s)\n",
        "    --- PASS: TestA/b (0.00s)\n",
        "--- PASS: TestA (0.00s)\n",
        "PASS\n",
        "FAIL\n",
        "ok  \tp\t0.01s\n",
        "FAIL\tp\t0.01s\n",
        "?   \tq\t[no test files]\n",
        "testing: warning: no tests to run\n",
        "panic: test timed out after 1s\n",
        "running tests:\n",
        "\tTestA (1s)\n",
        "{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"T\"}\n",
        "{\"Action\":\"fail\",\"Package\":\"p\",\"Test\":\"T\"}\n",
        "{\"Action\":\"fail\",\"Package\":\"p\"}\n",
        "\tTestB\n",
    ];
    const PYTEST: &[&str] = &[
        "============================= test session starts ==============================\n",
        "collected 2 items\n",
        "t.py::test_a PASSED [ 50%]\n",
        "t.py::test_b FAILED [100%]\n",
        "t.py::test_c ",
        "t.py::test_d RERUN [ 50%]\n",
        "[gw0] [ 50%] FAILED t.py::test_e \n",
        "==== FAILURES ====\n",
        "=========================== short test summary info ============================\n",
        "FAILED t.py::test_b - assert 0\n",
        "ERROR t.py::test_f\n",
        "!!! Interrupted: 1 error during collection !!!\n",
        "==== 1 failed, 1 passed in 0.01s ====\n",
        "1 failed, 1 passed in 0.01s\n",
        "no tests ran in 0.01s\n",
        "= x \n",
        "== test session starts \n",
        "== short test summary info \n",
    ];
    const JEST: &[&str] = &[
        "FAIL src/a.test.js\n",
        "PASS src/b.test.js (5.1 s)\n",
        " FAIL  src/c.test.js\n",
        "  describe\n",
        "    ✓ passes (3 ms)\n",
        "    ✕ fails (2 ms)\n",
        "  ● describe › fails\n",
        "  ● Test suite failed to run\n",
        "Test Suites: 1 failed, 1 passed, 2 total\n",
        "Tests:       1 failed, 1 passed, 2 total\n",
        "No tests found, exiting with code 1\n",
        " LOGGING RETRY ERRORS  describe fails\n",
    ];
    const VITEST: &[&str] = &[
        " RUN  v4.1.12 /p\n",
        "⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\n",
        "⎯⎯⎯ Failed Suites 1 ⎯⎯⎯\n",
        "⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n",
        " FAIL  src/a.test.ts > suite > test\n",
        " FAIL  src/b.test.ts [ src/b.test.ts ]\n",
        "   × src/a.test.ts > suite > test 3ms\n",
        "   ✓ src/a.test.ts > suite > ok 1ms (retry x1)\n",
        " Test Files  1 failed | 1 passed (2)\n",
        "      Tests  1 failed | 1 passed (2)\n",
        "No test files found, exiting with code 1\n",
    ];

    /// What trims differently: tabs, non-ASCII spaces, escapes; a `}` last.
    const ODD: &[&str] = &[
        "  \u{a0}Running tests/x.rs (y)\n",
        " \u{3000}",
        "\t",
        "\u{a0}",
        "\u{1b}[31m",
        "\r\n",
    ];

    /// A mixed log: runs of one runner's fragments, each with odd ones and
    /// random text among them.
    fn mixed_log() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let run = (0..RUNNERS.len()).prop_flat_map(|runner| {
            let piece = prop_oneof![
                4 => crate::formats::testing::piece(RUNNERS[runner]),
                1 => proptest::sample::select(ODD).prop_map(str::to_owned),
            ];
            proptest::collection::vec(piece, 0..24)
        });
        proptest::collection::vec(run, 0..8).prop_map(|runs| runs.concat().concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The dispatch by interest leaves out only lines a recogniser would
        /// have done nothing with: every format gives the report it gives
        /// when every line reaches every recogniser.
        #[test]
        fn dispatch_by_interest_gives_the_report_of_every_line(log in mixed_log()) {
            let formats = std::iter::once(Format::Auto).chain(Runner::ALL.map(Format::from));
            for format in formats {
                let mut dispatched = StreamParser::dispatched(format);
                let mut every = StreamParser::every_line(format);
                dispatched.feed(log.as_bytes());
                every.feed(log.as_bytes());
                proptest::prop_assert_eq!(dispatched.finish(), every.finish(), "{:?}", format);
            }
        }
    }
}
