//! pytest's terminal output (also with pytest-xdist, `-q`, `-v`, `-rA`).
//!
//! Names come from two places only: the `short test summary info` section
//! (`FAILED <node id> - <message>`, `ERROR <node id>`) and the verbose result
//! lines (`<node id> FAILED [ 50%]`, xdist's `[gw0] [ 50%] FAILED <node id>`).
//! Where a session prints its short summary, that summary is the authority
//! and the verbose lines of the session are dropped: a test run with `-s`
//! can print anything, also a fake summary header, into the progress output,
//! but the last summary of a session is pytest's own.
//!
//! A failed subtest (unittest's `subTest`, pytest's `subtests` fixture:
//! `SUBFAILED(i=1) <node id> - <message>` in the summary, `<node id>
//! SUBFAILED(i=1)` or xdist's `[gw0] [ 50%] SUBFAILED(i=1) <node id>` on a
//! verbose line) fails its test, whose own line may say PASSED (unittest's
//! does): the test is a failing name of the session, by the same rule as a
//! `FAILED` entry.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::scope::{Confirmed, Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// Recognises pytest output.
#[derive(Debug, Default)]
pub(crate) struct Pytest {
    findings: Findings,
    session: Session,
    /// Inside a `short test summary info` section.
    in_summary: bool,
    /// Inside the `FAILURES` or `ERRORS` section, whose `____ name ____`
    /// parts are each test's own output.
    in_failures: bool,
    /// Those parts, by the name in their header (pytest's headline:
    /// `TestClass.test_x[1]`, not the node id).
    excerpts: Excerpts,
}

/// What one pytest session (header to closing line) said so far.
#[derive(Debug, Default)]
struct Session {
    /// Failing ids from verbose result lines: the candidates. The failing
    /// ids of the session's latest short summary section: pytest's list.
    failures: Scope,
    /// Ids a verbose `RERUN` line named (pytest-rerunfailures), with the
    /// line: flaky unless they failed in the end.
    rerun: Vec<(u64, String)>,
    /// The last line was a verbose test id without its status (`-v`
    /// prints the id, runs the test, then the status): the test running.
    running: Option<(u64, String)>,
    /// After a `test session starts` header: only then are verbose result
    /// lines read, so that another runner's `... FAILED` lines before it
    /// never count.
    open: bool,
    /// A summary's `SUBFAILED` entry named no test on its own line: its
    /// description held a line break, and the next line of the section
    /// that names one ends it.
    subfailed_open: bool,
}

impl Pytest {
    fn detected(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// Ends the current session: its short summary, where it printed one,
    /// replaces its verbose lines. `complete` is false when the log stopped
    /// before the closing line: then the verbose candidates a cut summary
    /// may be missing are kept too.
    fn end_session(&mut self, complete: bool) {
        let session = std::mem::take(&mut self.session);
        if session.open && !complete {
            // A test that calls `os._exit(0)` ends pytest with status 0 and
            // no closing line: only the missing line tells.
            self.findings.unclosed.get_or_insert_with(|| {
                "a pytest session ended without its closing `N passed in Xs` line".to_owned()
            });
        }
        self.in_summary = false;
        if !complete {
            self.findings.running.extend(session.running);
        }
        // The last short summary of a session that closed is pytest's own
        // list; a session cut off may have lost part of it.
        let judgement = if complete && session.failures.has_list() {
            Judgement::Listed
        } else {
            Judgement::Unjudged
        };
        let confirmed = session.failures.close(judgement);
        if complete {
            let failed: HashSet<&str> = confirmed.iter().map(|c| c.name.as_str()).collect();
            let mut seen = HashSet::new();
            for (index, name) in &session.rerun {
                if !failed.contains(name.as_str()) && seen.insert(name) {
                    self.findings.flaky.push((*index, name.clone()));
                }
            }
        }
        for Confirmed { index, name, .. } in confirmed {
            let (message, excerpt) = self.excerpts.take(&headline(&name));
            let context = Some(test_file(&name).to_owned());
            // `ERROR tests/test_x.py`: the file did not collect.
            let kind = if name.contains("::") {
                Kind::Test
            } else {
                Kind::File
            };
            let test = FailingTest::new(name, Runner::Pytest, context)
                .with_kind(kind)
                .with_output(message, excerpt);
            self.findings.fail(index, test);
        }
        self.excerpts.clear();
        self.in_failures = false;
    }

    /// A summary's `SUBFAILED` entry (`rest` what follows the word), or the
    /// rest of one whose description a line break cut: each test it may
    /// name failed. True when it named one.
    fn subfailed_entry(&mut self, index: u64, rest: &str) -> bool {
        let parents = subtest_parents(rest);
        for id in &parents {
            let context = Some(test_file(id));
            self.findings.seen.note(index, id, context, Outcome::Failed);
            self.session.failures.list(index, id, None, Kind::Test);
        }
        self.session.subfailed_open = parents.is_empty();
        !parents.is_empty()
    }

    /// Reads a short summary entry; false when the line is not one.
    fn summary_entry(&mut self, line: &Line<'_>) -> bool {
        let text = &*line.text;
        if let Some(rest) = text.strip_prefix("SUBFAILED") {
            self.subfailed_entry(line.index, rest);
            return true;
        }
        let (word, rest) = match text.split_once(' ') {
            Some((word @ ("FAILED" | "ERROR" | "PASSED" | "XFAIL" | "XPASS"), rest)) => {
                (word, rest)
            }
            Some(_) | None => {
                return self.session.subfailed_open && self.subfailed_entry(line.index, text);
            }
        };
        self.session.subfailed_open = false;
        let known = self.session.failures.candidate_names();
        let id = summary_entry_id(rest, known);
        if id.is_empty() {
            return true;
        }
        let outcome = match word {
            "PASSED" => Outcome::Passed,
            "XFAIL" => Outcome::XFailed,
            "XPASS" => Outcome::XPassed,
            "ERROR" => Outcome::Error,
            _ => Outcome::Failed,
        };
        let context = Some(test_file(id));
        self.findings.seen.note(line.index, id, context, outcome);
        if outcome.is_failure() {
            self.session.failures.list(line.index, id, None, Kind::Test);
        }
        true
    }
}

impl Pytest {
    /// A `=====` separator line: a session's start, its summary, its
    /// closing statistics, or a section (`FAILURES`, `ERRORS`).
    fn separator_line(&mut self, index: u64, text: &str) {
        let Some(title) = separator_title(text) else {
            return;
        };
        self.excerpts.end();
        // `-q` prints no session header: the section counts outside one.
        self.in_failures = title == "FAILURES" || title == "ERRORS";
        if title == "test session starts" {
            // A session still open here was cut off before its closing
            // line (killed, timed out): keep all it named.
            self.end_session(false);
            self.detected(index);
            self.session.open = true;
        } else if title == "short test summary info" {
            self.detected(index);
            // A second header in one session means the first was printed
            // by a test (`-s`): only pytest's own, the last, counts.
            self.session.failures.start_list();
            self.in_summary = true;
        } else if let Some(stats) = closing_stats(title) {
            self.detected(index);
            self.count(stats);
            self.end_session(true);
        } else {
            self.in_summary = false;
        }
    }

