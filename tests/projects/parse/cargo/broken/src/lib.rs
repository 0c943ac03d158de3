//! Does not compile on purpose.

pub fn answer() -> i64 {
    undefined_value + 1
}

#[cfg(test)]
mod tests {
    #[test]
    fn answers() {
        assert_eq!(super::answer(), 42);
    }
}
