//! The dispatch of each line to the recognisers: classified once, given
//! only to those whose interest holds its class.

use std::borrow::Cow;

use crate::ci::{self, Step, Text};
use crate::formats::{Interest, LineKey, Recognizer};
use crate::line::Line;
use crate::runner::Runner;
use crate::scans::Scans;
use crate::sections::Steps;

/// The parser's parts that each line goes through.
pub(crate) struct Dispatch<'p> {
    pub(crate) recognizers: &'p mut [(Runner, Box<dyn Recognizer + Send>)],
    pub(crate) interests: &'p mut [&'static Interest],
    pub(crate) readers: &'p mut Readers,
    /// Every line to every recogniser, whatever their interests.
    pub(crate) every_line: bool,
    /// Lines read so far: the next line's index.
    pub(crate) lines: &'p mut u64,
    /// The CI steps met so far.
    pub(crate) steps: &'p mut Steps,
    /// The environment and coverage scans, which read every line.
    pub(crate) scans: Option<&'p mut Scans>,
}

impl Dispatch<'_> {
    /// Gives the line to the recognisers that read its class, once
    /// classified: in auto mode most lines are foreign to most recognisers.
    /// A line the CI wrote (a step marker, an annotation) counts as a line
    /// and goes nowhere; the others go without the CI's prefixes.
    pub(crate) fn line(&mut self, text: &str) {
        let index = *self.lines;
        *self.lines += 1;
        let text = match ci::of(text) {
            Text::Runner(text) => text,
            Text::Ci(said) => {
                if said.starts_with("section_start:") {
                    self.steps.echoes = true;
                }
                if let Some(step) = ci::step_of(said) {
                    self.step(index, step);
                }
                return;
            }
        };
        match text.as_bytes().first() {
            Some(b'$') if self.steps.echoes => {
                if let Some(command) = ci::echoed_command(text) {
                    self.step(index, Step::command(command));
                }
            }
            Some(b'~') if ci::is_buildkite_header(text) => self.steps.echoes = true,
            _ => {}
        }
        let line = Line {
            text: Cow::Borrowed(text),
            index,
        };
        if let Some(scans) = self.scans.as_deref_mut() {
            scans.line(text);
        }
        if self.every_line {
            for (_, recognizer) in self.recognizers.iter_mut() {
                recognizer.line(&line);
            }
            return;
        }
        let mut readers = self.readers.of(LineKey::of(text), self.interests);
        // In the recognisers' order, as a loop over all of them would.
        while readers != 0 {
            let at = readers.trailing_zeros() as usize;
            readers &= readers - 1;
            let (Some((_, recognizer)), Some(interest)) =
                (self.recognizers.get_mut(at), self.interests.get_mut(at))
            else {
                break;
            };
            recognizer.line(&line);
            let now = recognizer.interest();
            if !std::ptr::eq(now, *interest) {
                *interest = now;
                self.readers.forget();
            }
        }
    }

    /// The line at `index` is a CI step's: the recognisers are told where a
    /// new one begins.
    fn step(&mut self, index: u64, step: Step<'_>) {
        if self.steps.begin(index, step) {
            for (_, recognizer) in self.recognizers.iter_mut() {
                recognizer.findings().step(index);
            }
        }
    }
}

/// Which recognisers read each class of line, one bit per recogniser,
/// worked out from their interests the first time a key (an end) is met
/// and kept until an interest changes: most lines then cost a lookup, not
/// a test per recogniser. A change only makes the cache stale (a new
/// generation), so a log whose every line changes a recogniser's state
/// costs what testing each recogniser on each line would.
pub(crate) struct Readers {
    generation: u32,
    /// Per [`LineKey::key`]: the generation it was worked out in, the
    /// recognisers that read it whatever its end, those that read it with
    /// some ends.
    by_key: Vec<(u32, u16, u16)>,
    /// Per last byte: the generation, the recognisers whose ends hold it.
    by_end: Vec<(u32, u16)>,
}

