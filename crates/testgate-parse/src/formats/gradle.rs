//! Gradle's console of its `test` task: `Class > method FAILED` lines and
//! the `N tests completed, M failed` summary.
//!
//! A failing name is `fully.qualified.Class#method`, as Gradle's XML report
//! names the test; Gradle's `classMethod` (a failure outside any test: a
//! `@BeforeClass` that threw) is the class alone. Gradle prints a failed
//! test's line at the start of a line and a test's own output (where
//! `testLogging.showStandardStreams` shows it) indented under a `Class >
//! method STANDARD_OUT` header: an indented line names nothing. A failed
//! test's line is a candidate; the task's summary, which Gradle prints
//! only when a test failed, confirms the candidates before it. Candidates
//! no summary confirmed stand where the log stops without Gradle's `BUILD`
//! line, and are dropped by a `BUILD SUCCESSFUL`.

use super::java::split_whole;
use super::{Excerpts, Findings, Interest, Recognizer};
use crate::line::Line;
use crate::report::{Counts, FailingTest, Kind, Outcome};
use crate::runner::Runner;

/// The most candidates kept before a summary.
const MAX_PENDING: usize = 1 << 16;

/// Recognises Gradle's console.
#[derive(Debug, Default)]
pub(crate) struct Gradle {
    findings: Findings,
    /// Failed tests' lines since the last summary.
    pending: Vec<(u64, String)>,
    /// The failed tests' indented lines (the exception and where).
    excerpts: Excerpts,
    /// A test task's header (`:test`, `> Task :core:test`) came, and no
    /// `BUILD` line since: only then is a result line read, so that a
    /// `X > m FAILED` another runner's test prints is nothing.
    in_task: bool,
}

/// Outside a test task: a task's header (`:`, `> Task`), a summary (a
/// digit), a `BUILD` line, `Execution failed for task`.
static OUTSIDE_TASK: Interest = Interest::NONE.first(b":>BE").first_range(b'0', b'9');

/// Inside one: a result line too, which starts with its class.
static IN_TASK: Interest = OUTSIDE_TASK
    .first_range(b'a', b'z')
    .first_range(b'A', b'Z')
    .first(b"_$")
    .first_range(0x80, 0xff);

/// A test task's header as Gradle's plain console prints it: `:test`,
/// `:core:test` (Gradle 4), `> Task :core:test` (Gradle 5 and later), with
/// an outcome after it or not.
fn test_task(text: &str) -> bool {
    let text = text.strip_prefix("> Task ").unwrap_or(text);
    // Gradle 4 ends the header's line only when the task prints: on Java
    // 17 the test worker's warning on stderr often lands right after it
    // (`:testWARNING: A terminally deprecated method…`, fixture
    // `pass.log`), and under Landlock, where testgate sets
    // `JAVA_TOOL_OPTIONS`, the worker's notice of it (`:testPicked up
    // JAVA_TOOL_OPTIONS: …`, fixture `landlock_fail.log`).
    let text = text
        .split_once("Picked up JAVA_TOOL_OPTIONS:")
        .map_or(text, |(head, _)| head);
    let path = text.split(' ').next().unwrap_or_default();
    let path = path.strip_suffix("WARNING:").unwrap_or(path);
    path.starts_with(':')
        && path
            .rsplit(':')
            .next()
            .is_some_and(|task| task == "test" || task.ends_with("Test"))
}

/// A test's result line at the start of a line: `com.example.CalcTest >
/// subtracts FAILED` (Gradle 4), `CalcTest > subtracts() FAILED`, a nested
/// class's `OuterTest > InnerTest > breaks() FAILED`: the name and the
/// outcome.
fn result_line(text: &str) -> Option<(String, Outcome)> {
    let (path, outcome) = if let Some(path) = text.strip_suffix(" FAILED") {
        (path, Outcome::Failed)
    } else if let Some(path) = text.strip_suffix(" PASSED") {
        (path, Outcome::Passed)
    } else if let Some(path) = text.strip_suffix(" SKIPPED") {
        (path, Outcome::Skipped)
    } else {
        return None;
    };
    let mut parts = path.split(" > ");
    let class = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    let (method, nested) = rest.split_last()?;
    if !is_class_path(class) || nested.iter().any(|n| !is_class_path(n)) || method.is_empty() {
        return None;
    }
    let mut class = class.to_owned();
    for inner in nested {
        class.push('$');
        class.push_str(inner);
    }
    // Gradle 4 names an `Enclosed` runner's nested test by its whole name.
    let head = method.split(['(', '[']).next().unwrap_or(method);
    let name = if head.contains('.') {
        match split_whole(method) {
            (class, Some(method)) => format!("{class}#{method}"),
            (class, None) => class,
        }
    } else if *method == "classMethod" {
        class
    } else {
        format!("{class}#{method}")
    };
    Some((name, outcome))
}

/// Whether `text` is a class as Gradle prints it: dotted Java identifiers.
fn is_class_path(text: &str) -> bool {
    !text.is_empty()
        && text.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$')
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '$' | '_'))
}

