//! Grading a change against expected tests, as data: the tests that must
//! turn green (SWE-bench's FAIL_TO_PASS), the tests that must stay green
//! (PASS_TO_PASS), and what the attempts add up to for each. The analysis
//! only: the decision is in `decide_grade.rs`, its words in `words/`, the
//! driver ([`Grader`](crate::Grader)) in `grade.rs`.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::attempt::{Attempt, TestResult};

/// What to make of a listed test that never ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Missing {
    /// Nothing was proved: Inconclusive [`Cause::NotRun`](crate::Cause::NotRun) (the default).
    #[default]
    Inconclusive,
    /// The change fails, as SWE-bench grades a test missing from the log.
    Fail,
}

/// Which list a test is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum List {
    /// It must pass after the change (FAIL_TO_PASS).
    MustPass,
    /// It passed before and must keep passing (PASS_TO_PASS).
    KeepPassing,
    /// On no list: it failed in some attempt and [`Expectations::strict`]
    /// makes it gate as if it had to keep passing.
    Unlisted,
}

impl List {
    /// The snake_case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            List::MustPass => "must_pass",
            List::KeepPassing => "keep_passing",
            List::Unlisted => "unlisted",
        }
    }
}

/// One entry of a list of tests (`--expect`'s, `--baseline`'s): a name,
/// and the file where the list gives one.
///
/// An entry with a name alone matches every test of that name, in
/// whatever file (all of them must hold); one with a file matches the test
/// of that name whose place (its context: jest's and vitest's file) is
/// that file, a leading `./` aside (docs/formats.md, "A test's identity").
///
/// ```
/// use testgate_policy::ListedTest;
///
/// let anywhere = ListedTest::from("math › adds wrongly");
/// assert!(anywhere.matches("math › adds wrongly", Some("b.test.js")));
/// let there = ListedTest::in_file("math › adds wrongly", "a.test.js");
/// assert!(there.matches("math › adds wrongly", Some("./a.test.js")));
/// assert!(!there.matches("math › adds wrongly", Some("b.test.js")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ListedTest {
    /// The test's name, as the runner names it.
    pub name: String,
    /// The file it lies in, where the list gives one.
    pub file: Option<String>,
    /// The name as the list gave it, where the runner spells the test
    /// otherwise and [`name`](Self::name) is the runner's (Python 3.11's
    /// `test_x (m.C.test_x)` for `test_x (m.C)`, a docstring's line for
    /// its test): what a grade shows, so that a harness finds its own
    /// entries.
    pub listed_as: Option<String>,
}

impl ListedTest {
    /// The test `name` in `file`.
    pub fn in_file(name: impl Into<String>, file: impl Into<String>) -> Self {
        ListedTest {
            name: name.into(),
            file: Some(file.into()),
            listed_as: None,
        }
    }

    /// The entry as the runner names its test, `name`, the list's own
    /// spelling kept in [`listed_as`](Self::listed_as).
    #[must_use]
    pub fn named_by_runner(mut self, name: impl Into<String>) -> Self {
        let listed = std::mem::replace(&mut self.name, name.into());
        if listed != self.name {
            self.listed_as.get_or_insert(listed);
        }
        self
    }

    /// Whether the test `name`, placed at `place` by the runner, is this
    /// entry's.
    pub fn matches(&self, name: &str, place: Option<&str>) -> bool {
        self.name == name
            && match (&self.file, place) {
                (None, _) => true,
                (Some(file), Some(place)) => same_file(file, place),
                (Some(_), None) => false,
            }
    }
}

/// Whether a list's `file` and a runner's `place` name the same file: a
/// leading `./` is no part of a relative path.
fn same_file(file: &str, place: &str) -> bool {
    let bare = |p: &'_ str| -> String { p.trim_start_matches("./").to_owned() };
    bare(file) == bare(place)
}

