//! The rule every runner's failures obey, stated once.
//!
//! A test can print anything, also a line that looks like its runner's
//! failure line (`test fake ... FAILED`, `--- FAIL: Fake`, `FAILED t.py::x`).
//! So a line that names a failure only makes a *candidate*. Every runner
//! groups its tests into a scope that it ends with a result of its own,
//! which a test cannot forge without also ending the scope: a libtest
//! binary's `test result:`, a nextest run's `Summary`, a go package's
//! `ok`/`FAIL` line, a pytest session's closing line, a jest or vitest run's
//! summary. That result is the [`Judgement`] on the scope's candidates:
//!
//! | judgement | what stands |
//! |---|---|
//! | [`Passed`](Judgement::Passed): nothing failed | no candidate |
//! | [`Listed`](Judgement::Listed): these failed | exactly the runner's list |
//! | [`Unjudged`](Judgement::Unjudged): failed, without a list, or no result at all | every candidate and listed name |
//!
//! and in every case the names the runner itself marked as failing in a way
//! its result does not list ([`Scope::make_certain`]: a nextest test that
//! failed and passed on a retry). A name stands once, at the line that first
//! named it, with the kind the runner's list gave it where it listed it.
//!
//! What differs between runners is which result means what, and that is
//! said where each runner ends its scope (`close_binary`, `end_run`,
//! `close`, `end_session`): this module has no knowledge of any runner.

use std::hash::{Hash, Hasher};

use foldhash::fast::RandomState;
use indexmap::{Equivalent, IndexMap};

use crate::report::Kind;

/// Names by key, in order of insertion; foldhash, as the every-test list:
/// go looks up every passing test's name here once something failed.
type Names = IndexMap<Key, Entry, RandomState>;

/// What the runner's own result says of a scope's failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// Nothing in the scope failed: its candidates were printed by tests.
    Passed,
    /// The scope failed, and the runner's list says which tests did: exactly
    /// those (an empty list drops every candidate).
    Listed,
    /// No word on which tests failed: the result said "failed" without a
    /// list, or no result came (the log was cut, the runner was killed).
    /// Every candidate and every listed name stands.
    Unjudged,
}

/// A name the scope confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Confirmed {
    /// The line that first named it.
    pub(crate) index: u64,
    pub(crate) name: String,
    /// Its binary or file, where the runner keys names by one.
    pub(crate) context: Option<String>,
    pub(crate) kind: Kind,
}

/// One scope's candidates and the runner's list.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    candidates: Names,
    listed: Option<Names>,
}

/// A name, with the context a runner tells equal names apart by (nextest's
/// binary, jest's file); `None` where one scope never holds two tests of one
/// name in different places.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    name: String,
    context: Option<String>,
}

/// A [`Key`] borrowed, to look one up without allocating. It hashes as
/// `Key` does: the derived `Hash` of both hashes the fields in order, and a
/// `String` hashes as its `str`.
#[derive(Debug, Clone, Copy)]
struct KeyRef<'a> {
    name: &'a str,
    context: Option<&'a str>,
}

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.context.hash(state);
    }
}

impl Equivalent<Key> for KeyRef<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.name == key.name && self.context == key.context.as_deref()
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    index: u64,
    kind: Kind,
    /// Failing whatever the judgement: see [`Scope::make_certain`].
    certain: bool,
}

/// Adds `name` to `map` unless it is there: the first line that named a
/// test is the one kept.
fn add(map: &mut Names, index: u64, name: &str, context: Option<&str>, kind: Kind) {
    if map.get(&KeyRef { name, context }).is_none() {
        let key = Key {
            name: name.to_owned(),
            context: context.map(str::to_owned),
        };
        map.insert(
            key,
            Entry {
                index,
                kind,
                certain: false,
            },
        );
    }
}

impl Scope {
    /// A line at `index` said `name` (in `context`) failed; a name already a
    /// candidate keeps its first line.
    pub(crate) fn candidate(&mut self, index: u64, name: &str, context: Option<&str>, kind: Kind) {
        add(&mut self.candidates, index, name, context, kind);
    }

    /// The runner starts its list of the scope's failures. A list started
    /// again replaces the earlier one: only the last is the runner's own (a
    /// test printed the earlier one).
    pub(crate) fn start_list(&mut self) {
        self.listed = Some(Names::default());
    }

    /// The runner's list names `name` (a list is started if none was).
    pub(crate) fn list(&mut self, index: u64, name: &str, context: Option<&str>, kind: Kind) {
        let listed = self.listed.get_or_insert_with(Names::default);
        add(listed, index, name, context, kind);
    }

