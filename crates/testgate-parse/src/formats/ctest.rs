//! CTest's console (`ctest`, `-V`, `--output-on-failure`, `-j`, `--repeat
//! until-pass:N`), also as `cmake --build … --target test` prints it.
//!
//! A run opens with `Test project <dir>` and prints a result line per test,
//! `1/5 Test #1: name ......   Passed    0.01 sec`; a test ctest runs again
//! (`--repeat`) prints its next results without the `N/M` prefix. It ends
//! with the summary, `40% tests passed, 3 tests failed out of 5`, and,
//! when a test failed, `The following tests FAILED:` with one
//! `\t  2 - name (Failed)` line each: the runner's own result on the run.
//!
//! A name is the test's `add_test` name, as ctest prints it. A test's own
//! output lands among these lines (unprefixed under `--output-on-failure`,
//! after a failed result; `N: ` before each line under `-V`), so:
//!
//! - the names are those of the list after the run's last summary: a
//!   summary or a list a test printed is followed by more of the run and the
//!   real summary, which starts the list anew;
//! - a listed name stands only where the run gave it a failed result, and
//!   a summary followed by more results is a test's print;
//! - a summary counts for the run only where it sums up the run's result
//!   lines (as many tests as first results, as many failures as failed
//!   results standing): one a test wrote to ctest's own output after
//!   killing it does not;
//! - a failed result line is only a candidate: it stands alone where the
//!   log stops before any summary (the run was killed), the run unclosed;
//! - a test whose repeat passed after a failed result is flaky (ctest lists
//!   it nowhere).

use std::collections::HashSet;

use foldhash::fast::RandomState;
use indexmap::IndexMap;

use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Outcome};
use crate::runner::Runner;

/// The most candidates, started tests or listed names kept in one run.
const MAX_PENDING: usize = 1 << 16;

/// Recognises CTest's console.
#[derive(Debug, Default)]
pub(crate) struct Ctest {
    findings: Findings,
    run: Run,
    /// Failed tests' output under `--output-on-failure`.
    excerpts: Excerpts,
}

/// One `Test project` run.
#[derive(Debug, Default)]
struct Run {
    open: bool,
    /// Failed result lines: by name, the line and ctest's word for how it
    /// failed. A map, so that a repeat or a flaky pass finds its test at
    /// once whatever a log holds; sorted by line when the run closes.
    candidates: IndexMap<String, (u64, String), RandomState>,
    /// Names that failed once in this run: a passing repeat makes them flaky.
    failed_once: HashSet<String, RandomState>,
    /// `Start N: name` lines without a result yet, by name.
    started: IndexMap<String, u64, RandomState>,
    /// The last summary's counts.
    summary: Option<Counts>,
    /// The names of the list after the last summary, with its words.
    listed: Vec<(u64, String, String)>,
    /// The lines now read are the FAILED list's.
    in_list: bool,
    /// First results (with their `N/M` prefix), and those of them that
    /// say `Not Run (Disabled)`, which ctest's summary does not count.
    firsts: u64,
    disabled: u64,
}

impl Run {
    /// Whether `counts` (a summary) sums up this run's results: as many
    /// tests as first results (the disabled left out), as many failed as
    /// failed results standing. A summary a test printed after killing
    /// ctest does not (`hostile/ctest-forgery`).
    fn sums_up(&self, counts: Counts) -> bool {
        let total = counts.passed.unwrap_or(0) + counts.failed.unwrap_or(0);
        total == self.firsts.saturating_sub(self.disabled)
            && counts.failed == Some(self.candidates.len() as u64)
    }
}

/// A result line: whether it is a first result (with its `N/M` prefix),
/// the name, and ctest's status words (`Passed`, `***Failed`,
/// `***Exception: SegFault`, `Subprocess aborted***Exception:`).
fn result_line(text: &str) -> Option<(bool, &str, &str)> {
    let text = text.trim_start();
    let (first, rest) = match text.split_once(' ') {
        Some((progress, rest)) if is_progress(progress) => (true, rest.trim_start()),
        _ => (false, text),
    };
    let rest = rest.strip_prefix("Test")?.trim_start().strip_prefix('#')?;
    let (number, rest) = rest.split_once(": ")?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = rest.strip_suffix(" sec")?.trim_end();
    let (rest, time) = rest.rsplit_once(' ')?;
    if time.is_empty() || !time.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    // ctest pads the name with a space and at least three dots.
    let at = super::find(rest, " ...")?;
    let name = rest.get(..at)?;
    let status = rest.get(at + 1..)?.trim_start_matches('.').trim();
    (!name.is_empty() && !status.is_empty()).then_some((first, name, status))
}

