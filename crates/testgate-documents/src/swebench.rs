//! `check --swebench-report`: SWE-bench's own evaluation report, from a
//! graded check.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::check::CheckDocument;

/// `check --swebench-report FILE`: the report SWE-bench's harness writes
/// for one instance (`get_eval_report` in its `grading.py`), keyed by the
/// instance's id, computed from the grades of a check under `--expect`.
///
/// A listed test lands in `success` or `failure` as SWE-bench's grading
/// puts it, from testgate's grade across every attempt
/// ([`SwebenchReport::of`] says how); `resolved` is SWE-bench's rule
/// (every FAIL_TO_PASS and PASS_TO_PASS test a success), and never true
/// for an Inconclusive check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct SwebenchReport(pub BTreeMap<String, SwebenchInstance>);

/// One instance's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SwebenchInstance {
    /// Always false: testgate checks a tree, never a missing patch.
    #[serde(rename = "patch_is_None")]
    pub patch_is_none: bool,
    /// Always true: the tree checked is the patched one.
    pub patch_exists: bool,
    /// Always true: testgate does not apply the patch itself.
    pub patch_successfully_applied: bool,
    /// Every FAIL_TO_PASS and PASS_TO_PASS test a success, and the check
    /// not Inconclusive.
    pub resolved: bool,
    /// Each list's tests, as successes and failures.
    pub tests_status: TestsStatus,
}

/// SWE-bench's four lists; FAIL_TO_FAIL and PASS_TO_FAIL stay empty, as
/// SWE-bench leaves them by default (`calculate_to_fail=False`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TestsStatus {
    /// The tests that must pass after the change.
    #[serde(rename = "FAIL_TO_PASS")]
    pub fail_to_pass: SuccessFailure,
    /// The tests that passed before and must keep passing.
    #[serde(rename = "PASS_TO_PASS")]
    pub pass_to_pass: SuccessFailure,
    /// Empty.
    #[serde(rename = "FAIL_TO_FAIL")]
    pub fail_to_fail: SuccessFailure,
    /// Empty.
    #[serde(rename = "PASS_TO_FAIL")]
    pub pass_to_fail: SuccessFailure,
}

/// A list's tests split by how they ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SuccessFailure {
    /// The tests that met the list's expectation.
    pub success: Vec<String>,
    /// The tests that did not.
    pub failure: Vec<String>,
}

impl SuccessFailure {
    /// Each name once, in order, a failure wherever it failed.
    fn by_name(&mut self) {
        let mut failed = std::collections::HashSet::new();
        self.failure.retain(|name| failed.insert(name.clone()));
        let mut passed = std::collections::HashSet::new();
        self.success
            .retain(|name| !failed.contains(name) && passed.insert(name.clone()));
    }
}

impl SwebenchReport {
    /// The report of `check` for the instance `instance_id`. `listed` is
    /// every listed test with its list (`must_pass` or `keep_passing`), for
    /// a check that graded none (no attempt ran): each is then a failure.
    ///
    /// From testgate's grade of each listed test across the attempts:
    /// `passed` is a success; `failed`, `flaky` and `not_run` are failures
    /// (SWE-bench reads one run: a test that failed in any attempt, or
    /// never ran, is no success). One exception keeps SWE-bench's own
    /// rule: a PASS_TO_PASS test every attempt that named it skipped (or
    /// saw fail as marked expected to) is a success, as SWE-bench's
    /// `test_maintained` counts a skipped test.
    pub fn of(check: &CheckDocument<'_>, instance_id: &str, listed: &[(String, String)]) -> Self {
        let mut status = TestsStatus::default();
        match &check.grading {
            Some(grading) => {
                for test in &grading.tests {
                    let list = match test.list.as_ref() {
                        "must_pass" => &mut status.fail_to_pass,
                        "keep_passing" => &mut status.pass_to_pass,
                        // `--strict`'s tests on no list: not SWE-bench's.
                        _ => continue,
                    };
                    let maintained = test.list == "keep_passing"
                        && test.grade == "not_run"
                        && test.results.iter().any(Option::is_some)
                        && test
                            .results
                            .iter()
                            .flatten()
                            .all(|r| r == "skipped" || r == "xfailed");
                    let name = test.name.clone().into_owned();
                    if test.grade == "passed" || maintained {
                        list.success.push(name);
                    } else {
                        list.failure.push(name);
                    }
                }
            }
            None => {
                for (name, list) in listed {
                    match list.as_str() {
                        "must_pass" => status.fail_to_pass.failure.push(name.clone()),
                        "keep_passing" => status.pass_to_pass.failure.push(name.clone()),
                        _ => {}
                    }
                }
            }
        }
        // SWE-bench keys a test by its name: one listed by name alone that
        // ran in two files (graded once for each) is a failure if either
        // failed, and is said once.
        status.fail_to_pass.by_name();
        status.pass_to_pass.by_name();
        let resolved = check.verdict != "inconclusive"
            && status.fail_to_pass.failure.is_empty()
            && status.pass_to_pass.failure.is_empty();
        let instance = SwebenchInstance {
            patch_is_none: false,
            patch_exists: true,
            patch_successfully_applied: true,
            resolved,
            tests_status: status,
        };
        SwebenchReport(BTreeMap::from([(instance_id.to_owned(), instance)]))
    }
}

