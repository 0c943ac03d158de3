//! `cargo nextest run`: its status lines (`FAIL [ 0.004s] (3/9) demo
//! tests::x`), retries (`TRY 2 FAIL`), signals, timeouts and leaks, and the
//! closing summary with its list of failures.
//!
//! A test that failed in any try is a failing test, also when a retry then
//! passed: testgate's own retries exist to find flaky tests, so a flake is
//! reported, not hidden (nextest itself counts it passed). A run that reaches
//! its `Summary` line is judged by it: a candidate stays if the final list
//! after the summary names it, or if a later try of it passed (a flake); the
//! rest were printed by tests (`--no-capture`) and are dropped.
//!
//! A failing test's captured output, which nextest prints indented under
//! its status line (`  stdout ───`, `  stderr ───`), is its excerpt; the
//! panic it states is its message. Both are given only to failures the
//! summary confirmed.

use std::collections::HashSet;

use super::cargo::{PanicMessage, panic_message};
use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The most tests kept as still running (`SLOW` without a result yet).
const MAX_SLOW: usize = 1024;

/// nextest right-aligns its status words in a field this wide.
const STATUS_WIDTH: usize = 12;

/// Recognises nextest output.
#[derive(Debug, Default)]
pub(crate) struct Nextest {
    findings: Findings,
    run: Run,
    /// The failing tests' captured output, by name.
    excerpts: Excerpts,
    /// The last block line was rust's `thread 'x' panicked at …:`: the
    /// next states the panic.
    after_panic: bool,
}

/// One `cargo nextest run`, from its start to its end (or the next run's start).
#[derive(Debug, Default)]
struct Run {
    /// Tests a status line said failed (in any try), by name and binary id:
    /// candidates until the summary; the failures listed after the summary:
    /// nextest's own word on which failed.
    failures: Scope,
    /// Tests a retry passed (`TRY 2 PASS`): flaky, so failing for us.
    passed_on_retry: HashSet<(String, String)>,
    /// Tests a `FLAKY n/m` line named.
    flaky: HashSet<(String, String)>,
    /// Tests a `SLOW` or `TERMINATING` line named and no result line has
    /// since: running, if the run ends without its summary.
    slow: Vec<(u64, String, String)>,
    /// The summary line has been read; status lines now form the final list.
    summarised: bool,
    /// A `Starting N tests` line opened the run.
    started: bool,
    /// Tests the summary counted as failed (failed, timed out, exec failed).
    summary_failed: u64,
    /// Tests the summary counted as flaky (`5 passed (1 flaky)`): failed,
    /// then passed on a retry.
    summary_flaky: u64,
}

impl Recognizer for Nextest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text: &str = &line.text;
        if self.excerpts.is_open() && self.block_line(text) {
            return;
        }
        match text.as_bytes().first() {
            // Status lines are padded to 12 columns; only statuses of 12 or more
            // characters (`TRY 1 LKFAIL`, `ABORT SIG 64`, `FLAKY 10/10`) start the line.
            Some(b' ' | b'T' | b'A' | b'F') => {}
            Some(b'e') => {
                if text.starts_with("error: no tests to run") {
                    self.detect(line.index);
                    self.findings.no_tests_ran = true;
                }
                return;
            }
            Some(_) | None => return,
        }
        let trimmed = super::trim_start(text);
        if trimmed.starts_with("Nextest run ID ") {
            self.end_run();
            self.detect(line.index);
        } else if let Some(count) = starting_count(trimmed) {
            if self.run.summarised {
                self.end_run();
            }
            self.run.started = true;
            self.detect(line.index);
            if count == 0 {
                self.findings.no_tests_ran = true;
            }
        } else if let Some((counts, flaky)) = summary(text) {
            self.detect(line.index);
            self.run.summary_flaky = flaky;
            if counts.ran() == Some(0) {
                self.findings.no_tests_ran = true;
            }
            self.run.summarised = true;
            self.run.failures.start_list();
            self.run.summary_failed = counts.failed.unwrap_or(0);
            self.findings.counts.add(counts);
        } else if let Some(status) = status_line(text) {
            self.status(line.index, status);
        }
    }

    fn finish(&mut self) -> Findings {
        self.end_run();
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.excerpts.is_open() {
            // A block ends at any line that is not its own.
            &Interest::ALL
        } else if self.run.slow.is_empty() {
            &NEXTEST_LINES
        } else {
            // A status line of any word ends a `SLOW` test's wait.
            &WHILE_SLOW
        }
    }
}

