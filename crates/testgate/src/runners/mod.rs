//! What testgate knows of each test runner outside its parser, one module
//! per runner behind one trait, [`RunnerProfile`].
//!
//! The parser (`testgate-parse`) reads a runner's output; a profile holds
//! the rest: how the runner is recognised in an argv, how a retry selects
//! only the failed tests, the environment its preset sets, and which
//! versions `check --record` asks for, and how it is asked for its own
//! machine-readable report. [`profile`] is the one lookup from a
//! [`Runner`]: adding a runner makes its `match` fail to compile until the
//! new runner has a profile.

use std::path::Path;

use testgate_parse::Runner;
use testgate_policy::Expectations;

use crate::project_view::{Detected, ProjectView};

mod caches;
mod cargo;
mod ctest;
mod ecosystems;
mod go;
mod gradle;
mod gtest;
mod jest;
mod js;
mod maven;
mod minitest;
mod mocha;
mod nextest;
mod node;
pub(crate) mod npm;
mod phpunit;
mod pytest;
mod rspec;
mod shell;
mod trusted;
mod unittest;
mod vitest;

pub(crate) use caches::{caches_used_in, tool_caches};
#[cfg(test)]
pub(crate) use cargo::{is_doctest, is_whole_target};
pub(crate) use ecosystems::{HostFile, Module, Program, Toolchain, run_toolchains, toolchains};
#[cfg(test)]
pub(crate) use go::go_prints_framing;
#[cfg(test)]
pub(crate) use go::{go_quote_meta, go_run_pattern};
#[cfg(test)]
pub(crate) use js::js_escape;
#[cfg(test)]
pub(crate) use nextest::nextest_escape;
#[cfg(test)]
pub(crate) use pytest::is_python;
pub(crate) use shell::ShellScript;
pub(crate) use trusted::TrustedPath;

/// A command that runs a runner through a script of the project's
/// (`composer test` runs `composer.json`'s `test` script), as the runner's
/// profile knows it ([`RunnerProfile::script_wrapper`]). `rest` is the
/// wrapper's arguments after its own words; each answer is `None` (or why
/// not) where the script is not a plain command of the runner.
pub(crate) trait ScriptWrapper: Sync {
    /// Whether the project's script in `workspace` is a plain command of
    /// the runner.
    fn runs(&self, workspace: &Path) -> bool;

    /// `rest` rewritten to run only `targets` (the runner's selectors
    /// passed on to the script), or why that cannot be done exactly.
    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        workspace: &Path,
    ) -> Result<Vec<String>, String>;

    /// How the runner is asked for its report at `place` through the
    /// wrapper: the request's `args` are the wrapper's, instead of `rest`.
    fn report(&self, rest: &[String], place: &Path, workspace: &Path) -> Option<ReportRequest>;

    /// [`RunnerProfile::fails_apart`] of the runner the script starts, with
    /// the words the wrapper passes on to it.
    fn fails_apart(&self, rest: &[String], workspace: &Path) -> Option<FailsApart>;
}

