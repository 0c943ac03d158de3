//! jest's default and verbose reporters: `FAIL <file>` suite blocks, their
//! `●` failure headers, the `--verbose` tree and the closing summary.
//!
//! jest prints one block per test file: `PASS <file>` or `FAIL <file>` (with
//! colour, ` FAIL  <file>`), under `--verbose` the tree of its tests (`✕`
//! marks a failure), then one `  ● A › b › test` header per failed test, or
//! `  ● Test suite failed to run` for a file that never ran its tests. A
//! *run* ends with `Test Suites: …` and `Tests: …`. The headers of `FAIL`
//! blocks are the candidates; the summary decides: a run whose summary says
//! no test (no suite) failed drops every test (suite) candidate, because a
//! passing test printed them.

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// Recognises jest output.
#[derive(Debug, Default)]
pub(crate) struct Jest {
    findings: Findings,
    run: Run,
    /// Each `●` header's lines, by file and name ([`excerpt_key`]).
    excerpts: Excerpts,
}

/// The key of a test's excerpt: jest tells tests apart by file and name.
fn excerpt_key(file: &str, name: &str) -> String {
    format!("{file}\u{0}{name}")
}

/// One jest invocation, from its first suite line to its summary.
#[derive(Debug, Default)]
struct Run {
    /// The `FAIL` block being read; `None` outside one and in `PASS` blocks,
    /// whose lines are never failures.
    block: Option<Block>,
    /// Failed tests named by `●` headers (or by `✕` lines of a block that
    /// showed no header), by name and file: candidates that the summary's
    /// `Tests:` count judges.
    tests: Scope,
    /// Suites that failed to run, by file: candidates that the summary's
    /// `Test Suites:` count judges.
    suites: Scope,
    /// `Test Suites: N failed` of this run's summary; `Some(0)` when the
    /// summary names no failed suite.
    failed_suites: Option<u64>,
    /// `Tests: N failed` of this run's summary, as above.
    failed_tests: Option<u64>,
    /// A `PASS`/`FAIL` suite line opened the run.
    started: bool,
    /// Tests `jest.retryTimes` retried (` LOGGING RETRY ERRORS  a b`, with
    /// `logErrorsBeforeRetry`), by jest's space-joined name, with the line.
    retried: Vec<(u64, String)>,
}

/// The most retried names kept from one run.
const MAX_RETRIED: usize = 1024;

/// A `FAIL <file>` or `PASS <file>` block.
#[derive(Debug)]
struct Block {
    file: String,
    /// A `FAIL` block: only its lines can name failures.
    failed: bool,
    /// A `●` header was seen: the block's `✕` lines are no longer needed.
    headers: bool,
    /// The `--verbose` tree, while it is being read.
    tree: Option<Vec<(usize, String)>>,
    /// Names rebuilt from the tree's `✕` lines, with their line index.
    crosses: Vec<(u64, String)>,
}

/// The deepest describe nesting rebuilt from a `--verbose` tree; deeper
/// levels are not tracked, so a hostile log cannot grow the stack.
const MAX_DEPTH: usize = 64;