impl From<&str> for ListedTest {
    fn from(name: &str) -> Self {
        ListedTest {
            name: name.to_owned(),
            file: None,
            listed_as: None,
        }
    }
}

impl From<String> for ListedTest {
    fn from(name: String) -> Self {
        ListedTest {
            name,
            file: None,
            listed_as: None,
        }
    }
}

impl From<&String> for ListedTest {
    fn from(name: &String) -> Self {
        ListedTest::from(name.as_str())
    }
}

impl PartialEq<&str> for ListedTest {
    /// An entry is a bare name equal to `other`.
    fn eq(&self, other: &&str) -> bool {
        self.file.is_none() && self.name == *other
    }
}

/// The tests a change is graded against.
///
/// ```
/// use testgate_policy::{Attempt, Ending, Expectations, Grader, Policy, TestResult};
///
/// let expect = Expectations::new(["tests::fixed"], ["tests::adds"]);
/// let grader = Grader::new(Policy::new(0), expect);
/// let attempt = Attempt::new(Ending::Exited { code: 101 })
///     .with_recognised(true)
///     .with_failing(["tests::unrelated"])
///     .with_tests([
///         ("tests::fixed", TestResult::Passed),
///         ("tests::adds", TestResult::Passed),
///         ("tests::unrelated", TestResult::Failed),
///     ]);
/// let verdict = grader.verdict(&[attempt]);
/// assert!(verdict.is_pass(), "{}", verdict.reason());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Expectations {
    /// The tests that must pass (FAIL_TO_PASS).
    pub must_pass: Vec<ListedTest>,
    /// The tests that must keep passing (PASS_TO_PASS).
    pub keep_passing: Vec<ListedTest>,
    /// What a listed test that never ran makes of the verdict.
    pub missing: Missing,
    /// Tests on no list gate too: one that failed in every attempt fails
    /// the change, one whose outcome changed makes it flaky.
    pub strict: bool,
    /// Tests whose outcomes are reported and never gate, listed or not:
    /// the tests a stress run found unstable (`check --stress`). An entry
    /// with a name alone covers the tests of that name in every file; one
    /// with a file, that file's alone ([`ListedTest::matches`]).
    pub quarantine: Vec<ListedTest>,
}

impl Expectations {
    /// Tests that must pass and tests that must keep passing.
    pub fn new<I, J, S, T>(must_pass: I, keep_passing: J) -> Self
    where
        I: IntoIterator<Item = S>,
        J: IntoIterator<Item = T>,
        S: Into<ListedTest>,
        T: Into<ListedTest>,
    {
        Expectations {
            must_pass: must_pass.into_iter().map(Into::into).collect(),
            keep_passing: keep_passing.into_iter().map(Into::into).collect(),
            missing: Missing::Inconclusive,
            strict: false,
            quarantine: Vec::new(),
        }
    }

    /// Sets the tests whose outcomes are reported and never gate.
    #[must_use]
    pub fn with_quarantine<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<ListedTest>,
    {
        self.quarantine = names.into_iter().map(Into::into).collect();
        self
    }

    /// Sets what a listed test that never ran makes of the verdict.
    #[must_use]
    pub fn with_missing(mut self, missing: Missing) -> Self {
        self.missing = missing;
        self
    }

    /// Sets whether tests on no list gate too.
    #[must_use]
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The listed tests, each once, with its list: must-pass first; none
    /// that is in quarantine wherever it lies (a listed name's tests in a
    /// quarantined file are left out where they are graded, `graded`).
    fn listed(&self) -> Vec<(&ListedTest, List)> {
        let mut seen: HashSet<&ListedTest> = HashSet::new();
        let must = self.must_pass.iter().map(|t| (t, List::MustPass));
        let keep = self.keep_passing.iter().map(|t| (t, List::KeepPassing));
        must.chain(keep)
            .filter(|(t, _)| !self.quarantines_all_of(t) && seen.insert(*t))
            .collect()
    }

