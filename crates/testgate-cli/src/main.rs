//! The `testgate` command.

fn main() {}
