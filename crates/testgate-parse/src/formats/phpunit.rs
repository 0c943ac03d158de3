//! PHPUnit 9's console: the default printer (progress characters), `-v`,
//! `--debug` (`Test 'X' started`/`ended`) and `--testdox` (whose prettified
//! names are not PHPUnit's: it gives counts, not names).
//!
//! A run opens with `PHPUnit 9.6.7 by Sebastian Bergmann and contributors.`
//! and closes with its summary: `OK (N tests, M assertions)`, or a word line
//! (`FAILURES!`, `ERRORS!`, `WARNINGS!`, `OK, but incomplete, skipped, or
//! risky tests!`) and `Tests: N, Assertions: M, Errors: a, Failures: b, …`,
//! or `No tests executed!`. Names come from the defect sections PHPUnit
//! prints after its `Time: …, Memory: …` line: `There were 2 failures:`,
//! then `1) Ns\Class::method` (with ` with data set #N (values)` or ` with
//! data set "name" (values)` for a data provider's case), its message and
//! place. A test's own output lands on the same stdout, so:
//!
//! - the sections are those after the run's *last* `Time:` line: PHPUnit
//!   prints its own after every test ended, so a section a test printed
//!   before it names nothing;
//! - the *last* summary of a run is its verdict (a test's forged summary is
//!   followed by PHPUnit's real one); a banner inside a run that has no
//!   summary yet is a test's output, not a new run;
//! - a section names no more tests than its own header counts, numbered
//!   `1)` to `N)` in order, and no more of each kind than the summary
//!   counts (`Errors: a`, `Failures: b`, `Warnings: c`);
//! - risky, skipped and incomplete tests are not failures (PHPUnit's JUnit
//!   report writes a risky test as an `<error>`; its console and its exit
//!   status count it as risky), and neither are warnings (PHPUnit 9 exits
//!   0 after `WARNINGS!`): risky and warned tests are kept apart
//!   ([`Report::risky`](crate::Report::risky),
//!   [`Report::warned`](crate::Report::warned)), failures only where the
//!   project asks (`failOnRisky`, `failOnWarning`), which the exit status
//!   alone tells.
//!
//! A name is `Ns\Class::method`, plus ` with data set #N` or ` with data set
//! "name"` without the values PHPUnit appends; a class whose
//! `setUpBeforeClass` failed is named by the class alone. A run that ends
//! without its summary (a PHP fatal error, a segfault, `exit()` in a test)
//! is unclosed; with `--debug` the test then running is named as running,
//! and a `PHP Fatal error:` line is a crash.

use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, Crash, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// Recognises PHPUnit output.
#[derive(Debug, Default)]
pub(crate) struct Phpunit {
    findings: Findings,
    run: Run,
    /// The message and place under each defect's header.
    excerpts: Excerpts,
}

/// One run of PHPUnit, from its banner (or first line of its own) to the
/// next banner after its summary, or the log's end.
#[derive(Debug, Default)]
struct Run {
    open: bool,
    /// The defects of the sections since the last `Time:` line.
    defects: Vec<(u64, String, Defect)>,
    /// The section being read: its kind (`None`: skipped or incomplete
    /// tests) and how many entries its header counts, and the next entry's
    /// number.
    section: Option<Section>,
    /// The last summary read, and the defects that stood before it.
    summary: Option<Summary>,
    /// A summary's word line was read: the next line is its `Tests:` line.
    word: Option<u64>,
    /// `--debug`: the test started and not ended.
    running: Option<(u64, String)>,
    /// A `PHP Fatal error:` line, with its text.
    fatal: Option<String>,
    /// A progress line said a test failed (`F`, `E`, `W`): PHPUnit's own
    /// `OK` never follows.
    said_failure: bool,
}

/// The kind of a defect section that names tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Defect {
    Error,
    Failure,
    /// A warning fails PHPUnit 9's run only under `failOnWarning`.
    Warning,
    /// A risky test fails the run only under `failOnRisky`.
    Risky,
}

#[derive(Debug, Clone, Copy)]
struct Section {
    outcome: Option<Defect>,
    count: u64,
    next: u64,
}

/// A run's closing summary.
#[derive(Debug, Clone, Default)]
struct Summary {
    tests: u64,
    errors: u64,
    failures: u64,
    warnings: u64,
    risky: u64,
    skipped: u64,
    no_tests: bool,
    /// The defects of the sections before it.
    defects: Vec<(u64, String, Defect)>,
}

