//! `GoEvents` rendering `go test -json` output on arbitrary bytes: in any
//! chunking the same text, and a line that is no test2json event passes
//! through unchanged. (Go's parser itself is fuzzed by `parse_runner`.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use testgate_parse::GoEvents;

fuzz_target!(|data: &[u8]| {
    let render = |chunk: usize| {
        let mut events = GoEvents::new();
        let mut out = Vec::new();
        for piece in data.chunks(chunk) {
            events.feed(piece, &mut out);
        }
        events.finish(&mut out);
        out
    };
    let whole = render(data.len().max(1));
    assert_eq!(render(7), whole, "GoEvents depends on the chunking");
    if !data.contains(&b'{') {
        assert_eq!(whole, data, "text without an event passes through");
    }
});