/// Which of the tests a runner counts apart, not failed (PHPUnit's risky
/// tests and the tests it warned about:
/// [`Report::risky`](testgate_parse::Report::risky),
/// [`Report::warned`](testgate_parse::Report::warned)), the project fails
/// a run on (`failOnRisky`, `failOnWarning` in its configuration,
/// `--fail-on-risky`, `--fail-on-warning`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FailsApart {
    /// Risky tests fail the run.
    pub(crate) risky: bool,
    /// Warned tests fail the run.
    pub(crate) warned: bool,
}

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
    fn uncached(&self, rest: &[String]) -> Option<Vec<String>> {
        let _ = rest;
        None
    }

    /// The environment the runner's preset sets (docs/policy.md): by
    /// default its toolchain's ([`Toolchain::preset_env`]: Node's runners
    /// `CI=true`).
    fn preset_env(&self) -> &'static [(&'static str, &'static str)] {
        self.toolchain().preset_env
    }

    /// The commands whose first line `check --record` keeps as the
    /// toolchain's versions; `program` is the test command's program.
    fn version_questions(&self, program: &str) -> Vec<Vec<String>>;

    /// The word of `words` (a whole command, or an npm script's words) that
    /// puts this runner in watch mode, where it waits for changes instead
    /// of ending (`--watch`, vitest's `watch` command); `None` when none
    /// does. Asked of every profile for every command ([`watch_word`]), so
    /// a profile names the runner's own conditions (mocha's `-w` only where
    /// mocha is named).
    fn watch_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        let _ = words;
        None
    }

    /// The word of `words` that lets the tests rewrite their own expected
    /// snapshots (`jest -u`, syrupy's `--snapshot-update`); `None` when
    /// none does. Asked as [`RunnerProfile::watch_word`] is
    /// ([`snapshot_update_word`]).
    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        let _ = words;
        None
    }

    /// The command that runs this runner in `project`, and what showed
    /// it, when the files at the project's root name this runner (`testgate
    /// check` with no command, docs/cli.md); `None` when they do not.
    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected>;

    /// How the runner, started with its own arguments `rest` in
    /// `workspace`, is asked to write its machine-readable report to
    /// `place` (a fresh path outside the project, writable inside the
    /// sandbox, read after the runner exited); `None` where that cannot be
    /// done without changing what the tests do: the exit status and the
    /// console then judge alone (docs/formats.md, "Where the outcomes come
    /// from"). Data, not code: the arguments, the environment, the files
    /// written beside the place, the format and where it is written.
    fn report(&self, rest: &[String], place: &Path, workspace: &Path) -> Option<ReportRequest> {
        let _ = (rest, place, workspace);
        None
    }

    /// Whether the environment a command runs with already chose the
    /// runner's report, so that none is asked for by its arguments and the
    /// console judges alone: node's `NODE_OPTIONS` naming a reporter, which
    /// node joins with the arguments' (a count of reporters their
    /// destinations' does not match is refused). `variable` gives a
    /// variable's value in that environment. By default, never.
    fn report_chosen_by(&self, variable: &dyn Fn(&str) -> Option<String>) -> bool {
        let _ = variable;
        false
    }

    /// Which of the tests the runner counts apart, not failed
    /// ([`Report::risky`](testgate_parse::Report::risky),
    /// [`Report::warned`](testgate_parse::Report::warned)), fail a run of
    /// its arguments `rest` in `workspace`, as its configuration and flags
    /// say; `None` where that is not known (then any of them may have).
    fn fails_apart(&self, _rest: &[String], _workspace: &Path) -> Option<FailsApart> {
        None
    }

    /// Where `program args` (the program's file name) runs this runner
    /// through a script of the project's (`composer test` runs
    /// `composer.json`'s `test` script): how many of `args` are the
    /// wrapper's own words (`test`), and what the profile knows of the
    /// wrapper. `None` for any other command (the default).
    fn script_wrapper(
        &self,
        program: &str,
        args: &[String],
    ) -> Option<(usize, &'static dyn ScriptWrapper)> {
        let _ = (program, args);
        None
    }

    /// Whether `check --structured` supports this runner: its report is
    /// obtained by default, so the option adds nothing (pytest's); for
    /// any other runner the option is a usage error (docs/cli.md).
    fn structured(&self) -> bool {
        false
    }

    /// How the runner, started behind a wrapper no argument reaches
    /// (`make test`, `sh run.sh`, an npm script that is a shell command),
    /// is asked for its report at `place`: through the environment alone
    /// ([`ReportRequest::through_environment`]). By default the request
    /// [`RunnerProfile::report`] makes through the environment, if any.
    fn report_behind_wrapper(&self, place: &Path, workspace: &Path) -> Option<ReportRequest> {
        self.report(&[], place, workspace)
            .filter(|request| request.through_environment)
    }

    /// Why the report asked through the environment cannot reach this
    /// runner when `program args` (the program's file name) starts the
    /// command (python's `-I` leaves out `PYTHONPATH`, where unittest's
    /// recorder is): said when no report was written. `None` where nothing
    /// in the command says so.
    fn unreachable_by(&self, program: &str, args: &[String]) -> Option<String> {
        let _ = (program, args);
        None
    }

    /// The runner's canonical spelling of a test name a list gives in
    /// another of the runner's own spellings (unittest on Python 3.11+
    /// prints `test_x (m.C.test_x)`, which SWE-bench's Django lists keep;
    /// testgate names it `test_x (m.C)`); `None` where the name is already
    /// canonical or not the runner's.
    fn listed_name(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }

    /// The toolchain of the runner's ecosystem (its programs' caches, the
    /// files that run later on the host): one of `ecosystems.rs`'s, shared
    /// by every runner of the ecosystem.
    fn toolchain(&self) -> &'static Toolchain;

    /// What detection looks for to find this runner, a few words each, for
    /// the message of a project where it found none
    /// ([`crate::detect_command`]); a phrase two runners give is said once.
    fn looks_for(&self) -> &'static [&'static str];

    /// The runner's own programs, beyond its toolchain's, and the private
    /// caches each uses (`pytest`: none).
    fn programs(&self) -> &'static [Program] {
        &[]
    }

    /// A cache the runner keeps at a fixed path outside the homes (jest's
    /// `/tmp/jest_<uid>`), for the effective uid `uid`, handed to every
    /// sandboxed run ([`testgate_run::RunSpec::tool_caches`]).
    fn tool_cache(&self, uid: u32) -> Option<testgate_run::ToolCache> {
        let _ = uid;
        None
    }

    /// The runner's own namespaces of environment variables (`PYTEST_`),
    /// passed to every command as the toolchains' are
    /// ([`testgate_run::EnvPolicy::pass_prefixed`]), unless one looks like
    /// a secret.
    fn env_prefixes(&self) -> &'static [&'static str] {
        &[]
    }

    /// The runner's own files that run later on the host (pytest's
    /// `conftest.py`), beyond its toolchain's.
    fn host_files(&self) -> &'static [HostFile] {
        &[]
    }

    /// The modules the runner imports that a project's file of the same
    /// name would shadow (`pytest.py`), beyond its toolchain's.
    fn shadowed(&self) -> &'static [Module] {
        &[]
    }

    /// What the runner and the tools run with it write at their
    /// conventional place when an honest suite runs (`.pytest_cache`,
    /// pytest-benchmark's `.benchmarks`, coverage's output): an attempt's
    /// change there costs no verdict, unless the entry runs later
    /// (docs/policy.md, "The tree changed"). It is put back all the same.
    fn tool_output(&self) -> &'static [ToolOutput] {
        &[]
    }

    /// The paths the runner's process runs or reads as its own tests,
    /// hooks and configuration (`conftest.py`, `*_test.go`, jest's
    /// configuration and setup files): what `check --trusted REV` takes
    /// from the trusted revision (docs/security.md, "Trusted tests").
    fn trusted(&self) -> &'static [TrustedPath] {
        &[]
    }
}

