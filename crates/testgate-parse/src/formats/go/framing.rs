//! go's `-v=test2json` framing read as `go test -json` reads it.
//!
//! `go test -json` runs each test binary with `-test.v=test2json`, which
//! marks every line of the testing package's own (`=== RUN`, `--- FAIL:`,
//! the closing `PASS`/`FAIL`) with a `^V` byte, and converts that text to
//! events in go's own process (cmd/internal/test2json). `go test
//! -v=test2json` prints the marked text itself: [`GoFraming`] does the
//! conversion here, line for line as test2json does it, and so spares go
//! the encoding of every log line as JSON and testgate its decoding.

use super::{PackageStatus, package_line};

/// `^V`: the testing package's mark before each of its own lines.
const MARKER: u8 = 0x16;

/// test2json's input buffer: a line longer than this is never one of the
/// testing package's (its pieces are output).
const MAX_FRAMING_LINE: usize = 4096;

/// The most bytes of events held for one package's block before its
/// package line names the package; past it the events are given under no
/// package, which never closes (the report is then unclosed, never a pass).
const MAX_PENDING: usize = 32 << 20;

/// The package of events whose package line never came.
const UNNAMED: &str = "(a package go never named)";

/// Reads `go test -v=test2json`'s output (stdout and stderr, as they
/// came) as `go test -json` would have converted it: the console text
/// (each line without its `^V`, as `-json`'s `Output` fields give it) and
/// the events go's report parser reads ([`Runner::Go`](crate::Runner)):
/// `run`, `pass`, `fail`, `skip`, …, the output lines of a panic, and each
/// package's final `pass`/`fail`/`skip`.
///
/// The text of one package's binary comes as one block that go's own
/// package line closes (`ok  \tpkg\t0.01s`, `^VFAIL\tpkg\t0.01s`, `FAIL\tpkg
/// [build failed]`, `?   \tpkg\t[no test files]`): the block's events are
/// held until that line names their package, and its status is the
/// package's final event (go prints it from the binary's exit status, as
/// `-json`'s final event is). A package line a test prints itself is
/// followed by go's own for the same package, which comes last: the two
/// parts are then one block, as `-json`'s one converter a package reads
/// them. One that names another package closes a block of that package,
/// its failures kept where no pass of the same test followed (go's report
/// parser), and never the last word of the package go ran.
///
/// Memory: one line of at most 4 KiB, and two blocks' events up to 32 MiB
/// each (past it they are given at once, under a package that never
/// closes).
///
/// ```
/// use testgate_parse::GoFraming;
///
/// let mut framing = GoFraming::new();
/// let (mut text, mut events) = (Vec::new(), Vec::new());
/// framing.feed_split(b"\x16=== RUN   TestA\n    a_test.go:9: hi\n\x16--- FAIL: TestA (0.00s)\n\x16FAIL\n\x16FAIL\tp\t0.01s\n", &mut text, &mut events);
/// framing.finish_split(&mut text, &mut events);
/// assert_eq!(text, b"=== RUN   TestA\n    a_test.go:9: hi\n--- FAIL: TestA (0.00s)\nFAIL\nFAIL\tp\t0.01s\n");
/// let report = testgate_parse::parse(testgate_parse::Runner::Go, &events);
/// assert_eq!(report.names().collect::<Vec<_>>(), ["TestA"]);
/// ```
#[derive(Debug, Default)]
pub struct GoFraming {
    /// The line being read, up to [`MAX_FRAMING_LINE`] bytes.
    line: Vec<u8>,
    /// The line passed [`MAX_FRAMING_LINE`]: its bytes are output as they
    /// come until its end.
    long: bool,
    /// The present package's conversion.
    block: Block,
    /// The last closed block's package and events (its final one last),
    /// held until a package line names another package: where the next
    /// one names the same (a test printed its package's line, then go
    /// printed its own), the two are one block, as `-json`'s one
    /// converter a package reads them, and the first close was none.
    closed: Option<(String, Vec<Pending>)>,
}

