//! Properties that hold for every input: no panic on any bytes, streaming in
//! any chunking gives the one-shot report, and logs of several runners in a
//! row keep every runner's names.

use proptest::prelude::*;
use proptest::sample::Index;
use testgate_parse::{
    Format, MAX_LINE, Report, Runner, StreamParser, detect, failing_tests, parse, tail,
};

/// Auto and every concrete format: a property must hold for each.
fn all_formats() -> impl Iterator<Item = Format> {
    Format::ALL.into_iter()
}

/// `bytes` fed to a parser in chunks of the sizes in `cuts`, cycled.
fn streamed(format: Format, bytes: &[u8], cuts: &[usize]) -> Report {
    let mut parser = StreamParser::new(format);
    let mut rest = bytes;
    for &cut in cuts.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (chunk, after) = rest.split_at(cut.clamp(1, rest.len()));
        parser.feed(chunk);
        rest = after;
    }
    parser.finish()
}

/// Bytes rich in what the line splitter and cleaner treat specially.
fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
    // One draw per byte, mapped: a weighted choice per byte costs several
    // draws, and the generator dominates the run time of a debug build.
    const SPECIAL: [u8; 8] = [b'\n', b'\n', b'\r', 0x1b, b'[', b']', 0x07, 0xff];
    prop::collection::vec(any::<u8>(), 0..2048).prop_map(|bytes| {
        bytes
            .into_iter()
            .map(|b| match SPECIAL.get(usize::from(b % 64)) {
                Some(&special) if b >= 192 => special,
                _ => b,
            })
            .collect()
    })
}

/// Real marker lines of each runner (text and JSON forms): a new runner
/// must bring its own (`Runner` is `#[non_exhaustive]`, so the last arm
/// says so when the tests run over `Runner::ALL`, not the compiler).
fn vocabulary(runner: Runner) -> &'static [&'static str] {
    match runner {
        Runner::Cargo => CARGO,
        Runner::Nextest => NEXTEST,
        Runner::Pytest => PYTEST,
        Runner::Go => GO,
        Runner::Jest => JEST,
        Runner::Vitest => VITEST,
        Runner::Mocha => MOCHA,
        Runner::Node => NODE,
        Runner::Unittest => UNITTEST,
        Runner::Maven => MAVEN,
        Runner::Gradle => GRADLE,
        Runner::Ctest => CTEST,
        Runner::Phpunit => PHPUNIT,
        Runner::Rspec => RSPEC,
        Runner::Minitest => MINITEST,
        Runner::Gtest => GTEST,
        other => panic!("{other} brings no vocabulary: add its marker lines here"),
    }
}

const UNITTEST: &[&str] = &[
    "test_x (pkg.test_mod.TestX.test_x) ... ok",
    "test_y (pkg.test_mod.TestX) ... FAIL",
    "test_z (pkg.test_mod.TestX) ... ",
    "  test_z (pkg.test_mod.TestX.test_z) (i=1) ... FAIL",
    "..F.Es",
    "======================================================================",
    "FAIL: test_y (pkg.test_mod.TestX)",
    "ERROR: pkg.test_broken (unittest.loader._FailedTest.pkg.test_broken)",
    "----------------------------------------------------------------------",
    "Ran 3 tests in 0.002s",
    "OK",
    "FAILED (failures=1, errors=1)",
];

