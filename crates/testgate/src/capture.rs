//! Where one attempt's output goes: the streaming parser, a tail buffer of
//! the last bytes, and the caller's observer (a live view).

use testgate_parse::{
    EnvironmentFailure, Format, GoEvents, GoFraming, Report, Runner, StreamParser,
};
use testgate_run::OutputSink;

use crate::records::Observer;

/// The last bytes of an output, in memory bounded by twice the limit.
#[derive(Debug)]
pub(crate) struct TailBuffer {
    limit: usize,
    bytes: Vec<u8>,
}

impl TailBuffer {
    pub(crate) fn new(limit: usize) -> Self {
        TailBuffer {
            limit,
            bytes: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, chunk: &[u8]) {
        if chunk.len() >= self.limit {
            self.bytes.clear();
            self.bytes
                .extend_from_slice(&chunk[chunk.len() - self.limit..]);
            return;
        }
        self.bytes.extend_from_slice(chunk);
        // Drop the front only when twice the limit is reached, so each byte
        // is moved at most once on average.
        if self.bytes.len() >= 2 * self.limit {
            let excess = self.bytes.len() - self.limit;
            self.bytes.drain(..excess);
        }
    }

    /// The last `limit` bytes at most.
    pub(crate) fn bytes(&self) -> &[u8] {
        let start = self.bytes.len().saturating_sub(self.limit);
        &self.bytes[start..]
    }
}

/// What reads go's stdout: `-json`'s events or `-v=test2json`'s framing.
enum Renderer {
    Json(GoEvents),
    Framing(GoFraming),
}

impl Renderer {
    fn feed(&mut self, chunk: &[u8], text: &mut Vec<u8>, report: &mut Vec<u8>) {
        match self {
            Renderer::Json(events) => events.feed_split(chunk, text, Some(report)),
            Renderer::Framing(framing) => framing.feed_split(chunk, text, report),
        }
    }

    fn finish(&mut self, text: &mut Vec<u8>, report: &mut Vec<u8>) {
        match self {
            Renderer::Json(events) => events.finish_split(text, Some(report)),
            Renderer::Framing(framing) => framing.finish_split(text, report),
        }
    }
}

/// The sink of one attempt.
pub(crate) struct AttemptSink<'a> {
    /// The console's parser, which also runs the environment and coverage
    /// scans on the lines it splits.
    pub(crate) parser: StreamParser,
    pub(crate) tail: TailBuffer,
    pub(crate) observer: &'a mut dyn Observer,
    /// The runner's report is its stdout's events (`go test -json`).
    events: Option<StdoutEvents>,
}

/// A report written as events on the runner's stdout: the events are
/// parsed as the report, and everything else (the console's parser, the
/// scans, the tail, the live view) sees the text rendered back from them.
struct StdoutEvents {
    renderer: Renderer,
    parser: StreamParser,
    /// The current chunk's rendered text (one buffer reused).
    text: Vec<u8>,
    /// The current chunk's lines the report's parser needs
    /// ([`GoEvents::feed_split`]: all but the tests' output; one buffer
    /// reused).
    report: Vec<u8>,
}

impl<'a> AttemptSink<'a> {
    pub(crate) fn new(format: Format, tail_bytes: usize, observer: &'a mut dyn Observer) -> Self {
        AttemptSink {
            parser: StreamParser::new(format).with_scans(),
            tail: TailBuffer::new(tail_bytes),
            observer,
            events: None,
        }
    }

    /// The output's stdout carries `runner`'s events, `go test -json`'s
    /// (or, `framing`, `go test -v=test2json`'s marked text, read as
    /// `-json` converts it):
    /// they are the report ([`Finished::events`]), and the rest of the sink
    /// sees the text rendered back from them.
    pub(crate) fn with_go_events(mut self, runner: Runner, framing: bool) -> Self {
        let renderer = if framing {
            Renderer::Framing(GoFraming::new())
        } else {
            Renderer::Json(GoEvents::new())
        };
        self.events = Some(StdoutEvents {
            renderer,
            parser: StreamParser::new(runner),
            text: Vec::new(),
            report: Vec::new(),
        });
        self
    }

    /// The parser's report, the printable tail, and what the scans saw.
    pub(crate) fn finish(mut self) -> Finished {
        let events = self.events.take().map(|mut events| {
            events.text.clear();
            events.report.clear();
            events.renderer.finish(&mut events.text, &mut events.report);
            events.parser.feed(&events.report);
            let text = std::mem::take(&mut events.text);
            self.shown(&text);
            events.parser.finish()
        });
        let scanned = self.parser.finish_scanned();
        Finished {
            tail: testgate_parse::printable(self.tail.bytes()),
            report: scanned.report,
            events,
            environment: scanned.environment,
            coverage_below_threshold: scanned.coverage_below_threshold,
        }
    }

    /// Text as the console shows it.
    fn shown(&mut self, chunk: &[u8]) {
        self.parser.feed(chunk);
        self.tail.push(chunk);
        self.observer.output(chunk);
    }
}

/// What one attempt's output showed.
pub(crate) struct Finished {
    /// The console's report: what the output (rendered back from events
    /// where the report is the runner's stdout) shows.
    pub(crate) report: Report,
    /// The report of the events on stdout, where the runner's report is
    /// written there ([`AttemptSink::with_go_events`]).
    pub(crate) events: Option<Report>,
    pub(crate) tail: String,
    pub(crate) environment: Option<EnvironmentFailure>,
    pub(crate) coverage_below_threshold: bool,
}

impl OutputSink for AttemptSink<'_> {
    fn output(&mut self, chunk: &[u8]) {
        match self.events.as_mut() {
            Some(events) => {
                // Each event is read once: the renderer hands the report's
                // parser the lines it needs, the console the text.
                events.text.clear();
                events.report.clear();
                events
                    .renderer
                    .feed(chunk, &mut events.text, &mut events.report);
                events.parser.feed(&events.report);
                let text = std::mem::take(&mut events.text);
                self.shown(&text);
                if let Some(events) = self.events.as_mut() {
                    events.text = text;
                }
            }
            None => self.shown(chunk),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TailBuffer;

    #[test]
    fn keeps_the_last_bytes_whatever_the_chunking() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        for chunk in [1, 7, 100, 999, 5000, 20_000] {
            let mut tail = TailBuffer::new(1000);
            for piece in data.chunks(chunk) {
                tail.push(piece);
                assert!(tail.bytes.capacity() < 4 * 1000 + chunk);
            }
            assert_eq!(
                tail.bytes(),
                &data[data.len() - 1000..],
                "chunks of {chunk}"
            );
        }
    }

    #[test]
    fn short_output_is_kept_whole() {
        let mut tail = TailBuffer::new(1000);
        tail.push(b"abc");
        tail.push(b"def");
        assert_eq!(tail.bytes(), b"abcdef");
    }
}
