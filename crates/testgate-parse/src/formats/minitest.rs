//! minitest 5's console: its progress dots, `-v`'s `Class#test_x = 0.00 s
//! = F` lines, the numbered list of failures and errors after `Finished
//! in`, and the `N runs, N assertions, N failures, N errors, N skips`
//! summary.
//!
//! A failing name is `Class#test_name` as minitest prints it, also a
//! spec-style one (`Spec calc::nested#test_0001_works`), as `-n` selects
//! it. minitest prints a test's own output where it runs, unmarked, so a
//! list entry (`  1) Failure:` then `Name [file:line]:`) is only a
//! candidate before `Finished in`; after it, the entries are minitest's own
//! list, which the summary judges: no failure and no error drops every
//! name, and a failing run names exactly its list. The last `Finished in`
//! starts the run's list (a test printed an earlier one). A log with no
//! summary (killed, cut) is unjudged, and so is one whose `-v` lines said
//! a test failed where the summary counts no failure (a test printed a
//! green summary and ended the run).

use std::collections::HashSet;

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer, trim_end};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The most names kept as errors: a hostile log cannot grow the set.
const MAX_ERRORS: usize = 1 << 16;

/// The summary line's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Summary {
    runs: u64,
    failures: u64,
    errors: u64,
    skips: u64,
}

/// Recognises minitest's console.
#[derive(Debug, Default)]
pub(crate) struct Minitest {
    findings: Findings,
    scope: Scope,
    /// `Finished in` came: entries now are the run's list.
    listing: bool,
    /// An entry's header (`  1) Failure:`) came: the next line names it;
    /// whether it is an error.
    header: Option<(u64, bool)>,
    /// The names the list gave as errors (`  2) Error:`), up to
    /// [`MAX_ERRORS`].
    errored: HashSet<String>,
    /// The number the next entry must have.
    next_entry: u64,
    /// The failures and the errors the run's list (since the last
    /// `Finished in`) gave: the summary must count as many.
    listed: (u64, u64),
    summary: Option<Summary>,
    /// A `-v` line said a test failed or errored.
    result_failed: bool,
    /// Ruby's report of an exception that ended the process came (a file
    /// that failed to load), and whether it named a test file yet.
    exception: Option<bool>,
    excerpts: Excerpts,
}

/// The summary: `6 runs, 4 assertions, 2 failures, 1 errors, 1 skips`.
fn summary(text: &str) -> Option<Summary> {
    let mut numbers = [0u64; 5];
    let words = ["runs", "assertions", "failures", "errors", "skips"];
    let mut parts = text.split(", ");
    for (n, word) in numbers.iter_mut().zip(words) {
        let (count, what) = parts.next()?.split_once(' ')?;
        if what != word {
            return None;
        }
        *n = count.parse().ok()?;
    }
    parts.next().is_none().then_some(Summary {
        runs: numbers[0],
        failures: numbers[2],
        errors: numbers[3],
        skips: numbers[4],
    })
}

/// An entry's header, `  2) Error:`: its number and whether it is a
/// failure or an error (`Skipped:` is neither: `None`).
fn header(text: &str) -> Option<(u64, bool)> {
    let rest = text.strip_prefix("  ")?;
    let (number, what) = super::split_once(rest, ") ")?;
    let number: u64 = number.parse().ok()?;
    match what {
        "Failure:" => Some((number, true)),
        "Error:" => Some((number, false)),
        _ => None,
    }
}

/// A skipped entry's header, `  2) Skipped:`: its number.
fn skipped_header(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("  ")?;
    let (number, what) = super::split_once(rest, ") ")?;
    (what == "Skipped:").then(|| number.parse().ok())?
}

/// The line naming an entry's test: `CalcTest#test_x [test/x.rb:9]:`,
/// `CalcTest#test_raises:`.
fn entry_name(text: &str) -> Option<&str> {
    let name = text.strip_suffix(':')?;
    let name = match name.rfind(" [") {
        Some(at) if name.ends_with(']') => &name[..at],
        _ => name,
    };
    is_test_name(name).then_some(name)
}

/// Whether `name` is a test as minitest names it: `Class#test_…`, the
/// class not empty. minitest runs the methods whose names start with
/// `test_`; a spec's are `test_0001_` and its description, any text (so
/// the `#` is the first one before `#test_`).
fn is_test_name(name: &str) -> bool {
    name.split_once("#test_")
        .is_some_and(|(class, _)| !class.is_empty() && !class.starts_with(' '))
}

/// Whether `path` is a minitest file by its name (`test/calc_test.rb`,
/// `/p/test/test_calc.rb`).
fn is_test_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".rb") && (name.ends_with("_test.rb") || name.starts_with("test_"))
}