    /// A line of an open session outside its summary: a verbose result,
    /// a rerun, a test started.
    fn session_line(&mut self, index: u64, text: &str) {
        // Where the status word ends, found once for the readings below.
        let status = before_percentage(text);
        if let Some(id) = verbose_failure_in(text, status) {
            let outcome = if verbose_error(text, id) {
                Outcome::Error
            } else {
                Outcome::Failed
            };
            let context = Some(test_file(id));
            self.findings.seen.note(index, id, context, outcome);
            self.session.failures.candidate(index, id, None, Kind::Test);
        } else if let Some(parents) = verbose_subfailure(text, status) {
            for id in parents {
                let context = Some(test_file(id));
                self.findings.seen.note(index, id, context, Outcome::Failed);
                self.session.failures.candidate(index, id, None, Kind::Test);
            }
        } else if let Some((id, outcome)) = self.passing_result(text) {
            let context = Some(test_file(id));
            self.findings.seen.note(index, id, context, outcome);
        } else if let Some(id) = verbose_rerun(text, status) {
            self.session.rerun.push((index, id.to_owned()));
        } else if let Some(id) = verbose_started(text) {
            self.session.running = Some((index, id.to_owned()));
        }
    }
}

impl Recognizer for Pytest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let Some(first) = text.bytes().next() else {
            if self.in_failures {
                self.excerpts.push(text);
            }
            return;
        };
        if first == b'=' {
            self.separator_line(line.index, text);
            return;
        }
        // `-q` prints the closing line bare, without the `=` rule.
        if (first.is_ascii_digit() || first == b'n')
            && let Some(stats) = closing_stats(text)
        {
            self.detected(line.index);
            self.count(stats);
            self.end_session(true);
            return;
        }
        if self.in_summary {
            if first == b'!' {
                // `!!! Interrupted: 1 error during collection !!!`
                self.in_summary = false;
            } else if !self.summary_entry(line) && self.session.open {
                // A test's printed summary header (`-s`) opens no real
                // section: the verbose results that follow still count.
                if let Some((id, outcome)) = verbose_result(text) {
                    let context = Some(test_file(id));
                    self.findings.seen.note(line.index, id, context, outcome);
                }
            }
            return;
        }
        if self.in_failures {
            self.failures_line(text);
        }
        if !self.session.open {
            return;
        }
        if self.session.running.is_some() {
            self.session.running = None;
        }
        self.session_line(line.index, text);
    }

    fn finish(&mut self) -> Findings {
        self.end_session(false);
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.in_summary || self.session.open || self.in_failures {
            // A verbose result or a summary entry starts with any byte.
            &Interest::ALL
        } else {
            &OUTSIDE_SESSION
        }
    }
}

impl Pytest {
    /// A line of the `FAILURES` or `ERRORS` section: a part's header opens
    /// its test's block, any other line is the open block's; its first
    /// `E   ` line is the message.
    fn failures_line(&mut self, text: &str) {
        if let Some(title) = part_title(text) {
            let name = [
                "ERROR at setup of ",
                "ERROR at teardown of ",
                "ERROR collecting ",
            ]
            .iter()
            .find_map(|prefix| title.strip_prefix(prefix))
            .unwrap_or(title);
            self.excerpts.open(name);
            return;
        }
        if !self.excerpts.has_message()
            && let Some(message) = text.strip_prefix("E ")
        {
            self.excerpts.message(message);
        }
        self.excerpts.push(text);
    }

