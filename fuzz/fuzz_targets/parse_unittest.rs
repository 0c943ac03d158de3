//! `parse(Runner::Unittest, …)` and `parse(Format::Auto, …)` on arbitrary bytes.
#![no_main]

#[path = "../common/parse_laws.rs"]
mod parse_laws;

use libfuzzer_sys::fuzz_target;
use testgate_parse::Runner;

fuzz_target!(|data: &[u8]| parse_laws::check_format(Runner::Unittest, data));
