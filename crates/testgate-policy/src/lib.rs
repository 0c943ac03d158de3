//! The verdict policy of testgate: attempts in, one verdict out.
//!
//! testgate runs a project's test command, perhaps several times, and must
//! say one thing about it: [`Verdict::Pass`], [`Verdict::Fail`] with the
//! failing tests, or [`Verdict::Inconclusive`] with its [`Cause`]. This
//! crate decides that, and decides whether to run again, from records alone:
//! it starts no process, touches no file, reads no clock and parses no
//! output.
//!
//! Each run is an [`Attempt`]: how it [`Ending`] came about, what
//! [`Selection`] it ran, and what the parser found. A [`Policy`] (how many
//! retries, and whether a retry reruns [`Rerun::All`] or only the
//! [`Rerun::Failed`] tests) drives the sequence: [`Policy::step`] says
//! [`Step::Run`] a selection or [`Step::Done`] with the verdict, and never
//! asks for more than [`Policy::max_attempts`]. [`Grader`] and [`Stress`]
//! drive a sequence the same way; the [`Driver`] trait is what the three
//! share. The rules, and why each holds, are in `docs/policy.md`.
//!
//! ```
//! use testgate_policy::{Attempt, Ending, Policy, Selection, Step, Verdict};
//!
//! let policy = Policy::new(1);
//! let mut attempts = Vec::new();
//! // The runner: each attempt fails the same test.
//! while let Step::Run(selection) = policy.step(&attempts) {
//!     assert_eq!(selection, Selection::Full);
//!     attempts.push(
//!         Attempt::new(Ending::Exited { code: 101 })
//!             .with_failing(["tests::parses_empty"])
//!             .with_recognised(true)
//!             .with_tail("test result: FAILED. 1 passed; 1 failed"),
//!     );
//! }
//! assert_eq!(attempts.len(), 2);
//! let verdict = policy.verdict(&attempts);
//! assert_eq!(verdict.name(), "fail");
//! assert_eq!(verdict.failing(), ["tests::parses_empty"]);
//! assert!(verdict.reason().starts_with("tests::parses_empty\n"));
//! ```
//!
//! # Code map
//!
//! The crate is a pipeline whose stages are modules, each using only the
//! ones before it (`scripts/check-policy-layers` declares the order and
//! fails on an edge back up it):
//!
//! - facts: [`crate::signal`], [`crate::verdict`], [`crate::attempt`],
//!   [`crate::policy`] (the settings), [`crate::prepare`];
//! - classification: [`crate::history`], what each attempt is, typed;
//! - analysis: [`crate::findings`], [`crate::grading`] (a change graded
//!   against listed tests, and [`compare`], which classifies two checks'
//!   tests), [`crate::variation`];
//! - decision: [`crate::decide`], [`crate::decide_grade`],
//!   [`crate::decide_stress`], a typed conclusion with no English, and
//!   [`crate::halt`] ([`Halt`]: the verdict of a check halted where no
//!   attempt decides, as the facade saw it);
//! - words: [`crate::words`], the only module that writes English;
//! - drivers: [`crate::retry`] ([`Policy::plan`], [`Policy::verdict`]),
//!   [`crate::tree_change`] ([`Policy::after_tree_change`]: what the attempts prove
//!   when one changed the tree it judged), [`crate::grade`] ([`Grader`]),
//!   [`crate::stress`] ([`Stress`]) and [`crate::driver`] ([`Driver`], the
//!   trait the three share).
//!
//! `docs/policy.md` is the specification, and its "Where each rule lives"
//! maps each rule to its module.
#![deny(missing_docs)]
#![allow(
    rustdoc::private_intra_doc_links,
    reason = "the code map links the private modules, so that a stale name breaks `cargo doc`"
)]
#![forbid(unsafe_code)]

/// The crate's README, whose example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod attempt;
mod decide;
mod decide_grade;
mod decide_stress;
mod driver;
mod findings;
mod grade;
mod grading;
mod halt;
mod history;
mod policy;
mod prepare;
mod retry;
mod signal;
mod stress;
mod tree_change;
mod variation;
mod verdict;
mod words;

pub use crate::attempt::{Attempt, Counts, Ending, Environment, Evidence, Selection, TestResult};
pub use crate::driver::Driver;
pub use crate::findings::{Findings, Note, OrderDependence, SometimesFailed, StoppedBy};
pub use crate::grade::Grader;
pub use crate::grading::{
    Change, Expectations, Grade, GradedTest, Grading, List, ListedTest, Missing, compare,
};
pub use crate::halt::Halt;
pub use crate::policy::{MAX_TARGETED, Plan, Policy, Rerun, Step, UnknownRerun};
pub use crate::prepare::Preparation;
pub use crate::stress::Stress;
pub use crate::tree_change::{AfterTreeChange, Leftover};
pub use crate::variation::Varied;
pub use crate::verdict::{Cause, Verdict};
pub use crate::words::{MAX_NAMES, MAX_REASON};
