//! `node --test`: its tap reporter (the default where stdout is no
//! terminal, before node 23) and its spec reporter (the default on a
//! terminal, and everywhere from node 23).
//!
//! Both print a tree: tap's `# Subtest: name` … `ok N - name` / `not ok N -
//! name` indented four spaces a level, spec's `▶ suite` … `✔ name (1ms)` /
//! `✖ name (1ms)` two. A failing test makes every test and suite above it
//! fail too, so a failure line is a candidate only while its parents
//! confirm it: one whose parent ended `ok` (`✔`) was printed by a test and
//! is dropped, and a parent whose failure is only its children's (tap's
//! `failureType: 'subtestsFailed'`; a spec suite with a failing child) is
//! not named itself. A suite whose hook failed is named, kind suite, as
//! the spec reporter lists it (tap's `failureType: 'hookFailed'`; in spec
//! its error below its `✖`), beside the tests a `before` hook cancelled,
//! which node's junit names (a junit report leaves the suite out). Names
//! join the titles with ` > `. The run's summary (`# fail N`, `ℹ fail N`,
//! with `cancelled`) judges: none failed drops every candidate; the spec
//! reporter's closing `✖ failing tests:` list (test titles without their
//! suites) confirms exactly the candidates whose title it lists; without
//! one, they stand. node turns what a test file writes to stdout into tap
//! comments (`# text`), so in tap a test cannot print a result line at all.

use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState;

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The deepest nesting tracked: a hostile log cannot grow the stack.
const MAX_DEPTH: usize = 64;

/// The name separator between a suite's title and its tests'.
const SEPARATOR: &str = " > ";

/// Recognises `node --test` output.
#[derive(Debug, Default)]
pub(crate) struct Node {
    findings: Findings,
    run: Run,
    excerpts: Excerpts,
}

/// One node run, from its first line to its summary (and the spec
/// reporter's list after it).
#[derive(Debug, Default)]
struct Run {
    /// Open tests and suites, outermost first: each with the failures
    /// below it that wait for its result.
    open: Vec<Open>,
    /// Failures every parent confirmed.
    failures: Scope,
    /// Those of them that are suites (a hook failed).
    suites: HashSet<String, RandomState>,
    /// The tap `not ok` whose YAML block is being read.
    pending: Option<Pending>,
    /// The summary's counts, once `tests` came.
    summary: Option<Summary>,
    /// A spec suite that ended `✖` over failing children, its line, name
    /// and depth: a failure of its own (a `before` hook's) if its error
    /// follows ([`Node::hooked_line`]).
    hooked: Option<(u64, String, usize)>,
    /// Inside the spec reporter's `✖ failing tests:` list; the titles it
    /// listed.
    listing: bool,
    listed: Vec<(u64, String)>,
    /// A line of node's was read.
    started: bool,
}

/// An open test or suite.
#[derive(Debug)]
struct Open {
    title: String,
    /// Failures below it, with their line and kind.
    failures: Vec<(u64, String, Kind)>,
    /// A result below it came: it is a suite or a test with subtests.
    parent: bool,
}

/// A tap `not ok` line waiting for its YAML block's `type` and
/// `failureType`.
#[derive(Debug)]
struct Pending {
    index: u64,
    name: String,
    depth: usize,
    suite: bool,
    /// Its failure is only its subtests'.
    rollup: bool,
    /// A hook of its failed (`failureType: 'hookFailed'`): a failure of its
    /// own, whatever its subtests did.
    hook: bool,
    /// A `# TODO`: its failure does not fail the run.
    todo: bool,
}

/// The summary's counts.
#[derive(Debug, Default)]
struct Summary {
    pass: Option<u64>,
    fail: Option<u64>,
    cancelled: Option<u64>,
    skipped: Option<u64>,
    todo: Option<u64>,
}

