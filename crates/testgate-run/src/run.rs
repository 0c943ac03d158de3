//! A run from start to report: the sandbox chosen ([`crate::choose`]), then
//! the run in it ([`crate::sandboxed`]).

use crate::outcome::{Finished, RunError};
use crate::sandboxed::{self, Chosen, Context};
use crate::sink::OutputSink;
use crate::spec::{RunSpec, Sandbox};

/// Runs `spec`, handing its output to `sink`, and returns once every process
/// of the run is gone.
///
/// The command runs under a reaper of the run's own, a child subreaper: the
/// run's processes are the reaper's descendants, as the kernel keeps them,
/// however they detach and whatever they drop (their environment, their
/// session, their process group).
///
/// Side effects on the calling process (both process-wide, both set on the
/// first run and left in place): the process becomes a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`), so that what a killed reaper leaves is
/// reparented to it rather than to init; and a `SIG_IGN` disposition of
/// SIGCHLD is reset to the default, since under it the kernel discards
/// children's exit statuses.
pub fn run(spec: &RunSpec, sink: &mut dyn OutputSink) -> Result<Finished, RunError> {
    let chosen = match &spec.sandbox {
        Sandbox::Host => Chosen::Host,
        Sandbox::Landlock(options) => Chosen::Landlock(options),
        Sandbox::Bubblewrap(options) => Chosen::Bubblewrap(options),
        Sandbox::Auto(options) => {
            crate::process_tree::keep_child_statuses();
            crate::process_tree::become_subreaper();
            // A directory that cannot be had fails the run before a choice.
            Context::of(spec)?;
            let choice = crate::choose::choose_sandbox(options).map_err(|message| {
                RunError::SandboxRefused {
                    program: spec.program_name(),
                    message,
                }
            })?;
            let name = choice.sandbox.name();
            let mut finished = run(&spec.clone().sandbox(choice.sandbox), sink)?;
            finished
                .sandbox_notes
                .insert(0, format!("auto chose {name}: {}", choice.why));
            return Ok(finished);
        }
    };
    sandboxed::run_in(spec, chosen, sink)
}
