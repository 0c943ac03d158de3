//! `node --test`: how testgate recognises it, its preset environment, its
//! version, and retrying only the failed tests with an anchored
//! `--test-name-pattern`.

use std::path::Path;

use testgate_parse::Runner;

use super::js::js_escape;
use super::{RunnerProfile, Target, names, one_of};
use crate::project_view::{Detected, ProjectView};

/// How the parser joins a suite's title and its tests'.
const SEPARATOR: &str = " > ";

/// The `--test-name-pattern` of `names` (titles joined by ` > `): each
/// test's own title or its whole path joined with spaces, escaped and
/// anchored. node 20 matches a pattern against a test's own title; later
/// releases against the path of titles: either way the failed tests are
/// selected (and a test elsewhere with the same title too, which only
/// runs more).
pub(crate) fn node_name_pattern(names: &[&str]) -> String {
    let mut alternatives: Vec<String> = Vec::with_capacity(names.len() * 2);
    for name in names {
        let title = name.rsplit(SEPARATOR).next().unwrap_or(name);
        for alternative in [js_escape(title), js_escape(&name.replace(SEPARATOR, " "))] {
            if !alternatives.contains(&alternative) {
                alternatives.push(alternative);
            }
        }
    }
    format!("^(?:{})$", alternatives.join("|"))
}

/// The arguments without node's test name filters (`--test-name-pattern`,
/// `--test-skip-pattern`, with their value), which ours replaces.
fn without_name_pattern(rest: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(rest.len());
    let mut skip_value = false;
    for arg in rest {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        match arg.as_str() {
            "--test-name-pattern" | "--test-skip-pattern" => skip_value = true,
            _ if arg.starts_with("--test-name-pattern=")
                || arg.starts_with("--test-skip-pattern=") => {}
            _ => out.push(arg.clone()),
        }
    }
    out
}

/// `node --test` (node's options before `--test` kept in front).
pub(super) struct Node;

impl RunnerProfile for Node {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JS
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::NODE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["package.json's test script calling a known runner"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        if program != "node" && program != "nodejs" {
            return None;
        }
        // `--test` among node's options, before any script.
        let at = args
            .iter()
            .take_while(|a| a.starts_with('-'))
            .position(|a| a == "--test")?;
        Some(at + 1)
    }

    /// The pattern goes first: node takes every word after the first file
    /// for a file.
    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        let mut out = vec![format!(
            "--test-name-pattern={}",
            node_name_pattern(&names(targets))
        )];
        out.extend(without_name_pattern(rest));
        Ok(out)
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        vec![vec![program.to_owned(), "--version".to_owned()]]
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        one_of(words, &["--test-update-snapshots"], &[])
    }

    /// `npm test` whose script calls `node --test`: node's runner has no
    /// configuration file to find it by.
    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        super::npm::detect_script(project, Runner::Node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_holds_the_title_and_the_path() {
        assert_eq!(
            node_name_pattern(&["calc > big (1+1) > millions $", "top"]),
            r"^(?:millions \$|calc big \(1\+1\) millions \$|top)$"
        );
    }

    #[test]
    fn recognised_only_with_test_before_a_script() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(Node.recognise("node", &args(&["--test"])), Some(1));
        assert_eq!(
            Node.recognise("node", &args(&["--no-warnings", "--test", "t/"])),
            Some(2)
        );
        // Where it must not fire: a script given `--test` as its argument.
        assert_eq!(Node.recognise("node", &args(&["app.js", "--test"])), None);
        assert_eq!(Node.recognise("deno", &args(&["--test"])), None);
    }

    #[test]
    fn the_pattern_goes_before_the_files() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let targets = [Target {
            name: "calc > adds",
            context: None,
        }];
        assert_eq!(
            Node.select(
                &args(&["--test-name-pattern=old", "a.test.js"]),
                &targets,
                Path::new(".")
            ),
            Ok(args(&[
                "--test-name-pattern=^(?:adds|calc adds)$",
                "a.test.js"
            ]))
        );
    }
}