impl Recognizer for Node {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text: &str = &line.text;
        let index = line.index;
        if self.run.pending.is_some() && self.yaml_line(text) {
            return;
        }
        if self.run.hooked.is_some() {
            self.hooked_line(text);
        }
        if self.excerpts.is_open() {
            let body = text.trim_start_matches(' ');
            if text.starts_with("test at ")
                || text.starts_with('ℹ')
                || body.starts_with(['▶', '✔', '✖', '﹣'])
                || body.starts_with("# Subtest: ")
            {
                self.excerpts.end();
            } else {
                if !self.excerpts.has_message() {
                    self.excerpts.message(text);
                }
                self.excerpts.push(text);
            }
        }
        if text == "TAP version 13" {
            self.detect(index);
            self.end_run();
            self.run.started = true;
            return;
        }
        // tap's `# tests` is node's only in a run of node's (mocha's tap
        // counts so too).
        let count = match text.strip_prefix("# ") {
            Some(count) if self.run.started => Some(count),
            Some(_) => None,
            None => text.strip_prefix("ℹ "),
        };
        if let Some(count) = count
            && self.summary_line(count, index)
        {
            return;
        }
        if self.run.listing {
            self.list_line(text, index);
            return;
        }
        if text == "✖ failing tests:" && self.run.summary.is_some() {
            self.run.listing = true;
            self.run.listed.clear();
            return;
        }
        let body = text.trim_start_matches(' ');
        let indent = text.len() - body.len();
        if let Some(title) = body.strip_prefix("# Subtest: ") {
            if indent.is_multiple_of(4) {
                self.open(indent / 4, &tap_unescape(title));
            }
        } else if let Some(title) = body.strip_prefix("▶ ") {
            if indent.is_multiple_of(2) {
                self.open(indent / 2, title);
            }
        } else if indent.is_multiple_of(4) {
            self.tap_result(body, indent / 4, index);
        }
        if indent.is_multiple_of(2) {
            self.spec_result(body, indent / 2, index);
        }
    }

    fn finish(&mut self) -> Findings {
        self.end_run();
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.run.pending.is_some() || self.excerpts.is_open() || self.run.hooked.is_some() {
            &Interest::ALL
        } else {
            &NODE_LINES
        }
    }
}

/// The lines read outside a YAML block or a failure's output: `TAP
/// version 13`, `# …` (subtests, the summary), `ok`/`not ok`, and the
/// spec reporter's marks (`ℹ`, `▶`, `✔`, `✖`: first byte 0xE2; `﹣`:
/// 0xEF), at the left or indented. Not `test at …`, which only ends a
/// failure's output (read whole): libtest's `test …` lines stay out.
static NODE_LINES: Interest = Interest::NONE
    .first(b"T#on")
    .first(&[0xE2, 0xEF])
    .indented(b"#on")
    .indented(&[0xE2, 0xEF]);