impl Nextest {
    /// A line while a failing test's block is open: its own (indented
    /// output, a `stdout ───` heading, a blank line: kept, `true`), or not
    /// (the block ends, `false`).
    fn block_line(&mut self, text: &str) -> bool {
        if text.trim().is_empty() {
            self.excerpts.push("");
            return true;
        }
        if status_line(text).is_some() || summary(text).is_some() {
            self.excerpts.end();
            return false;
        }
        if let Some(output) = text.strip_prefix("    ") {
            self.excerpt_line(output);
            return true;
        }
        if is_block_heading(text) {
            self.after_panic = false;
            self.excerpts.push(text.trim());
            return true;
        }
        self.excerpts.end();
        false
    }

    /// A line of a test's own output, its message noted where it states
    /// one (libtest's panic, a `#[should_panic]` that returned, an `Err`,
    /// nextest's note of a signal, timeout or leak).
    fn excerpt_line(&mut self, text: &str) {
        if !self.excerpts.has_message() {
            if self.after_panic {
                self.after_panic = false;
                self.excerpts.message(text);
            } else {
                match panic_message(text) {
                    Some(PanicMessage::Inline(message)) => self.excerpts.message(message),
                    Some(PanicMessage::NextLine) => self.after_panic = true,
                    // nextest's own word on a test that did not panic:
                    // `(test aborted with signal 6: SIGABRT)`, `(test timed out)`.
                    None if text.starts_with("(test ") && text.ends_with(')') => {
                        self.excerpts.message(&text[1..text.len() - 1]);
                    }
                    None => {}
                }
            }
        }
        self.excerpts.push(text);
    }

    fn detect(&mut self, index: u64) {
        self.findings.detected(index);
    }

    fn status(&mut self, index: u64, line: StatusLine<'_>) {
        let verdict = verdict(line.status);
        if !self.run.slow.is_empty() && verdict != Some(Verdict::Progress) {
            self.run
                .slow
                .retain(|(_, b, n)| !(b == line.binary && n == line.name));
        }
        let (binary, name) = (line.binary.to_owned(), line.name.to_owned());
        match verdict {
            Some(Verdict::Failed | Verdict::Flaky) => {
                self.detect(index);
                if verdict == Some(Verdict::Flaky) {
                    self.run.flaky.insert((binary.clone(), name.clone()));
                }
                let binary = Some(line.binary);
                if self.run.summarised {
                    self.run.failures.list(index, line.name, binary, Kind::Test);
                } else {
                    self.run
                        .failures
                        .candidate(index, line.name, binary, Kind::Test);
                    // Its captured output follows (a retry's adds to it).
                    self.excerpts.open(line.name);
                    self.after_panic = false;
                }
            }
            Some(Verdict::Passed) => {
                self.detect(index);
                if !self.run.summarised {
                    let binary = Some(line.binary);
                    self.findings
                        .seen
                        .note(index, line.name, binary, Outcome::Passed);
                }
                if line.status.starts_with("TRY ") && !self.run.summarised {
                    self.run.passed_on_retry.insert((binary, name));
                }
            }
            Some(Verdict::Progress) => {
                self.detect(index);
                if line.status == "SKIP" && !self.run.summarised {
                    let binary = Some(line.binary);
                    self.findings
                        .seen
                        .note(index, line.name, binary, Outcome::Skipped);
                }
                let still_running = matches!(line.status, "SLOW" | "TERMINATING" | "TRMNTG")
                    || line.status.ends_with(" TRMNTG");
                let known = self
                    .run
                    .slow
                    .iter()
                    .any(|(_, b, n)| *b == binary && *n == name);
                // At most MAX_SLOW kept: a forged flood of SLOW lines
                // cannot make each later line scan a long list.
                if still_running && !known && !self.run.summarised && self.run.slow.len() < MAX_SLOW
                {
                    self.run.slow.push((index, binary, name));
                }
            }
            None => {}
        }
    }

