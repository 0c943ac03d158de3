//! mocha's spec (the default), dot and tap reporters: the tree of suites,
//! the closing `N passing` / `N failing` epilogue with its numbered list of
//! failures, and tap's `ok`/`not ok` lines.
//!
//! mocha prints everything, the tests' own output included, to stdout. The
//! spec reporter marks a failure inline as `N) title` under its suites'
//! titles (indented two spaces a level): those are the candidates, named by
//! mocha's full title (the suites' titles and the test's joined with single
//! spaces, as `--grep` and the json reporter's `fullTitle` spell it). The
//! epilogue, `N passing (…)`, `N pending`, `N failing`, is followed by the
//! list `  1) suite\n       test:`, numbered from 1: mocha's own list. Its
//! entries count only in sequence and up to the `N failing` it announced,
//! and the last epilogue is the run's (an earlier one was printed by a
//! test). A log cut inside the list, or without an epilogue, is unjudged.
//! The dot reporter prints the same epilogue. A failing hook is named by
//! the hook's title (`suite "before all" hook for "test"`), kind suite.
//! mocha's tap reporter writes `ok N title` / `not ok N title` and `# fail
//! N`: no list, so its failures stand only by the count (a run counted
//! `# fail 0` drops them). Retries (`this.retries(n)`, `--retries`) are
//! invisible in every one of these reporters: a test that passed on a retry
//! is printed as passed.

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer, Seen};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The deepest suite nesting tracked: a hostile log cannot grow the stack.
const MAX_DEPTH: usize = 64;

/// Recognises mocha output.
#[derive(Debug, Default)]
pub(crate) struct Mocha {
    findings: Findings,
    /// The inline `N) title` failures and the epilogue's lists.
    failures: Scope,
    /// The spec reporter's suites above the present line: indentation and
    /// title, the first `depth` of them (the rest are buffers kept for
    /// reuse: any indented line may be a suite's title, and most are not
    /// mocha's, so pushing one must not allocate).
    suites: Vec<(usize, String)>,
    depth: usize,
    /// Something of mocha's (a result line) was read.
    started: bool,
    /// The tests the spec reporter's lines gave a result (the tap
    /// reporter's are [`Tap::seen`]).
    seen: Seen,
    /// The last epilogue, if one came.
    epilogue: Option<Epilogue>,
    /// The list entry whose title lines are being read.
    entry: Option<Entry>,
    /// The tap reporter's lines, when they came.
    tap: Tap,
    /// Each list entry's lines, by full title.
    excerpts: Excerpts,
}

/// The `N passing` / `N pending` / `N failing` epilogue and the list read
/// after it.
#[derive(Debug, Default)]
struct Epilogue {
    /// The line of its `N passing`.
    at: u64,
    passing: u64,
    pending: Option<u64>,
    failing: Option<u64>,
    /// The list's entries read in sequence.
    listed: u64,
}

/// A list entry: `  N) first` and the title lines below it.
#[derive(Debug)]
struct Entry {
    index: u64,
    levels: Vec<String>,
}

/// What mocha's tap reporter said.
#[derive(Debug, Default)]
struct Tap {
    /// The number the next `ok`/`not ok` line must carry (or the last
    /// again); 0 before the first.
    next: u64,
    /// `# pass N`, `# fail N`.
    pass: Option<u64>,
    fail: Option<u64>,
    /// The line of `# fail N`.
    fail_at: Option<u64>,
    skipped: u64,
    /// Its `not ok` lines.
    failures: Scope,
    /// The tests it gave a result.
    seen: Seen,
}

