//! The words: the only module of the policy that writes English. It renders
//! what the layers below decided (a classification, the findings, a
//! decision) into the bounded reason of a verdict; it chooses no verdict,
//! cause or step (`scripts/check-policy-layers`).

mod decision;
mod explain;
mod grade;
mod phrase;
mod prepare;
mod reason;
mod stress;

pub(crate) use decision::{note, reason};
pub(crate) use grade::grade_reason;
pub(crate) use phrase::{label, phrase, stop_phrase};
pub(crate) use prepare::preparation_reason;
pub(crate) use reason::{MAX_NAME, Reason, cut_end};
pub use reason::{MAX_NAMES, MAX_REASON};
pub(crate) use stress::stress_reason;