/// One event held until its package is known: the action, the test, and
/// the output (a panic's line).
type Pending = (&'static str, Option<String>, Option<String>);

/// test2json's converter state for one package's block, and its events.
#[derive(Debug, Default)]
struct Block {
    /// A marked line was seen: unmarked lines are output from now on.
    need_marker: bool,
    /// The `--- PASS:`/`--- FAIL:` results not given yet, nested.
    report: Vec<(&'static str, String)>,
    /// test2json's `testName`: the test its output goes to, which also
    /// names the package's final event where it is not empty (go 1.26's
    /// `writeEvent`: a binary that exits in a test's middle gives that
    /// test the package's `pass`).
    test_name: String,
    /// The events so far, each `"Action":…` and `"Test":…` fields without
    /// the package, which the package line gives: one JSON object a line
    /// once it is known.
    events: Vec<Pending>,
    /// Bytes held in `events`, about.
    held: usize,
    /// `events` went over [`MAX_PENDING`] and are given as they come.
    overflowed: bool,
}

impl GoFraming {
    /// A reader at the start of a stream.
    pub fn new() -> Self {
        GoFraming::default()
    }

    /// Reads `chunk` (a piece of the stream, cut anywhere), appending the
    /// console text to `text` and the events, once their package is known,
    /// to `events` (one JSON object a line).
    pub fn feed_split(&mut self, chunk: &[u8], text: &mut Vec<u8>, events: &mut Vec<u8>) {
        let mut rest = chunk;
        while !rest.is_empty() {
            // A line ends at its newline, or just before a `^V` that does
            // not start it (a test's output without a newline, then a
            // marked line).
            let start_of_line = self.line.is_empty() && !self.long;
            let mut from = 0;
            let end = loop {
                match memchr::memchr2(b'\n', MARKER, &rest[from..]) {
                    Some(at) if rest[from + at] == b'\n' => break Some(from + at + 1),
                    Some(0) if from == 0 && start_of_line => from = 1,
                    Some(at) => break Some(from + at),
                    None => break None,
                }
            };
            let (piece, ended) = match end {
                Some(at) => (&rest[..at], true),
                None => (rest, false),
            };
            rest = &rest[piece.len()..];
            if self.long {
                text.extend_from_slice(piece);
                self.long = !ended;
                continue;
            }
            if self.line.len() + piece.len() > MAX_FRAMING_LINE {
                text.append(&mut self.line);
                text.extend_from_slice(piece);
                self.long = !ended;
                continue;
            }
            self.line.extend_from_slice(piece);
            if ended {
                let line = std::mem::take(&mut self.line);
                self.input_line(&line, text, events);
                self.line = line;
                self.line.clear();
            }
        }
    }

    /// Ends the stream: a last line without its newline is output, and the
    /// events of a block no package line closed are given under no package.
    pub fn finish_split(&mut self, text: &mut Vec<u8>, events: &mut Vec<u8>) {
        text.append(&mut self.line);
        self.long = false;
        if let Some((package, closed)) = self.closed.take() {
            write_events(&package, &closed, events);
        }
        let block = std::mem::take(&mut self.block);
        if !block.events.is_empty() {
            write_events(UNNAMED, &block.events, events);
        }
    }

    /// test2json's `handleInputLine`, then the block's close where the
    /// line is go's package line.
    fn input_line(&mut self, line: &[u8], text: &mut Vec<u8>, events: &mut Vec<u8>) {
        let block = &mut self.block;
        let (marked, line) = match line.split_first() {
            Some((&MARKER, rest)) => (true, rest),
            _ => (false, line),
        };
        let trim = line.strip_suffix(b"\n").unwrap_or(line);
        let trim = trim.strip_suffix(b"\r").unwrap_or(trim);
        let closes = std::str::from_utf8(trim)
            .ok()
            .and_then(package_line)
            .map(|p| (p.name.to_owned(), p.status));
        if block.need_marker && !marked {
            block.output(line, text);
        } else {
            block.framing_line(marked, line, trim, text);
        }
        if block.overflowed {
            write_events(UNNAMED, &block.events, events);
            block.events.clear();
        }
        if let Some((package, status)) = closes {
            let action = match status {
                PackageStatus::Ok { .. } => "pass",
                PackageStatus::NoTestFiles => "skip",
                PackageStatus::Fail => "fail",
            };
            // The conversion goes on as `-json`'s would where this line
            // was a test's; a binary of another package starts with a
            // marked line, which sets what matters again.
            let block = &mut self.block;
            let test = Some(block.test_name.clone()).filter(|t| !t.is_empty());
            block.events.push((action, test, None));
            block.held = 0;
            let mut these = std::mem::take(&mut block.events);
            self.closed = match self.closed.take() {
                Some((same, mut earlier)) if same == package => {
                    earlier.pop();
                    if earlier.len() > MAX_PENDING / 64 {
                        // Bounded as one block: past it, given under a
                        // package that never closes.
                        write_events(UNNAMED, &earlier, events);
                        earlier.clear();
                    }
                    earlier.append(&mut these);
                    Some((same, earlier))
                }
                Some((other, earlier)) => {
                    write_events(&other, &earlier, events);
                    Some((package, these))
                }
                None => Some((package, these)),
            };
        }
    }
}

impl Block {
    /// A line that is no framing: output, and a panic's line for the
    /// report.
    fn output(&mut self, line: &[u8], text: &mut Vec<u8>) {
        text.extend_from_slice(line);
        if line.starts_with(b"panic: ") || line.starts_with(b"created by ") {
            let output = String::from_utf8_lossy(line).into_owned();
            self.event("output", None, Some(output));
        }
    }

    fn event(&mut self, action: &'static str, test: Option<String>, output: Option<String>) {
        self.held += 40
            + action.len()
            + test.as_ref().map_or(0, String::len)
            + output.as_ref().map_or(0, String::len);
        self.events.push((action, test, output));
        if self.held > MAX_PENDING {
            self.overflowed = true;
        }
    }

    /// Gives the pending results at `depth` or deeper, innermost first.
    fn flush_report(&mut self, depth: usize) {
        self.test_name.clear();
        while self.report.len() > depth {
            let Some((action, test)) = self.report.pop() else {
                break;
            };
            self.event(action, Some(test), None);
        }
    }

    /// test2json's reading of a line that may be the testing package's:
    /// `line` without its marker, `trim` without its line end.
    fn framing_line(&mut self, marked: bool, line: &[u8], trim: &[u8], text: &mut Vec<u8>) {
        const UPDATES: [&[u8]; 9] = [
            b"=== RUN   ",
            b"=== PAUSE ",
            b"=== CONT  ",
            b"=== NAME  ",
            b"=== PASS  ",
            b"=== FAIL  ",
            b"=== SKIP  ",
            b"=== ATTR  ",
            b"=== ARTIFACTS ",
        ];
        const REPORTS: [&[u8]; 4] = [b"--- PASS: ", b"--- FAIL: ", b"--- SKIP: ", b"--- BENCH: "];
        if line.is_empty() {
            return;
        }
        // `=== NAME` without a name can lose its trailing spaces.
        let (line, trim): (&[u8], &[u8]) = if trim == b"=== NAME" {
            (b"=== NAME  \n", b"=== NAME  ")
        } else {
            (line, trim)
        };
        if trim == b"PASS" || trim == b"FAIL" || trim.starts_with(b"FAIL\t") {
            self.flush_report(0);
            self.test_name.clear();
            self.need_marker = marked;
            text.extend_from_slice(line);
            return;
        }
        let update = UPDATES.iter().any(|u| line.starts_with(u));
        let mut body = line;
        let mut indent = 0;
        if !update {
            while let Some(rest) = body.strip_prefix(b"    ") {
                body = rest;
                indent += 1;
            }
            if !REPORTS.iter().any(|r| body.starts_with(r)) {
                if indent > 0
                    && let Some((_, test)) = self.report.get(indent - 1)
                {
                    self.test_name.clone_from(test);
                }
                self.output(line, text);
                return;
            }
        }
        self.action_line(marked, line, body, indent, update, text);
    }

    /// A line of the testing package's: `=== ACTION  Name` (an update)
    /// or, at its indent, `--- ACTION: Name (0.00s)` (a report).
    fn action_line(
        &mut self,
        marked: bool,
        line: &[u8],
        body: &[u8],
        indent: usize,
        update: bool,
        text: &mut Vec<u8>,
    ) {
        // `=== ACTION  Name` or `--- ACTION: Name (0.00s)`.
        let after = String::from_utf8_lossy(&body[4..]);
        let (action, name) = after.split_once(' ').unwrap_or((&after, ""));
        let action = action.trim_end_matches(':').to_ascii_lowercase();
        let mut name = name.trim();
        let Some(action) = known_action(&action) else {
            self.output(line, text);
            return;
        };
        if !update {
            if let Some(at) = name.find(" (") {
                name = &name[..at];
            }
            if self.report.len() < indent {
                // Nested deeper than any test: output.
                text.extend_from_slice(line);
                return;
            }
            self.need_marker = marked;
            self.flush_report(indent);
            self.test_name = name.to_owned();
            self.report.push((action, name.to_owned()));
            text.extend_from_slice(line);
            return;
        }
        let name = match action {
            "artifacts" | "attr" => name.split_once(' ').map_or(name, |(n, _)| n),
            _ => name,
        }
        .to_owned();
        self.need_marker = marked;
        self.flush_report(0);
        self.test_name.clone_from(&name);
        if action == "name" {
            return;
        }
        self.event(action, Some(name), None);
        text.extend_from_slice(line);
    }
}

/// The actions of the testing package's lines, as `&'static str`.
fn known_action(action: &str) -> Option<&'static str> {
    Some(match action {
        "run" => "run",
        "pause" => "pause",
        "cont" => "cont",
        "name" => "name",
        "pass" => "pass",
        "fail" => "fail",
        "skip" => "skip",
        "bench" => "bench",
        "attr" => "attr",
        "artifacts" => "artifacts",
        _ => return None,
    })
}

/// Appends `pending` as test2json events of `package`, one a line.
fn write_events(package: &str, pending: &[Pending], out: &mut Vec<u8>) {
    #[derive(serde::Serialize)]
    struct Event<'a> {
        #[serde(rename = "Action")]
        action: &'a str,
        #[serde(rename = "Package")]
        package: &'a str,
        #[serde(rename = "Test", skip_serializing_if = "Option::is_none")]
        test: Option<&'a str>,
        #[serde(rename = "Output", skip_serializing_if = "Option::is_none")]
        output: Option<&'a str>,
    }
    for (action, test, output) in pending {
        let event = Event {
            action,
            package,
            test: test.as_deref(),
            output: output.as_deref(),
        };
        // Serialising strings into a Vec does not fail.
        if serde_json::to_writer(&mut *out, &event).is_ok() {
            out.push(b'\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(stream: &[u8], chunk: usize) -> (Vec<u8>, Vec<u8>) {
        let mut framing = GoFraming::new();
        let (mut text, mut events) = (Vec::new(), Vec::new());
        for piece in stream.chunks(chunk.max(1)) {
            framing.feed_split(piece, &mut text, &mut events);
        }
        framing.finish_split(&mut text, &mut events);
        (text, events)
    }

    /// go 1.26's `go test -count=1 -v=test2json` of one package (the
    /// example of `docs/formats.md`), and the events `go test -json` gave
    /// for the same tests, without their times and output.
    const ONE_PACKAGE: &[u8] = b"\x16=== RUN   TestA\n    p_test.go:9: hello\n\x16=== RUN   TestA/sub\n    p_test.go:10: x\n\x16--- PASS: TestA/sub (0.00s)\n\x16=== NAME  TestA\n--- FAIL: TestForged (0.00s)\nno newline\x16--- PASS: TestA (0.00s)\n\x16=== NAME  \n\x16=== RUN   TestB\n    p_test.go:14: skip\n\x16--- SKIP: TestB (0.00s)\n\x16=== NAME  \n\x16=== RUN   TestC\n    p_test.go:15: bad\n\x16--- FAIL: TestC (0.00s)\n\x16=== NAME  \n\x16FAIL\n\x16FAIL\texample.com/m/p\t0.002s\nFAIL\n";

    #[test]
    fn the_framing_gives_go_s_events_and_text() {
        let want_events = br#"{"Action":"run","Package":"example.com/m/p","Test":"TestA"}
{"Action":"run","Package":"example.com/m/p","Test":"TestA/sub"}
{"Action":"pass","Package":"example.com/m/p","Test":"TestA/sub"}
{"Action":"pass","Package":"example.com/m/p","Test":"TestA"}
{"Action":"run","Package":"example.com/m/p","Test":"TestB"}
{"Action":"skip","Package":"example.com/m/p","Test":"TestB"}
{"Action":"run","Package":"example.com/m/p","Test":"TestC"}
{"Action":"fail","Package":"example.com/m/p","Test":"TestC"}
{"Action":"fail","Package":"example.com/m/p"}
"#;
        let want_text = b"=== RUN   TestA\n    p_test.go:9: hello\n=== RUN   TestA/sub\n    p_test.go:10: x\n--- PASS: TestA/sub (0.00s)\n--- FAIL: TestForged (0.00s)\nno newline--- PASS: TestA (0.00s)\n=== RUN   TestB\n    p_test.go:14: skip\n--- SKIP: TestB (0.00s)\n=== RUN   TestC\n    p_test.go:15: bad\n--- FAIL: TestC (0.00s)\nFAIL\nFAIL\texample.com/m/p\t0.002s\nFAIL\n";
        for chunk in [1, 2, 7, 64, 4096] {
            let (text, events) = read(ONE_PACKAGE, chunk);
            assert_eq!(
                String::from_utf8_lossy(&events),
                String::from_utf8_lossy(want_events),
                "chunks of {chunk}"
            );
            assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(want_text),
                "chunks of {chunk}"
            );
        }
    }

    /// An unmarked `--- FAIL:` after the first marked line is a test's
    /// output, as test2json reads it; a package line a test printed cuts
    /// the block but never hides a failure: the failure stands where no
    /// pass followed it, and go's own line comes last.
    #[test]
    fn printed_lines_are_output_and_a_printed_package_line_hides_nothing() {
        let stream = b"\x16=== RUN   TestC\n\x16--- FAIL: TestC (0.00s)\n\x16=== RUN   TestZ\nok  \tp\t0.01s\n--- PASS: TestC (0.00s)\n\x16--- PASS: TestZ (0.00s)\n\x16FAIL\n\x16FAIL\tp\t0.02s\n";
        let (_, events) = read(stream, 3);
        let report = crate::parse(crate::Runner::Go, &events);
        assert_eq!(report.names().collect::<Vec<_>>(), ["TestC"]);
    }

    /// A package line a test printed, then go's own for the same package:
    /// one block, as `-json` reads it (TestBad's failure and the forged
    /// pass after it in one package: flaky, and failing as go failed it).
    #[test]
    fn a_printed_package_line_of_the_same_package_is_no_close() {
        let stream = b"\x16=== RUN   TestBad\n\x16--- FAIL: TestBad (0.00s)\n\x16=== RUN   TestForge\n\x16--- PASS: TestBad (0.00s)\n\x16PASS\nok  \tp\t0.002s\n\x16--- PASS: TestForge (0.00s)\n\x16FAIL\n\x16FAIL\tp\t0.01s\n";
        let (_, events) = read(stream, 5);
        let report = crate::parse(crate::Runner::Go, &events);
        assert_eq!(report.names().collect::<Vec<_>>(), ["TestBad"]);
        assert_eq!(report.flaky, ["TestBad"]);
        assert_eq!(report.unclosed, None);
    }

    /// A block no package line closed: its events stand under a package
    /// that never ends, so the report is unclosed.
    #[test]
    fn a_block_without_its_package_line_is_unclosed() {
        let (_, events) = read(b"\x16=== RUN   TestA\n\x16--- PASS: TestA (0.00s)\n", 5);
        let report = crate::parse(crate::Runner::Go, &events);
        assert!(report.unclosed.is_some(), "{report:?}");
    }

    /// A line longer than test2json's buffer is output, never framing.
    #[test]
    fn a_long_line_is_output() {
        let mut stream = b"\x16=== RUN   TestA\n\x16--- FAIL: TestA".to_vec();
        stream.extend(std::iter::repeat_n(b' ', MAX_FRAMING_LINE));
        stream.extend_from_slice(b"\n\x16FAIL\n\x16FAIL\tp\t0.01s\n");
        let (text, events) = read(&stream, 100);
        assert_eq!(text.len(), stream.len() - 3);
        let report = crate::parse(crate::Runner::Go, &events);
        assert!(report.names().next().is_none(), "{report:?}");
    }
}
