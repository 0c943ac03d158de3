//! RSpec 3's console, its progress (default) and documentation formatters:
//! the `Failures:` block, the `N examples, M failures` summary and the
//! `Failed examples:` list after it; rspec-retry's `RSpec::Retry: 2nd try`
//! lines.
//!
//! A failing name is the example's full description (its groups' and its
//! own descriptions joined by single spaces), as RSpec's JSON formatter's
//! `full_description` and `-e` spell it. RSpec prints a test's own output
//! where it runs, unmarked, so a line names only a candidate: the
//! `Failures:` block's `  N) description` entries, numbered from 1 in
//! sequence. The summary judges them: `0 failures` drops every one; a
//! failing run's `Failed examples:` list (`rspec ./spec/x_spec.rb:8 #
//! description`) is its own and names exactly what failed. The last
//! summary is the run's: a test that prints a summary and a list prints
//! them before RSpec's own, which replace them. A log without a summary
//! (killed, cut) is unjudged. A spec file that did not load (`An error
//! occurred while loading ./spec/x_spec.rb.`) is named by its path, kind
//! file, where the summary counts an error outside of examples.
//! rspec-retry (with `verbose_retry`) names a retried example only by its
//! place: a place retried and not in the list passed on a retry, and is
//! flaky under that place (`./spec/x_spec.rb:5`), which `rspec` also runs.

use std::collections::HashSet;

use super::scope::{Judgement, Scope};
use super::{Excerpts, Findings, Interest, Recognizer, trim_end};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The most places noted as retried or listed, and the most files that
/// did not load: a hostile log cannot grow them without end.
const MAX_PLACES: usize = 1 << 16;

/// Where in RSpec's closing blocks the line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Section {
    /// Outside any block.
    #[default]
    None,
    /// `Pending:`: its numbered entries are no failures.
    Pending,
    /// `Failures:`: its numbered entries are candidates.
    Failures,
    /// `Failed examples:`: the run's list.
    Listed,
}

/// The summary line's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Summary {
    examples: u64,
    failures: u64,
    pending: u64,
    /// Errors outside of examples (a file that did not load, a failing
    /// `before(:suite)` hook).
    outside: u64,
}

/// Recognises RSpec's console.
#[derive(Debug, Default)]
pub(crate) struct Rspec {
    findings: Findings,
    scope: Scope,
    section: Section,
    /// The number the next `Failures:` entry must have.
    next_entry: u64,
    /// The last summary.
    summary: Option<Summary>,
    /// The spec files that did not load, with their line.
    unloaded: Vec<(u64, String)>,
    /// The places rspec-retry retried, with their line.
    retried: Vec<(u64, String)>,
    /// The places of the last list.
    listed_places: HashSet<String>,
    excerpts: Excerpts,
}

/// A summary line: `8 examples, 3 failures, 1 pending`, `0 examples, 0
/// failures, 1 error occurred outside of examples`.
fn summary(text: &str) -> Option<Summary> {
    let mut parts = text.split(", ");
    let count = |part: Option<&str>, one: &str, many: &str| -> Option<u64> {
        let (n, what) = part?.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        (what == one || what == many).then_some(n)
    };
    let examples = count(parts.next(), "example", "examples")?;
    let failures = count(parts.next(), "failure", "failures")?;
    let mut summary = Summary {
        examples,
        failures,
        pending: 0,
        outside: 0,
    };
    for part in parts {
        if let Some(n) = count(Some(part), "pending", "pending") {
            summary.pending = n;
        } else {
            let (n, what) = part.split_once(' ')?;
            let n: u64 = n.parse().ok()?;
            if what != "error occurred outside of examples"
                && what != "errors occurred outside of examples"
            {
                return None;
            }
            summary.outside = n;
        }
    }
    Some(summary)
}

/// A block's entry, `  3) Calc when nested #divide fails, nested`: its
/// number and the full description.
fn entry(text: &str) -> Option<(u64, &str)> {
    let rest = text.strip_prefix("  ")?;
    let (number, description) = super::split_once(rest, ") ")?;
    let number: u64 = number.parse().ok()?;
    (!description.is_empty()).then_some((number, description))
}

/// A list line, `rspec ./spec/calc_spec.rb:8 # Calc adds wrongly`: the
/// place and the full description.
fn listed(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("rspec ")?;
    let (place, description) = super::split_once(rest, " # ")?;
    (!place.is_empty() && !place.contains(' ') && !description.is_empty())
        .then_some((place, description))
}