impl Recognizer for Jest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text: &str = &line.text;
        let index = line.index;
        if let Some(name) = text.strip_prefix(" LOGGING RETRY ERRORS  ") {
            let name = name.trim_end();
            if !name.is_empty() && self.run.retried.len() < MAX_RETRIED {
                self.run.retried.push((index, name.to_owned()));
            }
            return;
        }
        match text.as_bytes().first() {
            // A blank line ends the verbose tree.
            None => self.end_tree(),
            Some(b'P' | b'F' | b' ') => {
                if let Some((failed, file)) = suite_line(text) {
                    self.detect(index);
                    self.suite_starts(failed, file);
                } else if text.starts_with(' ') {
                    self.block_line(text, index);
                } else {
                    self.end_tree();
                }
            }
            Some(b'T') => {
                if let Some(rest) = text.strip_prefix("Test Suites:") {
                    self.detect(index);
                    self.end_block();
                    self.run.failed_suites =
                        Some(super::js::summary_count(rest, ',', "failed").unwrap_or(0));
                } else if let Some(rest) = text.strip_prefix("Tests:") {
                    // Only after `Test Suites:`: `Tests:` alone is too common.
                    if self.run.failed_suites.is_some() {
                        let counts = super::js::tests_counts(rest, ',');
                        self.run.failed_tests = Some(counts.failed.unwrap_or(0));
                        self.findings.counts.add(counts);
                    }
                }
            }
            Some(b'N') if says_no_tests(text) => {
                self.detect(index);
                self.findings.no_tests_ran = true;
            }
            Some(_) => self.end_tree(),
        }
    }

    fn finish(&mut self) -> Findings {
        self.end_run();
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        match &self.run.block {
            // Any line that is not a suite line or indented ends the tree.
            Some(block) if block.tree.is_some() => &Interest::ALL,
            Some(_) => &IN_BLOCK,
            None => &OUTSIDE_BLOCK,
        }
    }
}