    /// Whether every test `entry` covers is in quarantine: an entry of the
    /// same name with no file, or with `entry`'s file.
    fn quarantines_all_of(&self, entry: &ListedTest) -> bool {
        self.quarantine.iter().any(|q| match &entry.file {
            None => q.file.is_none() && q.name == entry.name,
            Some(file) => q.matches(&entry.name, Some(file)),
        })
    }

    /// Whether the test `name` placed at `place` is in quarantine.
    pub(crate) fn quarantines(&self, name: &str, place: Option<&str>) -> bool {
        self.quarantine.iter().any(|q| q.matches(name, place))
    }

    /// Whether a test `name` placed at `place` is on a list or in
    /// quarantine.
    fn covers(&self, name: &str, place: Option<&str>) -> bool {
        self.quarantines(name, place)
            || self
                .must_pass
                .iter()
                .chain(&self.keep_passing)
                .any(|t| t.matches(name, place))
    }
}

/// One graded test: its list, its result in each attempt, and what they
/// add up to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GradedTest {
    /// The name, as the runner names it.
    pub name: String,
    /// The name as the list gave it, where it is not [`name`](Self::name)
    /// ([`ListedTest::listed_as`], or the other name the runner gave the
    /// test that the list used: [`Attempt::aliases`]).
    pub as_listed: Option<String>,
    /// The file it lies in: the list's, or the runner's place for it where
    /// a list's name alone matched tests in more than one place (each is
    /// then graded on its own), or in exactly one.
    pub context: Option<String>,
    /// The list it is on.
    pub list: List,
    /// Its result in each attempt, `None` where the attempt did not name it.
    pub results: Vec<Option<TestResult>>,
    /// What the attempts add up to for it.
    pub grade: Grade,
}

/// What the attempts add up to for one listed test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grade {
    /// It passed in every attempt that ran it, the first among them.
    Passed,
    /// It failed in every attempt that ran it.
    Failed,
    /// Its outcome changed between attempts, or within one.
    Flaky,
    /// No attempt ran it (or every one skipped it; or, for a test that
    /// must pass, every one that ran it saw it fail as marked expected to).
    NotRun,
}

impl Grade {
    /// The snake_case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Grade::Passed => "passed",
            Grade::Failed => "failed",
            Grade::Flaky => "flaky",
            Grade::NotRun => "not_run",
        }
    }
}

/// The grading of a finished sequence, as data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Grading {
    /// Every listed test (and, under [`Expectations::strict`], every test
    /// on no list that failed), in list order.
    pub tests: Vec<GradedTest>,
    /// Tests on no list that failed in some attempt and did not gate, in
    /// order of first appearance.
    pub unlisted_failed: Vec<String>,
}

/// Every listed test of `attempts` graded against `expectations` (and,
/// under [`Expectations::strict`], every failing test on no list), with
/// the failures on no list.
///
/// A test is its name and its place: an entry that gives a name alone is
/// graded once for each place a test of that name ran in (so each must
/// hold), an entry that gives a file once, for that file.
pub(crate) fn graded(expectations: &Expectations, attempts: &[Attempt]) -> Grading {
    let results: Vec<Placed<'_>> = attempts.iter().map(Placed::of).collect();
    let mut listed = by_alias(expectations.listed(), attempts);
    let mut unlisted_failed = unlisted_failures(expectations, attempts, &results, &listed);
    if expectations.strict {
        listed.extend(unlisted_failed.drain(..).map(|(name, place)| {
            let test = ListedTest {
                name: name.to_owned(),
                file: place.map(str::to_owned),
                listed_as: None,
            };
            (test, List::Unlisted)
        }));
    }
    let mut tests = Vec::new();
    for (entry, list) in listed {
        // Every place a test of this name ran in, in order of first sight.
        let mut places: Vec<Option<&str>> = Vec::new();
        // A place in quarantine is left out; a name whose every place is,
        // is not graded.
        let mut quarantined = false;
        for placed in &results {
            for &(name, place, _) in &placed.tests {
                if !entry.matches(name, place) || places.contains(&place) {
                    continue;
                }
                if expectations.quarantines(name, place) {
                    quarantined = true;
                } else {
                    places.push(place);
                }
            }
        }
        if places.is_empty() {
            if quarantined {
                continue;
            }
            places.push(entry.file.as_deref());
        }
        for place in places {
            let results: Vec<Option<TestResult>> = results
                .iter()
                .map(|placed| placed.result(&entry.name, place))
                .collect();
            tests.push(GradedTest {
                name: entry.name.clone(),
                as_listed: entry.listed_as.clone(),
                context: place.map(str::to_owned),
                list,
                grade: Grade::of_listed(list, &results),
                results,
            });
        }
    }
    let mut names = HashSet::new();
    Grading {
        tests,
        unlisted_failed: unlisted_failed
            .into_iter()
            .filter(|(name, _)| names.insert(*name))
            .map(|(name, _)| name.to_owned())
            .collect(),
    }
}