/// `1/5`, `12/120`: a result's place in the run.
fn is_progress(text: &str) -> bool {
    text.split_once('/').is_some_and(|(n, m)| {
        !n.is_empty()
            && !m.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && m.bytes().all(|b| b.is_ascii_digit())
    })
}

/// What a status says of the test: passed, skipped (`Skipped`, `Not Run
/// (Disabled)`: ctest lists them apart and does not fail) or failed.
fn outcome_of(status: &str) -> Outcome {
    if status == "Passed" {
        Outcome::Passed
    } else if status.ends_with("Skipped") || status.ends_with("(Disabled)") {
        Outcome::Skipped
    } else {
        Outcome::Failed
    }
}

/// A status as a message: `Exception: SegFault`, `Failed`.
fn message_of(status: &str) -> String {
    status.replace("***", " ").trim().to_owned()
}

/// The summary: `40% tests passed, 3 tests failed out of 5`.
fn summary(text: &str) -> Option<Counts> {
    let (_, rest) = text.split_once("% tests passed, ")?;
    let (failed, rest) = rest.split_once(' ')?;
    let total = rest
        .strip_prefix("tests failed out of ")
        .or_else(|| rest.strip_prefix("test failed out of "))?;
    let failed: u64 = failed.parse().ok()?;
    let total: u64 = total.trim_end().parse().ok()?;
    Some(Counts {
        passed: Some(total.saturating_sub(failed)),
        failed: Some(failed),
        skipped: None,
    })
}

/// A line of the FAILED list: `\t  2 - name (Failed)`.
fn listed(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\t')?.trim_start();
    let (number, rest) = text.split_once(" - ")?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (name, status) = rest.trim_end().strip_suffix(')')?.rsplit_once(" (")?;
    (!name.is_empty()).then_some((name, status))
}

impl Ctest {
    /// Ends the run: its list's names, or where it printed no summary its
    /// candidates.
    fn close(&mut self) {
        self.excerpts.end();
        let run = std::mem::take(&mut self.run);
        if !run.open {
            return;
        }
        let summed = run.summary.filter(|counts| run.sums_up(*counts));
        if run.summary.is_some() && summed.is_none() {
            self.findings.unclosed.get_or_insert_with(|| {
                "a ctest summary that does not sum up the run's results".to_owned()
            });
        }
        let failing = if let Some(counts) = summed {
            self.findings.counts.add(counts);
            // A listed name ctest gave no failed result is a test's print.
            // The result line's words say more (`Exception: SegFault`,
            // not `SEGFAULT`).
            let mut listed = run.listed;
            listed.retain(|(_, name, _)| run.failed_once.contains(name));
            for (_, name, status) in &mut listed {
                if let Some((_, said)) = run.candidates.get(name.as_str()) {
                    status.clone_from(said);
                }
            }
            listed
        } else {
            if !run.candidates.is_empty() || !run.started.is_empty() {
                self.findings.unclosed.get_or_insert_with(|| {
                    "a ctest run printed results and no `N% tests passed` summary".to_owned()
                });
            }
            let mut started: Vec<(u64, String)> = run
                .started
                .into_iter()
                .map(|(name, at)| (at, name))
                .collect();
            started.sort_unstable();
            self.findings.running.extend(started);
            let mut candidates: Vec<(u64, String, String)> = run
                .candidates
                .into_iter()
                .map(|(name, (at, status))| (at, name, status))
                .collect();
            candidates.sort_unstable();
            candidates
        };
        for (index, name, status) in failing {
            let (_, excerpt) = self.excerpts.take(&name);
            self.findings.seen.note(index, &name, None, Outcome::Failed);
            let test = FailingTest::new(name, Runner::Ctest, None)
                .with_output(Some(message_of(&status)), excerpt);
            self.findings.fail(index, test);
        }
        self.excerpts.clear();
    }

