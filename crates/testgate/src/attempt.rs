//! One attempt's facts turned into the policy's [`Attempt`]: a pure
//! function, no I/O and no clock, so that each rule of the translation is
//! a unit test rather than a sandboxed run.

use std::time::Duration;

use testgate_parse::{EnvironmentFailure, EnvironmentKind, Kind, Report};
use testgate_policy::{Attempt, Counts, Ending, Environment, Selection, TestResult};
use testgate_run::RunError;

use crate::channels::Judged;
use crate::runners::FailsApart;

/// Everything one attempt showed, as data: how the process ended, what
/// its output and the runner's report said ([`Judged`]), what the scans
/// saw, and what the configuration asks to keep.
#[derive(Debug)]
pub(crate) struct Facts<'a> {
    /// How the process ended, or why the runner could not run it.
    pub(crate) ran: Result<testgate_run::Ending, &'a RunError>,
    /// The attempt's time limit, which a timed-out ending names.
    pub(crate) timeout: Duration,
    /// How long it took.
    pub(crate) duration: Duration,
    /// The runner had to end processes the command left behind.
    pub(crate) leaked: bool,
    /// What it ran.
    pub(crate) selection: Selection,
    /// The outcomes as the channels gave them, with which judged.
    pub(crate) judged: Judged,
    /// The printable end of the output.
    pub(crate) tail: String,
    /// The first environment failure the output showed.
    pub(crate) environment: Option<EnvironmentFailure>,
    /// The output said a coverage threshold was not met.
    pub(crate) coverage_below_threshold: bool,
    /// The command is one testgate recognises as a runner
    /// ([`TestConfig::runner`](crate::TestConfig::runner)).
    pub(crate) runner_recognised: bool,
    /// Every test's outcome is wanted (grading and stress read them): a
    /// hundred thousand names are not copied for nothing.
    pub(crate) every_test: bool,
    /// Which of the tests the runner counts apart the project fails a run
    /// on, where its profile knows ([`crate::runners::fails_apart`]).
    pub(crate) fails_apart: Option<FailsApart>,
}

/// The policy's attempt of `facts`, and the report it was read from.
pub(crate) fn attempt_of(facts: Facts<'_>) -> (Attempt, Report) {
    let Facts {
        ran,
        timeout,
        duration,
        leaked,
        selection,
        judged,
        tail,
        environment,
        coverage_below_threshold,
        runner_recognised,
        every_test,
        fails_apart,
    } = facts;
    let Judged {
        report,
        evidence,
        note,
    } = judged;
    let flooded = matches!(ran, Ok(testgate_run::Ending::NetworkRefused));
    let ending = ending_of(ran, timeout);
    let environment = environment_of(environment, flooded, &ending);
    let counts = Counts::new(
        report.counts.passed,
        report.counts.failed,
        report.counts.skipped,
    );
    let mut failing = failing_names(&report, &ending);
    let apart = failed_apart(&report, &ending, failing.is_empty(), fails_apart);
    failing.extend(apart.iter().map(|(name, _)| name.clone()));
    let attempt = Attempt::new(ending)
        .with_selection(selection)
        .with_failing(failing)
        .with_counts(counts)
        .with_no_tests_ran(report.no_tests_ran)
        // A command testgate recognises as a runner whose output shows
        // none of that runner's lines never reached its summary either
        // (`pytest -q` ended by `os._exit(0)` prints only `.F`).
        .with_truncated(report.unclosed.is_some() || (report.format.is_none() && runner_recognised))
        .with_flaky_within(report.flaky.iter().cloned(), report.reruns)
        .with_running(report.running.iter().cloned())
        .with_crashes(report.crashes.iter().map(testgate_parse::Crash::describe))
        // Each failing test's own output for the reason: its excerpt, or
        // its message where the excerpts' budget was spent.
        .with_excerpts(
            report
                .failing
                .iter()
                .filter_map(|test| {
                    let text = test.excerpt.as_ref().or(test.message.as_ref())?;
                    Some((test.name.clone(), text.clone()))
                })
                .chain(apart.iter().cloned()),
        )
        .with_placed_tests(if every_test {
            placed_tests(&report, &apart)
        } else {
            Vec::new()
        })
        .with_aliases(report.tests.iter().filter_map(|t| {
            let description = t.description.clone()?;
            Some((description, t.name.clone()))
        }))
        .with_recognised(report.format.is_some())
        .with_tail(tail)
        .with_leaked_processes(leaked)
        .with_duration(duration)
        .with_environment(environment)
        .with_coverage_below_threshold(coverage_below_threshold)
        .with_evidence(evidence);
    let attempt = match note {
        Some(note) => attempt.with_note(note),
        None => attempt,
    };
    (attempt, report)
}