    /// Ends the run being read: the summary, when there was one, confirms
    /// or drops its candidates.
    fn end_run(&mut self) {
        let mut run = std::mem::take(&mut self.run);
        if run.started && !run.summarised {
            self.findings
                .unclosed
                .get_or_insert_with(|| "a nextest run ended without its `Summary` line".to_owned());
            self.findings.running.extend(
                run.slow
                    .iter()
                    .map(|(index, _, name)| (*index, name.clone())),
            );
        }
        // A test that failed and then passed on a retry is a failure for
        // testgate, though nextest's summary counts it passed.
        // A set, not a scan: a run can name a hundred thousand tests.
        let mut flaky: HashSet<(String, String)> = HashSet::new();
        for (index, name, binary) in run.failures.names() {
            let key = (binary.unwrap_or_default().to_owned(), name.to_owned());
            let retried = run.passed_on_retry.contains(&key) || run.flaky.contains(&key);
            if retried && !flaky.contains(&key) {
                self.findings.flaky.push((index, key.1.clone()));
                flaky.insert(key);
            }
        }
        // Flaky tests the summary counts but no line named (a status level
        // that hides `TRY n` lines, `--status-level fail`): each is a
        // failure a retry hid, counted without a name.
        let named = u64::try_from(flaky.len()).unwrap_or(u64::MAX);
        self.findings.reruns = self
            .findings
            .reruns
            .saturating_add(run.summary_flaky.saturating_sub(named));
        for (binary, name) in &flaky {
            run.failures.make_certain(name, Some(binary));
        }
        let judgement = if !run.summarised {
            Judgement::Unjudged
        } else if !run.failures.listed_any() && run.summary_failed > 0 {
            // Failures counted but none listed (the log was cut after the
            // summary line): the summary says nothing of which.
            Judgement::Unjudged
        } else {
            Judgement::Listed
        };
        for confirmed in run.failures.close(judgement) {
            let (message, excerpt) = self.excerpts.take(&confirmed.name);
            let test = FailingTest::new(confirmed.name, Runner::Nextest, confirmed.context)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        self.excerpts.clear();
    }
}

/// What a status word says of its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Failed, aborted, timed out or leaked under a failing leak policy.
    Failed,
    /// Failed then passed on a retry: a failure for testgate.
    Flaky,
    /// Passed (a leak or timeout the profile lets pass included).
    Passed,
    /// Still running or skipped: `SLOW`, `TERMINATING`, `START`, `SKIP`.
    Progress,
}

/// A parsed nextest status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StatusLine<'a> {
    /// The status word(s), `TRY n ` included.
    status: &'a str,
    /// The binary id: `demo`, `demo::it`, `my-crate::bin/tool`.
    binary: &'a str,
    /// The test name within the binary: the canonical name.
    name: &'a str,
}

/// A nextest status line: the status right-aligned in 12 columns, the time
/// in brackets, an optional counter in parentheses, the binary id and the
/// test name. The fixed alignment tells it apart from output a test printed
/// indented (nextest indents captured output) or at the start of a line.
fn status_line(text: &str) -> Option<StatusLine<'_>> {
    // Cheap rejection first: an indented status line is padded to exactly
    // the width, so its first ` [` is right there (go's and pytest's
    // indented lines end here).
    if text.starts_with(' ')
        && text.as_bytes().get(STATUS_WIDTH..STATUS_WIDTH + 2) != Some(b" [".as_slice())
    {
        return None;
    }
    let open = super::find(text, " [")?;
    let head = text.get(..open)?;
    let status = head.trim_start();
    let aligned =
        head.len() == STATUS_WIDTH || (status.len() > STATUS_WIDTH && head.len() == status.len());
    if !aligned || status.is_empty() || !status.bytes().all(is_status_byte) {
        return None;
    }
    let rest = text.get(open + 2..)?;
    let (time, rest) = rest.split_once(']')?;
    if !time.bytes().all(|b| b" >.0123456789hms".contains(&b)) {
        return None;
    }
    let mut rest = rest.trim_start();
    if rest.starts_with('(') {
        rest = rest.split_once(')')?.1.trim_start();
    }
    let (binary, name) = rest.split_once(' ')?;
    let name = name.trim();
    if binary.is_empty() || name.is_empty() {
        return None;
    }
    Some(StatusLine {
        status,
        binary,
        name,
    })
}

