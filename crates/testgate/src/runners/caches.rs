//! Which of the project's private toolchain caches a program uses: handed
//! to `testgate-run` as data ([`testgate_run::RunSpec::caches`]), which
//! knows no tool by name.

use std::ffi::OsStr;
use std::path::Path;

/// The private caches (by [`testgate_run::PRIVATE_CACHES`] and
/// [`tool_caches`]' names) the program
/// `program` (a path or a name) may use, `None` for any other (a shell,
/// `make`, a script), which may use all of them. A copy costs time on a
/// project's first check (the host's npm cache is often hundreds of
/// megabytes), so a `go test` does not pay for npm's, a test runner for a
/// package manager's, and cargo (whose registry is the host's, read-only)
/// for none.
pub(crate) fn caches_used_by(program: &OsStr) -> Option<Vec<String>> {
    let program = Path::new(program)
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    used_by(&program).map(|names| names.iter().map(|&name| name.to_owned()).collect())
}

/// The caches tools keep at a fixed path outside the homes, handed to
/// every sandboxed run ([`testgate_run::RunSpec::tool_caches`]): jest's.
pub(crate) fn tool_caches() -> Vec<testgate_run::ToolCache> {
    vec![super::jest::cache(testgate_run::effective_uid())]
}

/// [`caches_used_by`] of a file name.
fn used_by(program: &str) -> Option<&'static [&'static str]> {
    let python_tool = program.starts_with("python")
        || program.starts_with("pip")
        || matches!(program, "tox" | "nox" | "uv" | "poetry" | "pdm" | "hatch");
    match program {
        "go" | "gotestsum" => Some(&["home-cache/go-build"]),
        "pytest" | "py.test" | "cargo" | "cargo-nextest" | "rustc" => Some(&[]),
        "node" | "npx" | "jest" | "vitest" => Some(&["jest"]),
        "npm" | "yarn" | "pnpm" | "bun" => Some(&["npm/_cacache", "jest"]),
        _ if python_tool => Some(&["home-cache/pip"]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runner_gets_only_its_toolchains_caches_a_script_all() {
        let go: &[&str] = &["home-cache/go-build"];
        let none: &[&str] = &[];
        for (program, expected) in [
            ("go", Some(go)),
            ("python3.12", Some(&["home-cache/pip"][..])),
            ("tox", Some(&["home-cache/pip"][..])),
            ("pytest", Some(none)),
            ("cargo", Some(none)),
            ("npx", Some(&["jest"][..])),
            ("npm", Some(&["npm/_cacache", "jest"][..])),
            ("make", None),
            ("sh", None),
            ("gofmt", None),
        ] {
            assert_eq!(used_by(program), expected, "{program}");
        }
        assert_eq!(
            caches_used_by(OsStr::new("/usr/local/go/bin/go")),
            Some(vec!["home-cache/go-build".to_owned()])
        );
    }

    /// Every name handed over is one `testgate-run` keeps: a misspelt one
    /// would silently seed nothing.
    #[test]
    fn every_cache_named_is_one_testgate_run_keeps() {
        for program in ["go", "python3", "npm", "npx", "cargo"] {
            for name in used_by(program).unwrap_or_default() {
                let tool = tool_caches().iter().any(|tool| tool.private == *name);
                assert!(
                    testgate_run::PRIVATE_CACHES.contains(name) || tool,
                    "{name}"
                );
            }
        }
    }
}
