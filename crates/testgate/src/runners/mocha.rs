//! mocha: how testgate recognises it (also through `npx`), its preset
//! environment, its versions, and retrying only the failed tests with an
//! anchored `--grep` over their full titles.

use std::path::Path;

use testgate_parse::Runner;

use super::js::js_escape;
use super::{
    RunnerProfile, Target, names, names_program, node_package_versions, one_of, own_or_npx,
};
use crate::project_view::{Detected, ProjectView};

/// The titles mocha gives a failing hook: `suite "before all" hook for
/// "test"` (or `in "{root}"` at the root).
const HOOKS: [&str; 4] = [
    " \"before all\" hook",
    " \"before each\" hook",
    " \"after all\" hook",
    " \"after each\" hook",
];

/// The `--grep` of `names`, mocha's full titles (the suites' titles and the
/// test's joined with spaces, what `--grep` is matched against): each
/// escaped and anchored; a hook's failure selects its whole suite (every
/// title that starts with the suite's and a space). A hook of the root
/// suite belongs to every test: no grep selects it.
pub(crate) fn mocha_grep(names: &[&str]) -> Result<String, String> {
    let mut alternatives = Vec::with_capacity(names.len());
    for name in names {
        let hook = HOOKS.iter().find_map(|hook| Some(name.split_once(hook)?.0));
        let root_hook = HOOKS.iter().any(|hook| name.starts_with(hook.trim_start()));
        match hook {
            _ if root_hook => {
                return Err(format!("`{name}` is a hook of mocha's root suite"));
            }
            Some(suite) => alternatives.push(format!("{} ", js_escape(suite))),
            None => alternatives.push(format!("{}$", js_escape(name))),
        }
    }
    Ok(format!("^(?:{})", alternatives.join("|")))
}

/// The arguments without mocha's own test filters (`--grep`/`-g`,
/// `--fgrep`/`-f`, with their value), which ours replaces; an inverted
/// filter (`--invert`/`-i`) cannot be narrowed.
fn without_grep(rest: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(rest.len());
    let mut skip_value = false;
    for arg in rest {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        match arg.as_str() {
            "--grep" | "-g" | "--fgrep" | "-f" => skip_value = true,
            "--invert" | "-i" => {
                return Err("the mocha command inverts its filter (`--invert`)".to_owned());
            }
            _ if arg.starts_with("--grep=") || arg.starts_with("--fgrep=") => {}
            _ => out.push(arg.clone()),
        }
    }
    Ok(out)
}

/// `mocha`, also through `npx`.
pub(super) struct Mocha;

impl RunnerProfile for Mocha {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JS
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::NODE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["package.json's test script calling a known runner"]
    }

    fn programs(&self) -> &'static [super::Program] {
        &[super::Program {
            names: &["mocha"],
            prefixes: &[],
            caches: &[],
        }]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        own_or_npx(program, args, "mocha")
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        let mut out = without_grep(rest)?;
        out.extend(["--grep".to_owned(), mocha_grep(&names(targets))?]);
        Ok(out)
    }

    fn tool_output(&self) -> &'static [super::ToolOutput] {
        super::js::COVERAGE_OUTPUT
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        node_package_versions("mocha")
    }

    fn watch_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        // mocha's short `-w`, only where mocha is named.
        names_program(words, "mocha")
            .then(|| one_of(words, &["-w"], &[]))
            .flatten()
    }

    /// `npm test` whose script calls mocha. A `.mocharc.*` alone does not
    /// name the command (its `spec` may need the script's arguments).
    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        super::npm::detect_script(project, Runner::Mocha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grep_is_escaped_and_anchored() {
        assert_eq!(
            mocha_grep(&["calc adds", "calc big (1+1) [x]? millions $ ^"]),
            Ok(r"^(?:calc adds$|calc big \(1\+1\) \[x\]\? millions \$ \^$)".to_owned())
        );
    }

    #[test]
    fn a_hook_selects_its_suite_and_a_root_hook_refuses() {
        assert_eq!(
            mocha_grep(&["db \"before all\" hook for \"reads\""]),
            Ok("^(?:db )".to_owned())
        );
        assert!(mocha_grep(&["\"before each\" hook in \"{root}\""]).is_err());
        // Where it must not fire: a title that only mentions a hook.
        assert_eq!(
            mocha_grep(&["runs the before all hook"]),
            Ok("^(?:runs the before all hook$)".to_owned())
        );
    }

    #[test]
    fn the_users_filters_are_replaced_and_an_inverted_one_refused() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            without_grep(&args(&["test/", "-g", "x", "--fgrep=y", "--bail"])),
            Ok(args(&["test/", "--bail"]))
        );
        assert!(without_grep(&args(&["--grep", "x", "--invert"])).is_err());
    }
}