/// `PATH:LINE:` at the start of `text` (the first `:LINE:`): the path
/// (a Ruby file, or Ruby's own `<internal:…>`), and what follows.
fn ruby_place(text: &str) -> Option<(&str, &str)> {
    let mut from = 0;
    while let Some(at) = text[from..].find(':').map(|at| from + at) {
        let rest = &text[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0
            && let Some(after) = rest[digits..].strip_prefix(':')
        {
            let path = &text[..at];
            let plain = !path.is_empty() && !path.contains(char::is_whitespace);
            return plain.then_some((path, after));
        }
        from = at + 1;
    }
    None
}

/// Ruby's report of the exception that ended the process, on its first
/// line: `test/x_test.rb:5:in `<main>': uninitialized constant Oops
/// (NameError)`, or a syntax error (`test/x_test.rb:4: syntax error, …`,
/// also behind `require`'s frame as rake's test loader prints it). The
/// file it names, which may be no test file (a library a test file
/// loads: its `from` lines name the test file).
fn ruby_exception(text: &str) -> Option<&str> {
    let (path, rest) = ruby_place(text)?;
    if rest.starts_with(" syntax error") {
        return Some(path);
    }
    let rest = rest.strip_prefix("in ")?;
    if !text.ends_with(')') {
        return None;
    }
    // `in `require': /p/test/x_test.rb:4: syntax error, …`: the file
    // that failed to parse.
    for quoted in ["`require': ", "'Kernel#require': "] {
        if let Some(inner) = rest.strip_prefix(quoted)
            && let Some((inner_path, after)) = ruby_place(inner)
            && after.starts_with(" syntax error")
        {
            return Some(inner_path);
        }
    }
    rest.contains("': ").then_some(path)
}

/// A backtrace line after Ruby's report of an exception: `\tfrom
/// test/x_test.rb:2:in `<main>'`; the file.
fn ruby_frame(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("\tfrom ")?;
    ruby_place(rest).map(|(path, _)| path)
}

/// A `-v` result line: `CalcTest#test_adds = 0.00 s = .`.
fn result_line(text: &str) -> Option<(&str, Outcome)> {
    let (rest, mark) = super::rsplit_once(text, " = ")?;
    let (name, time) = super::rsplit_once(rest, " = ")?;
    let seconds = time.strip_suffix(" s")?;
    if seconds.parse::<f64>().is_err() || !is_test_name(name) {
        return None;
    }
    let outcome = match mark {
        "." => Outcome::Passed,
        "F" => Outcome::Failed,
        "E" => Outcome::Error,
        "S" => Outcome::Skipped,
        _ => return None,
    };
    Some((name, outcome))
}

impl Minitest {
    fn judge(&mut self) {
        let judgement = match self.summary {
            Some(summary) if summary.failures == 0 && summary.errors == 0 => {
                if self.result_failed {
                    // A test that ends the run prints a green summary of
                    // its own: the `-v` line of a failed test outweighs it.
                    self.findings.unclosed.get_or_insert_with(|| {
                        "a minitest `-v` line said a test failed, and the summary counted no failure"
                            .to_owned()
                    });
                    Judgement::Unjudged
                } else {
                    Judgement::Passed
                }
            }
            Some(summary) if self.scope.has_list() => self.list_adds_up(summary),
            Some(_) | None => Judgement::Unjudged,
        };
        let scope = std::mem::take(&mut self.scope);
        for confirmed in scope.close(judgement) {
            let (message, excerpt) = self.excerpts.take(&confirmed.name);
            let outcome = if self.errored.contains(&confirmed.name) {
                Outcome::Error
            } else {
                Outcome::Failed
            };
            self.findings
                .seen
                .note(confirmed.index, &confirmed.name, None, outcome);
            let test = FailingTest::new(confirmed.name, Runner::Minitest, None)
                .with_kind(confirmed.kind)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
    }
}

impl Minitest {
    /// A failing run's list judges only where it adds up to the summary's
    /// failures and errors: minitest prints one entry for each, so an entry
    /// more or fewer was printed by something else (a test's thread writing
    /// while the reporter does), and which one is not known.
    fn list_adds_up(&mut self, summary: Summary) -> Judgement {
        let (failures, errors) = self.listed;
        if (failures, errors) == (summary.failures, summary.errors) {
            return Judgement::Listed;
        }
        self.findings.unclosed.get_or_insert_with(|| {
            format!(
                "minitest's list named {failures} failures and {errors} errors, its summary counted {} and {}",
                summary.failures, summary.errors
            )
        });
        Judgement::Unjudged
    }

    /// Whether `text` is a line of Ruby's report of a test file that failed
    /// to load: the exception line (naming the file where it is a test
    /// file), else the first `from` frame that names a test file.
    fn load_failure(&mut self, index: u64, text: &str) -> bool {
        if self.exception == Some(false)
            && let Some(path) = ruby_frame(text)
        {
            if is_test_file(path) {
                self.exception = Some(true);
                self.findings.detected(index);
                self.scope.candidate(index, path, None, Kind::File);
            }
            return true;
        }
        if self.exception.is_none()
            && let Some(path) = ruby_exception(text)
        {
            let named = is_test_file(path);
            self.exception = Some(named);
            if named {
                self.findings.detected(index);
                self.scope.candidate(index, path, None, Kind::File);
                self.excerpts.open(path);
                self.excerpts.message(text);
                self.excerpts.push(text);
                self.excerpts.end();
            }
            return true;
        }
        false
    }
}

impl Recognizer for Minitest {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = trim_end(&line.text);
        let index = line.index;
        if let Some((number, error)) = self.header.take()
            && let Some(name) = entry_name(text)
        {
            if error && self.errored.len() < MAX_ERRORS {
                self.errored.insert(name.to_owned());
            }
            if self.listing {
                let (failures, errors) = &mut self.listed;
                let counted = if error { errors } else { failures };
                *counted = counted.saturating_add(1);
                self.scope.list(index, name, None, Kind::Test);
            } else {
                self.scope.candidate(index, name, None, Kind::Test);
            }
            self.next_entry = number + 1;
            self.excerpts.open(name);
            return;
        }
        if let Some((number, failure)) = header(text) {
            self.excerpts.end();
            if number == self.next_entry || number == 1 {
                self.header = Some((number, !failure));
            }
            return;
        }
        if let Some(number) = skipped_header(text) {
            self.excerpts.end();
            self.next_entry = number + 1;
            return;
        }
        if let Some(found) = summary(text) {
            self.excerpts.end();
            self.findings.detected(index);
            self.summary = Some(found);
            self.listing = false;
            return;
        }
        if text.starts_with("Finished in ") && text.contains(" runs/s") {
            self.excerpts.end();
            self.findings.detected(index);
            self.listing = true;
            self.listed = (0, 0);
            self.next_entry = 1;
            self.scope.start_list();
            return;
        }
        if text == "# Running:" || text.starts_with("Run options: ") {
            self.findings.detected(index);
            return;
        }
        if self.load_failure(index, text) {
            return;
        }
        if self.excerpts.is_open() {
            if text.is_empty() {
                self.excerpts.end();
                return;
            }
            if !self.excerpts.has_message() {
                self.excerpts.message(text);
            }
            self.excerpts.push(text);
            return;
        }
        // A result line ends with its mark: anything else is nothing.
        if !text.ends_with(['.', 'F', 'E', 'S']) {
            return;
        }
        if let Some((name, outcome)) = result_line(text) {
            self.findings.detected(index);
            self.result_failed |= outcome.is_failure();
            self.findings.seen.note(index, name, None, outcome);
        }
    }

    fn finish(&mut self) -> Findings {
        self.excerpts.end();
        match self.summary {
            Some(summary) => {
                let failed = summary.failures.saturating_add(summary.errors);
                self.findings.counts.add(Counts {
                    passed: Some(
                        summary
                            .runs
                            .saturating_sub(failed)
                            .saturating_sub(summary.skips),
                    ),
                    failed: Some(failed),
                    skipped: Some(summary.skips),
                });
                self.findings.no_tests_ran = summary.runs == 0;
            }
            // Ruby's report of the exception that ended the process (a
            // test file that failed to load): the whole story, no test ran.
            None if self.exception == Some(true) => {}
            None if self.findings.detected_at.is_some() => {
                self.findings.unclosed.get_or_insert_with(|| {
                    "a minitest run printed no `N runs, N assertions` summary".to_owned()
                });
            }
            None => {}
        }
        self.judge();
        std::mem::take(&mut self.findings)
    }

    /// Between entries (no header waiting for its name, no excerpt open):
    /// the lines that start a header, the summary, `Finished in`, `#
    /// Running:` or `Run options:`, and those that may be a `-v` result
    /// line. A result line starts with its class or a spec's description,
    /// which may be any character but a space, and ends with its mark once
    /// trimmed (so also with white space or a non-ASCII character, which
    /// may be white space); otherwise every line.
    fn interest(&self) -> &'static Interest {
        if self.header.is_none() && !self.excerpts.is_open() {
            &BETWEEN_ENTRIES
        } else {
            &Interest::ALL
        }
    }
}

