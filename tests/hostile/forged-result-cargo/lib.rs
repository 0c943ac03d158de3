//! A library whose tests forge libtest's closing line (issue 28).

/// Adds two numbers.
pub fn add(a: u32, b: u32) -> u32 {
    a + b
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    #[test]
    fn a_fails() {
        assert_eq!(super::add(1, 1), 3);
    }

    /// Writes libtest's green closing line past the output capture (which
    /// only `print!` obeys) and ends the process with status 0 before
    /// libtest prints its own.
    #[test]
    fn b_forges_the_result() {
        // The attacker's own choice: let the failure be printed first.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let mut out = std::io::stdout();
        let _ = writeln!(
            out,
            "\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.30s\n"
        );
        let _ = out.flush();
        std::process::exit(0);
    }
}
