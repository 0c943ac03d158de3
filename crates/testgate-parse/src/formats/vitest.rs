//! vitest's default and verbose reporters: the `Failed Tests` / `Failed
//! Suites` sections, verbose `×` lines and the closing summary.
//!
//! A vitest *run* opens with ` RUN  v4.1.12 <root>` and ends with its
//! summary (` Test Files  1 failed | 2 passed (3)`, `      Tests  1 failed |
//! 5 passed (6)`). Just before the summary, `⎯⎯ Failed Tests N ⎯⎯` and
//! `⎯⎯ Failed Suites N ⎯⎯` list every failure under a ` FAIL  <file> > a >
//! test` header: those headers are the candidates. Console output is
//! printed earlier, as tests run, so it cannot land inside the sections;
//! and a run whose summary names no failed test nor file drops every
//! candidate. Verbose `× <file> > a > test` lines count only in a log cut
//! before its summary.

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// Recognises vitest output.
#[derive(Debug, Default)]
pub(crate) struct Vitest {
    findings: Findings,
    run: Run,
    /// Each section header's lines, up to the next rule, by file and name.
    excerpts: Excerpts,
}

/// The key of a test's excerpt: vitest tells tests apart by file and name.
fn excerpt_key(file: &str, name: &str) -> String {
    format!("{file}\u{0}{name}")
}

/// One vitest invocation, from ` RUN ` to its summary.
#[derive(Debug, Default)]
struct Run {
    /// Inside a `Failed Tests` or `Failed Suites` section.
    in_section: bool,
    /// Inside a `Failed Suites` section: its headers name files and suites.
    in_suites: bool,
    /// Names from verbose `×` lines, by name and file: the candidates. The
    /// ` FAIL ` headers of the sections, with what each name stands for:
    /// vitest's list.
    failures: Scope,
    /// ` Test Files  N failed` of the summary (`Some(0)` when none failed).
    failed_files: Option<u64>,
    /// `Tests  N failed` of the summary, as above.
    failed_tests: Option<u64>,
    /// A ` RUN  v…` line opened the run.
    started: bool,
}

impl Recognizer for Vitest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text: &str = &line.text;
        let index = line.index;
        if self.excerpts.is_open() {
            if text.starts_with('⎯') || text.starts_with(" FAIL  ") {
                self.excerpts.end();
            } else {
                if !self.excerpts.has_message() {
                    self.excerpts.message(text);
                }
                self.excerpts.push(text);
            }
        }
        match text.as_bytes().first() {
            Some(b' ') => self.indented_line(text, index),
            Some(0xE2) => {
                // `⎯` (U+23AF) opens and closes sections.
                if let Some(section) = section_rule(text) {
                    self.detect(index);
                    self.run.in_section = section != Section::Other;
                    self.run.in_suites = section == Section::FailedSuites;
                }
            }
            Some(b'N') if says_no_tests(text) => {
                self.detect(index);
                self.findings.no_tests_ran = true;
            }
            _ => {}
        }
    }

    fn finish(&mut self) -> Findings {
        self.end_run();
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.excerpts.is_open() {
            &Interest::ALL
        } else {
            &VITEST_LINES
        }
    }
}

impl Vitest {
    fn detect(&mut self, index: u64) {
        self.findings.detected(index);
    }

