//! `cargo nextest run`: how testgate recognises it, asks its versions, and
//! retries only the failed tests with nextest's filtersets.

use std::path::Path;

use super::{RunnerProfile, Target, words};
use crate::detect::{Detected, ProjectView};
use testgate_parse::Runner;

/// A string for nextest's `=` (equality) name matcher, escaped as its
/// filterset reference says: `\`, `)`, `,`, `/` and control characters.
pub(crate) fn nextest_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ')' => out.push_str("\\)"),
            ',' => out.push_str("\\,"),
            '/' => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `cargo nextest run ARGS -E 'binary_id(=B) & test(=N) | …' --no-tests=fail`:
/// each name in the binary that failed it, so a test of the same name in
/// another binary does not run; no test to run is an error, not a pass.
fn nextest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut terms: Vec<String> = Vec::with_capacity(targets.len());
    for target in targets {
        let test = format!("test(={})", nextest_escape(target.name));
        let term = match target.context {
            Some(binary) => format!("(binary_id(={}) & {test})", nextest_escape(binary)),
            None => test,
        };
        if !terms.contains(&term) {
            terms.push(term);
        }
    }
    // Arguments after `--` go to the test binaries; ours go before them.
    let split = rest.iter().position(|a| a == "--").unwrap_or(rest.len());
    let mut out = rest[..split].to_vec();
    out.extend(["-E".to_owned(), terms.join(" | ")]);
    if !rest[..split]
        .iter()
        .any(|a| a == "--no-tests" || a.starts_with("--no-tests="))
    {
        out.push("--no-tests=fail".to_owned());
    }
    out.extend(rest[split..].iter().cloned());
    out
}

/// `cargo nextest run`, also as `cargo +TOOLCHAIN nextest run`.
pub(super) struct Nextest;

impl RunnerProfile for Nextest {
    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let at = super::cargo::toolchain_words(program, args)?;
        let arg = |i: usize| args.get(i).map(String::as_str);
        (arg(at) == Some("nextest") && arg(at + 1) == Some("run")).then_some(at + 2)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        Ok(nextest(rest, targets))
    }

    fn uncached(&self, _rest: &[String]) -> Option<Vec<String>> {
        None
    }

    fn preset_env(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["cargo", "--version"]),
            words(&["rustc", "--version"]),
            words(&["cargo", "nextest", "--version"]),
        ]
    }

    fn watch_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        let _ = words;
        None
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        let _ = words;
        None
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        if !configured(project) {
            return None;
        }
        let mut command = words(&["cargo", "nextest", "run"]);
        if super::cargo::is_workspace(project) {
            command.push("--workspace".to_owned());
        }
        Some(Detected::new(
            Runner::Nextest,
            command,
            vec!["Cargo.toml".to_owned(), ".config/nextest.toml".to_owned()],
        ))
    }
}

/// Whether the project runs its tests with nextest: a `Cargo.toml` and
/// nextest's configuration (`.config/nextest.toml`) at its root, and
/// `cargo-nextest` installed on the host (else `cargo test` runs them).
pub(super) fn configured(project: &ProjectView<'_>) -> bool {
    project.host().nextest
        && project.is_file("Cargo.toml")
        && project.is_file(".config/nextest.toml")
}
