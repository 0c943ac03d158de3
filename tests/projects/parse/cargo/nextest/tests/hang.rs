//! A test that never ends: the capture script kills the run, as a timeout
//! kills it, after nextest has said `SLOW` of it (slow-timeout 500ms in
//! profile `ci`).

#[test]
fn hangs_forever() {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}