impl Recognizer for Mocha {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text: &str = &line.text;
        let index = line.index;
        if self.entry.is_some() && self.entry_line(text) {
            return;
        }
        if self.excerpts.is_open() {
            if list_entry(text).is_some()
                || text.starts_with("ok ")
                || text.starts_with("not ok ")
                || text.starts_with("# ")
            {
                self.excerpts.end();
            } else {
                if !self.excerpts.has_message() {
                    self.excerpts.message(text);
                }
                self.excerpts.push(text);
            }
        }
        if let Some(counts) = epilogue_line(text) {
            self.epilogue_line(counts, index);
            return;
        }
        if let Some((number, first)) = list_entry(text)
            && let Some(epilogue) = &mut self.epilogue
            && epilogue.failing.is_some_and(|n| number <= n)
            && number == epilogue.listed + 1
        {
            epilogue.listed = number;
            self.entry = Some(Entry {
                index,
                levels: vec![first.to_owned()],
            });
            // A one-level title ends on its first line.
            if first.ends_with(':') {
                self.end_entry();
            }
            return;
        }
        // After an epilogue too: a test may have printed it. Only its
        // `- ` lines are left out there, where the list's diffs hold them.
        // Both reporters are read apart; the run's is chosen at the end (a
        // spec run's tests may print tap lines, a tap run's messages are
        // indented as a tree is).
        self.spec_line(text, index, self.epilogue.is_some());
        self.tap_line(text, index);
    }

    fn finish(&mut self) -> Findings {
        self.end_entry();
        let tap = std::mem::take(&mut self.tap);
        // The reporter whose closing words came last is the run's: the
        // other's were printed by a test. Without either, the one whose
        // results came (tap's only in sequence from 1).
        let spec = match (&self.epilogue, tap.fail_at) {
            (Some(epilogue), Some(tap_at)) => epilogue.at > tap_at,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => tap.next == 0,
        };
        let (failures, judgement) = if spec {
            self.findings.seen = std::mem::take(&mut self.seen);
            (std::mem::take(&mut self.failures), self.spec_judgement())
        } else {
            self.findings.seen = tap.seen;
            let judgement = match tap.fail {
                Some(fail) => {
                    self.findings.counts.add(Counts {
                        passed: tap.pass,
                        failed: Some(fail),
                        skipped: Some(tap.skipped),
                    });
                    if fail == 0 {
                        Judgement::Passed
                    } else {
                        Judgement::Unjudged
                    }
                }
                None => self.unclosed(),
            };
            (tap.failures, judgement)
        };
        for confirmed in failures.close(judgement) {
            let (message, excerpt) = self.excerpts.take(&confirmed.name);
            let test = FailingTest::new(confirmed.name, Runner::Mocha, None)
                .with_kind(confirmed.kind)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        self.excerpts.clear();
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.entry.is_some() || self.excerpts.is_open() {
            &Interest::ALL
        } else {
            &MOCHA_LINES
        }
    }
}

/// The lines read outside a list entry's lines: the spec and dot reporters'
/// (indented: the tree, the epilogue, the list) and the tap reporter's
/// (`ok`, `not ok`, `# …`).
static MOCHA_LINES: Interest = Interest::NONE.indented_any().first(b"on#");

impl Mocha {
    /// The suites open at the present line.
    fn open_suites(&self) -> &[(usize, String)] {
        self.suites.get(..self.depth).unwrap_or_default()
    }

    fn detect(&mut self, index: u64) {
        self.findings.detected(index);
    }

    /// The spec (or dot) reporter's judgement: its last epilogue's.
    fn spec_judgement(&mut self) -> Judgement {
        let Some(epilogue) = &self.epilogue else {
            return self.unclosed();
        };
        self.findings.counts.add(Counts {
            passed: Some(epilogue.passing),
            failed: Some(epilogue.failing.unwrap_or(0)),
            skipped: epilogue.pending,
        });
        match epilogue.failing {
            None | Some(0) => Judgement::Passed,
            Some(n) if epilogue.listed == n => Judgement::Listed,
            Some(_) => Judgement::Unjudged,
        }
    }

    /// A run without its closing words: unjudged.
    fn unclosed(&mut self) -> Judgement {
        if self.started {
            self.findings.unclosed.get_or_insert_with(|| {
                "a mocha run ended without its `N passing` epilogue".to_owned()
            });
        }
        Judgement::Unjudged
    }

    /// A line of the spec reporter's tree; `after_epilogue`, a line after
    /// an epilogue (a forged one's, or the list's).
    fn spec_line(&mut self, text: &str, index: u64, after_epilogue: bool) {
        let body = text.trim_start_matches(' ');
        let indent = text.len() - body.len();
        if indent < 2 || body.is_empty() {
            return;
        }
        let parents = |suites: &[(usize, String)], title: &str| {
            let mut name = String::new();
            for (_, suite) in suites.iter().filter(|(at, _)| *at < indent) {
                name.push_str(suite);
                name.push(' ');
            }
            name.push_str(title);
            name
        };
        if let Some(title) = body.strip_prefix("✔ ").or_else(|| body.strip_prefix("✓ ")) {
            self.started = true;
            let name = parents(self.open_suites(), strip_duration(title));
            self.seen.note(index, &name, None, Outcome::Passed);
        } else if let Some(title) = body.strip_prefix("- ").filter(|_| !after_epilogue) {
            let name = parents(self.open_suites(), title);
            self.seen.note(index, &name, None, Outcome::Skipped);
        } else if let Some((_, title)) = numbered(body) {
            self.started = true;
            let name = parents(self.open_suites(), title);
            self.failures.candidate(index, &name, None, kind_of(&name));
            self.seen.note(index, &name, None, Outcome::Failed);
        } else if !body.starts_with(['․', '.', ',', '!', '-']) {
            // A suite's title: it holds the lines indented deeper.
            // The open suites are indented less, in order: those at or
            // past this one's indentation are closed.
            let keep = self
                .open_suites()
                .iter()
                .take_while(|(at, _)| *at < indent)
                .count();
            self.depth = keep;
            if keep < MAX_DEPTH {
                match self.suites.get_mut(keep) {
                    Some((at, title)) => {
                        *at = indent;
                        title.clear();
                        title.push_str(body);
                    }
                    None => self.suites.push((indent, body.to_owned())),
                }
                self.depth = keep + 1;
            }
        }
    }