const CARGO: &[&str] = &[
    "running 3 tests",
    "running 0 tests",
    "test tests::adds ... ok",
    "test tests::parses_empty ... FAILED",
    "test tests::slow ... ignored, needs network",
    "test src/lib.rs - parse (line 12) ... FAILED",
    "failures:",
    "    tests::parses_empty",
    "---- tests::parses_empty stdout ----",
    "thread 'tests::parses_empty' panicked at src/lib.rs:20:9:",
    "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    "     Running unittests src/lib.rs (target/debug/deps/demo-0123456789abcdef)",
    "error: test failed, to rerun pass `--lib`",
    r#"{ "type": "suite", "event": "started", "test_count": 2 }"#,
    r#"{ "type": "test", "event": "failed", "name": "tests::parses_empty", "stdout": "boom\n" }"#,
    r#"{ "type": "test", "event": "ok", "name": "tests::adds" }"#,
    r#"{ "type": "suite", "event": "failed", "passed": 1, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.001 }"#,
];
const NEXTEST: &[&str] = &[
    "    Starting 3 tests across 1 binary",
    "        PASS [   0.004s] demo tests::adds",
    "        FAIL [   0.005s] demo tests::parses_empty",
    "  TRY 1 FAIL [   0.003s] demo tests::flaky",
    "     SIGSEGV [   0.010s] demo::integration tests::crashes",
    "     Summary [   0.010s] 3 tests run: 2 passed, 1 failed, 0 skipped",
    "error: test run failed",
];
const PYTEST: &[&str] = &[
    "============================= test session starts ==============================",
    "collected 3 items",
    "collecting ... collected 0 items",
    "tests/test_cli.py::test_ok PASSED                                        [ 33%]",
    "tests/test_cli.py::test_rejects_empty FAILED                             [ 66%]",
    "tests/test_cli.py .F.                                                    [100%]",
    "[gw0] [ 50%] FAILED tests/test_cli.py::test_rejects_empty[a-1]",
    "=================================== FAILURES ===================================",
    "______________________________ test_rejects_empty ______________________________",
    "FAILED tests/test_cli.py::test_rejects_empty - assert 1 == 2",
    "ERROR tests/test_broken.py - ModuleNotFoundError: No module named 'x'",
    "=========================== short test summary info ============================",
    "========================= 1 failed, 2 passed in 0.03s ==========================",
    "============================ no tests ran in 0.01s =============================",
];
const GO: &[&str] = &[
    "=== RUN   TestParse",
    "=== RUN   TestParse/empty_input",
    "    parse_test.go:12: got 1, want 2",
    "--- FAIL: TestParse (0.00s)",
    "    --- FAIL: TestParse/empty_input (0.00s)",
    "--- PASS: TestAdd (0.00s)",
    "FAIL",
    "PASS",
    "ok  \texample.com/m\t0.012s",
    "FAIL\texample.com/m\t0.012s",
    "?   \texample.com/m/cmd\t[no test files]",
    "panic: runtime error: index out of range [5] with length 3 [recovered]",
    r#"{"Time":"2024-05-01T10:00:00.1Z","Action":"run","Package":"example.com/m","Test":"TestParse"}"#,
    r#"{"Time":"2024-05-01T10:00:00.2Z","Action":"output","Package":"example.com/m","Test":"TestParse","Output":"--- FAIL: TestParse (0.00s)\n"}"#,
    r#"{"Time":"2024-05-01T10:00:00.3Z","Action":"fail","Package":"example.com/m","Test":"TestParse","Elapsed":0}"#,
    r#"{"Time":"2024-05-01T10:00:00.4Z","Action":"fail","Package":"example.com/m","Elapsed":0.01}"#,
];
const JEST: &[&str] = &[
    "PASS src/add.test.js",
    "FAIL src/parse.test.js",
    "  ● parse › rejects empty input",
    "    ✕ rejects empty input (3 ms)",
    "    ✓ adds (1 ms)",
    "  ● Test suite failed to run",
    "Tests:       1 failed, 2 passed, 3 total",
    "Test Suites: 1 failed, 1 passed, 2 total",
    "No tests found, exiting with code 1",
];
const VITEST: &[&str] = &[
    " RUN  v3.2.4 /src/demo",
    " ❯ src/parse.test.ts (2 tests | 1 failed) 5ms",
    "   × parse > rejects empty input 3ms",
    "   ✓ src/add.test.ts (1 test) 1ms",
    " FAIL  src/parse.test.ts > parse > rejects empty input",
    "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
    " Test Files  1 failed | 1 passed (2)",
    "      Tests  1 failed | 2 passed (3)",
    "No test files found, exiting with code 1",
];
const MOCHA: &[&str] = &[
    "  calc",
    "    ✔ adds",
    "    ✔ slow (120ms)",
    "    1) rejects empty input",
    "    - pending",
    "  2 passing (12ms)",
    "  1 pending",
    "  1 failing",
    "  1) calc",
    "       rejects empty input:",
    "     Error: boom",
    "ok 1 calc adds",
    "not ok 2 calc rejects empty input",
    "# tests 2",
    "# pass 1",
    "# fail 1",
];
const NODE: &[&str] = &[
    "TAP version 13",
    "# Subtest: parse",
    "    # Subtest: rejects empty input",
    "    not ok 1 - rejects empty input",
    "      ---",
    "      failureType: 'testCodeFailure'",
    "      error: 'boom'",
    "      ...",
    "not ok 1 - parse",
    "  type: 'suite'",
    "  failureType: 'subtestsFailed'",
    "ok 2 - adds",
    "# fail 1",
    "▶ parse",
    "  ✖ rejects empty input (1.2ms)",
    "  ✔ adds (0.3ms)",
    "✖ parse (2.1ms)",
    "ℹ tests 2",
    "ℹ pass 1",
    "ℹ fail 1",
    "✖ failing tests:",
    "test at parse.test.js:3:3",
];
const MAVEN: &[&str] = &[
    "[INFO] Scanning for projects...",
    "[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ core ---",
    "[INFO] --- maven-compiler-plugin:3.13.0:testCompile (default-testCompile) @ core ---",
    "[INFO]  T E S T S",
    "[INFO] Running com.example.CalcTest",
    "[INFO] Running com.example.OuterTest$InnerTest",
    "[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 1, Time elapsed: 0.036 s <<< FAILURE! -- in com.example.CalcTest",
    "[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.009 s -- in com.example.OuterTest$InnerTest",
    "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in com.example.CalcTest",
    "[ERROR] com.example.CalcTest.subtracts -- Time elapsed: 0.001 s <<< FAILURE!",
    "[ERROR] com.example.CalcTest -- Time elapsed: 0.003 s <<< ERROR!",
    "[ERROR] subtracts(com.example.CalcTest)  Time elapsed: 0 s  <<< FAILURE!",
    "[ERROR] squares{int, int}[3]  Time elapsed: 0 s  <<< ERROR!",
    "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>",
    "\tat com.example.CalcTest.subtracts(CalcTest.java:10)",
    "[INFO] Results:",
    "[ERROR] Failures: ",
    "[ERROR] Errors: ",
    "[WARNING] Flakes: ",
    "[ERROR] Crashed tests:",
    "[ERROR]   CalcTest.subtracts:10 expected: <1> but was: <2>",
    "[ERROR]   SetupTest.connect:7 IllegalState no database",
    "[ERROR] com.example.ParamTest.squares(int, int)[3]",
    "[ERROR]   Run 1: ParamTest.squares:16 expected: <10> but was: <9>",
    "[WARNING] com.example.FlakyTest.eventually",
    "[INFO]   Run 2: PASS",
    "[ERROR] com.example.CrashTest",
    "[ERROR] Tests run: 17, Failures: 5, Errors: 2, Skipped: 1",
    "[WARNING] Tests run: 17, Failures: 0, Errors: 0, Skipped: 1, Flakes: 1",
    "[INFO] Tests run: 0, Failures: 0, Errors: 0, Skipped: 0",
    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:testCompile (default-testCompile) on project junit5: Compilation failure",
    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.2:test (default-test) on project junit5: There are test failures.",
    "[INFO] BUILD FAILURE",
];
const GTEST: &[&str] = &[
    "[==========] Running 2 tests from 1 test suite.",
    "[ RUN      ] Calc.Adds",
    "[       OK ] Calc.Adds (0 ms)",
    "[ RUN      ] Small/Sq.Positive/0",
    "[  FAILED  ] Small/Sq.Positive/0, where GetParam() = 1 (0 ms)",
    "[==========] 2 tests from 1 test suite ran. (0 ms total)",
    "[  PASSED  ] 1 test.",
    "[  FAILED  ] 1 test, listed below:",
    "[  FAILED  ] Small/Sq.Positive/0, where GetParam() = 1",
    " 1 FAILED TEST",
];

