//! testgate-parse's integration tests: every captured log, parsed.
//!
//! Each `tests/fixtures/<format>/<case>.log` is a log captured from a real
//! run by `tests/capture/<runner>.sh` (or marked hand-made in its `.expected`
//! file). Its `.expected` file lists the failing names as the runner's own
//! machine-readable output gives them (one per line; `#` lines are comments),
//! and its `.flaky` file, where there is one, the tests that failed and then
//! passed within the run by the same source (none when there is no file),
//! and its `.running` file the tests that had started and not ended when a
//! killed run's log stops, and its `.crashes` file the test binaries that
//! died naming no failing test. Its `.outcomes` file, where there is one, gives
//! every test's outcome (`passed tests::adds`) by the same source: each test
//! the report lists must be there with the same outcome, and where the file
//! says `# complete` (a mode whose console names every test), the report
//! must list them all.
//! Every log is parsed with auto-detection and with its own format, whole
//! and in chunks, and its `Report` is snapshotted.
//!
//! [`properties`] holds the property tests: any input, any chunking.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "the tests read the captured fixtures from disk"
)]

mod ci_shapes;
mod environment;
mod properties;
mod sections;

use std::collections::BTreeSet;
use std::path::Path;

use testgate_parse::{Format, Report, Runner, StreamParser, parse};

fn expected_names(log: &Path) -> BTreeSet<String> {
    let path = log.with_extension("expected");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (every log needs its .expected)", path.display()));
    names_in(&text)
}

/// The flaky tests of a log's `.flaky`; none without one.
fn expected_flaky(log: &Path) -> BTreeSet<String> {
    expected_in(log, "flaky")
}

/// Whether a log's `.flaky` says only the runner's report records the
/// retries (`# report only`: jest `retryTimes` without
/// `logErrorsBeforeRetry` prints nothing of a failed try).
fn report_only(log: &Path) -> bool {
    std::fs::read_to_string(log.with_extension("flaky"))
        .is_ok_and(|text| text.lines().any(|l| l.starts_with("# report only")))
}

/// The names of a log's `.EXTENSION` file; none without one.
fn expected_in(log: &Path, extension: &str) -> BTreeSet<String> {
    std::fs::read_to_string(log.with_extension(extension))
        .map(|text| names_in(&text))
        .unwrap_or_default()
}

/// The tests the runner counted risky or warned about and not failed
/// (PHPUnit's) against the log's `.risky` and `.warned`.
fn check_apart(log: &Path, report: &Report) {
    let risky: BTreeSet<String> = report.risky.iter().map(|t| t.name.clone()).collect();
    assert_eq!(risky, expected_in(log, "risky"), "{}: risky", log.display());
    let warned: BTreeSet<String> = report.warned.iter().map(|t| t.name.clone()).collect();
    assert_eq!(
        warned,
        expected_in(log, "warned"),
        "{}: warned",
        log.display()
    );
}

/// The report's every-test list against the log's `.outcomes`, where it has
/// one: nothing invented, no outcome wrong, and none missing where the file
/// says the console names every test.
fn check_outcomes(log: &Path, report: &Report) {
    let Ok(text) = std::fs::read_to_string(log.with_extension("outcomes")) else {
        return;
    };
    let complete = text.lines().any(|l| l.trim() == "# complete");
    let truth: std::collections::BTreeMap<&str, &str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once(' '))
        .map(|(outcome, name)| (name, outcome))
        .collect();
    let ours: std::collections::BTreeMap<&str, &str> = report
        .tests
        .iter()
        .map(|t| (t.name.as_str(), t.outcome.name()))
        .collect();
    // A retry only the report records (`# report only`) is a pass on the
    // console.
    let hidden = report_only(log);
    for (name, outcome) in &ours {
        let truth = match truth.get(name) {
            Some(&"flaky") if hidden && *outcome == "passed" => Some(outcome),
            other => other,
        };
        assert_eq!(
            truth,
            Some(outcome),
            "{}: test {name:?} is {outcome} in the report",
            log.display()
        );
    }
    if complete {
        let missing: Vec<&&str> = truth.keys().filter(|n| !ours.contains_key(*n)).collect();
        assert!(
            missing.is_empty(),
            "{}: the report misses {missing:?}",
            log.display()
        );
    }
}

