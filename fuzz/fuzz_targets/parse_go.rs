//! `parse(Runner::Go, …)` and `parse(Format::Auto, …)` on arbitrary bytes,
//! and `GoEvents` rendering them: in any chunking the same text, and a line
//! that is no test2json event passes through unchanged.
#![no_main]

#[path = "../common/parse_laws.rs"]
mod parse_laws;

use libfuzzer_sys::fuzz_target;
use testgate_parse::{GoEvents, Runner};

fuzz_target!(|data: &[u8]| {
    parse_laws::check_format(Runner::Go, data);
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