const _: () = assert!(
    Runner::ALL.len() <= 16,
    "Readers has a bit per recogniser in a u16"
);

impl Readers {
    pub(crate) fn new() -> Readers {
        Readers {
            generation: 1,
            by_key: vec![(0, 0, 0); 512],
            by_end: vec![(0, 0); 256],
        }
    }

    /// The recognisers that read a line of class `line`.
    fn of(&mut self, line: LineKey, interests: &[&'static Interest]) -> u16 {
        let generation = self.generation;
        let (any_end, some_ends) = match self.by_key.get_mut(usize::from(line.key())) {
            Some((known, any_end, some_ends)) if *known == generation => (*any_end, *some_ends),
            Some(entry) => {
                let (mut any_end, mut some_ends) = (0, 0);
                for (at, interest) in interests.iter().enumerate() {
                    let (any, some) = interest.by_key(line.key());
                    any_end |= u16::from(any) << at;
                    some_ends |= u16::from(some) << at;
                }
                *entry = (generation, any_end, some_ends);
                (any_end, some_ends)
            }
            None => (u16::MAX, 0),
        };
        if some_ends == 0 {
            return any_end;
        }
        let ends = match self.by_end.get_mut(usize::from(line.last())) {
            Some((known, ends)) if *known == generation => *ends,
            Some(entry) => {
                let mut ends = 0;
                for (at, interest) in interests.iter().enumerate() {
                    ends |= u16::from(interest.by_end(line.last())) << at;
                }
                *entry = (generation, ends);
                ends
            }
            None => u16::MAX,
        };
        any_end | (some_ends & ends)
    }

    /// An interest changed: what was worked out is stale.
    fn forget(&mut self) {
        match self.generation.checked_add(1) {
            Some(next) => self.generation = next,
            None => *self = Readers::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Format, Runner, StreamParser};

    /// The cached readers of each class are those whose interest says so,
    /// before and after interests change, also across the generation's
    /// wrap.
    #[test]
    fn readers_are_the_interests_that_want_the_line() {
        use crate::formats::{Interest, LineKey};

        static LINES: Interest = Interest::NONE.first(b"ab").indented(b"-");
        static ENDED: Interest = Interest::NONE.first_ending(b"t=", b"n ").braced();
        let lines: Vec<String> = [
            "", "a", "b", "x", "  -", "   x", "ten", "t=", "x}", "=  ", "é\u{a0}",
        ]
        .iter()
        .map(|line| (*line).to_owned())
        .collect();
        let mut readers = super::Readers::new();
        let mut interests: Vec<&'static Interest> = vec![&LINES, &ENDED, &Interest::ALL];
        for round in 0..4 {
            if round == 2 {
                readers.generation = u32::MAX;
            }
            for line in &lines {
                let key = LineKey::of(line);
                let expected = interests
                    .iter()
                    .enumerate()
                    .fold(0u16, |m, (at, i)| m | u16::from(i.wants(key)) << at);
                assert_eq!(
                    readers.of(key, &interests),
                    expected,
                    "{line:?} in round {round}"
                );
            }
            interests.rotate_left(1);
            readers.forget();
        }
    }

    /// Fragments of each runner's output, the lines that change a
    /// recogniser's state (lists, pending results, sessions, blocks,
    /// trees, sections) among them, to build mixed logs from. Not whole
    /// lines only: glued, they make lines no runner prints too. A new
    /// runner must bring its own: the match is exhaustive.
    fn fragments(runner: Runner) -> &'static [&'static str] {
        match runner {
            Runner::Cargo => CARGO,
            Runner::Nextest => NEXTEST,
            Runner::Go => GO,
            Runner::Pytest => PYTEST,
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
        }
    }
    const CARGO: &[&str] = &[
        "running 2 tests\n",
        "running 0 tests\n",
        "test a ... ",
        "test b - should panic ... ",
        "FAILED\n",
        "ok\n",
        "ignored, slow\n",
        "\n",
        "failures:\n",
        "    a\n",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
        "     Running tests/it.rs (target/debug/deps/it-1)\n",
        "   Doc-tests demo\n",
        "test slow has been running for over 60 seconds\n",
        "error: could not compile `demo`\n",
        "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 2 }\n",
        "{ \"type\": \"test\", \"event\": \"started\", \"name\": \"a\" }\n",
        "printed{ \"type\": \"test\", \"event\": \"failed\", \"name\": \"a\" }\n",
        "{ \"type\": \"suite\", \"event\": \"failed\", \"passed\": 1, \"failed\": 1 }\n",
        "} \n",
        "    b\n",
        "    c d\n",
    ];
    const NEXTEST: &[&str] = &[
        "    Starting 2 tests across 1 binary\n",
        " Nextest run ID 1\n",
        "       START [   0.000s] demo d\n",
        "        SLOW [> 60.000s] demo d\n",
        "         --- [   0.010s] demo d\n",
        "        FAIL [   0.010s] (1/2) demo a\n",
        "  TRY 1 FAIL [   0.010s] demo b\n",
        "  TRY 2 PASS [   0.010s] demo b\n",
        "   FLAKY 2/2 [   0.010s] demo b\n",
        "        PASS [   0.010s] (2/2) demo d\n",
        "     Summary [   0.1s] 2 tests run: 1 passed, 1 failed, 0 skipped\n",
        "error: no tests to run\n",
    ];
    const GO: &[&str] = &[
        "=== RUN   TestA\n",
        "=== RUN   TestA/b\n",
        "--- FAIL: TestA (0.00s)\n",
        "    --- PASS: TestA/b (0.00s)\n",
        "--- PASS: TestA (0.00s)\n",
        "PASS\n",
        "FAIL\n",
        "ok  \tp\t0.01s\n",
        "FAIL\tp\t0.01s\n",
        "?   \tq\t[no test files]\n",
        "testing: warning: no tests to run\n",
        "panic: test timed out after 1s\n",
        "panic: assignment to entry in nil map\n",
        "created by p.TestA.func1\n",
        "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"panic: boom\\n\"}\n",
        "{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"created by p.TestA\\n\"}\n",
        "running tests:\n",
        "\tTestA (1s)\n",
        "{\"Action\":\"run\",\"Package\":\"p\",\"Test\":\"T\"}\n",
        "{\"Action\":\"fail\",\"Package\":\"p\",\"Test\":\"T\"}\n",
        "{\"Action\":\"fail\",\"Package\":\"p\"}\n",
        "\tTestB\n",
    ];
    const UNITTEST: &[&str] = &[
        "test_a (m.C.test_a) ... ",
        "test_b (m.C) ... FAIL\n",
        "test_c (m.C)\n",
        "Docstring ... ok\n",
        "  test_a (m.C.test_a) (i=1) ... FAIL\n",
        "ok\n",
        "..F.E\n",
        "======================================================================\n",
        "FAIL: test_b (m.C)\n",
        "ERROR: m (unittest.loader._FailedTest)\n",
        "UNEXPECTED SUCCESS: test_a (m.C.test_a)\n",
        "----------------------------------------------------------------------\n",
        "Ran 2 tests in 0.001s\n",
        "OK\n",
        "FAILED (failures=1, errors=1)\n",
        "NO TESTS RAN\n",
    ];
    const PYTEST: &[&str] = &[
        "============================= test session starts ==============================\n",
        "collected 2 items\n",
        "t.py::test_a PASSED [ 50%]\n",
        "t.py::test_b FAILED [100%]\n",
        "t.py::test_c ",
        "t.py::test_d RERUN [ 50%]\n",
        "[gw0] [ 50%] FAILED t.py::test_e \n",
        "==== FAILURES ====\n",
        "=========================== short test summary info ============================\n",
        "FAILED t.py::test_b - assert 0\n",
        "ERROR t.py::test_f\n",
        "!!! Interrupted: 1 error during collection !!!\n",
        "==== 1 failed, 1 passed in 0.01s ====\n",
        "1 failed, 1 passed in 0.01s\n",
        "no tests ran in 0.01s\n",
        "= x \n",
        "== test session starts \n",
        "== short test summary info \n",
    ];
    const JEST: &[&str] = &[
        "FAIL src/a.test.js\n",
        "PASS src/b.test.js (5.1 s)\n",
        " FAIL  src/c.test.js\n",
        "  describe\n",
        "    ✓ passes (3 ms)\n",
        "    ✕ fails (2 ms)\n",
        "  ● describe › fails\n",
        "  ● Test suite failed to run\n",
        "Test Suites: 1 failed, 1 passed, 2 total\n",
        "Tests:       1 failed, 1 passed, 2 total\n",
        "No tests found, exiting with code 1\n",
        " LOGGING RETRY ERRORS  describe fails\n",
    ];
    const VITEST: &[&str] = &[
        " RUN  v4.1.12 /p\n",
        "⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\n",
        "⎯⎯⎯ Failed Suites 1 ⎯⎯⎯\n",
        "⎯⎯⎯⎯⎯⎯⎯[1/1]⎯\n",
        " FAIL  src/a.test.ts > suite > test\n",
        " FAIL  src/b.test.ts [ src/b.test.ts ]\n",
        "   × src/a.test.ts > suite > test 3ms\n",
        "   ✓ src/a.test.ts > suite > ok 1ms (retry x1)\n",
        " Test Files  1 failed | 1 passed (2)\n",
        "      Tests  1 failed | 1 passed (2)\n",
        "No test files found, exiting with code 1\n",
    ];
    const MOCHA: &[&str] = &[
        "  calc\n",
        "    ✔ adds\n",
        "    ✔ slow (120ms)\n",
        "    1) adds negative\n",
        "    - pending\n",
        "  2 passing (12ms)\n",
        "  1 pending\n",
        "  1 failing\n",
        "  1) calc\n",
        "       adds negative:\n",
        "     Error: x\n",
        "ok 1 calc adds\n",
        "not ok 2 calc adds negative\n",
        "# pass 1\n",
        "# fail 1\n",
    ];
    const NODE: &[&str] = &[
        "TAP version 13\n",
        "# Subtest: calc\n",
        "    # Subtest: adds\n",
        "    not ok 1 - adds\n",
        "      ---\n",
        "      type: 'suite'\n",
        "      failureType: 'subtestsFailed'\n",
        "      error: 'x'\n",
        "      ...\n",
        "ok 1 - calc\n",
        "▶ calc\n",
        "  ✖ adds (1.2ms)\n",
        "  ✔ ok (1.2ms)\n",
        "✖ calc (2ms)\n",
        "ℹ tests 2\n",
        "ℹ fail 1\n",
        "# fail 1\n",
        "✖ failing tests:\n",
        "test at a.test.js:1:1\n",
    ];

    const MAVEN: &[&str] = &[
        "[INFO] Scanning for projects...\n",
        "[INFO] --- maven-surefire-plugin:3.5.2:test (default-test) @ core ---\n",
        "[INFO] --- maven-compiler-plugin:3.13.0:testCompile (default-testCompile) @ core ---\n",
        "[INFO]  T E S T S\n",
        "[INFO] Running com.example.CalcTest\n",
        "[INFO] Running com.example.OuterTest$InnerTest\n",
        "[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 1, Time elapsed: 0.036 s <<< FAILURE! -- in com.example.CalcTest\n",
        "[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.009 s -- in com.example.OuterTest$InnerTest\n",
        "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in com.example.CalcTest\n",
        "[ERROR] com.example.CalcTest.subtracts -- Time elapsed: 0.001 s <<< FAILURE!\n",
        "[ERROR] com.example.CalcTest -- Time elapsed: 0.003 s <<< ERROR!\n",
        "[ERROR] subtracts(com.example.CalcTest)  Time elapsed: 0 s  <<< FAILURE!\n",
        "[ERROR] squares{int, int}[3]  Time elapsed: 0 s  <<< ERROR!\n",
        "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>\n",
        "\tat com.example.CalcTest.subtracts(CalcTest.java:10)\n",
        "[INFO] Results:\n",
        "[ERROR] Failures: \n",
        "[ERROR] Errors: \n",
        "[WARNING] Flakes: \n",
        "[ERROR] Crashed tests:\n",
        "[ERROR]   CalcTest.subtracts:10 expected: <1> but was: <2>\n",
        "[ERROR]   SetupTest.connect:7 IllegalState no database\n",
        "[ERROR] com.example.ParamTest.squares(int, int)[3]\n",
        "[ERROR]   Run 1: ParamTest.squares:16 expected: <10> but was: <9>\n",
        "[WARNING] com.example.FlakyTest.eventually\n",
        "[INFO]   Run 2: PASS\n",
        "[ERROR] com.example.CrashTest\n",
        "[ERROR] Tests run: 17, Failures: 5, Errors: 2, Skipped: 1\n",
        "[WARNING] Tests run: 17, Failures: 0, Errors: 0, Skipped: 1, Flakes: 1\n",
        "[INFO] Tests run: 0, Failures: 0, Errors: 0, Skipped: 0\n",
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:testCompile (default-testCompile) on project junit5: Compilation failure\n",
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.2:test (default-test) on project junit5: There are test failures.\n",
        "[INFO] BUILD FAILURE\n",
        "[ERROR] ",
        "[INFO] ",
        " -- Time elapsed: 0 s <<< FAILURE!\n",
        "\n",
    ];

    const GRADLE: &[&str] = &[
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
    const CTEST: &[&str] = &[
        "Test project /p/build\n",
        "    Start 1: math.adds\n",
        "1/3 Test #1: math.adds ........   Passed    0.01 sec\n",
        "2/3 Test #2: math.subtracts ...***Failed    0.01 sec\n",
        "    Test #2: math.subtracts ...   Passed    0.01 sec\n",
        "3/3 Test #3: crash ...***Exception: SegFault  0.00 sec\n",
        "66% tests passed, 1 tests failed out of 3\n",
        "The following tests FAILED:\n",
        "\t  3 - crash (SEGFAULT)\n",
        "No tests were found!!!\n",
        "Errors while running CTest\n",
        "Test #2: ",
    ];

    const PHPUNIT: &[&str] = &[
        "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n",
        ".FERSI.FF.F.                                                      12 / 12 (100%)\n",
        "Time: 00:00.013, Memory: 6.00 MB\n",
        "There was 1 error:\n",
        "There were 2 failures:\n",
        "There was 1 risky test:\n",
        "1) Demo\\Tests\\CalcTest::testFails\n",
        "2) Demo\\Tests\\CalcTest::testPairs with data set \"x\" (1, 1, 3)\n",
        "--\n",
        "FAILURES!\n",
        "Tests: 12, Assertions: 8, Errors: 1, Failures: 4, Skipped: 1, Incomplete: 1, Risky: 1.\n",
        "OK (2 tests, 2 assertions)\n",
        "Test 'Demo\\Tests\\CalcTest::testAdds' started\n",
        "Test 'Demo\\Tests\\CalcTest::testAdds' ended\n",
        "PHP Fatal error:  Allowed memory size exhausted\n",
        "No tests executed!\n",
        "1) ",
    ];
    const GTEST: &[&str] = &[
        "[==========] Running 3 tests from 2 test suites.\n",
        "[----------] 2 tests from Calc\n",
        "[ RUN      ] Calc.Adds\n",
        "[       OK ] Calc.Adds (0 ms)\n",
        "[ RUN      ] Small/Sq.Positive/0\n",
        "[  FAILED  ] Small/Sq.Positive/0, where GetParam() = 1 (0 ms)\n",
        "[  SKIPPED ] Calc.Skips (0 ms)\n",
        "[ DISABLED ] Calc.DISABLED_Later\n",
        "[==========] 3 tests from 2 test suites ran. (0 ms total)\n",
        "[  PASSED  ] 1 test.\n",
        "[  SKIPPED ] 1 test, listed below:\n",
        "[  FAILED  ] 1 test, listed below:\n",
        "[  FAILED  ] Small/Sq.Positive/0, where GetParam() = 1\n",
        " 1 FAILED TEST\n",
        "Repeating all tests (iteration 2) . . .\n",
        "x.cc:3: Failure\n",
    ];
    const MINITEST: &[&str] = &[
        "Run options: --seed 1\n",
        "# Running:\n",
        "FSE.F.\n",
        "Finished in 0.012034s, 498.5748 runs/s, 332.3832 assertions/s.\n",
        "  1) Failure:\n",
        "  2) Error:\n",
        "  3) Skipped:\n",
        "CalcTest#test_adds_wrongly [test/calc_test.rb:9]:\n",
        "CalcTest#test_raises:\n",
        "Expected: 5\n",
        "CalcTest#test_adds = 0.00 s = .\n",
        "Spec calc#test_0001_multiplies = 0.00 s = F\n",
        "6 runs, 4 assertions, 2 failures, 1 errors, 1 skips\n",
        "\n",
    ];
    const RSPEC: &[&str] = &[
        ".F*",
        "Failures:\n",
        "  1) Calc adds wrongly\n",
        "  2) Calc raises\n",
        "     Failure/Error: expect(1 + 1).to eq(3)\n",
        "Pending: (Failures listed here are expected and do not affect your suite's status)\n",
        "Finished in 0.02 seconds (files took 0.1 seconds to load)\n",
        "8 examples, 3 failures, 1 pending\n",
        "1 example, 0 failures\n",
        "0 examples, 0 failures, 1 error occurred outside of examples\n",
        "Failed examples:\n",
        "rspec ./spec/calc_spec.rb:8 # Calc adds wrongly\n",
        "An error occurred while loading ./spec/bad_spec.rb.\n",
        "RSpec::Retry: 2nd try ./spec/flaky_spec.rb:5\n",
        "\n",
    ];

    /// What trims differently: tabs, non-ASCII spaces, escapes; a `}` last.
    const ODD: &[&str] = &[
        "  \u{a0}Running tests/x.rs (y)\n",
        " \u{3000}",
        "\t",
        "\u{a0}",
        "\u{1b}[31m",
        "\r\n",
    ];

    /// A mixed log: runs of one runner's fragments, each with odd ones and
    /// random text among them.
    fn mixed_log() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let run = proptest::sample::select(&Runner::ALL[..]).prop_flat_map(|runner| {
            let piece = prop_oneof![
                4 => crate::formats::testing::piece(fragments(runner)),
                1 => proptest::sample::select(ODD).prop_map(str::to_owned),
            ];
            proptest::collection::vec(piece, 0..24)
        });
        proptest::collection::vec(run, 0..8).prop_map(|runs| runs.concat().concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The dispatch by interest leaves out only lines a recogniser would
        /// have done nothing with: every format gives the report it gives
        /// when every line reaches every recogniser.
        #[test]
        fn dispatch_by_interest_gives_the_report_of_every_line(log in mixed_log()) {
            let formats = std::iter::once(Format::Auto).chain(Runner::ALL.map(Format::from));
            for format in formats {
                let mut dispatched = StreamParser::dispatched(format);
                let mut every = StreamParser::every_line(format);
                dispatched.feed(log.as_bytes());
                every.feed(log.as_bytes());
                proptest::prop_assert_eq!(dispatched.finish(), every.finish(), "{:?}", format);
            }
        }
    }
}
