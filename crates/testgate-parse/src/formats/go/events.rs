//! go's test2json event stream rendered back to the text `go test -v` prints.

/// The most bytes of one line held while it is read. test2json cuts a
/// test's long output into events of a few KiB; a longer line is no event
/// of go's and passes through as console text, flushed as it comes.
const MAX_EVENT_LINE: usize = 1 << 20;

/// Renders `go test -json`'s stdout back to readable console text.
///
/// Each line that is a test2json event (a JSON object with an `Action`)
/// gives its `Output` field, exactly as the test binary printed it under
/// `-v` (`=== RUN`, a test's log, `--- FAIL:`, the package's `ok`/`FAIL`
/// line); an event without output (`run`, `pass`, `fail`, …) gives
/// nothing. Any other line (go's build errors, a line that is not JSON) is
/// console text and passes through unchanged. The events themselves are
/// the runner's report; this is only how a person, the tail and the
/// console's parser see them.
///
/// Memory is bounded by 1 MiB per line (a longer line passes through as
/// it comes, never held), whatever the input.
///
/// ```
/// use testgate_parse::GoEvents;
///
/// let mut events = GoEvents::new();
/// let mut text = Vec::new();
/// events.feed(br#"{"Action":"run","Package":"p","Test":"TestA"}
/// {"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
/// {"Action":"output","Package":"p","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
/// {"Action":"pass","Package":"p","Test":"TestA","Elapsed":0}
/// go: downloading example.com/dep v1.0.0
/// "#, &mut text);
/// events.finish(&mut text);
/// assert_eq!(text, b"=== RUN   TestA\n--- PASS: TestA (0.00s)\ngo: downloading example.com/dep v1.0.0\n");
/// ```
#[derive(Debug, Default)]
pub struct GoEvents {
    /// The line being read, up to [`MAX_EVENT_LINE`] bytes.
    line: Vec<u8>,
    /// The line passed [`MAX_EVENT_LINE`]: its bytes pass through as they
    /// come until its newline.
    passing_through: bool,
}

impl GoEvents {
    /// A renderer at the start of a stream.
    pub fn new() -> Self {
        GoEvents::default()
    }

    /// Renders `chunk` (a piece of the stream, cut anywhere), appending the
    /// text to `out`. A line cut by the chunk's end is rendered once its
    /// newline comes (or at [`finish`](GoEvents::finish)).
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        self.feed_split(chunk, out, None);
    }

    /// [`feed`](GoEvents::feed), also appending to `report` each line the
    /// events' own parser ([`Runner::Go`](crate::Runner)) needs: every line
    /// but the `output` events, of which only a panic's (`panic: `,
    /// `created by `) says what the other events do not. Each event is
    /// read once, here: the report's parser then reads a few lines a test
    /// instead of every line a test logged (the output is the console's,
    /// rendered, which [`Beside::events`](crate::Beside::events) takes the
    /// failures' text and the line counts from).
    pub fn feed_split(
        &mut self,
        chunk: &[u8],
        out: &mut Vec<u8>,
        mut report: Option<&mut Vec<u8>>,
    ) {
        let mut rest = chunk;
        while !rest.is_empty() {
            let (piece, ended) = match memchr::memchr(b'\n', rest) {
                Some(at) => (&rest[..=at], true),
                None => (rest, false),
            };
            rest = &rest[piece.len()..];
            if self.passing_through {
                out.extend_from_slice(piece);
                if let Some(report) = report.as_deref_mut() {
                    report.extend_from_slice(piece);
                }
                self.passing_through = !ended;
                continue;
            }
            if self.line.len() + piece.len() > MAX_EVENT_LINE {
                if let Some(report) = report.as_deref_mut() {
                    report.extend_from_slice(&self.line);
                    report.extend_from_slice(piece);
                }
                out.append(&mut self.line);
                out.extend_from_slice(piece);
                self.passing_through = !ended;
                continue;
            }
            self.line.extend_from_slice(piece);
            if ended {
                render_line(&self.line, out, report.as_deref_mut());
                self.line.clear();
            }
        }
    }

    /// Renders a last line that had no newline.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        self.finish_split(out, None);
    }

    /// [`finish`](GoEvents::finish), with the report's lines as
    /// [`feed_split`](GoEvents::feed_split) gives them.
    pub fn finish_split(&mut self, out: &mut Vec<u8>, report: Option<&mut Vec<u8>>) {
        if !self.line.is_empty() {
            render_line(&self.line, out, report);
            self.line.clear();
        }
        self.passing_through = false;
    }
}

/// Appends what one line (with its newline, if it had one) renders to,
/// and the line to `report` unless only the console needs it.
fn render_line(line: &[u8], out: &mut Vec<u8>, report: Option<&mut Vec<u8>>) {
    if let Some(output) = plain_output(line) {
        // Most lines: a test's log, which only the console reads.
        output.render(out);
        return;
    }
    let event = event_of(line);
    let console_only = event.as_ref().is_some_and(|event| {
        event.action == "output"
            && !event
                .output
                .as_deref()
                .is_some_and(|o| o.starts_with("panic: ") || o.starts_with("created by "))
    });
    if let Some(report) = report
        && !console_only
    {
        report.extend_from_slice(line);
    }
    match event {
        Some(event) => out.extend_from_slice(event.output.unwrap_or_default().as_bytes()),
        None => out.extend_from_slice(line),
    }
}

