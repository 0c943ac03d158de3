//! testgate-policy's integration tests: the table of docs/policy.md row by
//! row, the laws over arbitrary sequences, and the reasons as snapshots.

use std::time::Duration;

use proptest::prelude::*;
use testgate_policy::{
    Attempt, Cause, Counts, Driver, Ending, Environment, Evidence, Expectations, Grader, MAX_NAMES,
    MAX_REASON, MAX_TARGETED, Policy, Rerun, Selection, Step, Stress, Verdict,
};

// ---------------------------------------------------------------------------
// Attempts as a parser and a runner would report them.

const TOTAL: u64 = 10;

fn exited(code: i32) -> Attempt {
    Attempt::new(Ending::Exited { code }).with_duration(Duration::from_millis(1500))
}

/// A recognised run of the full suite of [`TOTAL`] tests where `names` failed.
fn run(code: i32, names: &[&str]) -> Attempt {
    let failed = names.len() as u64;
    let total = TOTAL.max(failed);
    let summary = if names.is_empty() {
        format!("test result: ok. {TOTAL} passed; 0 failed")
    } else {
        format!(
            "failures:\n{}\n\ntest result: FAILED. {} passed; {failed} failed",
            names
                .iter()
                .map(|n| format!("    {n}"))
                .collect::<Vec<_>>()
                .join("\n"),
            total - failed
        )
    };
    exited(code)
        .with_failing(names.iter().copied())
        .with_counts(Counts::new(Some(total - failed), Some(failed), Some(0)))
        .with_recognised(true)
        .with_tail(format!("running {total} tests\n{summary}\n"))
}

fn pass() -> Attempt {
    run(0, &[])
}

fn fail(names: &[&str]) -> Attempt {
    run(101, names)
}

/// A targeted run of `selected` in which `names` failed, counts showing
/// each selected test ran.
fn only(selected: &[&str], names: &[&str]) -> Attempt {
    let failed = names.len() as u64;
    let ran = selected.len() as u64;
    let code = if names.is_empty() { 0 } else { 101 };
    exited(code)
        .with_selection(select(selected))
        .with_failing(names.iter().copied())
        .with_counts(Counts::new(Some(ran - failed), Some(failed), Some(0)))
        .with_recognised(true)
        .with_tail(format!("test result: {ran} ran, {failed} failed\n"))
}

fn select(names: &[&str]) -> Selection {
    Selection::Only(names.iter().map(|n| (*n).to_owned()).collect())
}

fn signalled(signal: i32, names: &[&str]) -> Attempt {
    Attempt::new(Ending::Signalled { signal })
        .with_failing(names.iter().copied())
        .with_recognised(!names.is_empty())
        .with_tail("running 10 tests\ntest tests::adds ... ok\n")
}

fn timed_out() -> Attempt {
    Attempt::new(Ending::TimedOut {
        after: Duration::from_secs(300),
    })
    .with_tail("running 10 tests\ntest tests::waits_forever has been running for over 60 seconds\n")
}

// ---------------------------------------------------------------------------
// The table.

/// What a row expects.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    Pass,
    Fail(&'static [&'static str]),
    Inconclusive(Cause),
}

fn matches(verdict: &Verdict, expect: &Expect) -> bool {
    match (verdict, expect) {
        (Verdict::Pass { .. }, Expect::Pass) => true,
        (Verdict::Fail { failing, .. }, Expect::Fail(names)) => failing == names,
        (Verdict::Inconclusive { cause, .. }, Expect::Inconclusive(want)) => cause == want,
        (Verdict::Pass { .. } | Verdict::Fail { .. } | Verdict::Inconclusive { .. }, _) => false,
    }
}

/// Runs one expectation through both code paths: `attempts` must be exactly
/// the sequence the driver asks for (each selection as it asked, stopping
/// where it stops), and both the driver's last step and `verdict` must give
/// `expect`, with a reason containing each of `says`.
#[track_caller]
fn check(row: &str, policy: Policy, attempts: &[Attempt], expect: Expect, says: &[&str]) {
    for i in 0..=attempts.len() {
        match policy.step(&attempts[..i]) {
            Step::Run(selection) => {
                assert!(
                    i < attempts.len(),
                    "{row}: the driver asked for attempt {} after {i}",
                    i + 1
                );
                assert!(
                    selection.same_as(&attempts[i].selection),
                    "{row}: attempt {} should run {selection:?}",
                    i + 1
                );
            }
            Step::Done(verdict) => {
                assert_eq!(
                    i,
                    attempts.len(),
                    "{row}: the driver stopped after {i}: {verdict:?}"
                );
                assert_eq!(
                    verdict,
                    policy.verdict(attempts),
                    "{row}: step and verdict disagree"
                );
            }
        }
    }
    let verdict = policy.verdict(attempts);
    assert!(
        matches(&verdict, &expect),
        "{row}: expected {expect:?}, got {verdict:#?}"
    );
    assert!(verdict.reason().len() <= MAX_REASON, "{row}");
    for said in says {
        assert!(
            verdict.reason().contains(said),
            "{row}: the reason should say {said:?}:\n{}",
            verdict.reason()
        );
    }
}

fn once() -> Policy {
    Policy::default()
}

fn retries(k: u32) -> Policy {
    Policy::new(k)
}

fn targeted(k: u32) -> Policy {
    Policy::new(k).with_rerun(Rerun::Failed)
}

#[test]
fn the_table() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    check(
        "the first run passed",
        retries(3),
        &[pass()],
        Expect::Pass,
        &["attempt 1 passed"],
    );
    check(
        "every attempt failed, once",
        once(),
        &[fail(&["a", "b"])],
        Expect::Fail(&["a", "b"]),
        &["a\nb\n", "attempt 1 failed 2 tests (exit code 101)"],
    );
    check(
        "every attempt failed, thrice",
        retries(2),
        &[fail(&["a"]), fail(&["a"]), fail(&["a"])],
        Expect::Fail(&["a"]),
        &["every attempt failed"],
    );
    check(
        "attempts disagreed",
        retries(3),
        &[fail(&["a", "b", "c"]), pass()],
        Inc(Flaky),
        &[
            "attempt 1 failed 3 tests (exit code 101), attempt 2 passed",
            "the suite is flaky",
        ],
    );
    check(
        "the first attempt timed out",
        retries(2),
        &[timed_out()],
        Inc(TimedOut),
        &["timed out after 300s"],
    );
    check(
        "a retry timed out",
        retries(2),
        &[fail(&["a"]), timed_out()],
        Inc(TimedOut),
        &["a (failed in 1 of 2 attempts)"],
    );
    check(
        "the sandbox refused",
        retries(2),
        &[Attempt::new(Ending::SandboxRefused {
            why: "bwrap: No permissions to create new namespace".into(),
        })],
        Inc(SandboxRefused),
        &["No permissions"],
    );
    check(
        "the runner would not start",
        retries(2),
        &[Attempt::new(Ending::WouldNotStart {
            why: "cargo: not found".into(),
        })],
        Inc(WouldNotStart),
        &["cargo: not found"],
    );
}

#[test]
fn refinements_of_exit_zero() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    check(
        "exit 0 naming failing tests",
        retries(2),
        &[run(0, &["a"])],
        Inc(Contradiction),
        &["exit status and the output disagree"],
    );
    check(
        "exit 0, the runner said no test ran",
        retries(2),
        &[exited(0).with_no_tests_ran(true).with_recognised(true)],
        Inc(NoTestsRan),
        &["no test ran"],
    );
    check(
        "exit 0, the summary counts no test run",
        retries(2),
        &[exited(0)
            .with_counts(Counts::new(Some(0), Some(0), Some(3)))
            .with_recognised(true)],
        Inc(NoTestsRan),
        &["counts no test run"],
    );
    check(
        "exit 0, output not recognised",
        retries(2),
        &[exited(0).with_tail("all good, I think\n")],
        Expect::Pass,
        &["only its exit status (0) speaks", "all good, I think"],
    );
    let counted_failures = exited(0)
        .with_counts(Counts::new(Some(9), Some(1), None))
        .with_recognised(true);
    check(
        "exit 0 with a failure counted but not named",
        once(),
        &[counted_failures],
        Expect::Pass,
        &[
            "9 passed, 1 failed",
            "names no failing test; the exit status (0) decides",
        ],
    );
    check(
        "a pass that leaked processes",
        once(),
        &[pass().with_leaked_processes(true)],
        Expect::Pass,
        &["left processes running", "testgate ended them"],
    );
}

