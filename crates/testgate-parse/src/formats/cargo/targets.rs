//! cargo's own word on which test targets failed: a failing target that
//! libtest named no test of (`harness = false`, or a binary that died).
//!
//! After a test target's process ends with a failure, cargo says so on
//! stderr, `error: test failed, to rerun pass `--test it`` (`doctest
//! failed`, `bench failed`), and with `--no-fail-fast` it closes the run
//! with `error: 2 targets failed:` and the selectors, one a line. A target
//! without libtest's harness prints no `running N tests`, no `test result:`:
//! those lines are all that names its failure.
//!
//! A test can print them too, so they obey the scope rule
//! ([`super::super::scope`]): each per-target line is a *candidate* for the
//! target cargo last announced (`Running …`, `Doc-tests …`: cargo's stderr,
//! in order with these lines). The run's end judges them: cargo's closing
//! list, when no target was announced after it, keeps exactly the
//! candidates it lists; without one (cargo stops at the first failing
//! target unless `--no-fail-fast`), only a candidate after which no target
//! was announced stands. A standing target is named only where libtest
//! confirmed no failing test in it: one whose failures are named needs no
//! second name.

use super::super::scope::{Judgement, Scope};
use crate::report::{FailingTest, Kind};
use crate::runner::Runner;

/// The most target failures kept: a log can print the line any number of
/// times, a real run fails each target once.
const MAX_TARGETS: usize = 4096;

/// The longest selector read; cargo's are a package and a target name.
const MAX_SELECTOR: usize = 512;

/// One `error: test failed, to rerun pass `SELECTOR`` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FailedTarget {
    /// The line that said it.
    index: u64,
    /// cargo's selector of the target: `--test it`, `--doc`, `-p a --lib`.
    selector: String,
    /// The announcement it follows, by number.
    announcement: u64,
    /// The target as cargo announced it: `tests/it.rs`, `Doc-tests demo`.
    context: Option<String>,
}

/// What cargo said of its targets in one log.
#[derive(Debug, Default)]
pub(super) struct Targets {
    /// `Running …` and `Doc-tests …` lines read so far.
    announcements: u64,
    /// Announcements whose libtest binary confirmed a failing test.
    named_in: Vec<u64>,
    /// Per-target failure lines that may be cargo's.
    failed: Vec<FailedTarget>,
    /// The last closing list: the announcement it follows, its line, and
    /// the selectors it gives.
    closing: Option<(u64, u64, Vec<String>)>,
    /// A closing list is being read.
    in_closing_list: bool,
}

impl Targets {
    /// cargo announced the next target.
    pub(super) fn announce(&mut self) {
        self.announcements = self.announcements.saturating_add(1);
        self.in_closing_list = false;
    }

    /// libtest confirmed a failing test in the binary of the target
    /// announced last.
    pub(super) fn named_a_failure(&mut self) {
        if self.named_in.last() != Some(&self.announcements) {
            self.named_in.push(self.announcements);
        }
    }

    /// A per-target failure line at `index` naming `selector`, for the
    /// target announced last (`context`); not yet accepted.
    pub(super) fn line(&self, index: u64, selector: &str, context: Option<&str>) -> FailedTarget {
        FailedTarget {
            index,
            selector: selector.to_owned(),
            announcement: self.announcements,
            context: context.map(str::to_owned),
        }
    }

    /// Takes `target` as a candidate.
    pub(super) fn accept(&mut self, target: FailedTarget) {
        if self.failed.len() < MAX_TARGETS {
            self.failed.push(target);
        }
    }

    /// cargo's `error: N targets failed:` at `index`: a list starts, and
    /// replaces any earlier one.
    pub(super) fn start_closing_list(&mut self, index: u64) {
        self.closing = Some((self.announcements, index, Vec::new()));
        self.in_closing_list = true;
    }

    /// Whether a closing list is being read.
    pub(super) fn in_closing_list(&self) -> bool {
        self.in_closing_list
    }

    /// A line inside the closing list: an entry (true), or its end.
    pub(super) fn closing_list_line(&mut self, text: &str) -> bool {
        match (closing_entry(text), self.closing.as_mut()) {
            (Some(selector), Some((_, _, selectors))) => {
                if selectors.len() < MAX_TARGETS {
                    selectors.push(selector.to_owned());
                }
                true
            }
            (None, _) | (_, None) => {
                self.in_closing_list = false;
                false
            }
        }
    }

    /// The end of the log: the targets that stand and that libtest named no
    /// failing test of, as failures of kind [`Kind::Package`] named by
    /// their selector, with the line that first named each.
    pub(super) fn finish(self) -> Vec<(u64, FailingTest)> {
        let last = self.announcements;
        // A list that some target's announcement follows was printed by a
        // target: cargo prints its own after every target ran.
        let list = self.closing.filter(|(after, _, _)| *after == last);
        let mut scope = Scope::default();
        for target in &self.failed {
            if list.is_some() || target.announcement == last {
                scope.candidate(target.index, &target.selector, None, Kind::Package);
            }
        }
        let judgement = match &list {
            Some((_, index, selectors)) => {
                scope.start_list();
                for selector in selectors {
                    // cargo said each listed target failed when it ended:
                    // a name its list alone gives was printed.
                    if scope.is_candidate(selector, None) {
                        scope.list(*index, selector, None, Kind::Package);
                    }
                }
                Judgement::Listed
            }
            None => Judgement::Unjudged,
        };
        scope
            .close(judgement)
            .into_iter()
            .filter_map(|confirmed| {
                let target = self.failed.iter().find(|t| {
                    t.selector == confirmed.name && (list.is_some() || t.announcement == last)
                })?;
                if self.named_in.contains(&target.announcement) {
                    return None;
                }
                let test = FailingTest::new(confirmed.name, Runner::Cargo, target.context.clone())
                    .with_kind(Kind::Package);
                Some((confirmed.index, test))
            })
            .collect()
    }
}