/// Each failing (or flaky) test of `attempts` by its name and place, in
/// order of first sight, that no list covers: neither `expectations` nor
/// an entry of `listed` (an alias included).
fn unlisted_failures<'a>(
    expectations: &Expectations,
    attempts: &'a [Attempt],
    results: &[Placed<'a>],
    listed: &[(ListedTest, List)],
) -> Vec<(&'a str, Option<&'a str>)> {
    let mut unlisted_failed = Vec::new();
    let mut seen = HashSet::new();
    for (attempt, placed) in attempts.iter().zip(results) {
        for name in attempt.failing.iter().chain(&attempt.flaky_within) {
            // Each place the name failed in; a test named failing whose
            // place is unknown (a console's name) is placed nowhere.
            let mut places: Vec<Option<&str>> = placed
                .tests
                .iter()
                .filter(|(n, _, r)| {
                    n == name && matches!(r, TestResult::Failed | TestResult::Flaky)
                })
                .map(|(_, p, _)| *p)
                .collect();
            if places.is_empty() {
                places.push(None);
            }
            for place in places {
                let name = name.as_str();
                let aliased = listed.iter().any(|(t, _)| t.matches(name, place));
                if !expectations.covers(name, place) && !aliased && seen.insert((name, place)) {
                    unlisted_failed.push((name, place));
                }
            }
        }
    }
    unlisted_failed
}

