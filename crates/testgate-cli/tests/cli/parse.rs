//! `testgate parse`, started as a user would: exit codes, output, the
//! one-line errors, standard input, the JSON shape.
//!
//! The library is the oracle for *which* names a log holds (its own tests
//! prove that); these tests prove the command prints exactly what the
//! library found, file by file, and behaves at its edges.

use std::path::Path;

use serde_json::{Value, json};

use crate::testgate;
use testgate_parse::{Format, Runner};

/// A libtest run with two failures, as `cargo test` prints it.
pub(crate) const CARGO_LOG: &str = "\
   Compiling demo v0.1.0 (/src/demo)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s
     Running unittests src/lib.rs (target/debug/deps/demo-0123456789abcdef)

running 3 tests
test tests::adds ... ok
test tests::parses_empty ... FAILED
test tests::rejects_nul ... FAILED

failures:

---- tests::parses_empty stdout ----

thread 'tests::parses_empty' panicked at src/lib.rs:20:9:
assertion failed: parse(\"\").is_ok()
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

---- tests::rejects_nul stdout ----

thread 'tests::rejects_nul' panicked at src/lib.rs:25:9:
explicit panic


failures:
    tests::parses_empty
    tests::rejects_nul

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass `--lib`
";

/// A go test -v run with one failure.
const GO_LOG: &str = "\
=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestParse
    parse_test.go:12: got 1, want 2
--- FAIL: TestParse (0.00s)
FAIL
FAIL\texample.com/demo\t0.004s
FAIL
";

/// The names output the library gives for `log`: the command's expected stdout.
fn expected_names(format: impl Into<Format>, log: &str) -> String {
    testgate_parse::parse(format, log)
        .names()
        .map(|name| format!("{name}\n"))
        .collect()
}

/// The JSON line the command should print for `log` read from `file`.
/// Built field by field from the library's report, as docs/cli.md states
/// the document: a renamed library field must not rename a JSON one.
fn expected_json(format: impl Into<Format>, log: &str, file: &str) -> Value {
    let report = testgate_parse::parse(format, log);
    let failing = |tests: &[testgate_parse::FailingTest]| -> Vec<Value> {
        tests
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "format": t.format.name(),
                    "context": t.context,
                    "kind": t.kind.name(),
                    "message": t.message,
                    "excerpt": t.excerpt,
                })
            })
            .collect()
    };
    let mut document = json!({
        "schema": 1,
        "file": file,
        "format": report.format.map(|f| f.name()),
        "failing": failing(&report.failing),
        "counts": {
            "passed": report.counts.passed,
            "failed": report.counts.failed,
            "skipped": report.counts.skipped,
        },
        "no_tests_ran": report.no_tests_ran,
        "unclosed": report.unclosed,
        "flaky": report.flaky,
        "reruns": report.reruns,
        "running": report.running,
        "tests": report.tests.iter().map(|t| json!({
            "name": t.name,
            "outcome": t.outcome.name(),
            "kind": t.kind.name(),
            "format": t.format.name(),
            "context": t.context,
        })).collect::<Vec<_>>(),
        "tests_omitted": report.tests_omitted,
        "crashes": report.crashes.iter().map(|c| json!({
            "format": c.format.name(),
            "binary": c.binary,
            "cause": c.cause,
            "running": c.running,
            "started_by": c.started_by,
        })).collect::<Vec<_>>(),
        "lines": report.lines,
        "long_lines": report.long_lines,
        "sections": report.sections.iter().map(|s| json!({
            "format": s.runner.name(),
            "step": s.step,
            "first_line": s.first_line,
            "last_line": s.last_line,
            "failing": s.failing,
            "printed": s.printed,
        })).collect::<Vec<_>>(),
    });
    // PHPUnit's risky and warned tests, only where there are any.
    for (key, tests) in [("risky", &report.risky), ("warned", &report.warned)] {
        if !tests.is_empty() {
            document[key] = json!(failing(tests));
        }
    }
    document
}

fn write_log(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write log");
    path.to_str().expect("temp paths are UTF-8").to_owned()
}

fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is one JSON object"))
        .collect()
}

