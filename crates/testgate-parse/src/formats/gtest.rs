//! GoogleTest's console: a test binary run directly (default,
//! `--gtest_brief=1`, `--gtest_repeat=N`, sharded by `GTEST_TOTAL_SHARDS`).
//!
//! A run opens with `[==========] Running N tests from M test suites.`,
//! prints `[ RUN      ] Suite.Test` before each test and `[       OK ]`,
//! `[  FAILED  ]` or `[  SKIPPED ]` with the test's name and time after it,
//! and closes with `[==========] N tests from M test suites ran.`, `[
//! PASSED  ] P tests.` and, when a test failed, `[  FAILED  ] F tests,
//! listed below:` with one `[  FAILED  ] Suite.Test` line each: the
//! runner's own result on the run. `--gtest_brief=1` prints only the
//! failures' results and the closing, without the list; `--gtest_repeat=N`
//! prints the whole run N times, each after `Repeating all tests
//! (iteration N) . . .`.
//!
//! A name is GoogleTest's `Suite.Test`, with a parameterised test's prefix
//! and index (`Small/Sq.Positive/0`, `My/Wide/1.AtLeastTwo`) and without
//! the `, where GetParam() = …` / `, where TypeParam = …` the console
//! appends. A test's own output lands among these lines, so:
//!
//! - while a test runs (its `RUN` without a result yet), only its own
//!   result counts: a line naming another test, a `RUN`, a closing or a
//!   list is the test's print;
//! - a result for the test that just ended, before the next `RUN`,
//!   replaces its result (a failing test that printed a forged `OK` for
//!   itself is still failed by its real `FAILED` that follows);
//! - the names are those of the list after the run's last closing, each
//!   only where the run gave it a failed result; a closing followed by
//!   more results was a test's print;
//! - a closing counts only where it sums up the run's results (as many
//!   tests as results, as many passed as `OK`s, as many listed as failed):
//!   otherwise, or where the log stops before one (an abort, a segfault, a
//!   kill), the run is unclosed: its failed results stand, and the test
//!   that was running is named as crashed;
//! - under `--gtest_brief=1` (no `RUN` line in the run) a failed result is
//!   a candidate: the console cannot tell a test's print from it there, so
//!   only the closing that sums it up confirms it; a closing whose counts
//!   it breaks, or none (a crash, a kill, a test that exited), leaves the
//!   run unclosed and names none of them (the XML report, which testgate
//!   asks through `GTEST_OUTPUT`, judges under `check`);
//! - a test that failed in one run and passed in another of the same log
//!   (`--gtest_repeat`) is flaky;
//! - between ctest's `Test project` line and its `Total Test time`,
//!   GoogleTest's lines are a ctest test's output (`--output-on-failure`):
//!   ctest's recogniser names those tests, by ctest's names.

use std::collections::HashSet;

use foldhash::fast::RandomState;
use indexmap::IndexMap;

use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Outcome};
use crate::runner::Runner;

/// The most candidates, listed names or remembered names kept in one log.
const MAX_PENDING: usize = 1 << 16;

/// The message of a test the log stops in.
const CRASHED: &str = "crashed: the test binary stopped while it ran (no result)";

/// Recognises GoogleTest's console.
#[derive(Debug, Default)]
pub(crate) struct Gtest {
    findings: Findings,
    run: Run,
    /// Failed tests' output, between their `RUN` and result.
    excerpts: Excerpts,
    /// Across the log's runs: the failures each run confirmed, by name,
    /// with the line that first confirmed it and its message and excerpt.
    failed: IndexMap<String, (u64, Option<String>, Option<String>), RandomState>,
    /// Across the log's runs: the names that passed in some run.
    passed: HashSet<String, RandomState>,
    /// A `Test project` line was read and not yet ctest's closing `Total
    /// Test time`: what lies between is ctest's run, whose recogniser
    /// names its tests.
    under_ctest: bool,
    /// A run planned no test (`Running 0 tests`); one planned some.
    planned_none: bool,
    planned_some: bool,
}