/// The environment's evidence of an attempt that ended as `ending`: what
/// the output showed (not a shell's "not found" of a command that ran),
/// or, where testgate ended the run at a flood of refused connections, that
/// flood, whatever the output showed before it.
fn environment_of(
    found: Option<EnvironmentFailure>,
    flooded: bool,
    ending: &Ending,
) -> Option<Environment> {
    if flooded {
        return Some(Environment::new(NETWORK_REFUSED, NETWORK_REFUSED_FIX));
    }
    found
        .filter(|found| !shell_said_not_found(found, ending))
        .map(|found| Environment::new(found.what, found.fix))
}

/// How a run ended, as the policy judges it: the process's ending (a
/// timeout names the limit), or the run the runner could not finish.
pub(crate) fn ending_of(ran: Result<testgate_run::Ending, &RunError>, timeout: Duration) -> Ending {
    match ran {
        Ok(testgate_run::Ending::Exited(code)) => Ending::Exited { code },
        Ok(testgate_run::Ending::Signalled(signal)) => Ending::Signalled { signal },
        Ok(testgate_run::Ending::TimedOut) => Ending::TimedOut { after: timeout },
        Ok(testgate_run::Ending::Cancelled) => Ending::Cancelled,
        Ok(testgate_run::Ending::NetworkRefused) => Ending::SandboxRefused {
            why: NETWORK_REFUSED.to_owned(),
        },
        Err(error) => refusal_of(error),
    }
}

/// Why a run the sandbox's refused connections ended is no verdict.
const NETWORK_REFUSED: &str = "the suite's connections to servers it starts itself were refused: \
     no network namespace can be made here (a container's default profile), so the sandbox \
     refuses every TCP connect";

/// The fix of [`NETWORK_REFUSED`], the reason's first line.
const NETWORK_REFUSED_FIX: &str = "pass --allow-network (the suite then reaches the network), \
     or run where bubblewrap can start (each attempt has a loopback of its own)";

/// The ending of a run the runner could not finish. An I/O failure after
/// the command started is no failure to start: the attempt was lost.
fn refusal_of(error: &RunError) -> Ending {
    let why = error.to_string();
    match error {
        RunError::SandboxRefused { .. } => Ending::SandboxRefused { why },
        RunError::WouldNotStart { .. } => Ending::WouldNotStart { why },
        RunError::Io { .. } => Ending::Lost { why },
        _ => Ending::WouldNotStart { why },
    }
}

/// The failing names of `report` that the attempt's `ending` allows. A
/// whole target's failure ([`Kind::Package`]: cargo's `error: test failed,
/// to rerun pass `--test it``, after a target without libtest's harness
/// failed) is the runner's word that a process failed, and the runner then
/// exits non-zero: in an attempt that exited 0 a target printed it. The
/// policy judges by name: one name failing in two contexts (a jest title
/// in two files) is that name once.
fn failing_names(report: &Report, ending: &Ending) -> Vec<String> {
    let exited_0 = matches!(ending, Ending::Exited { code: 0 });
    let mut names: Vec<String> = Vec::with_capacity(report.failing.len());
    let mut seen = std::collections::HashSet::new();
    for test in &report.failing {
        if !(exited_0 && test.kind == Kind::Package) && seen.insert(test.name.as_str()) {
            names.push(test.name.clone());
        }
    }
    names
}

