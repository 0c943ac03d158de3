//! Tests that kill their own process.

#[test]
fn aborts() {
    std::process::abort();
}

#[test]
fn segfaults() {
    // A real fault: a signal sent with kill(1) is swallowed by std's
    // stack-overflow handler, a write to address 0 is not.
    unsafe { std::ptr::null_mut::<u8>().write_volatile(1) };
}
