//! The `testgate` binary, started as a user would: its surface (`parse`)
//! and the hostile suites it must survive (`hostile`).
#![expect(
    clippy::disallowed_methods,
    reason = "the tests start the binary under test"
)]

mod hostile;
mod parse;
