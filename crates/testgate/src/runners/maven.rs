//! `mvn test` (also `./mvnw`): how testgate recognises it, asks its
//! versions, finds it in a project, and retries only the failed tests with
//! Surefire's `-Dtest=Class#m1+m2`.

use std::path::Path;

use super::{
    ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, ToolOutput, WrittenReports,
    names, words,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// The lifecycle phases (and goals) whose run includes Surefire's tests.
const TESTING_GOALS: &[&str] = &[
    "test",
    "package",
    "integration-test",
    "verify",
    "install",
    "deploy",
    "surefire:test",
];

/// Maven's options that take their value as the next argument.
const VALUE_OPTIONS: &[&str] = &[
    "-pl",
    "--projects",
    "-f",
    "--file",
    "-s",
    "--settings",
    "-gs",
    "--global-settings",
    "-t",
    "--toolchains",
    "-P",
    "--activate-profiles",
    "-T",
    "--threads",
    "-rf",
    "--resume-from",
    "-l",
    "--log-file",
    "-b",
    "--builder",
    "-D",
    "--define",
];

/// The goals among Maven's arguments `args` (its options and their values
/// left out).
fn goals(args: &[String]) -> impl Iterator<Item = &str> {
    let mut skip = false;
    args.iter().map(String::as_str).filter(move |arg| {
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

/// Whether `word` selects tests for Surefire: `-Dtest=…`, or `-Dtest`
/// whose value is the next word.
fn is_test_selector(word: &str) -> bool {
    word.strip_prefix("-Dtest")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
}

/// A canonical name (`pkg.Class#method[1]`, `pkg.Outer$Inner#m(int)[3]`,
/// `pkg.Class`) as Surefire's `-Dtest` selects it: the class and the
/// method, without the invocation's parameters and index, which Surefire's
/// filter does not match. Every invocation of the method then runs.
pub(crate) fn surefire_selector(name: &str) -> (&str, Option<&str>) {
    match name.split_once('#') {
        Some((class, method)) => {
            let end = method.find(['[', '(', '{']).unwrap_or(method.len());
            (class, Some(&method[..end]))
        }
        None => (name, None),
    }
}

/// `-Dtest=Class#m1+m2,Other` for `targets`: a class's methods joined by
/// `+`, the classes by `,`, in the order first named; a class failed as a
/// whole runs whole.
pub(crate) fn surefire_test_property(targets: &[Target<'_>]) -> Result<String, String> {
    let mut classes: Vec<(&str, Option<Vec<&str>>)> = Vec::new();
    for name in names(targets) {
        let (class, method) = surefire_selector(name);
        if class.is_empty() || method.is_some_and(str::is_empty) {
            return Err(format!(
                "`{name}` names no class and method Surefire selects"
            ));
        }
        if let Some(bad) = [class, method.unwrap_or("")]
            .into_iter()
            .find(|part| part.contains([',', '+', '*', '!', '%', ' ']))
        {
            return Err(format!(
                "`{bad}` holds a character Surefire's -Dtest reads as its own"
            ));
        }
        let Some((_, known)) = classes.iter_mut().find(|(known, _)| *known == class) else {
            classes.push((class, method.map(|m| vec![m])));
            continue;
        };
        match (known.as_mut(), method) {
            (Some(methods), Some(method)) if !methods.contains(&method) => methods.push(method),
            (Some(_), None) => *known = None,
            _ => {}
        }
    }
    let selectors: Vec<String> = classes
        .into_iter()
        .map(|(class, methods)| match methods {
            Some(methods) => format!("{class}#{}", methods.join("+")),
            None => class.to_owned(),
        })
        .collect();
    Ok(format!("-Dtest={}", selectors.join(",")))
}

/// `mvn ARGS -Dtest=… -Dsurefire.failIfNoSpecifiedTests=false`: the
/// command's own `-Dtest` replaced; a module of a reactor where no selected
/// test lies then passes instead of failing the build.
fn maven(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let property = surefire_test_property(targets)?;
    let mut out = Vec::with_capacity(rest.len() + 2);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if is_test_selector(word) {
            if word == "-Dtest" {
                words.next();
            }
            continue;
        }
        if word.starts_with("-Dsurefire.failIfNoSpecifiedTests") {
            continue;
        }
        out.push(word.clone());
    }
    out.push(property);
    out.push("-Dsurefire.failIfNoSpecifiedTests=false".to_owned());
    Ok(out)
}

/// Where Surefire and Failsafe write their `TEST-*.xml`: no property moves
/// them (`reportsDirectory` has none; the pom's value, or its default
/// beside the module's pom, wins over `-D`), so the files the attempt
/// wrote there are read.
const SUREFIRE_REPORTS: &[WrittenReports] = &[
    WrittenReports {
        beside: &["pom.xml"],
        folder: "target/surefire-reports",
    },
    WrittenReports {
        beside: &["pom.xml"],
        folder: "target/failsafe-reports",
    },
];

/// `mvn` and the project's `./mvnw`, running a phase that runs the tests.
pub(super) struct Maven;

impl RunnerProfile for Maven {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JAVA
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::JAVA
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["pom.xml (mvn test, or ./mvnw test beside mvnw)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let maven = matches!(program, "mvn" | "mvnw" | "mvnw.cmd" | "mvnDebug");
        (maven && goals(args).any(|goal| TESTING_GOALS.contains(&goal))).then_some(0)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        maven(rest, targets)
    }

    /// Nothing asks Surefire for its report (it writes one per class of
    /// every run, and no argument moves it): the command runs unchanged,
    /// so the request is also made behind a wrapper (`make test` running
    /// `mvn`), where the reports the attempt wrote count as they do for a
    /// bare `mvn`. (Gradle's is not: its `cleanTest` is an argument.)
    fn report(&self, rest: &[String], _place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        Some(ReportRequest {
            args: rest.to_vec(),
            env: Vec::new(),
            files: Vec::new(),
            format: ReportFormat::JUnit,
            written_to: ReportTarget::Written(SUREFIRE_REPORTS),
            through_environment: true,
        })
    }

    fn tool_output(&self) -> &'static [ToolOutput] {
        &[ToolOutput {
            name: "target",
            beside: &["pom.xml"],
        }]
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        let maven = if program == "mvn" {
            "mvn".to_owned()
        } else {
            "./mvnw".to_owned()
        };
        vec![
            vec![maven, "--version".to_owned()],
            words(&["java", "--version"]),
        ]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        if !project.is_file("pom.xml") {
            return None;
        }
        let (command, found) = if project.is_file("mvnw") {
            (words(&["./mvnw", "test"]), vec!["pom.xml", "mvnw"])
        } else {
            (words(&["mvn", "test"]), vec!["pom.xml"])
        };
        Some(Detected::new(
            Runner::Maven,
            command,
            found.into_iter().map(str::to_owned).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{Maven, RunnerProfile, Target, surefire_selector, words};
    use std::path::Path;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Maven, line)
    }

    #[test]
    fn maven_is_recognised_by_a_phase_that_runs_the_tests() {
        for line in [
            "mvn test",
            "./mvnw test",
            "mvn -pl m test",
            "mvn -B -q test",
            "mvn -o -Dtest=A#b verify",
            "mvn clean install",
            "mvn surefire:test",
        ] {
            assert_eq!(recognised(line), Some(0), "{line}");
        }
        // Where it must not fire: no phase that tests, a module named
        // `test`, another program.
        for line in [
            "mvn compile",
            "mvn -pl test compile",
            "mvn -f test/pom.xml dependency:go-offline",
            "gradle test",
            "make test",
        ] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    #[test]
    fn a_parameterised_or_nested_name_selects_its_method() {
        assert_eq!(
            surefire_selector("com.example.CalcTest#adds"),
            ("com.example.CalcTest", Some("adds"))
        );
        assert_eq!(
            surefire_selector("p.T#sums(int, int)[3]"),
            ("p.T", Some("sums"))
        );
        assert_eq!(surefire_selector("p.T#m[1]"), ("p.T", Some("m")));
        assert_eq!(surefire_selector("p.T#m{String}[5]"), ("p.T", Some("m")));
        assert_eq!(
            surefire_selector("p.Outer$Inner#m"),
            ("p.Outer$Inner", Some("m"))
        );
        assert_eq!(surefire_selector("p.Broken"), ("p.Broken", None));
    }

    fn select(rest: &[&str], names: &[&str]) -> Result<Vec<String>, String> {
        let targets: Vec<Target<'_>> = names
            .iter()
            .map(|name| Target {
                name,
                context: None,
            })
            .collect();
        Maven.select(&words(rest), &targets, Path::new("."))
    }

    #[test]
    fn a_retry_selects_the_failed_methods_by_class() {
        assert_eq!(
            select(
                &["-B", "-Dtest=Old", "test"],
                &["p.A#m1", "p.B#x[1]", "p.A#m2", "p.B#x[2]", "p.C"]
            )
            .unwrap(),
            [
                "-B",
                "test",
                "-Dtest=p.A#m1+m2,p.B#x,p.C",
                "-Dsurefire.failIfNoSpecifiedTests=false"
            ]
        );
        // A class failed as a whole runs whole, whatever else is named.
        assert_eq!(
            select(&["-Dtest", "Old", "test"], &["p.A#m1", "p.A", "p.A#m2"]).unwrap(),
            [
                "test",
                "-Dtest=p.A",
                "-Dsurefire.failIfNoSpecifiedTests=false"
            ]
        );
        // A name Surefire's filter would read otherwise is refused.
        assert!(select(&["test"], &["p.A#m, n"]).is_err());
        assert!(select(&["test"], &["#m"]).is_err());
    }
}