    /// An epilogue line: `N passing (…)` starts an epilogue (replacing an
    /// earlier one, which a test printed), `N pending` and `N failing`
    /// complete it.
    fn epilogue_line(&mut self, counts: EpilogueLine, index: u64) {
        match counts {
            EpilogueLine::Passing(n) => {
                self.detect(index);
                self.end_entry();
                self.excerpts.clear();
                self.failures.start_list();
                self.epilogue = Some(Epilogue {
                    at: index,
                    passing: n,
                    ..Epilogue::default()
                });
            }
            EpilogueLine::Pending(n) => {
                if let Some(epilogue) = &mut self.epilogue
                    && epilogue.failing.is_none()
                    && epilogue.listed == 0
                {
                    epilogue.pending = Some(n);
                }
            }
            EpilogueLine::Failing(n) => {
                if let Some(epilogue) = &mut self.epilogue
                    && epilogue.failing.is_none()
                    && epilogue.listed == 0
                {
                    epilogue.failing = Some(n);
                }
            }
        }
    }

    /// A line while a list entry's title is read: the next level (five
    /// spaces and two more a level, as mocha writes it), or the end of the
    /// title. Returns whether the line was the title's. The level is the
    /// line after that indentation, byte for byte: spaces beyond it are the
    /// title's own (`it("  lead")` is listed as `         lead:`).
    fn entry_line(&mut self, text: &str) -> bool {
        let Some(entry) = &mut self.entry else {
            return false;
        };
        let want = 5 + 2 * entry.levels.len();
        let body = text.trim_start_matches(' ');
        if text.len() - body.len() >= want && !body.is_empty() && entry.levels.len() < MAX_DEPTH {
            entry.levels.push(text[want..].to_owned());
            if body.ends_with(':') {
                self.end_entry();
            }
            return true;
        }
        self.end_entry();
        false
    }

    /// Ends the list entry being read: mocha's list names it.
    fn end_entry(&mut self) {
        let Some(entry) = self.entry.take() else {
            return;
        };
        let mut levels = entry.levels;
        // The title ends at its last line ending with `:`; a title cut
        // before it keeps what was read.
        let end = levels
            .iter()
            .rposition(|level| level.ends_with(':'))
            .map_or(levels.len(), |at| at + 1);
        levels.truncate(end);
        if let Some(last) = levels.last_mut()
            && let Some(title) = last.strip_suffix(':')
        {
            *last = title.to_owned();
        }
        let name = levels.join(" ");
        if name.is_empty() {
            return;
        }
        self.failures.list(entry.index, &name, None, kind_of(&name));
        self.excerpts.open(&name);
    }

    /// A line of the tap reporter: `ok N title`, `not ok N title`, `# pass
    /// N`, `# fail N`.
    fn tap_line(&mut self, text: &str, index: u64) {
        if let Some(count) = text.strip_prefix("# ") {
            if self.tap.next == 0 {
                return;
            }
            let (word, n) = match count.split_once(' ') {
                Some((word, n)) => (word, n.parse::<u64>().ok()),
                None => return,
            };
            match (word, n) {
                ("pass", Some(n)) => self.tap.pass = Some(n),
                ("fail", Some(n)) => {
                    self.detect(index);
                    self.tap.fail = Some(n);
                    self.tap.fail_at = Some(index);
                }
                _ => {}
            }
            return;
        }
        let (failed, rest) = match text.strip_prefix("not ok ") {
            Some(rest) => (true, rest),
            None => match text.strip_prefix("ok ") {
                Some(rest) => (false, rest),
                None => return,
            },
        };
        let Some((number, title)) = rest.split_once(' ') else {
            return;
        };
        // node's tap writes `ok 1 - title`; mocha's has no dash. mocha
        // numbers the test after a failed hook as the hook: the number
        // again is in sequence too.
        let next = self.tap.next.max(1);
        let Ok(number) = number.parse::<u64>() else {
            return;
        };
        if title.starts_with("- ") || (number != next && number + 1 != next) {
            return;
        }
        self.tap.next = number + 1;
        self.started = true;
        if let Some(title) = title.strip_suffix(" # SKIP -") {
            self.tap.skipped += 1;
            self.tap.seen.note(index, title, None, Outcome::Skipped);
        } else if failed {
            self.tap
                .failures
                .candidate(index, title, None, kind_of(title));
            self.excerpts.open(title);
            self.tap.seen.note(index, title, None, Outcome::Failed);
        } else {
            self.tap.seen.note(index, title, None, Outcome::Passed);
        }
    }
}