impl Node {
    fn detect(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// `title` opens at `depth`: whatever was open at or below it ended
    /// without a result (its failures go up to the parent).
    fn open(&mut self, depth: usize, title: &str) {
        self.run.started = true;
        self.close_to(depth);
        if self.run.open.len() == depth && depth < MAX_DEPTH {
            self.run.open.push(Open {
                title: title.to_owned(),
                failures: Vec::new(),
                parent: false,
            });
        }
    }

    /// Ends what is open deeper than `depth`, its failures handed up.
    fn close_to(&mut self, depth: usize) {
        while self.run.open.len() > depth {
            if let Some(open) = self.run.open.pop() {
                self.hand_up(open.failures);
            }
        }
    }

    /// Failures a parent confirmed: to the next parent, or to the run.
    fn hand_up(&mut self, failures: Vec<(u64, String, Kind)>) {
        match self.run.open.last_mut() {
            Some(parent) => parent.failures.extend(failures),
            None => {
                for (index, name, kind) in failures {
                    self.run.failures.candidate(index, &name, None, kind);
                    if kind == Kind::Suite {
                        self.run.suites.insert(name);
                    }
                }
            }
        }
    }

    /// The full name of `title` at `depth`.
    fn name(&self, depth: usize, title: &str) -> String {
        let mut name = String::new();
        for open in self.run.open.iter().take(depth) {
            name.push_str(&open.title);
            name.push_str(SEPARATOR);
        }
        name.push_str(title);
        name
    }

    /// A tap result line at `depth`: `ok N - title` or `not ok N - title`.
    fn tap_result(&mut self, body: &str, depth: usize, index: u64) {
        let (failed, rest) = match body.strip_prefix("not ok ") {
            Some(rest) => (true, rest),
            None => match body.strip_prefix("ok ") {
                Some(rest) => (false, rest),
                None => return,
            },
        };
        let Some((number, title)) = super::split_once(rest, " - ") else {
            return;
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        let (title, directive) = match super::rsplit_once(title, " # ") {
            Some((title, directive @ ("SKIP" | "TODO"))) => (title, Some(directive)),
            Some((title, directive)) if directive.starts_with("SKIP ") => (title, Some("SKIP")),
            Some((title, directive)) if directive.starts_with("TODO ") => (title, Some("TODO")),
            _ => (title, None),
        };
        let title = tap_unescape(title);
        let title = title.as_ref();
        // The result closes its own `# Subtest:`; one for a title that was
        // never opened there is not node's.
        let own = self
            .run
            .open
            .get(depth)
            .is_some_and(|open| open.title == title);
        if !own {
            return;
        }
        self.detect(index);
        let name = self.name(depth, title);
        self.close_to(depth + 1);
        if let Some(parent) = depth.checked_sub(1).and_then(|d| self.run.open.get_mut(d)) {
            parent.parent = true;
        }
        let had_children = self.run.open.get(depth).is_some_and(|open| open.parent);
        let outcome = match (failed, directive) {
            (_, Some(_)) => Outcome::Skipped,
            (true, None) => Outcome::Failed,
            (false, None) => Outcome::Passed,
        };
        if failed {
            self.run.pending = Some(Pending {
                index,
                name,
                depth,
                suite: false,
                rollup: false,
                hook: false,
                todo: directive == Some("TODO"),
            });
        } else {
            // Passed: what its children said failed, a test printed.
            if let Some(open) = self.run.open.get_mut(depth) {
                open.failures.clear();
            }
            self.close_to(depth);
            if !had_children {
                self.findings.seen.note(index, &name, None, outcome);
            }
        }
    }

    /// A line of a `not ok`'s YAML block; returns whether it was one.
    fn yaml_line(&mut self, text: &str) -> bool {
        let Some(pending) = &mut self.run.pending else {
            return false;
        };
        let body = text.trim_start_matches(' ');
        let indent = text.len() - body.len();
        if indent < pending.depth * 4 + 2 {
            self.end_pending();
            return false;
        }
        if indent == pending.depth * 4 + 2 {
            match body {
                "---" => {
                    let name = pending.name.clone();
                    self.excerpts.open(&name);
                    return true;
                }
                "..." => {
                    self.end_pending();
                    return true;
                }
                "type: 'suite'" => pending.suite = true,
                "failureType: 'subtestsFailed'" => pending.rollup = true,
                "failureType: 'hookFailed'" => pending.hook = true,
                _ => {}
            }
            if let Some(error) = body.strip_prefix("error: ")
                && !error.starts_with('|')
                && !error.starts_with('>')
            {
                self.excerpts.message(error.trim_matches('\''));
            }
        } else if !self.excerpts.has_message() {
            self.excerpts.message(body);
        }
        self.excerpts.push(text);
        true
    }

    /// Ends the pending `not ok`: a failure of its own is a candidate of
    /// its parent.
    fn end_pending(&mut self) {
        let Some(pending) = self.run.pending.take() else {
            return;
        };
        self.excerpts.end();
        let outcome = if pending.todo {
            Outcome::Skipped
        } else {
            Outcome::Failed
        };
        let children_failed = self
            .run
            .open
            .get(pending.depth)
            .is_some_and(|open| !open.failures.is_empty());
        // A suite whose `before` hook failed fails its tests too (node
        // cancels them): they are named, as node's junit names them, and so
        // is the suite, for its hook, as node's spec reporter lists it.
        let own_failure = !(pending.rollup || pending.todo)
            && (pending.hook || !(pending.suite && children_failed));
        let kind = if pending.suite {
            Kind::Suite
        } else {
            Kind::Test
        };
        if !pending.suite && !pending.rollup {
            self.findings
                .seen
                .note(pending.index, &pending.name, None, outcome);
        }
        if pending.todo
            && let Some(open) = self.run.open.get_mut(pending.depth)
        {
            open.failures.clear();
        }
        if own_failure && let Some(open) = self.run.open.get_mut(pending.depth) {
            open.failures.push((pending.index, pending.name, kind));
        }
        self.close_to(pending.depth);
    }

    /// A spec result line at `depth`: `✔ title (1ms)`, `✖ title (1ms)`,
    /// `﹣ title (1ms) # SKIP`, a `# TODO` of any of them.
    fn spec_result(&mut self, body: &str, depth: usize, index: u64) {
        let (mark, rest) = match body.chars().next() {
            Some(c @ ('✔' | '✖' | '﹣')) => (c, &body[c.len_utf8()..]),
            _ => return,
        };
        let Some(rest) = rest.strip_prefix(' ') else {
            return;
        };
        let (rest, directive) = match super::rsplit_once(rest, " # ") {
            Some((head, "SKIP" | "TODO")) => (head, true),
            _ => (rest, false),
        };
        let title = strip_duration(rest);
        if title.is_empty() {
            return;
        }
        self.run.started = true;
        let closes = self
            .run
            .open
            .get(depth)
            .is_some_and(|open| open.title == title);
        if closes {
            // A suite (or a test with subtests) ends.
            self.detect(index);
            self.close_to(depth + 1);
            let Some(open) = self.run.open.pop() else {
                return;
            };
            match mark {
                '✖' if open.failures.is_empty() => {
                    // No child failed: its own failure (a hook).
                    let name = self.name(depth, title);
                    self.hand_up(vec![(index, name, Kind::Suite)]);
                }
                '✖' => {
                    self.hand_up(open.failures);
                    let name = self.name(depth, title);
                    self.run.hooked = Some((index, name, depth));
                }
                _ => {}
            }
            return;
        }
        self.close_to(depth);
        let name = self.name(depth, title);
        let outcome = match (mark, directive) {
            (_, true) | ('﹣', _) => Outcome::Skipped,
            ('✖', false) => Outcome::Failed,
            _ => Outcome::Passed,
        };
        self.findings.seen.note(index, &name, None, outcome);
        if outcome == Outcome::Failed {
            self.excerpts.open(&name);
            self.hand_up_at(depth, index, name);
        }
    }

    /// The line after a spec suite's `✖` over failing children (blank
    /// lines skipped): the suite failed of its own too where its error
    /// follows, indented below it (`✖ setup (1ms)`, ``, `  Error: …`: a
    /// `before` hook), and only through its children where the next line
    /// is any other (`▶ next`, `✔ next`).
    fn hooked_line(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let Some((index, name, depth)) = self.run.hooked.take() else {
            return;
        };
        let body = text.trim_start_matches(' ');
        let indent = text.len() - body.len();
        if indent > depth * 2 && !body.starts_with(['▶', '✔', '✖', '﹣']) {
            self.excerpts.open(&name);
            self.hand_up(vec![(index, name, Kind::Suite)]);
        }
    }

    /// A spec failure at `depth`: a candidate of its parent there.
    fn hand_up_at(&mut self, depth: usize, index: u64, name: String) {
        match depth.checked_sub(1).and_then(|d| self.run.open.get_mut(d)) {
            Some(parent) => parent.failures.push((index, name, Kind::Test)),
            None => self.run.failures.candidate(index, &name, None, Kind::Test),
        }
    }

    /// A line of the spec reporter's `✖ failing tests:` list: `test at
    /// FILE:L:C`, then `✖ title (1ms)`.
    fn list_line(&mut self, text: &str, index: u64) {
        if let Some(rest) = text.strip_prefix("✖ ") {
            let title = strip_duration(rest);
            if !title.is_empty() && self.run.listed.len() < crate::report::MAX_TESTS {
                self.run.listed.push((index, title.to_owned()));
            }
        }
    }

    /// A summary line (`tests N`, `pass N`, `fail N`, …, the `# ` or `ℹ `
    /// cut off); returns whether it was one.
    fn summary_line(&mut self, count: &str, index: u64) -> bool {
        let Some((word, n)) = count.split_once(' ') else {
            return false;
        };
        if word == "duration_ms" && self.run.summary.is_some() {
            return true;
        }
        let Ok(n) = n.parse::<u64>() else {
            return false;
        };
        if word == "tests" {
            // A summary again: the last is node's (a test printed the
            // earlier one, which the spec reporter shows as it is).
            self.detect(index);
            self.run.listing = false;
            self.run.listed.clear();
            self.close_to(0);
            self.run.summary = Some(Summary::default());
            return true;
        }
        let Some(summary) = &mut self.run.summary else {
            return false;
        };
        let slot = match word {
            "pass" => &mut summary.pass,
            "fail" => &mut summary.fail,
            "cancelled" => &mut summary.cancelled,
            "skipped" => &mut summary.skipped,
            "todo" => &mut summary.todo,
            _ => return word == "suites",
        };
        slot.get_or_insert(n);
        true
    }

    /// Ends the run: the summary judges the candidates.
    fn end_run(&mut self) {
        self.end_pending();
        self.close_to(0);
        let run = std::mem::take(&mut self.run);
        let mut failures = run.failures;
        let judgement = match &run.summary {
            Some(summary) => {
                let failed = crate::report::sum(summary.fail, summary.cancelled);
                self.findings.counts.add(Counts {
                    passed: summary.pass,
                    failed,
                    skipped: crate::report::sum(summary.skipped, summary.todo),
                });
                if failed.unwrap_or(0) == 0 {
                    Judgement::Passed
                } else if run.listing {
                    // The list names titles: the candidates it confirms.
                    let listed: HashMap<&str, u64, RandomState> = run
                        .listed
                        .iter()
                        .map(|(at, title)| (title.as_str(), *at))
                        .collect();
                    let confirmed: Vec<(u64, String)> = failures
                        .candidate_names()
                        .filter_map(|name| Some((*listed.get(title_of(name, &listed)?)?, name)))
                        .map(|(at, name)| (at, name.to_owned()))
                        .collect();
                    failures.start_list();
                    for (at, name) in confirmed {
                        let kind = if run.suites.contains(&name) {
                            Kind::Suite
                        } else {
                            Kind::Test
                        };
                        failures.list(at, &name, None, kind);
                    }
                    Judgement::Listed
                } else {
                    Judgement::Unjudged
                }
            }
            None => {
                if run.started && self.findings.detected_at.is_some() {
                    self.findings.unclosed.get_or_insert_with(|| {
                        "a node --test run ended without its summary".to_owned()
                    });
                }
                Judgement::Unjudged
            }
        };
        for confirmed in failures.close(judgement) {
            let (message, excerpt) = self.excerpts.take(&confirmed.name);
            let test = FailingTest::new(confirmed.name, Runner::Node, None)
                .with_kind(confirmed.kind)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        self.excerpts.clear();
    }
}

/// The title in `listed` that `name` ends with (after a ` > `, or whole):
/// the spec reporter's list names tests by their own title only.
fn title_of<'a>(name: &'a str, listed: &HashMap<&str, u64, RandomState>) -> Option<&'a str> {
    if listed.contains_key(name) {
        return Some(name);
    }
    name.match_indices(SEPARATOR)
        .map(|(at, _)| &name[at + SEPARATOR.len()..])
        .find(|title| listed.contains_key(title))
}

/// A title of node's tap reporter as the test named it: node escapes `\`
/// as `\\` and `#` as `\#` (a `#` would start a directive); other
/// escapes are left as printed (node 20 escapes a tab to `\t` and then its
/// backslash again, so `\\t` reads as `\t`: a tab and those two
/// characters print alike).
fn tap_unescape(title: &str) -> std::borrow::Cow<'_, str> {
    if !title.contains('\\') {
        return std::borrow::Cow::Borrowed(title);
    }
    let mut out = String::with_capacity(title.len());
    let mut chars = title.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(next @ ('\\' | '#')) => out.push(next),
            Some(next) => {
                out.push(c);
                out.push(next);
            }
            None => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A title without the spec reporter's ` (0.58ms)`.
fn strip_duration(title: &str) -> &str {
    let Some((head, time)) = super::rsplit_once(title, " (") else {
        return title;
    };
    match time.strip_suffix("ms)") {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.') => head,
        _ => title,
    }
}

/// How node's junit reporter's report (`--test-reporter=junit`) is read:
/// it nests a `<testsuite>` per describe and per test with subtests, and
/// names no writer (its root has no name, every case's `classname` is
/// `test`), so it is read as node's only where the caller knows node wrote
/// it ([`crate::parse_junit_of`]). A case is named as the console names
/// it: the suites' titles and its own joined by ` > `. A test cancelled by
/// its parent (a `before` hook's failure) is a `<failure>`, skipped and
/// todo tests a `<skipped>`; a suite whose hook failed is no case (the
/// console names it: `Beside` keeps it).
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: |case| {
        let name = if case.path.is_empty() {
            case.name.clone()
        } else {
            format!("{}{SEPARATOR}{}", case.path, case.name)
        };
        (name, None)
    },
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "TAP version 13\n",
    "# Subtest: calc\n",
    "    # Subtest: adds\n",
    "    not ok 1 - adds\n",
    "      ---\n",
    "      type: 'suite'\n",
    "      failureType: 'subtestsFailed'\n",
    "      error: 'x'\n",
    "      ...\n",
    "ok 1 - calc\n",
    "▶ calc\n",
    "  ✖ adds (1.2ms)\n",
    "  ✔ ok (1.2ms)\n",
    "✖ calc (2ms)\n",
    "ℹ tests 2\n",
    "ℹ fail 1\n",
    "# fail 1\n",
    "✖ failing tests:\n",
    "test at a.test.js:1:1\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// node's junit report, read as node's: a case's name is its suites'
    /// titles and its own joined by ` > `, a case after a nested suite
    /// closes is named in the outer one, a top-level case by its title;
    /// the nesting a name holds stops at 64 suites.
    #[test]
    fn a_junit_case_is_named_by_its_suites() {
        let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="calc" tests="2" failures="1">
    <testsuite name="big"><testcase name="millions" classname="test"><failure type="testCodeFailure" message="x"/></testcase></testsuite>
    <testcase name="adds" classname="test"/>
    <testcase name="todo one" classname="test"><skipped type="todo" message="true"/></testcase>
  </testsuite>
  <testcase name="top" classname="test"/>
</testsuites>"#;
        let report = crate::parse_junit_of(Runner::Node, xml.as_bytes()).unwrap();
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["calc > big > millions"]
        );
        let all: Vec<(&str, &str)> = report
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.outcome.name()))
            .collect();
        assert_eq!(
            all,
            [
                ("calc > big > millions", "failed"),
                ("calc > adds", "passed"),
                ("calc > todo one", "skipped"),
                ("top", "passed"),
            ]
        );
        let deep = format!(
            "<testsuites>{}<testcase name=\"t\"><failure/></testcase>{}</testsuites>",
            "<testsuite name=\"s\">".repeat(100),
            "</testsuite>".repeat(100)
        );
        let report = crate::parse_junit_of(Runner::Node, deep.as_bytes()).unwrap();
        let name = report.names().next().unwrap();
        assert_eq!(name.matches(SEPARATOR).count(), 64);
    }

    fn parsed(log: &str) -> Findings {
        let mut node = Node::default();
        for (index, raw) in log.lines().enumerate() {
            node.line(&Line::clean(raw.as_bytes(), index as u64));
        }
        node.finish()
    }

    fn names(log: &str) -> Vec<(String, Kind)> {
        parsed(log)
            .failing
            .into_iter()
            .map(|(_, t)| (t.name, t.kind))
            .collect()
    }

    const TAP: &str = "TAP version 13