/// Whether `path` (relative to the project's top) is a trusted path of
/// `runner` ([`RunnerProfile::trusted`]), or of any runner when the
/// command's runner is not known (a shell script, `make test`).
pub(crate) fn is_trusted_path(runner: Option<Runner>, path: &Path) -> bool {
    match runner {
        Some(runner) => trusted::is_trusted(profile(runner).trusted(), path),
        None => Runner::ALL
            .into_iter()
            .any(|runner| trusted::is_trusted(profile(runner).trusted(), path)),
    }
}

/// A file or folder a runner or its tools write at a conventional place
/// ([`RunnerProfile::tool_output`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ToolOutput {
    /// Its name.
    pub(crate) name: &'static str,
    /// The manifests beside which it is written, besides the project's top.
    pub(crate) beside: &'static [&'static str],
}

/// Every runner's [`RunnerProfile::tool_output`], in [`Runner::ALL`]'s
/// order.
pub(crate) fn tool_outputs() -> impl Iterator<Item = &'static ToolOutput> {
    Runner::ALL
        .into_iter()
        .flat_map(|runner| profile(runner).tool_output())
}

/// `policy` passing every runner's [`RunnerProfile::env_prefixes`].
pub(crate) fn pass_runners_env(policy: testgate_run::EnvPolicy) -> testgate_run::EnvPolicy {
    Runner::ALL
        .into_iter()
        .flat_map(|runner| profile(runner).env_prefixes())
        .fold(policy, |policy, prefix| policy.pass_prefixed(*prefix))
}