/// nextest's heading of a captured stream, `  stdout ───`, `  stderr ───`
/// or `  output ───` (the two combined), `───` drawn as `---` where the
/// terminal has no Unicode.
fn is_block_heading(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("  ") else {
        return false;
    };
    let rest = rest.trim_end();
    ["stdout", "stderr", "output"].iter().any(|stream| {
        rest.strip_prefix(stream)
            .and_then(|rule| rule.strip_prefix(' '))
            .is_some_and(|rule| !rule.is_empty() && rule.chars().all(|c| c == '─' || c == '-'))
    })
}

fn is_status_byte(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit() || b" +-/".contains(&b)
}

/// What a status word says, or `None` for a word nextest does not print
/// for tests. Long forms (`LEAK-FAIL`, `TIMEOUT`, `SIGSEGV`) appear without
/// retries; the short forms (`LKFAIL`, `TMT`, `SEGV`) after `TRY n`.
fn verdict(status: &str) -> Option<Verdict> {
    let (tried, status) = match status.strip_prefix("TRY ") {
        Some(rest) => {
            let (n, word) = rest.split_once(' ')?;
            n.parse::<u32>().ok()?;
            (true, word)
        }
        None => (false, status),
    };
    let words: Vec<&str> = status.split(' ').collect();
    let number = |s: &str| s.parse::<u32>().is_ok();
    match words.as_slice() {
        ["FAIL"]
        | ["FAIL", "+", "LEAK"]
        | ["FL+LK"]
        | ["XFAIL"]
        | ["LEAK-FAIL"]
        | ["LKFAIL"]
        | ["TIMEOUT"]
        | ["TMT"]
        | ["ABORT"] => Some(Verdict::Failed),
        ["ABORT", "SIG", n] | ["SIG", n] if number(n) => Some(Verdict::Failed),
        ["PASS"] | ["LEAK"] | ["TIMEOUT-PASS"] | ["TMPASS"] => Some(Verdict::Passed),
        ["SLOW"] | ["TERMINATING"] | ["TRMNTG"] | ["START"] | ["SKIP"] | ["RETRY"] => {
            Some(Verdict::Progress)
        }
        ["FLAKY" | "FLKY-FL", count] if !tried => {
            let (attempt, total) = count.split_once('/')?;
            (number(attempt) && number(total)).then_some(Verdict::Flaky)
        }
        [name] if !tried => name
            .strip_prefix("SIG")
            .filter(|signal| is_signal(signal))
            .map(|_| Verdict::Failed),
        [name] => is_signal(name).then_some(Verdict::Failed),
        _ => None,
    }
}

/// A Unix signal's name without `SIG`, as nextest prints an abort.
fn is_signal(name: &str) -> bool {
    matches!(
        name,
        "HUP"
            | "INT"
            | "QUIT"
            | "ILL"
            | "TRAP"
            | "ABRT"
            | "IOT"
            | "BUS"
            | "FPE"
            | "KILL"
            | "USR1"
            | "SEGV"
            | "USR2"
            | "PIPE"
            | "ALRM"
            | "TERM"
            | "STKFLT"
            | "CHLD"
            | "CONT"
            | "STOP"
            | "TSTP"
            | "TTIN"
            | "TTOU"
            | "URG"
            | "XCPU"
            | "XFSZ"
            | "VTALRM"
            | "PROF"
            | "WINCH"
            | "IO"
            | "PWR"
            | "SYS"
            | "EMT"
            | "INFO"
    )
}

/// `N` of nextest's `Starting N tests across M binaries`.
fn starting_count(trimmed: &str) -> Option<u64> {
    let rest = trimmed.strip_prefix("Starting ")?;
    let (n, rest) = rest.split_once(' ')?;
    if !(rest.starts_with("tests across ") || rest.starts_with("test across ")) {
        return None;
    }
    n.parse().ok()
}