const MINITEST: &[&str] = &[
    "Run options: --seed 1",
    "# Running:",
    "FSE.F.",
    "Finished in 0.012034s, 498.5748 runs/s, 332.3832 assertions/s.",
    "  1) Failure:",
    "  2) Error:",
    "  3) Skipped:",
    "CalcTest#test_adds_wrongly [test/calc_test.rb:9]:",
    "CalcTest#test_raises:",
    "CalcTest#test_adds = 0.00 s = .",
    "Spec calc#test_0001_multiplies = 0.00 s = F",
    "6 runs, 4 assertions, 2 failures, 1 errors, 1 skips",
];

const RSPEC: &[&str] = &[
    ".F*",
    "Failures:",
    "  1) Calc adds wrongly",
    "     Failure/Error: expect(1 + 1).to eq(3)",
    "Pending: (Failures listed here are expected and do not affect your suite's status)",
    "Finished in 0.02 seconds (files took 0.1 seconds to load)",
    "8 examples, 3 failures, 1 pending",
    "1 example, 0 failures",
    "Failed examples:",
    "rspec ./spec/calc_spec.rb:8 # Calc adds wrongly",
    "An error occurred while loading ./spec/bad_spec.rb.",
    "RSpec::Retry: 2nd try ./spec/flaky_spec.rb:5",
];