impl Phpunit {
    fn detected(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// Ends the run: its last summary decides; without one it is unclosed.
    fn end_run(&mut self) {
        let run = std::mem::take(&mut self.run);
        if !run.open {
            return;
        }
        let Some(summary) = run.summary else {
            self.findings.unclosed.get_or_insert_with(|| {
                "a PHPUnit run ended without its closing summary".to_owned()
            });
            let running = run.running.clone();
            if let Some(cause) = run.fatal {
                self.findings.crashes.push((
                    running.as_ref().map_or(0, |(i, _)| *i),
                    Crash {
                        format: Runner::Phpunit,
                        binary: None,
                        cause,
                        running: running.as_ref().map(|(_, n)| n.clone()),
                        started_by: None,
                    },
                ));
            }
            self.findings.running.extend(running);
            for (index, name, defect) in run.defects {
                self.defect(index, name, defect);
            }
            self.excerpts.clear();
            return;
        };
        let mut left = [
            summary.errors,
            summary.failures,
            summary.warnings,
            summary.risky,
        ];
        for (index, name, defect) in summary.defects {
            let slot = match defect {
                Defect::Error => 0,
                Defect::Failure => 1,
                Defect::Warning => 2,
                Defect::Risky => 3,
            };
            let Some(n) = left.get_mut(slot).filter(|n| **n > 0) else {
                continue;
            };
            *n -= 1;
            self.defect(index, name, defect);
        }
        self.excerpts.clear();
        let failed = summary.errors.saturating_add(summary.failures);
        self.findings.counts.add(Counts {
            passed: Some(
                summary
                    .tests
                    .saturating_sub(failed)
                    .saturating_sub(summary.skipped),
            ),
            failed: Some(failed),
            skipped: Some(summary.skipped),
        });
        self.findings.no_tests_ran |= summary.no_tests || summary.tests == 0;
    }

    /// A defect the run's closing confirmed: a failure, or a test kept
    /// apart (risky, warned).
    fn defect(&mut self, index: u64, name: String, defect: Defect) {
        let (message, excerpt) = self.excerpts.take(&name);
        let kind = if name.contains("::") {
            Kind::Test
        } else {
            Kind::Suite
        };
        let outcome = match defect {
            Defect::Error => Outcome::Error,
            Defect::Failure => Outcome::Failed,
            Defect::Warning | Defect::Risky => {
                let test = FailingTest::new(name, Runner::Phpunit, None)
                    .with_kind(kind)
                    .with_output(message, excerpt);
                let apart = if defect == Defect::Risky {
                    &mut self.findings.risky
                } else {
                    &mut self.findings.warned
                };
                apart.push((index, test));
                return;
            }
        };
        self.findings.seen.note(index, &name, None, outcome);
        let test = FailingTest::new(name, Runner::Phpunit, None)
            .with_kind(kind)
            .with_output(message, excerpt);
        self.findings.fail(index, test);
    }

    /// A line of the run's closing: a word line, a `Tests:` line, `OK (…)`
    /// or `No tests executed!`. True when it was one.
    fn summary_line(&mut self, index: u64, text: &str) -> bool {
        if let Some(word_at) = self.run.word.take()
            && let Some(mut summary) = tests_line(text)
        {
            self.detected(word_at);
            summary.defects = self.run.defects.clone();
            self.run.summary = Some(summary);
            self.run.section = None;
            return true;
        }
        let text = text.trim_end();
        if matches!(
            text,
            "FAILURES!" | "ERRORS!" | "WARNINGS!" | "OK, but incomplete, skipped, or risky tests!"
        ) {
            self.excerpts.end();
            self.run.word = Some(index);
            return true;
        }
        if text == "No tests executed!" {
            self.detected(index);
            self.excerpts.end();
            self.run.open = true;
            self.run.summary = Some(Summary {
                no_tests: true,
                ..Summary::default()
            });
            return true;
        }
        if let Some(tests) = ok_line(text) {
            if self.run.said_failure {
                // A test printed it (and perhaps exited): the run goes on,
                // or the log ends and leaves it unclosed.
                return true;
            }
            self.detected(index);
            self.excerpts.end();
            self.run.open = true;
            self.run.section = None;
            self.run.summary = Some(Summary {
                tests,
                ..Summary::default()
            });
            return true;
        }
        false
    }

    /// A section's header (`There were 2 failures:`) or one of its
    /// entries (`1) Ns\Class::method`). True when it was one.
    fn section_line(&mut self, index: u64, text: &str) -> bool {
        if let Some((outcome, count)) = section_header(text) {
            self.excerpts.end();
            self.run.section = Some(Section {
                outcome,
                count,
                next: 1,
            });
            return true;
        }
        let Some(section) = self.run.section.as_mut() else {
            return false;
        };
        if section.next > section.count {
            return false;
        }
        let Some(name) = entry(text, section.next) else {
            return false;
        };
        section.next += 1;
        let outcome = section.outcome;
        self.excerpts.end();
        if let Some(outcome) = outcome {
            self.excerpts.open(&name);
            self.run.defects.push((index, name, outcome));
        }
        true
    }
}

impl Recognizer for Phpunit {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let index = line.index;
        if is_banner(text) {
            if self.run.open && self.run.summary.is_none() {
                // A test printed it: the run goes on.
                return;
            }
            self.end_run();
            self.detected(index);
            self.run.open = true;
            return;
        }
        if self.summary_line(index, text) {
            return;
        }
        if is_time_line(text) {
            // PHPUnit's own comes after every test ended: the sections
            // before it were a test's output.
            self.excerpts.clear();
            self.run.defects.clear();
            self.run.section = None;
            self.run.summary = None;
            self.run.open = true;
            return;
        }
        if self.run.open && is_progress(text) {
            self.run.said_failure |= text
                .bytes()
                .take_while(|b| *b != b' ')
                .any(|b| matches!(b, b'F' | b'E' | b'W'));
            return;
        }
        if let Some((name, started)) = debug_line(text) {
            self.detected(index);
            self.run.open = true;
            if started {
                self.run.running = Some((index, name));
            } else {
                self.run.running = None;
            }
            return;
        }
        if self.run.open && self.section_line(index, text) {
            return;
        }
        if text == "--" {
            self.excerpts.end();
            return;
        }
        if self.run.open
            && self.run.summary.is_none()
            && self.run.fatal.is_none()
            && let Some(fatal) = fatal_error(text)
        {
            self.run.fatal = Some(fatal.to_owned());
        }
        if self.excerpts.is_open() {
            if !self.excerpts.has_message() && !text.trim().is_empty() {
                self.excerpts.message(text);
            }
            self.excerpts.push(text);
        }
    }