/// Every test's name, context and result for grading, a risky or warned
/// test that failed the run ([`failed_apart`]) as failed.
fn placed_tests(
    report: &Report,
    apart: &[(String, String)],
) -> Vec<(String, Option<String>, TestResult)> {
    let failed_apart: std::collections::HashSet<&str> =
        apart.iter().map(|(name, _)| name.as_str()).collect();
    report
        .tests
        .iter()
        .map(|t| {
            let result = if failed_apart.contains(t.name.as_str()) {
                TestResult::Failed
            } else {
                graded(t.outcome)
            };
            (t.name.clone(), t.context.clone(), result)
        })
        .collect()
}

/// The tests the runner counted risky or warned about (PHPUnit's
/// [`Report::risky`], [`Report::warned`]) that failed the run, each with
/// its reason: where the run closed, exited 1 (PHPUnit's failure) and
/// `nothing_failed`, the project asked for them to fail (`failOnRisky`,
/// `failOnWarning`): only the exit status tells. Only the kinds `fails`
/// says the project fails a run on are named (`failOnIncomplete` and
/// `failOnSkipped` exit 1 the same way); where it is not known, both.
/// Where a test failed too, it alone is known to have failed the run, and
/// they are not named.
fn failed_apart(
    report: &Report,
    ending: &Ending,
    nothing_failed: bool,
    fails: Option<FailsApart>,
) -> Vec<(String, String)> {
    if !nothing_failed || report.unclosed.is_some() || !matches!(ending, Ending::Exited { code: 1 })
    {
        return Vec::new();
    }
    let fails = fails.unwrap_or(FailsApart {
        risky: true,
        warned: true,
    });
    let risky = report
        .risky
        .iter()
        .filter(|_| fails.risky)
        .map(|test| (test, "risky", "failOnRisky, --fail-on-risky"));
    let warned = report
        .warned
        .iter()
        .filter(|_| fails.warned)
        .map(|test| (test, "warned about", "failOnWarning, --fail-on-warning"));
    risky
        .chain(warned)
        .map(|(test, what, asked_by)| {
            let mut reason = format!(
                "{what}, not failed, by the runner's count; the run exited 1 with no test \
                 failed: the project fails a run on it ({asked_by})"
            );
            if let Some(said) = test.excerpt.as_ref().or(test.message.as_ref()) {
                reason.push('\n');
                reason.push_str(said);
            }
            (test.name.clone(), reason)
        })
        .collect()
}

/// A shell's own "not found" with its 126 or 127: the policy already reads
/// that as a runner that would not start, which is what it is.
fn shell_said_not_found(found: &EnvironmentFailure, ending: &Ending) -> bool {
    found.kind == EnvironmentKind::RunnerNotFound
        && matches!(ending, Ending::Exited { code: 126 | 127 })
}