    fn result(&mut self, index: u64, first: bool, name: &str, status: &str) {
        self.findings.detected(index);
        // A summary with results after it was a test's print.
        self.run.summary = None;
        self.run.listed.clear();
        self.run.started.swap_remove(name);
        let outcome = outcome_of(status);
        if first {
            self.run.firsts += 1;
            self.run.disabled += u64::from(status.ends_with("(Disabled)"));
        }
        match outcome {
            Outcome::Failed => {
                if self.run.failed_once.len() < MAX_PENDING {
                    self.run.failed_once.insert(name.to_owned());
                }
                if let Some((_, said)) = self.run.candidates.get_mut(name) {
                    status.clone_into(said);
                } else if self.run.candidates.len() < MAX_PENDING {
                    self.run
                        .candidates
                        .insert(name.to_owned(), (index, status.to_owned()));
                }
                self.excerpts.open(name);
                self.findings.seen.note(index, name, None, outcome);
            }
            Outcome::Passed if !first && self.run.failed_once.contains(name) => {
                self.run.candidates.swap_remove(name);
                self.excerpts.discard(name);
                self.findings.flaky.push((index, name.to_owned()));
                self.findings.seen.note(index, name, None, Outcome::Flaky);
            }
            Outcome::Passed
            | Outcome::Error
            | Outcome::Skipped
            | Outcome::XFailed
            | Outcome::XPassed
            | Outcome::Flaky
            | Outcome::Running => self.findings.seen.note(index, name, None, outcome),
        }
    }
}

impl Recognizer for Ctest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let index = line.index;
        if let Some(dir) = text.strip_prefix("Test project ") {
            if !dir.is_empty() {
                self.close();
                self.findings.detected(index);
                self.run.open = true;
            }
            return;
        }
        if text.starts_with("No tests were found!!!") {
            self.findings.detected(index);
            self.findings.no_tests_ran = true;
            return;
        }
        if !self.run.open {
            return;
        }
        if self.run.in_list {
            if let Some((name, status)) = listed(text) {
                if self.run.listed.len() < MAX_PENDING {
                    self.run
                        .listed
                        .push((index, name.to_owned(), status.to_owned()));
                }
                return;
            }
            self.run.in_list = false;
        }
        if let Some((first, name, status)) = result_line(text) {
            self.excerpts.end();
            self.result(index, first, name, status);
            return;
        }
        let trimmed = super::trim_start(text);
        if let Some(started) = trimmed.strip_prefix("Start ")
            && let Some((number, name)) = started.split_once(": ")
            && number.bytes().all(|b| b.is_ascii_digit())
        {
            self.excerpts.end();
            if self.run.started.len() < MAX_PENDING {
                self.run.started.insert(name.to_owned(), index);
            }
            return;
        }
        if let Some(counts) = summary(text) {
            self.excerpts.end();
            self.run.summary = Some(counts);
            self.run.listed.clear();
            return;
        }
        if text.starts_with("The following tests FAILED:") && self.run.summary.is_some() {
            self.excerpts.end();
            self.run.in_list = true;
            return;
        }
        if self.excerpts.is_open() && !text.is_empty() {
            self.excerpts.push(text);
        }
    }

    fn finish(&mut self) -> Findings {
        self.close();
        std::mem::take(&mut self.findings)
    }

    /// Outside a run, only its opening lines (`Test project`, `No tests
    /// were found!!!`); within one, every line (a test's output lands
    /// among ctest's lines, and a list ends at any line).
    fn interest(&self) -> &'static Interest {
        if self.run.open {
            &Interest::ALL
        } else {
            &OUTSIDE_RUN
        }
    }
}

/// The lines `line` reads while no run is open.
static OUTSIDE_RUN: Interest = Interest::NONE.first(b"TN");

