//! Makes "I fixed the bug" checkable: runs a project's own tests in a
//! sandbox, with retries that detect flakiness, and gives one verdict.
//!
//! This is the facade over testgate's three crates: the runner
//! ([`testgate_run`]) starts the test command in bubblewrap with a timeout;
//! its output feeds the streaming parser ([`testgate_parse`]) and a tail
//! buffer; each attempt becomes a record that the pure policy
//! ([`testgate_policy`]) turns into the next step or the verdict.
//!
//! The principal types are [`TestConfig`], a test command with its limits,
//! and [`SandboxedTests`], which runs it and answers with a [`Verdict`]:
//! `Pass`, `Fail` with the failing names first, or `Inconclusive` with a
//! [`Cause`].
//!
//! ```no_run
//! use std::time::Duration;
//! use testgate::{Sandbox, SandboxedTests, TestConfig, Verdict};
//!
//! let config = TestConfig::cargo("path/to/project")
//!     .within(Duration::from_secs(300))
//!     .retrying(2);
//! let tests = SandboxedTests::new(Sandbox::default(), config).named("calc", "a1b2c3d");
//! match tests.run() {
//!     Verdict::Pass { .. } => println!("the change holds"),
//!     Verdict::Fail { failing, reason } => println!("broken: {failing:?}\n{reason}"),
//!     other => println!("cannot tell: {}", other.reason()),
//! }
//! ```
//!
//! # Code map
//!
//! [`SandboxedTests`] ([`crate::suite`]) is the loop: it asks the policy's
//! driver ([`crate::judge`]) for the next attempt, runs it through [`testgate_run`], feeds
//! the output to one streaming parser with its scans and a tail buffer
//! ([`crate::capture`]), sets the runner's own report beside the console
//! ([`crate::channels`]; the user's `--report`, [`crate::users_report`]),
//! and turns each attempt's facts into the policy's `Attempt` by one pure
//! function ([`crate::attempt`]); what it answers is a [`Record`], shown
//! to an [`Observer`] as it comes ([`crate::records`]). [`TestConfig`] ([`crate::config`]) is
//! the command with its limits and a preset per runner.
//!
//! [`crate::runners`] holds what testgate knows of each runner outside its
//! parser, one profile per runner behind one trait: how its argv is
//! recognised, the retry selector, its preset environment, how it is asked
//! for its own report, how it is found in a project. [`detect_command`]
//! ([`crate::detect`]) asks every profile through a read-only,
//! link-refusing view of the project ([`crate::project_view`], which the
//! profiles answer through, below both); [`crate::rerun`] rewrites a targeted
//! retry's command through the profiles.
//!
//! [`crate::project_tree`] records the project before anything runs, compares it
//! after each preparation and attempt and puts it back as submitted
//! ([`project_tree::Snapshot::put_back`]); [`crate::scan`] walks it by descriptor
//! within a budget; [`crate::project`] refuses folders that may not be a
//! project ([`project_dir`]). None of them starts a process.
//! [`crate::trusted_view`] writes a [`View`] (a patch applied, the trusted tests
//! put in: `check --trusted`) into the tree after it was recorded as
//! found; the tree is put back as found after the check.
//! [`crate::host_files`] says which paths run later on the host (a change
//! to one is named first); [`crate::refused_commands`] which commands a
//! gate refuses for what they ask ([`TestConfig::watch_mode`],
//! [`TestConfig::snapshot_update`]).
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
mod capture;
mod channels;
mod config;
mod detect;
pub mod host_files;
mod judge;
mod project;
pub mod project_tree;
mod project_view;
mod records;
pub mod refused_commands;
mod rerun;
mod runners;
mod scan;
mod suite;
mod trusted_view;
mod users_report;
mod written_reports;

pub use crate::config::{EvidenceRule, TestConfig, preset_env};
pub use crate::detect::{DetectError, detect_command};
pub use crate::project::{ProjectRefused, host_folder, project_dir};
pub use crate::project_view::Detected;
pub use crate::records::{AttemptRecord, Observer, PreparationRecord, Record};
pub use crate::runners::npm::npm_script;
pub use crate::runners::supports_structured;
pub use crate::suite::{SandboxedTests, TAIL_BYTES};
pub use crate::trusted_view::{View, ViewFile, ViewRecord, is_trusted_path};

/// The principal vocabulary of [`SandboxedTests`]: what it runs in and what
/// it answers. Every other type of the crates below is named through its
/// crate's namespace: [`parse`], [`policy`], [`run`].
pub use testgate_policy::{Cause, Verdict};
pub use testgate_run::Sandbox;

/// The runner-output parsers (`testgate-parse`): a test's
/// [`parse::Outcome`], a [`parse::Report`], the [`parse::Runner`] list, the
/// [`parse::printable`] filter every shown string goes through.
pub use testgate_parse as parse;
/// The verdict policy (`testgate-policy`): how an attempt ended as the
/// policy sees it ([`policy::Ending`]), the [`policy::Findings`] across
/// attempts, grading and stress.
pub use testgate_policy as policy;
/// The runner (`testgate-run`): the sandboxes' options, cancellation, how a
/// process ended ([`run::Ending`]), and the one door to an untrusted tree
/// ([`run::ProjectDir`], [`run::read_project_file`]).
pub use testgate_run as run;

/// Whether a caller that is not trusted (the agent calling `testgate
/// mcp`'s `check` tool) may set the variable `name` for a check's command,
/// or why not: [`run::caller_may_set`] with the toolchains of every runner
/// profile, whose variables the sandbox's view reads.
///
/// ```
/// use testgate::run::CallerRefusal;
///
/// assert!(testgate::caller_may_set("RUST_BACKTRACE").is_ok());
/// assert_eq!(testgate::caller_may_set("BUN_INSTALL"), Err(CallerRefusal::Mount));
/// ```
pub fn caller_may_set(name: &str) -> Result<(), run::CallerRefusal> {
    run::caller_may_set(name, &crate::runners::run_toolchains())
}

/// Runs `program` with `args` on the host, not sandboxed, in `dir`, with the
/// default environment policy plus `GIT_CONFIG_NOSYSTEM=1`, for at most
/// `timeout`; returns its standard output when it exited 0 (its standard
/// error is discarded), None otherwise. For the few questions testgate asks
/// trusted host tools about a run (`git status` for a record's dirty
/// marker, `bwrap --version`); never for the project's own commands.
pub fn host_output(
    program: &str,
    args: &[&str],
    dir: &std::path::Path,
    timeout: std::time::Duration,
) -> Option<Vec<u8>> {
    let mut script_args = vec!["-c", "exec \"$0\" \"$@\" 2>/dev/null", program];
    script_args.extend_from_slice(args);
    let spec = testgate_run::RunSpec::new("sh", &script_args)
        .dir(dir)
        .env(testgate_run::EnvPolicy::new().set("GIT_CONFIG_NOSYSTEM", "1"))
        .timeout(timeout)
        .sandbox(testgate_run::Sandbox::Host);
    let mut out = Vec::new();
    let mut sink = |chunk: &[u8]| {
        // A question about the host has a short answer; a flood is cut.
        if out.len() < 64 << 20 {
            out.extend_from_slice(chunk);
        }
    };
    let finished = testgate_run::run(&spec, &mut sink).ok()?;
    matches!(finished.ending, testgate_run::Ending::Exited(0)).then_some(out)
}
