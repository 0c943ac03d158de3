//! A test that never ends, between two that do: the capture script kills
//! the run, as a timeout does, and the log ends inside `b_hangs`.

#[test]
fn a_passes() {}

#[test]
fn b_hangs() {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

#[test]
fn c_never_starts() {}
