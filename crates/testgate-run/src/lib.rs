//! Runs a test command — in a bubblewrap sandbox by default — with a timeout
//! that ends the whole process tree, streaming its output in bounded memory.
//!
//! The principal function is [`run`]: it takes a [`RunSpec`] (program,
//! arguments, directory, [`EnvPolicy`], timeout, [`Sandbox`]) and an
//! [`OutputSink`] that receives stdout and stderr merged line by line in arrival order,
//! and returns a [`Finished`] report (an [`Ending`], the duration, whether
//! leftover processes had to be ended, the byte count) or a [`RunError`].
//! No process started by a run outlives [`run`]. This is the only crate of
//! testgate that starts processes.
//!
//! ```
//! use testgate_run::{run, RunSpec, Sandbox, Ending};
//! use std::time::Duration;
//!
//! let spec = RunSpec::new("sh", ["-c", "echo hi"])
//!     .sandbox(Sandbox::Host)
//!     .timeout(Duration::from_secs(10));
//! let mut output = Vec::new();
//! let finished = run(&spec, &mut |chunk: &[u8]| output.extend_from_slice(chunk))?;
//! assert_eq!(finished.ending, Ending::Exited(0));
//! assert_eq!(output, b"hi\n");
//! # Ok::<(), testgate_run::RunError>(())
//! ```
//!
//! [`read_project_file`] reads a file the code under test may have replaced
//! (a FIFO, a symlink to `/dev/zero`) without following, blocking or
//! reading without bound; [`ProjectDir`] reads, writes and removes beneath
//! a project without following any link the code under test planted, and
//! [`replace_file`] and [`append_file`] open the user's own paths (a record,
//! batch results) without following a link at the last component.
//!
//! [`Dir`] walks a tree the code under test may have changed by descriptor
//! (`openat` with `O_NOFOLLOW`, `fstatat`, `readlinkat`): no link followed,
//! no path longer than one name.
//!
//! This crate knows no test runner by name: what a command's toolchains
//! need of the host (the folders of the homes they are installed in, their
//! variables, their caches made private, the project's folders they
//! install into) is data its caller hands over, a [`Toolchain`] each
//! ([`RunSpec::toolchains`]; testgate's facade hands every runner
//! profile's). The few toolchain names left here (Python's bytecode prefix
//! and venvs, the variables passed by default, the refusals of
//! [`caller_may_set`], the credential files hidden, the languages'
//! refused-connection messages) are listed in docs/architecture.md's
//! invariants.
//!
//! What the sandbox promises, and what it does not, is in `docs/sandbox.md`.
//!
//! # Code map
//!
//! [`run`] ([`crate::run`](mod@crate::run)) resolves [`Sandbox::Auto`] and runs the command
//! in the chosen sandbox ([`crate::sandboxed`]), which builds the
//! environment ([`crate::env`]: [`EnvPolicy`]) and the sandbox's command
//! line ([`crate::bwrap`], the seccomp filter of [`crate::seccomp`]; or the
//! Landlock ruleset of [`crate::landlocked`]), starts the command through
//! the one place that spawns ([`crate::spawn`]) under a reaper of the run's
//! own ([`crate::reaper`], a child subreaper: every process of the run
//! stays its descendant), and polls its output into an [`OutputSink`]
//! ([`crate::sink`]), its end, deadline and [`Cancel`] ([`crate::poll`]);
//! [`crate::process_tree`] finds and ends every process the
//! run started. [`choose_sandbox`] ([`crate::choose`]) picks bubblewrap or
//! Landlock, never the host.
//!
//! What the sandbox shows: [`crate::host_view`] (homes as an allowlist,
//! toolchains read-only, private per-project caches, as [`ToolCache`]s the
//! caller names), [`crate::seed`] (a private cache started as a copy of the
//! host's), [`crate::evict`] (a cap on those caches), [`crate::protect`]
//! (what is read-only inside: the `.git` host git uses, the folders the
//! host installs into, unless [`ProjectWrites`] says otherwise),
//! [`crate::installed`] (the same folders under Landlock, checked after the
//! run: [`InstalledChange`]) and [`crate::gitconfig`] (the home's
//! `~/.gitconfig`). [`crate::project_file`] is the one door to a tree the
//! code under test could change ([`ProjectDir`]) and [`crate::dir`] walks
//! one by descriptor ([`Dir`]). `docs/sandbox.md` is the specification.
#![deny(missing_docs)]
#![allow(
    rustdoc::private_intra_doc_links,
    reason = "the code map links the private modules, so that a stale name breaks `cargo doc`"
)]

/// The crate's README, whose example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod bwrap;
mod cancel;
mod choose;
mod dir;
mod env;
mod evict;
mod gitconfig;
mod host_view;
mod installed;
mod landlocked;
mod loopback;
mod outcome;
mod poll;
mod private_state;
mod process_tree;
mod project_file;
mod protect;
mod reaper;
mod refused;
mod run;
mod sandboxed;
mod seccomp;
mod seed;
mod sink;
mod spawn;
mod spec;
mod toolchain;

pub use crate::cancel::{Cancel, cancel_on_signals};
pub use crate::choose::{SandboxChoice, choose_sandbox};
pub use crate::dir::{Dir, EntryKind, EntryStat, user_xattrs};
pub use crate::env::{CallerRefusal, EnvPolicy, caller_may_set, effective_uid, home_directories};
pub use crate::host_view::ToolCache;
pub use crate::installed::InstalledChange;
pub use crate::outcome::{Ending, Finished, RunError};
pub use crate::private_state::PrivateState;
pub use crate::project_file::{
    ProjectDir, ProjectFileError, ProjectLock, append_file, read_project_file, replace_file,
};
pub use crate::run::run;
pub use crate::sink::OutputSink;
pub use crate::spec::{BwrapOptions, LandlockOptions, ProjectWrites, RunSpec, Sandbox};
pub use crate::toolchain::{CachePlace, HomeCache, Installed, InstalledPart, Toolchain};