/// The selector of cargo's `error: test failed, to rerun pass `--test it``
/// (also `doctest failed`, `bench failed`).
pub(super) fn failed_target(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("error: ")?;
    let rest = ["test", "doctest", "bench"]
        .iter()
        .find_map(|what| rest.strip_prefix(what))?
        .strip_prefix(" failed, to rerun pass `")?;
    let selector = rest.trim_end().strip_suffix('`')?;
    is_selector(selector).then_some(selector)
}

/// cargo's `error: 2 targets failed:` (`1 target failed:`), which opens
/// the list that closes a `--no-fail-fast` run.
pub(super) fn closing_header(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("error: ") else {
        return false;
    };
    let Some((count, rest)) = rest.split_once(' ') else {
        return false;
    };
    !count.is_empty()
        && count.bytes().all(|b| b.is_ascii_digit())
        && matches!(rest.trim_end(), "target failed:" | "targets failed:")
}

/// An entry of cargo's closing list: ``    `--test it` ``.
fn closing_entry(text: &str) -> Option<&str> {
    let selector = text.strip_prefix("    `")?.trim_end().strip_suffix('`')?;
    is_selector(selector).then_some(selector)
}

/// Whether `selector` has the shape of cargo's: options (`--lib`, `--doc`,
/// `--test NAME`, `-p PKG --bin NAME`), nothing a test's name could be.
fn is_selector(selector: &str) -> bool {
    (selector.starts_with("--") || selector.starts_with("-p "))
        && selector.len() <= MAX_SELECTOR
        && !selector.contains('`')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_target_reads_cargos_three_spellings() {
        assert_eq!(
            failed_target("error: test failed, to rerun pass `--test regexp_filter`"),
            Some("--test regexp_filter")
        );
        assert_eq!(
            failed_target("error: doctest failed, to rerun pass `--doc`"),
            Some("--doc")
        );
        assert_eq!(
            failed_target("error: bench failed, to rerun pass `-p a --bench b`"),
            Some("-p a --bench b")
        );
    }

    #[test]
    fn failed_target_must_not_fire_on_other_lines() {
        assert_eq!(failed_target("error: could not compile `demo`"), None);
        assert_eq!(failed_target("error: test failed, to rerun pass `x`"), None);
        assert_eq!(
            failed_target("  error: test failed, to rerun pass `--lib`"),
            None
        );
        assert_eq!(
            failed_target("error: test failed, to rerun pass `--lib"),
            None
        );
        assert_eq!(failed_target("error: test run failed"), None);
    }

    #[test]
    fn the_closing_list_and_its_entries() {
        assert!(closing_header("error: 2 targets failed:"));
        assert!(closing_header("error: 1 target failed:"));
        assert!(!closing_header("error: many targets failed:"));
        assert!(!closing_header("error: 2 tests failed:"));
        assert_eq!(
            closing_entry("    `--test regexp_filter`"),
            Some("--test regexp_filter")
        );
        assert_eq!(closing_entry("    `src/lib.rs - add (line 3)`"), None);
        assert_eq!(closing_entry("      `--doc`"), None);
    }

    fn failed(targets: &mut Targets, index: u64, selector: &str) {
        let line = targets.line(index, selector, Some(selector));
        targets.accept(line);
    }

    fn names(targets: Targets) -> Vec<String> {
        targets.finish().into_iter().map(|(_, t)| t.name).collect()
    }

    #[test]
    fn without_a_list_only_the_last_word_stands() {
        let mut targets = Targets::default();
        targets.announce();
        failed(&mut targets, 1, "--test printed");
        targets.announce();
        failed(&mut targets, 3, "--test real");
        assert_eq!(names(targets), ["--test real"]);
    }

    #[test]
    fn a_list_keeps_exactly_the_candidates_it_lists() {
        let mut targets = Targets::default();
        targets.announce();
        failed(&mut targets, 1, "--test printed");
        targets.announce();
        failed(&mut targets, 3, "--test real");
        targets.announce();
        failed(&mut targets, 5, "--doc");
        targets.start_closing_list(6);
        for line in [
            "    `--test real`",
            "    `--doc`",
            "    `--test only-listed`",
        ] {
            targets.closing_list_line(line);
        }
        targets.closing_list_line("");
        assert!(!targets.in_closing_list());
        assert_eq!(names(targets), ["--test real", "--doc"]);
    }

    #[test]
    fn a_list_that_a_target_follows_was_printed() {
        let mut targets = Targets::default();
        targets.announce();
        failed(&mut targets, 1, "--test printed");
        targets.start_closing_list(2);
        targets.closing_list_line("    `--test printed`");
        targets.announce();
        assert_eq!(names(targets), Vec::<String>::new());
    }

    #[test]
    fn a_target_whose_failing_tests_libtest_named_is_not_named_again() {
        let mut targets = Targets::default();
        targets.announce();
        targets.named_a_failure();
        failed(&mut targets, 1, "--lib");
        assert_eq!(names(targets), Vec::<String>::new());
    }
}