    fn finish(&mut self) -> Findings {
        self.end_run();
        std::mem::take(&mut self.findings)
    }

    /// Outside a run, with no summary word pending and no excerpt open,
    /// only the lines that open a run or say its end (the banner, `Test
    /// '…' started`, `Time:`, `FAILURES!`, `OK (…)`, `No tests
    /// executed!`, `--`); otherwise every line.
    fn interest(&self) -> &'static Interest {
        if self.run.open || self.run.word.is_some() || self.excerpts.is_open() {
            &Interest::ALL
        } else {
            &OUTSIDE_RUN
        }
    }
}

/// The lines `line` reads outside a run: each starts with one of these
/// bytes, never with a space.
static OUTSIDE_RUN: Interest = Interest::NONE.first(b"PTFEWON-");

/// `PHPUnit 9.6.7 by Sebastian Bergmann and contributors.`
fn is_banner(text: &str) -> bool {
    text.strip_prefix("PHPUnit ")
        .and_then(|rest| rest.split_once(' '))
        .is_some_and(|(version, rest)| {
            version.starts_with(|c: char| c.is_ascii_digit())
                && rest.trim_end() == "by Sebastian Bergmann and contributors."
        })
}

/// A line of progress characters (`.FERSI.FF.F.`), with its counter
/// (`   12 / 12 (100%)`) where PHPUnit ends the line.
fn is_progress(text: &str) -> bool {
    let (marks, counter) = match text.split_once(' ') {
        Some((marks, rest)) => (marks, Some(rest.trim_start())),
        None => (text, None),
    };
    let counter_ok = counter.is_none_or(|c| {
        c.split_once(" / ").is_some_and(|(n, rest)| {
            n.parse::<u64>().is_ok()
                && rest
                    .split_once(" (")
                    .is_some_and(|(m, p)| m.parse::<u64>().is_ok() && p.ends_with("%)"))
        })
    });
    !marks.is_empty()
        && marks
            .bytes()
            .all(|b| matches!(b, b'.' | b'F' | b'E' | b'W' | b'R' | b'S' | b'I'))
        && counter_ok
}