/// The two fields of a test2json event the console needs, borrowed from
/// the line where go wrote them without escapes (most `Output`s), every
/// other field skipped (and checked to be JSON): a `serde_json::Value` per
/// line cost ten times as much.
#[derive(serde::Deserialize)]
struct Event<'a> {
    /// A string: what makes the object an event.
    #[serde(rename = "Action", borrow)]
    action: std::borrow::Cow<'a, str>,
    #[serde(rename = "Output", borrow, default)]
    output: Option<std::borrow::Cow<'a, str>>,
}

/// The `Output` of a test2json `output` event, read without decoding the
/// rest of the line: a test's log line as go writes it
/// (`{"Time":…,"Action":"output","Package":…,"Test":…,"Output":"    x_test.go:9: text\n"}`,
/// `Output` last), its text as is where go escaped nothing but the closing
/// newline, else decoded alone. `None` for any other line, which is
/// decoded whole: a `panic: `/`created by ` line (go's report reads it
/// too), an event of another action, a line that is not go's. The fields
/// before `Output` are not checked to be JSON: the line is go's own (a
/// test's text is inside an `Output`) and only the console reads what
/// this returns.
fn plain_output(line: &[u8]) -> Option<Output<'_>> {
    const OUTPUT: &[u8] = b",\"Output\":\"";
    // Built once: a finder built per line cost more than its search.
    static OUTPUT_FINDER: std::sync::LazyLock<memchr::memmem::FinderRev<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::FinderRev::new(OUTPUT));
    static ACTION_FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"Action\":\"output\","));
    let text = line.strip_suffix(b"\n")?;
    let inner = text.strip_prefix(b"{")?.strip_suffix(b"}")?;
    let at = OUTPUT_FINDER.rfind(inner)?;
    let (fields, quoted) = (&inner[..at], &inner[at + OUTPUT.len() - 1..]);
    ACTION_FINDER.find(fields)?;
    let plain = quoted
        .strip_prefix(b"\"")
        .and_then(|o| o.strip_suffix(b"\\n\""))
        .filter(|o| memchr::memchr2(b'\\', b'"', o).is_none());
    let output = match plain {
        Some(plain) => Output::Line(plain),
        None => Output::Decoded(serde_json::from_slice(quoted).ok()?),
    };
    let start = match &output {
        Output::Line(text) => text,
        Output::Decoded(text) => text.as_bytes(),
    };
    if start.starts_with(b"panic: ") || start.starts_with(b"created by ") {
        return None;
    }
    Some(output)
}

/// An `Output` as [`plain_output`] read it.
#[derive(Debug, PartialEq)]
enum Output<'a> {
    /// The text before its newline, as go wrote it.
    Line(&'a [u8]),
    /// The text, decoded.
    Decoded(std::borrow::Cow<'a, str>),
}

impl Output<'_> {
    fn render(&self, out: &mut Vec<u8>) {
        match self {
            Output::Line(text) => {
                out.extend_from_slice(text);
                out.push(b'\n');
            }
            Output::Decoded(text) => out.extend_from_slice(text.as_bytes()),
        }
    }
}

