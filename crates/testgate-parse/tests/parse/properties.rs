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

/// Real marker lines of each runner (text and JSON forms), kept beside its
/// fixtures as a JSON list of strings, `tests/fixtures/<runner>/marker-lines.json`
/// (hand-made): a new runner brings its own with its fixtures, and the
/// tests, run over `Runner::ALL`, say which runner has none.
fn vocabulary(runner: Runner) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(runner.name())
        .join("marker-lines.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{runner} brings no vocabulary: add its marker lines to {}: {e}",
            path.display()
        )
    });
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a JSON list of strings: {e}", path.display()))
}

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

/// Every runner's vocabulary and the noise, as one list.
fn every_line() -> Vec<String> {
    Runner::ALL
        .into_iter()
        .flat_map(vocabulary)
        .chain(NOISE.iter().map(|line| (*line).to_owned()))
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