    /// [`verbose_result`], unless the every-test list is full: then the
    /// result would be dropped, so the line is not read for it.
    fn passing_result<'t>(&self, text: &'t str) -> Option<(&'t str, Outcome)> {
        if self.findings.seen.is_full() {
            return None;
        }
        verbose_result(text)
    }

    fn count(&mut self, stats: Stats) {
        self.findings.counts.add(stats.counts);
        self.findings.reruns = self.findings.reruns.saturating_add(stats.reruns);
        self.findings.no_tests_ran |= stats.no_tests_ran;
    }
}

/// The title of a pytest separator line (`==== title ====`), or `None` when
/// the line is not one.
fn separator_title(text: &str) -> Option<&str> {
    let inner = text.trim_start_matches('=').trim_end_matches('=');
    // At least a `= x =` frame on both sides.
    if inner.len() + 2 > text.len() {
        return None;
    }
    inner.strip_prefix(' ')?.strip_suffix(' ')
}

/// The counts of a closing summary, as pytest states them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Stats {
    counts: Counts,
    no_tests_ran: bool,
    /// pytest-rerunfailures' `N rerun`: re-runs of failed tests.
    reruns: u64,
}

/// Reads pytest's closing summary, the `==`-framed title or the bare line of
/// `-q`: `7 failed, 6 passed, 2 skipped, 1 xfailed, 1 xpassed, 2 errors in
/// 0.33s` or `no tests ran in 0.01s`.
///
/// `passed` counts passed and xpassed (non-strict: pytest does not fail the
/// run for them); `failed` counts failed and errors; `skipped` counts
/// skipped, xfailed and deselected. No test ran when pytest says so, or
/// when every test was deselected (pytest exits 5 then).
fn closing_stats(text: &str) -> Option<Stats> {
    static DURATION: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r" in [0-9]+(?:\.[0-9]+)?s(?: \([0-9:]+\))?$").unwrap());
    // Cheap rejection first: the line ends with the duration.
    if !(text.ends_with('s') || text.ends_with(')')) {
        return None;
    }
    let cut = DURATION.find(text)?;
    let items = &text[..cut.start()];
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    let (mut ran, mut known, mut said_none) = (false, false, false);
    let mut reruns = 0u64;
    for item in items.split(", ") {
        if item == "no tests ran" {
            (known, said_none) = (true, true);
            continue;
        }
        let (number, word) = item.split_once(' ')?;
        let n: u64 = number.parse().ok()?;
        let total = match word {
            "passed" | "xpassed" => &mut passed,
            "failed" | "error" | "errors" => &mut failed,
            "skipped" | "xfailed" => &mut skipped,
            "deselected" => {
                skipped = skipped.saturating_add(n);
                known = true;
                continue;
            }
            "warning" | "warnings" => {
                known = true;
                continue;
            }
            "rerun" | "reruns" => {
                reruns = reruns.saturating_add(n);
                continue;
            }
            // Words a plugin adds that are no test outcome (`rerun`).
            _ if word.bytes().all(|b| b.is_ascii_lowercase() || b == b' ') => continue,
            _ => return None,
        };
        *total = total.saturating_add(n);
        (ran, known) = (true, true);
    }
    // A line of only unknown words (`3 files changed in 0.5s`) is not pytest's.
    if !known {
        return None;
    }
    Some(Stats {
        counts: if said_none && !ran {
            Counts::default()
        } else {
            Counts {
                passed: Some(passed),
                failed: Some(failed),
                skipped: Some(skipped),
            }
        },
        no_tests_ran: !ran,
        reruns,
    })
}

/// The node id of a short summary entry, `rest` being what follows
/// `FAILED ` or `ERROR `: `<id>` or `<id> - <message>`.
///
/// The id may itself hold ` - ` inside its parametrize brackets
/// (`test_x[a - b]`), so the split is at the first ` - ` outside brackets.
/// A failing id already seen on a verbose line that `rest` starts with wins
/// (it settles ids with unbalanced brackets).
fn summary_entry_id<'a, 'k>(rest: &'a str, known: impl Iterator<Item = &'k str>) -> &'a str {
    let rest = rest.trim_end();
    let best_known = known
        .filter(|id| {
            rest.strip_prefix(id)
                .is_some_and(|after| after.is_empty() || after.starts_with(" - "))
        })
        .map(str::len)
        .max();
    if let Some(len) = best_known {
        return &rest[..len];
    }
    let mut depth = 0usize;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b' ' if depth == 0 && rest[i..].starts_with(" - ") => return &rest[..i],
            _ => {}
        }
    }
    // Unbalanced brackets: the first `] - ` is the likeliest end of the id.
    match rest.find("] - ") {
        Some(i) => &rest[..=i],
        None => rest,
    }
}

/// Whether a line whose [`before_percentage`] is `status` ends as a `PLAIN`
/// match must: FAILED or ERROR, then perhaps spaces and `[ 50%]`, then
/// perhaps white space. Read from the end, so that the passing lines of
/// `-v` output, nearly all of it, cost a few byte comparisons rather than a
/// search of the whole line.
fn plain_may_fail(status: &[u8]) -> bool {
    status.ends_with(b" FAILED") || status.ends_with(b" ERROR")
}

/// `text` up to its last word, without the progress column (`  [ 50%]`)
/// and trailing white space, as bytes; `text` trimmed when it has no
/// progress column, empty when the column is malformed.
fn before_percentage(text: &str) -> &[u8] {
    let end = text.trim_end().as_bytes();
    let Some(mut at) = end.strip_suffix(b"%]").map(<[u8]>::len) else {
        return end;
    };
    // Back over ` *[0-9]+` to its `[`, then over the spaces before it, byte
    // by byte: the padding is wide, and `trim_end_matches` decodes chars.
    while at > 0 && matches!(end[at - 1], b' ' | b'0'..=b'9') {
        at -= 1;
    }
    if at == 0 || end[at - 1] != b'[' {
        return &[];
    }
    let bracket = at - 1;
    let keyword_end = end[..bracket]
        .iter()
        .rposition(|&b| b != b' ')
        .map_or(0, |i| i + 1);
    if keyword_end == bracket {
        return &[];
    }
    &end[..keyword_end]
}

