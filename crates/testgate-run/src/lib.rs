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
//! reading without bound.
//!
//! What the sandbox promises, and what it does not, is in `docs/sandbox.md`.
#![deny(missing_docs)]

mod bwrap;
mod cancel;
mod choose;
mod env;
mod gitconfig;
mod landlocked;
mod outcome;
mod project_file;
mod protect;
mod runner;
mod seccomp;
mod seed;
mod spawn;
mod spec;
mod tree;
mod view;
mod watch;

pub use crate::cancel::{Cancel, cancel_on_signals};
pub use crate::choose::{SandboxChoice, choose_sandbox};
pub use crate::env::{EnvPolicy, home_directories};
pub use crate::outcome::{Ending, Finished, RunError};
pub use crate::project_file::{ProjectFileError, read_project_file};
pub use crate::runner::{OutputSink, run};
pub use crate::spec::{BwrapOptions, LandlockOptions, RunSpec, Sandbox};
