//! `StreamParser` fed in fuzzer-chosen chunks gives the one-shot `parse`.
//!
//! Input layout: byte 0 picks the format (in `Format::ALL`: auto, then each runner),
//! byte 1 is how many chunk sizes follow (0 to 15), then the sizes, one byte
//! each; the rest is the output. The sizes are used in turn, cycling, so
//! chunk boundaries fall mid-line, mid-CRLF and mid-UTF-8 character; a size
//! of 0 feeds an empty chunk. No sizes, or only zeros, feed one byte at a
//! time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use testgate_parse::{Format, StreamParser, parse};


fuzz_target!(|data: &[u8]| {
    let Some((&format, rest)) = data.split_first() else {
        return;
    };
    let format = Format::ALL[usize::from(format) % Format::ALL.len()];
    let Some((&count, rest)) = rest.split_first() else {
        return;
    };
    let count = usize::from(count % 16).min(rest.len());
    let (sizes, output) = rest.split_at(count);
    let sizes: Vec<usize> = if sizes.iter().all(|&s| s == 0) {
        vec![1]
    } else {
        sizes.iter().map(|&s| usize::from(s)).collect()
    };

    let mut parser = StreamParser::new(format);
    let mut at = 0;
    for &size in sizes.iter().cycle() {
        if at >= output.len() {
            break;
        }
        let end = (at + size).min(output.len());
        parser.feed(&output[at..end]);
        at = end;
    }
    let streamed = parser.finish();
    let whole = parse(format, output);
    assert_eq!(streamed, whole, "format {format}, chunk sizes {sizes:?}");
});