    fn indented_line(&mut self, text: &str, index: u64) {
        if text.starts_with(" RUN  v") {
            self.detect(index);
            self.end_run();
            self.run.started = true;
            return;
        }
        if let Some(header) = text.strip_prefix(" FAIL  ") {
            if self.run.in_section
                && let Some((file, name)) = failure_header(header)
            {
                let kind = match (self.run.in_suites, name == file) {
                    (_, true) => Kind::File,
                    (true, false) => Kind::Suite,
                    (false, false) => Kind::Test,
                };
                self.run.failures.list(index, name, Some(file), kind);
                self.excerpts.open(&excerpt_key(file, name));
            }
            return;
        }
        let body = text.trim_start_matches(' ');
        if let Some(rest) = body.strip_prefix("Test Files  ") {
            self.detect(index);
            // The summary does not close the failures section: vitest
            // writes the section to stderr and the summary to stdout, and
            // merged, the summary can land in the middle of the section
            // (seen in the e2e tests under load). The section's own closing
            // rule closes it.
            self.run.failed_files =
                Some(super::js::summary_count(rest, '|', "failed").unwrap_or(0));
        } else if let Some(rest) = body.strip_prefix("Tests  ") {
            // Only after ` Test Files `: `Tests` alone is too common.
            if self.run.failed_files.is_some() && self.run.failed_tests.is_none() {
                let counts = super::js::tests_counts(rest, '|');
                self.run.failed_tests = Some(counts.failed.unwrap_or(0));
                self.findings.counts.add(counts);
            }
        } else if !self.run.in_section {
            match verbose_result(body) {
                Some((Outcome::Failed, file, name)) => {
                    self.run
                        .failures
                        .candidate(index, name, Some(file), Kind::Test);
                }
                Some((Outcome::Flaky, file, name)) => {
                    self.findings.flaky.push((index, name.to_owned()));
                    self.findings
                        .seen
                        .note(index, name, Some(file), Outcome::Passed);
                }
                Some((outcome, file, name)) => {
                    self.findings.seen.note(index, name, Some(file), outcome);
                }
                None => {}
            }
        }
    }

