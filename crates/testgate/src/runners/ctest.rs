//! `ctest` (also `cmake --build DIR --target test`): how testgate recognises
//! it, asks its versions and its JUnit report, finds a CMake project and
//! builds it first, and retries only the failed tests with `-R '^(a|b)$'`.

use std::path::Path;

use super::{
    ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, ToolOutput, names, words,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// The build folder detection configures, builds and tests in: a name no
/// project uses for its own, so that a project's `build/` is never
/// written over. It lies in the project and, like cargo's `target`, is
/// not walked by the tree check (`scan.rs`), so what an attempt wrote there
/// (a test binary, `CMakeCache.txt`) is not put back: each check's
/// preparation removes it and builds afresh, so that nothing an earlier
/// check's tests left there is run or built with.
pub(crate) const BUILD_DIR: &str = "testgate-build";

/// ctest's options that take their value as the next argument and select
/// tests: a retry replaces them.
const SELECTORS: &[&str] = &[
    "-R",
    "--tests-regex",
    "-I",
    "--tests-information",
    "-L",
    "--label-regex",
    "-LE",
    "--label-exclude",
    "-E",
    "--exclude-regex",
    "-FA",
    "--fixture-exclude-any",
];

/// A name as a CMake regular expression matching only itself: every
/// character CMake's regex reads as its own escaped.
pub(crate) fn ctest_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if "^$.[]|()*+?\\".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `ctest ARGS -R '^(a|b)$'`: the command's own selection and `--rerun-failed`
/// (which reads the last run's list, stale under a retry) dropped.
fn ctest(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let mut alternatives = Vec::new();
    for name in names(targets) {
        if name.is_empty() || name.contains(['\n', '\r']) {
            return Err(format!("`{name}` cannot be selected by ctest's -R"));
        }
        alternatives.push(ctest_escape(name));
    }
    let mut out = Vec::with_capacity(rest.len() + 2);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if SELECTORS.contains(&word.as_str()) {
            words.next();
            continue;
        }
        if word == "--rerun-failed" || word == "-U" || word == "--union" {
            continue;
        }
        out.push(word.clone());
    }
    out.push("-R".to_owned());
    out.push(format!("^({})$", alternatives.join("|")));
    Ok(out)
}

/// Whether `args` of `cmake` build the `test` target: `--build DIR
/// --target test` (or `-t test`), which runs ctest with no argument of
/// testgate's.
fn builds_test_target(args: &[String]) -> bool {
    let build = args.iter().any(|a| a == "--build");
    let target = args.windows(2).any(|pair| {
        matches!(pair[0].as_str(), "--target" | "-t") && pair[1].split(',').any(|t| t == "test")
    }) || args.iter().any(|a| a == "--target=test");
    build && target
}

/// `ctest`, and `cmake --build DIR --target test`.
pub(super) struct Ctest;