/// `listed`, each entry that names no test of `attempts` but is another
/// name the runner gave tests ([`Attempt::aliases`]: unittest's docstring
/// line) replaced by an entry for each of those tests, the list's spelling
/// kept in [`ListedTest::listed_as`].
fn by_alias(listed: Vec<(&ListedTest, List)>, attempts: &[Attempt]) -> Vec<(ListedTest, List)> {
    let named: HashSet<&str> = attempts
        .iter()
        .flat_map(|a| a.tests.iter().map(|(n, _)| n).chain(&a.failing))
        .map(String::as_str)
        .collect();
    let mut out = Vec::with_capacity(listed.len());
    for (entry, list) in listed {
        let mut names: Vec<&str> = Vec::new();
        if !named.contains(entry.name.as_str()) {
            let aliases = attempts.iter().flat_map(|a| &a.aliases);
            for (_, name) in aliases.filter(|(alias, _)| *alias == entry.name) {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        if names.is_empty() {
            out.push((entry.clone(), list));
        }
        for name in names {
            out.push((entry.clone().named_by_runner(name), list));
        }
    }
    out
}

/// One attempt's tests, each with its place and result: the per-test
/// list, and the names the parser gave as failing or flaky, whatever that
/// list held (a caller may give only names).
pub(crate) struct Placed<'a> {
    /// Each test's name, place and result, in the attempt's order.
    pub(crate) tests: Vec<(&'a str, Option<&'a str>, TestResult)>,
}

impl<'a> Placed<'a> {
    pub(crate) fn of(attempt: &'a Attempt) -> Self {
        let mut tests: Vec<(&str, Option<&str>, TestResult)> = attempt
            .tests
            .iter()
            .enumerate()
            .map(|(i, (n, r))| (n.as_str(), attempt.place(i), *r))
            .collect();
        let named: HashSet<&str> = tests.iter().map(|(n, _, _)| *n).collect();
        for name in &attempt.failing {
            if !named.contains(name.as_str()) {
                tests.push((name.as_str(), None, TestResult::Failed));
            }
        }
        // The runner retried it within the attempt: flaky in each place
        // it has (the names carry none).
        for name in &attempt.flaky_within {
            let mut found = false;
            for test in tests.iter_mut().filter(|t| t.0 == name.as_str()) {
                test.2 = TestResult::Flaky;
                found = true;
            }
            if !found {
                tests.push((name.as_str(), None, TestResult::Flaky));
            }
        }
        Placed { tests }
    }

    /// The result of the test `name` at `place`; where a test's name comes
    /// more than once there (a test run twice), the one named last.
    fn result(&self, name: &str, place: Option<&str>) -> Option<TestResult> {
        self.tests
            .iter()
            .rev()
            .find(|(n, p, _)| *n == name && *p == place)
            .map(|(_, _, r)| *r)
    }
}

impl Grade {
    /// What one test's results, one per attempt (`None` where the attempt
    /// did not name it), add up to.
    ///
    /// ```
    /// use testgate_policy::{Grade, TestResult};
    ///
    /// let failed_then_passed = [Some(TestResult::Failed), Some(TestResult::Passed)];
    /// assert_eq!(Grade::of(&failed_then_passed), Grade::Flaky);
    /// assert_eq!(Grade::of(&[None, Some(TestResult::Skipped)]), Grade::NotRun);
    /// ```
    pub fn of(results: &[Option<TestResult>]) -> Grade {
        grade_of(results, true)
    }

    /// [`of`](Grade::of) for a test on `list`. An expected failure
    /// ([`TestResult::XFailed`]) is a pass of a test that must keep passing
    /// (SWE-bench's convention: it is no failure) and of one on no list,
    /// but never of a test that must pass: that must have *passed*, and
    /// the code under test can call `pytest.xfail()`. There it proves
    /// nothing, as a skip does, and beside a pass in another attempt it
    /// is a changed outcome (flaky).
    ///
    /// ```
    /// use testgate_policy::{Grade, List, TestResult};
    ///
    /// let xfailed = [Some(TestResult::XFailed)];
    /// assert_eq!(Grade::of_listed(List::MustPass, &xfailed), Grade::NotRun);
    /// assert_eq!(Grade::of_listed(List::KeepPassing, &xfailed), Grade::Passed);
    /// ```
    pub fn of_listed(list: List, results: &[Option<TestResult>]) -> Grade {
        let xfail_passes = match list {
            List::MustPass => false,
            List::KeepPassing | List::Unlisted => true,
        };
        grade_of(results, xfail_passes)
    }
}

/// How one test changed between two checks (the base commit's and the
/// change's), as `testgate diff` and `check --baseline` classify it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Change {
    /// Failed before, passes now.
    Fixed,
    /// Passed before, fails now.
    Broken,
    /// Failed before and now.
    StillFailing,
    /// Passed before and now.
    StillPassing,
    /// Not in the earlier check; `Grade` says how it ended now.
    New(Grade),
    /// In the earlier check, not in this one: renamed, deleted, deselected.
    Gone(Grade),
    /// Flaky on either side: nothing can be said of the change.
    Flaky,
    /// Skipped (or never run) on either side.
    NotRun,
}

