//! `check --junit` and `--swebench-report`, from real runs of the e2e
//! pytest project: the JUnit file read back as XML and by testgate's own
//! `parse`, the SWE-bench report field by field against what SWE-bench's
//! grading computes from the same outcomes.

use std::collections::BTreeMap;
use std::path::Path;

use quick_xml::Reader;
use quick_xml::events::Event;
use serde_json::{Value, json};

use crate::check::{check_pytest, pytest_project};
use crate::testgate;

const NEGATIVE: &str = "tests/test_calc.py::test_adds_negative";
const ADDS: &str = "tests/test_calc.py::test_adds";
const BIG: &str = "tests/test_calc.py::TestBig::test_big_numbers";
const SOMETIMES: &str = "tests/test_calc.py::test_sometimes";
const GONE: &str = "tests/test_calc.py::test_gone";

/// Each `testcase` of `xml`: its name, and the child element that says
/// its result (`failure`, `error`, `skipped`, or none), with the counts
/// of the root `testsuites`.
fn testcases(xml: &str) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let mut reader = Reader::from_str(xml);
    let (mut cases, mut root) = (BTreeMap::new(), BTreeMap::new());
    let mut current: Option<String> = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.local_name().into_inner().to_owned();
                let attributes: BTreeMap<String, String> = e
                    .attributes()
                    .map(|a| {
                        let a = a.expect("an attribute");
                        (
                            a.key.local_name().into_inner().to_owned(),
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .expect("escaped")
                                .into_owned(),
                        )
                    })
                    .collect();
                match name.as_str() {
                    "testsuites" => root = attributes,
                    "testcase" => {
                        let test = attributes["name"].clone();
                        cases.insert(test.clone(), "passed".to_owned());
                        current = Some(test);
                    }
                    "failure" => {
                        let kind = attributes.get("type").cloned().unwrap_or_default();
                        let test = current.clone().expect("inside a testcase");
                        cases.insert(test, format!("failure:{kind}"));
                    }
                    "error" | "skipped" => {
                        let test = current.clone().expect("inside a testcase");
                        cases.insert(test, name);
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            Event::End(_)
            | Event::Text(_)
            | Event::CData(_)
            | Event::Comment(_)
            | Event::Decl(_)
            | Event::PI(_)
            | Event::DocType(_)
            | Event::GeneralRef(_) => {}
        }
    }
    (cases, root)
}