impl RunnerProfile for Ctest {
    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::CXX
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["CMakeLists.txt calling enable_testing() (built, then ctest)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        match program {
            "ctest" => Some(0),
            "cmake" if builds_test_target(args) => Some(0),
            _ => None,
        }
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        if rest.iter().any(|a| a == "--build") {
            return Err(
                "`cmake --build … --target test` passes no argument to ctest: run ctest itself"
                    .to_owned(),
            );
        }
        ctest(rest, targets)
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        // `cmake --build` reaches ctest with no argument; a command that
        // asks for its own report keeps it.
        if rest
            .iter()
            .any(|a| a == "--build" || a.starts_with("--output-junit"))
        {
            return None;
        }
        let mut args = rest.to_vec();
        args.push("--output-junit".to_owned());
        args.push(place.to_string_lossy().into_owned());
        Some(ReportRequest {
            args,
            env: Vec::new(),
            files: Vec::new(),
            format: ReportFormat::JUnit,
            written_to: ReportTarget::File,
            through_environment: false,
        })
    }

    fn env_prefixes(&self) -> &'static [&'static str] {
        // `CTEST_OUTPUT_ON_FAILURE`, `CTEST_PARALLEL_LEVEL`.
        &["CTEST_"]
    }

    fn tool_output(&self) -> &'static [ToolOutput] {
        // What ctest writes in the build folder it tests: its logs,
        // `LastTestsFailed.log` among them.
        &[ToolOutput {
            name: "Testing",
            beside: &["CTestTestfile.cmake"],
        }]
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["ctest", "--version"]),
            words(&["cmake", "--version"]),
        ]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        let lists = project.text("CMakeLists.txt")?;
        let tests = lists.lines().any(|line| {
            let code = line.split('#').next().unwrap_or_default().trim_start();
            code.starts_with("enable_testing")
                || code.starts_with("include(CTest)")
                || code.starts_with("include (CTest)")
        });
        if !tests {
            return None;
        }
        let command = words(&["ctest", "--test-dir", BUILD_DIR, "--output-on-failure"]);
        Some(
            Detected::new(
                Runner::Ctest,
                command,
                vec!["CMakeLists.txt with enable_testing()".to_owned()],
            )
            .preparing(vec![
                format!("cmake -E rm -rf {BUILD_DIR}"),
                format!("cmake -S . -B {BUILD_DIR}"),
                format!("cmake --build {BUILD_DIR}"),
            ]),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{Ctest, RunnerProfile, Target, ctest_escape, words};
    use std::path::Path;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Ctest, line)
    }

    #[test]
    fn ctest_and_the_test_target_are_recognised() {
        for line in [
            "ctest",
            "/usr/bin/ctest --test-dir build -j4",
            "cmake --build build --target test",
            "cmake --build b -t all,test",
        ] {
            assert_eq!(recognised(line), Some(0), "{line}");
        }
        // Where it must not fire: a configure, a build of another target.
        for line in [
            "cmake -S . -B build",
            "cmake --build build",
            "cmake --build build --target tests",
            "make test",
        ] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    fn select(rest: &[&str], names: &[&str]) -> Result<Vec<String>, String> {
        let targets: Vec<Target<'_>> = names
            .iter()
            .map(|name| Target {
                name,
                context: None,
            })
            .collect();
        Ctest.select(&words(rest), &targets, Path::new("."))
    }

    #[test]
    fn a_retry_selects_the_failed_names_exactly() {
        assert_eq!(
            select(
                &["--test-dir", "b", "-R", "math", "--rerun-failed", "-j2"],
                &["math.adds", "retry once", "Inst/S.T/0", "a+b(c)"]
            )
            .unwrap(),
            [
                "--test-dir",
                "b",
                "-j2",
                "-R",
                r"^(math\.adds|retry once|Inst/S\.T/0|a\+b\(c\))$"
            ]
        );
        assert_eq!(ctest_escape("x[1]^$|\\"), r"x\[1\]\^\$\|\\");
        assert!(select(&[], &["two\nlines"]).is_err());
        assert!(
            Ctest
                .select(
                    &words(&["--build", "b", "--target", "test"]),
                    &[],
                    Path::new(".")
                )
                .is_err()
        );
    }

    #[expect(
        clippy::disallowed_methods,
        reason = "the test writes its own small project into a fresh tempdir"
    )]
    fn detected(lists: &str) -> Option<crate::detect::Detected> {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("CMakeLists.txt"), lists).expect("write");
        let host = crate::detect::HostFacts::default();
        let view = crate::detect::ProjectView::open(dir.path(), &host).expect("view");
        Ctest.detect(&view)
    }

    #[test]
    fn a_cmake_project_with_tests_is_built_then_tested() {
        let found = detected("project(p C)\nenable_testing()\nadd_test(NAME a COMMAND a)\n")
            .expect("detected");
        assert_eq!(
            found.shown_command(),
            "ctest --test-dir testgate-build --output-on-failure"
        );
        assert_eq!(
            found.prepare,
            [
                "cmake -E rm -rf testgate-build",
                "cmake -S . -B testgate-build",
                "cmake --build testgate-build"
            ]
        );
        assert!(detected("include(CTest)\n").is_some());
        // Where it must not fire: no tests enabled, or only in a comment.
        assert!(detected("project(p C)\nadd_executable(a a.c)\n").is_none());
        assert!(detected("# enable_testing() some day\nproject(p C)\n").is_none());
    }
}