impl Rspec {
    fn judge(&mut self) {
        let judgement = match self.summary {
            Some(summary) if summary.failures == 0 => Judgement::Passed,
            Some(_) if self.scope.has_list() => Judgement::Listed,
            Some(_) | None => Judgement::Unjudged,
        };
        let scope = std::mem::take(&mut self.scope);
        for confirmed in scope.close(judgement) {
            let (message, excerpt) = self.excerpts.take(&confirmed.name);
            self.findings
                .seen
                .note(confirmed.index, &confirmed.name, None, Outcome::Failed);
            let test = FailingTest::new(confirmed.name, Runner::Rspec, None)
                .with_kind(confirmed.kind)
                .with_output(message, excerpt);
            self.findings.fail(confirmed.index, test);
        }
        let outside = self.summary.is_none_or(|summary| summary.outside > 0);
        if outside {
            for (index, path) in std::mem::take(&mut self.unloaded) {
                let test = FailingTest::new(path, Runner::Rspec, None)
                    .with_kind(Kind::File)
                    .with_output(Some("the spec file did not load".to_owned()), None);
                self.findings.fail(index, test);
            }
        }
        for (index, place) in std::mem::take(&mut self.retried) {
            if !self.listed_places.contains(&place) {
                self.findings.flaky.push((index, place));
            }
        }
    }

    /// A heading or a line of RSpec's closing blocks: `Failures:`,
    /// `Failed examples:`, `Pending:`, the summary, an entry of the list.
    /// Whether `text` was one.
    fn closing_block(&mut self, index: u64, text: &str) -> bool {
        match text {
            "Failures:" => {
                self.findings.detected(index);
                self.section = Section::Failures;
                self.next_entry = 1;
                return true;
            }
            "Failed examples:" => {
                self.findings.detected(index);
                self.section = Section::Listed;
                self.scope.start_list();
                self.listed_places.clear();
                return true;
            }
            _ => {}
        }
        if text.starts_with("Pending: (Failures listed here are expected") {
            self.findings.detected(index);
            self.section = Section::Pending;
            return true;
        }
        if let Some(found) = summary(text) {
            self.findings.detected(index);
            self.section = Section::None;
            self.summary = Some(found);
            return true;
        }
        if self.section == Section::Listed
            && let Some((place, description)) = listed(text)
        {
            self.scope.list(index, description, None, Kind::Test);
            if self.listed_places.len() < MAX_PLACES {
                self.listed_places.insert(place.to_owned());
            }
            return true;
        }
        false
    }

    /// A line RSpec or rspec-retry prints about the run: a spec file that
    /// did not load, a retried example's place, `Finished in` (the end of
    /// the blocks).
    fn run_note(&mut self, index: u64, text: &str) {
        if let Some(path) = text
            .strip_prefix("An error occurred while loading ")
            .and_then(|rest| rest.strip_suffix('.'))
        {
            self.findings.detected(index);
            if self.unloaded.len() < MAX_PLACES {
                self.unloaded.push((index, path.to_owned()));
            }
            return;
        }
        if let Some(place) = text
            .strip_prefix("RSpec::Retry: ")
            .and_then(|rest| rest.split_once(" try "))
            .map(|(_, place)| place)
            .filter(|place| !place.is_empty() && !place.contains(' '))
        {
            self.findings.detected(index);
            if self.retried.len() < MAX_PLACES && !self.retried.iter().any(|(_, p)| p == place) {
                self.retried.push((index, place.to_owned()));
            }
            return;
        }
        if text.starts_with("Finished in ") {
            self.section = Section::None;
        }
    }
}

impl Recognizer for Rspec {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = trim_end(&line.text);
        let index = line.index;
        if let Some((number, description)) = entry(text) {
            self.excerpts.end();
            if self.section == Section::Failures && number == self.next_entry {
                self.next_entry += 1;
                self.scope.candidate(index, description, None, Kind::Test);
                self.excerpts.open(description);
            }
            return;
        }
        if text.starts_with("     ") && self.excerpts.is_open() {
            let body = text.trim();
            if !self.excerpts.has_message() && body.starts_with("Failure/Error:") {
                self.excerpts.message(body);
            }
            self.excerpts.push(body);
            return;
        }
        if text.is_empty() {
            return;
        }
        self.excerpts.end();
        if self.closing_block(index, text) {
            return;
        }
        self.run_note(index, text);
    }

    fn finish(&mut self) -> Findings {
        self.excerpts.end();
        match self.summary {
            Some(summary) => {
                self.findings.counts.add(Counts {
                    passed: Some(
                        summary
                            .examples
                            .saturating_sub(summary.failures)
                            .saturating_sub(summary.pending),
                    ),
                    failed: Some(summary.failures),
                    skipped: Some(summary.pending),
                });
                self.findings.no_tests_ran = summary.examples == 0 && summary.outside == 0;
            }
            None if self.findings.detected_at.is_some() => {
                self.findings.unclosed.get_or_insert_with(|| {
                    "an RSpec run printed no `N examples, M failures` summary".to_owned()
                });
            }
            None => {}
        }
        self.judge();
        std::mem::take(&mut self.findings)
    }

    /// Outside a section and an excerpt, only the lines that open one or
    /// close the run (`Failures:`, `Failed examples:`, `Pending:`, the
    /// summary, `An error occurred…`, `RSpec::Retry:`, `Finished in`);
    /// otherwise every line.
    fn interest(&self) -> &'static Interest {
        if self.section == Section::None && !self.excerpts.is_open() {
            &OUTSIDE_SECTION
        } else {
            &Interest::ALL
        }
    }
}