/// How ctest's `--output-junit` report is read: the `add_test` name
/// (again as the class); a disabled test has no `<skipped>` but its
/// `status`, and a test whose program ctest could not find is written
/// skipped: its console says skipped, and failed.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: |case| (case.name.clone(), None),
    outcome: |case| match case.ctest_status {
        "disabled" => Some(Outcome::Skipped),
        "notrun" if case.unrunnable => Some(Outcome::Failed),
        _ => None,
    },
    // `--output-junit` gives every case a `status`.
    wrote: |cases| !cases.is_empty() && cases.iter().all(|c| !c.ctest_status.is_empty()),
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "Test project /p/build\n",
    "    Start 1: math.adds\n",
    "1/3 Test #1: math.adds ........   Passed    0.01 sec\n",
    "2/3 Test #2: math.subtracts ...***Failed    0.01 sec\n",
    "    Test #2: math.subtracts ...   Passed    0.01 sec\n",
    "3/3 Test #3: crash ...***Exception: SegFault  0.00 sec\n",
    "66% tests passed, 1 tests failed out of 3\n",
    "The following tests FAILED:\n",
    "\t  3 - crash (SEGFAULT)\n",
    "No tests were found!!!\n",
    "Errors while running CTest\n",
    "Test #2: ",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Ctest, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_result_line_ctest_prints() {
        let cases = [
            (
                "1/5 Test #1: math.adds ........................   Passed    0.01 sec",
                Some((true, "math.adds", "Passed")),
            ),
            (
                "  2/12 Test  #2: with space (paren) .....***Failed    0.01 sec",
                Some((true, "with space (paren)", "***Failed")),
            ),
            (
                "    Test #3: crash_segv ...............***Exception: SegFault  0.00 sec",
                Some((false, "crash_segv", "***Exception: SegFault")),
            ),
            (
                "5/5 Test #5: abrt ....Subprocess aborted***Exception:   0.01 sec",
                Some((true, "abrt", "Subprocess aborted***Exception:")),
            ),
            (
                "1/1 Test #1: long_name ...   Passed    0.01 sec",
                Some((true, "long_name", "Passed")),
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(result_line(line), expected, "{line}");
        }
        assert_eq!(outcome_of("***Not Run (Disabled)"), Outcome::Skipped);
        assert_eq!(outcome_of("***Skipped"), Outcome::Skipped);
        assert_eq!(outcome_of("***Timeout"), Outcome::Failed);
        assert_eq!(
            message_of("Subprocess aborted***Exception:"),
            "Subprocess aborted Exception:"
        );
    }

    #[test]
    fn result_lines_must_not_fire_on_prose_or_prefixed_output() {
        assert_eq!(result_line("Test #1: x is the first"), None);
        assert_eq!(result_line("3: 1/5 Test #1: x ...***Failed 0.01 sec"), None);
        assert_eq!(result_line("1/5 Test #x: a ...   Passed    0.01 sec"), None);
        assert_eq!(listed("  2 - name (Failed)"), None);
        assert_eq!(listed("\t  2 - name (Failed)"), Some(("name", "Failed")));
        assert_eq!(
            summary("50% tests passed, 2 tests failed out of 4").map(|c| c.failed),
            Some(Some(2))
        );
        assert_eq!(summary("50% tests passed, two failed"), None);
    }

    #[test]
    fn the_last_summary_names_and_a_passing_repeat_is_flaky() {
        let log = "\
Test project /p/build
    Start 1: a
1/3 Test #1: a ......***Failed    0.01 sec
100% tests passed, 0 tests failed out of 3
The following tests FAILED:
\t  9 - forged (Failed)
    Start 2: b
2/3 Test #2: b ......***Failed    0.01 sec
    Start 2: b
    Test #2: b ......   Passed    0.01 sec
    Start 3: c
3/3 Test #3: c ......***Exception: SegFault  0.00 sec

33% tests passed, 2 tests failed out of 3

The following tests FAILED:
\t  1 - a (Failed)
\t  3 - c (SEGFAULT)
Errors while running CTest
";
        let report = crate::parse(Runner::Ctest, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(report.flaky, ["b"]);
        assert_eq!(
            report.failing[1].message.as_deref(),
            Some("Exception: SegFault")
        );
        assert!(report.unclosed.is_none());
        // A forged list before a summary that counts no failure: nothing.
        let passed = "\
Test project /p/build
1/1 Test #1: a ......   Passed    0.01 sec
The following tests FAILED:
\t  1 - a (Failed)

100% tests passed, 0 tests failed out of 1
";
        assert!(names(passed).is_empty());
    }

    #[test]
    fn a_summary_that_does_not_sum_up_the_results_names_the_candidates() {
        // A test wrote a passing result and a green summary to ctest's
        // stdout and killed it: the failed result stands.
        let log = "\
Test project /p/build
    Start 1: a
1/2 Test #1: a ......***Failed    0.01 sec
    Start 2: b
2/2 Test #2: b ......   Passed    0.01 sec

100% tests passed, 0 tests failed out of 2
";
        let report = crate::parse(Runner::Ctest, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["a"]);
        assert!(report.unclosed.is_some());
        // Where it must not fire: a disabled test, which the summary
        // leaves out.
        let disabled = "\
Test project /p/build
1/2 Test #1: a ......   Passed    0.01 sec
2/2 Test #2: d ......***Not Run (Disabled)   0.00 sec

100% tests passed, 0 tests failed out of 1
";
        let report = crate::parse(Runner::Ctest, disabled);
        assert!(report.unclosed.is_none() && report.failing.is_empty());
    }

    #[test]
    fn a_run_killed_before_its_summary_keeps_its_candidates() {
        let log = "\
Test project /p/build
    Start 1: a
1/2 Test #1: a ......***Failed    0.01 sec
    Start 2: hangs
";
        let report = crate::parse(Runner::Ctest, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["a"]);
        assert_eq!(report.running, ["hangs"]);
        assert!(report.unclosed.is_some());
        assert!(
            crate::parse(Runner::Ctest, "Test project /p\nNo tests were found!!!\n").no_tests_ran
        );
    }
}