#[test]
fn refinements_of_failures() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    let compile_error =
        exited(101).with_tail("error[E0308]: mismatched types\nerror: could not compile `app`\n");
    check(
        "non-zero exit and no names: the tail is the reason",
        once(),
        std::slice::from_ref(&compile_error),
        Expect::Fail(&[]),
        &["without naming a test", "error[E0308]: mismatched types"],
    );
    check(
        "a build error every time",
        retries(1),
        &[compile_error.clone(), compile_error],
        Expect::Fail(&[]),
        &["every attempt failed"],
    );
    check(
        "exit 5 and no test ran",
        retries(2),
        &[exited(5).with_no_tests_ran(true).with_recognised(true)],
        Inc(NoTestsRan),
        &["exited with code 5 and the runner said that no test ran"],
    );
    check(
        "exit 5 and no test ran, but names found",
        once(),
        &[exited(5).with_no_tests_ran(true).with_failing(["a"])],
        Expect::Fail(&["a"]),
        &[],
    );
    for code in [124, 125, 137] {
        check(
            &format!("exit code {code} from the command itself"),
            once(),
            &[exited(code)],
            Expect::Fail(&[]),
            &[&format!("exit code {code}")],
        );
    }
    for (code, says) in [(126, "cannot be executed"), (127, "a command is not found")] {
        check(
            &format!("exit code {code} and no test evidence: the runner would not start"),
            retries(2),
            &[exited(code).with_tail(format!("sh: 1: jest: {says}\n"))],
            Inc(WouldNotStart),
            &[
                &format!("exited with code {code}, what a shell"),
                says,
                "the runner would not start",
            ],
        );
    }
    check(
        "exit code 127 after tests ran: a failure, with the hint",
        once(),
        &[exited(127)
            .with_counts(Counts::new(Some(10), Some(0), None))
            .with_recognised(true)],
        Expect::Fail(&[]),
        &["exit code 127 is what a shell reports when a command is not found"],
    );
    check(
        "exit code 127 naming a failing test: a failure",
        once(),
        &[exited(127).with_failing(["a"])],
        Expect::Fail(&["a"]),
        &[],
    );
    check(
        "137 hints at SIGKILL",
        once(),
        &[exited(137)],
        Expect::Fail(&[]),
        &["signal 9 (SIGKILL)"],
    );
    check(
        "different names, some every time",
        retries(2),
        &[fail(&["a", "b"]), fail(&["a", "c"]), fail(&["c", "a"])],
        Expect::Fail(&["a"]),
        &[
            "a\nb (failed only sometimes: in 1 of 3 attempts)\nc (failed only sometimes: in 2 of 3 attempts)",
        ],
    );
    check(
        "different names, none every time: known at once",
        retries(3),
        &[fail(&["a"]), fail(&["b"])],
        Inc(Flaky),
        &["no test failed in all of them"],
    );
    check(
        "a nameless failure neither confirms nor clears a name",
        retries(1),
        &[fail(&["a"]), exited(101)],
        Expect::Fail(&["a"]),
        &[],
    );
}

fn no_network() -> Environment {
    Environment::new(
        "cargo could not download the crate index: the network is off",
        "pass --allow-network, or fetch the dependencies first with --prepare 'cargo fetch'",
    )
}

#[test]
fn refinements_of_the_environment() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    let offline = exited(101)
        .with_environment(no_network())
        .with_tail("error: failed to get `rand` as a dependency\n");
    check(
        "the environment failed before the tests",
        retries(2),
        std::slice::from_ref(&offline),
        Inc(Environment),
        &[
            "cargo could not download the crate index",
            "the environment failed, not the code",
        ],
    );
    let reason = once()
        .verdict(std::slice::from_ref(&offline))
        .reason()
        .to_owned();
    assert!(
        reason.starts_with("pass --allow-network, or fetch"),
        "the fix leads:\n{reason}"
    );
    check(
        "a failing test named: a failure, whatever the output says of the environment",
        once(),
        &[fail(&["tests::fetches"]).with_environment(no_network())],
        Expect::Fail(&["tests::fetches"]),
        &[],
    );
    check(
        "exit 0: the runner passed, the environment evidence is not a failure",
        once(),
        &[pass().with_environment(no_network())],
        Expect::Pass,
        &[],
    );
    check(
        "a retry that meets the environment stops the sequence",
        targeted(2),
        &[fail(&["a"]), offline.with_selection(select(&["a"]))],
        Inc(Environment),
        &["a (failed in 1 of 2 attempts)"],
    );
    // testgate ended the attempt at a flood of connections the sandbox
    // refused (Landlock without a network namespace): no exit of its own,
    // the environment's evidence, the fix first.
    let flooded = Attempt::new(Ending::SandboxRefused {
        why: "the suite's connections were refused".into(),
    })
    .with_environment(testgate_policy::Environment::new(
        "the suite's connections to servers it starts itself were refused",
        "pass --allow-network",
    ));
    check(
        "an attempt ended for refused connections is the environment",
        retries(2),
        std::slice::from_ref(&flooded),
        Inc(Environment),
        &[
            "was refused by its environment",
            "the environment failed, not the code",
        ],
    );
    let reason = once()
        .verdict(std::slice::from_ref(&flooded))
        .reason()
        .to_owned();
    assert!(
        reason.starts_with("pass --allow-network"),
        "the fix leads:\n{reason}"
    );
    check(
        "a refusal without the environment's evidence stays the sandbox's",
        once(),
        &[Attempt::new(Ending::SandboxRefused {
            why: "bwrap: No permissions to create new namespace".into(),
        })],
        Inc(SandboxRefused),
        &["No permissions"],
    );
}

#[test]
fn refinements_of_truncated_output() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    let forged = exited(0)
        .with_recognised(true)
        .with_truncated(true)
        .with_counts(Counts::new(Some(1), None, None))
        .with_tail("running 2 tests\ntest tests::a ... ok\n");
    check(
        "exit 0, but the output ended before its summary",
        retries(2),
        &[forged],
        Inc(Truncated),
        &["the runner's output ended before its summary"],
    );
    check(
        "a non-zero exit that ended before its summary is a failure",
        once(),
        &[fail(&["a"]).with_truncated(true)],
        Expect::Fail(&["a"]),
        &[],
    );
}

#[test]
fn refinements_of_flakiness_within_an_attempt() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    // nextest --retries: exit 0, the flaky test listed failing and flaky.
    let nextest = exited(0)
        .with_recognised(true)
        .with_failing(["fails_once"])
        .with_counts(Counts::new(Some(1), Some(0), None))
        .with_flaky_within(["fails_once"], 0);
    check(
        "a runner's own retry that passed is flaky, even alone",
        once(),
        &[nextest],
        Inc(Flaky),
        &[
            "fails_once (failed, then passed within one attempt)",
            "the suite is flaky",
        ],
    );
    // go test -count=3: go fails the package for the one failed run.
    let go = fail(&["TestFailsOnce"]).with_flaky_within(["TestFailsOnce"], 0);
    check(
        "a failure that passed on a repeated run is flaky, not a failure",
        retries(2),
        &[go],
        Inc(Flaky),
        &["1 test failed and then passed within it"],
    );
    // pytest -q --reruns: nothing named, only counted.
    let quiet = exited(0)
        .with_recognised(true)
        .with_counts(Counts::new(Some(2), Some(0), None))
        .with_flaky_within(Vec::<String>::new(), 1);
    check(
        "re-runs counted without names, every test passed: flaky",
        once(),
        &[quiet],
        Inc(Flaky),
        &["re-ran failed tests 1 time and they passed"],
    );
    // A test that failed every time beside a flaky one: still a failure.
    let mixed = fail(&["always", "fails_once"]).with_flaky_within(["fails_once"], 2);
    check(
        "a steady failure beside a flaky test is a failure",
        once(),
        &[mixed],
        Expect::Fail(&["always", "fails_once"]),
        &[],
    );
    // Re-runs of a test that failed in the end, with a non-zero exit.
    let failed = fail(&["always"]).with_flaky_within(Vec::<String>::new(), 1);
    check(
        "re-runs of a test that failed in the end are a failure",
        once(),
        &[failed],
        Expect::Fail(&["always"]),
        &[],
    );
}