    /// Ends the run: its summary confirms or drops the candidates.
    fn end_run(&mut self) {
        let run = std::mem::take(&mut self.run);
        // `No test files found, exiting with code N` is vitest's own end.
        if run.started && run.failed_files.is_none() && !self.findings.no_tests_ran {
            self.findings.unclosed.get_or_insert_with(|| {
                "a vitest run ended without its `Test Files` summary".to_owned()
            });
        }
        // The sections list every failure just before the summary: a
        // summarised run is judged by them, or, when it says nothing
        // failed, drops everything.
        let judgement = match (run.failed_files, run.failed_tests.unwrap_or(0)) {
            (Some(0), 0) => Judgement::Passed,
            (Some(_), _) => Judgement::Listed,
            (None, _) => Judgement::Unjudged,
        };
        let failures = run.failures.close(judgement);
        for confirmed in failures {
            let file = confirmed.context.as_deref().unwrap_or_default();
            let (message, excerpt) = self.excerpts.take(&excerpt_key(file, &confirmed.name));
            let test = FailingTest::new(confirmed.name, Runner::Vitest, confirmed.context)
                .with_kind(confirmed.kind)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        self.excerpts.clear();
    }
}

/// What a `⎯⎯ … ⎯⎯` rule announces.
#[derive(Debug, PartialEq, Eq)]
enum Section {
    /// `Failed Tests N`: failed tests' headers follow.
    FailedTests,
    /// `Failed Suites N`: headers of files that did not load and suites
    /// whose hooks failed follow.
    FailedSuites,
    /// Any other titled rule (`Unhandled Errors`): no test names follow.
    Other,
}

/// A section rule: `⎯⎯⎯ Failed Tests 2 ⎯⎯⎯`. The untitled rules that
/// separate the failures (`⎯⎯⎯[1/9]⎯`) are not section rules.
fn section_rule(text: &str) -> Option<Section> {
    let title = text.trim_matches('⎯');
    if title.len() == text.len() || !title.starts_with(' ') || !title.ends_with(' ') {
        return None;
    }
    let title = title.trim();
    let counted = |prefix: &str| {
        title
            .strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    Some(if counted("Failed Tests ") {
        Section::FailedTests
    } else if counted("Failed Suites ") {
        Section::FailedSuites
    } else {
        Section::Other
    })
}

/// A ` FAIL  ` header's file and name, the ` FAIL  ` cut off: `file > a >
/// test` names `a > test`, a file that failed to load, `file [ file ]`, is
/// named by the file. A `|project| ` prefix (workspaces, browser mode) is
/// not part of either.
fn failure_header(header: &str) -> Option<(&str, &str)> {
    let header = strip_project(header);
    if let Some((file, name)) = header.split_once(" > ") {
        return (!file.is_empty() && !name.is_empty()).then_some((file, name));
    }
    let (file, bracketed) = header.split_once(" [ ")?;
    (bracketed.strip_suffix(" ]") == Some(file)).then_some((file, file))
}

/// `text` without a leading `|project| `.
fn strip_project(text: &str) -> &str {
    text.strip_prefix('|')
        .and_then(|rest| rest.split_once("| "))
        .map_or(text, |(_, rest)| rest)
}

/// A verbose reporter's test line, `× file > a > test 13ms` (leading
/// spaces cut; `✓` passed, `↓` skipped, `□` todo): its outcome, file and name. The
/// file must look like one, so that the default reporter's title-only `×
/// test 3ms` lines are not taken.
fn verbose_result(body: &str) -> Option<(Outcome, &str, &str)> {
    let (outcome, rest) = [
        ("× ", Outcome::Failed),
        ("✗ ", Outcome::Failed),
        ("✓ ", Outcome::Passed),
        ("↓ ", Outcome::Skipped),
        ("□ ", Outcome::Skipped),
    ]
    .into_iter()
    .find_map(|(mark, outcome)| Some((outcome, body.strip_prefix(mark)?)))?;
    let (file, name) = strip_project(rest).split_once(" > ")?;
    if !super::js::has_file_extension(file) {
        return None;
    }
    // `✓ file > test 4ms (retry x1)`: vitest's `--retry` passed it on a
    // retry, so it failed first: flaky.
    let (name, retried) = match strip_retry(name) {
        Some(name) => (name, true),
        None => (name, false),
    };
    let name = strip_duration(name);
    let outcome = if retried && outcome == Outcome::Passed {
        Outcome::Flaky
    } else {
        outcome
    };
    (!name.is_empty()).then_some((outcome, file, name))
}

/// `name` without vitest's ` (retry xN)` suffix, if it has one.
fn strip_retry(name: &str) -> Option<&str> {
    let (head, count) = name.strip_suffix(')')?.rsplit_once(" (retry x")?;
    (!count.is_empty() && count.bytes().all(|b| b.is_ascii_digit())).then_some(head)
}

/// `text` without vitest's trailing duration: ` 13ms`, ` 1.2s`.
fn strip_duration(text: &str) -> &str {
    let Some((head, last)) = text.rsplit_once(' ') else {
        return text;
    };
    let number = last.strip_suffix("ms").or_else(|| last.strip_suffix('s'));
    match number {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.') => head,
        _ => text,
    }
}

/// vitest saying it ran nothing: `No test files found, exiting with code 1`
/// (`code 0` under `--passWithNoTests`).
fn says_no_tests(text: &str) -> bool {
    text.starts_with("No test files found, exiting with code ")
}

/// The lines read: section rules (`⎯`), `No test files found`, and
/// indented ` RUN `, ` FAIL ` headers, the summary and verbose results
/// (marked `×`, `✓`, … : non-ASCII).
static VITEST_LINES: Interest = Interest::NONE
    .first(&[0xE2, b'N'])
    .indented(b"RFT")
    .indented_range(0x80, u8::MAX);

/// How vitest's JUnit report (`--reporter=junit`) is read: its root
/// `vitest tests`, a test named in its file.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    roots: &["vitest tests"],
    name: crate::junit_case::Case::in_classname_or_suite,
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
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

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        let mut vitest = Vitest::default();
        for (index, raw) in log.lines().enumerate() {
            vitest.line(&Line::clean(raw.as_bytes(), index as u64));
        }
        vitest
            .finish()
            .failing
            .into_iter()
            .map(|(_, t)| t.name)
            .collect()
    }