# ✖ calc fake (1ms)
# Subtest: calc
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 1.1
      ...
    # Subtest: adds negative
    not ok 2 - adds negative
      ---
      duration_ms: 0.9
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:
      ...
    # Subtest: big
        # Subtest: todo one
        not ok 1 - todo one # TODO
          ---
          ...
        1..1
    ok 3 - big
      ---
      type: 'suite'
      ...
    1..3
not ok 1 - calc
  ---
  type: 'suite'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  ...
# Subtest: hooks
    # Subtest: never runs
    not ok 1 - never runs
      ---
      failureType: 'cancelledByParent'
      ...
    1..1
not ok 2 - hooks
  ---
  type: 'suite'
  failureType: 'hookFailed'
  error: 'setup broke'
  ...
1..2
# tests 3
# suites 2
# pass 1
# fail 1
# cancelled 1
# skipped 0
# todo 1
# duration_ms 205.2
";

    #[test]
    fn tap_names_leaves_and_hooked_suites_with_their_parents_and_the_suite_for_its_hook() {
        let found = names(TAP);
        assert_eq!(
            found,
            [
                ("calc > adds negative".to_owned(), Kind::Test),
                ("hooks > never runs".to_owned(), Kind::Test),
                ("hooks".to_owned(), Kind::Suite),
            ]
        );
        let findings = parsed(TAP);
        assert_eq!(findings.counts.failed, Some(2));
        assert_eq!(
            findings
                .seen
                .get("calc > big > todo one")
                .map(|n| n.outcome),
            Some(Outcome::Skipped)
        );
    }

    #[test]
    fn a_failure_under_a_passing_parent_was_printed() {
        let log = "TAP version 13
# Subtest: a
    # Subtest: b
    not ok 1 - b
      ---
      ...
    1..1
ok 1 - a
  ---
  ...
1..1
# tests 1
# pass 1
# fail 1
";
        assert_eq!(names(log), []);
    }

    #[test]
    fn a_result_for_a_title_never_opened_is_not_nodes() {
        let log = "TAP version 13\n# Subtest: a\nnot ok 1 - b\nok 1 - a\n# tests 1\n# fail 1\n";
        assert_eq!(names(log), []);
    }

    const SPEC: &str = "✖ calc fake (1ms)