#[test]
fn help_and_version_exit_0_on_stdout() {
    for args in [
        &["--help"][..],
        &["parse", "--help"],
        &["help", "parse"],
        &["--version"],
    ] {
        let run = testgate(args, None);
        assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
        assert!(!run.stdout.is_empty(), "{args:?}: {run:?}");
        assert_eq!(run.stderr, "", "{args:?}");
    }
    let run = testgate(&["parse", "--help"], None);
    assert!(run.stdout.contains("--format <FORMAT>"), "{}", run.stdout);
    // The values are `Format::ALL`'s names, in its order: `auto`, then
    // every runner of `Runner::ALL`.
    let values = Format::ALL.map(|format| format.name()).join(", ");
    assert!(
        run.stdout.contains(&format!("[possible values: {values}]")),
        "{}",
        run.stdout
    );
}

#[test]
fn usage_errors_exit_2_on_stderr() {
    for args in [
        &[][..],
        &["parse", "--bogus"],
        &["parse", "--format", "junit"],
        &["parse", "--format"],
        &["frobnicate"],
    ] {
        let run = testgate(args, None);
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(!run.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn unreadable_file_exits_2_with_one_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("missing.log");
    let missing = missing.to_str().expect("UTF-8");
    let run = testgate(&["parse", missing], None);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        format!("testgate: cannot read {missing}: No such file or directory (os error 2)\n")
    );

    let directory = dir.path().to_str().expect("UTF-8");
    let run = testgate(&["parse", directory], None);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        run.stderr,
        format!("testgate: cannot read {directory}: Is a directory (os error 21)\n")
    );
}

#[test]
fn files_before_an_unreadable_one_are_printed_and_later_ones_are_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let go = write_log(dir.path(), "go.log", GO_LOG);
    let cargo = write_log(dir.path(), "cargo.log", CARGO_LOG);
    let missing = dir.path().join("missing.log");
    let missing = missing.to_str().expect("UTF-8");
    let run = testgate(&["parse", "--json", &go, missing, &cargo], None);
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(
        json_lines(&run.stdout),
        [expected_json(Format::Auto, GO_LOG, &go)]
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[test]
fn prints_the_names_the_library_finds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cargo = write_log(dir.path(), "cargo.log", CARGO_LOG);
    for (args, format) in [
        (vec!["parse", cargo.as_str()], Format::Auto),
        (
            vec!["parse", "--format", "cargo", cargo.as_str()],
            Format::Runner(Runner::Cargo),
        ),
        (
            vec!["parse", "--format=go", cargo.as_str()],
            Format::Runner(Runner::Go),
        ),
    ] {
        let run = testgate(&args, None);
        assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
        assert_eq!(run.stdout, expected_names(format, CARGO_LOG), "{args:?}");
        assert_eq!(run.stderr, "");
    }
}

/// A job log as GitHub Actions stores it (a BOM, a timestamp on every
/// line, the step's group and error annotation) and as Jenkins'
/// Timestamper does: the same names as the bare log, with no option, and
/// nothing of a prefix in them.
#[test]
fn a_ci_job_log_names_what_the_bare_log_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut actions =
        String::from("\u{feff}2026-12-03T10:00:00.0000000Z ##[group]Run cargo test\n");
    actions.push_str("2026-12-03T10:00:00.0000001Z ##[endgroup]\n");
    let mut jenkins = String::from("[2026-12-03T10:00:00.000Z] [Pipeline] sh\n");
    for (n, line) in CARGO_LOG.lines().enumerate() {
        actions.push_str(&format!("2026-12-03T10:00:{:02}.1234567Z {line}\n", n % 60));
        jenkins.push_str(&format!("[2026-12-03T10:00:{:02}.123Z] {line}\n", n % 60));
    }
    actions
        .push_str("2026-12-03T10:01:00.0000000Z ##[error]Process completed with exit code 101.\n");
    for (name, log) in [("actions.log", actions), ("jenkins.log", jenkins)] {
        let path = write_log(dir.path(), name, &log);
        let run = testgate(&["parse", path.as_str()], None);
        assert_eq!(run.code, Some(0), "{name}: {run:?}");
        assert_eq!(
            run.stdout, "tests::parses_empty\ntests::rejects_nul\n",
            "{name}"
        );
        assert_eq!(
            run.stdout,
            expected_names(Format::Auto, CARGO_LOG),
            "{name}"
        );
    }
}

