//! A crate whose `rust-version` no installed rustc meets.

#[cfg(test)]
mod tests {
    #[test]
    fn passes() {}
}
