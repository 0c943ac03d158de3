//! What testgate knows of each test runner outside its parser, one module
//! per runner behind one trait, [`RunnerProfile`].
//!
//! The parser (`testgate-parse`) reads a runner's output; a profile holds
//! the rest: how the runner is recognised in an argv, how a retry selects
//! only the failed tests, the environment its preset sets, and which
//! versions `check --record` asks for. [`profile`] is the one lookup from a
//! [`Runner`]: adding a runner makes its `match` fail to compile until the
//! new runner has a profile.

use std::path::Path;

use testgate_parse::Runner;

mod caches;
mod cargo;
mod go;
mod jest;
mod js;
mod nextest;
pub(crate) mod npm;
mod pytest;
mod vitest;

pub(crate) use caches::{caches_used_by, tool_caches};
#[cfg(test)]
pub(crate) use cargo::{is_doctest, is_whole_target};
#[cfg(test)]
pub(crate) use go::{go_quote_meta, go_run_pattern};
#[cfg(test)]
pub(crate) use js::js_escape;
#[cfg(test)]
pub(crate) use nextest::nextest_escape;
#[cfg(test)]
pub(crate) use pytest::is_python;

/// Everything testgate knows of one test runner outside its parser.
pub(crate) trait RunnerProfile: Sync {
    /// How many of `args` come before the runner's own arguments (`test`
    /// of `cargo test`, `-m pytest`, …) when `program args` (the program's
    /// file name) starts this runner; `None` when it does not.
    fn recognise(&self, program: &str, args: &[String]) -> Option<usize>;

    /// The runner's own arguments `rest`, rewritten to run only `targets`,
    /// or why that cannot be done exactly. `workspace` is where the command
    /// runs.
    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        workspace: &Path,
    ) -> Result<Vec<String>, String>;

    /// The runner's own arguments `rest` for a run that replays no cached
    /// result (each run of a stress sequence), `None` when `rest` already
    /// runs afresh.
    fn uncached(&self, rest: &[String]) -> Option<Vec<String>>;

    /// The environment the runner's preset sets (docs/policy.md).
    fn preset_env(&self) -> &'static [(&'static str, &'static str)];

    /// The commands whose first line `check --record` keeps as the
    /// toolchain's versions; `program` is the test command's program.
    fn version_questions(&self, program: &str) -> Vec<Vec<String>>;
}

/// The profile of `runner`.
pub(crate) fn profile(runner: Runner) -> &'static dyn RunnerProfile {
    match runner {
        Runner::Cargo => &cargo::Cargo,
        Runner::Nextest => &nextest::Nextest,
        Runner::Pytest => &pytest::Pytest,
        Runner::Go => &go::Go,
        Runner::Jest => &jest::Jest,
        Runner::Vitest => &vitest::Vitest,
    }
}

/// The runner `program args` starts (`program` is a file name), and how
/// many of `args` come before the runner's own arguments.
pub(crate) fn recognise(program: &str, args: &[String]) -> Option<(Runner, usize)> {
    Runner::ALL
        .into_iter()
        .find_map(|runner| Some((runner, profile(runner).recognise(program, args)?)))
}

/// One test a targeted retry must run: its canonical name and, when the
/// parser knew it, where it lives (the binary id, the file, the package).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Target<'a> {
    pub(crate) name: &'a str,
    pub(crate) context: Option<&'a str>,
}

/// Each name once, in the order given.
fn names<'a>(targets: &[Target<'a>]) -> Vec<&'a str> {
    let mut names: Vec<&str> = Vec::with_capacity(targets.len());
    for target in targets {
        if !names.contains(&target.name) {
            names.push(target.name);
        }
    }
    names
}

/// Where the package name comes in `npx [FLAGS] NAME ARGS`: after the
/// flags that only say whether npx may install.
fn npx_package(args: &[String]) -> Option<usize> {
    args.iter()
        .position(|a| !matches!(a.as_str(), "--no-install" | "--no" | "-y" | "--yes"))
}

/// `words` as owned strings.
fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| (*s).to_owned()).collect()
}