/// A GitHub Actions job of two steps, `cargo test` then `go test -v`:
/// `--json` gives a section per step, each naming its runner's failures
/// by their place in `failing`; the plain output names both steps' tests.
#[test]
fn a_job_of_two_runners_has_a_section_each() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut log = String::new();
    let mut n = 0;
    let mut put = |line: &str| {
        log.push_str(&format!("2026-12-03T10:00:{:02}.{n:07}Z {line}\n", n % 60));
        n += 1;
    };
    for (command, lines) in [("cargo test", CARGO_LOG), ("go test -v ./...", GO_LOG)] {
        put(&format!("##[group]Run {command}"));
        put("##[endgroup]");
        lines.lines().for_each(&mut put);
        put("##[error]Process completed with exit code 1.");
    }
    let path = write_log(dir.path(), "job.log", &log);
    let run = testgate(&["parse", path.as_str()], None);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.stdout,
        "tests::parses_empty\ntests::rejects_nul\nTestParse\n"
    );
    let run = testgate(&["parse", "--json", path.as_str()], None);
    let document = &json_lines(&run.stdout)[0];
    assert_eq!(*document, expected_json(Format::Auto, &log, &path));
    let sections: Vec<(&str, &str, Vec<u64>)> = document["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| {
            let failing = s["failing"].as_array().expect("failing");
            (
                s["format"].as_str().expect("format"),
                s["step"].as_str().expect("step"),
                failing.iter().map(|i| i.as_u64().expect("index")).collect(),
            )
        })
        .collect();
    assert_eq!(
        sections,
        [
            ("cargo", "cargo test", vec![0, 1]),
            ("go", "go test -v ./...", vec![2])
        ]
    );
}

#[test]
fn several_files_are_separate_logs_in_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cargo = write_log(dir.path(), "cargo.log", CARGO_LOG);
    let go = write_log(dir.path(), "go.log", GO_LOG);
    let run = testgate(&["parse", &cargo, &go, &cargo], None);
    assert_eq!(run.code, Some(0), "{run:?}");
    let cargo_names = expected_names(Format::Auto, CARGO_LOG);
    let go_names = expected_names(Format::Auto, GO_LOG);
    assert_eq!(run.stdout, format!("{cargo_names}{go_names}{cargo_names}"));

    let run = testgate(&["parse", "--json", &cargo, &go], None);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        json_lines(&run.stdout),
        [
            expected_json(Format::Auto, CARGO_LOG, &cargo),
            expected_json(Format::Auto, GO_LOG, &go)
        ]
    );
}

#[test]
fn reads_standard_input_for_dash_or_no_file() {
    // Past one 64 KiB read, with a line cut by the read boundary.
    let log = format!(
        "{}{CARGO_LOG}",
        "noise line that is not a test\n".repeat(5000)
    );
    for args in [&["parse"][..], &["parse", "-"]] {
        let run = testgate(args, Some(log.as_bytes()));
        assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
        assert_eq!(run.stdout, expected_names(Format::Auto, &log), "{args:?}");
    }
    let run = testgate(&["parse", "--json", "-"], Some(log.as_bytes()));
    assert_eq!(
        json_lines(&run.stdout),
        [expected_json(Format::Auto, &log, "-")]
    );
    assert_eq!(
        json_lines(&run.stdout)[0]["lines"],
        json!(5000 + CARGO_LOG.lines().count())
    );
}

#[test]
fn json_has_the_documented_shape() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cargo = write_log(dir.path(), "cargo.log", CARGO_LOG);
    let run = testgate(&["parse", "--json", &cargo], None);
    assert_eq!(run.code, Some(0), "{run:?}");
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 1, "one object per file: {}", run.stdout);
    let object = lines[0].as_object().expect("an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "counts",
            "crashes",
            "failing",
            "file",
            "flaky",
            "format",
            "lines",
            "long_lines",
            "no_tests_ran",
            "reruns",
            "running",
            "schema",
            "sections",
            "tests",
            "tests_omitted",
            "unclosed"
        ]
    );
    assert_eq!(object["schema"], json!(1));
    assert_eq!(object["file"], json!(cargo));
    assert_eq!(object["lines"], json!(CARGO_LOG.lines().count()));
    assert_eq!(object["long_lines"], json!(0));
    let mut counts: Vec<&str> = object["counts"]
        .as_object()
        .expect("counts is an object")
        .keys()
        .map(String::as_str)
        .collect();
    counts.sort_unstable();
    assert_eq!(counts, ["failed", "passed", "skipped"]);
    assert_eq!(lines[0], expected_json(Format::Auto, CARGO_LOG, &cargo));
}