fn names_in(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

fn format_of(log: &Path) -> Runner {
    let dir = log
        .parent()
        .and_then(Path::file_name)
        .and_then(|d| d.to_str());
    dir.unwrap_or_default()
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", log.display()))
}

fn streamed(format: impl Into<Format>, bytes: &[u8], chunk: usize) -> Report {
    let mut parser = StreamParser::new(format);
    for piece in bytes.chunks(chunk) {
        parser.feed(piece);
    }
    parser.finish()
}

#[test]
fn captured_logs() {
    // This file lives in tests/parse/; the fixtures and the snapshots in tests/.
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../snapshots");
    let _settings = settings.bind_to_scope();
    // Every fixture is checked even when one fails, and the failure names
    // the fixture: the panics are caught per log and listed at the end.
    let mut failed: Vec<String> = Vec::new();
    insta::glob!("..", "fixtures/*/*.log", |log| {
        let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_log(log)));
        if checked.is_err() {
            failed.push(log.display().to_string());
        }
    });
    assert!(
        failed.is_empty(),
        "{} fixture(s) failed (each one's message is above):\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A captured log of one runner is one section of that runner over every
/// line, outside any CI step, naming every failing test in order.
fn check_sections(log: &Path, report: &testgate_parse::Report) {
    let [section] = &report.sections[..] else {
        panic!("{}: sections {:#?}", log.display(), report.sections);
    };
    assert_eq!(Some(section.runner), report.format, "{}", log.display());
    assert_eq!(section.step, None, "{}", log.display());
    assert_eq!(
        (section.first_line, section.last_line),
        (0, report.lines.saturating_sub(1)),
        "{}",
        log.display()
    );
    let all: Vec<usize> = (0..report.failing.len()).collect();
    assert_eq!(section.failing, all, "{}", log.display());
    assert_eq!(section.printed, [0usize; 0], "{}", log.display());
}

/// One captured log: its names auto-detected and explicit against its
/// `.expected`, its detected format, its streamed reports, its snapshot.
fn check_log(log: &Path) {
    {
        let bytes = std::fs::read(log).unwrap();
        let format = format_of(log);
        let auto = parse(Format::Auto, &bytes);
        let explicit = parse(format, &bytes);

        let expected = expected_names(log);
        let names: BTreeSet<String> = auto.names().map(str::to_owned).collect();
        assert_eq!(names, expected, "{}: auto-detected names", log.display());
        let names: BTreeSet<String> = explicit.names().map(str::to_owned).collect();
        assert_eq!(
            names,
            expected,
            "{}: names with --format {format}",
            log.display()
        );
        assert_eq!(
            auto.format,
            Some(format),
            "{}: detected format",
            log.display()
        );

        // Flaky tests: named where the log names them; where it only counts
        // re-runs (pytest -q), the count covers them.
        let flaky = expected_flaky(log);
        let named: BTreeSet<String> = auto.flaky.iter().cloned().collect();
        assert!(
            named.is_subset(&flaky),
            "{}: flaky {named:?}, expected {flaky:?}",
            log.display()
        );
        // Tests running when the log stopped (a run killed as a timeout
        // kills it): `.running`, from the runner's own events.
        let running: BTreeSet<String> = auto.running.iter().cloned().collect();
        assert_eq!(
            running,
            expected_in(log, "running"),
            "{}: running tests",
            log.display()
        );
        // Test binaries that died naming no failing test (a goroutine's
        // panic): `.crashes`, the packages by the runner's own events.
        let crashed: BTreeSet<String> = auto
            .crashes
            .iter()
            .filter_map(|crash| crash.binary.clone())
            .collect();
        assert_eq!(
            crashed,
            expected_in(log, "crashes"),
            "{}: crashed test binaries",
            log.display()
        );
        let covered = (named.len() as u64).saturating_add(auto.reruns);
        assert!(
            report_only(log) || covered >= flaky.len() as u64,
            "{}: flaky {named:?} and {} reruns, expected {flaky:?}",
            log.display(),
            auto.reruns
        );

        check_outcomes(log, &auto);
        check_apart(log, &auto);

        for chunk in [1, 7, 4096] {
            assert_eq!(
                streamed(Format::Auto, &bytes, chunk),
                auto,
                "{}: streamed in chunks of {chunk}",
                log.display()
            );
        }
        check_sections(log, &auto);
        // The sections are checked above, not snapshotted: a snapshot is
        // the bare report's.
        let mut auto = auto;
        auto.sections.clear();
        insta::assert_debug_snapshot!("captured_logs", auto);
    }
}

/// Every captured JUnit report (`<case>.junit.xml`, written by the runner in
/// the run whose names `<case>.expected` lists): its failing names are those
/// names, and every test it gives has the outcome `<case>.outcomes` gives
/// (an unexpected pass, which JUnit records as a pass, counted as one).
#[test]
fn captured_junit_reports() {
    let mut checked = 0;
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for runner in std::fs::read_dir(&fixtures).unwrap().flatten() {
        if !runner.path().is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(runner.path()).unwrap().flatten() {
            let path = entry.path();
            let Some(case) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".junit.xml"))
            else {
                continue;
            };
            let bytes = std::fs::read(&path).unwrap();
            assert!(testgate_parse::is_junit(&bytes), "{}", path.display());
            // Gradle's and node's reports do not say who wrote them.
            let report = if runner.file_name() == "gradle" {
                testgate_parse::parse_junit_of(Runner::Gradle, &bytes)
            } else if runner.file_name() == "node" {
                testgate_parse::parse_junit_of(Runner::Node, &bytes)
            } else {
                testgate_parse::parse_junit(&bytes)
            }
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let log = path.with_file_name(format!("{case}.log"));
            // node's junit leaves out a suite whose hook failed: set beside
            // the console of the same run, as testgate reads it, the
            // console adds it (`Beside::report`), and no other name.
            let report = if runner.file_name() == "node" {
                let console = parse(Runner::Node, std::fs::read_to_string(&log).unwrap());
                testgate_parse::Beside::report(report, console).report
            } else {
                report
            };
            let names: BTreeSet<String> = report.names().map(str::to_owned).collect();
            assert_eq!(
                names,
                expected_names(&log),
                "{}: failing names",
                path.display()
            );
            check_apart(&log, &report);
            if let Ok(text) = std::fs::read_to_string(log.with_extension("outcomes")) {
                for test in &report.tests {
                    let line = text
                        .lines()
                        .filter_map(|l| l.split_once(' '))
                        .find(|(_, name)| *name == test.name);
                    // JUnit has no unexpected pass; a runner whose report
                    // keeps only a retried test's last result says so in
                    // its fixtures' `junit-keeps-the-last-try` (why, in
                    // that file): its flaky test is a pass there, and
                    // `check --report` keeps the console's flaky tests.
                    let last_try = runner.path().join("junit-keeps-the-last-try").is_file();
                    let truth = line.map(|(outcome, _)| match outcome {
                        "xpassed" => "passed",
                        "flaky" if last_try => "passed",
                        other => other,
                    });
                    assert_eq!(
                        truth,
                        Some(test.outcome.name()),
                        "{}: {}",
                        path.display(),
                        test.name
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} JUnit reports found");
}

/// Where the console of a captured JSON report's run printed its paths
/// from: jest from its working directory, `tests/projects/parse/node`;
/// vitest from its root, the project beneath it.
fn console_root(bytes: &[u8], runner: &str) -> String {
    let json: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    let file = json["testResults"][0]["name"].as_str().unwrap_or_default();
    let marker = "/tests/projects/parse/node/";
    let Some(at) = file.find(marker) else {
        return String::new();
    };
    let node = &file[..at + marker.len() - 1];
    match runner {
        "jest" => node.to_owned(),
        _ => {
            let project = file[at + marker.len()..]
                .split('/')
                .next()
                .unwrap_or_default();
            format!("{node}/{project}")
        }
    }
}

/// Every captured jest and vitest JSON report (`<case>.report.json`, the
/// runner's own report of the run whose names `<case>.expected` lists):
/// each failing name it gives is one of those names (a file by its path,
/// which the report gives absolute and the console relative), and for jest
/// every one of them is given. vitest's report cannot name a suite whose
/// hook failed (its tests are only skipped there): the console and JUnit do.
#[test]
fn captured_json_reports() {
    let mut checked = 0;
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for runner in ["jest", "vitest"] {
        for entry in std::fs::read_dir(fixtures.join(runner)).unwrap().flatten() {
            let path = entry.path();
            let Some(case) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".report.json"))
            else {
                continue;
            };
            let bytes = std::fs::read(&path).unwrap();
            assert!(testgate_parse::is_json_report(&bytes), "{}", path.display());
            let report =
                testgate_parse::parse_json_report_in(&bytes, &console_root(&bytes, runner))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let log = path.with_file_name(format!("{case}.log"));
            // The whole run's report, with every retry the run hid.
            assert_eq!(report.unclosed, None, "{}: complete", path.display());
            let flaky: BTreeSet<String> = report.flaky.iter().cloned().collect();
            assert_eq!(flaky, expected_flaky(&log), "{}: flaky", path.display());
            assert_eq!(
                report.format.map(|f| f.name()),
                Some(runner),
                "{}",
                path.display()
            );
            let expected = expected_names(&path.with_file_name(format!("{case}.log")));
            // vitest's report fails a file whose hook failed (afterAll) where
            // the console and JUnit name the suite: such a file is left out.
            let ours: BTreeSet<String> = report
                .failing
                .iter()
                .filter(|t| {
                    runner == "jest"
                        || t.kind != testgate_parse::Kind::File
                        || expected.iter().any(|e| t.name.ends_with(&format!("/{e}")))
                })
                .map(|t| t.name.as_str())
                .map(|name| {
                    expected
                        .iter()
                        .find(|e| name.ends_with(&format!("/{e}")))
                        .cloned()
                        .unwrap_or_else(|| name.to_owned())
                })
                .collect();
            assert!(
                ours.is_subset(&expected),
                "{}: {ours:?} not all in {expected:?}",
                path.display()
            );
            if runner == "jest" {
                assert_eq!(ours, expected, "{}: failing names", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked >= 4, "only {checked} JSON reports found");
}

/// Every captured RSpec JSON report (`rspec/<case>.report.json`, RSpec's
/// own report of the run whose console is `<case>.log`, its backtraces
/// cut): `parse_rspec_json` names what `<case>.expected` lists, and gives
/// every example the outcome `<case>.outcomes` gives.
#[test]
fn captured_rspec_reports() {
    let mut checked = 0;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rspec");
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        let Some(case) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".report.json"))
        else {
            continue;
        };
        let report = testgate_parse::parse_rspec_json(&std::fs::read(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(report.unclosed, None, "{}: complete", path.display());
        let log = path.with_file_name(format!("{case}.log"));
        let names: BTreeSet<String> = report.names().map(str::to_owned).collect();
        assert_eq!(names, expected_names(&log), "{}", path.display());
        check_outcomes(&log, &report);
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} RSpec reports found");
}

/// Each failing test's message, as the parser took it from the console,
/// is in the runner's own machine-readable record of that test: jest's
/// `--json` `failureMessages` (`<case>.report.json`, written by the run
/// that printed `<case>.log`), and go's test2json `output` events of the
/// same test (`go/json.log`, a run of the same project as
/// `go/verbose.log`).
#[test]
fn captured_messages_are_in_the_runners_own_records() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let ansi = regex::Regex::new("\x1b\\[[0-9;]*m").unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(fixtures.join("jest")).unwrap().flatten() {
        let path = entry.path();
        let Some(case) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".report.json"))
        else {
            continue;
        };
        let json: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let report = parse(
            Runner::Jest,
            std::fs::read(path.with_file_name(format!("{case}.log"))).unwrap(),
        );
        for test in report
            .failing
            .iter()
            .filter(|t| t.kind == testgate_parse::Kind::Test)
        {
            let Some(message) = &test.message else {
                continue;
            };
            let file = test.context.as_deref().unwrap_or_default();
            let messages: Vec<String> = json["testResults"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|r| r["name"].as_str().is_some_and(|n| n.ends_with(file)))
                .flat_map(|r| r["assertionResults"].as_array().into_iter().flatten())
                .filter(|a| {
                    let mut titles: Vec<&str> = a["ancestorTitles"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|t| t.as_str())
                        .collect();
                    titles.push(a["title"].as_str().unwrap_or_default());
                    let name = titles.join(" › ");
                    name == test.name || format!("{file} › {name}") == test.name
                })
                .flat_map(|a| a["failureMessages"].as_array().into_iter().flatten())
                .filter_map(|m| m.as_str())
                .map(|m| ansi.replace_all(m, "").into_owned())
                .collect();
            assert!(
                messages.iter().any(|m| m.contains(message.as_str())),
                "{case}: {}: {message:?} not in {messages:?}",
                test.name
            );
            checked += 1;
        }
    }
    let verbose = parse(
        Runner::Go,
        std::fs::read(fixtures.join("go/verbose.log")).unwrap(),
    );
    let events = std::fs::read_to_string(fixtures.join("go/json.log")).unwrap();
    for test in &verbose.failing {
        let Some(message) = &test.message else {
            continue;
        };
        let output: String = events
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|e| e["Test"].as_str() == Some(test.name.as_str()) && e["Action"] == "output")
            .filter_map(|e| e["Output"].as_str().map(str::to_owned))
            .collect();
        assert!(
            output.contains(message.as_str()),
            "go: {}: {message:?} not in {output:?}",
            test.name
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} messages checked");
}

