//! What a run ends with: a [`Finished`] report or a [`RunError`].

use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// How the command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The command exited by itself with this code. Under bubblewrap a
    /// command killed by signal `n` is reported by bwrap, and so here, as
    /// `Exited(128 + n)`.
    Exited(i32),
    /// The command was killed by this signal (Host sandbox only).
    Signalled(i32),
    /// The deadline passed; the whole process tree was ended.
    TimedOut,
    /// The caller's [`Cancel`](crate::Cancel) was tripped; the whole process
    /// tree was ended.
    Cancelled,
    /// Under Landlock without the network, the output reported a flood of
    /// socket calls the sandbox refused (`connect EACCES 127.0.0.1:…`,
    /// Python's bare `PermissionError: [Errno 13]`, go's `connect:
    /// permission denied`): the suite talks to servers it starts itself,
    /// and where no network namespace can be made it cannot. The whole
    /// process tree was ended at once, not left to the deadline. What the
    /// tests said is the sandbox's doing, not the code's.
    NetworkRefused,
}

/// The report of a run whose command started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// How the command ended.
    pub ending: Ending,
    /// Wall time from spawn until every process of the run was gone.
    pub duration: Duration,
    /// Processes of the run were still alive after the command ended (or
    /// still held its output open) and had to be ended by the runner.
    pub leaked_processes: bool,
    /// Bytes of stdout and stderr handed to the sink.
    pub output_bytes: u64,
    /// What the sandbox decided on the user's behalf about what the command
    /// sees (a `CARGO_TARGET_DIR` outside the project bound writable, a
    /// cache variable pointed at testgate's private cache), one line each;
    /// empty outside bubblewrap.
    pub sandbox_notes: Vec<String>,
    /// What the command did in the project's installed folders (a venv,
    /// `node_modules`, `target/` beside a `Cargo.toml`) under Landlock,
    /// which cannot show them read-only without taking the project's top
    /// from the command: additions removed, changes reported. Empty under
    /// bubblewrap (they are bound read-only) and on the host.
    pub installed: crate::InstalledChange,
}

/// Why a run could not produce a [`Finished`] report.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The command could not be started: the program is missing or not
    /// executable, its interpreter is missing, or the directory is bad.
    #[error("could not start `{program}` in {dir}: {source}")]
    WouldNotStart {
        /// The program as given to [`RunSpec::new`](crate::RunSpec::new).
        program: String,
        /// The working directory of the run.
        dir: PathBuf,
        /// What the operating system (or bwrap) said.
        #[source]
        source: io::Error,
    },
    /// The sandbox could not be set up, so the command was not run: bwrap
    /// missing, user namespaces disabled, bwrap's own setup failing, or a
    /// requested limit that cannot be applied.
    #[error("sandbox refused to run `{program}`: {message}")]
    SandboxRefused {
        /// The program as given to [`RunSpec::new`](crate::RunSpec::new).
        program: String,
        /// Why, in bwrap's own words where bwrap said something.
        message: String,
    },
    /// An operating-system call the runner itself needs failed (creating a
    /// pipe, polling, reading output).
    #[error("running `{program}` failed: {source}")]
    Io {
        /// The program as given to [`RunSpec::new`](crate::RunSpec::new).
        program: String,
        /// The failing call's error.
        #[source]
        source: io::Error,
    },
}
