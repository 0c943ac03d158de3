//! `GoFraming` converting `go test -v=test2json` output on arbitrary bytes:
//! in any chunking the same console text and the same events, every event
//! one JSON object a line, and go's parser reads them without panicking.
//! Layout: the first byte picks a chunk size (1 + its value), the rest is
//! the output. (Go's parser on its own is fuzzed by `parse_runner`.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use testgate_parse::{GoFraming, Runner, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&size, output)) = data.split_first() else {
        return;
    };
    let convert = |chunk: usize| {
        let mut framing = GoFraming::new();
        let (mut text, mut events) = (Vec::new(), Vec::new());
        for piece in output.chunks(chunk) {
            framing.feed_split(piece, &mut text, &mut events);
        }
        framing.finish_split(&mut text, &mut events);
        (text, events)
    };
    let whole = convert(output.len().max(1));
    assert_eq!(
        convert(usize::from(size) + 1),
        whole,
        "GoFraming depends on the chunking"
    );
    if output.len() <= 4096 {
        assert_eq!(convert(1), whole, "GoFraming depends on the chunking");
    }
    let (_, events) = &whole;
    for line in events.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        assert!(
            line.starts_with(b"{") && line.ends_with(b"}"),
            "an event that is no JSON object: {:?}",
            String::from_utf8_lossy(line)
        );
    }
    let _ = parse(Runner::Go, events);
});