/// The node id of a verbose result line that says FAILED or ERROR:
/// `tests/a.py::test_x[1] FAILED   [ 50%]` or, with pytest-xdist,
/// `[gw0] [ 50%] FAILED tests/a.py::test_x[1]`. The file part (before the
/// first `::`) holds no space, which keeps libtest's `test a::b ... FAILED`
/// out.
#[cfg(test)]
fn verbose_failure(text: &str) -> Option<&str> {
    verbose_failure_in(text, before_percentage(text))
}

/// [`verbose_failure`], given `text`'s [`before_percentage`].
fn verbose_failure_in<'t>(text: &'t str, status: &[u8]) -> Option<&'t str> {
    static PLAIN: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(\S+?::.*?) (?:FAILED|ERROR)(?: +\[ *[0-9]+%\])?\s*$").unwrap()
    });
    static XDIST: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\[gw[0-9]+\] \[ *[0-9]+%\] (?:FAILED|ERROR) (\S+?::.*?)\s*$").unwrap()
    });
    let regex = if text.starts_with("[gw") {
        // Cheap rejection first: every such line names FAILED or ERROR.
        if super::find(text, " FAILED").is_none() && super::find(text, " ERROR").is_none() {
            return None;
        }
        &XDIST
    } else {
        if !plain_may_fail(status) {
            return None;
        }
        &PLAIN
    };
    Some(regex.captures(text)?.get(1)?.as_str())
}

/// The most tests one `SUBFAILED` line is read as naming: the work per
/// line stays bounded (each is a scan of the line).
const MAX_SUBTEST_PARENTS: usize = 64;

/// The tests a `SUBFAILED` summary entry may name, `rest` being what
/// follows the word: `<description> <node id>` or `… - <message>`, the
/// description `[msg]`, `(k=v, …)`, both, or `(<subtest>)`. The description
/// is the test's own text (it may hold `) a.py::b`), so every place where
/// one can end — a `]` or `)`, a space, then a node id — gives a name: the
/// test's own among them, and at worst a name it made up, which only adds
/// a failure.
fn subtest_parents(rest: &str) -> Vec<&str> {
    let bytes = rest.as_bytes();
    let mut parents = Vec::new();
    for at in memchr::memchr_iter(b' ', bytes) {
        if parents.len() >= MAX_SUBTEST_PARENTS {
            break;
        }
        if at == 0 || !matches!(bytes[at - 1], b']' | b')') {
            continue;
        }
        let Some(after) = rest.get(at + 1..) else {
            continue;
        };
        let id = summary_entry_id(after, std::iter::empty());
        if let Some(id) = node_id(id)
            && !parents.contains(&id)
        {
            parents.push(id);
        }
    }
    parents
}

/// The tests a verbose line of a failed subtest names:
/// `tests/a.py::test_x SUBFAILED(i=1)   [ 50%]`, or with pytest-xdist
/// `[gw0] [ 50%] SUBFAILED(i=1) tests/a.py::test_x`; `None` when the line is
/// not one. `status` is `text`'s [`before_percentage`].
fn verbose_subfailure<'t>(text: &'t str, status: &[u8]) -> Option<Vec<&'t str>> {
    if let Some(rest) = text.strip_prefix("[gw") {
        let (_, rest) = super::split_once(rest, "%] ")?;
        let parents = subtest_parents(rest.strip_prefix("SUBFAILED")?);
        return Some(parents);
    }
    // Cheap rejection first: the description ends the status, with `)`
    // or `]`; a passing line ends with its word.
    if !matches!(status.last(), Some(b')' | b']')) {
        return None;
    }
    let line = without_percentage(text.trim_end());
    // The id comes first and may hold ` SUBFAILED` in its brackets: each
    // place the word follows a node id gives a name.
    let mut parents = Vec::new();
    let mut from = 0;
    while let Some(found) = line.get(from..).and_then(|l| super::find(l, " SUBFAILED")) {
        let at = from + found;
        if let Some(id) = node_id(&line[..at]) {
            parents.push(id);
        }
        from = at + 1;
        if parents.len() >= MAX_SUBTEST_PARENTS {
            break;
        }
    }
    (!parents.is_empty()).then_some(parents)
}

/// A verbose test id with no status after it yet: `tests/a.py::test_x `
/// (pytest `-v` prints the id and a space, runs the test, then its status
/// on the same line). The id holds no space and is all the line holds.
fn verbose_started(text: &str) -> Option<&str> {
    // Cheap rejection first: pytest writes the id and a space, then the
    // status when the test is done; a finished line ends with its status
    // or `[ NN%]`.
    if !text.ends_with(' ') {
        return None;
    }
    let id = text.trim_end();
    // An id holds no space (a result line does, before its status).
    if memchr::memchr(b' ', id.as_bytes()).is_some() {
        return None;
    }
    let at = super::find(id, "::")?;
    let (file, rest) = (&id[..at], &id[at + 2..]);
    (!file.is_empty() && !file.starts_with('[') && !rest.is_empty()).then_some(id)
}