impl Jest {
    fn detect(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// The verbose tree, all indented, has ended.
    fn end_tree(&mut self) {
        if let Some(block) = &mut self.run.block {
            block.tree = None;
        }
    }

    /// A `PASS`/`FAIL` line: a new block, and a new run if the last one
    /// has printed its summary.
    fn suite_starts(&mut self, failed: bool, file: &str) {
        if self.run.failed_suites.is_some() {
            self.end_run();
        }
        self.run.started = true;
        self.end_block();
        self.run.block = Some(Block {
            file: file.to_owned(),
            failed,
            headers: false,
            tree: Some(Vec::new()),
            crosses: Vec::new(),
        });
    }

    /// An indented line inside a `FAIL` block: a `●` header or a line of
    /// the verbose tree.
    fn block_line(&mut self, text: &str, index: u64) {
        let Some(block) = &mut self.run.block else {
            return;
        };
        if !block.failed {
            // A `PASS` block: only its verbose tree's passing and skipped
            // tests are of interest.
            if let Some(tree) = &mut block.tree {
                match tree_line(tree, text) {
                    Some((Mark::Passed, name)) => {
                        let file = Some(block.file.as_str());
                        self.findings.seen.note(index, &name, file, Outcome::Passed);
                    }
                    Some((Mark::Skipped, name)) => {
                        let file = Some(block.file.as_str());
                        self.findings
                            .seen
                            .note(index, &name, file, Outcome::Skipped);
                    }
                    Some((Mark::Failed, _)) | None => {}
                }
            }
            return;
        }
        if let Some(title) = failure_header(text) {
            block.tree = None;
            match &title {
                Header::Console => self.excerpts.end(),
                Header::SuiteFailedToRun => {
                    self.excerpts.open(&excerpt_key(&block.file, &block.file));
                }
                Header::Test(name) => self.excerpts.open(&excerpt_key(&block.file, name)),
            }
            match title {
                Header::Console => {}
                Header::SuiteFailedToRun => {
                    let file = Some(block.file.as_str());
                    self.run
                        .suites
                        .candidate(index, &block.file, file, Kind::File);
                }
                Header::Test(name) => {
                    block.headers = true;
                    block.crosses.clear();
                    let file = Some(block.file.as_str());
                    self.run.tests.candidate(index, name, file, Kind::Test);
                }
            }
            return;
        }
        if self.excerpts.is_open() {
            if !self.excerpts.has_message() {
                self.excerpts.message(text);
            }
            self.excerpts.push(text);
        }
        if block.headers {
            return;
        }
        if let Some(tree) = &mut block.tree {
            let file = Some(block.file.as_str());
            match tree_line(tree, text) {
                Some((Mark::Failed, name)) => block.crosses.push((index, name)),
                Some((Mark::Passed, name)) => {
                    self.findings.seen.note(index, &name, file, Outcome::Passed);
                }
                Some((Mark::Skipped, name)) => {
                    self.findings
                        .seen
                        .note(index, &name, file, Outcome::Skipped);
                }
                None => {}
            }
        }
    }

    /// Ends the `FAIL` block: its `✕` names stand only if no header named
    /// its failures (the log was cut between the tree and the headers).
    fn end_block(&mut self) {
        self.excerpts.end();
        if let Some(block) = self.run.block.take().filter(|block| block.failed) {
            let file = Some(block.file.as_str());
            for (index, name) in block.crosses {
                self.run.tests.candidate(index, &name, file, Kind::Test);
            }
        }
    }

    /// Ends the run: its summary confirms or drops the candidates.
    fn end_run(&mut self) {
        self.end_block();
        let run = std::mem::take(&mut self.run);
        if run.started && run.failed_suites.is_none() && !self.findings.no_tests_ran {
            self.findings.unclosed.get_or_insert_with(|| {
                "a jest run ended without its `Test Suites:` summary".to_owned()
            });
        }
        // A retried test that did not fail in the end passed on a retry:
        // flaky. jest names it by its titles joined by spaces; the tree and
        // the headers join them by ` › `.
        let spaced = |name: &str| name.replace(" › ", " ");
        for (index, retried) in &run.retried {
            let failed = run
                .tests
                .candidate_names()
                .any(|name| spaced(name) == *retried);
            if failed && run.failed_tests != Some(0) {
                continue;
            }
            let canonical = self
                .findings
                .seen
                .names()
                .find(|name| spaced(name) == *retried)
                .map_or_else(|| retried.clone(), str::to_owned);
            self.findings.flaky.push((*index, canonical));
        }
        // jest's summary counts failures and names none: a count of 0 says
        // the candidates were printed by tests; any other leaves them all.
        let judgement = |failed: Option<u64>| match failed {
            Some(0) => Judgement::Passed,
            Some(_) | None => Judgement::Unjudged,
        };
        let tests = run.tests.close(judgement(run.failed_tests));
        let suites = run.suites.close(judgement(run.failed_suites));
        for confirmed in tests.into_iter().chain(suites) {
            let file = confirmed.context.as_deref().unwrap_or_default();
            let (message, excerpt) = self.excerpts.take(&excerpt_key(file, &confirmed.name));
            let test = FailingTest::new(confirmed.name, Runner::Jest, confirmed.context)
                .with_kind(confirmed.kind)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        self.excerpts.clear();
    }
}

/// A jest suite line, `FAIL <file>` / `PASS <file>` (` FAIL  <file>` once
/// colours are stripped), with an optional ` (5.1 s)`: whether it failed,
/// and the file. A vitest header (` FAIL  file > test`, ` FAIL  file [ file ]`)
/// or go's `FAIL\tpkg` is not one.
fn suite_line(text: &str) -> Option<(bool, &str)> {
    let (failed, rest) = if let Some(rest) = text.strip_prefix("FAIL ") {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix("PASS ") {
        (false, rest)
    } else if let Some(rest) = text.strip_prefix(" FAIL  ") {
        (true, rest)
    } else if let Some(rest) = text.strip_prefix(" PASS  ") {
        (false, rest)
    } else {
        return None;
    };
    let file = strip_duration(rest);
    looks_like_test_file(file).then_some((failed, file))
}

/// A path whose last component has an extension, with no vitest marks.
fn looks_like_test_file(file: &str) -> bool {
    if file.is_empty() || file.starts_with(char::is_whitespace) || file.ends_with(']') {
        return false;
    }
    if file.contains(" > ") {
        return false;
    }
    super::js::has_file_extension(file)
}

/// `text` without a trailing jest duration: ` (12 ms)`, ` (5.123 s)`.
fn strip_duration(text: &str) -> &str {
    let Some(open) = text.strip_suffix(')').and_then(|t| t.rfind(" (")) else {
        return text;
    };
    let inner = &text[open + 2..text.len() - 1];
    let number = inner
        .strip_suffix(" ms")
        .or_else(|| inner.strip_suffix(" s"));
    match number {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
            &text[..open]
        }
        _ => text,
    }
}

/// What a `  ● ` line of a `FAIL` block announces.
#[derive(Debug, PartialEq, Eq)]
enum Header<'a> {
    /// `● Console`: the console output of the file's tests follows.
    Console,
    /// `● Test suite failed to run`: the file never ran its tests.
    SuiteFailedToRun,
    /// A failed test, named as jest names it.
    Test(&'a str),
}

/// A `●` header: exactly two spaces, `●`, a space, a title. Deeper `●`
/// lines are console output or failure messages, not headers.
fn failure_header(text: &str) -> Option<Header<'_>> {
    let title = text.strip_prefix("  ● ")?;
    if title.is_empty() || title.starts_with(' ') {
        return None;
    }
    Some(match title {
        "Console" => Header::Console,
        "Test suite failed to run" => Header::SuiteFailedToRun,
        name => Header::Test(name),
    })
}

/// What a `--verbose` tree's mark says of its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// `✓`
    Passed,
    /// `✕`
    Failed,
    /// `○` (skipped) or `✎` (todo)
    Skipped,
}