#[test]
fn a_crashed_test_binary_is_said_after_the_names() {
    use Expect::Fail;
    const CRASH: &str = "the test binary of example.com/p died (panic) while TestB was running";
    let crashed = || exited(1).with_recognised(true).with_crashes([CRASH]);
    let reason = once().verdict(&[crashed()]).reason().to_owned();
    assert!(
        reason.starts_with(&format!("{CRASH}\nattempt 1 failed without naming a test")),
        "a Fail without names leads with the crash:\n{reason}"
    );
    check(
        "every attempt's binary died",
        retries(1),
        &[crashed(), crashed()],
        Fail(&[]),
        &[&format!("{CRASH} (attempts 1, 2)\n")],
    );
    // Another package's named failure leads; the crash follows the names.
    let both = || run(1, &["TestA"]).with_crashes([CRASH]);
    let verdict = once().verdict(&[both()]);
    assert!(matches(&verdict, &Fail(&["TestA"])));
    assert!(
        verdict.reason().starts_with(&format!("TestA\n{CRASH}\n")),
        "{}",
        verdict.reason()
    );
}

#[test]
fn a_timeout_names_the_tests_that_were_running() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    let hung = Attempt::new(Ending::TimedOut {
        after: std::time::Duration::from_secs(600),
    })
    .with_recognised(true)
    .with_running(["tests::hangs"]);
    check(
        "the reason leads with the test that hung",
        retries(2),
        &[hung],
        Inc(TimedOut),
        &["tests::hangs (running when the attempt timed out)\n"],
    );
}

#[test]
fn refinements_of_signals() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    for (signal, name) in [
        (9, "SIGKILL"),
        (15, "SIGTERM"),
        (2, "SIGINT"),
        (1, "SIGHUP"),
        (3, "SIGQUIT"),
        (24, "SIGXCPU"),
        (40, "40"),
    ] {
        check(
            &format!("ended by {name}"),
            retries(2),
            &[signalled(signal, &[])],
            Inc(KilledFromOutside),
            &[name, "from outside"],
        );
    }
    for (signal, name) in [
        (11, "SIGSEGV"),
        (6, "SIGABRT"),
        (7, "SIGBUS"),
        (8, "SIGFPE"),
        (4, "SIGILL"),
        (5, "SIGTRAP"),
    ] {
        check(
            &format!("crashed by {name}"),
            once(),
            &[signalled(signal, &[])],
            Expect::Fail(&[]),
            &[name, "crashed"],
        );
    }
    check(
        "crashed after naming failures",
        once(),
        &[signalled(11, &["a"])],
        Expect::Fail(&["a"]),
        &["crashed with signal 11 (SIGSEGV) after failing 1 test"],
    );
    check(
        "ended by SIGSYS",
        once(),
        &[signalled(31, &[])],
        Inc(SandboxRefused),
        &["forbade a system call"],
    );
    check(
        "cancelled",
        retries(2),
        &[fail(&["a"]), Attempt::new(Ending::Cancelled)],
        Inc(Cancelled),
        &["was interrupted"],
    );
    check(
        "lost after it started (testgate could not read its output)",
        retries(2),
        &[Attempt::new(Ending::Lost {
            why: "running `cargo` failed: Input/output error".into(),
        })],
        Inc(Cancelled),
        &["was lost after it started", "Input/output error"],
    );
}

/// A run whose tests all passed but which the runner failed because
/// coverage was below its threshold (jest's `coverageThreshold`,
/// pytest-cov's `--cov-fail-under`).
fn coverage_below(selection: Option<&[&str]>, passed: u64) -> Attempt {
    let attempt = exited(1)
        .with_counts(Counts::new(Some(passed), Some(0), None))
        .with_recognised(true)
        .with_coverage_below_threshold(true)
        .with_tail(format!("Jest: \"global\" coverage threshold for lines (100%) not met: 50%\nTests:       {passed} passed, {passed} total\n"));
    match selection {
        Some(names) => attempt.with_selection(select(names)),
        None => attempt,
    }
}

#[test]
fn refinements_of_coverage() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    check(
        "every test passed, the runner failed the run for coverage",
        retries(1),
        &[coverage_below(None, 10), coverage_below(None, 10)],
        Expect::Fail(&[]),
        &["all 10 tests passed; the runner failed the run: coverage below threshold"],
    );
    check(
        "a targeted retry cannot meet a global threshold: its tests passed",
        targeted(2),
        &[fail(&["a"]), coverage_below(Some(&["a"]), 1), pass()],
        Inc(Flaky),
        &["attempt 2 (only 1 test) passed"],
    );
    check(
        "a targeted retry that fails for real under a threshold still fails",
        targeted(1),
        &[
            fail(&["a"]),
            only(&["a"], &["a"]).with_coverage_below_threshold(true),
        ],
        Expect::Fail(&["a"]),
        &[],
    );
    check(
        "a failed test and coverage: the names decide",
        retries(1),
        &[
            fail(&["a"]).with_coverage_below_threshold(true),
            fail(&["a"]).with_coverage_below_threshold(true),
        ],
        Expect::Fail(&["a"]),
        &[],
    );
    check(
        "a failure, then a full run whose tests all passed but missed coverage: flaky",
        retries(1),
        &[fail(&["a"]), coverage_below(None, 10)],
        Inc(Flaky),
        &[],
    );
    check(
        "jest -t nomatch under a threshold: no test ran",
        retries(2),
        &[exited(1)
            .with_counts(Counts::new(Some(0), Some(0), Some(3)))
            .with_recognised(true)
            .with_coverage_below_threshold(true)],
        Inc(NoTestsRan),
        &["its summary counts no test run"],
    );
    check(
        "coverage below threshold with no test counted is not 'all passed'",
        once(),
        &[exited(1).with_coverage_below_threshold(true)],
        Expect::Fail(&[]),
        &["the cause is at the end of the output"],
    );
}

#[test]
fn refinements_of_suites() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    // nextest's fail-fast, `pytest -x`, `--maxfail`, `jest --bail` and
    // `go test -failfast` stop after a timing-dependent number of tests:
    // failing names that agree decide, whatever the totals.
    let fewer = |names: &[&str], passed| {
        fail(names).with_counts(Counts::new(Some(passed), Some(names.len() as u64), None))
    };
    check(
        "fail-fast: the same test fails every time, the totals differ",
        retries(2),
        &[fail(&["a"]), fewer(&["a"], 3), fewer(&["a", "b"], 6)],
        Expect::Fail(&["a"]),
        &[
            "every attempt failed",
            "b (failed only sometimes: in 1 of 3 attempts)",
        ],
    );
    // `pytest --lf`: the first run runs the whole suite, the next only the
    // tests that failed last time; the command is the same.
    let last_failed = fail(&["a", "b"]).with_counts(Counts::new(Some(0), Some(2), None));
    check(
        "pytest --lf: the second run ran only the last failures",
        retries(1),
        &[fewer(&["a", "b"], 1989), last_failed],
        Expect::Fail(&["a", "b"]),
        &["every attempt failed"],
    );
    // What different suites must mean: no name failed every time, and the
    // attempts did not run the same tests, so their names cannot be
    // compared (a fail-fast run that stopped before reaching the test that
    // failed the first time).
    check(
        "the failing attempts ran different suites and agree on no name",
        retries(2),
        &[fail(&["a"]), fewer(&["b"], 8)],
        Inc(DifferentSuites),
        &["attempt 1 ran 10 tests and attempt 2 ran 9"],
    );
    let nameless = |passed| {
        exited(1)
            .with_counts(Counts::new(Some(passed), Some(1), None))
            .with_recognised(true)
    };
    check(
        "nameless failures of different suites",
        retries(2),
        &[nameless(9), nameless(4)],
        Inc(DifferentSuites),
        &["attempt 1 ran 10 tests and attempt 2 ran 5"],
    );
    // cargo test stops at the first failing test binary, jest --bail and
    // pytest -x stop early: a failing attempt runs fewer tests than a
    // passing one of the same suite, and that is no different suite.
    let more_passing = pass().with_counts(Counts::new(Some(11), Some(0), None));
    check(
        "a failing run that stopped early and a pass: flaky, not different suites",
        retries(2),
        &[fail(&["a"]), more_passing],
        Inc(Flaky),
        &["attempt 1 failed 1 test", "attempt 2 passed"],
    );

    let crash =
        |passed| signalled(11, &["a"]).with_counts(Counts::new(Some(passed), Some(1), None));
    check(
        "a crash cuts the counts short: not a different suite",
        retries(1),
        &[crash(3), crash(5)],
        Expect::Fail(&["a"]),
        &[],
    );
}

