//! The words: the only module of the policy that writes English. It renders
//! what the layers below decided (a classification, the findings, a
//! decision) into the bounded reason of a verdict.

mod decision;
mod explain;
mod grade;
mod phrase;
mod prepare;
mod reason;
mod stress;

pub(crate) use decision::plan;
pub(crate) use grade::grade_plan;
pub(crate) use phrase::{label, phrase, stop_phrase};
pub(crate) use reason::{MAX_NAME, Reason, cut_end};
pub use reason::{MAX_NAMES, MAX_REASON};
pub(crate) use stress::stress_verdict;