/// `Time: 00:00.013, Memory: 6.00 MB`.
fn is_time_line(text: &str) -> bool {
    text.strip_prefix("Time: ")
        .is_some_and(|rest| super::find(rest, ", Memory: ").is_some())
}

/// `OK (12 tests, 8 assertions)`: the tests.
fn ok_line(text: &str) -> Option<u64> {
    let inner = text.strip_prefix("OK (")?.strip_suffix(')')?;
    let (tests, assertions) = inner.split_once(", ")?;
    let n = tests
        .strip_suffix(" tests")
        .or_else(|| tests.strip_suffix(" test"))?
        .parse()
        .ok()?;
    let _: u64 = assertions
        .strip_suffix(" assertions")
        .or_else(|| assertions.strip_suffix(" assertion"))?
        .parse()
        .ok()?;
    Some(n)
}

/// `Tests: 12, Assertions: 8, Errors: 1, Failures: 4, Skipped: 1.`
fn tests_line(text: &str) -> Option<Summary> {
    let body = text.trim_end().strip_suffix('.')?.strip_prefix("Tests: ")?;
    let mut summary = Summary::default();
    for (i, item) in body.split(", ").enumerate() {
        let (key, n) = if i == 0 {
            ("Tests", item)
        } else {
            item.split_once(": ")?
        };
        let n: u64 = n.parse().ok()?;
        match key {
            "Tests" => summary.tests = n,
            "Errors" => summary.errors = n,
            "Failures" => summary.failures = n,
            "Warnings" => summary.warnings = n,
            "Risky" => summary.risky = n,
            "Skipped" | "Incomplete" => summary.skipped = summary.skipped.saturating_add(n),
            "Assertions" => {}
            _ => return None,
        }
    }
    Some(summary)
}

/// `There was 1 error:`, `There were 4 failures:`: the section's outcome
/// (`None` for skipped and incomplete tests) and count.
fn section_header(text: &str) -> Option<(Option<Defect>, u64)> {
    let rest = text
        .strip_prefix("There was ")
        .or_else(|| text.strip_prefix("There were "))?
        .strip_suffix(':')?;
    let (n, what) = rest.split_once(' ')?;
    let count: u64 = n.parse().ok()?;
    let outcome = match what {
        "error" | "errors" => Some(Defect::Error),
        "failure" | "failures" => Some(Defect::Failure),
        "warning" | "warnings" => Some(Defect::Warning),
        "risky test" | "risky tests" => Some(Defect::Risky),
        "skipped test" | "skipped tests" | "incomplete test" | "incomplete tests" => None,
        _ => return None,
    };
    Some((outcome, count))
}

/// `N) NAME` with N the entry's number `n`: the canonical name. A data
/// set whose name goes on over several lines (a newline in it) is named by
/// its method: the line holds no more of it.
fn entry(text: &str, n: u64) -> Option<String> {
    let (number, rest) = text.split_once(") ")?;
    if number.parse::<u64>().ok()? != n {
        return None;
    }
    canonical(rest).or_else(|| {
        let (head, _) = super::split_once(rest, " with data set \"")?;
        canonical(head).filter(|name| name.contains("::"))
    })
}

/// `Test 'NAME' started` / `Test 'NAME' ended` (`--debug`): the canonical
/// name and whether it started.
fn debug_line(text: &str) -> Option<(String, bool)> {
    let rest = text.strip_prefix("Test '")?;
    let (quoted, started) = if let Some(q) = rest.strip_suffix("' started") {
        (q, true)
    } else {
        (rest.strip_suffix("' ended")?, false)
    };
    Some((canonical(quoted)?, started))
}

/// `PHP Fatal error:  Uncaught …` (or `Fatal error: …` on stdout), also
/// after the progress characters on its line: the error from there.
fn fatal_error(text: &str) -> Option<&str> {
    let error = text.trim_start_matches(['.', 'F', 'E', 'W', 'R', 'S', 'I']);
    let rest = error.strip_prefix("PHP ").unwrap_or(error);
    rest.starts_with("Fatal error: ").then(|| error.trim_end())
}