#[test]
fn rerun_failed() {
    use Cause::*;
    use Expect::Inconclusive as Inc;
    check(
        "targeted retries that fail every time",
        targeted(2),
        &[
            fail(&["a", "b"]),
            only(&["a", "b"], &["a", "b"]),
            only(&["a", "b"], &["b", "a"]),
        ],
        Expect::Fail(&["a", "b"]),
        &["attempt 2 (only 2 tests) failed 2 tests"],
    );
    check(
        "a targeted retry narrows to what failed every time",
        targeted(2),
        &[
            fail(&["a", "b"]),
            only(&["a", "b"], &["a"]),
            only(&["a"], &["a"]),
        ],
        Expect::Fail(&["a"]),
        &["b (failed only sometimes: in 1 of 3 attempts)"],
    );
    check(
        "no retry at all without retries",
        targeted(0),
        &[fail(&["a"])],
        Expect::Fail(&["a"]),
        &[],
    );
    check(
        "order dependence: passes alone, fails in the full suite",
        targeted(1),
        &[fail(&["a"]), only(&["a"], &[]), fail(&["a"])],
        Inc(OrderDependent),
        &[
            "fails in the full suite, passes alone",
            "passed when run alone (attempt 2)",
            "failed again in the full suite",
        ],
    );
    check(
        "a targeted pass confirmed by a full pass",
        targeted(1),
        &[fail(&["a"]), only(&["a"], &[]), pass()],
        Inc(Flaky),
        &[],
    );
    check(
        "a confirmation failing on other names",
        targeted(1),
        &[fail(&["a"]), only(&["a"], &[]), fail(&["b"])],
        Inc(Flaky),
        &["no test failed in every full run"],
    );
    check(
        "a targeted pass after a targeted failure is flaky at once",
        targeted(3),
        &[fail(&["a"]), only(&["a"], &["a"]), only(&["a"], &[])],
        Inc(Flaky),
        &[],
    );
    let mut no_counts = only(&["a"], &["a"]);
    no_counts.counts = None;
    check(
        "a targeted retry without counts is replaced by a full one",
        targeted(1),
        &[fail(&["a"]), no_counts.clone(), fail(&["a"])],
        Expect::Fail(&["a"]),
        &["did not show that its tests ran (its output stated no test counts)"],
    );
    check(
        "and the full one can pass",
        targeted(1),
        &[fail(&["a"]), no_counts.clone(), pass()],
        Inc(Flaky),
        &[],
    );
    check(
        "after one targeted retry that was not evidence, retries are full",
        targeted(2),
        &[fail(&["a"]), no_counts, fail(&["a"]), fail(&["a"])],
        Expect::Fail(&["a"]),
        &[],
    );
    let short = only(&["a", "b"], &["a"]).with_counts(Counts::new(Some(0), Some(1), None));
    check(
        "a targeted retry that ran fewer than it selected",
        targeted(1),
        &[fail(&["a", "b"]), short, fail(&["a", "b"])],
        Expect::Fail(&["a", "b"]),
        &["it ran 1 of the 2 tests it selected"],
    );
    let nothing = exited(5)
        .with_selection(select(&["a"]))
        .with_no_tests_ran(true);
    check(
        "a targeted retry where no test ran",
        targeted(1),
        &[fail(&["a"]), nothing, pass()],
        Inc(Flaky),
        &["the runner said that no test ran"],
    );
    check(
        "a nameless failure retries in full",
        targeted(1),
        &[exited(2), exited(2)],
        Expect::Fail(&[]),
        &[],
    );
}