    /// Whether the runner started a list.
    pub(crate) fn has_list(&self) -> bool {
        self.listed.is_some()
    }

    /// Whether the runner started a list and named something in it.
    pub(crate) fn listed_any(&self) -> bool {
        self.listed
            .as_ref()
            .is_some_and(|listed| !listed.is_empty())
    }

    /// Whether no line named a failure and the runner listed none.
    pub(crate) fn is_empty(&self) -> bool {
        self.candidates.is_empty() && !self.listed_any()
    }

    /// Whether `name` is a candidate.
    pub(crate) fn is_candidate(&self, name: &str, context: Option<&str>) -> bool {
        self.candidates.get(&KeyRef { name, context }).is_some()
    }

    /// The candidates then the listed names, each as the runner named it;
    /// a name both is given twice.
    pub(crate) fn names(&self) -> impl Iterator<Item = (u64, &str, Option<&str>)> {
        self.candidates
            .iter()
            .chain(self.listed.iter().flatten())
            .map(|(key, entry)| (entry.index, key.name.as_str(), key.context.as_deref()))
    }

    /// The candidates' names, in order of first appearance.
    pub(crate) fn candidate_names(&self) -> impl Iterator<Item = &str> {
        self.candidates.keys().map(|key| key.name.as_str())
    }

    /// The runner itself said `name` failed, in a way its result does not
    /// list (it failed, then passed on a retry): it stands whatever the
    /// judgement. Does nothing if `name` is neither a candidate nor listed.
    pub(crate) fn make_certain(&mut self, name: &str, context: Option<&str>) {
        let key = KeyRef { name, context };
        for map in std::iter::once(&mut self.candidates).chain(self.listed.as_mut()) {
            if let Some(entry) = map.get_mut(&key) {
                entry.certain = true;
            }
        }
    }

