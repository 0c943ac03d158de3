//! What a check answers, as it runs and when it ends: the [`Observer`]
//! that sees each step, and the [`Record`] of the check with its
//! [`PreparationRecord`]s and [`AttemptRecord`]s.

use std::ffi::OsString;
use std::time::Duration;

use testgate_parse::Report;
use testgate_policy::{Attempt, Findings, Grading, Preparation, Selection, Varied, Verdict};

use crate::project_tree::TreeChange;
use crate::trusted_view::ViewRecord;

/// What a caller sees while the tests run. Every method has an empty
/// default, so an observer implements only what it shows.
pub trait Observer {
    /// Attempt `number` (from 1) starts, running `command` to test `selection`.
    fn attempt_started(&mut self, number: usize, selection: &Selection, command: &[OsString]) {
        let _ = (number, selection, command);
    }
    /// A chunk of the running attempt's output (stdout and stderr merged).
    fn output(&mut self, chunk: &[u8]) {
        let _ = chunk;
    }
    /// Attempt `record.number` has ended.
    fn attempt_finished(&mut self, record: &AttemptRecord) {
        let _ = record;
    }
    /// Preparation step `number` (from 1) starts, running the shell
    /// command `command`; its output goes to [`Observer::output`].
    fn preparation_started(&mut self, number: usize, command: &str) {
        let _ = (number, command);
    }
    /// A preparation step has ended.
    fn preparation_finished(&mut self, record: &PreparationRecord) {
        let _ = record;
    }
}

/// One preparation step, as it ran.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PreparationRecord {
    /// The step's number, from 1.
    pub number: usize,
    /// The shell command, how it ended, the end of its output, and what it
    /// removed from the project.
    pub preparation: Preparation,
    /// How long it took.
    pub duration: Duration,
}

/// An observer that shows nothing.
pub(crate) struct Silent;

impl Observer for Silent {}

/// One attempt, as it ran: the command line, the policy's record, and the
/// parser's full report.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AttemptRecord {
    /// The attempt's number, from 1.
    pub number: usize,
    /// The program and arguments that ran.
    pub command: Vec<String>,
    /// The record the policy decided on: ending, selection, failing names,
    /// counts, tail, duration.
    pub attempt: Attempt,
    /// Everything the parser understood of the output.
    pub report: Report,
    /// What the sandbox decided on the user's behalf about what the
    /// command sees, one line each ([`testgate_run::Finished::sandbox_notes`]).
    pub sandbox_notes: Vec<String>,
    /// What the attempt did in the project's installed folders under
    /// Landlock ([`testgate_run::Finished::installed`]).
    pub installed: testgate_run::InstalledChange,
}

/// A finished check: which suite, the verdict, and every attempt.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Record {
    /// The suite's name and version, when given with
    /// [`SandboxedTests::named`](crate::SandboxedTests::named).
    pub suite: Option<(String, String)>,
    /// The verdict.
    pub verdict: Verdict,
    /// What the attempts showed, as data: the names that always and
    /// sometimes failed, the order-dependence evidence, the attempt that
    /// stopped the sequence, the notes.
    pub findings: Findings,
    /// The preparation steps that ran, in order (the last one failed when
    /// the verdict is [`Cause::PrepareFailed`](crate::Cause::PrepareFailed)).
    pub preparations: Vec<PreparationRecord>,
    /// The attempts in the order they ran.
    pub attempts: Vec<AttemptRecord>,
    /// The digest of the tree before the first attempt (see [`crate::project_tree`]),
    /// None when it could not be read.
    pub tree_digest: Option<String>,
    /// The files the digest binds by size alone, not content: over the
    /// hashing limit ([`Snapshot::unbound`](crate::project_tree::Snapshot::unbound)).
    pub tree_unbound: Vec<String>,
    /// What an attempt changed in the tree, when one did (the verdict is
    /// then Inconclusive `tree_changed`).
    pub tree: Option<TreeChange>,
    /// The listed tests and what the attempts showed of each, when the
    /// change was graded against expectations ([`TestConfig::expect`](crate::TestConfig::expect)).
    pub grading: Option<Grading>,
    /// In stress mode ([`TestConfig::stress`](crate::TestConfig::stress)): every test whose outcome
    /// varied across the runs.
    pub stress: Option<Vec<Varied>>,
    /// The sandbox the attempts ran in ([`Sandbox::name`](crate::Sandbox::name): `auto` when
    /// none could start) and, when [`Sandbox::Auto`](crate::Sandbox::Auto) chose it, why.
    pub sandbox: (&'static str, Option<String>),
    /// What the view the attempts ran made of the tree, when it was not
    /// the tree as submitted ([`TestConfig::view`](crate::TestConfig::view)): the patch applied,
    /// the trusted files put in, and whether the tree was put back.
    pub view: Option<ViewRecord>,
}