impl Change {
    /// The snake_case name used in JSON and text.
    pub const fn name(self) -> &'static str {
        match self {
            Change::Fixed => "fixed",
            Change::Broken => "broken",
            Change::StillFailing => "still_failing",
            Change::StillPassing => "still_passing",
            Change::New(_) => "new",
            Change::Gone(_) => "gone",
            Change::Flaky => "flaky",
            Change::NotRun => "not_run",
        }
    }
}

/// Every test of two checks, `before` and `after` (each a test's identity
/// and [`Grade`]), classified: in `after`'s order, then the tests only
/// `before` had, in its order. The identity is a name, or a name and the
/// place the runner gave it (two tests of one name in two files are two
/// tests).
///
/// ```
/// use testgate_policy::{Change, Grade, compare};
///
/// let before = [("a", Grade::Failed), ("b", Grade::Passed), ("c", Grade::Passed)];
/// let after = [("a", Grade::Passed), ("b", Grade::Failed), ("d", Grade::Passed)];
/// let changes = compare(&before, &after);
/// assert_eq!(changes, [
///     ("a", Change::Fixed),
///     ("b", Change::Broken),
///     ("d", Change::New(Grade::Passed)),
///     ("c", Change::Gone(Grade::Passed)),
/// ]);
/// ```
pub fn compare<K: Copy + Eq + Hash>(
    before: &[(K, Grade)],
    after: &[(K, Grade)],
) -> Vec<(K, Change)> {
    let earlier: HashMap<K, Grade> = before.iter().copied().collect();
    let later: HashSet<K> = after.iter().map(|(n, _)| *n).collect();
    let mut changes: Vec<(K, Change)> = after
        .iter()
        .map(|&(name, now)| {
            let change = match (earlier.get(&name).copied(), now) {
                (None, now) => Change::New(now),
                (Some(Grade::Flaky), _) | (Some(_), Grade::Flaky) => Change::Flaky,
                (Some(Grade::NotRun), _) | (Some(_), Grade::NotRun) => Change::NotRun,
                (Some(Grade::Failed), Grade::Passed) => Change::Fixed,
                (Some(Grade::Passed), Grade::Failed) => Change::Broken,
                (Some(Grade::Failed), Grade::Failed) => Change::StillFailing,
                (Some(Grade::Passed), Grade::Passed) => Change::StillPassing,
            };
            (name, change)
        })
        .collect();
    let mut gone = HashSet::new();
    for &(name, then) in before {
        if !later.contains(&name) && gone.insert(name) {
            changes.push((name, Change::Gone(then)));
        }
    }
    changes
}

/// What one test's results add up to.
/// The most passing tests an attempt's summary counted beyond those its
/// output named (as passed or flaky); 0 when every attempt named each pass
/// or stated no count.
pub(crate) fn unnamed_passes(attempts: &[Attempt]) -> u64 {
    attempts.iter().map(unnamed_passes_in).max().unwrap_or(0)
}

/// The passing tests `attempt`'s summary counted beyond those its output
/// named (as passed or flaky); 0 without a count.
pub(crate) fn unnamed_passes_in(attempt: &Attempt) -> u64 {
    let Some(counted) = attempt.counts.and_then(|c| c.passed) else {
        return 0;
    };
    let named = attempt
        .tests
        .iter()
        .filter(|(_, r)| matches!(r, TestResult::Passed | TestResult::Flaky))
        .count();
    counted.saturating_sub(u64::try_from(named).unwrap_or(u64::MAX))
}

/// Whether a test graded [`Grade::NotRun`] was seen to fail as marked
/// expected to: what made a test that must pass not pass.
pub(crate) fn xfailed(test: &GradedTest) -> bool {
    test.results
        .iter()
        .flatten()
        .any(|r| *r == TestResult::XFailed)
}

