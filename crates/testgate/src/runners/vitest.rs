//! vitest: how testgate recognises it (also through `npx`), its preset
//! environment, its versions, and retrying only the failed tests by file and
//! anchored name pattern.

use super::js::{files, js_name_pattern, without_coverage, without_name_pattern};
use std::path::Path;

use super::{RunnerProfile, Target, names, npx_package, words};

/// `vitest run ARGS FILE… --coverage.enabled=false -t '^(?:describe
/// test)$'`: vitest's file filters are parts of the path.
fn vitest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut out = without_coverage(without_name_pattern(rest));
    out.extend(files(targets).into_iter().map(str::to_owned));
    out.push("--coverage.enabled=false".to_owned());
    out.extend(["-t".to_owned(), js_name_pattern(&names(targets), " > ")]);
    out
}

/// `vitest` and `vitest run`, also through `npx`.
pub(super) struct Vitest;

impl RunnerProfile for Vitest {
    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let run = |i: usize| usize::from(args.get(i).map(String::as_str) == Some("run"));
        match program {
            "vitest" => Some(run(0)),
            "npx" => {
                let at = npx_package(args)?;
                (args.get(at).map(String::as_str) == Some("vitest")).then(|| at + 1 + run(at + 1))
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
        Ok(vitest(rest, targets))
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
            words(&["npx", "--no-install", "vitest", "--version"]),
        ]
    }
}