/// One `Running N tests` run.
#[derive(Debug, Default)]
struct Run {
    open: bool,
    /// The test that runs now: its name and `RUN` line.
    running: Option<(String, u64)>,
    /// The test that ended last, while no other runs: a result for it
    /// replaces its own.
    ended: Option<String>,
    /// The tests the `Running N tests` line planned.
    planned: Option<u64>,
    /// Whether a `RUN` line was read (not under `--gtest_brief`).
    saw_run: bool,
    /// Results read: `OK`, `SKIPPED`, `FAILED`.
    results: u64,
    oks: u64,
    skips: u64,
    /// Failed results standing, by name: the line and GoogleTest's
    /// `where` words, if any.
    candidates: IndexMap<String, u64, RandomState>,
    /// Names with an `OK` standing in this run.
    passed: Vec<String>,
    /// The last closing, until results after it show it was a print.
    closing: Option<Closing>,
}

/// `[==========] N tests from M test suites ran.` and what followed it.
#[derive(Debug, Default)]
struct Closing {
    total: u64,
    passed: Option<u64>,
    /// `[  SKIPPED ] S tests`'s S.
    skipped: Option<u64>,
    /// `[  FAILED  ] F tests, listed below:`'s F.
    failed: Option<u64>,
    /// The FAILED list's names, with their lines.
    listed: Vec<(u64, String)>,
    in_list: bool,
}

impl Run {
    /// Whether `closing` sums up this run's results.
    fn sums_up(&self, closing: &Closing) -> bool {
        let failed = self.candidates.len() as u64;
        let counted = if self.saw_run {
            closing.total == self.results
                && closing.passed == Some(self.oks)
                && self.oks + self.skips + failed == self.results
        } else {
            // `--gtest_brief` prints the failures' results alone.
            closing.total == closing.passed.unwrap_or(0) + closing.skipped.unwrap_or(0) + failed
        };
        let listed = match closing.failed {
            Some(said) => said == failed && closing.listed.len() as u64 == said,
            // `--gtest_brief` lists nothing; a full run lists every failure.
            None => failed == 0 || !self.saw_run,
        };
        let planned = self.planned.is_none_or(|planned| planned == closing.total);
        counted && listed && planned
    }
}

/// A line's tag and what follows it: `[ RUN      ] Calc.Adds` gives
/// (`RUN`, `Calc.Adds`).
fn tagged(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('[')?;
    let tag = rest.get(..10)?;
    let after = rest.get(10..)?.strip_prefix("] ")?;
    Some((tag.trim(), after))
}

/// A result's name and time: `Small/Sq.Positive/0, where GetParam() = 1
/// (0 ms)` gives `Small/Sq.Positive/0`. `None` without the time (a list's
/// line) or where the name cannot be GoogleTest's.
fn result(rest: &str) -> Option<&str> {
    let rest = rest.trim_end().strip_suffix(" ms)")?;
    let (rest, ms) = rest.rsplit_once(" (")?;
    if ms.is_empty() || !ms.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    test_name(rest)
}

/// A test's name without the `, where …` GoogleTest appends to a
/// parameterised test's: `None` where it cannot be a name (empty, no
/// `.`, a space in it).
fn test_name(text: &str) -> Option<&str> {
    let name = match super::find(text, ", where ") {
        Some(at) => text.get(..at)?,
        None => text.trim_end(),
    };
    (!name.is_empty() && name.contains('.') && !name.contains(char::is_whitespace)).then_some(name)
}

/// `N tests` / `1 test` at the start of `text`, and what follows.
fn count(text: &str) -> Option<(u64, &str)> {
    let (number, rest) = text.split_once(' ')?;
    let number: u64 = number.parse().ok()?;
    let rest = rest
        .strip_prefix("tests")
        .or_else(|| rest.strip_prefix("test"))?;
    Some((number, rest))
}

