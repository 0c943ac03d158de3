//! Every captured log as CI systems store it: wrapped in each CI's line
//! prefixes and markers, as each system's documentation gives them, it
//! gives the report the bare log gives.
//!
//! The wrapping is made here from the captured logs, line by line, so that
//! each fixture is tried in every shape without storing a copy per shape;
//! `CI_SHAPES_DIR=dir cargo test -p testgate-parse --test parse ci_shapes`
//! writes the wrapped logs there to look at.

use std::path::{Path, PathBuf};

use testgate_parse::{Format, Report, StreamParser, parse};

/// A CI system's way of storing a job's log.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// A downloaded Actions log: a BOM, a timestamp on every line, the
    /// step in `##[group]Run …`/`##[endgroup]`, the step's failure as an
    /// `##[error]` annotation (docs.github.com, "Workflow commands").
    GitHubActions,
    /// Azure Pipelines: the same timestamps, `##[section]`, `##[command]`,
    /// a logging command, `##[error]` (learn.microsoft.com, "Logging
    /// commands").
    AzurePipelines,
    /// A GitLab raw trace: the runner's sections
    /// (`ESC[0Ksection_start:TIME:NAME\rESC[0K` and its header,
    /// `ESC[0Ksection_end:TIME:NAME\rESC[0K`; docs.gitlab.com, "CI/CD job
    /// logs").
    GitLab,
    /// A GitLab trace with job log timestamps: each line after an RFC 3339
    /// time and the stream tag `00O `.
    GitLabTimestamps,
    /// A Buildkite log: each line after the APC `ESC _bk;t=MILLIS BEL`,
    /// the command under a `~~~` group (buildkite.com, "Managing log
    /// output").
    Buildkite,
    /// A Jenkins Pipeline with Timestamper: `[2026-12-03T10:00:00.123Z] `
    /// on every line, Pipeline's own `[Pipeline] sh` lines.
    Jenkins,
    /// `docker compose up`: `app-1  | ` on the test container's lines,
    /// padded to the longest service name, a database's lines before.
    Compose,
    /// `docker compose up` in an Actions step: the timestamp, then the
    /// service's prefix.
    ActionsCompose,
    /// tox 4: its command line before the runner's, its verdict after.
    Tox,
    /// nox: its `nox > ` lines before and after the runner's.
    Nox,
    /// Two steps' logs merged: Actions' timestamp on every other line only.
    SomeLinesPrefixed,
}

const SHAPES: [Shape; 11] = [
    Shape::GitHubActions,
    Shape::AzurePipelines,
    Shape::GitLab,
    Shape::GitLabTimestamps,
    Shape::Buildkite,
    Shape::Jenkins,
    Shape::Compose,
    Shape::ActionsCompose,
    Shape::Tox,
    Shape::Nox,
    Shape::SomeLinesPrefixed,
];

/// An Actions/Azure timestamp for line `n`: seven digits of fraction.
fn actions_time(n: usize) -> String {
    format!(
        "2026-12-03T10:{:02}:{:02}.{:07}Z",
        n / 60 % 60,
        n % 60,
        n * 7919 % 10_000_000
    )
}