pub(crate) fn grade_of(results: &[Option<TestResult>], xfail_passes: bool) -> Grade {
    let mut flaky = false;
    let mut passed = false;
    let mut failed = false;
    let mut no_pass = false;
    for result in results.iter().flatten() {
        match result {
            TestResult::Passed => passed = true,
            TestResult::XFailed if xfail_passes => passed = true,
            TestResult::XFailed => no_pass = true,
            TestResult::Failed => failed = true,
            TestResult::Flaky => flaky = true,
            TestResult::Skipped | TestResult::Running => {}
        }
    }
    // A test that must pass, passing in one attempt and failing as
    // expected in another, changed outcome.
    flaky |= passed && no_pass;
    match (flaky, passed, failed) {
        (true, _, _) | (false, true, true) => Grade::Flaky,
        (false, false, true) => Grade::Failed,
        (false, true, false) => Grade::Passed,
        (false, false, false) => Grade::NotRun,
    }
}

/// At most this many listed names that never ran are looked up among the
/// names that did (each compared only with names of about its length, and
/// the comparison cut off past the limit): the look-up is a courtesy, never
/// the cost of a verdict.
const NEAR_MISS_NAMES: usize = 20;

/// For each listed name that never ran, the name that ran which it most
/// likely meant: one that ends with it after a `/`, `::`, `.` or space (a
/// path or class left out), or else the one within a small edit distance
/// (a typo, a renamed test), when exactly one is nearest.
pub(crate) fn near_misses<'a>(
    listed: &[&'a str],
    attempts: &'a [Attempt],
) -> Vec<(&'a str, &'a str)> {
    let mut ran: Vec<&str> = attempts
        .iter()
        .flat_map(|a| a.tests.iter().map(|(name, _)| name.as_str()))
        .collect();
    ran.sort_unstable();
    ran.dedup();
    let mut found = Vec::new();
    for name in listed.iter().take(NEAR_MISS_NAMES) {
        if ran.binary_search(name).is_ok() {
            continue;
        }
        let suffix: Vec<&str> = ran
            .iter()
            .copied()
            .filter(|r| {
                r.len() > name.len()
                    && r.ends_with(name)
                    && [b'/', b':', b'.', b' '].contains(&r.as_bytes()[r.len() - name.len() - 1])
            })
            .collect();
        if let [only] = suffix.as_slice() {
            found.push((*name, *only));
            continue;
        }
        let limit = (name.chars().count() / 8).clamp(1, 3);
        let mut best: Option<(usize, &str, bool)> = None;
        for candidate in &ran {
            if candidate.len().abs_diff(name.len()) > limit * 4 {
                continue;
            }
            let Some(distance) = edit_distance(name, candidate, limit) else {
                continue;
            };
            best = match best {
                Some((d, _, _)) if distance > d => best,
                Some((d, c, _)) if distance == d => Some((d, c, true)),
                _ => Some((distance, candidate, false)),
            };
        }
        if let Some((_, candidate, false)) = best {
            found.push((*name, candidate));
        }
    }
    found
}