/// `expect` with each listed name spelled as `runner` names its tests
/// ([`RunnerProfile::listed_name`]); unchanged where no runner is known.
pub(crate) fn listed_as(runner: Option<Runner>, expect: Expectations) -> Expectations {
    let Some(profile) = runner.map(profile) else {
        return expect;
    };
    let mut expect = expect;
    for test in expect.must_pass.iter_mut().chain(&mut expect.keep_passing) {
        if let Some(name) = profile.listed_name(&test.name) {
            *test = test.clone().named_by_runner(name);
        }
    }
    expect
}

/// How a runner is asked for its machine-readable report
/// ([`RunnerProfile::report`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReportRequest {
    /// The runner's own arguments to use instead of `rest`.
    pub(crate) args: Vec<String>,
    /// Variables to add to the runner's environment.
    pub(crate) env: Vec<ReportEnv>,
    /// Files testgate writes into the place's directory before the attempt
    /// (nextest's tool configuration, which names the place).
    pub(crate) files: Vec<ReportFile>,
    /// What the report is written as.
    pub(crate) format: ReportFormat,
    /// Where the report is written.
    pub(crate) written_to: ReportTarget,
    /// Whether the environment alone asks for the report (`args` is then
    /// `rest` unchanged): it is then also set for a command that may start
    /// the runner behind a wrapper (`tox`, `make`, `bash -c`, `npm test`).
    pub(crate) through_environment: bool,
}

/// One variable of a [`ReportRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReportEnv {
    /// The variable's name.
    pub(crate) name: &'static str,
    /// Its value, or what is appended to the value the command would see.
    pub(crate) value: String,
    /// Whether `value` replaces or extends the command's own value.
    pub(crate) join: EnvJoin,
}

/// One file of a [`ReportRequest`], written into the directory of the
/// report's place before the attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReportFile {
    /// Its file name in that directory.
    pub(crate) name: &'static str,
    /// What it holds.
    pub(crate) contents: String,
}

/// How a [`ReportEnv`] meets a value the command already has (the user's
/// own `PYTEST_ADDOPTS`, say).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnvJoin {
    /// The value replaces the command's own.
    Set,
    /// The value is appended to the command's own, after a space.
    AppendWords,
    /// The value is put before the command's own, joined by `:` (a search
    /// path: `PYTHONPATH`).
    PrependPath,
}

/// The format of a runner's report, which says the parser that reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[expect(dead_code, reason = "the formats of the runners still to come")]
pub(crate) enum ReportFormat {
    /// JUnit XML (pytest `--junitxml`, nextest's JUnit).
    JUnit,
    /// node's junit reporter's XML, which names no writer: read as node's
    /// (`testgate_parse::parse_junit_of`).
    NodeJunit,
    /// jest's `--json` report.
    JestJson,
    /// vitest's JSON reporter.
    VitestJson,
    /// `go test -json` events (test2json).
    GoTestJson,
    /// `go test -v=test2json`'s text, each line of the testing package's
    /// marked with `^V` (`testgate_parse::GoFraming`).
    GoTestFraming,
    /// libtest's JSON lines (`--format json`).
    LibtestJson,
    /// The JSON lines testgate's unittest recorder writes.
    UnittestJson,
    /// RSpec's JSON formatter (`--format json --out FILE`).
    RspecJson,
    /// The JSON document testgate's minitest reporter plugin writes.
    MinitestJson,
    /// The JSON lines testgate's mocha recorder writes, one per event.
    MochaJson,
}

