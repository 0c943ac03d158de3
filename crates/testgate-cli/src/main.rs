//! The `testgate` command: parses the command line, runs one subcommand, and
//! maps its outcome to an exit code (see [`exit`]).

mod exit;
mod parse;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The command line; `about` comes from the crate's description.
#[derive(Debug, Parser)]
#[command(name = "testgate", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Parse(parse::ParseArgs),
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
    let result = Cli::try_parse()
        .map_err(Error::from)
        .and_then(|cli| match cli.command {
            Command::Parse(args) => parse::run(&args),
        });
    ExitCode::from(exit_code(result))
}

/// The one place where outcomes become exit codes; it also prints the
/// one-line message of an error.
fn exit_code(result: Result<(), Error>) -> u8 {
    match result {
        Ok(()) => exit::SUCCESS,
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
        // our failure: stop quietly, as ripgrep does.
        Err(Error::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => exit::SUCCESS,
        Err(e @ (Error::Read { .. } | Error::Write(_))) => {
            let _ = writeln!(io::stderr(), "testgate: {e}");
            exit::TROUBLE
        }
    }
}