impl Gtest {
    /// Ends the run: its confirmed failures, or where it never closed its
    /// failed results and the test it stopped in.
    fn close(&mut self) {
        let run = std::mem::take(&mut self.run);
        if !run.open {
            self.excerpts.clear();
            return;
        }
        let closing = run.closing.as_ref().filter(|c| run.sums_up(c));
        let mut failing: Vec<(u64, String, Option<String>)> = Vec::new();
        if let Some(closing) = closing {
            self.findings.counts.add(Counts {
                passed: Some(run.oks),
                failed: Some(run.candidates.len() as u64),
                skipped: Some(run.skips),
            });
            if run.saw_run {
                // Each listed name must have had its failed result.
                for (_, name) in &closing.listed {
                    if let Some(&at) = run.candidates.get(name.as_str()) {
                        failing.push((at, name.clone(), None));
                    }
                }
            } else {
                failing.extend(run.candidates.iter().map(|(n, &at)| (at, n.clone(), None)));
            }
        } else {
            self.findings.unclosed.get_or_insert_with(|| {
                if run.closing.is_some() {
                    "a GoogleTest closing that does not sum up the run's results".to_owned()
                } else {
                    "a GoogleTest run without its `[==========] … ran.` closing".to_owned()
                }
            });
            // Under `--gtest_brief` a failed result is no more than a line
            // a test may have printed until a closing sums it up.
            if run.saw_run {
                failing.extend(run.candidates.iter().map(|(n, &at)| (at, n.clone(), None)));
            }
            if let Some((name, at)) = &run.running {
                self.findings.running.push((*at, name.clone()));
                self.findings.seen.note(*at, name, None, Outcome::Failed);
                failing.push((*at, name.clone(), Some(CRASHED.to_owned())));
            }
        }
        failing.sort_unstable();
        for (at, name, message) in failing {
            let (said, excerpt) = self.excerpts.take(&name);
            if !self.failed.contains_key(name.as_str()) && self.failed.len() < MAX_PENDING {
                self.failed.insert(name, (at, message.or(said), excerpt));
            }
        }
        for name in run.passed {
            if self.passed.len() < MAX_PENDING {
                self.passed.insert(name);
            }
        }
        self.excerpts.clear();
    }

    /// A result line of `outcome` for `name`: counted where it is the
    /// running test's, or replaces the result of the test that just ended.
    fn result(&mut self, index: u64, text: &str, name: &str, outcome: Outcome) {
        let own = match &self.run.running {
            Some((running, _)) => running == name,
            None => false,
        };
        let replaces = self.run.running.is_none() && self.run.ended.as_deref() == Some(name);
        // Under `--gtest_brief` a failure is printed with no `RUN`, and
        // the run with no `Running` line.
        if !self.run.open && outcome == Outcome::Failed {
            self.run.open = true;
        }
        let brief = self.run.running.is_none()
            && !self.run.saw_run
            && self.run.open
            && outcome == Outcome::Failed;
        if !(own || replaces || brief) {
            if self.excerpts.is_open() {
                self.excerpts.push(text);
            }
            return;
        }
        self.findings.detected(index);
        // Results after a closing: the closing was a test's print.
        self.run.closing = None;
        if replaces {
            self.forget_result(name);
        } else {
            self.run.results += 1;
        }
        self.run.running = None;
        self.run.ended = Some(name.to_owned());
        match outcome {
            Outcome::Failed => {
                if self.run.candidates.len() < MAX_PENDING {
                    self.run.candidates.insert(name.to_owned(), index);
                }
                self.excerpts.end();
            }
            Outcome::Skipped => {
                self.run.skips += 1;
                self.excerpts.discard(name);
            }
            Outcome::Passed
            | Outcome::Error
            | Outcome::XFailed
            | Outcome::XPassed
            | Outcome::Flaky
            | Outcome::Running => {
                self.run.oks += 1;
                if self.run.passed.len() < MAX_PENDING {
                    self.run.passed.push(name.to_owned());
                }
                self.excerpts.discard(name);
            }
        }
        self.findings.seen.note(index, name, None, outcome);
    }

    /// Takes back the result `name` had (a later one replaces it).
    fn forget_result(&mut self, name: &str) {
        if self.run.candidates.swap_remove(name).is_some() {
            return;
        }
        if let Some(at) = self.run.passed.iter().rposition(|n| n == name) {
            self.run.passed.swap_remove(at);
            self.run.oks = self.run.oks.saturating_sub(1);
            return;
        }
        self.run.skips = self.run.skips.saturating_sub(1);
    }