    /// Ends the scope: the names that stand under `judgement`, each once, in
    /// order of the line that first named it.
    pub(crate) fn close(self, judgement: Judgement) -> Vec<Confirmed> {
        let Scope {
            mut candidates,
            listed,
        } = self;
        let listed = listed.unwrap_or_default();
        let mut stand: Vec<(Key, Entry)> = Vec::new();
        for (key, entry) in listed {
            // A listed name a line named first stands at that line.
            let earlier = candidates.swap_remove(&key);
            let keep = match judgement {
                Judgement::Passed => entry.certain || earlier.is_some_and(|e| e.certain),
                Judgement::Listed | Judgement::Unjudged => true,
            };
            if keep {
                let index = earlier.map_or(entry.index, |e| e.index.min(entry.index));
                stand.push((key, Entry { index, ..entry }));
            }
        }
        for (key, entry) in candidates {
            let keep = match judgement {
                Judgement::Passed | Judgement::Listed => entry.certain,
                Judgement::Unjudged => true,
            };
            if keep {
                stand.push((key, entry));
            }
        }
        stand.sort_by_key(|(_, entry)| entry.index);
        stand
            .into_iter()
            .map(|(key, entry)| Confirmed {
                index: entry.index,
                name: key.name,
                context: key.context,
                kind: entry.kind,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn names(confirmed: &[Confirmed]) -> Vec<(u64, &str)> {
        confirmed
            .iter()
            .map(|c| (c.index, c.name.as_str()))
            .collect()
    }

    /// A scope in which a test printed a forged failure line for `fake`,
    /// `real` failed and the runner listed it.
    fn forged_and_real() -> Scope {
        let mut scope = Scope::default();
        scope.candidate(1, "fake", None, Kind::Test);
        scope.candidate(2, "real", None, Kind::Test);
        scope.start_list();
        scope.list(9, "real", None, Kind::Test);
        scope
    }

    #[test]
    fn a_passed_scope_confirms_nothing_it_printed() {
        assert_eq!(forged_and_real().close(Judgement::Passed), []);
    }

    #[test]
    fn a_list_confirms_exactly_its_names_at_their_first_line() {
        let confirmed = forged_and_real().close(Judgement::Listed);
        assert_eq!(names(&confirmed), [(2, "real")]);
    }

    #[test]
    fn an_empty_list_confirms_nothing() {
        let mut scope = Scope::default();
        scope.candidate(1, "fake", None, Kind::Test);
        scope.start_list();
        assert!(scope.has_list() && !scope.listed_any());
        assert_eq!(scope.close(Judgement::Listed), []);
    }

    #[test]
    fn without_a_judgement_every_name_stands_once() {
        let mut scope = forged_and_real();
        scope.list(10, "only listed", None, Kind::File);
        scope.candidate(11, "fake", None, Kind::Test);
        let confirmed = scope.close(Judgement::Unjudged);
        assert_eq!(
            names(&confirmed),
            [(1, "fake"), (2, "real"), (10, "only listed")]
        );
        assert_eq!(confirmed[2].kind, Kind::File, "the list's kind");
    }

    #[test]
    fn a_list_started_again_replaces_the_first() {
        let mut scope = Scope::default();
        scope.start_list();
        scope.list(1, "printed by a test", None, Kind::Test);
        scope.start_list();
        scope.list(5, "real", None, Kind::Test);
        assert_eq!(names(&scope.close(Judgement::Listed)), [(5, "real")]);
    }

    #[test]
    fn a_certain_name_stands_whatever_the_judgement() {
        for judgement in [Judgement::Passed, Judgement::Listed, Judgement::Unjudged] {
            let mut scope = forged_and_real();
            scope.candidate(3, "retried", None, Kind::Test);
            scope.make_certain("retried", None);
            scope.make_certain("never named", None);
            let confirmed = scope.close(judgement);
            assert!(
                names(&confirmed).contains(&(3, "retried")),
                "{judgement:?}: {confirmed:?}"
            );
            assert!(!names(&confirmed).iter().any(|(_, n)| *n == "never named"));
        }
    }

    #[test]
    fn names_in_different_contexts_are_different_tests() {
        let mut scope = Scope::default();
        scope.candidate(1, "t", Some("a"), Kind::Test);
        scope.candidate(2, "t", Some("b"), Kind::Test);
        scope.start_list();
        scope.list(3, "t", Some("b"), Kind::Test);
        assert!(scope.is_candidate("t", Some("a")) && !scope.is_candidate("t", None));
        let confirmed = scope.close(Judgement::Listed);
        assert_eq!(names(&confirmed), [(2, "t")]);
        assert_eq!(confirmed[0].context.as_deref(), Some("b"));
    }

    /// A scope built from `lines`: (0 candidate / 1 listed / 2 a new list,
    /// name), then `certain` made certain; and the names each judgement must
    /// confirm, worked out on sets.
    fn built(lines: &[(u8, u8)], certain: &[u8]) -> (Scope, [BTreeSet<String>; 3]) {
        let mut scope = Scope::default();
        let (mut candidates, mut listed) = (BTreeSet::new(), BTreeSet::new());
        for (i, (what, name)) in lines.iter().enumerate() {
            let name = format!("t{name}");
            let index = u64::try_from(i).unwrap_or(u64::MAX);
            match what {
                0 => {
                    scope.candidate(index, &name, None, Kind::Test);
                    candidates.insert(name);
                }
                1 => {
                    scope.list(index, &name, None, Kind::Test);
                    listed.insert(name);
                }
                _ => {
                    scope.start_list();
                    listed.clear();
                }
            }
        }
        let every: BTreeSet<String> = candidates.union(&listed).cloned().collect();
        let certain: BTreeSet<String> = certain
            .iter()
            .map(|name| format!("t{name}"))
            .filter(|name| every.contains(name))
            .collect();
        for name in &certain {
            scope.make_certain(name, None);
        }
        let passed = certain.clone();
        let by_list = listed.union(&certain).cloned().collect();
        (scope, [passed, by_list, every])
    }

    proptest::proptest! {
        /// The laws, on any scope: `Passed` confirms only certain names,
        /// `Listed` the list and certain names, `Unjudged` every name; each
        /// name once, in order of its first line.
        #[test]
        fn the_laws(
            lines in proptest::collection::vec((0u8..3, 0u8..6), 0..24),
            certain in proptest::collection::vec(0u8..6, 0..3),
        ) {
            let judgements = [Judgement::Passed, Judgement::Listed, Judgement::Unjudged];
            for (at, judgement) in judgements.into_iter().enumerate() {
                let (scope, expected) = built(&lines, &certain);
                let confirmed = scope.close(judgement);
                let got: BTreeSet<String> = confirmed.iter().map(|c| c.name.clone()).collect();
                proptest::prop_assert_eq!(got.len(), confirmed.len(), "each once");
                proptest::prop_assert_eq!(&got, &expected[at], "{:?}", judgement);
                let indices: Vec<u64> = confirmed.iter().map(|c| c.index).collect();
                proptest::prop_assert!(indices.is_sorted());
            }
        }
    }
}