#[test]
fn json_spells_formats_in_lowercase() {
    // The document spells a runner with `Runner::name`, the same word
    // `--format` takes: checked through the binary, for the report's
    // format and each failing test's.
    let dir = tempfile::tempdir().expect("temp dir");
    let cargo = write_log(dir.path(), "cargo.log", CARGO_LOG);
    let run = testgate(&["parse", "--json", "--format", "cargo", &cargo], None);
    let lines = json_lines(&run.stdout);
    assert_eq!(lines[0]["format"], json!("cargo"));
    let failing = lines[0]["failing"].as_array().expect("failing");
    assert!(!failing.is_empty());
    for test in failing {
        assert_eq!(test["format"], json!("cargo"), "{test}");
    }
    for runner in Runner::ALL {
        assert_eq!(runner.name(), runner.name().to_lowercase());
    }
}

/// A Django run as SWE-bench grades one (`tests/runtests.py --verbosity 2`,
/// captured by testgate-parse's `tests/capture/unittest.sh`): `parse` finds
/// unittest's format without being told and prints its failing names in
/// the spelling SWE-bench's lists use, `test_method (module.Class)`.
#[test]
fn a_django_run_is_read_as_unittest() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testgate-parse/tests/fixtures/unittest/runtests_verbose.log");
    let text = std::fs::read_to_string(&log).expect("the captured log");
    let path = log.to_string_lossy();
    for args in [
        vec!["parse", path.as_ref()],
        vec!["parse", "--format", "unittest", path.as_ref()],
    ] {
        let run = testgate(&args, None);
        assert_eq!(run.code, Some(0), "{args:?}: {run:?}");
        assert_eq!(
            run.stdout,
            expected_names(Runner::Unittest, &text),
            "{args:?}"
        );
        assert!(
            run.stdout
                .lines()
                .any(|name| name == "test_slugify (utils_tests.test_text.TestUtilsText)"),
            "{}",
            run.stdout
        );
    }
    let run = testgate(&["parse", "--json", path.as_ref()], None);
    let lines = json_lines(&run.stdout);
    assert_eq!(lines[0]["format"], json!("unittest"));
}

/// A go test binary killed by a panic in a goroutine names no failing test:
/// `parse --json` says which binary died, why, and what was running.
#[test]
fn json_says_which_test_binary_died() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testgate-parse/tests/fixtures/go/goroutine_panic_verbose.log");
    let out = testgate(&["parse", "--json", &log.to_string_lossy()], None);
    assert_eq!(out.code, Some(0), "{out:#?}");
    let document: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(document["failing"], json!([]), "no test is named failing");
    let crashes = document["crashes"].as_array().expect("a crashes array");
    assert_eq!(crashes.len(), 1, "{document:#}");
    assert_eq!(crashes[0]["format"], "go");
    assert_eq!(crashes[0]["binary"], "example.com/tgfixture/goroutinepanic");
    assert_eq!(crashes[0]["cause"], "panic");
    assert!(crashes[0]["running"].is_string(), "{document:#}");
}

/// PHPUnit's risky and warned tests (`Report::risky`, `Report::warned`:
/// not failed, unless the project fails a run on them) are `risky` and
/// `warned`, each with PHPUnit's reason, beside `failing`; absent from a
/// document with none (the cargo log of `json_has_the_documented_shape`).
#[test]
fn json_shows_risky_and_warned_tests_apart_from_failing_ones() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testgate-parse/tests/fixtures/phpunit/default.log");
    let text = std::fs::read_to_string(&log).expect("the captured log");
    let path = log.to_string_lossy();
    let out = testgate(&["parse", "--json", path.as_ref()], None);
    assert_eq!(out.code, Some(0), "{out:#?}");
    let document: Value = serde_json::from_str(&out.stdout).expect("one JSON document");
    assert_eq!(
        document["risky"][0]["name"],
        "Demo\\Tests\\CalcTest::testRisky"
    );
    assert_eq!(
        document["warned"][0]["name"],
        "Demo\\Tests\\CalcTest::testWarns"
    );
    assert!(document["risky"][0]["message"].is_string(), "{document:#}");
    let failing = document["failing"].as_array().expect("failing");
    assert!(
        failing
            .iter()
            .all(|t| t["name"] != "Demo\\Tests\\CalcTest::testRisky"),
        "{document:#}"
    );
    assert_eq!(document, expected_json(Format::Auto, &text, path.as_ref()));
}