#[test]
fn too_many_failures_are_all_named() {
    let many: Vec<String> = (0..=MAX_TARGETED).map(|i| format!("t{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let attempts = [fail(&many), fail(&many)];
    let policy = targeted(1);
    assert_eq!(policy.step(&attempts[..1]), Step::Run(Selection::Full));
    assert_eq!(policy.verdict(&attempts).failing(), many);
}

#[test]
fn notes_say_why_a_targeted_policy_runs_the_full_suite() {
    let policy = targeted(2);
    let note = |attempts: &[Attempt]| policy.plan(attempts).note.unwrap_or_default();
    assert_eq!(policy.plan(&[fail(&["a"])]).note, None);
    assert!(note(&[exited(2)]).contains("named no test"));
    let many: Vec<String> = (0..=MAX_TARGETED).map(|i| format!("t{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert!(note(&[fail(&many)]).contains("more than the 10"));
    let ignored = exited(0).with_selection(select(&["a"]));
    assert!(note(&[fail(&["a"]), ignored]).contains("stated no test counts"));
    assert!(note(&[fail(&["a"]), only(&["a"], &[])]).contains("order dependence"));
}

#[test]
fn sequences_cut_short() {
    let policy = targeted(3);
    let nothing = policy.verdict(&[]);
    assert_eq!(nothing.cause(), Some(Cause::NoTestsRan));
    assert_eq!(policy.verdict(&[fail(&["a"])]).failing(), ["a"]);
    let unconfirmed = policy.verdict(&[fail(&["a"]), only(&["a"], &[])]);
    assert_eq!(unconfirmed.cause(), Some(Cause::Flaky));
    assert!(
        unconfirmed
            .reason()
            .contains("the full suite was not run again")
    );
}

// ---------------------------------------------------------------------------
// Snapshots: the reason of each cause, as a reader sees it.

#[test]
fn reasons() {
    let snap = |name: &str, policy: Policy, attempts: &[Attempt]| {
        let verdict = policy.verdict(attempts);
        insta::assert_snapshot!(
            name,
            format!("{}\n---\n{}", verdict.name(), verdict.reason())
        );
    };
    snap("pass", once(), &[pass()]);
    snap(
        "pass_unrecognised_leaked",
        once(),
        &[exited(0).with_tail("OK\n").with_leaked_processes(true)],
    );
    snap(
        "fail",
        retries(1),
        &[
            fail(&["tests::a", "tests::b"]),
            fail(&["tests::a", "tests::b"]),
        ],
    );
    snap(
        "fail_sometimes",
        retries(1),
        &[fail(&["tests::a", "tests::b"]), fail(&["tests::a"])],
    );
    snap(
        "fail_no_names",
        once(),
        &[exited(101).with_tail("error: could not compile `app`\n")],
    );
    snap("fail_crash", once(), &[signalled(11, &[])]);
    snap(
        "fail_exit_137",
        once(),
        &[exited(137).with_tail("Killed\n")],
    );
    snap(
        "order_dependent",
        targeted(1),
        &[
            fail(&["tests::a"]),
            only(&["tests::a"], &[]),
            fail(&["tests::a"]),
        ],
    );
    snap(
        "flaky",
        retries(1),
        &[fail(&["tests::a", "tests::b", "tests::c"]), pass()],
    );
    snap(
        "flaky_no_common_name",
        retries(2),
        &[fail(&["tests::a"]), fail(&["tests::b"])],
    );
    snap("timed_out", retries(1), &[fail(&["tests::a"]), timed_out()]);
    snap(
        "sandbox_refused",
        once(),
        &[Attempt::new(Ending::SandboxRefused {
            why: "bwrap: setting up uid map: Permission denied".into(),
        })],
    );
    snap(
        "would_not_start",
        once(),
        &[Attempt::new(Ending::WouldNotStart {
            why: "no such file or directory: pytest".into(),
        })],
    );
    snap(
        "no_tests_ran",
        once(),
        &[exited(5)
            .with_no_tests_ran(true)
            .with_tail("no tests ran in 0.01s\n")],
    );
    snap("contradiction", once(), &[run(0, &["tests::a"])]);
    snap("killed_from_outside", once(), &[signalled(9, &[])]);
    snap(
        "would_not_start_exit_127",
        once(),
        &[exited(127).with_tail("sh: 1: jest: not found\n")],
    );
    snap(
        "environment",
        retries(2),
        &[exited(101)
            .with_environment(no_network())
            .with_tail("error: failed to get `rand` as a dependency of package `app`\n")],
    );
    snap(
        "truncated",
        retries(2),
        &[exited(0)
            .with_recognised(true)
            .with_truncated(true)
            .with_tail("running 2 tests\ntest tests::a ... ok\n")],
    );
    snap(
        "truncated_report_missing",
        retries(2),
        &[exited(0)
            .with_recognised(true)
            .with_counts(Counts::new(Some(1), Some(0), None))
            .with_evidence(Evidence::ReportMissing)
            .with_tail("test_x.py F.\n1 passed in 0.01s\n")],
    );
    snap(
        "no_report_under_evidence_report",
        retries(2),
        &[exited(0)
            .with_recognised(true)
            .with_counts(Counts::new(Some(2), Some(0), None))
            .with_evidence(Evidence::Unasked)
            .with_tail("ok  \texample.com/m/p\t0.002s\n")],
    );
    snap(
        "contradiction_console_names_failures",
        retries(2),
        &[exited(0)
            .with_recognised(true)
            .with_counts(Counts::new(Some(2), Some(0), Some(0)))
            .with_evidence(Evidence::Report {
                console_failing: vec!["test_x.py::test_a".to_owned()],
                console_counts: Some(Counts::new(Some(1), Some(1), None)),
            })
            .with_tail("FAILED test_x.py::test_a - assert 0\n1 failed, 1 passed in 0.01s\n")],
    );
    snap(
        "different_suites",
        retries(1),
        &[
            fail(&["tests::a"]),
            fail(&["tests::b"]).with_counts(Counts::new(Some(7), Some(1), None)),
        ],
    );
    snap(
        "fail_fast_names_agree",
        retries(1),
        &[
            fail(&["tests::a"]),
            fail(&["tests::a"]).with_counts(Counts::new(Some(3), Some(1), None)),
        ],
    );
    snap(
        "fail_coverage_below_threshold",
        retries(1),
        &[coverage_below(None, 12), coverage_below(None, 12)],
    );
    snap(
        "cancelled",
        retries(1),
        &[Attempt::new(Ending::Cancelled).with_tail("running 10 tests\n")],
    );
    let mut no_counts = only(&["tests::a"], &["tests::a"]);
    no_counts.counts = None;
    snap(
        "targeted_not_evidence",
        targeted(1),
        &[
            fail(&["tests::a"]),
            no_counts,
            fail(&["tests::a"]).with_note("the targeted retry did not show its tests ran"),
        ],
    );
}

#[test]
fn a_long_reason_keeps_the_names_and_the_end_of_the_output() {
    let names: Vec<String> = (0..200).map(|i| format!("tests::case_{i:03}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tail = format!(
        "{}\ntest result: FAILED. 0 passed; 200 failed\n",
        "noise\n".repeat(5000)
    );
    let verdict = once().verdict(&[fail(&names).with_tail(tail)]);
    let reason = verdict.reason();
    assert!(reason.len() <= MAX_REASON);
    assert!(reason.starts_with("tests::case_000\n"));
    assert!(reason.contains(&format!(
        "tests::case_{:03}\nand {} more",
        MAX_NAMES - 1,
        200 - MAX_NAMES
    )));
    assert!(reason.ends_with("test result: FAILED. 0 passed; 200 failed"));
    assert_eq!(verdict.failing().len(), 200);
}

// ---------------------------------------------------------------------------
// Laws.

fn name_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["a", "b", "c", "d", "tests::é"]).prop_map(str::to_owned),
        1 => "[a-zé:_]{1,40}",
        1 => Just("x".repeat(700)),
    ]
}

fn ending_strategy() -> impl Strategy<Value = Ending> {
    prop_oneof![
        8 => prop::sample::select(vec![0, 0, 0, 1, 2, 5, 101, 124, 127, 137]).prop_map(|code| Ending::Exited { code }),
        2 => prop::sample::select(vec![1, 2, 3, 4, 6, 9, 11, 13, 15, 31, 40]).prop_map(|signal| Ending::Signalled { signal }),
        1 => (0u64..1000).prop_map(|s| Ending::TimedOut { after: Duration::from_secs(s) }),
        1 => ".{0,20}".prop_map(|why| Ending::SandboxRefused { why }),
        1 => ".{0,20}".prop_map(|why| Ending::WouldNotStart { why }),
        1 => Just(Ending::Cancelled),
        1 => ".{0,20}".prop_map(|why| Ending::Lost { why }),
    ]
}

fn attempt_strategy() -> impl Strategy<Value = Attempt> {
    (
        ending_strategy(),
        prop::collection::vec(name_strategy(), 0..4),
        prop::option::weighted(
            0.8,
            (
                prop::option::of(0u64..20),
                prop::option::of(0u64..5),
                prop::option::of(0u64..3),
            ),
        ),
        prop::bool::weighted(0.1),
        any::<bool>(),
        prop_oneof![3 => ".{0,80}", 1 => ".{0,40}".prop_map(|s| s.repeat(300))],
        prop::bool::weighted(0.1),
        prop::option::weighted(0.1, ".{0,40}"),
        (
            prop::option::weighted(0.1, (".{0,40}", ".{0,40}")),
            prop::bool::weighted(0.1),
            prop::bool::weighted(0.1),
        ),
    )
        .prop_map(
            |(
                ending,
                failing,
                counts,
                no_tests_ran,
                recognised,
                tail,
                leaked,
                note,
                (environment, truncated, coverage),
            )| {
                let mut failing = failing;
                failing.dedup();
                let mut attempt = Attempt::new(ending)
                    .with_failing(failing)
                    .with_no_tests_ran(no_tests_ran)
                    .with_recognised(recognised)
                    .with_tail(tail)
                    .with_leaked_processes(leaked);
                if let Some((p, f, s)) = counts {
                    attempt = attempt.with_counts(Counts::new(p, f, s));
                }
                if let Some(note) = note {
                    attempt = attempt.with_note(note);
                }
                attempt
                    .with_environment(environment.map(|(what, fix)| Environment::new(what, fix)))
                    .with_truncated(truncated)
                    .with_coverage_below_threshold(coverage)
            },
        )
}

fn policy_strategy() -> impl Strategy<Value = Policy> {
    (0u32..5, any::<bool>()).prop_map(|(k, failed)| {
        Policy::new(k).with_rerun(if failed { Rerun::Failed } else { Rerun::All })
    })
}

fn selected(attempt: &Attempt) -> Option<u64> {
    match &attempt.selection {
        Selection::Full => None,
        Selection::Only(names) => Some(
            names
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len() as u64,
        ),
    }
}

/// The test's own reading of an attempt, independent of the crate's.
fn is_evidence(a: &Attempt) -> bool {
    match selected(a) {
        None => true,
        Some(n) => !a.no_tests_ran && a.counts.and_then(|c| c.ran()).is_some_and(|ran| ran >= n),
    }
}

/// A non-zero exit that the policy does not read as a failure of the code:
/// the environment, a runner that said no test ran, a shell that found no
/// runner. Only when no failing test is named.
fn exit_explained(a: &Attempt, code: i32) -> bool {
    a.failing.is_empty()
        && (a.environment.is_some()
            || a.no_tests_ran
            || coverage_ran_nothing(a)
            || ([126, 127].contains(&code) && a.counts.and_then(|c| c.ran()).unwrap_or(0) == 0))
}

/// Failed for coverage, and its summary counts no test run (`jest -t
/// nomatch` under a threshold).
fn coverage_ran_nothing(a: &Attempt) -> bool {
    a.coverage_below_threshold && a.counts.and_then(|c| c.ran()) == Some(0)
}

/// A targeted attempt whose selected tests all passed but which the runner
/// failed for coverage: a subset cannot meet a global threshold.
fn coverage_pass(a: &Attempt) -> bool {
    selected(a).is_some()
        && matches!(a.ending, Ending::Exited { code } if code != 0)
        && a.coverage_below_threshold
        && a.failing.is_empty()
        && a.counts
            .is_some_and(|c| c.passed.is_some_and(|p| p > 0) && c.failed.unwrap_or(0) == 0)
}

/// The names that every failing attempt naming failures named.
fn common_names(attempts: &[Attempt]) -> Vec<String> {
    let all_passed = |a: &Attempt| {
        a.coverage_below_threshold
            && a.failing.is_empty()
            && a.counts
                .is_some_and(|c| c.passed.is_some_and(|p| p > 0) && c.failed.unwrap_or(0) == 0)
    };
    let named: Vec<&Attempt> = attempts
        .iter()
        .filter(|a| !a.failing.is_empty() || all_passed(a))
        .collect();
    let Some(first) = named.first() else {
        return Vec::new();
    };
    let mut seen = std::collections::HashSet::new();
    first
        .failing
        .iter()
        .filter(|n| seen.insert(n.as_str()) && named.iter().all(|a| a.failing.contains(n)))
        .cloned()
        .collect()
}

fn passed(a: &Attempt) -> bool {
    (coverage_pass(a) && is_evidence(a)) || passed_with_zero(a)
}

fn passed_with_zero(a: &Attempt) -> bool {
    a.ending == Ending::Exited { code: 0 }
        && a.failing.is_empty()
        && !a.truncated
        && !a.no_tests_ran
        && a.counts.and_then(|c| c.ran()) != Some(0)
        && is_evidence(a)
}

fn failed(a: &Attempt) -> bool {
    let failure = match a.ending {
        Ending::Exited { code } => code != 0 && !exit_explained(a, code) && !coverage_pass(a),
        Ending::Signalled { signal } => [4, 5, 6, 7, 8, 11].contains(&signal),
        Ending::TimedOut { .. }
        | Ending::SandboxRefused { .. }
        | Ending::WouldNotStart { .. }
        | Ending::Cancelled
        | Ending::Lost { .. } => false,
    };
    failure && is_evidence(a)
}

/// An attempt after which nothing more can be learnt.
fn ends_the_sequence(a: &Attempt) -> bool {
    match a.ending {
        Ending::Exited { code: 0 } => {
            !a.failing.is_empty() || (selected(a).is_none() && !passed(a))
        }
        Ending::Exited { code } => {
            // A shell that found no runner (126/127 and no test counted)
            // ends it even when targeted; a targeted "no test ran" does not.
            let shell =
                [126, 127].contains(&code) && a.counts.and_then(|c| c.ran()).unwrap_or(0) == 0;
            exit_explained(a, code)
                && !(selected(a).is_some()
                    && (a.no_tests_ran || coverage_ran_nothing(a))
                    && a.environment.is_none()
                    && !shell)
        }
        Ending::Signalled { signal } => ![4, 5, 6, 7, 8, 11].contains(&signal),
        Ending::TimedOut { .. }
        | Ending::SandboxRefused { .. }
        | Ending::WouldNotStart { .. }
        | Ending::Cancelled
        | Ending::Lost { .. } => true,
    }
}

fn check_reason(verdict: &Verdict) -> Result<(), TestCaseError> {
    let reason = verdict.reason();
    prop_assert!(
        reason.len() <= MAX_REASON,
        "reason of {} bytes",
        reason.len()
    );
    if let Some(first) = verdict.failing().first() {
        let head: String = first.chars().take(100).collect();
        prop_assert!(
            reason.starts_with(&head),
            "a Fail leads with its names:\n{reason}"
        );
        let tail_at = reason.find("the end of the output").unwrap_or(reason.len());
        for name in verdict
            .failing()
            .iter()
            .take(MAX_NAMES)
            .filter(|n| n.len() < 100)
        {
            let at = reason.find(name.as_str());
            prop_assert!(
                at.is_some_and(|at| at < tail_at),
                "{name} before the tail:\n{reason}"
            );
        }
    }
    Ok(())
}

/// The findings agree with the verdict they come with.
fn check_findings(
    policy: &Policy,
    attempts: &[Attempt],
    verdict: &Verdict,
) -> Result<(), TestCaseError> {
    let (again, findings) = policy.verdict_with_findings(attempts);
    prop_assert_eq!(&again, verdict);
    match verdict {
        Verdict::Fail { failing, .. } => {
            prop_assert_eq!(&findings.always_failed, failing);
            prop_assert!(findings.stopped_by.is_none());
            prop_assert!(findings.order_dependence.is_none());
        }
        Verdict::Pass { .. } => {
            prop_assert!(findings.always_failed.is_empty());
            prop_assert!(findings.stopped_by.is_none());
        }
        Verdict::Inconclusive { cause, .. } => {
            prop_assert_eq!(
                *cause == Cause::OrderDependent,
                findings.order_dependence.is_some(),
                "{:?}",
                findings
            );
            if let Some(order) = &findings.order_dependence {
                prop_assert_eq!(&order.names, &findings.always_failed);
                prop_assert!(order.passed_alone_in < order.failed_again_in);
            }
            if let Some(stop) = findings.stopped_by {
                // From the conclusion: the attempt that stopped the
                // sequence gave the cause (two passes of one selection that
                // differ end it before a later attempt could stop it).
                prop_assert_eq!(stop.cause, *cause);
            }
        }
    }
    for s in &findings.sometimes_failed {
        prop_assert!(s.failed_in >= 1 && s.failed_in < s.out_of, "{:?}", s);
        prop_assert!(!findings.always_failed.contains(&s.name));
    }
    Ok(())
}

#[test]
fn findings_say_what_the_reason_says() {
    let f = targeted(1).findings(&[fail(&["a", "b"]), only(&["a"], &[]), fail(&["a"])]);
    // The full runs decide: b failed in one of the two.
    let order = f.order_dependence.expect("order dependence");
    assert_eq!(order.names, ["a"]);
    assert_eq!((order.passed_alone_in, order.failed_again_in), (2, 3));
    assert_eq!(f.always_failed, ["a"]);
    assert_eq!(f.sometimes_failed.len(), 1);
    assert_eq!(f.sometimes_failed[0].name, "b");
    assert_eq!(
        (
            f.sometimes_failed[0].failed_in,
            f.sometimes_failed[0].out_of
        ),
        (1, 2)
    );

    let f = retries(2).findings(&[fail(&["a"]), timed_out()]);
    let stop = f.stopped_by.expect("stopped");
    assert_eq!((stop.attempt, stop.cause), (2, Cause::TimedOut));
    assert!(f.always_failed.is_empty());

    let f = targeted(1).findings(&[fail(&["a"]), fail(&["a"]).with_note("why")]);
    assert_eq!(f.notes.len(), 1);
    assert_eq!((f.notes[0].attempt, f.notes[0].text.as_str()), (2, "why"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The driver, fed arbitrary results for the selections it asks for.
    #[test]
    fn the_driver_obeys_its_laws(policy in policy_strategy(), results in prop::collection::vec(attempt_strategy(), 1..12)) {
        let mut attempts: Vec<Attempt> = Vec::new();
        let verdict = loop {
            match policy.step(&attempts) {
                Step::Done(verdict) => break verdict,
                Step::Run(selection) => {
                    // Never another attempt once the answer is known.
                    prop_assert!(!attempts.iter().any(ends_the_sequence), "asked again after {attempts:#?}");
                    prop_assert!(!attempts.iter().any(|a| passed(a) && selected(a).is_none()), "asked again after a full pass");
                    if policy.rerun == Rerun::All {
                        prop_assert_eq!(&selection, &Selection::Full);
                    }
                    let result = results[attempts.len() % results.len()].clone();
                    attempts.push(result.with_selection(selection));
                    prop_assert!(attempts.len() as u64 <= policy.max_attempts());
                }
            }
        };
        prop_assert!(attempts.len() as u64 <= policy.max_attempts());
        if policy.retries == 0 {
            prop_assert_eq!(attempts.len(), 1);
        }
        if policy.rerun == Rerun::All {
            prop_assert!(attempts.len() as u64 <= u64::from(policy.retries) + 1);
        }
        prop_assert_eq!(&verdict, &policy.verdict(&attempts));
        check_findings(&policy, &attempts, &verdict)?;
        // The findings of the decision are those of the verdict counted
        // over the attempts: on what the driver runs, the conclusion leaves
        // nothing out (`decide::tests::the_findings_rest_on_what_the_conclusion_rests_on`
        // shows a history it does not make).
        prop_assert_eq!(policy.findings(&attempts), testgate_policy::Findings::of(&attempts, &verdict));
        match &verdict {
            Verdict::Pass { .. } => {
                prop_assert_eq!(attempts.len(), 1);
                prop_assert!(passed(&attempts[0]));
            }
            Verdict::Fail { .. } => {
                // A Fail is only ever what every attempt agreed on.
                prop_assert!(!attempts.iter().any(passed));
                prop_assert!(!attempts.iter().any(ends_the_sequence));
            }
            Verdict::Inconclusive { cause: Cause::OrderDependent, .. } => {
                prop_assert!(attempts.iter().any(|a| passed(a) && selected(a).is_some()));
                prop_assert!(verdict.reason().contains("fails in the full suite, passes alone"));
            }
            Verdict::Inconclusive { .. } => {}
        }
        // Failing names that agree decide, whatever the totals.
        let common = common_names(&attempts);
        if attempts.iter().all(failed) && !common.is_empty() {
            prop_assert!(verdict.failing() == common.as_slice(), "{verdict:?}");
        }
        // Only "every attempt failed" needs every attempt.
        if attempts.iter().all(failed) && !matches!(verdict, Verdict::Inconclusive { .. }) {
            prop_assert!(attempts.len() as u64 > u64::from(policy.retries));
        }
        check_reason(&verdict)?;
    }

    /// Any sequence at all, selections included: no panic, the bound, and
    /// the laws that do not depend on who chose the selections.
    #[test]
    fn any_sequence(policy in policy_strategy(), attempts in prop::collection::vec(
        (attempt_strategy(), prop::option::weighted(0.3, prop::collection::vec(name_strategy(), 0..3))),
        0..10,
    )) {
        let attempts: Vec<Attempt> = attempts
            .into_iter()
            .map(|(a, only)| match only {
                Some(names) => a.with_selection(Selection::Only(names)),
                None => a,
            })
            .collect();
        let verdict = policy.verdict(&attempts);
        check_reason(&verdict)?;
        check_findings(&policy, &attempts, &verdict)?;
        match &verdict {
            Verdict::Pass { .. } => {
                prop_assert!(!attempts.iter().any(failed));
                prop_assert!(attempts.iter().any(passed));
                prop_assert!(!attempts.iter().any(|a| ends_the_sequence(a) && !(selected(a).is_some() && a.failing.is_empty())));
            }
            Verdict::Fail { .. } => {
                prop_assert!(!attempts.iter().any(passed));
            }
            Verdict::Inconclusive { .. } => {}
        }
        if attempts.len() as u64 >= policy.max_attempts() {
            prop_assert!(matches!(policy.step(&attempts), Step::Done(_)));
        }
    }
}

/// One of the three drivers, arbitrary.
fn driver_strategy() -> impl Strategy<Value = Box<dyn Driver>> {
    prop_oneof![
        policy_strategy().prop_map(|p| Box::new(p) as Box<dyn Driver>),
        (
            policy_strategy(),
            prop::collection::vec(name_strategy(), 0..3),
            prop::collection::vec(name_strategy(), 0..3),
        )
            .prop_map(|(p, must, keep)| {
                Box::new(Grader::new(p, Expectations::new(must, keep))) as Box<dyn Driver>
            }),
        (0u32..6).prop_map(|runs| Box::new(Stress::new(runs)) as Box<dyn Driver>),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// What every driver promises its caller: it never asks for more than
    /// its bound, and its findings agree with its verdict as docs/cli.md
    /// defines them (`always_failed` is a Fail's names, empty for a Pass).
    #[test]
    fn every_driver_keeps_its_bound_and_its_findings_agree(
        driver in driver_strategy(),
        results in prop::collection::vec(attempt_strategy(), 1..12),
    ) {
        let mut attempts: Vec<Attempt> = Vec::new();
        let verdict = loop {
            match driver.plan(&attempts).step {
                Step::Done(verdict) => break verdict,
                Step::Run(selection) => {
                    let result = results[attempts.len() % results.len()].clone();
                    attempts.push(result.with_selection(selection));
                    prop_assert!(attempts.len() as u64 <= driver.max_attempts());
                }
            }
        };
        prop_assert_eq!(&verdict, &driver.verdict(&attempts));
        let findings = driver.findings(&attempts);
        // From the driver's decision, they are what the verdict's are when
        // counted over the attempts.
        prop_assert_eq!(&findings, &testgate_policy::Findings::of(&attempts, &verdict));
        match &verdict {
            Verdict::Pass { .. } => prop_assert!(findings.always_failed.is_empty()),
            Verdict::Fail { failing, .. } => prop_assert_eq!(&findings.always_failed, failing),
            Verdict::Inconclusive { cause: Cause::OrderDependent, .. } => {}
            Verdict::Inconclusive { .. } => prop_assert!(findings.always_failed.is_empty()),
        }
        // `sometimes_failed` is the rest: never an always-failed name, each
        // failed in some of the attempts that could have named it, not all.
        for s in &findings.sometimes_failed {
            prop_assert!(!findings.always_failed.contains(&s.name), "{:?}", findings);
            prop_assert!(s.failed_in >= 1 && s.failed_in < s.out_of, "{:?}", s);
        }
        // `order_dependence` is there exactly for an order-dependent
        // verdict, and names its always-failed tests.
        prop_assert_eq!(
            verdict.cause() == Some(Cause::OrderDependent),
            findings.order_dependence.is_some(),
            "{:?}",
            findings
        );
        if let Some(order) = &findings.order_dependence {
            prop_assert_eq!(&order.names, &findings.always_failed);
        }
        // `stopped_by` names an attempt that ran; a cause only a stopping
        // attempt gives has it, with that cause; a verdict that rests on
        // the attempts' tests (a Pass, a Fail, order dependence) has none.
        if let Some(stop) = findings.stopped_by {
            prop_assert!(stop.attempt >= 1 && stop.attempt <= attempts.len(), "{:?}", stop);
        }
        match verdict.cause() {
            Some(
                cause @ (Cause::TimedOut
                | Cause::SandboxRefused
                | Cause::WouldNotStart
                | Cause::KilledFromOutside
                | Cause::Cancelled
                | Cause::Truncated
                | Cause::Environment
                | Cause::Contradiction
                | Cause::NoReport),
            ) => prop_assert_eq!(findings.stopped_by.map(|s| s.cause), Some(cause)),
            None | Some(Cause::OrderDependent) => {
                prop_assert!(findings.stopped_by.is_none(), "{:?} {:?}", verdict, findings);
            }
            Some(
                Cause::Flaky
                | Cause::NoTestsRan
                | Cause::DifferentSuites
                | Cause::PrepareFailed
                | Cause::TreeChanged
                | Cause::TreeUnreadable
                | Cause::NotRun,
            ) => {}
        }
        // The notes are the attempts' own, in order.
        let notes: Vec<usize> = findings.notes.iter().map(|n| n.attempt).collect();
        let noted: Vec<usize> = (1..=attempts.len()).filter(|&i| attempts[i - 1].note.is_some()).collect();
        prop_assert_eq!(notes, noted);
    }
}

#[test]
fn a_graded_pass_names_no_test_as_always_failed() {
    // The listed test passed; another failed in every attempt. The grade is
    // a Pass, so nothing is a Fail's name (it was: the findings were the
    // plain policy's, whose verdict is a Fail).
    let grader = Grader::new(
        Policy::new(1),
        Expectations::new(["tests::fixed"], Vec::<String>::new()),
    );
    let run = || {
        exited(1)
            .with_failing(["tests::other"])
            .with_recognised(true)
            .with_tests([
                ("tests::fixed", testgate_policy::TestResult::Passed),
                ("tests::other", testgate_policy::TestResult::Failed),
            ])
    };
    let mut attempts = Vec::new();
    while let Step::Run(selection) = Driver::plan(&grader, &attempts).step {
        attempts.push(run().with_selection(selection));
    }
    let verdict = Driver::verdict(&grader, &attempts);
    assert_eq!(verdict.name(), "pass", "{verdict:?}");
    assert!(
        Driver::findings(&grader, &attempts)
            .always_failed
            .is_empty()
    );
    assert_eq!(
        Policy::new(1).findings(&attempts).always_failed,
        ["tests::other"]
    );
}

#[test]
fn a_grade_reached_past_a_contradiction_names_no_stop() {
    // Attempt 1 exits 0 naming a failing test: a plain check stops there
    // (Inconclusive `contradiction`); a grader reads each test's outcome
    // and goes on. Its Fail was reached past that attempt, which ended
    // nothing: `stopped_by` said it did.
    let grader = Grader::new(
        Policy::new(1),
        Expectations::new(["tests::fixed"], Vec::<String>::new()),
    );
    let run = |code| {
        exited(code)
            .with_failing(["tests::fixed"])
            .with_recognised(true)
            .with_tests([("tests::fixed", testgate_policy::TestResult::Failed)])
    };
    let attempts = [run(0), run(1)];
    let verdict = Driver::verdict(&grader, &attempts);
    assert_eq!(verdict.failing(), ["tests::fixed"], "{verdict:?}");
    let findings = Driver::findings(&grader, &attempts);
    assert_eq!(findings.stopped_by, None, "{findings:?}");
    assert_eq!(findings.always_failed, ["tests::fixed"]);
    // The plain check stopped there, and says so.
    let plain = Policy::new(1).findings(&attempts);
    assert_eq!(
        plain.stopped_by.map(|s| (s.attempt, s.cause)),
        Some((1, Cause::Contradiction))
    );
}

#[test]
fn thousands_of_failing_names() {
    let names: Vec<String> = (0..20_000).map(|i| format!("tests::case_{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let same = Counts::new(Some(0), Some(20_000), None);
    let attempts = [
        fail(&names).with_counts(same),
        fail(&names[1..]).with_counts(same),
        fail(&names[2..]).with_counts(same),
    ];
    let verdict = retries(2).verdict(&attempts);
    assert_eq!(verdict.failing().len(), 20_000 - 2);
    assert!(verdict.reason().starts_with("tests::case_2\n"));
    assert!(verdict.reason().len() <= MAX_REASON);
}

// ---------------------------------------------------------------------------
// The tree changed (docs/policy.md, "The tree changed").

#[test]
fn a_tree_change_keeps_what_the_attempts_prove_but_a_pass() {
    use testgate_policy::{AfterTreeChange, Leftover};
    let proven = |names: &[&str]| AfterTreeChange::ProvenFailure {
        failing: names.iter().map(|n| (*n).to_owned()).collect(),
    };
    let nothing = Leftover::Nothing;
    // A failing test that wrote a tracked file: the Fail and its names.
    assert_eq!(
        once().after_tree_change(&[fail(&["a"])], nothing),
        proven(&["a"])
    );
    assert_eq!(
        retries(2).after_tree_change(&[fail(&["a", "b"]), fail(&["b"])], nothing),
        proven(&["b"])
    );
    // Each attempt started from the submitted tree: their disagreement is
    // theirs (the writer beside a flaky test).
    assert_eq!(
        retries(1).after_tree_change(&[fail(&["a"]), pass()], nothing),
        AfterTreeChange::VerdictStands
    );
    assert_eq!(
        retries(1).after_tree_change(&[fail(&["a"]), fail(&["b"])], nothing),
        AfterTreeChange::VerdictStands
    );
    // Where it must not keep the verdict.
    assert_eq!(
        once().after_tree_change(&[pass()], nothing),
        AfterTreeChange::NoEvidenceOfPass
    );
    assert_eq!(
        once().after_tree_change(&[run(101, &[])], nothing),
        AfterTreeChange::NoEvidenceOfPass
    );
    assert_eq!(
        once().after_tree_change(&[fail(&["a"])], Leftover::HostRunFiles),
        AfterTreeChange::LeftHostRunFiles
    );
    assert_eq!(
        once().after_tree_change(&[fail(&["a"])], Leftover::NotPutBack),
        AfterTreeChange::NotPutBack
    );
}

/// The tree rule is the driver's: a caller asks `Driver::after_tree_change`,
/// never which driver it holds. A grader and a stress run weigh each test
/// across attempts, so any change is `TestsAcrossAttempts` (the facade then
/// stops at once, `tree_changed`), even where the plain policy would keep
/// a proven Fail; the plain policy never answers it.
#[test]
fn the_tree_rule_is_asked_of_the_driver() {
    use testgate_policy::{AfterTreeChange, Leftover};
    let failed = [fail(&["a"])];
    let graded = Grader::new(once(), Expectations::new(["a"], Vec::<String>::new()));
    let drivers: [(&dyn Driver, AfterTreeChange); 3] = [
        (
            &once(),
            AfterTreeChange::ProvenFailure {
                failing: vec!["a".into()],
            },
        ),
        (&graded, AfterTreeChange::TestsAcrossAttempts),
        (&Stress::new(3), AfterTreeChange::TestsAcrossAttempts),
    ];
    for (driver, expected) in drivers {
        assert_eq!(
            driver.after_tree_change(&failed, Leftover::Nothing),
            expected,
            "{driver:?}"
        );
    }
    // What else the facade asks of a driver rather than of its kind.
    assert!(Driver::grading(&once(), &failed).is_none());
    assert!(Driver::varied(&once(), &failed).is_none());
    assert_eq!(
        Driver::grading(&graded, &failed).map(|g| g.tests.len()),
        Some(1)
    );
    assert_eq!(Driver::varied(&Stress::new(1), &failed), Some(Vec::new()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Whatever the attempts and whichever of them changed the tree, the
    /// rule never keeps a Pass, keeps a Fail only as the attempts prove it,
    /// and keeps nothing when a change was left where it runs later or was
    /// not put back.
    #[test]
    fn a_tree_change_never_keeps_a_pass(
        policy in policy_strategy(),
        attempts in prop::collection::vec(attempt_strategy(), 1..6),
        left in 0u8..3,
    ) {
        use testgate_policy::{AfterTreeChange, Leftover, Verdict};
        let leftover = match left {
            0 => Leftover::Nothing,
            1 => Leftover::HostRunFiles,
            _ => Leftover::NotPutBack,
        };
        let rule = policy.after_tree_change(&attempts, leftover);
        let verdict = policy.verdict(&attempts);
        match &rule {
            AfterTreeChange::ProvenFailure { failing } => {
                prop_assert_eq!(leftover, Leftover::Nothing);
                prop_assert!(!failing.is_empty());
                prop_assert_eq!(verdict.failing(), failing.as_slice());
            }
            AfterTreeChange::VerdictStands => {
                prop_assert_eq!(leftover, Leftover::Nothing);
                prop_assert!(matches!(verdict, Verdict::Inconclusive { .. }), "{verdict:?}");
            }
            AfterTreeChange::NoEvidenceOfPass => {
                prop_assert!(verdict.failing().is_empty());
            }
            AfterTreeChange::LeftHostRunFiles => prop_assert_eq!(leftover, Leftover::HostRunFiles),
            AfterTreeChange::NotPutBack => prop_assert_eq!(leftover, Leftover::NotPutBack),
            AfterTreeChange::TestsAcrossAttempts => {
                prop_assert!(false, "the policy weighs whole attempts: {rule:?}");
            }
        }
        if matches!(verdict, Verdict::Pass { .. }) {
            prop_assert!(!rule.verdict_stands());
        }
    }
}