/// The edit distance (Levenshtein, over characters) between `a` and `b`
/// when it is at most `limit`; `None` past it. Stops as soon as every
/// entry of a row is past the limit.
fn edit_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i.saturating_add(1);
        let mut smallest = row[0];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous.saturating_add(usize::from(ca != *cb));
            previous = row[j + 1];
            row[j + 1] = substitute
                .min(row[j].saturating_add(1))
                .min(previous.saturating_add(1));
            smallest = smallest.min(row[j + 1]);
        }
        if smallest > limit {
            return None;
        }
    }
    row.last().copied().filter(|d| *d <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempt::Ending;

    use TestResult::Passed as P;

    #[test]
    fn a_listed_name_that_never_ran_gets_the_nearest_that_did() {
        let ran = [Attempt::new(Ending::Exited { code: 0 }).with_tests([
            ("tests/test_calc.py::test_adds", P),
            ("tests/test_calc.py::test_adds_negative", P),
            ("tests/test_calc.py::TestBig::test_big_numbers", P),
        ])];
        let near = |name: &'static str| near_misses(&[name], &ran);
        // A typo.
        assert_eq!(
            near("tests/test_calc.py::test_adds_negativ"),
            [(
                "tests/test_calc.py::test_adds_negativ",
                "tests/test_calc.py::test_adds_negative"
            )]
        );
        // The path or class left out.
        assert_eq!(
            near("test_big_numbers"),
            [(
                "test_big_numbers",
                "tests/test_calc.py::TestBig::test_big_numbers"
            )]
        );
        // Where it must not fire: a name that ran, nothing close, or two
        // equally close (no guess between them).
        assert!(near("tests/test_calc.py::test_adds").is_empty());
        assert!(near("tests/other.py::test_unrelated_thing").is_empty());
        let two =
            [Attempt::new(Ending::Exited { code: 0 }).with_tests([("t::ab", P), ("t::ac", P)])];
        assert!(near_misses(&["t::ax"], &two).is_empty());
    }

    /// SWE-bench's Django lists name a test with a docstring by its
    /// docstring's line, which unittest's `-v` prints in its place.
    #[test]
    fn a_listed_docstring_grades_its_test_and_keeps_its_spelling() {
        use TestResult::Failed as F;
        let ran = [Attempt::new(Ending::Exited { code: 1 })
            .with_failing(["test_count (shop.tests.T)"])
            .with_tests([
                ("test_count (shop.tests.T)", F),
                ("test_ok (shop.tests.T)", P),
            ])
            .with_aliases([("Counts the items.", "test_count (shop.tests.T)")])];
        let expect = Expectations::new(
            ["Counts the items."],
            [ListedTest::from("test_ok (shop.tests.T.test_ok)")
                .named_by_runner("test_ok (shop.tests.T)")],
        );
        let grading = graded(&expect, &ran);
        let shown: Vec<_> = grading
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.as_listed.as_deref(), t.grade))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "test_count (shop.tests.T)",
                    Some("Counts the items."),
                    Grade::Failed
                ),
                (
                    "test_ok (shop.tests.T)",
                    Some("test_ok (shop.tests.T.test_ok)"),
                    Grade::Passed
                ),
            ]
        );
        assert!(grading.unlisted_failed.is_empty(), "{grading:?}");
        // Where it must not fire: a listed name a test has is that test,
        // though another's docstring says the same words.
        let same = [Attempt::new(Ending::Exited { code: 0 })
            .with_tests([("Counts the items.", P), ("test_count (shop.tests.T)", F)])
            .with_aliases([("Counts the items.", "test_count (shop.tests.T)")])];
        let grading = graded(&Expectations::new(["Counts the items."], [""; 0]), &same);
        assert_eq!(grading.tests.len(), 1);
        assert_eq!(grading.tests[0].name, "Counts the items.");
        assert_eq!(grading.tests[0].as_listed, None);
        assert_eq!(grading.tests[0].grade, Grade::Passed);
    }

    /// Two tests of one name in two files are two tests: one fixed, the
    /// other broken, neither lost.
    #[test]
    fn compare_keeps_two_tests_of_one_name_apart_by_their_place() {
        let before = [
            (("adds", Some("a.test.js")), Grade::Failed),
            (("adds", Some("b.test.js")), Grade::Passed),
        ];
        let after = [
            (("adds", Some("a.test.js")), Grade::Passed),
            (("adds", Some("b.test.js")), Grade::Failed),
        ];
        assert_eq!(
            compare(&before, &after),
            [
                (("adds", Some("a.test.js")), Change::Fixed),
                (("adds", Some("b.test.js")), Change::Broken),
            ]
        );
    }

    #[test]
    fn edit_distance_stops_past_its_limit() {
        assert_eq!(edit_distance("kitten", "sitting", 3), Some(3));
        assert_eq!(edit_distance("kitten", "sitting", 2), None);
        assert_eq!(edit_distance("", "", 1), Some(0));
        assert_eq!(edit_distance("é", "e", 1), Some(1));
    }
}