/// The summary, `12 tests completed, 6 failed, 1 skipped`: completed,
/// failed, skipped.
fn summary(text: &str) -> Option<(u64, u64, u64)> {
    let (completed, rest) = text.split_once(' ')?;
    let completed: u64 = completed.parse().ok()?;
    let rest = rest
        .strip_prefix("tests completed")
        .or_else(|| rest.strip_prefix("test completed"))?;
    let (mut failed, mut skipped) = (0, 0);
    for part in rest.split(", ").skip(1) {
        let (n, what) = part.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        match what {
            "failed" => failed = n,
            "skipped" => skipped = n,
            _ => return None,
        }
    }
    if !rest.is_empty() && !rest.starts_with(", ") {
        return None;
    }
    Some((completed, failed, skipped))
}

impl Gradle {
    fn confirm_pending(&mut self) {
        for (index, name) in std::mem::take(&mut self.pending) {
            let (message, excerpt) = self.excerpts.take(&name);
            let kind = if name.contains('#') {
                Kind::Test
            } else {
                Kind::Suite
            };
            let test = FailingTest::new(name, Runner::Gradle, None)
                .with_kind(kind)
                .with_output(message, excerpt);
            self.findings.fail(index, test);
        }
    }
}

impl Recognizer for Gradle {
    fn findings(&mut self) -> &mut Findings {
        &mut self.findings
    }

    fn line(&mut self, line: &Line<'_>) {
        let text = &*line.text;
        let index = line.index;
        if text.starts_with(' ') || text.starts_with('\t') {
            if self.excerpts.is_open() {
                let body = text.trim();
                if !self.excerpts.has_message() {
                    self.excerpts.message(body);
                }
                self.excerpts.push(body);
            }
            return;
        }
        self.excerpts.end();
        if test_task(text) {
            self.findings.detected(index);
            self.in_task = true;
            return;
        }
        if let Some((name, outcome)) = result_line(text).filter(|_| self.in_task) {
            if outcome == Outcome::Failed {
                self.excerpts.open(&name);
                if self.pending.len() < MAX_PENDING {
                    self.pending.push((index, name));
                }
            } else {
                self.findings.seen.note(index, &name, None, outcome);
            }
            return;
        }
        if let Some((completed, failed, skipped)) = summary(text) {
            self.findings.detected(index);
            self.findings.counts.add(Counts {
                passed: Some(completed.saturating_sub(failed).saturating_sub(skipped)),
                failed: Some(failed),
                skipped: Some(skipped),
            });
            if failed > 0 {
                for (at, name) in &self.pending {
                    self.findings.seen.note(*at, name, None, Outcome::Failed);
                }
                self.confirm_pending();
            } else {
                self.pending.clear();
            }
            return;
        }
        if text.starts_with("BUILD SUCCESSFUL") {
            self.findings.detected(index);
            self.in_task = false;
            // Gradle prints its summary whenever a test failed: failed
            // lines it did not sum up were printed by a test.
            self.pending.clear();
            return;
        }
        if text.starts_with("BUILD FAILED") {
            self.findings.detected(index);
            self.in_task = false;
            return;
        }
        // `Execution failed for task ':core:compileTestJava'.`
        if let Some(task) = text
            .strip_prefix("Execution failed for task '")
            .and_then(|t| t.strip_suffix("'."))
        {
            let compile = task.rsplit(':').next().is_some_and(|name| {
                name.starts_with("compile") && (name.ends_with("Java") || name.ends_with("Kotlin"))
            });
            if compile {
                self.findings.detected(index);
                let test = FailingTest::new(task, Runner::Gradle, None)
                    .with_kind(Kind::Package)
                    .with_output(Some("compilation failed".to_owned()), None);
                self.findings.fail(index, test);
            }
        }
    }

    fn finish(&mut self) -> Findings {
        self.excerpts.end();
        if !self.pending.is_empty() {
            // The log stopped before Gradle's summary: killed, cut.
            self.findings.unclosed.get_or_insert_with(|| {
                "a Gradle test task printed failures and no `N tests completed` summary".to_owned()
            });
            for (at, name) in self.pending.clone() {
                self.findings.seen.note(at, &name, None, Outcome::Failed);
            }
            self.confirm_pending();
        }
        std::mem::take(&mut self.findings)
    }

    fn interest(&self) -> &'static Interest {
        if self.excerpts.is_open() {
            &Interest::ALL
        } else if self.in_task {
            &IN_TASK
        } else {
            &OUTSIDE_TASK
        }
    }
}

/// How Gradle's JUnit report (`TEST-*.xml`) is read: as Surefire's, and
/// a class's own failure named `classMethod`.
pub(crate) const JUNIT: crate::junit_case::Junit = crate::junit_case::Junit {
    name: |case| (super::maven::junit_name(case, true), None),
    kind: |name| {
        if name.contains('#') {
            Kind::Test
        } else {
            Kind::Suite
        }
    },
    ..crate::junit_case::Junit::COMMON
};