/// A hook's full title (`suite "before all" hook for "test"`) names a
/// suite; any other, a test.
fn kind_of(name: &str) -> Kind {
    const HOOKS: [&str; 4] = [
        "\"before all\" hook",
        "\"before each\" hook",
        "\"after all\" hook",
        "\"after each\" hook",
    ];
    if HOOKS.iter().any(|hook| name.contains(hook)) {
        Kind::Suite
    } else {
        Kind::Test
    }
}

/// One line of the epilogue.
#[derive(Debug, PartialEq, Eq)]
enum EpilogueLine {
    Passing(u64),
    Pending(u64),
    Failing(u64),
}

/// `  3 passing (12ms)`, `  2 pending`, `  1 failing` (two spaces first).
fn epilogue_line(text: &str) -> Option<EpilogueLine> {
    let body = text.strip_prefix("  ")?;
    let (n, rest) = body.split_once(' ')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = n.parse().ok()?;
    if let Some(time) = rest.strip_prefix("passing (") {
        return time.ends_with(')').then_some(EpilogueLine::Passing(n));
    }
    match rest {
        "pending" => Some(EpilogueLine::Pending(n)),
        "failing" => Some(EpilogueLine::Failing(n)),
        _ => None,
    }
}

/// A list entry's first line, `  N) title`: its number and first level.
fn list_entry(text: &str) -> Option<(u64, &str)> {
    let body = text.strip_prefix("  ")?;
    if body.starts_with(' ') {
        return None;
    }
    numbered(body)
}

/// `N) title`: the number and the title.
fn numbered(body: &str) -> Option<(u64, &str)> {
    let (n, title) = super::split_once(body, ") ")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || title.is_empty() {
        return None;
    }
    Some((n.parse().ok()?, title))
}

/// A title without the spec reporter's ` (12ms)` of a slow test.
fn strip_duration(title: &str) -> &str {
    let Some((head, time)) = super::rsplit_once(title, " (") else {
        return title;
    };
    match time.strip_suffix("ms)") {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => title,
    }
}

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "  calc\n",
    "    ✔ adds\n",
    "    ✔ slow (120ms)\n",
    "    1) adds negative\n",
    "    - pending\n",
    "  2 passing (12ms)\n",
    "  1 pending\n",
    "  1 failing\n",
    "  1) calc\n",
    "       adds negative:\n",
    "     Error: x\n",
    "ok 1 calc adds\n",
    "not ok 2 calc adds negative\n",
    "# pass 1\n",
    "# fail 1\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<(String, Kind)> {
        let mut mocha = Mocha::default();
        for (index, raw) in log.lines().enumerate() {
            mocha.line(&Line::clean(raw.as_bytes(), index as u64));
        }
        mocha
            .finish()
            .failing
            .into_iter()
            .map(|(_, t)| (t.name, t.kind))
            .collect()
    }

    fn tests(names: &[(String, Kind)]) -> Vec<&str> {
        names.iter().map(|(n, _)| n.as_str()).collect()
    }

    const SPEC: &str = "

  calc
    ✔ adds
    1) adds negative
  1) calc fake test:
  3 failing
    ✔ prints a lie
    big (1+1) [x]?
      2) millions $ ^
      - skipped one
  hooks
    3) \"before all\" hook for \"never runs\"


  2 passing (128ms)
  1 pending
  3 failing

  1) calc
       adds negative:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
      at Context.<anonymous> (test/a.spec.js:4:44)

  2) calc
       big (1+1) [x]?
         millions $ ^:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  3) hooks
       \"before all\" hook for \"never runs\":
     Error: setup broke
      at Context.<anonymous> (test/a.spec.js:21:30)