/// A test as PHPUnit prints it, as the canonical name: `Ns\Class::method`,
/// with ` with data set #N` or ` with data set "name"` and without the
/// values that follow; `Ns\Class` alone for a class's own failure. `None`
/// when `desc` is not one.
pub(crate) fn canonical(desc: &str) -> Option<String> {
    let desc = desc.trim_end();
    let (head, data) = match super::split_once(desc, " with data set ") {
        Some((head, data)) => (head, Some(data)),
        None => (desc, None),
    };
    let (class, method) = match head.split_once("::") {
        Some((class, method)) => (class, Some(method)),
        None => (head, None),
    };
    let word = |s: &str, backslash: bool| {
        !s.is_empty()
            && !s.as_bytes()[0].is_ascii_digit()
            && s.bytes().all(|b| {
                b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 || (backslash && b == b'\\')
            })
    };
    if !word(class, true) || class.ends_with('\\') || !method.is_none_or(|m| word(m, false)) {
        return None;
    }
    let Some(data) = data else {
        return Some(head.to_owned());
    };
    method?;
    let set = if let Some(digits) = data.strip_prefix('#') {
        let end = digits
            .bytes()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(digits.len());
        if end == 0 || !(digits[end..].is_empty() || digits[end..].starts_with(" (")) {
            return None;
        }
        &data[..=end]
    } else if data.starts_with('"') {
        // The name is quoted as it is, quotes and all: it ends at the first
        // `" (` (the values) or at the end.
        match super::find(data, "\" (") {
            Some(at) if at > 0 && data.ends_with(')') => &data[..=at],
            _ if data.len() > 1 && data.ends_with('"') => data,
            _ => return None,
        }
    } else {
        return None;
    };
    Some(format!("{head} with data set {set}"))
}