/// `log` wrapped in `shape`.
fn wrap(shape: Shape, log: &[u8]) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = log.split(|&b| b == b'\n').collect();
    if log.is_empty() || log.ends_with(b"\n") {
        lines.pop();
    }
    let mut out: Vec<u8> = Vec::with_capacity(log.len() * 2);
    let mut put = |head: &str, line: &[u8]| {
        out.extend_from_slice(head.as_bytes());
        out.extend_from_slice(line);
        out.push(b'\n');
    };
    match shape {
        Shape::GitHubActions => {
            put(
                "\u{feff}",
                format!("{} ##[group]Run cargo test", actions_time(0)).as_bytes(),
            );
            put(&actions_time(1), b" shell: /usr/bin/bash -e {0}");
            put(&actions_time(2), b" ##[endgroup]");
            for (n, line) in lines.iter().enumerate() {
                put(&format!("{} ", actions_time(n + 3)), line);
            }
            put(
                &actions_time(lines.len() + 3),
                b" ##[error]Process completed with exit code 101.",
            );
        }
        Shape::AzurePipelines => {
            let header = [
                "##[section]Starting: Test",
                "==============================================================================",
                "Task         : Command line",
                "Version      : 2.250.1",
                "==============================================================================",
                "##vso[task.setvariable variable=RUST_BACKTRACE]1",
                "##[command]/usr/bin/bash --noprofile --norc /home/vsts/work/_temp/x.sh",
            ];
            for (n, line) in header.iter().enumerate() {
                put(&format!("{} ", actions_time(n)), line.as_bytes());
            }
            for (n, line) in lines.iter().enumerate() {
                put(&format!("{} ", actions_time(n + header.len())), line);
            }
            let end = lines.len() + header.len();
            put(
                &format!("{} ", actions_time(end)),
                b"##[error]Bash exited with code '101'.",
            );
            put(
                &format!("{} ", actions_time(end + 1)),
                b"##[section]Finishing: Test",
            );
        }
        Shape::GitLab => {
            put(
                "",
                b"\x1b[0KRunning with gitlab-runner 17.6.0 (3e8a8ab7)\x1b[0;m",
            );
            put("", b"\x1b[0Ksection_start:1764756000:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m\x1b[0;m");
            put("", b"\x1b[32;1m$ cargo test\x1b[0;m");
            for line in &lines {
                put("", line);
            }
            put("", b"\x1b[0Ksection_end:1764756001:step_script\r\x1b[0K");
            put("", b"\x1b[0Ksection_start:1764756001:cleanup_file_variables[collapsed=true]\r\x1b[0K\x1b[0K\x1b[36;1mCleaning up project directory and file based variables\x1b[0;m\x1b[0;m");
            put(
                "",
                b"\x1b[0Ksection_end:1764756002:cleanup_file_variables\r\x1b[0K",
            );
            put("", b"\x1b[31;1mERROR: Job failed: exit code 101\n\x1b[0;m");
        }
        Shape::GitLabTimestamps => {
            for (n, line) in lines.iter().enumerate() {
                let time = format!("2026-12-03T10:00:{:02}.{:06}Z 00O ", n % 60, n % 1_000_000);
                put(&time, line);
            }
        }
        Shape::Buildkite => {
            let time = |n: usize| format!("\x1b_bk;t={}\x07", 1_764_756_000_000u64 + n as u64);
            put(&time(0), b"~~~ Running commands");
            put(&time(1), b"$ cargo test");
            for (n, line) in lines.iter().enumerate() {
                put(&time(n + 2), line);
            }
            put(
                &time(lines.len() + 2),
                b"\xf0\x9f\x9a\xa8 Error: The command exited with status 101",
            );
        }
        Shape::Jenkins => {
            let time = |n: usize| format!("[2026-12-03T10:00:{:02}.{:03}Z] ", n % 60, n % 1000);
            put(&time(0), b"[Pipeline] sh");
            put(&time(1), b"+ cargo test");
            for (n, line) in lines.iter().enumerate() {
                put(&time(n + 2), line);
            }
            put(&time(lines.len() + 2), b"[Pipeline] }");
        }
        Shape::Compose => {
            put("", b"Attaching to app-1, db-1");
            put(
                "db-1   | ",
                b"LOG:  database system is ready to accept connections",
            );
            for line in &lines {
                put("app-1  | ", line);
            }
            put("", b"app-1 exited with code 101");
        }
        Shape::ActionsCompose => {
            for (n, line) in lines.iter().enumerate() {
                put(&format!("{} app-1  | ", actions_time(n)), line);
            }
        }
        Shape::Tox => {
            put("", b"py311: install_deps> python -I -m pip install pytest");
            put("", b"py311: commands[0]> pytest -v");
            for line in &lines {
                put("", line);
            }
            put("", b"py311: exit 1 (0.42 seconds) /p> pytest -v pid=4242");
            put(
                "",
                b"  py311: FAIL code 1 (0.50=setup[0.08]+cmd[0.42] seconds)",
            );
            put("", b"  evaluation failed :( (0.55 seconds)");
        }
        Shape::Nox => {
            put("", b"nox > Running session tests-3.11");
            put("", b"nox > Creating virtual environment (virtualenv) using python3.11 in .nox/tests-3-11");
            put("", b"nox > pytest -v");
            for line in &lines {
                put("", line);
            }
            put("", b"nox > Command pytest -v failed with exit code 1");
            put("", b"nox > Session tests-3.11 failed.");
        }
        Shape::SomeLinesPrefixed => {
            for (n, line) in lines.iter().enumerate() {
                let head = if n % 2 == 0 {
                    format!("{} ", actions_time(n))
                } else {
                    String::new()
                };
                put(&head, line);
            }
        }
    }
    out
}