/// The counts of nextest's closing line, `Summary [ 0.124s] 9 tests run: 5
/// passed (1 flaky), 4 failed, 1 timed out, 1 skipped`, and its flaky
/// count. Timed out and exec failed tests count as failed, not run ones
/// (after a failure with fail-fast) as skipped.
fn summary(text: &str) -> Option<(Counts, u64)> {
    let trimmed = super::trim_start(text);
    if text.len() - trimmed.len() + "Summary".len() != STATUS_WIDTH {
        return None;
    }
    let rest = trimmed.strip_prefix("Summary [")?;
    let (_, rest) = rest.split_once("] ")?;
    let (_, counts) = rest.split_once(" run: ")?;
    let mut found = Counts::default();
    let add = |slot: &mut Option<u64>, n: u64| *slot = crate::report::sum(*slot, Some(n));
    for part in without_parentheses(counts).split(", ") {
        let Some((n, what)) = part.trim().split_once(' ') else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else {
            continue;
        };
        match what.trim() {
            "passed" => add(&mut found.passed, n),
            "failed" | "timed out" | "exec failed" => add(&mut found.failed, n),
            "skipped" | "not run" => add(&mut found.skipped, n),
            _ => {}
        }
    }
    Some((found, flaky_count(counts)))
}

/// The `N flaky` of the aside after `passed` (`5 passed (1 flaky, 1
/// leaky)`), 0 without one.
fn flaky_count(counts: &str) -> u64 {
    let Some((_, aside)) = counts.split_once(" passed (") else {
        return 0;
    };
    let aside = aside.split(')').next().unwrap_or_default();
    aside
        .split(", ")
        .find_map(|part| part.trim().strip_suffix(" flaky")?.parse().ok())
        .unwrap_or(0)
}