/// How PHPUnit's `--log-junit` report is read: `Ns\\Class::method with
/// data set "name"`, as its console names it (the `class` attribute, or
/// else the dotted `classname`); its `<error>` is an exception outside
/// the test's assertions.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: |case| {
        let class = if case.class.is_empty() {
            case.classname.replace('.', "\\")
        } else {
            case.class.clone()
        };
        (format!("{class}::{}", case.name), None)
    },
    errors_apart: true,
    // PHPUnit gives each case its `class` and `assertions`.
    wrote: |cases| !cases.is_empty() && cases.iter().all(|c| c.php),
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n",
    ".FERSI.FF.F.                                                      12 / 12 (100%)\n",
    "Time: 00:00.013, Memory: 6.00 MB\n",
    "There was 1 error:\n",
    "There were 2 failures:\n",
    "There was 1 risky test:\n",
    "1) Demo\\Tests\\CalcTest::testFails\n",
    "2) Demo\\Tests\\CalcTest::testPairs with data set \"x\" (1, 1, 3)\n",
    "--\n",
    "FAILURES!\n",
    "Tests: 12, Assertions: 8, Errors: 1, Failures: 4, Skipped: 1, Incomplete: 1, Risky: 1.\n",
    "OK (2 tests, 2 assertions)\n",
    "Test 'Demo\\Tests\\CalcTest::testAdds' started\n",
    "Test 'Demo\\Tests\\CalcTest::testAdds' ended\n",
    "PHP Fatal error:  Allowed memory size exhausted\n",
    "No tests executed!\n",
    "1) ",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_drop_the_data_sets_values() {
        let name = |d: &str| canonical(d);
        assert_eq!(
            name("Demo\\Tests\\CalcTest::testFails").as_deref(),
            Some("Demo\\Tests\\CalcTest::testFails")
        );
        assert_eq!(
            name("A\\BTest::testN with data set #1 (2)").as_deref(),
            Some("A\\BTest::testN with data set #1")
        );
        assert_eq!(
            name("A\\BTest::testN with data set #12").as_deref(),
            Some("A\\BTest::testN with data set #12")
        );
        assert_eq!(
            name("A\\BTest::testP with data set \"wrong \"quoted\" name\" (1, 1, 3)").as_deref(),
            Some("A\\BTest::testP with data set \"wrong \"quoted\" name\"")
        );
        assert_eq!(
            name("A\\BTest::testP with data set \"with.dots (x)\" (2, 2, 5)").as_deref(),
            Some("A\\BTest::testP with data set \"with.dots (x)\"")
        );
        assert_eq!(name("A\\BTest").as_deref(), Some("A\\BTest"));
        // Not a test: prose, other runners' names.
        assert_eq!(name("this is prose"), None);
        assert_eq!(name("tests/a.py::test_x"), None);
        assert_eq!(name("A\\B::m with data set x"), None);
        assert_eq!(name("1abc"), None);
    }

    #[test]
    fn closing_lines() {
        assert_eq!(ok_line("OK (12 tests, 8 assertions)"), Some(12));
        assert_eq!(ok_line("OK (1 test, 1 assertion)"), Some(1));
        assert_eq!(ok_line("OK (fine)"), None);
        let s = tests_line(
            "Tests: 12, Assertions: 8, Errors: 1, Failures: 4, Skipped: 1, Incomplete: 1, Risky: 1.",
        )
        .unwrap();
        assert_eq!((s.tests, s.errors, s.failures, s.skipped), (12, 1, 4, 2));
        assert!(tests_line("Tests: 3, Reasons: 1.").is_none());
        assert!(tests_line("Tests: many").is_none());
        assert_eq!(
            section_header("There were 4 failures:"),
            Some((Some(Defect::Failure), 4))
        );
        assert_eq!(
            section_header("There was 1 risky test:"),
            Some((Some(Defect::Risky), 1))
        );
        assert_eq!(section_header("There were 4 reasons:"), None);
    }

    const PASSING: &str = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n";

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Phpunit, log)
            .failing
            .into_iter()
            .map(|t| t.name)
            .collect()
    }

    #[test]
    fn a_section_a_passing_test_prints_names_nothing() {
        // Hand-made: the shape of fixtures/phpunit/lies.log, alone.
        let log = format!(
            "{PASSING}.Time: 00:00.001, Memory: 1.00 MB\n\nThere was 1 failure:\n\n\
             1) Fake\\FakeTest::testFake\nboom\n\nFAILURES!\nTests: 1, Assertions: 1, Failures: 1.\n\
             .                                                                   2 / 2 (100%)\n\n\
             Time: 00:00.013, Memory: 6.00 MB\n\nOK (2 tests, 2 assertions)\n"
        );
        let report = crate::parse(Runner::Phpunit, &log);
        assert!(report.failing.is_empty(), "{report:?}");
        assert_eq!(report.unclosed, None);
        assert_eq!(report.format, Some(Runner::Phpunit));
    }

    #[test]
    fn risky_tests_are_no_failures() {
        let log = format!(
            "{PASSING}R.     2 / 2 (100%)\n\nTime: 00:00.013, Memory: 6.00 MB\n\n\
             There was 1 risky test:\n\n1) A\\BTest::testRisky\nThis test did not perform any assertions\n\n\
             OK, but incomplete, skipped, or risky tests!\nTests: 2, Assertions: 1, Risky: 1.\n"
        );
        let report = crate::parse(Runner::Phpunit, &log);
        assert!(report.failing.is_empty(), "{report:?}");
        assert_eq!(report.counts.failed, Some(0));
        assert_eq!(report.counts.passed, Some(2));
        // Kept apart, with PHPUnit's reason: a failure only where the
        // project asks (`failOnRisky`), which the exit status tells.
        let risky: Vec<_> = report.risky.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(risky, ["A\\BTest::testRisky"]);
        assert_eq!(
            report.risky[0].message.as_deref(),
            Some("This test did not perform any assertions")
        );
        // A risky section a test printed, no `Risky:` in the summary after
        // it: nothing kept.
        let forged = log.replace(", Risky: 1.", ".");
        assert!(crate::parse(Runner::Phpunit, &forged).risky.is_empty());
    }

    #[test]
    fn warnings_are_no_failures_of_phpunit_9() {
        // PHPUnit 9.6 exits 0 after `WARNINGS!` unless `failOnWarning`.
        let log = format!(
            "{PASSING}W.     2 / 2 (100%)\n\nTime: 00:00.013, Memory: 6.00 MB\n\n\
             There was 1 warning:\n\n1) A\\BTest::testWarns\ncareful\n\n\
             WARNINGS!\nTests: 2, Assertions: 2, Warnings: 1.\n"
        );
        let report = crate::parse(Runner::Phpunit, &log);
        assert!(report.failing.is_empty(), "{report:?}");
        assert_eq!(report.counts.failed, Some(0));
        let warned: Vec<_> = report.warned.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(warned, ["A\\BTest::testWarns"]);
        assert!(report.unclosed.is_none());
    }

    #[test]
    fn no_more_names_than_the_section_and_summary_count() {
        let log = format!(
            "{PASSING}F.     2 / 2 (100%)\n\nTime: 00:00.013, Memory: 6.00 MB\n\n\
             There was 1 failure:\n\n1) A\\BTest::testA\n2) A\\BTest::testFake\n\n\
             FAILURES!\nTests: 2, Assertions: 2, Failures: 1.\n"
        );
        assert_eq!(names(&log), ["A\\BTest::testA"]);
    }

    #[test]
    fn a_fatal_error_mid_run_is_unclosed_and_names_the_running_test() {
        let log = format!(
            "{PASSING}Test 'A\\BTest::testA' started\nTest 'A\\BTest::testA' ended\n\
             Test 'A\\BTest::testDies' started\nPHP Fatal error:  Allowed memory size exhausted in /p/t.php on line 3\n"
        );
        let report = crate::parse(Runner::Phpunit, &log);
        assert!(report.unclosed.is_some());
        assert_eq!(report.running, ["A\\BTest::testDies"]);
        assert_eq!(report.crashes.len(), 1);
        assert_eq!(
            report.crashes[0].running.as_deref(),
            Some("A\\BTest::testDies")
        );
    }

    #[test]
    fn ok_after_a_failed_progress_mark_is_no_pass() {
        let log = format!(
            "{PASSING}F\n\nTime: 00:00.001, Memory: 4.00 MB\n\nOK (2 tests, 2 assertions)\n"
        );
        let report = crate::parse(Runner::Phpunit, &log);
        assert!(report.unclosed.is_some(), "{report:?}");
        assert!(is_progress(
            ".FERSI.FF.F.                     12 / 12 (100%)"
        ));
        assert!(is_progress("F"));
        assert!(!is_progress("FAILURES!"));
        assert!(!is_progress(". then prose"));
    }

    #[test]
    fn a_banner_a_test_prints_opens_no_run() {
        let log = format!(
            "{PASSING}.PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n.   2 / 2 (100%)\n\n\
             Time: 00:00.013, Memory: 6.00 MB\n\nOK (2 tests, 2 assertions)\n"
        );
        let report = crate::parse(Runner::Phpunit, &log);
        assert_eq!(report.unclosed, None, "{report:?}");
        assert_eq!(report.counts.passed, Some(2));
    }

    #[test]
    fn other_runners_lines_are_not_phpunits() {
        for log in [
            "test tests::adds ... ok\ntest tests::x ... FAILED\n",
            "tests/a.py::test_x FAILED [ 50%]\nFAILED tests/a.py::test_x - boom\n",
            "--- FAIL: TestX (0.00s)\nFAIL\tpkg\t0.01s\n",
            "Ran 2 tests in 0.001s\n\nOK\n",
        ] {
            let report = crate::parse(crate::Format::Auto, log);
            assert_ne!(report.format, Some(Runner::Phpunit), "{log}");
            assert!(
                crate::parse(Runner::Phpunit, log).failing.is_empty(),
                "{log}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_streams_alike(
            pieces in proptest::collection::vec(super::super::testing::piece(&[
                "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n", ".F.E\n",
                "Time: 00:00.013, Memory: 6.00 MB\n", "There were 2 failures:\n",
                "There was 1 risky test:\n", "1) A\\BTest::testA\n", "2) A\\BTest::testB with data set #1 (2)\n",
                "--\n", "\n", "FAILURES!\n", "Tests: 2, Assertions: 2, Failures: 2.\n",
                "OK (2 tests, 2 assertions)\n", "Test 'A\\BTest::testA' started\n",
                "PHP Fatal error:  boom\n", "No tests executed!\n",
            ]), 0..40),
        ) {
            let log: String = pieces.concat();
            super::super::testing::chunked_equals_whole(Runner::Phpunit, &log)?;
        }
    }
}