/// Whether the verbose failure line `text`, whose id is `id`, says ERROR
/// (a fixture, setup or teardown) rather than FAILED.
fn verbose_error(text: &str, id: &str) -> bool {
    if text.starts_with("[gw") {
        super::find(text, "] ERROR ").is_some()
    } else {
        text.get(id.len()..)
            .is_some_and(|rest| rest.starts_with(" ERROR"))
    }
}

/// The node id and outcome of a verbose result line that does not fail:
/// `tests/a.py::test_x PASSED [ 50%]`, `… SKIPPED (reason) [ 60%]`, `…
/// XFAIL (reason)`, `… XPASS`, or with pytest-xdist `[gw0] [ 50%] PASSED
/// tests/a.py::test_x`. Read from the end, without a regex: nearly every
/// line of a `-v` log is one.
fn verbose_result(text: &str) -> Option<(&str, Outcome)> {
    const WORDS: [(&str, Outcome); 4] = [
        ("PASSED", Outcome::Passed),
        ("SKIPPED", Outcome::Skipped),
        ("XFAIL", Outcome::XFailed),
        ("XPASS", Outcome::XPassed),
    ];
    if let Some(rest) = text.strip_prefix("[gw") {
        // `[gw0] [ 50%] PASSED tests/a.py::test_x`
        let (_, rest) = super::split_once(rest, "] [")?;
        let (_, rest) = super::split_once(rest, "%] ")?;
        let (word, id) = rest.split_once(' ')?;
        let (_, outcome) = WORDS.iter().find(|(w, _)| *w == word)?;
        return node_id(id.trim_end()).map(|id| (id, *outcome));
    }
    let line = without_percentage(text.trim_end());
    for (word, outcome) in WORDS {
        // `id WORD` or `id WORD (reason)`.
        let at = match line.strip_suffix(word) {
            Some(before) => before.len(),
            None if line.ends_with(')') => {
                let marker = match outcome {
                    Outcome::Skipped => " SKIPPED (",
                    Outcome::XFailed => " XFAIL (",
                    Outcome::XPassed => " XPASS (",
                    Outcome::Passed
                    | Outcome::Failed
                    | Outcome::Error
                    | Outcome::Flaky
                    | Outcome::Running => continue,
                };
                match super::rfind(line, marker) {
                    Some(at) => at + 1,
                    None => continue,
                }
            }
            None => continue,
        };
        let id = line.get(..at)?.strip_suffix(' ')?;
        return node_id(id).map(|id| (id, outcome));
    }
    None
}

/// `line` without pytest's progress column (`  [ 50%]`), trimmed.
fn without_percentage(line: &str) -> &str {
    let Some(body) = line.strip_suffix("%]") else {
        return line;
    };
    let Some(open) = body.rfind('[') else {
        return line;
    };
    let inside = &body[open + 1..];
    if inside.is_empty() || !inside.bytes().all(|b| b == b' ' || b.is_ascii_digit()) {
        return line;
    }
    body[..open].trim_end()
}

/// `id` if it is shaped as a pytest node id: a file part without spaces,
/// `::`, then something.
fn node_id(id: &str) -> Option<&str> {
    let at = super::find(id, "::")?;
    let (file, rest) = (&id[..at], &id[at + 2..]);
    let plain = !file.is_empty() && !file.starts_with('[') && !file.contains(' ');
    (plain && !rest.is_empty()).then_some(id)
}

/// The node id of a verbose `RERUN` line of pytest-rerunfailures:
/// `tests/a.py::test_x RERUN   [ 50%]`, or with pytest-xdist
/// `[gw0] [ 50%] RERUN tests/a.py::test_x`.
fn verbose_rerun<'t>(text: &'t str, status: &[u8]) -> Option<&'t str> {
    static PLAIN: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(\S+?::.*?) RERUN(?: +\[ *[0-9]+%\])?\s*$").unwrap());
    static XDIST: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\[gw[0-9]+\] \[ *[0-9]+%\] RERUN (\S+?::.*?)\s*$").unwrap());
    // Cheap rejection first: every such line says RERUN, a plain one as
    // its last word (read from the end: a search of every passing line
    // cost a tenth of a `-v` log's parse).
    let regex = if text.starts_with("[gw") {
        super::find(text, " RERUN")?;
        &XDIST
    } else {
        if !status.ends_with(b" RERUN") {
            return None;
        }
        &PLAIN
    };
    Some(regex.captures(text)?.get(1)?.as_str())
}

/// The title of a part of the `FAILURES` section: `test_x` of `_____
/// test_x _____`.
fn part_title(text: &str) -> Option<&str> {
    let inner = text.trim_start_matches('_').trim_end_matches('_');
    if inner.len() + 2 > text.len() {
        return None;
    }
    let title = inner.strip_prefix(' ')?.strip_suffix(' ')?;
    (!title.is_empty()).then_some(title)
}

/// The name pytest heads a test's part of `FAILURES` with: the node id
/// past its file, `::` as `.` (`TestC.test_x[1]` of
/// `t.py::TestC::test_x[1]`); a file's id is its own.
fn headline(id: &str) -> std::borrow::Cow<'_, str> {
    match id.split_once("::") {
        Some((_, rest)) if rest.contains("::") => rest.replace("::", ".").into(),
        Some((_, rest)) => rest.into(),
        None => id.into(),
    }
}

