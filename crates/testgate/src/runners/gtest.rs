//! A GoogleTest binary run directly: how testgate recognises it (a
//! `--gtest_` flag on its command line), asks its XML report through
//! `GTEST_OUTPUT` from outside the project, and retries only the failed
//! tests with `--gtest_filter=A.B:C.D`.
//!
//! A test binary has no fixed program name, and testgate reads no file to
//! recognise one: a command is GoogleTest's when one of its arguments is a
//! GoogleTest flag (`--gtest_color=no`, `--gtest_brief=1`). The report is
//! asked through the environment alone, so a bare `./build/calc_test`
//! (recognised by no runner) gets `GTEST_OUTPUT` too, and its console,
//! which auto-detection knows as GoogleTest's, is judged beside it; only
//! its targeted retry needs the flag. A CMake project with no command
//! stays ctest's (`runners/ctest.rs`): detection finds no binary.

use std::path::Path;

use super::{
    EnvJoin, ReportEnv, ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, names,
    words,
};
use crate::detect::{Detected, ProjectView};

/// Whether `word` is a GoogleTest flag: `--gtest_…`, also spelt
/// `-gtest_…` or `/gtest_…` as GoogleTest accepts.
fn is_gtest_flag(word: &str) -> bool {
    ["--gtest_", "-gtest_", "/gtest_"]
        .iter()
        .any(|prefix| word.starts_with(prefix))
}

/// Whether `word` sets the test filter (`--gtest_filter=…`).
fn is_filter(word: &str) -> bool {
    ["--gtest_filter=", "-gtest_filter=", "/gtest_filter="]
        .iter()
        .any(|prefix| word.starts_with(prefix))
}

/// Whether GoogleTest's filter matches `name` alone when given as it is:
/// a test name GoogleTest makes is C++ identifiers, `/` and an index
/// (`Small/Sq.Positive/0`), so a name with a filter's `*`, `?`, `:` or
/// `-` (or anything else) is none of its.
fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'/' | b'.'))
}

/// The binary's arguments with its own filter replaced by
/// `--gtest_filter=A.B:C.D`.
fn filtered(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let mut selected = Vec::new();
    for name in names(targets) {
        if !plain_name(name) {
            return Err(format!(
                "`{name}` is no GoogleTest name: --gtest_filter would read it as a pattern"
            ));
        }
        selected.push(name);
    }
    let mut out: Vec<String> = rest.iter().filter(|w| !is_filter(w)).cloned().collect();
    out.push(format!("--gtest_filter={}", selected.join(":")));
    Ok(out)
}

/// A GoogleTest binary.
pub(super) struct Gtest;

