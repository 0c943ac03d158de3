//! Where one attempt's output goes: the streaming parser, a tail buffer of
//! the last bytes, and the caller's observer (a live view).

use testgate_parse::{
    CoverageScan, EnvironmentFailure, EnvironmentScan, Format, Report, StreamParser,
};
use testgate_run::OutputSink;

use crate::suite::Observer;

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

/// The sink of one attempt.
pub(crate) struct AttemptSink<'a> {
    pub(crate) parser: StreamParser,
    pub(crate) environment: EnvironmentScan,
    pub(crate) coverage: CoverageScan,
    pub(crate) tail: TailBuffer,
    pub(crate) observer: &'a mut dyn Observer,
}

impl<'a> AttemptSink<'a> {
    pub(crate) fn new(format: Format, tail_bytes: usize, observer: &'a mut dyn Observer) -> Self {
        AttemptSink {
            parser: StreamParser::new(format),
            environment: EnvironmentScan::new(),
            coverage: CoverageScan::new(),
            tail: TailBuffer::new(tail_bytes),
            observer,
        }
    }

    /// The parser's report, the printable tail, and what the scans saw.
    pub(crate) fn finish(self) -> Finished {
        Finished {
            tail: testgate_parse::printable(self.tail.bytes()),
            report: self.parser.finish(),
            environment: self.environment.finish(),
            coverage_below_threshold: self.coverage.finish(),
        }
    }
}

/// What one attempt's output showed.
pub(crate) struct Finished {
    pub(crate) report: Report,
    pub(crate) tail: String,
    pub(crate) environment: Option<EnvironmentFailure>,
    pub(crate) coverage_below_threshold: bool,
}

impl OutputSink for AttemptSink<'_> {
    fn output(&mut self, chunk: &[u8]) {
        self.parser.feed(chunk);
        self.environment.feed(chunk);
        self.coverage.feed(chunk);
        self.tail.push(chunk);
        self.observer.output(chunk);
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