    fn run_line(&mut self, index: u64, text: &str, name: &str) {
        if self.run.running.is_some() || !self.run.open {
            if self.excerpts.is_open() {
                self.excerpts.push(text);
            }
            return;
        }
        let Some(name) = test_name(name) else {
            return;
        };
        self.findings.detected(index);
        self.run.closing = None;
        self.run.saw_run = true;
        self.run.ended = None;
        self.run.running = Some((name.to_owned(), index));
        self.excerpts.open(name);
    }

    /// A `[==========]` line: a run's start or its closing.
    fn rule(&mut self, index: u64, text: &str, rest: &str) {
        if let Some(tests) = rest.strip_prefix("Running ") {
            // A run's start while a test runs: the binary it ran in died
            // and another started (or the test printed it, which names
            // the test as crashed: no pass).
            if let Some((planned, after)) = count(tests)
                && after.starts_with(" from ")
            {
                self.close();
                self.findings.detected(index);
                self.planned_none |= planned == 0;
                self.planned_some |= planned > 0;
                self.run.planned = Some(planned);
                self.run.open = true;
            }
            return;
        }
        if self.run.running.is_some() {
            self.excerpts.push(text);
            return;
        }
        if let Some((total, after)) = count(rest)
            && after.starts_with(" from ")
            && super::find(after, " ran.").is_some()
        {
            self.findings.detected(index);
            // `--gtest_brief` prints no `Running` line.
            self.run.open = true;
            self.run.closing = Some(Closing {
                total,
                ..Closing::default()
            });
        }
    }
}

impl Gtest {
    /// Whether `text` is ctest's to name: from ctest's `Test project` line
    /// on, ctest runs the binaries and names their tests by its own results
    /// (`gtest_discover_tests` names a value-parameterised test by its
    /// value, not its index), up to its last line.
    fn ctests(&mut self, text: &str) -> bool {
        if text
            .strip_prefix("Test project ")
            .is_some_and(|dir| !dir.is_empty())
        {
            self.close();
            self.under_ctest = true;
        }
        if self.under_ctest {
            // ctest's last line: what follows is no longer its run's.
            self.under_ctest = !text.starts_with("Total Test time (real) =");
            return true;
        }
        false
    }

    /// A `[  FAILED  ]` line: a test's result, the closing's count of
    /// failed tests that opens its list, an entry of that list (`in_list`:
    /// the line before was the count or an entry), else a test's output.
    fn failed_line(&mut self, index: u64, text: &str, rest: &str, in_list: bool) {
        if let Some(name) = result(rest) {
            self.result(index, text, name, Outcome::Failed);
        } else if let Some(closing) = &mut self.run.closing {
            if let Some((said, after)) = count(rest)
                && after == ", listed below:"
            {
                closing.failed = Some(said);
                closing.listed.clear();
                closing.in_list = true;
            } else if in_list && let Some(name) = test_name(rest) {
                if closing.listed.len() < MAX_PENDING {
                    closing.listed.push((index, name.to_owned()));
                }
                closing.in_list = true;
            }
        } else if self.excerpts.is_open() {
            self.excerpts.push(text);
        }
    }
}