/// The file part of a node id: `tests/a.py` of `tests/a.py::T::test[1]`.
fn test_file(id: &str) -> &str {
    id.split_once("::").map_or(id, |(file, _)| file)
}

/// The lines read outside a session: a separator (`=`, then `=` or a
/// space last: `=== RUN` lines are go's), or `-q`'s bare closing line.
static OUTSIDE_SESSION: Interest = Interest::NONE
    .first(b"n")
    .first_range(b'0', b'9')
    .first_ending(b"=", b"= ");

/// How pytest's JUnit report (`--junitxml`) is read: its root `pytest`
/// (or `pytest tests`), a test by its node id; a case with no `::` is a
/// file that did not collect; its `<error>` is an error outside the
/// test's assertions (a fixture), as its console says.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    roots: &["pytest", "pytest tests"],
    name: |case| {
        let id = pytest_id(&case.classname, &case.name, &case.file);
        let file = id.split("::").next().map(str::to_owned);
        (id, file)
    },
    kind: |name| {
        if name.contains("::") {
            Kind::Test
        } else {
            Kind::File
        }
    },
    errors_apart: true,
    ..crate::junit_case::Junit::COMMON
};

/// pytest's node id from its JUnit case: `classname` is the id's path
/// with `/` made `.` and `.py` dropped, then its classes
/// (`tests.test_calc.TestBig`). With a `file` attribute (pytest's xunit1
/// family) the path is known; else the trailing segments that start with
/// an upper-case letter are taken as the classes (pytest's default
/// `python_classes = Test*`).
fn pytest_id(classname: &str, name: &str, file: &str) -> String {
    // A file that did not collect: no classname, the module as the name.
    if classname.is_empty() && !name.contains(['[', ' ', '/']) {
        return format!("{}.py", name.replace('.', "/"));
    }
    let segments: Vec<&str> = classname.split('.').filter(|s| !s.is_empty()).collect();
    let (path, classes): (String, &[&str]) = if !file.is_empty() {
        let module_len = file
            .trim_end_matches(".py")
            .split('/')
            .filter(|s| !s.is_empty())
            .count()
            .min(segments.len());
        (
            file.to_owned(),
            segments.get(module_len..).unwrap_or_default(),
        )
    } else {
        let first_class = segments
            .iter()
            .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
            .unwrap_or(segments.len());
        let module = segments.get(..first_class).unwrap_or_default();
        let path = if module.is_empty() {
            String::new()
        } else {
            format!("{}.py", module.join("/"))
        };
        (path, segments.get(first_class..).unwrap_or_default())
    };
    let mut id = path;
    for part in classes.iter().chain(std::iter::once(&name)) {
        if !id.is_empty() {
            id.push_str("::");
        }
        id.push_str(part);
    }
    id
}

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn pytest_ids_from_classnames() {
        assert_eq!(
            pytest_id("tests.test_calc.TestBig", "test_big_numbers", ""),
            "tests/test_calc.py::TestBig::test_big_numbers"
        );
        assert_eq!(
            pytest_id("tests.test_calc", "test_adds[1-2]", ""),
            "tests/test_calc.py::test_adds[1-2]"
        );
        assert_eq!(
            pytest_id("tests.test_calc.TestBig", "test_x", "tests/test_calc.py"),
            "tests/test_calc.py::TestBig::test_x"
        );
        // A collection error: pytest names the case by the file's module.
        assert_eq!(
            pytest_id("", "tests.test_broken", ""),
            "tests/test_broken.py"
        );
    }

    #[test]
    fn summary_id_splits_outside_brackets() {
        let none = std::iter::empty();
        assert_eq!(
            summary_entry_id("tests/t.py::test_x[a - b] - assert 1 == 2", none),
            "tests/t.py::test_x[a - b]"
        );
        let none = std::iter::empty();
        assert_eq!(
            summary_entry_id(
                "tests/t.py::test_w[with space [and] - dash] - ValueError: boom ...",
                none
            ),
            "tests/t.py::test_w[with space [and] - dash]"
        );
        let none = std::iter::empty();
        assert_eq!(
            summary_entry_id("tests/test_broken.py", none),
            "tests/test_broken.py"
        );
    }

    #[test]
    fn summary_id_does_not_split_inside_brackets_or_message() {
        // ` - ` inside the id's brackets is no split, and a message with
        // brackets and dashes does not move the split.
        let none = std::iter::empty();
        assert_eq!(
            summary_entry_id(
                "t.py::test_y[ünï] - AssertionError: ünïcode - message [x]",
                none
            ),
            "t.py::test_y[ünï]"
        );
        let none = std::iter::empty();
        assert_eq!(
            summary_entry_id("t.py::test_q[a-b]", none),
            "t.py::test_q[a-b]"
        );
    }

    #[test]
    fn summary_id_prefers_a_known_verbose_id() {
        // An id with an unbalanced bracket: depth never returns to zero.
        let known = ["t.py::test_u[a[b]"];
        assert_eq!(
            summary_entry_id("t.py::test_u[a[b] - boom", known.into_iter()),
            "t.py::test_u[a[b]"
        );
        let none = std::iter::empty();
        assert_eq!(
            summary_entry_id("t.py::test_u[a[b] - boom", none),
            "t.py::test_u[a[b]"
        );
        // A known id that is only a prefix of the entry's id must not win.
        let known = ["t.py::test_u"];
        assert_eq!(
            summary_entry_id("t.py::test_u[1] - boom", known.into_iter()),
            "t.py::test_u[1]"
        );
    }

    #[test]
    fn a_failed_subtest_names_its_test() {
        assert_eq!(
            subtest_parents("(i=1) tests/t.py::T::test_a - AssertionError: 1 == 1"),
            ["tests/t.py::T::test_a"]
        );
        assert_eq!(
            subtest_parents("[part] (i=1) t.py::test_b[x - y] - assert 1 == 0"),
            ["t.py::test_b[x - y]"]
        );
        assert_eq!(
            subtest_parents("(<subtest>) t.py::test_c"),
            ["t.py::test_c"]
        );
        // A description the test wrote to name another: both stand, its
        // own among them (from a real run: `self.subTest(x=") t.py::…")`).
        assert_eq!(
            subtest_parents("(x=') t.py::T::test_decoy - ') t.py::T::test_paren"),
            ["t.py::T::test_decoy", "t.py::T::test_paren"]
        );
        // Where it must not fire: no description before the id, no node id.
        assert!(subtest_parents("t.py::test_d - boom").is_empty());
        assert!(subtest_parents("(i=1) no node id here").is_empty());
        assert_eq!(
            verbose_subfailure(
                "t.py::test_e SUBFAILED[part] (i=1)    [ 75%]",
                b"t.py::test_e SUBFAILED[part] (i=1)"
            ),
            Some(vec!["t.py::test_e"])
        );
        let line = "t.py::test_f PASSED                                  [ 75%]";
        assert_eq!(verbose_subfailure(line, before_percentage(line)), None);
    }

    /// A unittest `subTest` that failed under a test whose own line says
    /// PASSED fails that test, whatever order the summary lists them in
    /// (`-rA` lists PASSED entries too), also when its description held a
    /// line break (from a real run's summary).
    #[test]
    fn a_test_whose_subtest_failed_is_failed() {
        let log = "\
============================= test session starts ==============================
t.py::T::test_a PASSED                                                   [ 50%]
t.py::T::test_b PASSED                                                   [100%]
=========================== short test summary info ============================
PASSED t.py::T::test_a
SUBFAILED[a
b] t.py::T::test_decoy] t.py::T::test_b - AssertionError: x
SUBFAILED(i=1) t.py::T::test_a - AssertionError: 1 == 1
PASSED t.py::T::test_a
======================== 2 failed, 2 passed in 0.01s =========================
";
        let report = parse(Runner::Pytest, log);
        let mut names: Vec<&str> = report.names().collect();
        names.sort_unstable();
        assert!(names.contains(&"t.py::T::test_a"), "{names:?}");
        assert!(names.contains(&"t.py::T::test_b"), "{names:?}");
        for test in &report.tests {
            if test.name == "t.py::T::test_a" || test.name == "t.py::T::test_b" {
                assert_eq!(test.outcome, Outcome::Failed, "{}", test.name);
            }
        }
    }

    #[test]
    fn closing_stats_counts() {
        let stats =
            closing_stats("7 failed, 6 passed, 2 skipped, 1 xfailed, 1 xpassed, 2 errors in 0.33s")
                .unwrap();
        assert_eq!(
            stats.counts,
            Counts {
                passed: Some(7),
                failed: Some(9),
                skipped: Some(3)
            }
        );
        assert!(!stats.no_tests_ran);
        let stats = closing_stats("1 passed, 1 warning in 61.20s (0:01:01)").unwrap();
        assert_eq!(stats.counts.passed, Some(1));
        assert!(closing_stats("no tests ran in 0.01s").unwrap().no_tests_ran);
        assert!(closing_stats("3 deselected in 0.01s").unwrap().no_tests_ran);
    }

    #[test]
    fn closing_stats_does_not_fire_on_other_lines() {
        for line in [
            "test result: ok. 1 passed; 0 failed; 0 ignored; finished in 0.00s",
            "Tests:       1 failed, 2 passed, 3 total",
            "2 failed, 5 passed",
            "waited 3 in 0.2s",
            "short test summary info",
            "12 Passed in 0.1s",
            "3 files changed in 0.5s",
        ] {
            assert_eq!(closing_stats(line), None, "{line}");
        }
    }

    #[test]
    fn separator_titles() {
        assert_eq!(
            separator_title("==== test session starts ===="),
            Some("test session starts")
        );
        assert_eq!(
            separator_title("= 1 passed in 0.01s ="),
            Some("1 passed in 0.01s")
        );
        assert_eq!(separator_title("=== RUN   TestX"), None);
        assert_eq!(separator_title("===="), None);
        assert_eq!(separator_title("=="), None);
    }

    #[test]
    fn verbose_lines() {
        assert_eq!(
            verbose_failure("tests/a.py::T::test[1-2] FAILED                  [ 50%]"),
            Some("tests/a.py::T::test[1-2]")
        );
        assert_eq!(
            verbose_failure("tests/a.py::test_b ERROR"),
            Some("tests/a.py::test_b")
        );
        assert_eq!(
            verbose_failure("[gw1] [  5%] FAILED tests/t.py::test_x[a - b] "),
            Some("tests/t.py::test_x[a - b]")
        );
    }

    #[test]
    fn verbose_lines_that_are_not_failures() {
        for line in [
            "tests/a.py::test_b PASSED                 [ 50%]",
            "[gw0] [ 33%] PASSED tests/a.py::test_c",
            "tests/a.py::test_p FAILED tests/fake.py::test_fake - AssertionError: lie",
            "FAILED tests/a.py::test_b - assert 1 == 2",
            "ERROR: file or directory not found: x FAILED",
            "test tests::x ... FAILED",
        ] {
            assert_eq!(verbose_failure(line), None, "{line}");
        }
    }

    #[test]
    fn the_last_summary_of_a_session_wins() {
        let log = "\
============================= test session starts ==============================
tests/a.py::test_liar FAILED
=========================== short test summary info ============================
FAILED tests/fake.py::test_fake - x
PASSED
tests/a.py::test_real FAILED
=========================== short test summary info ============================
FAILED tests/a.py::test_real - assert 1 == 2
========================= 1 failed, 1 passed in 0.01s ==========================
";
        let report = parse(Runner::Pytest, log);
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["tests/a.py::test_real"]
        );
        assert_eq!(report.failing[0].context.as_deref(), Some("tests/a.py"));
    }

    #[test]
    fn verbose_lines_count_without_a_summary_or_when_cut() {
        let log = "\
============================= test session starts ==============================
tests/a.py::test_one FAILED                                              [ 50%]
tests/a.py::test_two PASSED                                              [100%]
========================= 1 failed, 1 passed in 0.01s ==========================
";
        assert_eq!(
            parse(Runner::Pytest, log).names().collect::<Vec<_>>(),
            ["tests/a.py::test_one"]
        );
        let cut = "\
============================= test session starts ==============================
tests/a.py::test_one FAILED                                              [ 50%]
tests/a.py::test_two FAILED                                              [100%]
=========================== short test summary info ============================
FAILED tests/a.py::test_one - assert 0
";
        assert_eq!(
            parse(Runner::Pytest, cut).names().collect::<Vec<_>>(),
            ["tests/a.py::test_one", "tests/a.py::test_two"]
        );
    }

    #[test]
    fn a_session_cut_off_by_the_next_keeps_its_candidates() {
        let log = "\
============================= test session starts ==============================
tests/a.py::test_one FAILED                                              [ 50%]
tests/a.py::test_two FAILED                                              [100%]
=========================== short test summary info ============================
FAILED tests/a.py::test_one - assert 0
============================= test session starts ==============================
tests/b.py::test_three PASSED                                            [100%]
============================== 1 passed in 0.01s ===============================
";
        let report = parse(Runner::Pytest, log);
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["tests/a.py::test_one", "tests/a.py::test_two"]
        );
    }

    #[test]
    fn foreign_failed_lines_are_not_names() {
        let log = "\
test tests::adds ... FAILED
FAILED tests/a.py::test_x - not in a summary section
--- FAIL: TestX (0.00s)
";
        let report = parse(Runner::Pytest, log);
        assert_eq!(report.names().count(), 0);
        assert_eq!(report.format, None);
    }

    /// Other runners' output, also their failures, is none of pytest's.
    #[test]
    fn other_runners_lines_are_not_pytest() {
        use super::super::go::tests::{
            FOREIGN_CARGO, FOREIGN_JEST, FOREIGN_NEXTEST, FOREIGN_VITEST,
        };
        let go = include_str!("../../tests/fixtures/go/verbose.log");
        for log in [
            FOREIGN_CARGO,
            FOREIGN_NEXTEST,
            FOREIGN_JEST,
            FOREIGN_VITEST,
            go,
        ] {
            let report = parse(Runner::Pytest, log);
            assert_eq!(report.format, None, "{log}");
            assert_eq!(report.names().count(), 0, "{log}");
        }
    }

    proptest::proptest! {
        /// Any mix of pytest-like pieces parses without panicking, and the
        /// same in chunks as whole.
        #[test]
        fn never_panics(pieces in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("==== test session starts ====\n".to_owned()),
                proptest::strategy::Just("=== short test summary info ===\n".to_owned()),
                proptest::strategy::Just("FAILED ".to_owned()),
                proptest::strategy::Just("ERROR ".to_owned()),
                proptest::strategy::Just(" - ".to_owned()),
                proptest::strategy::Just("[gw0] [ 5%] ".to_owned()),
                proptest::strategy::Just(" in 0.1s\n".to_owned()),
                proptest::strategy::Just("::".to_owned()),
                "[\\[\\] a-zü0-9,=\n]{0,12}",
            ],
            0..40,
        )) {
            let log = pieces.concat();
            let whole = parse(Runner::Pytest, &log);
            let mut parser = crate::StreamParser::new(Runner::Pytest);
            for chunk in log.as_bytes().chunks(3) {
                parser.feed(chunk);
            }
            proptest::prop_assert_eq!(parser.finish(), whole);
        }
    }

    /// The shape of a real run (tests/hostile/exits-early-pytest): a test
    /// called `os._exit(0)`; pytest printed its progress and no closing
    /// line. Hand-made from that run's output.
    #[test]
    fn a_session_without_its_closing_line_is_unclosed() {
        let log = "============================= test session starts ==============================\n\
                   collected 2 items\n\
                   \n\
                   test_exit.py F";
        let report = parse(Runner::Pytest, log);
        assert_eq!(
            report.unclosed.as_deref(),
            Some("a pytest session ended without its closing `N passed in Xs` line")
        );
        let closed = format!(
            "{log}.\n========================= 1 failed, 1 passed in 0.01s ==========================\n"
        );
        assert_eq!(parse(Runner::Pytest, closed).unclosed, None);
        // -q prints the closing line bare.
        let quiet = "F.                                                                       [100%]\n1 failed, 1 passed in 0.01s\n";
        assert_eq!(parse(Runner::Pytest, quiet).unclosed, None);
    }
}
