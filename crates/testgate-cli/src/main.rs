//! The `testgate` command: parses the command line, runs one subcommand, and
//! maps its outcome to an exit code (see [`exit`]).
//!
//! # Code map
//!
//! - `check`: [`check`] (options → the facade, the verdict printed or
//!   written as a document), grading files read by [`expect`], the output
//!   streamed to a terminal filtered by [`terminal`] (a pure state
//!   machine), `--junit` and `--swebench-report` in [`outputs`], and
//!   signed verdict records (`--record`, `keygen`, `verify`) in [`record`].
//! - `parse`: [`parse`]; `diff`: [`diff`].
//! - `batch`: [`batch`], many checks from a JSON-lines manifest, `--jobs`
//!   at a time.
//! - `mcp`: [`mcp`], a Model Context Protocol server over stdio whose tools
//!   call `check`, `parse` and `diff` for a caller treated as untrusted; the
//!   only async code.
//! - The facade's types become testgate-documents' documents in [`json`].

mod batch;
mod check;
mod diff;
mod exit;
mod expect;
mod json;
mod mcp;
mod outputs;
mod parse;
mod record;
mod roots;
mod terminal;
mod trusted;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Parser, Subcommand};
use testgate_parse::Format;

/// The command line; `about` comes from the crate's description.
#[derive(Debug, Parser)]
#[command(name = "testgate", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Check(Box<check::CheckArgs>),
    Parse(parse::ParseArgs),
    Batch(batch::BatchArgs),
    Diff(diff::DiffArgs),
    Keygen(record::KeygenArgs),
    Verify(record::VerifyArgs),
    Mcp(mcp::McpArgs),
}

/// A value of `--format`: `auto` or a runner's name. Its values come from
/// [`Format::ALL`], so a runner added to testgate-parse is a value here
/// without an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FormatArg(Format);

impl clap::ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [FormatArg; Format::ALL.len()] = {
            let mut all = [FormatArg(Format::Auto); Format::ALL.len()];
            let mut i = 0;
            while i < all.len() {
                all[i] = FormatArg(Format::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()))
    }
}