impl RunnerProfile for Gtest {
    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::CXX
    }

    fn looks_for(&self) -> &'static [&'static str] {
        // Detection finds no binary: a CMake project is ctest's.
        &[]
    }

    fn recognise(&self, _program: &str, args: &[String]) -> Option<usize> {
        args.iter().any(|word| is_gtest_flag(word)).then_some(0)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        filtered(rest, targets)
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        Some(ReportRequest {
            args: rest.to_vec(),
            env: vec![ReportEnv {
                name: "GTEST_OUTPUT",
                // A directory (the trailing `/`): each binary writes
                // `<binary>.xml` there, so two behind one wrapper both
                // report.
                value: format!("xml:{}/", place.to_str()?),
                join: EnvJoin::Set,
            }],
            files: Vec::new(),
            format: ReportFormat::JUnit,
            written_to: ReportTarget::Directory,
            through_environment: true,
        })
    }

    fn env_prefixes(&self) -> &'static [&'static str] {
        // `GTEST_FILTER`, `GTEST_TOTAL_SHARDS`, `GTEST_SHARD_INDEX`, …
        &["GTEST_"]
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        // A binary says nothing of the GoogleTest it links.
        vec![words(&["c++", "--version"])]
    }

    fn detect(&self, _project: &ProjectView<'_>) -> Option<Detected> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{Gtest, RunnerProfile, plain_name, words};
    use crate::channels::ask;
    use crate::runners::testing::targets;
    use std::ffi::{OsStr, OsString};
    use std::path::Path;
    use testgate_parse::Runner;
    use testgate_policy::Evidence;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Gtest, line)
    }

    #[test]
    fn a_binary_with_a_googletest_flag_is_recognised() {
        for line in [
            "./build/calc_test --gtest_color=no",
            "build/t --gtest_brief=1 --gtest_repeat=2",
            "t -gtest_filter=A.*",
        ] {
            assert_eq!(recognised(line), Some(0), "{line}");
        }
        // Where it must not fire: a bare binary, ctest, prose.
        for line in [
            "./build/calc_test",
            "ctest --test-dir b",
            "echo gtest_filter",
        ] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    #[test]
    fn a_retry_filters_the_failed_names_exactly() {
        let rest = words(&["--gtest_filter=Calc.*", "--gtest_color=no"]);
        let names = [
            "Calc.Subtracts",
            "Small/Sq.Positive/0",
            "My/Wide/1.AtLeastTwo",
        ];
        assert_eq!(
            Gtest
                .select(&rest, &targets(&names), Path::new("."))
                .unwrap(),
            [
                "--gtest_color=no",
                "--gtest_filter=Calc.Subtracts:Small/Sq.Positive/0:My/Wide/1.AtLeastTwo"
            ]
        );
        for name in ["A.*", "A.B:C.D", "-A.B", "A.B?", "a b.c", ""] {
            assert!(!plain_name(name), "{name}");
            assert!(
                Gtest
                    .select(&[], &targets(&[name]), Path::new("."))
                    .is_err()
            );
        }
    }

    #[test]
    fn the_report_is_asked_through_the_environment() {
        let request = Gtest
            .report_behind_wrapper(Path::new("/r/gtest.xml"), Path::new("."))
            .expect("a request");
        assert_eq!(request.env[0].name, "GTEST_OUTPUT");
        assert_eq!(request.env[0].value, "xml:/r/gtest.xml/");
        assert!(request.args.is_empty());
    }

    /// Two GoogleTest binaries behind one wrapper, the second dying in
    /// `Calc.Crashes` after `Calc.Fails` failed: it writes no file into the
    /// report's directory, the first's file has no failure, and a file a
    /// test wrote saying `Calc.Crashes` passed does not outvote the console
    /// that saw it never end. Both are named. Without a crash (hand-made
    /// logs), the files judge alone.
    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test writes the binaries' report files into testgate's own fresh directory"
    )]
    fn a_gtest_binary_that_died_is_named_beside_the_files_of_those_that_finished() {
        let first = "[==========] Running 1 test from 1 test suite.\n\
            [ RUN      ] Other.Passes\n[       OK ] Other.Passes (0 ms)\n\
            [==========] 1 test from 1 test suite ran. (0 ms total)\n[  PASSED  ] 1 test.\n";
        let crashed = format!(
            "{first}[==========] Running 3 tests from 1 test suite.\n\
             [ RUN      ] Calc.Adds\n[       OK ] Calc.Adds (0 ms)\n\
             [ RUN      ] Calc.Fails\nx.cc:3: Failure\n[  FAILED  ] Calc.Fails (0 ms)\n\
             [ RUN      ] Calc.Crashes\nabout to abort\n"
        );
        let file = |case: &str, test: &str| {
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="0" disabled="0" errors="0" time="0" name="AllTests">
  <testsuite name="{case}" tests="1" failures="0" disabled="0" skipped="0" errors="0" time="0">
    <testcase name="{test}" status="run" result="completed" time="0" classname="{case}" />
  </testsuite>
</testsuites>
"#
            )
        };
        let asked = ask(
            OsStr::new("sh"),
            &[OsString::from("-c"), OsString::from("a_test; b_test")],
            Path::new("/nonexistent"),
        )
        .expect("a place");
        let reports = asked.reports_dir().join("gtest.xml");
        std::fs::create_dir(&reports).unwrap();
        std::fs::write(reports.join("other_test.xml"), file("Other", "Passes")).unwrap();
        let judged = asked.read(testgate_parse::parse(Runner::Gtest, &crashed));
        assert!(matches!(judged.evidence, Evidence::Report { .. }));
        // The test it died in, and the one that failed in it before.
        assert_eq!(
            judged.report.names().collect::<Vec<_>>(),
            ["Calc.Fails", "Calc.Crashes"]
        );
        // A file saying it passed (a test wrote it) outvotes nothing.
        std::fs::write(reports.join("calc_test.xml"), file("Calc", "Crashes")).unwrap();
        let judged = asked.read(testgate_parse::parse(Runner::Gtest, &crashed));
        assert_eq!(
            judged.report.names().collect::<Vec<_>>(),
            ["Calc.Fails", "Calc.Crashes"]
        );
        let outcome = judged
            .report
            .tests
            .iter()
            .find(|t| t.name == "Calc.Crashes");
        assert_eq!(
            outcome.map(|t| t.outcome),
            Some(testgate_parse::Outcome::Failed)
        );
        // Where it must not fire: a run that closed names nothing.
        std::fs::remove_file(reports.join("calc_test.xml")).unwrap();
        let judged = asked.read(testgate_parse::parse(Runner::Gtest, first));
        assert_eq!(judged.report.names().count(), 0);
    }
}
