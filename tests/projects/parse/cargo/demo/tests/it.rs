//! The second test binary: one pass, one panic.

#[test]
fn it_passes() {
    assert_eq!(demo::add(1, 1), 2);
}

#[test]
fn it_panics() {
    let v: Vec<i64> = Vec::new();
    let _ = v[3];
}