impl Recognizer for Gtest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let index = line.index;
        if self.ctests(text) {
            return;
        }
        let Some((tag, rest)) = tagged(text) else {
            if let Some(closing) = &mut self.run.closing {
                closing.in_list = false;
            }
            if self.excerpts.is_open() && !text.is_empty() {
                self.excerpts.push(text);
            }
            return;
        };
        let in_list = self.run.closing.as_ref().is_some_and(|c| c.in_list);
        if let Some(closing) = &mut self.run.closing {
            closing.in_list = false;
        }
        match tag {
            "RUN" => self.run_line(index, text, rest),
            "OK" => {
                if let Some(name) = result(rest) {
                    self.result(index, text, name, Outcome::Passed);
                }
            }
            "SKIPPED" => {
                if let Some(name) = result(rest) {
                    self.result(index, text, name, Outcome::Skipped);
                } else if let Some(closing) = &mut self.run.closing
                    && let Some((said, _)) = count(rest)
                {
                    closing.skipped = Some(said);
                }
            }
            "FAILED" => self.failed_line(index, text, rest, in_list),
            "PASSED" => {
                if let Some(closing) = &mut self.run.closing
                    && let Some((passed, ".")) = count(rest.trim_end())
                {
                    self.findings.detected(index);
                    closing.passed = Some(passed);
                } else if self.excerpts.is_open() {
                    self.excerpts.push(text);
                }
            }
            "DISABLED" => {
                if self.run.running.is_none()
                    && self.run.open
                    && let Some(name) = test_name(rest)
                {
                    self.findings.seen.note(index, name, None, Outcome::Skipped);
                } else if self.excerpts.is_open() {
                    self.excerpts.push(text);
                }
            }
            "==========" => self.rule(index, text, rest),
            _ => {
                if self.excerpts.is_open() {
                    self.excerpts.push(text);
                }
            }
        }
    }

    fn finish(&mut self) -> Findings {
        self.close();
        self.findings.no_tests_ran = self.planned_none && !self.planned_some;
        let failed = std::mem::take(&mut self.failed);
        for (name, (at, message, excerpt)) in failed {
            if self.passed.contains(name.as_str()) {
                self.findings.flaky.push((at, name.clone()));
                self.findings.seen.note(at, &name, None, Outcome::Flaky);
                continue;
            }
            self.findings.seen.note(at, &name, None, Outcome::Failed);
            let test = FailingTest::new(name, Runner::Gtest, None).with_output(message, excerpt);
            self.findings.fail(at, test);
        }
        self.findings.flaky.sort_unstable();
        std::mem::take(&mut self.findings)
    }

    /// Every line: a test's output between its `RUN` and result is its
    /// excerpt.
    fn interest(&self) -> &'static Interest {
        &Interest::ALL
    }
}

/// How GoogleTest's `GTEST_OUTPUT=xml:` report is read: its root
/// `AllTests`; `Suite.Test`, the suite with its prefix (`Small/Sq`), the
/// test with its index (`Positive/0`); a disabled test is written
/// `status="notrun"` with no child; several binaries' files joined
/// (`xml:DIR/`), one of which a test may have written: a name that failed
/// in any of them failed.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    roots: &["AllTests"],
    name: |case| (format!("{}.{}", case.classname, case.name), None),
    outcome: |case| (case.ctest_status == "notrun").then_some(Outcome::Skipped),
    failed_first: true,
    ..crate::junit_case::Junit::COMMON
};

#[cfg(test)]
mod junit_tests {
    use crate::{Runner, parse_junit_of};