impl ReportFormat {
    /// The file name extension of a report of this format.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            ReportFormat::JUnit | ReportFormat::NodeJunit => "xml",
            ReportFormat::JestJson | ReportFormat::VitestJson => "json",
            ReportFormat::GoTestJson
            | ReportFormat::LibtestJson
            | ReportFormat::UnittestJson
            | ReportFormat::MochaJson => "jsonl",
            ReportFormat::RspecJson => "json",
            ReportFormat::MinitestJson => "json",
            ReportFormat::GoTestFraming => "log",
        }
    }
}

/// Where a runner writes the report it was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReportTarget {
    /// A file at the `place` given to [`RunnerProfile::report`].
    File,
    /// A directory at the `place`, in which each process of the runner
    /// writes a file of its own (GoogleTest's `xml:DIR/`: `DIR/<binary>.xml`,
    /// so that two test binaries behind one wrapper both report): every
    /// file there is read, as one report.
    Directory,
    /// The runner's standard output itself (`go test -json`): the console
    /// is then rendered back from the report's events.
    Stdout,
    /// Files inside the project, one per test class, at folders no
    /// argument moves (Surefire's, Gradle's): the ones the attempt wrote
    /// are read (`crate::written_reports`).
    Written(&'static [WrittenReports]),
}

/// A folder inside the project where a runner writes a report file per
/// test class ([`ReportTarget::Written`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WrittenReports {
    /// The manifests of a module, beside which the folder lies.
    pub(crate) beside: &'static [&'static str],
    /// The folder, relative to the module (`target/surefire-reports`); a
    /// last `*` stands for each folder there (Gradle's one per test task).
    pub(crate) folder: &'static str,
}

/// The profile of `runner`: [`Unknown`] for a runner this facade has no
/// profile for yet.
pub(crate) fn profile(runner: Runner) -> &'static dyn RunnerProfile {
    known_profile(runner).unwrap_or(&Unknown)
}

/// Each runner's profile. The array's length is `Runner::ALL`'s, so a
/// runner added there fails the build here until its profile is added
/// (`Runner` is `#[non_exhaustive]`, so no `match` outside testgate-parse
/// can ask for it); `every_runner_has_its_own_profile` checks each runner
/// is here once.
const PROFILES: [(Runner, &dyn RunnerProfile); Runner::ALL.len()] = [
    (Runner::Cargo, &cargo::Cargo),
    (Runner::Nextest, &nextest::Nextest),
    (Runner::Pytest, &pytest::Pytest),
    (Runner::Go, &go::Go),
    (Runner::Jest, &jest::Jest),
    (Runner::Vitest, &vitest::Vitest),
    (Runner::Mocha, &mocha::Mocha),
    (Runner::Node, &node::Node),
    (Runner::Unittest, &unittest::Unittest),
    (Runner::Maven, &maven::Maven),
    (Runner::Gradle, &gradle::Gradle),
    (Runner::Ctest, &ctest::Ctest),
    (Runner::Gtest, &gtest::Gtest),
    (Runner::Phpunit, &phpunit::Phpunit),
    (Runner::Rspec, &rspec::Rspec),
    (Runner::Minitest, &minitest::Minitest),
];

/// The profile of `runner`, where this facade has one ([`PROFILES`]).
fn known_profile(runner: Runner) -> Option<&'static dyn RunnerProfile> {
    PROFILES
        .iter()
        .find(|&&(of, _)| of == runner)
        .map(|&(_, profile)| profile)
}

/// A runner the parser reads and this facade knows nothing else of: no
/// command is recognised as it, nothing is selected, preset or asked for.
struct Unknown;

impl RunnerProfile for Unknown {
    fn recognise(&self, _: &str, _: &[String]) -> Option<usize> {
        None
    }