/// The lines `line` reads between entries (see [`Minitest::interest`]).
static BETWEEN_ENTRIES: Interest = Interest::NONE
    .first(b"#FR+")
    .first_range(b'0', b'9')
    .indented(b"+")
    .indented_range(b'0', b'9')
    .first_ending(&RESULT_FIRST, &RESULT_LAST);

/// Every first byte but a space (key 0 is also a line that starts with NUL).
const RESULT_FIRST: [u8; 255] = {
    let mut bytes = [0; 255];
    let mut b = 0;
    while b < 255 {
        bytes[b] = if b < 32 { b as u8 } else { b as u8 + 1 };
        b += 1;
    }
    bytes
};

/// A result's marks, the ASCII white space `trim_end` cuts, and every
/// non-ASCII byte.
const RESULT_LAST: [u8; 138] = {
    let mut bytes = [0; 138];
    let marks = *b".FES\t\n\x0b\x0c\r ";
    let mut i = 0;
    while i < marks.len() {
        bytes[i] = marks[i];
        i += 1;
    }
    while i < 138 {
        bytes[i] = (0x80 + i - marks.len()) as u8;
        i += 1;
    }
    bytes
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "Run options: --seed 1\n",
    "# Running:\n",
    "FSE.F.\n",
    "Finished in 0.012034s, 498.5748 runs/s, 332.3832 assertions/s.\n",
    "  1) Failure:\n",
    "  2) Error:\n",
    "  3) Skipped:\n",
    "CalcTest#test_adds_wrongly [test/calc_test.rb:9]:\n",
    "CalcTest#test_raises:\n",
    "Expected: 5\n",
    "CalcTest#test_adds = 0.00 s = .\n",
    "Spec calc#test_0001_multiplies = 0.00 s = F\n",
    "6 runs, 4 assertions, 2 failures, 1 errors, 1 skips\n",
    "\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Minitest, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    const FAILED: &str = "\
Run options: --seed 1

# Running:

F.E

Finished in 0.012034s, 498.5748 runs/s, 332.3832 assertions/s.

  1) Failure:
Spec calc#test_0001_multiplies [test/calc_test.rb:23]:
Expected: 7
  Actual: 6

  2) Error:
CalcTest#test_raises:
ArgumentError: boom
    test/calc_test.rb:13:in `test_raises'

3 runs, 2 assertions, 1 failures, 1 errors, 0 skips
";

    #[test]
    fn the_list_names_failures_and_errors() {
        let report = crate::parse(Runner::Minitest, FAILED);
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["Spec calc#test_0001_multiplies", "CalcTest#test_raises"]
        );
        assert_eq!(report.failing[0].message.as_deref(), Some("Expected: 7"));
        assert_eq!(report.counts.passed, Some(1));
    }

    #[test]
    fn a_forged_list_names_nothing() {
        let forged = "\
# Running:

.
Finished in 0.01s, 1.0 runs/s, 1.0 assertions/s.

  1) Failure:
Forged#test_x [x.rb:1]:
1 runs, 1 assertions, 1 failures, 0 errors, 0 skips
..

Finished in 0.012034s, 498.5748 runs/s, 332.3832 assertions/s.

3 runs, 3 assertions, 0 failures, 0 errors, 0 skips
";
        assert!(names(forged).is_empty());
        // Printed before the run's own list, in a failing run: only the
        // run's list stands.
        let both = forged.replace("3 runs, 3 assertions, 0 failures, 0 errors, 0 skips\n", "")
            + &FAILED[FAILED.find("Finished").unwrap_or(0)..];
        assert_eq!(
            names(&both),
            ["Spec calc#test_0001_multiplies", "CalcTest#test_raises"]
        );
    }

    #[test]
    fn without_v_the_list_names_failures_only_where_it_adds_up() {
        // The default console (no `-v`): the list names the failures and
        // errors, the passing tests stay unnamed.
        let report = crate::parse(Runner::Minitest, FAILED);
        assert!(report.unclosed.is_none(), "{report:?}");
        assert_eq!(report.tests.len(), 2);
        // Hand-made (a test's thread writing while minitest's reporter
        // does): one entry more than the summary counts. Which one is
        // forged is unknown: the run is unclosed, no name confirmed.
        let ghost = FAILED.replace(
            "\n3 runs,",
            "\n  3) Failure:\nGhost#test_x [g.rb:1]:\nnope\n\n3 runs,",
        );
        let report = crate::parse(Runner::Minitest, &ghost);
        assert!(
            report
                .unclosed
                .as_deref()
                .is_some_and(|u| u.contains("2 failures and 1 errors")),
            "{report:?}"
        );
        // And one fewer: an entry cut out of the list.
        let short = FAILED.replace("1 failures, 1 errors", "2 failures, 1 errors");
        assert!(crate::parse(Runner::Minitest, &short).unclosed.is_some());
    }

    #[test]
    fn a_green_summary_after_a_failed_line_is_unclosed() {
        let log = "\
# Running:

CalcTest#test_fails = 0.00 s = F
LiarTest#test_forges = 
Finished in 0.01s, 1.0 runs/s, 1.0 assertions/s.

2 runs, 2 assertions, 0 failures, 0 errors, 0 skips
";
        let report = crate::parse(Runner::Minitest, log);
        assert!(report.unclosed.is_some(), "{report:?}");
        // Where it must not fire: a failed line the summary counts (and
        // minitest's list names).
        let honest = log.replace(
            "\n2 runs, 2 assertions, 0 failures",
            "  1) Failure:\nCalcTest#test_fails [t.rb:1]:\nno\n\n2 runs, 2 assertions, 1 failures",
        );
        assert!(crate::parse(Runner::Minitest, &honest).unclosed.is_none());
    }

    #[test]
    fn helpers_must_not_fire_on_prose() {
        assert!(summary("6 runs, 4 assertions, 2 failures, 1 errors, 1 skips").is_some());
        assert_eq!(summary("6 runs, 4 assertions, 2 failures"), None);
        assert_eq!(header("  1) Failure:"), Some((1, true)));
        assert_eq!(header("  1) Skipped:"), None);
        assert_eq!(entry_name("A#test_x [t.rb:9]:"), Some("A#test_x"));
        assert_eq!(entry_name("ArgumentError: boom"), None);
        assert_eq!(
            result_line("CalcTest#test_adds = 0.00 s = ."),
            Some(("CalcTest#test_adds", Outcome::Passed))
        );
        assert_eq!(result_line("x = 0.00 s = ."), None);
        assert!(is_test_name("named (x)#test_0001_a.b*c|d^$ ✓ /slash/"));
        assert!(!is_test_name("Foo#bar") && !is_test_name("#test_x"));
        assert_eq!(result_line("A#b = soon = F"), None);
    }

    #[test]
    fn a_test_file_that_fails_to_load_is_named_by_its_path() {
        // `ruby -Itest test/broken_test.rb` (Ruby 3.1), and rake's loader
        // (an absolute path, a syntax error behind `require`).
        let direct = "\
test/broken_test.rb:5:in `<main>': uninitialized constant Oops (NameError)