const GRADLE: &[&str] = &[
    "com.example.CalcTest > subtracts FAILED",
    "    java.lang.AssertionError at CalcTest.java:10",
    "CalcTest > subtracts() FAILED",
    "com.example.SetupTest > classMethod FAILED",
    "com.example.CalcTest > adds PASSED",
    "com.example.CalcTest > multiplies SKIPPED",
    "com.example.LiarTest > prints STANDARD_OUT",
    "12 tests completed, 6 failed, 1 skipped",
    "1 test completed, 1 failed",
    ":test FAILED",
    "> Task :test FAILED",
    "BUILD FAILED in 36s",
    "BUILD SUCCESSFUL in 2s",
    "Execution failed for task ':compileTestJava'.",
];
const CTEST: &[&str] = &[
    "Test project /p/build",
    "    Start 1: math.adds",
    "1/3 Test #1: math.adds ........   Passed    0.01 sec",
    "2/3 Test #2: math.subtracts ...***Failed    0.01 sec",
    "    Test #2: math.subtracts ...   Passed    0.01 sec",
    "3/3 Test #3: crash ...***Exception: SegFault  0.00 sec",
    "66% tests passed, 1 tests failed out of 3",
    "The following tests FAILED:",
    "\t  3 - crash (SEGFAULT)",
    "No tests were found!!!",
];
/// Noise that resembles the runners' lines.
const NOISE: &[&str] = &[
    "",
    "   Compiling demo v0.1.0 (/src/demo)",
    "+ cargo test --workspace",
    "{",
    "}",
    "test",
    "FAILED",
    "---- ",
    "=== ",
    "● ",
    "📦 done in 3.2s",
];

const PHPUNIT: &[&str] = &[
    "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.",
    ".F.E.R                                                              6 / 6 (100%)",
    "Time: 00:00.013, Memory: 6.00 MB",
    "There were 2 failures:",
    "There was 1 risky test:",
    "1) Demo\\Tests\\CalcTest::testFails",
    "2) Demo\\Tests\\CalcTest::testPairs with data set #1 (2)",
    "--",
    "FAILURES!",
    "ERRORS!",
    "Tests: 6, Assertions: 5, Errors: 1, Failures: 2, Risky: 1.",
    "OK (6 tests, 6 assertions)",
    "Test 'Demo\\Tests\\CalcTest::testAdds' started",
    "No tests executed!",
];