";

    #[test]
    fn the_list_names_full_titles_and_hooks() {
        let found = names(SPEC);
        assert_eq!(
            tests(&found),
            [
                "calc adds negative",
                "calc big (1+1) [x]? millions $ ^",
                "hooks \"before all\" hook for \"never runs\"",
            ]
        );
        assert_eq!(found[2].1, Kind::Suite);
    }

    #[test]
    fn a_printed_list_entry_is_not_mochas() {
        // `  1) calc fake test:` came before the epilogue: not in the list.
        assert!(!tests(&names(SPEC)).contains(&"calc fake test"));
    }

    #[test]
    fn entries_past_the_count_or_out_of_sequence_are_not_mochas() {
        let log = "
  1 passing (3ms)
  1 failing

  1) real:
     Error: x
  2) printed after:
     Error: y
  1) again:
";
        assert_eq!(tests(&names(log)), ["real"]);
    }

    #[test]
    fn the_last_epilogue_is_the_runs() {
        // A test printed an epilogue with a failure; mocha's own says none.
        let log = "
  suite
  1 passing (1ms)
  1 failing

  1) forged:
     Error: x
    ✔ prints
  2 passing (5ms)
";
        assert_eq!(tests(&names(log)), Vec::<&str>::new());
    }

    #[test]
    fn a_cut_list_is_unjudged() {
        let log = "
  calc
    1) fails
    2) also
  0 passing (3ms)
  2 failing

  1) calc
       fails:
     Error: x
";
        assert_eq!(tests(&names(log)), ["calc fails", "calc also"]);
    }

    #[test]
    fn without_an_epilogue_the_inline_marks_stand() {
        let log = "
  calc
    ✔ adds (12ms)
    1) adds negative
";
        let mut mocha = Mocha::default();
        for (index, raw) in log.lines().enumerate() {
            mocha.line(&Line::clean(raw.as_bytes(), index as u64));
        }
        let findings = mocha.finish();
        assert!(findings.unclosed.is_some());
        assert_eq!(findings.failing.len(), 1);
        assert_eq!(findings.failing[0].1.name, "calc adds negative");
        assert_eq!(
            findings.seen.get("calc adds").map(|n| n.outcome),
            Some(Outcome::Passed)
        );
    }

    #[test]
    fn tap_lines_need_their_number_in_sequence() {
        let log = "ok 1 calc adds
not ok 2 calc adds negative
  Error: x
not ok 9 printed by a test
ok 3 calc skipped # SKIP -
# tests 2
# pass 1
# fail 1
1..3
";
        assert_eq!(tests(&names(log)), ["calc adds negative"]);
        let passed = "ok 1 a\nnot ok 2 printed - by a test\n# pass 1\n# fail 0\n";
        assert_eq!(tests(&names(passed)), Vec::<&str>::new());
    }

    #[test]
    fn tap_must_not_fire_on_node_tap() {
        let log = "TAP version 13\n# Subtest: a\nnot ok 1 - a\n1..1\n# fail 1\n";
        assert_eq!(tests(&names(log)), Vec::<&str>::new());
    }

    #[test]
    fn epilogue_lines() {
        assert_eq!(
            epilogue_line("  3 passing (128ms)"),
            Some(EpilogueLine::Passing(3))
        );
        assert_eq!(epilogue_line("  2 pending"), Some(EpilogueLine::Pending(2)));
        assert_eq!(epilogue_line("  1 failing"), Some(EpilogueLine::Failing(1)));
        // Where it must not fire.
        assert_eq!(epilogue_line("    3 passing (1ms)"), None);
        assert_eq!(epilogue_line("  3 passing"), None);
        assert_eq!(epilogue_line("  x failing"), None);
        assert_eq!(
            epilogue_line("  99999999999999999999999 failing"),
            None,
            "too large"
        );
    }

    #[test]
    fn durations_and_kinds() {
        assert_eq!(strip_duration("adds (120ms)"), "adds");
        assert_eq!(strip_duration("adds (x)"), "adds (x)");
        assert_eq!(kind_of("s \"after each\" hook for \"t\""), Kind::Suite);
        assert_eq!(kind_of("before all hook"), Kind::Test);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_lines_that_almost_match(
            lines in proptest::collection::vec("(  |    |       |ok |not ok |# )?([0-9]{1,3}\\) |✔ |- )?[a-z:()\" .0-9é]{0,16}( passing \\(1ms\\)| failing| pending|:)?", 0..48)
        ) {
            names(&lines.join("\n"));
        }
    }
}