    fn select(&self, _: &[String], _: &[Target<'_>], _: &Path) -> Result<Vec<String>, String> {
        Err("testgate has no profile for this runner: it cannot select tests".to_owned())
    }

    fn version_questions(&self, _: &str) -> Vec<Vec<String>> {
        Vec::new()
    }

    fn detect(&self, _: &ProjectView<'_>) -> Option<Detected> {
        None
    }

    fn toolchain(&self) -> &'static Toolchain {
        &ecosystems::NONE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &[]
    }
}

#[cfg(test)]
mod profile_tests {
    use super::{Runner, known_profile};

    /// Where the compiler no longer asks (`Runner` is `#[non_exhaustive]`):
    /// every runner the parser reads has its own profile.
    #[test]
    fn every_runner_has_its_own_profile() {
        for runner in Runner::ALL {
            assert!(known_profile(runner).is_some(), "{runner} has no profile");
        }
    }

    /// `composer test` is PHPUnit's wrapper, with one word of its own;
    /// where it must not fire: composer's other commands, `npm test`.
    #[test]
    fn a_script_wrapper_is_found_by_its_runners_profile() {
        let words = |line: &str| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let found = |program: &str, line: &str| {
            super::script_wrapper(program, &words(line)).map(|(runner, prefix, _)| (runner, prefix))
        };
        assert_eq!(found("composer", "test -- x"), Some((Runner::Phpunit, 1)));
        assert_eq!(found("composer", "install"), None);
        assert_eq!(found("npm", "test"), None);
    }

    /// `check --structured` supports the runners whose report is obtained
    /// by default as it asks: pytest alone.
    #[test]
    fn structured_is_supported_for_pytest_alone() {
        let supported: Vec<Runner> = Runner::ALL
            .into_iter()
            .filter(|&runner| super::supports_structured(runner))
            .collect();
        assert_eq!(supported, [Runner::Pytest]);
    }
}

/// The first word of `words` (a whole command, or an npm script's words)
/// that puts a runner in watch mode: asked of every profile, in
/// [`Runner::ALL`]'s order.
pub(crate) fn watch_word(words: &[String]) -> Option<&str> {
    Runner::ALL
        .into_iter()
        .find_map(|runner| profile(runner).watch_word(words))
}

/// The first word of `words` that lets the tests rewrite their own
/// expected snapshots: asked of every profile, as [`watch_word`].
pub(crate) fn snapshot_update_word(words: &[String]) -> Option<&str> {
    Runner::ALL
        .into_iter()
        .find_map(|runner| profile(runner).snapshot_update_word(words))
}

/// The first of `words` that is one of the long `flags` (`--watch`, or
/// `--watch=VALUE` unless the value is `false` or `0`).
fn long_flag<'a>(words: &'a [String], flags: &[&str]) -> Option<&'a str> {
    words.iter().map(String::as_str).find(|w| {
        let (flag, value) = w.split_once('=').map_or((*w, None), |(f, v)| (f, Some(v)));
        flags.contains(&flag) && !matches!(value, Some("false" | "0"))
    })
}

/// Whether `words` names the program `name` (`jest`, `…/bin/jest`).
fn names_program(words: &[String], name: &str) -> bool {
    words
        .iter()
        .any(|w| w == name || w.ends_with(&format!("/{name}")))
}

/// The first of `words` that is one of `exact`, or starts with one of
/// `prefixes`.
fn one_of<'a>(words: &'a [String], exact: &[&str], prefixes: &[&str]) -> Option<&'a str> {
    words
        .iter()
        .map(String::as_str)
        .find(|w| exact.contains(w) || prefixes.iter().any(|p| w.starts_with(p)))
}

/// The runner `program args` starts (`program` is a file name), and how
/// many of `args` come before the runner's own arguments.
pub(crate) fn recognise(program: &str, args: &[String]) -> Option<(Runner, usize)> {
    Runner::ALL
        .into_iter()
        .find_map(|runner| Some((runner, profile(runner).recognise(program, args)?)))
}