/// Every runner's vocabulary and the noise, as one list.
fn every_line() -> Vec<&'static str> {
    Runner::ALL
        .into_iter()
        .flat_map(vocabulary)
        .chain(NOISE)
        .copied()
        .collect()
}

/// One line of runner-ish output, possibly dressed as CI logs dress lines.
fn soup_line() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(every_line()),
        any::<Index>(),
        0u8..12,
        prop::collection::vec(any::<u8>(), 0..8),
    )
        .prop_map(|(line, at, dress, noise)| {
            let mut bytes = line.as_bytes().to_vec();
            let at = at.index(bytes.len() + 1);
            match dress {
                0 => {
                    bytes.splice(0..0, b"\x1b[31m".iter().copied());
                    bytes.extend_from_slice(b"\x1b[0m");
                }
                1 => drop(bytes.splice(at..at, b"\x1b[1;32m".iter().copied())),
                2 => bytes.push(b'\r'),
                3 => drop(bytes.splice(at..at, [0xff])),
                // A character cut short, maybe inside another one.
                4 => drop(bytes.splice(at..at, [0xe2, 0x9c])),
                5 => {
                    bytes.splice(0..0, b"\x1b]8;;file:///src\x07".iter().copied());
                    bytes.extend_from_slice(b"\x1b]8;;\x1b\\");
                }
                6 => drop(bytes.splice(0..0, b"2024-05-01T10:00:00.0000000Z ".iter().copied())),
                7 => drop(bytes.splice(at..at, noise.into_iter().filter(|&b| b != b'\n'))),
                _ => {}
            }
            bytes
        })
}

/// A log of runner-ish lines, now and then one past [`MAX_LINE`], with or
/// without a final newline.
fn soup() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        60 => soup_line(),
        1 => (soup_line(), 1usize..100).prop_map(|(mut line, extra)| {
            line.splice(0..0, std::iter::repeat_n(b'x', MAX_LINE + extra - 50));
            line
        }),
    ];
    (prop::collection::vec(line, 0..120), any::<bool>()).prop_map(|(lines, newline_at_end)| {
        let mut log = lines.join(&b'\n');
        if newline_at_end {
            log.push(b'\n');
        }
        log
    })
}

fn cuts() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(
        prop_oneof![1usize..16, 1usize..600, 60_000usize..70_000],
        1..16,
    )
}