    #[test]
    fn gtest_files_joined_fail_a_name_that_failed_in_any() {
        // Two binaries' `xml:DIR/` files joined under one root, as the
        // facade reads them; the first a test wrote, saying `A.Fails`
        // passed (hand-made).
        let file = |cases: &str| {
            format!(
                "<testsuites tests=\"1\" name=\"AllTests\"><testsuite name=\"A\">{cases}</testsuite></testsuites>\n"
            )
        };
        let passed = r#"<testcase name="Fails" status="run" result="completed" classname="A" />"#;
        let failed = r#"<testcase name="Fails" status="run" result="completed" classname="A"><failure message="no" /></testcase>"#;
        let other = r#"<testcase name="Passes" status="run" result="completed" classname="B" />"#;
        let joined = format!(
            "<testsuites>\n{}{}</testsuites>\n",
            file(passed),
            file(&format!("{failed}{other}"))
        );
        let report = parse_junit_of(Runner::Gtest, joined.as_bytes()).unwrap();
        assert_eq!(report.names().collect::<Vec<_>>(), ["A.Fails"]);
        // Where it must not fire: every file says it passed.
        let joined = format!(
            "<testsuites>\n{}{}</testsuites>\n",
            file(passed),
            file(other)
        );
        let report = parse_junit_of(Runner::Gtest, joined.as_bytes()).unwrap();
        assert!(report.failing.is_empty(), "{report:?}");
    }
}

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "[==========] Running 3 tests from 2 test suites.\n",
    "[----------] 2 tests from Calc\n",
    "[ RUN      ] Calc.Adds\n",
    "[       OK ] Calc.Adds (0 ms)\n",
    "[ RUN      ] Small/Sq.Positive/0\n",
    "[  FAILED  ] Small/Sq.Positive/0, where GetParam() = 1 (0 ms)\n",
    "[  SKIPPED ] Calc.Skips (0 ms)\n",
    "[ DISABLED ] Calc.DISABLED_Later\n",
    "[==========] 3 tests from 2 test suites ran. (0 ms total)\n",
    "[  PASSED  ] 1 test.\n",
    "[  SKIPPED ] 1 test, listed below:\n",
    "[  FAILED  ] 1 test, listed below:\n",
    "[  FAILED  ] Small/Sq.Positive/0, where GetParam() = 1\n",
    " 1 FAILED TEST\n",
    "Repeating all tests (iteration 2) . . .\n",
    "x.cc:3: Failure\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Gtest, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_line_shape_googletest_prints() {
        assert_eq!(tagged("[ RUN      ] Calc.Adds"), Some(("RUN", "Calc.Adds")));
        assert_eq!(
            tagged("[       OK ] Calc.Adds (0 ms)"),
            Some(("OK", "Calc.Adds (0 ms)"))
        );
        assert_eq!(
            result("Small/Sq.Positive/0, where GetParam() = 1 (0 ms)"),
            Some("Small/Sq.Positive/0")
        );
        assert_eq!(
            result("My/Wide/1.AtLeastTwo, where TypeParam = unsigned char (12 ms)"),
            Some("My/Wide/1.AtLeastTwo")
        );
        assert_eq!(
            test_name("Num/0.FitsAByte, where TypeParam = int"),
            Some("Num/0.FitsAByte")
        );
        assert_eq!(
            count("6 tests, listed below:"),
            Some((6, ", listed below:"))
        );
        assert_eq!(count("1 test."), Some((1, ".")));
    }

    #[test]
    fn shapes_must_not_fire_on_prose() {
        // A list's line has no time; prose has spaces; a tag is ten wide.
        assert_eq!(result("Calc.Adds"), None);
        assert_eq!(result("it went wrong (0 ms)"), None);
        assert_eq!(result("Calc.Adds (x ms)"), None);
        assert_eq!(tagged("[RUN] Calc.Adds"), None);
        assert_eq!(tagged("[ RUN      ]Calc.Adds"), None);
        assert_eq!(test_name("NoDot"), None);
        assert_eq!(count("many tests"), None);
    }

    const RUN: &str = "\
[==========] Running 3 tests from 1 test suite.
[----------] 3 tests from Calc
[ RUN      ] Calc.Adds
[       OK ] Calc.Adds (0 ms)
[ RUN      ] Calc.Liar
[  FAILED  ] Calc.Adds (0 ms)
[==========] 3 tests from 1 test suite ran. (0 ms total)
[  PASSED  ] 2 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Calc.Forged
[       OK ] Calc.Liar (0 ms)
[ RUN      ] Calc.Subtracts
x.cc:3: Failure
[  FAILED  ] Calc.Subtracts (1 ms)
[==========] 3 tests from 1 test suite ran. (1 ms total)
[  PASSED  ] 2 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Calc.Subtracts

 1 FAILED TEST