/// The runner `program args` (`program` is a file name) runs through a
/// script of the project's, how many of `args` are the wrapper's own words,
/// and the wrapper ([`RunnerProfile::script_wrapper`]): asked of every
/// profile, in [`Runner::ALL`]'s order.
pub(crate) fn script_wrapper(
    program: &str,
    args: &[String],
) -> Option<(Runner, usize, &'static dyn ScriptWrapper)> {
    Runner::ALL.into_iter().find_map(|runner| {
        let (prefix, wrapper) = profile(runner).script_wrapper(program, args)?;
        Some((runner, prefix, wrapper))
    })
}

/// Every runner with its profile, in [`Runner::ALL`]'s order.
pub(crate) fn profiles() -> impl Iterator<Item = (Runner, &'static dyn RunnerProfile)> {
    Runner::ALL
        .into_iter()
        .map(|runner| (runner, profile(runner)))
}

/// Whether `testgate check --structured` supports `runner`
/// ([`RunnerProfile::structured`]): its report is obtained by default, so
/// the option adds nothing; for any other runner the option is a usage
/// error that says to configure the runner and give `--report`
/// (docs/cli.md).
pub fn supports_structured(runner: Runner) -> bool {
    profile(runner).structured()
}

/// [`RunnerProfile::fails_apart`] of the runner `program args` starts
/// (`program` is a file name), or behind a wrapper of a project's script
/// (`composer test`, [`ScriptWrapper::fails_apart`]).
pub(crate) fn fails_apart(program: &str, args: &[String], workspace: &Path) -> Option<FailsApart> {
    if let Some((_, prefix, wrapper)) = script_wrapper(program, args) {
        return wrapper.fails_apart(&args[prefix..], workspace);
    }
    let (runner, prefix) = recognise(program, args)?;
    profile(runner).fails_apart(&args[prefix..], workspace)
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

/// Where `name`'s own arguments start when `program` with `args` runs it:
/// `name` itself (0), or `npx [FLAGS] name` (after the name).
fn own_or_npx(program: &str, args: &[String], name: &str) -> Option<usize> {
    if program == name {
        return Some(0);
    }
    if program != "npx" {
        return None;
    }
    let at = npx_package(args)?;
    (args.get(at).map(String::as_str) == Some(name)).then_some(at + 1)
}

/// The version questions of a node package `name`: node's, and the
/// package's as `npx` finds it without installing.
fn node_package_versions(name: &str) -> Vec<Vec<String>> {
    vec![
        words(&["node", "--version"]),
        words(&["npx", "--no-install", name, "--version"]),
    ]
}

/// `words` as owned strings.
fn words(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| (*s).to_owned()).collect()
}

/// What the runner profiles' tests share.
#[cfg(test)]
pub(crate) mod testing {
    use super::{RunnerProfile, Target};

    /// Where `profile` recognises its runner in the command `line`: words
    /// split at spaces, the program by its file name, as the facade asks.
    pub(crate) fn recognised(profile: &dyn RunnerProfile, line: &str) -> Option<usize> {
        let mut all = line.split_whitespace();
        let program = all.next().unwrap_or_default();
        let program = program.rsplit('/').next().unwrap_or(program);
        profile.recognise(program, &all.map(str::to_owned).collect::<Vec<_>>())
    }

    /// The command `testgate check` finds in a project of `files` (path,
    /// text), or its refusal.
    #[expect(
        clippy::disallowed_methods,
        reason = "the test builds its own fixture, in a folder no test command ran in"
    )]
    pub(crate) fn detected(files: &[(&str, &str)]) -> String {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
        }
        let host = crate::detect::HostFacts::default();
        match crate::detect::detect_with(dir.path(), &host) {
            Ok(found) => format!("{} ({})", found.shown_command(), found.why()),
            Err(e) => e.to_string(),
        }
    }

    /// A target for each of `names`, with no context.
    pub(crate) fn targets<'a>(names: &[&'a str]) -> Vec<Target<'a>> {
        names
            .iter()
            .map(|name| Target {
                name,
                context: None,
            })
            .collect()
    }
}