#[cfg(test)]
mod tests {
    use super::SwebenchReport;
    use crate::CheckDocument;

    /// A check document with `verdict` and the graded tests `graded`
    /// (name, list, grade, results), nothing else.
    fn check(verdict: &str, graded: &str) -> CheckDocument<'static> {
        let text = format!(
            r#"{{"schema":1,"verdict":"{verdict}","cause":null,"failing":[],"reason":"r",
              "suite":null,"findings":{{"always_failed":[],"sometimes_failed":[],
              "order_dependence":null,"stopped_by":null,"notes":[]}},"preparations":[],
              "attempts":[],"tree_digest":null,"tree":null,"tests":[],
              "grading":{{"tests":[{graded}],"unlisted_failed":[]}},"stress":null}}"#
        );
        serde_json::from_str(&text).expect("a check document")
    }

    #[test]
    fn flaky_and_not_run_are_failures_but_a_skipped_pass_to_pass_test_is_maintained() {
        let graded = r#"
            {"name":"f2p_flaky","list":"must_pass","grade":"flaky","results":["failed","passed"]},
            {"name":"f2p_gone","list":"must_pass","grade":"not_run","results":[null]},
            {"name":"p2p_skipped","list":"keep_passing","grade":"not_run","results":["skipped"]},
            {"name":"p2p_gone","list":"keep_passing","grade":"not_run","results":[null]},
            {"name":"unlisted","list":"unlisted","grade":"failed","results":["failed"]}"#;
        let report = SwebenchReport::of(&check("inconclusive", graded), "i", &[]);
        let instance = &report.0["i"];
        let status = &instance.tests_status;
        assert_eq!(status.fail_to_pass.failure, ["f2p_flaky", "f2p_gone"]);
        assert!(status.fail_to_pass.success.is_empty());
        assert_eq!(status.pass_to_pass.success, ["p2p_skipped"]);
        assert_eq!(status.pass_to_pass.failure, ["p2p_gone"]);
        assert!(!instance.resolved);
    }

    /// A name listed alone that ran in two files is graded once for each:
    /// SWE-bench's report says it once, a failure if either failed.
    #[test]
    fn one_name_graded_in_two_files_is_said_once() {
        let graded = r#"
            {"name":"adds","context":"a.test.js","list":"must_pass","grade":"passed","results":["passed"]},
            {"name":"adds","context":"b.test.js","list":"must_pass","grade":"failed","results":["failed"]},
            {"name":"zero","context":"a.test.js","list":"keep_passing","grade":"passed","results":["passed"]},
            {"name":"zero","context":"b.test.js","list":"keep_passing","grade":"passed","results":["passed"]}"#;
        let report = SwebenchReport::of(&check("fail", graded), "i", &[]);
        let status = &report.0["i"].tests_status;
        assert_eq!(status.fail_to_pass.failure, ["adds"]);
        assert!(status.fail_to_pass.success.is_empty());
        assert_eq!(status.pass_to_pass.success, ["zero"]);
        assert!(status.pass_to_pass.failure.is_empty());
    }

    #[test]
    fn resolved_needs_every_listed_test_a_success_and_a_verdict() {
        let graded = r#"
            {"name":"a","list":"must_pass","grade":"passed","results":["passed"]},
            {"name":"b","list":"keep_passing","grade":"passed","results":["passed"]}"#;
        assert!(SwebenchReport::of(&check("pass", graded), "i", &[]).0["i"].resolved);
        // An Inconclusive check (a tree changed, a contradiction) never
        // resolves, whatever its grades.
        assert!(!SwebenchReport::of(&check("inconclusive", graded), "i", &[]).0["i"].resolved);
    }

    #[test]
    fn a_check_that_graded_nothing_fails_every_listed_test() {
        let mut document = check("inconclusive", "");
        document.grading = None;
        let listed = [
            ("a".to_owned(), "must_pass".to_owned()),
            ("b".to_owned(), "keep_passing".to_owned()),
        ];
        let report = SwebenchReport::of(&document, "i", &listed);
        let text = serde_json::to_value(&report).expect("JSON");
        assert_eq!(text["i"]["patch_is_None"], false);
        assert_eq!(text["i"]["tests_status"]["FAIL_TO_PASS"]["failure"][0], "a");
        assert_eq!(text["i"]["tests_status"]["PASS_TO_PASS"]["failure"][0], "b");
        assert_eq!(text["i"]["resolved"], false);
    }
}