/// Reads one line of a `--verbose` tree into `stack` (the describe titles
/// with their indentation) and, for a test's line (`✓`, `✕`, `○`, `✎`),
/// gives its mark and full name: the enclosing describe titles and its
/// title joined by ` › `.
fn tree_line(stack: &mut Vec<(usize, String)>, text: &str) -> Option<(Mark, String)> {
    let body = text.trim_start_matches(' ');
    let indent = text.len() - body.len();
    if indent < 2 || body.is_empty() {
        return None;
    }
    while stack.last().is_some_and(|(depth, _)| *depth >= indent) {
        stack.pop();
    }
    let marked = [
        ("✕ ", Mark::Failed),
        ("✓ ", Mark::Passed),
        ("○ skipped ", Mark::Skipped),
        ("○ ", Mark::Skipped),
        ("✎ todo ", Mark::Skipped),
        ("✎ ", Mark::Skipped),
    ]
    .into_iter()
    .find_map(|(prefix, mark)| Some((mark, body.strip_prefix(prefix)?)));
    let Some((mark, title)) = marked else {
        if stack.len() < MAX_DEPTH {
            stack.push((indent, body.to_owned()));
        }
        return None;
    };
    let mut name = String::new();
    for (_, describe) in stack.iter() {
        name.push_str(describe);
        name.push_str(" › ");
    }
    name.push_str(strip_duration(title));
    Some((mark, name))
}

/// jest saying it ran nothing: `No tests found, exiting with code 1` (also
/// `code 0` under `--passWithNoTests`), `No tests found related to files
/// changed since last commit.`
fn says_no_tests(text: &str) -> bool {
    text.starts_with("No tests found, exiting with code ")
        || text.starts_with("No tests found related to files")
}

/// The lines read outside a suite's block: suite lines, the summary, `No
/// tests found`, and a retry's ` LOGGING RETRY ERRORS`.
static OUTSIDE_BLOCK: Interest = Interest::NONE.first(b"PFTN").indented(b"LFP");

/// The lines read in a block whose verbose tree has ended: as outside one,
/// and every indented line (a `●` header).
static IN_BLOCK: Interest = Interest::NONE.first(b"PFTN").indented_any();

