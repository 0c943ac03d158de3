#[test]
fn big_numbers() {
    let expected = if calc::mode() == "fail" { 1 } else { 2_000_000 };
    assert_eq!(calc::add(1_000_000, 1_000_000), expected);
}
