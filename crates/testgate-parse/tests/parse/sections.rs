//! A job's log of several runners: one section per runner per CI step,
//! each naming its own runner's failing tests.
//!
//! The logs are made from captured runs (`tests/fixtures`), joined as a CI
//! system stores a job of several steps (GitHub Actions, Azure Pipelines,
//! GitLab, Buildkite) or as one step running several runners (`make
//! test`); each section's names are its runner's log's `.expected`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use testgate_parse::{Format, Report, Runner, StreamParser, parse};

use super::expected_names;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Three captured runs: cargo, pytest `-v` and go `-v`, each failing.
fn runs() -> [(Runner, &'static str, PathBuf); 3] {
    [
        (Runner::Cargo, "cargo test", fixture("cargo/colour.log")),
        (Runner::Pytest, "pytest -v", fixture("pytest/verbose.log")),
        (Runner::Go, "go test -v ./...", fixture("go/verbose.log")),
    ]
}

fn lines(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// How a CI system stores a job of several steps, each running `command`.
#[derive(Debug, Clone, Copy)]
enum Job {
    GitHubActions,
    AzurePipelines,
    GitLab,
    Buildkite,
}

/// The job's log: each run in a step of its own, as `job` stores it.
fn job_log(job: Job) -> String {
    let mut out = String::new();
    let mut n = 0usize;
    let mut put = |line: &str| {
        let time = format!("2026-12-03T10:{:02}:{:02}.{:07}Z", n / 60 % 60, n % 60, n);
        n += 1;
        match job {
            Job::GitHubActions | Job::AzurePipelines => out.push_str(&format!("{time} {line}\n")),
            Job::GitLab => out.push_str(&format!("{line}\n")),
            Job::Buildkite => out.push_str(&format!("\x1b_bk;t={n}\x07{line}\n")),
        }
    };
    if matches!(job, Job::GitLab) {
        put(
            "\x1b[0Ksection_start:1764756000:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m",
        );
    }
    if matches!(job, Job::Buildkite) {
        put("~~~ Running commands");
    }
    for (_, command, path) in runs() {
        match job {
            Job::GitHubActions => {
                put(&format!("##[group]Run {command}"));
                put(command);
                put("shell: /usr/bin/bash -e {0}");
                put("##[endgroup]");
            }
            Job::AzurePipelines => {
                put("##[section]Starting: Test step");
                put("Task         : Command line");
                put(&format!("##[command]{command}"));
            }
            Job::GitLab => put(&format!("\x1b[32;1m$ {command}\x1b[0;m")),
            Job::Buildkite => put(&format!("$ {command}")),
        }
        for line in lines(&path) {
            put(&line);
        }
        match job {
            Job::GitHubActions => put("##[error]Process completed with exit code 1."),
            Job::AzurePipelines => {
                put("##[error]Bash exited with code '1'.");
                put("##[section]Finishing: Test step");
            }
            Job::GitLab | Job::Buildkite => {}
        }
    }
    out
}

/// Each section's runner, step and names.
fn sections_of(report: &Report) -> Vec<(Runner, Option<String>, BTreeSet<String>)> {
    report
        .sections
        .iter()
        .map(|section| {
            let names = section
                .failing(report)
                .map(|test| test.name.clone())
                .collect();
            (section.runner, section.step.clone(), names)
        })
        .collect()
}

/// Sections follow each other, the first from line 0, the last to the
/// log's end, each failing test in exactly one.
fn assert_tiled(report: &Report, what: &str) {
    let mut next = 0;
    for section in &report.sections {
        assert_eq!(section.first_line, next, "{what}: {:#?}", report.sections);
        assert!(section.last_line >= section.first_line, "{what}");
        next = section.last_line + 1;
    }
    assert_eq!(next, report.lines, "{what}: the last section ends the log");
    let mut all: Vec<usize> = report
        .sections
        .iter()
        .flat_map(|section| section.failing.iter().chain(&section.printed).copied())
        .collect();
    all.sort_unstable();
    assert_eq!(all, (0..report.failing.len()).collect::<Vec<_>>(), "{what}");
}

#[test]
fn a_job_of_three_steps_is_three_sections_named_by_their_commands() {
    for job in [
        Job::GitHubActions,
        Job::AzurePipelines,
        Job::GitLab,
        Job::Buildkite,
    ] {
        let log = job_log(job);
        let report = parse(Format::Auto, &log);
        let expected: Vec<_> = runs()
            .into_iter()
            .map(|(runner, command, path)| {
                (runner, Some(command.to_owned()), expected_names(&path))
            })
            .collect();
        let got = sections_of(&report);
        // The lines before the first step (GitLab's section header,
        // Buildkite's group) belong to the first section.
        assert_eq!(got, expected, "{job:?}");
        assert_tiled(&report, &format!("{job:?}"));
        let mut parser = StreamParser::new(Format::Auto);
        for chunk in log.as_bytes().chunks(61) {
            parser.feed(chunk);
        }
        assert_eq!(parser.finish(), report, "{job:?} streamed");
    }
}

#[test]
fn one_step_running_three_runners_is_three_sections_without_a_step() {
    let mut log = String::new();
    for (_, _, path) in runs() {
        for line in lines(&path) {
            log.push_str(&line);
            log.push('\n');
        }
    }
    let report = parse(Format::Auto, &log);
    let expected: Vec<_> = runs()
        .into_iter()
        .map(|(runner, _, path)| (runner, None, expected_names(&path)))
        .collect();
    assert_eq!(sections_of(&report), expected);
    assert_tiled(&report, "make test");
}

/// Made from captured logs (hand-joined): a pytest session a cargo test
/// printed, between its binary's `running` line and its `test result:`.
/// Within cargo's lines the pytest session is cargo's output: no section
/// of its own, its names the section's `printed`, none of its `failing`;
/// the report keeps them (the gate weighs a pass that prints failures as
/// before: hostile `other-runner-failures`). The same session printed
/// after cargo's run is a section of its own.
#[test]
fn a_runner_printed_within_another_runners_lines_is_printed_not_run() {
    let cargo = lines(&fixture("cargo/colour.log"));
    let pytest = lines(&fixture("pytest/verbose.log"));
    let at = cargo
        .iter()
        .position(|line| line.starts_with("running "))
        .unwrap()
        + 1;
    let mut within = cargo[..at].to_vec();
    within.extend(pytest.iter().cloned());
    within.extend(cargo[at..].iter().cloned());
    let report = parse(Format::Auto, within.join("\n"));
    let cargo_names = expected_names(&fixture("cargo/colour.log"));
    let pytest_names = expected_names(&fixture("pytest/verbose.log"));
    assert_eq!(
        sections_of(&report),
        [(Runner::Cargo, None, cargo_names.clone())]
    );
    let printed: BTreeSet<String> = report.sections[0]
        .printed
        .iter()
        .map(|&at| report.failing[at].name.clone())
        .collect();
    assert_eq!(printed, pytest_names);
    let names: BTreeSet<String> = report.names().map(str::to_owned).collect();
    let both: BTreeSet<String> = cargo_names.union(&pytest_names).cloned().collect();
    assert_eq!(names, both, "the report names both, as before");
    assert_tiled(&report, "printed within");

    let mut after = cargo.clone();
    after.extend(pytest.iter().cloned());
    let report = parse(Format::Auto, after.join("\n"));
    assert_eq!(
        sections_of(&report),
        [
            (Runner::Cargo, None, cargo_names),
            (Runner::Pytest, None, pytest_names)
        ]
    );
    assert!(report.sections.iter().all(|s| s.printed.is_empty()));
}

/// `cargo test` in two steps: two sections of cargo, each with the
/// step's failures; a test failing in both is named once, in the first.
#[test]
fn one_runner_in_two_steps_is_two_sections() {
    let cargo = lines(&fixture("cargo/colour.log"));
    let nocapture = lines(&fixture("cargo/nocapture.log"));
    let mut log = vec![
        "##[group]Run cargo test".to_owned(),
        "##[endgroup]".to_owned(),
    ];
    log.extend(cargo);
    log.push("##[group]Run cargo test -- --nocapture".to_owned());
    log.push("##[endgroup]".to_owned());
    log.extend(nocapture);
    let report = parse(Format::Auto, log.join("\n"));
    let first = expected_names(&fixture("cargo/colour.log"));
    let second: BTreeSet<String> = expected_names(&fixture("cargo/nocapture.log"))
        .difference(&first)
        .cloned()
        .collect();
    assert_eq!(
        sections_of(&report),
        [
            (Runner::Cargo, Some("cargo test".to_owned()), first),
            (
                Runner::Cargo,
                Some("cargo test -- --nocapture".to_owned()),
                second
            ),
        ]
    );
    assert_tiled(&report, "two steps");
}
