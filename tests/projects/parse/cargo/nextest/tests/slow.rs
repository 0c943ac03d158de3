//! A test that outlives the profile's slow-timeout.

#[test]
fn sleeps_too_long() {
    std::thread::sleep(std::time::Duration::from_secs(20));
}
