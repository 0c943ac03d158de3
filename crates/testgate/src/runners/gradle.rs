//! `gradle test` (also `./gradlew test`): how testgate recognises it, asks
//! its versions, finds it in a project, and retries only the failed tests
//! with `--tests Class.method` after the `test` task.

use std::path::Path;

use super::{
    ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, ToolOutput, WrittenReports,
    names, words,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// The tasks whose run includes the `test` task.
const TESTING_TASKS: &[&str] = &["test", "check", "build"];

/// Where Gradle's test tasks write their `TEST-*.xml`, a folder per task
/// (`reports.junitXml.outputLocation` is the build script's, not a
/// property's): the files the attempt wrote there are read.
const GRADLE_REPORTS: &[WrittenReports] = &[WrittenReports {
    beside: &["build.gradle", "build.gradle.kts"],
    folder: "build/test-results/*",
}];

/// Gradle's options that take their value as the next argument.
const VALUE_OPTIONS: &[&str] = &[
    "-p",
    "--project-dir",
    "-b",
    "--build-file",
    "-c",
    "--settings-file",
    "-x",
    "--exclude-task",
    "-I",
    "--init-script",
    "-g",
    "--gradle-user-home",
    "--tests",
    "--console",
    "--warning-mode",
    "--max-workers",
];

/// The tasks among Gradle's arguments `args`, with their places (options
/// and their values left out).
fn tasks(args: &[String]) -> impl Iterator<Item = (usize, &str)> {
    let mut skip = false;
    args.iter()
        .map(String::as_str)
        .enumerate()
        .filter(move |(_, arg)| {
            if std::mem::take(&mut skip) {
                return false;
            }
            if arg.starts_with('-') {
                skip = VALUE_OPTIONS.contains(arg);
                return false;
            }
            true
        })
}

/// A task's name without its project's path (`:lib:test` → `test`).
fn task_name(task: &str) -> &str {
    task.rsplit(':').next().unwrap_or(task)
}

/// `args` with `cleanTest` before its first testing task (`:lib:test` gets
/// `:lib:cleanTest`; `check` and `build`, which run `test`, get
/// `cleanTest`), unless the command cleans already.
fn afresh(args: &[String]) -> Vec<String> {
    let cleans = tasks(args).any(|(_, task)| task_name(task).starts_with("clean"));
    let first = tasks(args).find(|(_, task)| TESTING_TASKS.contains(&task_name(task)));
    let mut out = args.to_vec();
    if let (false, Some((at, task))) = (cleans, first) {
        let clean = match task.rsplit_once(':') {
            Some((path, "test")) => format!("{path}:cleanTest"),
            _ => "cleanTest".to_owned(),
        };
        out.insert(at, clean);
    }
    out
}

/// A canonical name (`pkg.Class#method[1]`, `pkg.Class`) as Gradle's
/// `--tests` filter selects it: `pkg.Class.method`, without the
/// invocation's parameters and index.
pub(crate) fn gradle_filter(name: &str) -> Result<String, String> {
    let filter = match name.split_once('#') {
        Some((class, method)) => {
            let end = method.find(['[', '(', '{']).unwrap_or(method.len());
            if class.is_empty() || end == 0 {
                return Err(format!("`{name}` names no class and method Gradle selects"));
            }
            format!("{class}.{}", &method[..end])
        }
        None => name.to_owned(),
    };
    if filter.contains(['*', ' ']) {
        return Err(format!(
            "`{filter}` holds a character Gradle's --tests reads as a pattern"
        ));
    }
    Ok(filter)
}

/// `gradle ARGS --tests F…`: the command's own `--tests` replaced, the
/// filters right after its last `test` task (an option after another task
/// would be that task's).
fn gradle(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let Some(at) = tasks(rest)
        .filter(|(_, task)| task_name(task) == "test")
        .map(|(at, _)| at)
        .last()
    else {
        return Err("the gradle command names no `test` task to filter".to_owned());
    };
    let mut filters = Vec::new();
    for name in names(targets) {
        let filter = gradle_filter(name)?;
        if !filters.contains(&filter) {
            filters.push(filter);
        }
    }
    let mut out = Vec::with_capacity(rest.len() + 2 * filters.len());
    let mut i = 0;
    while i < rest.len() {
        let word = &rest[i];
        i += 1;
        if word == "--tests" {
            i += 1;
            continue;
        }
        if word.starts_with("--tests=") {
            continue;
        }
        out.push(word.clone());
        if i - 1 == at {
            for filter in &filters {
                out.extend(["--tests".to_owned(), filter.clone()]);
            }
        }
    }
    Ok(out)
}

/// `gradle` and the project's `./gradlew`, running a task that runs the
/// tests.
pub(super) struct Gradle;

impl RunnerProfile for Gradle {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JAVA
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::JAVA
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["build.gradle or build.gradle.kts (gradle test, or ./gradlew test beside gradlew)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let gradle = matches!(program, "gradle" | "gradlew" | "gradlew.bat");
        let excluded = args.windows(2).any(|pair| {
            matches!(pair[0].as_str(), "-x" | "--exclude-task") && task_name(&pair[1]) == "test"
        });
        (gradle
            && !excluded
            && tasks(args).any(|(_, task)| TESTING_TASKS.contains(&task_name(task))))
        .then_some(0)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        gradle(rest, targets)
    }

    /// Under bubblewrap's cgroup namespace, OpenJDK 17's cgroup v1 reader
    /// finds no path for its controllers (`/proc/self/mountinfo`'s root is
    /// `/../..`) and throws, and Gradle 4.4, which asks the JVM for the
    /// machine's memory at start, fails ("Could not create service of type
    /// MemoryManager"): its JVM is told not to look for a container. In
    /// `GRADLE_OPTS`, not `JAVA_TOOL_OPTIONS`, whose every JVM prints
    /// "Picked up …" into the console the parser reads. No daemon: its JVM
    /// would not get `GRADLE_OPTS` (and would hit the same bug), and the
    /// sandbox ends it with the attempt anyway.
    fn preset_env(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "GRADLE_OPTS",
            "-XX:-UseContainerSupport -Dorg.gradle.daemon=false",
        )]
    }

    /// Each attempt runs its test tasks afresh: a `test` task Gradle finds
    /// up to date (the build folder of an earlier run beside it) runs no
    /// test and writes no report, which would leave an honest run's exit
    /// 0 without evidence. So `cleanTest` goes before the first testing
    /// task (`clean<Task>` is the base plugin's rule for every task).
    fn report(&self, rest: &[String], _place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        Some(ReportRequest {
            args: afresh(rest),
            env: Vec::new(),
            files: Vec::new(),
            format: ReportFormat::JUnit,
            written_to: ReportTarget::Written(GRADLE_REPORTS),
            through_environment: false,
        })
    }

    fn tool_output(&self) -> &'static [ToolOutput] {
        &[ToolOutput {
            name: "build",
            beside: &["build.gradle", "build.gradle.kts"],
        }]
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        let gradle = if program == "gradle" {
            "gradle".to_owned()
        } else {
            "./gradlew".to_owned()
        };
        vec![
            vec![gradle, "--version".to_owned()],
            words(&["java", "--version"]),
        ]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        let build = ["build.gradle", "build.gradle.kts"]
            .into_iter()
            .find(|file| project.is_file(file))?;
        let (command, found) = if project.is_file("gradlew") {
            (words(&["./gradlew", "test"]), vec![build, "gradlew"])
        } else {
            (words(&["gradle", "test"]), vec![build])
        };
        Some(Detected::new(
            Runner::Gradle,
            command,
            found.into_iter().map(str::to_owned).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{Gradle, RunnerProfile, Target, gradle_filter, words};
    use std::path::Path;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Gradle, line)
    }

    #[test]
    fn gradle_is_recognised_by_a_task_that_runs_the_tests() {
        for line in [
            "gradle test",
            "./gradlew test",
            "gradle --offline :lib:test",
            "./gradlew clean build",
            "gradle -p sub check",
        ] {
            assert_eq!(recognised(line), Some(0), "{line}");
        }
        // Where it must not fire: no testing task, an excluded one, a
        // project folder named `test`, another program.
        for line in [
            "gradle assemble",
            "gradle build -x test",
            "gradle -p test assemble",
            "mvn test",
        ] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    #[test]
    fn a_name_becomes_a_filter_of_class_and_method() {
        assert_eq!(
            gradle_filter("com.example.CalcTest#adds").unwrap(),
            "com.example.CalcTest.adds"
        );
        assert_eq!(gradle_filter("p.T#m[1]").unwrap(), "p.T.m");
        assert_eq!(gradle_filter("p.T#m(int)[2]").unwrap(), "p.T.m");
        assert_eq!(gradle_filter("p.Broken").unwrap(), "p.Broken");
        assert!(gradle_filter("#m").is_err());
        assert!(gradle_filter("p.T#a b").is_err());
    }

    fn select(rest: &[&str], names: &[&str]) -> Result<Vec<String>, String> {
        let targets: Vec<Target<'_>> = names
            .iter()
            .map(|name| Target {
                name,
                context: None,
            })
            .collect();
        Gradle.select(&words(rest), &targets, Path::new("."))
    }

    #[test]
    fn a_retry_filters_after_the_test_task() {
        assert_eq!(
            select(
                &["--offline", "test", "--tests", "Old", "jacocoTestReport"],
                &["p.A#m1", "p.A#m1", "p.B#x[1]"]
            )
            .unwrap(),
            [
                "--offline",
                "test",
                "--tests",
                "p.A.m1",
                "--tests",
                "p.B.x",
                "jacocoTestReport"
            ]
        );
        // No `test` task: nothing to put `--tests` after.
        assert!(select(&["check"], &["p.A#m"]).is_err());
    }

    /// A test task found up to date writes no report: each attempt cleans
    /// its test results first, unless the command cleans already.
    #[test]
    fn each_attempt_runs_its_test_task_afresh() {
        let afresh = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
            super::afresh(&args)
        };
        assert_eq!(
            afresh(&["--offline", "test"]),
            ["--offline", "cleanTest", "test"]
        );
        assert_eq!(
            afresh(&["-p", "sub", ":lib:test", "--tests", "A"]),
            ["-p", "sub", ":lib:cleanTest", ":lib:test", "--tests", "A"]
        );
        assert_eq!(afresh(&["check"]), ["cleanTest", "check"]);
        assert_eq!(afresh(&["clean", "test"]), ["clean", "test"]);
        assert_eq!(afresh(&["--version"]), ["--version"]);
    }
}
