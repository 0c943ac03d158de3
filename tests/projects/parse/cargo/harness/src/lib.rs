//! A library whose doctest fails.

/// Doubles `x`.
///
/// ```
/// assert_eq!(harness::double(2), 5);
/// ```
pub fn double(x: i32) -> i32 {
    x * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double(2), 4);
    }
}
