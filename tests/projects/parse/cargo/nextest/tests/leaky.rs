//! Tests that leave a child holding their stdout open.

fn leak() {
    // Not waited for: the child keeps the test's output pipes open.
    let _child = std::process::Command::new("sleep").arg("2").spawn();
}

#[test]
fn leaks() {
    leak();
}

#[test]
fn leaks_and_fails_by_policy() {
    leak();
}
