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