/// Calls every entry point on `bytes`, checking what must hold of any report.
fn every_entry_point(bytes: &[u8]) -> Result<(), TestCaseError> {
    for format in all_formats() {
        let report = parse(format, bytes);
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
        let last_unterminated = u64::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
        prop_assert_eq!(report.lines, newlines + last_unterminated, "{}", format);
        prop_assert!(report.long_lines <= report.lines);
        // A name is the test's identity within its context (a jest title
        // in two files is two tests): each (name, context) once.
        let mut names: Vec<(&str, Option<&str>)> = report
            .failing
            .iter()
            .map(|t| (t.name.as_str(), t.context.as_deref()))
            .collect();
        names.sort_unstable();
        names.dedup();
        prop_assert_eq!(
            names.len(),
            report.failing.len(),
            "{}: names are unique in their context",
            format
        );
        if let Some(found) = report.format {
            prop_assert!(
                format == Format::Auto || Format::Runner(found) == format,
                "{}: said {}",
                format,
                found
            );
        }
    }
    let report = parse(Format::Auto, bytes);
    prop_assert_eq!(detect(bytes), report.format);
    prop_assert_eq!(
        failing_tests(bytes),
        report.names().map(str::to_owned).collect::<Vec<_>>()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in tricky_bytes()) {
        every_entry_point(&bytes)?;
    }

    #[test]
    fn runner_soup_never_panics(log in soup()) {
        every_entry_point(&log)?;
    }

    #[test]
    fn tail_is_a_short_suffix(text in any::<String>(), max in 0usize..600) {
        let cut = tail(&text, max);
        prop_assert!(cut.len() <= max);
        prop_assert!(text.ends_with(cut));
    }

    #[test]
    fn tail_of_long_text_is_a_short_suffix(line in "[a-zé\n ]{0,40}", copies in 0usize..200, max in 0usize..4000) {
        let text = line.repeat(copies);
        let cut = tail(&text, max);
        prop_assert!(cut.len() <= max);
        prop_assert!(text.ends_with(cut));
        if text.len() <= max {
            prop_assert_eq!(cut, text.as_str());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn streaming_arbitrary_bytes_equals_one_shot(bytes in tricky_bytes(), cuts in cuts()) {
        for format in all_formats() {
            prop_assert_eq!(streamed(format, &bytes, &cuts), parse(format, &bytes), "{}", format);
        }
    }

    #[test]
    fn streaming_runner_soup_equals_one_shot(log in soup(), cuts in cuts()) {
        for format in all_formats() {
            prop_assert_eq!(streamed(format, &log, &cuts), parse(format, &log), "{}", format);
        }
        // Byte by byte once: every line is then a partial line.
        prop_assert_eq!(streamed(Format::Auto, &log, &[1]), parse(Format::Auto, &log), "byte by byte");
    }
}

/// `cargo test` and then `pytest`, as one CI job's log shows them.
const CARGO_THEN_PYTEST: &str = "\
+ cargo test --workspace
   Compiling demo v0.1.0 (/home/runner/work/demo/demo)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 3.41s
     Running unittests src/lib.rs (target/debug/deps/demo-5c1f3a2b9d8e7f60)

running 3 tests
test tests::adds ... ok
test tests::parses_empty ... FAILED
test tests::trims ... ok

failures:

---- tests::parses_empty stdout ----

thread 'tests::parses_empty' panicked at src/lib.rs:31:9:
assertion `left == right` failed
  left: None
 right: Some([])
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    tests::parses_empty

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

error: test failed, to rerun pass `-p demo --lib`
+ python -m pytest -v tests
============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0 -- /usr/bin/python
cachedir: .pytest_cache
rootdir: /home/runner/work/demo/demo
collecting ... collected 4 items

tests/test_cli.py::test_version PASSED                                   [ 25%]
tests/test_cli.py::test_rejects_empty FAILED                             [ 50%]
tests/test_cli.py::test_round_trip PASSED                                [ 75%]
tests/test_cli.py::test_unicode PASSED                                   [100%]

=================================== FAILURES ===================================
______________________________ test_rejects_empty ______________________________

    def test_rejects_empty():
>       assert run([]) == 2
E       assert 0 == 2
E        +  where 0 = run([])

tests/test_cli.py:14: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cli.py::test_rejects_empty - assert 0 == 2
========================= 1 failed, 3 passed in 0.05s ==========================
";

#[test]
fn mixed_cargo_then_pytest_log() {
    let report = parse(Format::Auto, CARGO_THEN_PYTEST);
    assert_eq!(
        report.format,
        Some(Runner::Cargo),
        "the first runner is named"
    );
    let names: Vec<&str> = report.names().collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert_eq!(names[0], "tests::parses_empty");
    assert_eq!(names[1], "tests/test_cli.py::test_rejects_empty");
    assert_eq!(report.failing[0].format, Runner::Cargo);
    assert_eq!(report.failing[1].format, Runner::Pytest);
    assert_eq!(report.counts.failed, Some(2), "{:?}", report.counts);
    assert_eq!(report.counts.passed, Some(5), "{:?}", report.counts);
    assert!(!report.no_tests_ran);
    assert_eq!(failing_tests(CARGO_THEN_PYTEST), names);
    for cut in [1, 7, 4096] {
        assert_eq!(
            streamed(Format::Auto, CARGO_THEN_PYTEST.as_bytes(), &[cut]),
            report
        );
    }
}