    #[test]
    fn the_summary_landing_inside_the_failures_section_closes_nothing() {
        // stdout (the summary) and stderr (the failure section) merged in
        // another order than vitest wrote them, as the e2e tests saw under
        // load: the names after the summary still count.
        let real = include_str!("../../tests/fixtures/vitest/failing-no-color.log");
        let lines: Vec<&str> = real.lines().collect();
        let summary: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with(" Test Files ") || l.starts_with("      Tests "))
            .collect();
        assert_eq!(summary.len(), 2, "the fixture has its summary");
        let cut = lines
            .iter()
            .position(|l| l.starts_with(" FAIL  nested.test.js > parser > numbers"))
            .expect("the fixture has this failure");
        let mut moved: Vec<&str> = lines[..cut]
            .iter()
            .copied()
            .filter(|l| !summary.contains(l))
            .collect();
        moved.extend(&summary);
        moved.extend(
            lines[cut..]
                .iter()
                .copied()
                .filter(|l| !summary.contains(l)),
        );
        let moved = moved.join("\n");
        assert_eq!(names(&moved), names(real));
        assert_eq!(names(real).len(), 9);
    }

    #[test]
    fn headers_name_tests_suites_and_files() {
        assert_eq!(
            failure_header("a.test.js > d > t"),
            Some(("a.test.js", "d > t"))
        );
        assert_eq!(
            failure_header("a.test.js > d > with > inside"),
            Some(("a.test.js", "d > with > inside"))
        );
        assert_eq!(
            failure_header("|chromium| a.test.js > t"),
            Some(("a.test.js", "t"))
        );
        assert_eq!(
            failure_header("a.test.js [ a.test.js ]"),
            Some(("a.test.js", "a.test.js"))
        );
    }

    #[test]
    fn header_must_not_fire_on_a_jest_suite_line() {
        // jest's coloured ` FAIL  file` has neither ` > ` nor `[ file ]`.
        assert_eq!(failure_header("src/a.test.js"), None);
        assert_eq!(failure_header("src/a.test.js (5.1 s)"), None);
        assert_eq!(failure_header("a.test.js [ b.test.js ]"), None);
    }

    #[test]
    fn section_rules() {
        assert_eq!(
            section_rule("⎯⎯⎯⎯⎯⎯⎯ Failed Tests 8 ⎯⎯⎯⎯⎯⎯⎯"),
            Some(Section::FailedTests)
        );
        assert_eq!(
            section_rule("⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯"),
            Some(Section::FailedSuites)
        );
        assert_eq!(
            section_rule("⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯"),
            Some(Section::Other)
        );
    }

    #[test]
    fn section_rule_must_not_fire_on_separators() {
        assert_eq!(section_rule("⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/9]⎯"), None);
        assert_eq!(section_rule("⎯⎯⎯⎯⎯⎯⎯⎯"), None);
        assert_eq!(section_rule("⎯ Failed Tests ⎯"), Some(Section::Other));
    }

    #[test]
    fn verbose_results_need_a_file() {
        assert_eq!(
            verbose_result("× nested.test.js > parser > takes 5ms 1ms"),
            Some((Outcome::Failed, "nested.test.js", "parser > takes 5ms"))
        );
        assert_eq!(
            verbose_result("× a.test.ts > top 7ms"),
            Some((Outcome::Failed, "a.test.ts", "top"))
        );
        assert_eq!(
            verbose_result("✓ a.test.js > passes 1ms"),
            Some((Outcome::Passed, "a.test.js", "passes"))
        );
        assert_eq!(
            verbose_result("↓ nested.test.js > parser > is skipped"),
            Some((Outcome::Skipped, "nested.test.js", "parser > is skipped"))
        );
    }

    #[test]
    fn a_retried_pass_is_flaky() {
        assert_eq!(
            verbose_result("✓ retry.test.js > fails once 4ms (retry x1)"),
            Some((Outcome::Flaky, "retry.test.js", "fails once"))
        );
        assert_eq!(
            verbose_result("× retry.test.js > always 4ms (retry x2)"),
            Some((Outcome::Failed, "retry.test.js", "always"))
        );
        // A title that only looks like it keeps its words.
        assert_eq!(strip_retry("named (retry xyz)"), None);
    }

    #[test]
    fn verbose_result_must_not_fire_on_default_reporter_lines() {
        assert_eq!(verbose_result("× adds two numbers 28ms"), None);
        assert_eq!(verbose_result("× fake > console 3ms"), None);
        assert_eq!(verbose_result("✓ passes 1ms"), None);
    }

    #[test]
    fn durations() {
        assert_eq!(strip_duration("takes 5ms 1ms"), "takes 5ms");
        assert_eq!(strip_duration("slow 1.20s"), "slow");
        assert_eq!(strip_duration("is skipped"), "is skipped");
        assert_eq!(strip_duration("ends in ms"), "ends in ms");
    }

    #[test]
    fn counts_from_the_summary() {
        let counts =
            super::super::js::tests_counts("8 failed | 5 passed | 3 skipped | 1 todo (17)", '|');
        assert_eq!(
            (counts.passed, counts.failed, counts.skipped),
            (Some(5), Some(8), Some(4))
        );
        assert_eq!(
            super::super::js::summary_count("4 failed | 1 passed (5)", '|', "failed"),
            Some(4)
        );
        assert_eq!(
            super::super::js::summary_count("1 passed (1)", '|', "failed"),
            None
        );
        assert_eq!(
            super::super::js::summary_count("99999999999999999999999 failed (1)", '|', "failed"),
            None
        );
    }

    #[test]
    fn no_tests_only_from_vitest_own_words() {
        assert!(says_no_tests("No test files found, exiting with code 1"));
        assert!(!says_no_tests("No tests found, exiting with code 1"));
    }

    #[test]
    fn headers_count_only_inside_failure_sections() {
        let log = "
 RUN  v4.1.12 /p

stdout | a.test.js > logs
 FAIL  fake.test.js > printed > by console.log
 ❯ a.test.js (2 tests | 1 failed) 5ms
   × fails 3ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  a.test.js > d > fails
AssertionError: expected 1 to be 2

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
";
        assert_eq!(names(log), ["d > fails"]);
    }

    #[test]
    fn a_summary_without_failures_drops_the_lies() {
        let log = "
 RUN  v4.1.12 /p
⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  lies/fake.test.js > fake > written to stdout
 ✓ lies.test.js (2 tests) 49ms

 Test Files  1 passed (1)
      Tests  2 passed (2)
";
        assert_eq!(names(log), Vec::<String>::new());
    }

    #[test]
    fn a_cut_log_keeps_the_verbose_crosses() {
        let log = "
 RUN  v4.1.12 /p
 × a.test.js > outer > fails 13ms
   → expected 2 to be 3
 ✓ a.test.js > outer > passes 1ms
";
        assert_eq!(names(log), ["outer > fails"]);
    }

    #[test]
    fn jest_then_vitest_in_one_log() {
        // Each runner keeps to its own lines: jest's coloured ` FAIL  file`
        // is no vitest header, vitest's ` FAIL  file > test` no jest suite.
        let log = "
 FAIL  web/a.test.js
  ● form › submits

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total

 RUN  v4.1.12 /repo/api

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  b.test.ts > api > answers
AssertionError: expected 500 to be 200

 Test Files  1 failed (1)
      Tests  1 failed | 3 passed (4)
";
        let report = crate::parse(crate::Format::Auto, log);
        assert_eq!(report.format, Some(Runner::Jest));
        let found: Vec<(&str, Runner)> = report
            .failing
            .iter()
            .map(|t| (t.name.as_str(), t.format))
            .collect();
        assert_eq!(
            found,
            [
                ("form › submits", Runner::Jest),
                ("api > answers", Runner::Vitest)
            ]
        );
        assert_eq!(report.counts.failed, Some(2));
        assert_eq!(report.counts.passed, Some(4));
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_lines_that_almost_match(
            lines in proptest::collection::vec("( RUN  v| FAIL  | × | ✗ |⎯⎯ Failed Tests 1 ⎯⎯|⎯⎯ Failed Suites 2 ⎯⎯| Test Files  |      Tests  |No test files found, exiting with code )?[a-z|›>()\\[\\] .0-9msé⎯]{0,24}", 0..48)
        ) {
            names(&lines.join("\n"));
        }
    }
}