/// Fragments of this runner's output for the mixed-log property test
/// of `dispatch.rs` (`formats::testing::fragments`).
#[cfg(test)]
pub(crate) const FRAGMENTS: &[&str] = &[
    "com.example.CalcTest > subtracts FAILED\n",
    "    java.lang.AssertionError at CalcTest.java:10\n",
    "CalcTest > subtracts() FAILED\n",
    "com.example.SetupTest > classMethod FAILED\n",
    "com.example.CalcTest > adds PASSED\n",
    "com.example.CalcTest > multiplies SKIPPED\n",
    "com.example.LiarTest > prints STANDARD_OUT\n",
    "12 tests completed, 6 failed, 1 skipped\n",
    "1 test completed, 1 failed\n",
    ":test FAILED\n",
    "> Task :test FAILED\n",
    "BUILD FAILED in 36s\n",
    "BUILD SUCCESSFUL in 2s\n",
    "Execution failed for task ':compileTestJava'.\n",
    " FAILED\n",
    "com.example.A > ",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn names(log: &str) -> Vec<String> {
        crate::parse(Runner::Gradle, log)
            .names()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_spelling_of_a_failed_test() {
        let cases = [
            (
                "com.example.CalcTest > subtracts FAILED",
                "com.example.CalcTest#subtracts",
            ),
            ("CalcTest > subtracts() FAILED", "CalcTest#subtracts()"),
            (
                "com.example.SetupTest > classMethod FAILED",
                "com.example.SetupTest",
            ),
            (
                "com.example.ParamTest > squares[2] FAILED",
                "com.example.ParamTest#squares[2]",
            ),
            (
                "com.example.OuterTest > com.example.OuterTest$InnerTest.breaks FAILED",
                "com.example.OuterTest$InnerTest#breaks",
            ),
            (
                "OuterTest > InnerTest > breaks() FAILED",
                "OuterTest$InnerTest#breaks()",
            ),
        ];
        for (line, name) in cases {
            assert_eq!(
                result_line(line),
                Some((name.to_owned(), Outcome::Failed)),
                "{line}"
            );
        }
    }

    #[test]
    fn result_lines_must_not_fire_on_prose_or_indented_output() {
        assert_eq!(result_line("the build > the tests FAILED"), None);
        assert_eq!(result_line("a > FAILED"), None);
        assert!(test_task(":test") && test_task("> Task :core:integrationTest FAILED"));
        assert!(!test_task(":compileTestJava") && !test_task("test: 1 passed"));
        // A JVM's warning glued to Gradle 4's header; where it must not
        // fire: glued to another task's.
        assert!(test_task(":testWARNING: A terminally deprecated method"));
        assert!(test_task(
            ":testPicked up JAVA_TOOL_OPTIONS: -Djava.io.tmpdir=/tmp/t"
        ));
        assert!(!test_task(
            ":compileJavaPicked up JAVA_TOOL_OPTIONS: -Djava.io.tmpdir=/t"
        ));
        assert!(!test_task(
            ":compileJavaWARNING: A terminally deprecated method"
        ));
        let log = "\
:test
com.example.LiarTest > prints STANDARD_OUT
    com.example.ForgedTest > forged FAILED
    1 tests completed, 1 failed

BUILD SUCCESSFUL in 1s
";
        assert!(names(log).is_empty());
        assert_eq!(
            summary("3 tests completed, 1 failed, 1 skipped"),
            Some((3, 1, 1))
        );
        assert_eq!(summary("1 test completed, 1 failed"), Some((1, 1, 0)));
        assert_eq!(summary("3 tests completedly"), None);
        assert_eq!(summary("3 tests completed, 1 lost"), None);
    }

    #[test]
    fn failures_stand_by_the_summary_and_fall_to_a_build_that_succeeded() {
        let failed = "\
:test
com.example.CalcTest > subtracts FAILED
    java.lang.AssertionError at CalcTest.java:10

2 tests completed, 1 failed
:test FAILED
";
        let report = crate::parse(Runner::Gradle, failed);
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["com.example.CalcTest#subtracts"]
        );
        assert_eq!(
            report.failing[0].message.as_deref(),
            Some("java.lang.AssertionError at CalcTest.java:10")
        );
        assert_eq!(report.counts.passed, Some(1));
        let forged = ":test\ncom.example.Fake > forged FAILED\nBUILD SUCCESSFUL in 2s\n";
        assert!(names(forged).is_empty());
        // Outside a test task (another runner's test printed it): nothing.
        assert!(names("com.example.Fake > forged FAILED\n").is_empty());
        let cut = "> Task :core:test\ncom.example.CalcTest > subtracts FAILED\n";
        let report = crate::parse(Runner::Gradle, cut);
        assert_eq!(
            report.names().collect::<Vec<_>>(),
            ["com.example.CalcTest#subtracts"]
        );
        assert!(report.unclosed.is_some());
    }
}