ℹ fail 7
▶ calc
  ✔ adds (0.58ms)
  ✖ adds negative (0.99ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  ▶ big (1+1) [x]?
    ✖ millions $ ^ (0.27ms)
      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
    ﹣ skipped one (0.07ms) # SKIP
    ✔ todo one (0.05ms) # TODO
  ✖ big (1+1) [x]? (0.57ms)
  ✔ prints a lie (4.45ms)
✖ calc (7.60ms)
▶ hooks
  ✖ never runs
    'test did not finish before its parent and was cancelled'

✖ hooks (0.16ms)

  Error: setup broke

ℹ tests 10
ℹ suites 3
ℹ pass 3
ℹ fail 4
ℹ cancelled 1
ℹ skipped 1
ℹ todo 1
ℹ duration_ms 153.58

✖ failing tests:

test at a.test.js:5:3
✖ adds negative (0.99ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

test at a.test.js:7:5
✖ millions $ ^ (0.27ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

test at a.test.js:18:3
✖ never runs
  'test did not finish before its parent and was cancelled'

test at a.test.js:16:1
✖ hooks (0.16ms)
  Error: setup broke
";

    #[test]
    fn spec_names_what_the_list_confirms() {
        let found = names(SPEC);
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "calc > adds negative",
                "calc > big (1+1) [x]? > millions $ ^",
                "hooks > never runs",
                "hooks",
            ]
        );
        // `calc fake` was printed at the top level; the list never names it;
        // `calc` and `big (1+1) [x]?` failed only through their children
        // (no error of their own follows their `✖`).
    }

    #[test]
    fn a_spec_suite_whose_hook_failed_is_named() {
        let log = "▶ hooks\n✖ hooks (0.1ms)\n  Error: setup broke\nℹ tests 0\nℹ pass 0\nℹ fail 1\n";
        assert_eq!(names(log), [("hooks".to_owned(), Kind::Suite)]);
    }

    #[test]
    fn a_summary_without_failures_drops_the_lies() {
        let log = "✖ forged (1ms)\n✔ real (1ms)\nℹ tests 1\nℹ pass 1\nℹ fail 0\nℹ cancelled 0\n";
        assert_eq!(names(log), []);
    }

    #[test]
    fn a_cut_log_keeps_its_candidates() {
        let log = "TAP version 13\n# Subtest: a\n    # Subtest: b\n    not ok 1 - b\n      ---\n";
        let findings = parsed(log);
        assert!(findings.unclosed.is_some());
        let names: Vec<String> = findings.failing.into_iter().map(|(_, t)| t.name).collect();
        assert_eq!(names, ["a > b"]);
    }

    #[test]
    fn durations() {
        assert_eq!(strip_duration("adds (0.584627ms)"), "adds");
        assert_eq!(strip_duration("adds (x)"), "adds (x)");
        assert_eq!(strip_duration("never runs"), "never runs");
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_lines_that_almost_match(
            lines in proptest::collection::vec("( {0,9})(# Subtest: |ok 1 - |not ok 2 - |▶ |✔ |✖ |﹣ |# fail |ℹ tests |---|\\.\\.\\.|TAP version 13|✖ failing tests:|test at )?[a-z:'() .0-9é]{0,16}( # TODO| # SKIP| \\(1ms\\))?", 0..48)
        ) {
            parsed(&lines.join("\n"));
        }
    }
}
