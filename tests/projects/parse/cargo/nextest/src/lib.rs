//! Plain unit tests next to the misbehaving integration tests.

pub fn double(x: i64) -> i64 {
    x * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double(2), 4);
    }

    #[test]
    fn doubles_wrong() {
        assert_eq!(super::double(2), 5);
    }

    #[test]
    fn liar() {
        // Passes, but prints lines that look like failures.
        println!("--- FAIL: TestFake (0.00s)");
        println!("test fake ... FAILED");
        println!("        FAIL [   0.001s] nextest-demo fake");
    }
}