Oops.call
^^^^
";
        let report = crate::parse(Runner::Minitest, direct);
        assert_eq!(report.names().collect::<Vec<_>>(), ["test/broken_test.rb"]);
        assert_eq!(report.failing[0].kind, Kind::File);
        assert_eq!(report.unclosed, None);
        let syntax = "\
<internal:/usr/lib/ruby/vendor_ruby/rubygems/core_ext/kernel_require.rb>:85:in `require': /p/test/syn_test.rb:4: syntax error, unexpected end-of-input, expecting `end' (SyntaxError)
\tfrom /usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/rake_test_loader.rb:21:in `block in <main>'
rake aborted!
";
        assert_eq!(names(syntax), ["/p/test/syn_test.rb"]);
        assert_eq!(
            names("/p/t/test_calc.rb:4: syntax error, unexpected end-of-input\n"),
            ["/p/t/test_calc.rb"]
        );
        // A library the test file loads raised: its `from` line names the
        // test file.
        let library = "\
lib/calc.rb:3:in `<top (required)>': boom (RuntimeError)
\tfrom <internal:/usr/lib/ruby/vendor_ruby/rubygems/core_ext/kernel_require.rb>:85:in `require'
\tfrom test/calc_test.rb:2:in `<main>'
";
        assert_eq!(names(library), ["test/calc_test.rb"]);
        // Where it must not fire: a test printing such a line in a run
        // that passed, a script that is no test file, prose.
        let printed = format!(
            "# Running:\n\n{direct}.\n\nFinished in 0.01s, 1.0 runs/s, 1.0 assertions/s.\n\n1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n"
        );
        assert!(names(&printed).is_empty());
        assert!(names("script.rb:1:in `<main>': boom (RuntimeError)\n").is_empty());
        assert_eq!(ruby_exception("see test/a_test.rb:5 for details"), None);
        assert_eq!(ruby_exception("test/a_test.rb:5:in `x': boom"), None);
    }
}
