//! A test that starts a helper to tamper with the nextest process that runs
//! it (issue 28): to rewrite its JUnit report at exit and set its status to
//! 0, the helper needs ptrace, process_vm_writev or one of its descriptors.

#[cfg(test)]
mod tests {
    /// Passes when the helper was refused every way in; prints what it did.
    #[test]
    fn a_helper_tampers_with_nextest() {
        let nextest = std::os::unix::process::parent_id();
        let helper = concat!(env!("CARGO_MANIFEST_DIR"), "/tamper.py");
        let out = std::process::Command::new("python3")
            .arg(helper)
            .arg(nextest.to_string())
            .output()
            .expect("python3 starts");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "the helper got into nextest");
    }
}