/// A parsed outcome as grading reads it: an expected failure is one (the
/// grader decides for which list it counts as passed: never a test that
/// must pass), an unexpected pass proves nothing either way.
fn graded(outcome: testgate_parse::Outcome) -> TestResult {
    use testgate_parse::Outcome;
    match outcome {
        Outcome::Passed => TestResult::Passed,
        Outcome::XFailed => TestResult::XFailed,
        Outcome::Failed | Outcome::Error => TestResult::Failed,
        Outcome::Skipped | Outcome::XPassed => TestResult::Skipped,
        Outcome::Flaky => TestResult::Flaky,
        Outcome::Running => TestResult::Running,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testgate_parse::{Format, Runner, environment_failure, parse};
    use testgate_policy::{Cause, Evidence, Policy, Verdict};

    use crate::runners::ReportFormat;

    const PASSED: &str = "running 1 test\ntest a ... ok\n\n\
        test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n";
    const FAILED: &str = "running 2 tests\ntest a ... ok\ntest b ... FAILED\n\n\
        failures:\n\n---- b stdout ----\nthread 'b' panicked at src/lib.rs:1:1:\nboom\n\n\
        failures:\n    b\n\n\
        test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n";

    #[test]
    fn risky_tests_fail_the_run_only_where_it_exited_1_with_nothing_failed() {
        // A PHPUnit console with a risky test (captured shape:
        // tests/fixtures/phpunit/fail_on_risky.log).
        let risky = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n\
            .R     2 / 2 (100%)\n\nTime: 00:00.012, Memory: 6.00 MB\n\n\
            There was 1 risky test:\n\n1) A\\BTest::testNothing\n\
            This test did not perform any assertions\n\n\
            OK, but incomplete, skipped, or risky tests!\nTests: 2, Assertions: 1, Risky: 1.\n";
        let (attempt, _) = attempt_of(exited(1, risky));
        assert_eq!(attempt.failing, ["A\\BTest::testNothing"]);
        // Where it must not fire: PHPUnit passed (no `failOnRisky`), the
        // run ended otherwise (a crash's 255), a test failed too.
        assert!(attempt_of(exited(0, risky)).0.failing.is_empty());
        assert!(attempt_of(exited(255, risky)).0.failing.is_empty());
        let failed = risky
            .replace(".R ", "FR ")
            .replace(
                "There was 1 risky",
                "There was 1 failure:\n\n1) A\\BTest::testA\nno\n\n--\n\nThere was 1 risky",
            )
            .replace(
                "OK, but incomplete, skipped, or risky tests!\nTests: 2, Assertions: 1,",
                "FAILURES!\nTests: 2, Assertions: 1, Failures: 1,",
            );
        assert_eq!(
            attempt_of(exited(1, &failed)).0.failing,
            ["A\\BTest::testA"]
        );
    }

    /// A run with a risky, a warned, an incomplete and a skipped test
    /// (captured under each setting: tests/fixtures/phpunit/apart*, by
    /// testgate-parse's capture/phpunit.sh) names only the kinds the project
    /// fails a run on, where its profile knows them: none under
    /// `failOnIncomplete`/`failOnSkipped` alone, nor where PHPUnit passed;
    /// both where not known (before: both, always).
    #[test]
    fn only_the_kinds_the_project_fails_on_are_named() {
        macro_rules! case {
            ($name:literal) => {
                (
                    $name,
                    include_str!(concat!(
                        "../../testgate-parse/tests/fixtures/phpunit/",
                        $name,
                        ".log"
                    )),
                    include_str!(concat!(
                        "../../testgate-parse/tests/fixtures/phpunit/",
                        $name,
                        ".exit"
                    )),
                )
            };
        }
        let risky = "Demo\\Tests\\CalcTest::testAssertsNothing";
        let warned = "Demo\\Tests\\CalcTest::testWarns";
        for (name, log, exit) in [
            case!("apart"),
            case!("apart_fail_on_risky"),
            case!("apart_fail_on_warning"),
            case!("apart_fail_on_risky_and_warning"),
            case!("apart_fail_on_incomplete"),
            case!("apart_fail_on_skipped"),
        ] {
            let code: i32 = exit.trim().parse().unwrap();
            let fails = FailsApart {
                risky: name.contains("_risky"),
                warned: name.contains("warning"),
            };
            let named = |fails: Option<FailsApart>| {
                let facts = Facts {
                    fails_apart: fails,
                    ..exited(code, log)
                };
                let mut failing = attempt_of(facts).0.failing;
                failing.sort_unstable();
                failing
            };
            let mut expected = Vec::new();
            if code == 1 && fails.risky {
                expected.push(risky);
            }
            if code == 1 && fails.warned {
                expected.push(warned);
            }
            assert_eq!(named(Some(fails)), expected, "{name}");
            let unknown: &[&str] = if code == 1 { &[risky, warned] } else { &[] };
            assert_eq!(named(None), unknown, "{name}: not known");
        }
    }

    /// The facts of an attempt that exited `code` with `console` as its
    /// output, judged by its console alone.
    fn exited(code: i32, console: &str) -> Facts<'static> {
        ran(Ok(testgate_run::Ending::Exited(code)), console)
    }

    fn ran(ran: Result<testgate_run::Ending, &'static RunError>, console: &str) -> Facts<'static> {
        Facts {
            ran,
            timeout: Duration::from_secs(60),
            duration: Duration::from_millis(5),
            leaked: false,
            selection: Selection::Full,
            judged: Judged::console_alone(parse(Format::Auto, console), None),
            tail: console.to_owned(),
            environment: environment_failure(console),
            coverage_below_threshold: false,
            runner_recognised: true,
            every_test: false,
            fails_apart: None,
        }
    }

    /// The verdict a policy without retries gives the one attempt.
    fn verdict(attempt: &Attempt) -> Verdict {
        Policy::new(0).verdict(std::slice::from_ref(attempt))
    }

    #[test]
    fn a_pass_is_its_exit_its_counts_and_its_console() {
        let (attempt, report) = attempt_of(exited(0, PASSED));
        assert_eq!(attempt.ending, Ending::Exited { code: 0 });
        assert!(attempt.failing.is_empty() && attempt.recognised && !attempt.truncated);
        assert_eq!(attempt.counts, Some(Counts::new(Some(1), Some(0), Some(0))));
        assert_eq!(attempt.evidence, Evidence::ConsoleAlone);
        assert_eq!(attempt.tail, PASSED);
        assert!(attempt.tests.is_empty(), "every test only where asked for");
        assert_eq!(report.format, Some(Runner::Cargo));
        assert!(
            matches!(verdict(&attempt), Verdict::Pass { .. }),
            "{attempt:?}"
        );
    }

    #[test]
    fn a_failure_names_its_tests_with_their_own_output() {
        let (attempt, _) = attempt_of(exited(101, FAILED));
        assert_eq!(attempt.failing, ["b"]);
        assert_eq!(attempt.excerpts.len(), 1);
        assert!(
            attempt.excerpts[0].1.contains("boom"),
            "{:?}",
            attempt.excerpts
        );
        assert!(
            matches!(verdict(&attempt), Verdict::Fail { .. }),
            "{attempt:?}"
        );
        // Grading and stress ask for every test's result.
        let (attempt, _) = attempt_of(Facts {
            every_test: true,
            ..exited(101, FAILED)
        });
        assert_eq!(
            attempt.tests,
            [
                ("a".to_owned(), TestResult::Passed),
                ("b".to_owned(), TestResult::Failed)
            ]
        );
    }

    /// A target without libtest's harness that printed cargo's failure
    /// lines for itself and passed (crates/testgate-parse's fixture project
    /// `harness`, `cargo test --test liar`): with exit status 0 its line
    /// names nothing; with a failing exit, the target is named.
    #[test]
    fn a_whole_target_fails_only_with_a_failing_exit() {
        let log = "     Running tests/liar.rs (target/debug/deps/liar-02fe)\n\
                   error: test failed, to rerun pass `--test liar`\n\
                   error: 1 target failed:\n\
                   \x20   `--test liar`\n";
        let report = parse(Runner::Cargo, log);
        assert_eq!(report.names().collect::<Vec<_>>(), ["--test liar"]);
        assert!(attempt_of(exited(0, log)).0.failing.is_empty());
        assert_eq!(attempt_of(exited(101, log)).0.failing, ["--test liar"]);
    }

    /// A timeout names its limit, and the tests still running then.
    #[test]
    fn a_timeout_names_its_limit_and_the_tests_that_hung() {
        let log = "=== RUN   TestQuick\n--- PASS: TestQuick (0.00s)\n=== RUN   TestHang\n";
        let (attempt, _) = attempt_of(ran(Ok(testgate_run::Ending::TimedOut), log));
        assert_eq!(
            attempt.ending,
            Ending::TimedOut {
                after: Duration::from_secs(60)
            }
        );
        assert_eq!(attempt.running, ["TestHang"]);
        assert!(matches!(verdict(&attempt), Verdict::Inconclusive { .. }));
    }

    /// A sandbox that refused, and a run lost after it started, are told
    /// apart, each with the runner's words.
    #[test]
    fn a_refused_sandbox_and_a_lost_run_keep_their_reasons() {
        static REFUSED: std::sync::LazyLock<RunError> =
            std::sync::LazyLock::new(|| RunError::SandboxRefused {
                program: "cargo".to_owned(),
                message: "no user namespaces".to_owned(),
            });
        static LOST: std::sync::LazyLock<RunError> = std::sync::LazyLock::new(|| RunError::Io {
            program: "cargo".to_owned(),
            source: std::io::Error::other("poll failed"),
        });
        let (attempt, _) = attempt_of(ran(Err(&REFUSED), ""));
        assert!(
            matches!(&attempt.ending, Ending::SandboxRefused { why } if why.contains("no user namespaces")),
            "{:?}",
            attempt.ending
        );
        assert!(matches!(
            verdict(&attempt),
            Verdict::Inconclusive {
                cause: Cause::SandboxRefused,
                ..
            }
        ));
        let (attempt, _) = attempt_of(ran(Err(&LOST), ""));
        assert!(
            matches!(&attempt.ending, Ending::Lost { why } if why.contains("poll failed")),
            "{:?}",
            attempt.ending
        );
    }

    /// A runner that is not installed is the environment's failure, with
    /// its fix; where the shell's own 127 says so already, the ending
    /// speaks and the scan's finding is not repeated.
    #[test]
    fn a_runner_not_found_is_the_environment_unless_the_shell_said_so() {
        let log = "sh: 1: jest: not found\n";
        let (attempt, _) = attempt_of(exited(1, log));
        let found = attempt.environment.as_ref().expect("the environment");
        assert!(found.fix.contains("jest"), "{found:?}");
        assert!(matches!(
            verdict(&attempt),
            Verdict::Inconclusive {
                cause: Cause::Environment,
                ..
            }
        ));
        assert_eq!(attempt_of(exited(127, log)).0.environment, None);
    }

    /// The runner's report and the console disagree: the report's
    /// outcomes are the attempt's, the console's names its evidence, and
    /// the policy believes neither.
    #[test]
    fn a_console_that_contradicts_the_report_is_kept_as_evidence() {
        let junit = br#"<testsuites name="nextest-run"><testsuite name="demo">
<testcase name="a" classname="demo"/><testcase name="b" classname="demo"/>
</testsuite></testsuites>"#;
        let judged = crate::channels::beside(
            parse(Format::Auto, FAILED),
            Ok(junit.to_vec()),
            ReportFormat::JUnit,
            "r",
        );
        let (attempt, _) = attempt_of(Facts {
            judged,
            ..exited(0, FAILED)
        });
        assert!(attempt.failing.is_empty(), "the report's outcomes");
        assert!(
            matches!(&attempt.evidence, Evidence::Report { console_failing, .. } if console_failing == &["b"]),
            "{:?}",
            attempt.evidence
        );
        assert!(
            matches!(verdict(&attempt), Verdict::Inconclusive { .. }),
            "{:?}",
            verdict(&attempt)
        );
    }

    /// Output that stops before the runner's summary is truncated: a
    /// recognised runner's cut-off run, and a command testgate knows as a
    /// runner whose output shows none of its lines; not output of a
    /// command testgate does not know.
    #[test]
    fn output_cut_before_its_summary_is_truncated() {
        let cut = "running 2 tests\ntest a ... ok\n";
        assert!(attempt_of(exited(0, cut)).0.truncated);
        assert!(attempt_of(exited(0, ".F")).0.truncated);
        let unknown = Facts {
            runner_recognised: false,
            ..exited(0, ".F")
        };
        assert!(!attempt_of(unknown).0.truncated);
        assert!(!attempt_of(exited(0, PASSED)).0.truncated);
    }

    /// A run whose runner said no test ran is one, whatever its exit.
    #[test]
    fn a_run_with_no_test_says_so() {
        let log = "============================= test session starts ==============================\n\
                   collected 0 items\n\n\
                   ============================ no tests ran in 0.01s =============================\n";
        let (attempt, _) = attempt_of(exited(5, log));
        assert!(attempt.no_tests_ran, "{attempt:?}");
        assert!(attempt.failing.is_empty());
        assert!(matches!(verdict(&attempt), Verdict::Inconclusive { .. }));
        assert!(!attempt_of(exited(0, PASSED)).0.no_tests_ran);
    }
}