/// How jest-junit's report is read: its root `jest tests`, a test named
/// in its file.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    roots: &["jest tests"],
    name: crate::junit_case::Case::in_classname_or_suite,
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        let mut jest = Jest::default();
        for (index, raw) in log.lines().enumerate() {
            jest.line(&Line::clean(raw.as_bytes(), index as u64));
        }
        jest.finish()
            .failing
            .into_iter()
            .map(|(_, t)| t.name)
            .collect()
    }

    #[test]
    fn suite_lines_plain_and_coloured() {
        assert_eq!(
            suite_line("FAIL src/a.test.js"),
            Some((true, "src/a.test.js"))
        );
        assert_eq!(
            suite_line(" PASS  src/a.test.ts (5.12 s)"),
            Some((false, "src/a.test.ts"))
        );
        assert_eq!(
            suite_line("FAIL dir with space/a b.test.js"),
            Some((true, "dir with space/a b.test.js"))
        );
    }

    #[test]
    fn suite_line_must_not_fire_on_other_runners() {
        // vitest headers, go, nextest, pytest, prose.
        assert_eq!(suite_line(" FAIL  a.test.js > suite > test"), None);
        assert_eq!(suite_line(" FAIL  a.test.js [ a.test.js ]"), None);
        assert_eq!(suite_line("FAIL\texample.com/m\t0.01s"), None);
        assert_eq!(suite_line("FAIL"), None);
        assert_eq!(suite_line("        FAIL [   0.004s] crate::bin test"), None);
        assert_eq!(
            suite_line("FAILED tests/test_a.py::test_x - assert 0"),
            None
        );
        assert_eq!(suite_line("FAIL because the network is down"), None);
        assert_eq!(suite_line("PASS "), None);
    }

    #[test]
    fn durations_are_stripped_once() {
        assert_eq!(strip_duration("takes (5 ms) (1 ms)"), "takes (5 ms)");
        assert_eq!(strip_duration("a.test.js (5.123 s)"), "a.test.js");
        assert_eq!(strip_duration("calls f(x)"), "calls f(x)");
        assert_eq!(strip_duration("costs (ms)"), "costs (ms)");
    }

    #[test]
    fn headers_at_exactly_two_spaces() {
        assert_eq!(failure_header("  ● a › b"), Some(Header::Test("a › b")));
        assert_eq!(failure_header("  ● Console"), Some(Header::Console));
        assert_eq!(
            failure_header("  ● Test suite failed to run"),
            Some(Header::SuiteFailedToRun)
        );
    }

    #[test]
    fn header_must_not_fire_on_console_output() {
        assert_eq!(failure_header("    ● fake › test"), None);
        assert_eq!(failure_header("● fake › test"), None);
        assert_eq!(failure_header("  ●  indented"), None);
        assert_eq!(failure_header("  ● "), None);
    }

    #[test]
    fn tree_rebuilds_names_from_indentation() {
        let mut stack = Vec::new();
        let lines = [
            "  ✕ top (2 ms)",
            "  parser",
            "    ○ skipped is skipped",
            "    numbers",
            "      ✕ adds (12 ms)",
            "      ✓ keeps zero (2 ms)",
            "    titles › odd",
            "      ✕ takes (5 ms) (1 ms)",
            "  ✕ after",
        ];
        let found: Vec<(Mark, String)> = lines
            .iter()
            .filter_map(|l| tree_line(&mut stack, l))
            .collect();
        let found: Vec<(Mark, &str)> = found.iter().map(|(m, n)| (*m, n.as_str())).collect();
        assert_eq!(
            found,
            [
                (Mark::Failed, "top"),
                (Mark::Skipped, "parser › is skipped"),
                (Mark::Failed, "parser › numbers › adds"),
                (Mark::Passed, "parser › numbers › keeps zero"),
                (Mark::Failed, "parser › titles › odd › takes (5 ms)"),
                (Mark::Failed, "after"),
            ]
        );
    }

    #[test]
    fn tree_must_not_fire_on_unindented_lines() {
        let mut stack = Vec::new();
        assert_eq!(tree_line(&mut stack, "✕ not indented"), None);
        assert_eq!(tree_line(&mut stack, "✓ not indented"), None);
        assert_eq!(
            tree_line(&mut stack, "  ✎ todo write it"),
            Some((Mark::Skipped, "write it".to_owned()))
        );
    }

    #[test]
    fn counts_from_the_tests_line() {
        let counts = super::super::js::tests_counts(
            "       10 failed, 1 skipped, 1 todo, 5 passed, 17 total",
            ',',
        );
        assert_eq!(
            (counts.passed, counts.failed, counts.skipped),
            (Some(5), Some(10), Some(2))
        );
        let counts = super::super::js::tests_counts("       2 passed, 2 total", ',');
        assert_eq!(
            (counts.passed, counts.failed, counts.skipped),
            (Some(2), Some(0), None)
        );
        assert_eq!(
            super::super::js::summary_count(" 99999999999999999999999 failed", ',', "failed"),
            None
        );
    }

    #[test]
    fn no_tests_only_from_jest_own_words() {
        assert!(says_no_tests("No tests found, exiting with code 1"));
        assert!(says_no_tests(
            "No tests found related to files changed since last commit."
        ));
        assert!(!says_no_tests("No tests found in this directory, maybe"));
    }

    #[test]
    fn headers_of_fail_blocks_only() {
        let log = "\
FAIL a.test.js
  ● Console

    console.log
      ● not a header

  ● d › fails

PASS b.test.js
  ● printed by a passing suite

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 3 passed, 4 total
";
        assert_eq!(names(log), ["d › fails"]);
    }

    #[test]
    fn a_summary_without_failures_drops_the_lies() {
        let log = "\
FAIL fake.test.js
  ● fake › written to stdout
  ✕ fake on stderr (3 ms)
PASS lies.test.js

Test Suites: 1 passed, 1 total
Tests:       2 passed, 2 total
";
        assert_eq!(names(log), Vec::<String>::new());
    }

    #[test]
    fn suite_failures_survive_a_summary_without_failed_tests() {
        let log = "\
FAIL after.test.js


  ● Test suite failed to run

    cleanup failed

Test Suites: 1 failed, 1 total
Tests:       1 passed, 1 total
";
        assert_eq!(names(log), ["after.test.js"]);
    }

    #[test]
    fn a_cut_log_keeps_the_verbose_crosses() {
        let log = "\
FAIL a.test.js
  outer
    ✕ fails (3 ms)
    ✓ passes (1 ms)
";
        assert_eq!(names(log), ["outer › fails"]);
    }

    #[test]
    fn several_runs_are_judged_apart() {
        let log = "\
FAIL a.test.js
  ● real

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 total
FAIL fake.test.js
  ● lie
PASS b.test.js

Test Suites: 1 passed, 1 total
Tests:       1 passed, 1 total
";
        assert_eq!(names(log), ["real"]);
    }

    /// A name is the test's identity (issue 36): the same title failing
    /// in two files is the same name twice, told apart by the context
    /// (the file), never a name that carries the file.
    #[test]
    fn a_title_two_files_fail_is_two_tests_by_context() {
        let log = "\
FAIL src/b.test.js
  ● adds

FAIL src/a.test.js
  ● adds

  ● only here

Test Suites: 2 failed, 2 total
Tests:       3 failed, 3 total
";
        assert_eq!(names(log), ["adds", "adds", "only here"]);
        let report = crate::parse(Runner::Jest, log);
        let contexts: Vec<Option<&str>> = report
            .failing
            .iter()
            .map(|t| t.context.as_deref())
            .collect();
        assert_eq!(
            contexts,
            [
                Some("src/b.test.js"),
                Some("src/a.test.js"),
                Some("src/a.test.js")
            ]
        );
        // The title failing in one file only is the same name.
        let log = "\
FAIL src/a.test.js
  ● adds

PASS src/b.test.js

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 1 passed, 2 total
";
        assert_eq!(names(log), ["adds"]);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_lines_that_almost_match(
            lines in proptest::collection::vec("(FAIL | FAIL  |PASS |  ● |  ✕ |    |Test Suites: |Tests: |No tests found, exiting with code )?[a-z|›>()\\[\\] .0-9msé⎯]{0,24}", 0..48)
        ) {
            names(&lines.join("\n"));
        }
    }
}
