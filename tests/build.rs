//! Writes what `e2e/runners/` holds into the e2e tests, so a new runner
//! adds its files, not a line: the rerun tests' list (`e2e/rerun.rs`), one
//! test per runner's data file `<runner>.json`; the checks' list
//! (`e2e/checks.rs`), one test per data file with `checks`; and a module
//! per runner's own tests `<runner>.rs` (`e2e/main.rs`'s `runners`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("e2e/runners");
    println!("cargo:rerun-if-changed={}", dir.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let mut tests = String::from("rerun_tests! {\n");
    for name in &names(&dir, ".json") {
        writeln!(tests, "    {name}_reruns_only_the_failed_tests: {name:?},").expect("a String");
    }
    tests.push_str("}\n");
    std::fs::write(out.join("rerun_tests.rs"), tests).expect("OUT_DIR is writable");
    let mut checks = String::from("checks_tests! {\n");
    for name in names(&dir, ".json")
        .iter()
        .filter(|name| has_checks(&dir, name))
    {
        writeln!(checks, "    {name}_checks: {name:?},").expect("a String");
    }
    checks.push_str("}\n");
    std::fs::write(out.join("checks_tests.rs"), checks).expect("OUT_DIR is writable");
    let mut modules = String::new();
    for name in &names(&dir, ".rs") {
        let path = dir.join(format!("{name}.rs"));
        let path = path
            .to_str()
            .unwrap_or_else(|| panic!("{}: not UTF-8", path.display()));
        writeln!(modules, "#[path = {path:?}]\nmod {name};").expect("a String");
    }
    std::fs::write(out.join("runner_modules.rs"), modules).expect("OUT_DIR is writable");
}

/// Whether `<name>.json` in `dir` has `checks` (`e2e/checks.rs`).
fn has_checks(dir: &Path, name: &str) -> bool {
    let path = dir.join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let data: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    data.get("checks").is_some()
}

/// The names of the files in `dir` that end in `suffix`, without it, sorted.
fn names(dir: &Path, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())))
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_suffix(suffix).map(str::to_owned)
        })
        .collect();
    names.sort_unstable();
    names
}