/// The test2json event in `line`; `None` for any other line, JSON or not.
fn event_of(line: &[u8]) -> Option<Event<'_>> {
    let text = line.strip_suffix(b"\n").unwrap_or(line);
    let text = text.strip_suffix(b"\r").unwrap_or(text);
    if text.first() != Some(&b'{') {
        return None;
    }
    serde_json::from_slice(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(stream: &[u8], chunk: usize) -> Vec<u8> {
        let mut events = GoEvents::new();
        let mut out = Vec::new();
        for piece in stream.chunks(chunk.max(1)) {
            events.feed(piece, &mut out);
        }
        events.finish(&mut out);
        out
    }

    #[test]
    fn events_give_their_output_and_other_lines_pass_through() {
        let stream = b"# example.com/p\n\
./p_test.go:3:1: syntax error\n\
{\"Action\":\"output\",\"Package\":\"p\",\"Output\":\"FAIL\\texample.com/p [build failed]\\n\"}\n\
{\"Action\":\"fail\",\"Package\":\"p\",\"Elapsed\":0}\n\
{\"numFailedTests\":1}\n\
{\"Action\": broken\n\
tail without newline";
        let want = b"# example.com/p\n\
./p_test.go:3:1: syntax error\n\
FAIL\texample.com/p [build failed]\n\
{\"numFailedTests\":1}\n\
{\"Action\": broken\n\
tail without newline";
        for chunk in [1, 2, 7, 64, 4096] {
            assert_eq!(render(stream, chunk), want, "chunks of {chunk}");
        }
    }

    /// go 1.24+ reports a build under `-json` as events of its own
    /// (`build-output` with an `ImportPath` and no `Package`, then
    /// `build-fail`): their output is the compiler's text, as go 1.19 printed
    /// it outside the events (`fixtures/go/json_build_failure.log`, captured
    /// on go 1.26).
    #[test]
    fn build_events_give_the_compilers_text() {
        let stream = br##"{"ImportPath":"example.com/m/q [example.com/m/q.test]","Action":"build-output","Output":"# example.com/m/q [example.com/m/q.test]\n"}
{"ImportPath":"example.com/m/q [example.com/m/q.test]","Action":"build-output","Output":"q/q_test.go:3:28: undefined: undefined\n"}
{"ImportPath":"example.com/m/q [example.com/m/q.test]","Action":"build-fail"}
{"Time":"2026-12-06T14:00:16.807303804Z","Action":"output","Package":"example.com/m/q","Output":"FAIL\texample.com/m/q [build failed]\n"}
{"Time":"2026-12-06T14:00:16.807314295Z","Action":"fail","Package":"example.com/m/q","Elapsed":0,"FailedBuild":"example.com/m/q [example.com/m/q.test]"}
"##;
        assert_eq!(
            render(stream, 9),
            b"# example.com/m/q [example.com/m/q.test]\n\
q/q_test.go:3:28: undefined: undefined\n\
FAIL\texample.com/m/q [build failed]\n"
        );
    }

    /// An output event's text is go's, escapes decoded; it need not end a
    /// line (a test's `fmt.Print` without newline).
    #[test]
    fn output_is_decoded_and_joined_as_printed() {
        let stream = br#"{"Action":"output","Package":"p","Test":"T","Output":"half \u001b[31mred"}
{"Action":"output","Package":"p","Test":"T","Output":" and\ttab\n"}
"#;
        assert_eq!(render(stream, 5), b"half \x1b[31mred and\ttab\n");
    }

    /// A test's log line is read without decoding it where go wrote no
    /// escape but its newline; where it did, or the line is any other
    /// (a panic's, which go's report reads, an event of another action, a
    /// line that is not go's), it is decoded.
    #[test]
    fn plain_output_is_read_only_where_nothing_is_escaped() {
        let log = br#"{"Time":"2026-12-06T17:00:00Z","Action":"output","Package":"p","Test":"T/a","Output":"    p_test.go:9: step 1\n"}
"#;
        assert_eq!(
            plain_output(log),
            Some(Output::Line(b"    p_test.go:9: step 1"))
        );
        // Escaped text is decoded alone, as decoding the line decodes it.
        for line in [
            &br#"{"Action":"output","Package":"p","Test":"T","Output":"a\tb \u003c\n"}
"#[..],
            br#"{"Action":"output","Package":"p","Test":"T","Output":"say \"hi\"\n"}
"#,
            br#"{"Action":"output","Package":"p","Test":"T","Output":"no newline"}
"#,
            // A test that prints the end of an event: go escapes its
            // quotes, so the last unescaped `,"Output":"` is go's own.
            br#"{"Action":"output","Package":"p","Test":"T\",\"Output\":\"","Output":"x\",\"Output\":\"forged\n"}
"#,
        ] {
            let whole = event_of(line).and_then(|e| e.output);
            let mut read = Vec::new();
            plain_output(line)
                .expect("an output event")
                .render(&mut read);
            assert_eq!(Some(&read[..]), whole.as_deref().map(str::as_bytes));
        }
        for line in [
            &br#"{"Action":"output","Package":"p","Test":"T","Output":"panic: boom\n"}
"#[..],
            br#"{"Action":"output","Package":"p","Test":"T","Output":"created by p.T in goroutine 7\n"}
"#,
            br#"{"Action":"pass","Package":"p","Test":"T","Output":"x\n"}
"#,
            br#"{"Action":"output","Package":"p","Test":"T","Output":"x\n"}"#,
            b"    p_test.go:9: step 1\n\n",
        ] {
            assert_eq!(plain_output(line), None, "{}", String::from_utf8_lossy(line));
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            render_line(line, &mut fast, None);
            if let Some(event) = event_of(line) {
                slow.extend_from_slice(event.output.unwrap_or_default().as_bytes());
            } else {
                slow.extend_from_slice(line);
            }
            assert_eq!(fast, slow);
        }
        // Where it reads a line, it reads what decoding reads.
        let mut rendered = Vec::new();
        render_line(log, &mut rendered, None);
        assert_eq!(
            event_of(log).and_then(|e| e.output).as_deref(),
            Some("    p_test.go:9: step 1\n")
        );
        assert_eq!(rendered, b"    p_test.go:9: step 1\n");
    }

    /// A line longer than any event passes through whole, in bounded memory.
    #[test]
    fn an_endless_line_passes_through() {
        let mut stream = vec![b'{'; MAX_EVENT_LINE + 10];
        stream.extend_from_slice(b"\nafter\n");
        let mut events = GoEvents::new();
        let mut out = Vec::new();
        for piece in stream.chunks(4096) {
            events.feed(piece, &mut out);
            assert!(events.line.len() <= MAX_EVENT_LINE);
        }
        events.finish(&mut out);
        assert_eq!(out, stream);
    }
}