/// go's events as the facade reads them (`GoEvents::feed_split`): the
/// report's parser given every line but the `output` events a panic's are
/// not, in chunks of every size, names the same failures, flaky, running
/// and crashed tests and every test's outcome as given every line, for
/// every captured `go test -json` log.
#[test]
fn go_events_split_for_the_report_read_alike() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".log") || !name.contains("json") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let whole = parse(Runner::Go, &bytes);
        for chunk in [1, 7, 4096, bytes.len().max(1)] {
            let mut events = testgate_parse::GoEvents::new();
            let (mut text, mut lines) = (Vec::new(), Vec::new());
            for piece in bytes.chunks(chunk) {
                events.feed_split(piece, &mut text, Some(&mut lines));
            }
            events.finish_split(&mut text, Some(&mut lines));
            let split = parse(Runner::Go, &lines);
            let what = format!("{name} in chunks of {chunk}");
            assert!(lines.len() <= bytes.len(), "{what}");
            assert_eq!(
                split.names().collect::<Vec<_>>(),
                whole.names().collect::<Vec<_>>(),
                "{what}"
            );
            assert_eq!(split.flaky, whole.flaky, "{what}");
            assert_eq!(split.running, whole.running, "{what}");
            assert_eq!(split.crashes, whole.crashes, "{what}");
            assert_eq!(split.counts, whole.counts, "{what}");
            assert_eq!(split.tests, whole.tests, "{what}");
            assert_eq!(split.unclosed, whole.unclosed, "{what}");
        }
        read += 1;
    }
    assert!(read >= 5, "the go -json fixtures: {read}");
}

