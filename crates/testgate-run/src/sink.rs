//! Where a run's output goes ([`OutputSink`]).

/// Where a run's output goes, chunk by chunk, stdout and stderr merged in
/// arrival order line by line: a stream's unfinished line waits (up to
/// 200 ms, at most 64 KiB) for its newline, so a line of the other stream
/// never lands inside it. The runner holds at most one 64 KiB chunk and
/// one unfinished line per stream; whether output is kept, counted, parsed
/// or shown live (a tee) is the sink's business.
pub trait OutputSink {
    /// Takes the next chunk of output.
    fn output(&mut self, chunk: &[u8]);
}

impl<F: FnMut(&[u8])> OutputSink for F {
    fn output(&mut self, chunk: &[u8]) {
        self(chunk);
    }
}
