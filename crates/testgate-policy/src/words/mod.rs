//! The words: the only module of the policy that writes English. It renders
//! what the layers below decided (a classification, the findings, a
//! decision) into the bounded reason of a verdict.

mod explain;
mod phrase;
mod reason;

pub(crate) use explain::{
    closing_lines, crash_lines, different_suites, inconclusive, nothing_ran, pass, push_tail,
    stopped, summary, tally_lines,
};
pub(crate) use phrase::{exit_hint, label, phrase, stop_phrase};
pub(crate) use reason::{MAX_NAME, Reason, cut_end, tests};
pub use reason::{MAX_NAMES, MAX_REASON};
