//! A crate whose registry dependency is never downloaded: see ../README.md.

pub fn render(n: u32) -> String {
    itoa::Buffer::new().format(n).to_owned()
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders() {
        assert_eq!(super::render(7), "7");
    }
}
