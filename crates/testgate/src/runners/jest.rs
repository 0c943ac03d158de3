//! jest: how testgate recognises it (also through `npx`), its preset
//! environment, its versions, and retrying only the failed tests by file and
//! anchored name pattern.

use super::js::{files, js_escape, js_name_pattern, without_coverage, without_name_pattern};
use std::path::Path;

use super::{RunnerProfile, Target, names, npx_package, words};

/// `jest ARGS /FILE$… --coverage=false -t '^(?:describe test)$'`: jest's
/// path arguments are regular expressions over absolute paths, so each
/// file is escaped and anchored at a `/` and at the end.
fn jest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut out = without_coverage(without_name_pattern(rest));
    for file in files(targets) {
        let file = file.trim_start_matches("./");
        out.push(format!("/{}$", js_escape(file.trim_start_matches('/'))));
    }
    out.push("--coverage=false".to_owned());
    out.extend(["-t".to_owned(), js_name_pattern(&names(targets), " › ")]);
    out
}

/// `jest`, also through `npx`.
pub(super) struct Jest;

impl RunnerProfile for Jest {
    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        match program {
            "jest" => Some(0),
            "npx" => {
                let at = npx_package(args)?;
                (args.get(at).map(String::as_str) == Some("jest")).then_some(at + 1)
            }
            _ => None,
        }
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        Ok(jest(rest, targets))
    }

    fn uncached(&self, _rest: &[String]) -> Option<Vec<String>> {
        None
    }

    fn preset_env(&self) -> &'static [(&'static str, &'static str)] {
        &[("CI", "true")]
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["node", "--version"]),
            words(&["npx", "--no-install", "jest", "--version"]),
        ]
    }
}

/// jest's cache, `/tmp/jest_<uid in base 36>`: outside the homes, so the
/// sandbox gives it its own private, persistent place
/// ([`testgate_run::ToolCache`]), named `jest` among the project's caches.
pub(crate) fn cache(uid: u32) -> testgate_run::ToolCache {
    testgate_run::ToolCache {
        what: "jest cache".to_owned(),
        path: std::path::PathBuf::from(format!("/tmp/jest_{}", base36(uid))),
        private: "jest".to_owned(),
    }
}

/// `n` in base 36, as jest names its cache directory (`jest_` and the uid).
fn base36(mut n: u32) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jest_names_its_cache_in_base_36() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(1000), "rs");
        assert_eq!(base36(u32::MAX), "1z141z3");
        assert_eq!(cache(7).path, std::path::Path::new("/tmp/jest_7"));
    }
}