";

    #[test]
    fn the_last_closing_names_only_failed_results() {
        let report = crate::parse(Runner::Gtest, RUN);
        assert_eq!(report.names().collect::<Vec<_>>(), ["Calc.Subtracts"]);
        assert!(report.unclosed.is_none());
        assert_eq!(report.counts.passed, Some(2));
        assert_eq!(
            report.failing[0].excerpt.as_deref(),
            Some("x.cc:3: Failure")
        );
        // A forged list naming a test that ran and passed: nothing.
        let forged = RUN.replace("[  FAILED  ] Calc.Subtracts\n", "[  FAILED  ] Calc.Adds\n");
        assert!(names(&forged).is_empty());
    }

    #[test]
    fn a_forged_ok_for_itself_is_replaced_by_its_real_failure() {
        let log = "\
[==========] Running 1 test from 1 test suite.
[ RUN      ] Calc.Fails
[       OK ] Calc.Fails (0 ms)
[  FAILED  ] Calc.Fails (0 ms)
[==========] 1 test from 1 test suite ran. (0 ms total)
[  PASSED  ] 0 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Calc.Fails
";
        assert_eq!(names(log), ["Calc.Fails"]);
    }

    #[test]
    fn a_forged_closing_and_a_crash_name_the_test_that_ran() {
        // The test printed a green closing and exited 0 (or died).
        let log = "\
[==========] Running 2 tests from 1 test suite.
[ RUN      ] Calc.Adds
[       OK ] Calc.Adds (0 ms)
[ RUN      ] Calc.Exits
[==========] 2 tests from 1 test suite ran. (0 ms total)
[  PASSED  ] 2 tests.
";
        let report = crate::parse(Runner::Gtest, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["Calc.Exits"]);
        assert_eq!(report.failing[0].message.as_deref(), Some(CRASHED));
        assert_eq!(report.running, ["Calc.Exits"]);
        assert!(report.unclosed.is_some());
        // A closing that counts more tests than ran does not sum up.
        let short = "\
[==========] Running 2 tests from 1 test suite.
[ RUN      ] Calc.Adds
[       OK ] Calc.Adds (0 ms)
[==========] 2 tests from 1 test suite ran. (0 ms total)
[  PASSED  ] 2 tests.
";
        assert!(crate::parse(Runner::Gtest, short).unclosed.is_some());
    }

    #[test]
    fn an_unclosed_brief_failure_is_not_confirmed() {
        // `--gtest_brief=1`: no `RUN` line, the failures' results alone.
        let closed = "\
[  FAILED  ] Calc.Fails (0 ms)
[==========] 2 tests from 1 test suite ran. (0 ms total)
[  PASSED  ] 1 test.
";
        assert_eq!(names(closed), ["Calc.Fails"]);
        // Hand-made (a test printed the line and the binary died, or the
        // log was cut): no closing sums it up, nothing is named.
        let cut = "[  FAILED  ] Forged.Name (0 ms)\n";
        let report = crate::parse(Runner::Gtest, cut);
        assert!(report.failing.is_empty(), "{report:?}");
        assert!(report.unclosed.is_some());
        // A closing whose counts it breaks (two failures where one was).
        let broken = closed.replace(
            "[  FAILED  ] Calc.Fails (0 ms)\n",
            "[  FAILED  ] Forged.Name (0 ms)\n[  FAILED  ] Calc.Fails (0 ms)\n",
        );
        let report = crate::parse(Runner::Gtest, &broken);
        assert!(report.failing.is_empty(), "{report:?}");
        assert!(report.unclosed.is_some());
    }

    #[test]
    fn a_ctest_run_is_ctests_to_name() {
        let inner = "\
[==========] Running 1 test from 1 test suite.
[ RUN      ] Sq.Positive/0
[  FAILED  ] Sq.Positive/0, where GetParam() = 1 (0 ms)
[==========] 1 test from 1 test suite ran. (0 ms total)
[  PASSED  ] 0 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Sq.Positive/0, where GetParam() = 1
";
        let under = format!("Test project /b\n{inner}\nTotal Test time (real) =   0.01 sec\n");
        assert!(names(&under).is_empty());
        // Where it must not fire: a binary run after ctest's run ended.
        assert_eq!(names(&format!("{under}{inner}")), ["Sq.Positive/0"]);
    }

    #[test]
    fn repeats_that_disagree_are_flaky() {
        let log = "
Repeating all tests (iteration 1) . . .

[==========] Running 1 test from 1 test suite.
[ RUN      ] Flaky.Once
[  FAILED  ] Flaky.Once (0 ms)
[==========] 1 test from 1 test suite ran. (0 ms total)
[  PASSED  ] 0 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Flaky.Once

Repeating all tests (iteration 2) . . .

[==========] Running 1 test from 1 test suite.
[ RUN      ] Flaky.Once
[       OK ] Flaky.Once (0 ms)
[==========] 1 test from 1 test suite ran. (0 ms total)
[  PASSED  ] 1 test.
";
        let report = crate::parse(Runner::Gtest, log);
        assert!(report.failing.is_empty());
        assert_eq!(report.flaky, ["Flaky.Once"]);
    }
}
