//! The two JSON documents, snapshotted whole: `check --json` on the real
//! pytest project and `parse --json` on a cargo log. Durations, digests,
//! the reason (which quotes the runner's timings), paths and the sandbox
//! `auto` chose are redacted.

use serde_json::Value;

use crate::check::{check_pytest, pytest_project};
use crate::parse::CARGO_LOG;
use crate::testgate;

fn document(stdout: &str) -> Value {
    serde_json::from_str(stdout).expect("one JSON document")
}

/// `stdout`, read as testgate-documents' type `T` and written again, is
/// `stdout` byte for byte: the type holds every field the command wrote, in
/// the order it wrote them (the snapshots, read as a `Value`, do not see
/// the order).
fn reads_back_as<'a, T: serde::Deserialize<'a> + serde::Serialize>(stdout: &'a str) {
    let typed: T = serde_json::from_str(stdout).expect("the document's type");
    let again = serde_json::to_string(&typed).expect("written again");
    assert_eq!(
        again,
        stdout.trim_end(),
        "not the same bytes once read as its type"
    );
}

#[test]
fn check_json_of_a_failing_suite() {
    let (_tmp, dir) = pytest_project();
    let out = check_pytest(&dir, "fail", &["--json", "-q", "-k", "1"]);
    assert_eq!(out.code, Some(1), "{out:#?}");
    reads_back_as::<testgate_documents::CheckDocument>(&out.stdout);
    let document = document(&out.stdout);
    // The excerpts quote an object's address (`<TestBig object at 0x…>`):
    // redacted, after checking that each holds its test's own assertion.
    for (failure, line) in document["failures"]
        .as_array()
        .into_iter()
        .flatten()
        .zip(["assert 1 + -2 ==", "assert 1_000_000 * 2 =="])
    {
        let excerpt = failure["excerpt"].as_str().unwrap_or_default();
        assert!(excerpt.contains(line), "{failure}");
    }
    insta::assert_json_snapshot!("check_fail", document, {
        ".reason" => "[reason]",
        ".tree_digest" => "[digest]",
        ".attempts[].duration_ms" => "[ms]",
        ".tests[].durations_ms[]" => "[ms]",
        ".failures[].excerpt" => "[excerpt]",
        // Which sandbox `auto` chose is the machine's.
        ".sandbox.kind" => "[sandbox]",
        ".sandbox.why" => "[why]",
    });
}

#[test]
fn check_json_of_a_passing_suite() {
    let (_tmp, dir) = pytest_project();
    let out = check_pytest(&dir, "pass", &["--json", "-q"]);
    assert_eq!(out.code, Some(0), "{out:#?}");
    reads_back_as::<testgate_documents::CheckDocument>(&out.stdout);
    insta::assert_json_snapshot!("check_pass", document(&out.stdout), {
        ".reason" => "[reason]",
        ".tree_digest" => "[digest]",
        ".attempts[].duration_ms" => "[ms]",
        ".tests[].durations_ms[]" => "[ms]",
        // Which sandbox `auto` chose is the machine's.
        ".sandbox.kind" => "[sandbox]",
        ".sandbox.why" => "[why]",
    });
}

#[test]
fn parse_json_of_a_cargo_log() {
    let out = testgate(&["parse", "--json", "-"], Some(CARGO_LOG.as_bytes()));
    assert_eq!(out.code, Some(0), "{out:#?}");
    reads_back_as::<testgate_documents::ParseDocument>(&out.stdout);
    insta::assert_json_snapshot!("parse_cargo", document(&out.stdout), {
        ".file" => "[path]",
    });
}

#[test]
fn check_json_gives_each_nextest_failure_its_panic_and_captured_output() {
    let (_tmp, dir) = crate::check::fresh_copy("tests/projects/e2e/cargo", "cargo");
    let dir = dir.to_str().expect("a UTF-8 path");
    let out = testgate(
        &[
            "check",
            "--json",
            "-k",
            "1",
            "-C",
            dir,
            "--env",
            "TESTGATE_FIXTURE=fail",
            "--",
            "cargo",
            "nextest",
            "run",
            "--no-fail-fast",
        ],
        None,
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    let document = document(&out.stdout);
    let failures = document["failures"].as_array().expect("failures");
    let adds_negative = failures
        .iter()
        .find(|failure| failure["name"] == "tests::adds_negative")
        .unwrap_or_else(|| panic!("no tests::adds_negative in {failures:?}"));
    // nextest's `stderr ───` block: rust's panic, its message on the line
    // after `panicked at`.
    assert_eq!(
        adds_negative["message"], "assertion `left == right` failed",
        "{adds_negative}"
    );
    let excerpt = adds_negative["excerpt"].as_str().expect("an excerpt");
    assert!(excerpt.contains("stderr ───"), "{excerpt}");
    assert!(excerpt.contains("panicked at src/lib.rs"), "{excerpt}");
    assert!(
        document["reason"].as_str().is_some_and(
            |reason| reason.contains("the output of tests::adds_negative in attempt ")
        ),
        "{document}"
    );
}
