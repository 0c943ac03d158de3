//! Writes the rerun tests' list (`e2e/rerun.rs`): one test per runner's
//! data file in `e2e/runners/`, so a new runner adds its file, not a line.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("e2e/runners");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())))
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    names.sort_unstable();
    let mut tests = String::from("rerun_tests! {\n");
    for name in &names {
        writeln!(tests, "    {name}_reruns_only_the_failed_tests: {name:?},").expect("a String");
    }
    tests.push_str("}\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("rerun_tests.rs"), tests).expect("OUT_DIR is writable");
}
