//! The `testgate` binary, started as a user would: `parse` and `check`, their
//! exit codes, output, one-line errors and JSON documents; and the hostile
//! suites `check` must survive (`hostile`, docs/security.md).
#![expect(
    clippy::disallowed_methods,
    reason = "the tests start the binary under test"
)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use wait_timeout::ChildExt;

mod batch;
mod check;
mod detect;
mod environment;
mod honest_runs;
mod hostile;
mod identity;
mod json;
mod mcp;
mod outputs;
mod parse;
mod pipes;
mod runner_names;
mod sandboxes;
mod trusted;
mod workers;

/// What a run of the binary gave.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `testgate ARGS` with `stdin` (empty when `None`), killing it after
/// a generous bound so a hang fails the test instead of stalling it.
pub(crate) fn testgate(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command.args(args);
    run(command, stdin)
}

/// Runs `command` (a testgate command line built by the caller) as
/// [`testgate`] does.
pub(crate) fn run(mut command: Command, stdin: Option<&[u8]>) -> Run {
    let args: Vec<String> = command
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut child = command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start testgate");
    let writer = child.stdin.take().map(|mut pipe| {
        let input = stdin.unwrap_or_default().to_vec();
        // A reader that exits early closes the pipe; that is its business.
        thread::spawn(move || drop(pipe.write_all(&input)))
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let out = thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let err = thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let status = match child.wait_timeout(Duration::from_secs(180)).expect("wait") {
        Some(status) => status,
        None => {
            child.kill().expect("kill");
            child.wait().expect("reap");
            panic!("testgate {args:?} ran for over 180 s");
        }
    };
    if let Some(writer) = writer {
        writer.join().expect("stdin writer");
    }
    Run {
        code: status.code(),
        stdout: out.join().expect("stdout reader").expect("stdout is UTF-8"),
        stderr: err.join().expect("stderr reader").expect("stderr is UTF-8"),
    }
}