/// The report without what a wrapping changes by design: how many lines
/// the log had.
/// The report without what a CI shape changes: the lines it adds, and
/// its sections' steps and lines (checked by `sections_in_each_ci_shape`).
fn comparable(mut report: Report) -> Report {
    report.lines = 0;
    for section in &mut report.sections {
        section.step = None;
        section.first_line = 0;
        section.last_line = 0;
    }
    report
}

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut logs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|runner| runner.path().is_dir())
        .flat_map(|runner| std::fs::read_dir(runner.path()).unwrap().flatten())
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "log"))
        .collect();
    logs.sort();
    logs
}

/// Every captured log in every CI shape gives the bare log's report:
/// the same failing names, counts, outcomes, runner; streamed too.
#[test]
fn every_captured_log_in_every_ci_shape() {
    let keep = std::env::var_os("CI_SHAPES_DIR").map(PathBuf::from);
    let logs = fixtures();
    assert!(logs.len() >= 100, "only {} fixtures found", logs.len());
    let mut wrong = Vec::new();
    for log in &logs {
        let bytes = std::fs::read(log).unwrap();
        let bare = comparable(parse(Format::Auto, &bytes));
        for shape in SHAPES {
            let wrapped = wrap(shape, &bytes);
            if let Some(dir) = &keep {
                let name = format!(
                    "{}-{}-{shape:?}.log",
                    log.parent()
                        .and_then(Path::file_name)
                        .unwrap()
                        .to_string_lossy(),
                    log.file_stem().unwrap().to_string_lossy()
                );
                std::fs::write(dir.join(name), &wrapped).unwrap();
            }
            let whole = comparable(parse(Format::Auto, &wrapped));
            if whole != bare {
                let names: Vec<&str> = whole.names().collect();
                let expected: Vec<&str> = bare.names().collect();
                let (a, b) = (format!("{whole:#?}"), format!("{bare:#?}"));
                let diff: Vec<String> = a
                    .lines()
                    .zip(b.lines())
                    .filter(|(x, y)| x != y)
                    .take(3)
                    .map(|(x, y)| format!("{x} / {y}"))
                    .collect();
                wrong.push(format!(
                    "{diff:?} {} as {shape:?}: {names:?} ({:?}), bare {expected:?} ({:?})",
                    log.display(),
                    whole.counts,
                    bare.counts
                ));
                continue;
            }
            let mut parser = StreamParser::new(Format::Auto);
            for chunk in wrapped.chunks(97) {
                parser.feed(chunk);
            }
            if comparable(parser.finish()) != bare {
                wrong.push(format!("{} as {shape:?}: streamed differs", log.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The same for each log's own format given explicitly.
#[test]
fn every_captured_log_in_every_ci_shape_with_its_format() {
    let mut wrong = Vec::new();
    for log in fixtures() {
        let bytes = std::fs::read(&log).unwrap();
        let format = super::format_of(&log);
        let bare = comparable(parse(format, &bytes));
        for shape in SHAPES {
            let wrapped = comparable(parse(format, wrap(shape, &bytes)));
            if wrapped != bare {
                wrong.push(format!("{} as {shape:?}", log.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