#[test]
fn junit_holds_every_test_with_its_outcome_and_parse_reads_it_back() {
    let (tmp, dir) = pytest_project();
    let junit = tmp.path().join("junit.xml");
    let out = check_pytest(
        &dir,
        "fail",
        &[
            "-k",
            "1",
            "--quiet",
            "--junit",
            junit.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.code, Some(1), "{out:#?}");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file");
    let (cases, root) = testcases(&xml);
    assert_eq!(cases[ADDS], "passed", "{xml}");
    assert_eq!(cases[NEGATIVE], "failure:failed", "{xml}");
    assert_eq!(cases[BIG], "failure:failed", "{xml}");
    assert_eq!(root["tests"], cases.len().to_string(), "{xml}");
    assert_eq!(root["failures"], "2", "{xml}");
    assert!(xml.contains("assert"), "the failure's message: {xml}");
    // pytest's own report gives each test's time: each testcase has it.
    assert!(
        xml.lines()
            .filter(|l| l.contains("<testcase"))
            .all(|l| l.contains(" time=\"")),
        "{xml}"
    );
    // testgate's own parser reads it as the runner's JUnit report.
    let parsed = testgate(&["parse", "--json", junit.to_str().expect("UTF-8")], None);
    assert_eq!(parsed.code, Some(0), "{parsed:#?}");
    let doc: Value = serde_json::from_str(parsed.stdout.lines().next().expect("a line"))
        .expect("parse's document");
    let mut failing: Vec<&str> = doc["failing"]
        .as_array()
        .expect("failing")
        .iter()
        .filter_map(|f| f["name"].as_str().or_else(|| f.as_str()))
        .collect();
    failing.sort_unstable();
    assert!(
        failing.iter().any(|f| f.ends_with("test_adds_negative"))
            && failing.iter().any(|f| f.ends_with("test_big_numbers"))
            && failing.len() == 2,
        "{doc:#}"
    );
}

#[test]
fn a_flaky_test_is_a_failure_of_type_flaky_in_junit() {
    let (tmp, dir) = pytest_project();
    let junit = tmp.path().join("junit.xml");
    let out = check_pytest(
        &dir,
        "flaky",
        &[
            "-k",
            "1",
            "--quiet",
            "--junit",
            junit.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.code, Some(125), "{out:#?}");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file");
    let (cases, _) = testcases(&xml);
    assert_eq!(cases[SOMETIMES], "failure:flaky", "{xml}");
    assert_eq!(cases[ADDS], "passed", "{xml}");
}

/// What SWE-bench's `get_eval_tests_report` and `get_resolution_status`
/// compute from one run's status map (`grading.py`): a FAIL_TO_PASS test
/// succeeds when PASSED or XFAIL, a PASS_TO_PASS test also when SKIPPED;
/// anything else, a missing test included, is a failure.
fn swebench_grading(status: &BTreeMap<&str, &str>, f2p: &[&str], p2p: &[&str]) -> Value {
    let split = |tests: &[&str], maintained: bool| {
        let (mut success, mut failure) = (Vec::new(), Vec::new());
        for &test in tests {
            let ok = match status.get(test) {
                Some(&"PASSED" | &"XFAIL") => true,
                Some(&"SKIPPED") => maintained,
                _ => false,
            };
            if ok { &mut success } else { &mut failure }.push(test);
        }
        json!({"success": success, "failure": failure})
    };
    let f2p = split(f2p, false);
    let p2p = split(p2p, true);
    let resolved = f2p["failure"].as_array().is_some_and(Vec::is_empty)
        && p2p["failure"].as_array().is_some_and(Vec::is_empty);
    let empty = json!({"success": [], "failure": []});
    json!({
        "patch_is_None": false,
        "patch_exists": true,
        "patch_successfully_applied": true,
        "resolved": resolved,
        "tests_status": {"FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p,
                         "FAIL_TO_FAIL": empty, "PASS_TO_FAIL": empty},
    })
}

/// `check --expect RECORD --swebench-report FILE` in `mode`; the report.
fn swebench_report(mode: &str, f2p: &[&str], p2p: &[&str], code: i32) -> Value {
    let (tmp, dir) = pytest_project();
    let record = json!({
        "instance_id": "example__calc-1",
        "repo": "example/calc",
        "patch": "diff --git a/calc.py b/calc.py\n",
        "FAIL_TO_PASS": serde_json::to_string(f2p).expect("JSON"),
        "PASS_TO_PASS": serde_json::to_string(p2p).expect("JSON"),
    });
    let expect = tmp.path().join("instance.json");
    std::fs::write(&expect, record.to_string()).expect("the record");
    let report = tmp.path().join("report.json");
    let out = check_pytest(
        &dir,
        mode,
        &[
            "--quiet",
            "--missing",
            "fail",
            "--expect",
            expect.to_str().expect("UTF-8"),
            "--swebench-report",
            report.to_str().expect("UTF-8"),
        ],
    );
    assert_eq!(out.code, Some(code), "{out:#?}");
    serde_json::from_str(&std::fs::read_to_string(&report).expect("the report"))
        .expect("the report is JSON")
}

#[test]
fn the_swebench_report_is_what_swebench_grading_computes() {
    // The suite in `fail` mode, as pytest reports it (one run, no retry).
    let status = BTreeMap::from([
        (ADDS, "PASSED"),
        (NEGATIVE, "FAILED"),
        (BIG, "FAILED"),
        (SOMETIMES, "PASSED"),
        ("tests/test_calc.py::test_hangs", "PASSED"),
    ]);
    let (f2p, p2p) = ([NEGATIVE, SOMETIMES], [ADDS, BIG, GONE]);
    let report = swebench_report("fail", &f2p, &p2p, 1);
    let instance = &report["example__calc-1"];
    assert_eq!(
        instance,
        &swebench_grading(&status, &f2p, &p2p),
        "{report:#}"
    );
    assert_eq!(instance["resolved"], false);
    assert_eq!(
        instance["tests_status"]["PASS_TO_PASS"]["failure"],
        json!([BIG, GONE])
    );
    assert_eq!(report.as_object().map(|o| o.len()), Some(1));

    let (f2p, p2p) = ([ADDS], [SOMETIMES]);
    let report = swebench_report("fail", &f2p, &p2p, 0);
    let instance = &report["example__calc-1"];
    assert_eq!(
        instance,
        &swebench_grading(&status, &f2p, &p2p),
        "{report:#}"
    );
    assert_eq!(instance["resolved"], true);
}

#[test]
fn swebench_report_needs_expect() {
    let run = testgate(
        &["check", "--swebench-report", "r.json", "--", "true"],
        None,
    );
    assert_eq!(run.code, Some(2), "{run:#?}");
    assert!(run.stderr.contains("--expect"), "{}", run.stderr);
}

/// A link the suite plants where `--junit` writes, inside the project, is
/// replaced, its target untouched: the file is written as `--record` is.
#[test]
fn a_link_planted_at_the_junit_path_is_replaced_not_written_through() {
    let (tmp, dir) = pytest_project();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "host file\n").expect("victim");
    let junit = dir.join("junit.xml");
    std::os::unix::fs::symlink(&victim, &junit).expect("link");
    let out = check_pytest(
        &dir,
        "pass",
        &["--quiet", "--junit", junit.to_str().expect("UTF-8")],
    );
    assert_eq!(out.code, Some(0), "{out:#?}");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "host file\n"
    );
    assert!(junit.symlink_metadata().expect("junit").is_file());
    assert!(read(&junit).starts_with("<?xml"));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable")
}
