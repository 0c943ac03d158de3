#[test]
fn adds() {
    assert_eq!(exits_early::add(1, 1), 2);
}