/// Each `fixtures/unittest-report/<case>.jsonl`, written by testgate's own
/// recorder in a real run (`tests/capture/unittest-report.sh`): its failing
/// names against its `.expected` (unittest's result API in the same run),
/// every run closed, every failing name among the tests.
#[test]
fn captured_unittest_reports() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/unittest-report");
    let mut read = 0;
    for entry in std::fs::read_dir(&fixtures).unwrap().flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let report = testgate_parse::parse_unittest_report(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let names: BTreeSet<String> = report.names().map(str::to_owned).collect();
        assert_eq!(names, expected_names(&path), "{}", path.display());
        assert_eq!(report.unclosed, None, "{}", path.display());
        assert_eq!(report.format, Some(Runner::Unittest), "{}", path.display());
        assert_eq!(
            report.failing.len(),
            names.len(),
            "{}: each name once",
            path.display()
        );
        read += 1;
    }
    assert!(read >= 8, "{read} reports in {}", fixtures.display());
}

/// go's `-v=test2json` framing as the facade reads it (`GoFraming`): every
/// captured `go test -v=test2json` log (`<case>.framing`, by
/// `tests/capture/go.sh`), converted in chunks of every size, gives events
/// whose report names the failing, flaky, running and crashed tests and
/// every test's outcome as a second identical `go test -json` run gives
/// them (`<case>.expected`, `.flaky`, `.running`, `.crashes`,
/// `.outcomes`).
#[test]
fn go_framing_reads_as_go_test_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("framing") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let mut first: Option<Report> = None;
        for chunk in [1, 7, 4096, bytes.len().max(1)] {
            let mut framing = testgate_parse::GoFraming::new();
            let (mut text, mut events) = (Vec::new(), Vec::new());
            for piece in bytes.chunks(chunk) {
                framing.feed_split(piece, &mut text, &mut events);
            }
            framing.finish_split(&mut text, &mut events);
            let what = format!("{} in chunks of {chunk}", path.display());
            assert!(!text.contains(&0x16), "{what}: a marker in the text");
            let report = parse(Runner::Go, &events);
            let names: BTreeSet<String> = report.names().map(str::to_owned).collect();
            assert_eq!(names, expected_names(&path), "{what}: names");
            let flaky: BTreeSet<String> = report.flaky.iter().cloned().collect();
            assert_eq!(flaky, expected_flaky(&path), "{what}: flaky");
            let running: BTreeSet<String> = report.running.iter().cloned().collect();
            assert_eq!(running, expected_in(&path, "running"), "{what}: running");
            let crashed: BTreeSet<String> = report
                .crashes
                .iter()
                .filter_map(|crash| crash.binary.clone())
                .collect();
            assert_eq!(crashed, expected_in(&path, "crashes"), "{what}: crashes");
            check_outcomes(&path, &report);
            match &first {
                Some(first) => assert_eq!(&report, first, "{what}"),
                None => first = Some(report),
            }
        }
        read += 1;
    }
    assert!(read >= 8, "the go -v=test2json fixtures: {read}");
}
