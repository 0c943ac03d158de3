//! A target without libtest's harness that fails: it prints no
//! `running N tests`, no `test result:`, only its panic.

fn main() {
    let parsed: Result<u32, _> = "not a number".parse();
    assert!(parsed.is_ok(), "the custom harness found a bug: {parsed:?}");
}