/// The lines `line` reads outside a section: each starts with one of
/// these bytes (a summary's count with a digit, or `+`, which `u64`'s
/// parse takes), never with a space.
static OUTSIDE_SECTION: Interest = Interest::NONE.first(b"FPAR+").first_range(b'0', b'9');

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    ".F*",
    "Failures:\n",
    "  1) Calc adds wrongly\n",
    "  2) Calc raises\n",
    "     Failure/Error: expect(1 + 1).to eq(3)\n",
    "Pending: (Failures listed here are expected and do not affect your suite's status)\n",
    "Finished in 0.02 seconds (files took 0.1 seconds to load)\n",
    "8 examples, 3 failures, 1 pending\n",
    "1 example, 0 failures\n",
    "0 examples, 0 failures, 1 error occurred outside of examples\n",
    "Failed examples:\n",
    "rspec ./spec/calc_spec.rb:8 # Calc adds wrongly\n",
    "An error occurred while loading ./spec/bad_spec.rb.\n",
    "RSpec::Retry: 2nd try ./spec/flaky_spec.rb:5\n",
    "\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Rspec, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    const FAILED: &str = "\
.F.

Failures:

  1) Calc adds wrongly
     Failure/Error: expect(1 + 1).to eq(3)
     # ./spec/calc_spec.rb:9:in `block (2 levels)'

Finished in 0.02 seconds (files took 0.1 seconds to load)
3 examples, 1 failure

Failed examples:

rspec ./spec/calc_spec.rb:8 # Calc adds wrongly
";

    #[test]
    fn the_list_names_the_failures() {
        let report = crate::parse(Runner::Rspec, FAILED);
        assert_eq!(report.names().collect::<Vec<_>>(), ["Calc adds wrongly"]);
        assert_eq!(
            report.failing[0].message.as_deref(),
            Some("Failure/Error: expect(1 + 1).to eq(3)")
        );
        assert_eq!(report.counts.passed, Some(2));
    }

    #[test]
    fn a_forged_block_names_nothing() {
        // A passing test printed a whole failure block, summary and list;
        // RSpec's own summary came after it.
        let forged = "\
.
Failures:

  1) Forged example
     Failure/Error: nothing
1 example, 1 failure

Failed examples:

rspec ./spec/calc_spec.rb:1 # Forged example
..

Finished in 0.02 seconds (files took 0.1 seconds to load)
3 examples, 0 failures
";
        assert!(names(forged).is_empty());
        let both = forged.replace("3 examples, 0 failures\n", "") + &FAILED[4..];
        assert_eq!(names(&both), ["Calc adds wrongly"]);
    }

    #[test]
    fn helpers_must_not_fire_on_prose() {
        assert_eq!(
            summary("8 examples, 3 failures, 1 pending"),
            Some(Summary {
                examples: 8,
                failures: 3,
                pending: 1,
                outside: 0
            })
        );
        assert!(summary("1 example, 0 failures, 1 error occurred outside of examples").is_some());
        assert_eq!(summary("8 examples, 3 failures, 1 lost"), None);
        assert_eq!(summary("8 examples were fine"), None);
        assert_eq!(entry("  2) Calc raises"), Some((2, "Calc raises")));
        assert_eq!(entry("  x) Calc raises"), None);
        assert_eq!(entry("2) Calc raises"), None);
        assert_eq!(
            listed("rspec ./a_spec.rb:3 # A b"),
            Some(("./a_spec.rb:3", "A b"))
        );
        assert_eq!(listed("rspec is a tool # says who"), None);
        // Entries outside a `Failures:` block, or out of sequence, are
        // nothing.
        assert!(names("  1) Calc x\n").is_empty());
        let cut = "Failures:\n\n  1) Calc x\n  3) Calc y\n";
        let report = crate::parse(Runner::Rspec, cut);
        assert_eq!(report.names().collect::<Vec<_>>(), ["Calc x"]);
        assert!(report.unclosed.is_some());
    }

    #[test]
    fn a_file_that_did_not_load_is_named_and_a_retried_pass_is_flaky() {
        let log = "\
An error occurred while loading ./spec/bad_spec.rb.
Failure/Error: __send__(method, file)
No examples found.

Finished in 0.00005 seconds (files took 0.1 seconds to load)
0 examples, 0 failures, 1 error occurred outside of examples
";
        let report = crate::parse(Runner::Rspec, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["./spec/bad_spec.rb"]);
        assert_eq!(report.failing[0].kind, Kind::File);
        assert!(!report.no_tests_ran);
        let retried = "\
RSpec::Retry: 2nd try ./spec/flaky_spec.rb:5
.
RSpec::Retry: 2nd try ./spec/flaky_spec.rb:9
F

Failures:

  1) Flaky always fails
     Failure/Error: expect(1).to eq(2)

Finished in 0.02 seconds (files took 0.1 seconds to load)
2 examples, 1 failure

Failed examples:

rspec ./spec/flaky_spec.rb:9 # Flaky always fails
";
        let report = crate::parse(Runner::Rspec, retried);
        assert_eq!(report.names().collect::<Vec<_>>(), ["Flaky always fails"]);
        assert_eq!(report.flaky, ["./spec/flaky_spec.rb:5"]);
    }
}
