//! `cargo test`: how testgate recognises it, asks its versions, and retries
//! only the failed tests with libtest's exact filters.

use std::path::Path;

use super::{RunnerProfile, Target, names, one_of, words};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// A doctest's name, `src/lib.rs - add (line 5)`: libtest's filter can
/// match it, but the line number moves with every edit above it, so
/// testgate does not claim to select it exactly.
pub(crate) fn is_doctest(target: &Target<'_>) -> bool {
    target.context.is_some_and(|c| c.starts_with("Doc-tests "))
        || (target.name.contains(" - ")
            && target.name.ends_with(')')
            && target.name.contains(" (line "))
}

/// A whole test target cargo said failed, named by cargo's selector
/// (`--test it`, `--doc`, `-p a --lib`): no libtest test is named so, and
/// after `--` it would be read as libtest's options.
pub(crate) fn is_whole_target(target: &Target<'_>) -> bool {
    target.name.starts_with('-')
}

/// `cargo test ARGS -- --exact NAME…`: libtest runs a test when a filter
/// equals its whole path. Test arguments already after `--` are kept.
fn cargo(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    if let Some(whole) = targets.iter().find(|t| is_whole_target(t)) {
        return Err(format!(
            "the test target `{}` failed as a whole, not as a test a filter selects",
            whole.name
        ));
    }
    if let Some(doctest) = targets.iter().find(|t| is_doctest(t)) {
        return Err(format!(
            "the doctest `{}` cannot be selected exactly",
            doctest.name
        ));
    }
    let mut out = rest.to_vec();
    match rest.iter().position(|a| a == "--") {
        Some(dashes) => {
            if !rest[dashes..].iter().any(|a| a == "--exact") {
                out.push("--exact".to_owned());
            }
        }
        None => out.extend(["--".to_owned(), "--exact".to_owned()]),
    }
    out.extend(names(targets).into_iter().map(str::to_owned));
    Ok(out)
}

/// `cargo test`, also as `cargo +TOOLCHAIN test`.
pub(super) struct Cargo;

impl RunnerProfile for Cargo {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::RUST
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::RUST
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["Cargo.toml (cargo test, or cargo nextest run with .config/nextest.toml)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let at = toolchain_words(program, args)?;
        (args.get(at).map(String::as_str) == Some("test")).then_some(at + 1)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        cargo(rest, targets)
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["cargo", "--version"]),
            words(&["rustc", "--version"]),
        ]
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        one_of(words, &["--insta-update"], &[])
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        if !project.is_file("Cargo.toml") || nextest_configured(project) {
            return None;
        }
        let mut command = words(&["cargo", "test"]);
        if is_workspace(project) {
            command.push("--workspace".to_owned());
        }
        Some(Detected::new(
            Runner::Cargo,
            command,
            vec!["Cargo.toml".to_owned()],
        ))
    }
}

/// Whether the project's `Cargo.toml` is a workspace's root, whose every
/// member a run without a command tests (`--workspace`).
pub(super) fn is_workspace(project: &ProjectView<'_>) -> bool {
    project.has_section("Cargo.toml", &["[workspace]"])
}

/// How many of `args` a `cargo` command spends before its subcommand (the
/// `+TOOLCHAIN` word), `None` when `program` is not cargo.
pub(super) fn toolchain_words(program: &str, args: &[String]) -> Option<usize> {
    (program == "cargo").then(|| usize::from(args.first().is_some_and(|a| a.starts_with('+'))))
}

/// Whether the project runs its tests with nextest: a `Cargo.toml` and
/// nextest's configuration (`.config/nextest.toml`) at its root, and
/// `cargo-nextest` installed on the host (else `cargo test` runs them).
pub(super) fn nextest_configured(project: &ProjectView<'_>) -> bool {
    project.host().nextest
        && project.is_file("Cargo.toml")
        && project.is_file(".config/nextest.toml")
}