/// Why a command could not do its job. Each maps to an exit code in
/// [`exit_code`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
enum Error {
    /// The command line was wrong, or asked for help or the version (which
    /// clap reports as an "error" too; see [`exit_code`]).
    #[error("{0}")]
    Usage(#[from] clap::Error),
    /// An input could not be opened or read.
    #[error("cannot read {}: {source}", display_input(path))]
    Read {
        /// The path as given; `-` is standard input.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write to standard output: {0}")]
    Write(#[source] io::Error),
    /// `check -C DIR` (or a manifest's `workspace`) names no directory, or
    /// one that would open the whole host or a home directory to the tests.
    #[error("{0}")]
    Project(#[from] testgate::ProjectRefused),
    /// `check --writable PATH` names no directory or file, or one that
    /// would open the whole host or the home directory to the tests.
    #[error("cannot make {} writable: {why}", path.display())]
    Writable {
        /// The path as given.
        path: PathBuf,
        /// Why not, in a few words.
        #[source]
        why: check::WritableRefusal,
    },
    /// A `testgate mcp` caller's `workspace` lies outside the server's
    /// roots (`--root`) or is a system folder.
    #[error("{0}")]
    Workspace(#[source] roots::RootsError),
    /// `check` was given an empty program name.
    #[error("no test command given: put it after `--`, as in `testgate check -- cargo test`")]
    EmptyCommand,
    /// `check` was given no command, and the project's files name no one
    /// runner (none, several, or only in folders below).
    #[error("{0}")]
    Detect(#[from] testgate::DetectError),
    /// `check --env` was given an empty name.
    #[error("`--env {0}` names no variable: use NAME to pass it through or NAME=VALUE to set it")]
    BadEnv(String),
    /// The test command asks its runner to watch for changes, so it would
    /// never end.
    #[error("{0}")]
    WatchMode(String),
    /// `check` was given a snapshot-update flag.
    #[error("{0}")]
    SnapshotUpdate(String),
    /// A record, key or signature could not be read, written or used.
    #[error(transparent)]
    Record(#[from] record::RecordError),
    /// `check --apply` names a patch that cannot be had.
    #[error(transparent)]
    Apply(#[from] check::ApplyError),
    /// `check --expect FILE` or `--quarantine FILE` could not be read or
    /// states no list.
    #[error("{0}")]
    ExpectList(#[from] crate::expect::ExpectError),
    /// `batch` could not open, resume or write its `--out`.
    #[error(transparent)]
    Batch(#[from] batch::BatchError),
    /// A check's JSON (`diff`, `check --baseline`) is not one.
    #[error(transparent)]
    Baseline(#[from] diff::DocumentOfCheckError),
    /// `mcp` could not start or keep its session.
    #[error(transparent)]
    Serve(#[from] mcp::ServeError),
    /// `check --structured` for a runner testgate cannot ask for a report.
    #[error(
        "--structured knows how to ask pytest for its report, not {0}: configure the runner \
         to write JUnit XML and give its path with --report PATH"
    )]
    Structured(String),
    /// `check --junit` or `--swebench-report` could not be written.
    #[error(transparent)]
    Output(#[from] outputs::OutputError),
}

/// What a command ended with, when it did its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Success {
    /// `parse` read every input.
    Parsed,
    /// `check` gave a verdict (or was interrupted).
    Checked(check::CheckEnd),
    /// `keygen` wrote a key pair.
    Generated,
    /// `verify` checked a record: whether every check held.
    Verified(bool),
    /// `batch` ran its manifest.
    Batched(batch::BatchEnd),
    /// `mcp` served until its client left or a signal came.
    Served,
}

/// How an input path is named in messages.
fn display_input(path: &std::path::Path) -> String {
    if parse::is_stdin(path) {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    }
}

fn main() -> ExitCode {
    let mut reader_may_stop = false;
    let result = Cli::try_parse()
        .map_err(Error::from)
        .and_then(|cli| match cli.command {
            Command::Parse(args) => {
                reader_may_stop = true;
                parse::run(&args).map(|()| Success::Parsed)
            }
            Command::Check(args) => check::run(*args).map(Success::Checked),
            Command::Batch(args) => batch::run(&args).map(Success::Batched),
            Command::Diff(args) => diff::run(&args).map(|()| Success::Parsed),
            Command::Keygen(args) => record::keygen(&args).map(|()| Success::Generated),
            Command::Verify(args) => record::verify(&args).map(Success::Verified),
            Command::Mcp(args) => mcp::run(&args).map(|()| Success::Served),
        });
    ExitCode::from(exit_code(result, reader_may_stop))
}

/// The one place where outcomes become exit codes; it also prints the
/// one-line message of an error. `reader_may_stop`: the command is
/// `parse`, whose reader may stop early (`testgate parse log | head -1`);
/// a verdict's exit status (`check`, `verify`) never depends on its
/// reader, and `diff`'s or `mcp`'s lost output is trouble.
fn exit_code(result: Result<Success, Error>, reader_may_stop: bool) -> u8 {
    match result {
        Ok(
            Success::Parsed
            | Success::Generated
            | Success::Served
            | Success::Verified(true)
            | Success::Checked(check::CheckEnd::Pass),
        ) => exit::SUCCESS,
        Ok(Success::Verified(false)) => exit::FAIL,
        Ok(Success::Batched(ending)) => batch::exit_code(ending),
        Ok(Success::Checked(check::CheckEnd::Fail)) => exit::FAIL,
        Ok(Success::Checked(check::CheckEnd::Inconclusive)) => exit::INCONCLUSIVE,
        Ok(Success::Checked(check::CheckEnd::Interrupted)) => exit::INTERRUPTED,
        Err(Error::Usage(e)) => {
            // `--help` and `--version` arrive here as "errors" that go to
            // stdout and mean success; real usage errors go to stderr.
            let _ = e.print();
            if e.use_stderr() {
                exit::TROUBLE
            } else {
                exit::SUCCESS
            }
        }
        // A reader that stops early (`testgate parse log | head -1`) is not
        // our failure: stop quietly, as ripgrep does. Only for `parse`:
        // `check … | true` must still exit 1 on a Fail.
        Err(Error::Write(e)) if reader_may_stop && e.kind() == io::ErrorKind::BrokenPipe => {
            exit::SUCCESS
        }
        Err(
            e @ (Error::Read { .. }
            | Error::Write(_)
            | Error::Project(_)
            | Error::Workspace(_)
            | Error::Writable { .. }
            | Error::EmptyCommand
            | Error::Detect(_)
            | Error::BadEnv(_)
            | Error::WatchMode(_)
            | Error::SnapshotUpdate(_)
            | Error::Record(_)
            | Error::Apply(_)
            | Error::ExpectList(_)
            | Error::Batch(_)
            | Error::Baseline(_)
            | Error::Serve(_)
            | Error::Structured(_)
            | Error::Output(_)),
        ) => {
            let _ = writeln!(io::stderr(), "testgate: {e}");
            exit::TROUBLE
        }
    }
}