/// `text` without its parenthesised asides: `5 passed (1 flaky, 1 leaky)`
/// holds commas of its own.
fn without_parentheses(text: &str) -> String {
    let mut depth = 0u32;
    text.chars()
        .filter(|c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
        .collect()
}

/// The lines read: status words of 12 or more characters, `error: no tests
/// to run`, and indented lines whose first word may be a status word nextest
/// prints (all start with a capital), `Nextest run ID`, `Starting` or
/// `Summary`.
static NEXTEST_LINES: Interest = Interest::NONE
    .first(b"TAFe")
    .indented_range(b'A', b'Z')
    .indented_unicode_space();

/// As [`NEXTEST_LINES`], while a test is still running (`SLOW`): also
/// status lines whose word is none nextest prints (`[0-9+-/]` first).
static WHILE_SLOW: Interest = NEXTEST_LINES.indented_range(b'0', b'9').indented(b"+-/");

/// How nextest's JUnit report (a profile's `junit`) is read: its root
/// `nextest-run`, a test named in its binary; its console prints a flaky
/// test's failed try as a failure, and its parser keeps it in `failing`:
/// so does its report's.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    roots: &["nextest-run"],
    name: crate::junit_case::Case::in_classname_or_suite,
    flaky_failing: true,
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn names(log: &str) -> Vec<String> {
        parse(Runner::Nextest, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn status_line_reads_real_lines() {
        assert_eq!(
            status_line("        FAIL [   0.010s] (3/9) demo tests::must_panic"),
            Some(StatusLine {
                status: "FAIL",
                binary: "demo",
                name: "tests::must_panic"
            })
        );
        assert_eq!(
            status_line(
                "TRY 3 LKFAIL [   0.115s] ( 8/10) nextest-demo::leaky leaks_and_fails_by_policy"
            )
            .map(|s| (s.status, s.binary)),
            Some(("TRY 3 LKFAIL", "nextest-demo::leaky"))
        );
        assert_eq!(
            status_line("        SLOW [>  0.500s] (───) nextest-demo::slow sleeps_too_long")
                .map(|s| s.status),
            Some("SLOW")
        );
        assert_eq!(
            status_line("       START [         ] (1/2) nextest-demo tests::doubles")
                .map(|s| s.name),
            Some("tests::doubles")
        );
        // Older nextest: no counter.
        assert_eq!(
            status_line("        FAIL [   0.004s] my-crate tests::x").map(|s| s.name),
            Some("tests::x")
        );
    }

    #[test]
    fn status_line_must_not_fire_off_its_column() {
        // A test's own output, printed at the start of a line or indented
        // by nextest's captured-output block.
        assert_eq!(status_line("FAIL [   0.001s] demo::fake fake"), None);
        assert_eq!(status_line("            FAIL [   0.001s] demo fake"), None);
        assert_eq!(status_line("        fail [   0.001s] demo fake"), None);
        assert_eq!(status_line("        FAIL [ see below] demo fake"), None);
        assert_eq!(status_line("        FAIL [   0.001s] (1/2) demo"), None);
    }

    #[test]
    fn verdict_of_every_status() {
        for failed in [
            "FAIL",
            "FAIL + LEAK",
            "LEAK-FAIL",
            "TIMEOUT",
            "SIGSEGV",
            "SIGABRT",
            "ABORT",
            "ABORT SIG 64",
            "XFAIL",
            "TRY 1 FAIL",
            "TRY 2 FL+LK",
            "TRY 1 LKFAIL",
            "TRY 3 TMT",
            "TRY 1 SEGV",
            "TRY 2 ABRT",
            "TRY 2 SIG 64",
        ] {
            assert_eq!(verdict(failed), Some(Verdict::Failed), "{failed}");
        }
        assert_eq!(verdict("FLAKY 2/3"), Some(Verdict::Flaky));
        for passed in [
            "PASS",
            "LEAK",
            "TIMEOUT-PASS",
            "TRY 2 PASS",
            "TRY 1 TMPASS",
            "TRY 2 LEAK",
        ] {
            assert_eq!(verdict(passed), Some(Verdict::Passed), "{passed}");
        }
        for progress in ["SLOW", "TERMINATING", "TRY 1 TRMNTG", "START", "SKIP"] {
            assert_eq!(verdict(progress), Some(Verdict::Progress), "{progress}");
        }
    }

    #[test]
    fn verdict_must_not_fire_on_other_words() {
        // Not statuses: nextest's own headings, or a bare signal without TRY.
        for other in [
            "Summary",
            "Starting",
            "SEGV",
            "SIGNAL",
            "TRY x FAIL",
            "FLAKY",
            "TRY 2 FLAKY 2/3",
            "SIG x",
        ] {
            assert_eq!(verdict(other), None, "{other}");
        }
    }

    #[test]
    fn summary_counts() {
        let counts = summary(
            "     Summary [   5.368s] 10 tests run: 5 passed (1 flaky, 1 leaky), 4 failed (1 due to being leaky), 1 timed out, 0 skipped",
        );
        assert_eq!(counts.map(|(_, flaky)| flaky), Some(1));
        let counts = counts.map(|(counts, _)| counts);
        assert_eq!(
            counts,
            Some(Counts {
                passed: Some(5),
                failed: Some(5),
                skipped: Some(0)
            })
        );
        let fail_fast =
            summary("     Summary [   0.034s] 3/9 tests run: 2 passed, 1 failed, 1 skipped");
        assert_eq!(fail_fast.and_then(|(c, _)| c.failed), Some(1));
        // Not nextest's summary: misaligned, or prose.
        assert_eq!(summary("Summary [   0.034s] 3/9 tests run: 2 passed"), None);
        assert_eq!(summary("     Summary of the changes"), None);
    }

    #[test]
    fn starting_count_reads_nextest_only() {
        assert_eq!(starting_count("Starting 0 tests across 1 binary"), Some(0));
        assert_eq!(
            starting_count("Starting 1 test across 1 binary (4 binaries skipped)"),
            Some(1)
        );
        assert_eq!(starting_count("Starting server"), None);
        assert_eq!(
            starting_count("Starting 99999999999999999999999 tests across 1 binary"),
            None
        );
    }

    /// Hand-made from `flaky_only.log` (a real run) with its `TRY` lines
    /// removed, as `--status-level fail` hides a retried pass's lines:
    /// the summary's `(1 flaky)` alone is a failure a retry hid.
    #[test]
    fn a_flake_only_the_summary_counts_is_a_rerun() {
        let log = "
    Starting 1 test across 1 binary (1 test skipped)
────────────
     Summary [   0.013s] 1 test run: 1 passed (1 flaky), 1 skipped
";
        let report = parse(crate::Format::Auto, log);
        assert_eq!(report.reruns, 1);
        assert!(report.flaky.is_empty());
        // Named by its lines, a flaky test is not counted twice.
        let named = "
    Starting 1 test across 1 binary
  TRY 1 FAIL [   0.026s] (───) demo::flaky fails_once
  TRY 2 PASS [   0.025s] (1/1) demo::flaky fails_once
────────────
     Summary [   0.075s] 1 test run: 1 passed (1 flaky), 0 skipped
";
        let report = parse(crate::Format::Auto, named);
        assert_eq!((report.reruns, report.flaky.len()), (0, 1));
        // Leaky is not flaky.
        let leaky = "     Summary [   0.1s] 2 tests run: 2 passed (1 leaky), 0 skipped\n";
        assert_eq!(parse(Runner::Nextest, leaky).reruns, 0);
    }

    #[test]
    fn a_flake_is_a_failure() {
        let log = "
    Starting 1 test across 1 binary
  TRY 1 FAIL [   0.026s] (───) demo::flaky fails_once
  TRY 2 PASS [   0.025s] (1/1) demo::flaky fails_once
────────────
     Summary [   0.075s] 1 test run: 1 passed (1 flaky), 0 skipped
";
        let report = parse(crate::Format::Auto, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["fails_once"]);
        assert_eq!(report.failing[0].context.as_deref(), Some("demo::flaky"));
        assert_eq!(report.counts.passed, Some(1));
    }

    #[test]
    fn the_summary_drops_a_liar() {
        let log = "
    Starting 1 test across 1 binary
       START [         ] (1/1) demo tests::liar
        FAIL [   0.001s] demo fake
        PASS [   0.007s] (1/1) demo tests::liar
────────────
     Summary [   0.015s] 1 test run: 1 passed, 0 skipped
";
        assert!(names(log).is_empty());
    }

    #[test]
    fn the_final_list_confirms() {
        let log = "
    Starting 2 tests across 1 binary
        FAIL [   0.001s] demo fake
        FAIL [   0.010s] (1/2) demo tests::real
────────────
     Summary [   0.015s] 2 tests run: 1 passed, 1 failed, 0 skipped
        FAIL [   0.010s] (1/2) demo tests::real
error: test run failed
";
        assert_eq!(names(log), ["tests::real"]);
    }

    #[test]
    fn no_final_list_keeps_candidates() {
        // final-status-level = "none": the summary counts a failure but
        // lists none, so the candidates cannot be judged.
        let log = "
        FAIL [   0.010s] (1/1) demo tests::real
     Summary [   0.015s] 1 test run: 0 passed, 1 failed, 0 skipped
";
        assert_eq!(names(log), ["tests::real"]);
    }

    #[test]
    fn truncated_run_keeps_candidates() {
        let log = "    Starting 2 tests across 1 binary\n  TRY 1 SEGV [   0.010s] (───) demo tests::crash\n";
        assert_eq!(names(log), ["tests::crash"]);
    }

    #[test]
    fn no_tests() {
        let log = "    Starting 0 tests across 1 binary\n────────────\n     Summary [   0.000s] 0 tests run: 0 passed, 0 skipped\nerror: no tests to run\n";
        let report = parse(crate::Format::Auto, log);
        assert_eq!(report.format, Some(Runner::Nextest));
        assert!(report.no_tests_ran);
    }

    #[test]
    fn libtest_lines_are_not_nextest() {
        let log = "running 1 test\ntest a ... FAILED\nFAIL [   0.001s] demo::fake fake\n";
        assert_eq!(parse(Runner::Nextest, log).format, None);
    }

    /// Pieces of real lines, cut where a chunk or a truncation could cut them.
    const PIECES: &[&str] = &[
        "    Starting 1 test across 1 binary\n",
        "    Starting 0 tests across 1 binary\n",
        "        FAIL [   0.010s] (1/2) demo a\n",
        "  TRY 1 FAIL [   0.010s] (───) demo b\n",
        "  TRY 2 PASS [   0.010s] (1/2) demo b\n",
        "   FLAKY 2/2 [   0.010s] demo b\n",
        "     SIGSEGV [   0.010s] demo c\n",
        "TRY 1 LKFAIL [ ",
        "     Summary [   0.1s] 2 tests run: 1 passed (1 flaky), 1 failed, 0 skipped\n",
        "     Summary [   0.1s] 9 tests run: 99999999999999999999999 passed\n",
        "error: no tests to run\n",
        " Nextest run ID x\n",
        "\n",
        "(",
        ")",
        " [",
        "]",
        "\u{1b}[1m",
    ];

    fn piece() -> impl proptest::strategy::Strategy<Value = String> {
        super::super::testing::piece(PIECES)
    }

    proptest::proptest! {
        #[test]
        /// Any mix of real and random pieces: no panic, and the same report
        /// fed in chunks as whole.
        fn never_panics(pieces in proptest::collection::vec(piece(), 0..60)) {
            super::super::testing::chunked_equals_whole(Runner::Nextest, &pieces.concat())?;
        }
    }
}
