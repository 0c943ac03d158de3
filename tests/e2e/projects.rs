//! The fixture projects, copied into a fresh directory for each test so a
//! flaky counter starts at zero and nothing is written into the repository.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Deserialize;
use testgate::TestConfig;
use testgate::parse::Runner;

use crate::repo_root;

/// What the e2e tests know of one runner, beside its projects:
/// `tests/e2e/runners/<name>.json`, its own file, so that a new runner
/// adds one file here rather than an arm to each table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunnerData {
    /// Its fixture project under `tests/projects/e2e/`.
    pub(crate) e2e: E2eData,
    /// Its targeted-retry project under `tests/projects/rerun/`
    /// (`rerun.rs`).
    pub(crate) rerun: RerunData,
    /// Whether grading is tested with it, and how (`grading.rs`).
    #[serde(default)]
    pub(crate) grading: Option<GradingData>,
    /// Its own checks beyond the shared tests, as data (`checks.rs`).
    #[serde(default)]
    pub(crate) checks: Vec<crate::checks::CheckData>,
}

/// A runner's fixture project, which every test of `main.rs` runs.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct E2eData {
    /// Its directory under `tests/projects/e2e/`.
    project: String,
    /// Whether the project is the runner's own; `false` for one it shares
    /// and the shared tests leave to its owner (nextest runs cargo's, and
    /// its fail-fast makes the names a failing run reports depend on
    /// timing).
    own_project: bool,
    /// The command testgate checks the project with.
    pub(crate) run: RunData,
    /// Whether the project links the shared node_modules.
    #[serde(default)]
    node_modules: bool,
    /// The names the `fail` mode fails, as the parser spells them.
    #[serde(deserialize_with = "leaked")]
    failing: &'static [&'static str],
    /// Why the data is as it is, for a reader.
    #[serde(default)]
    #[expect(dead_code, reason = "a comment for the reader of the file")]
    note: Option<String>,
}

/// A command testgate checks a project with.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunData {
    /// The program and its arguments.
    command: Vec<String>,
    /// Whether the runner is named ([`TestConfig::format`]); `false` for
    /// a command testgate must recognise (or not) by itself.
    #[serde(default = "yes")]
    format: bool,
    /// Whether the runner's preset applies ([`TestConfig::preset`]).
    #[serde(default = "yes")]
    preset: bool,
    /// Variables set to a path inside the project.
    #[serde(default)]
    env_in_project: BTreeMap<String, String>,
    /// `--prepare` steps, run before each attempt.
    #[serde(default)]
    prepare: Vec<String>,
}

impl RunData {
    /// This command for `runner`'s project in `dir`.
    pub(crate) fn config(&self, runner: Runner, dir: &Path) -> TestConfig {
        let (program, args) = self
            .command
            .split_first()
            .unwrap_or_else(|| panic!("{runner}: an empty command"));
        let mut config = TestConfig::new(dir, program, args);
        if self.format {
            config = config.format(runner);
        }
        if self.preset {
            config = config.preset();
        }
        for (name, path) in &self.env_in_project {
            config = config.env(name, dir.join(path));
        }
        for step in &self.prepare {
            config = config.prepare(step);
        }
        config
    }
}

/// How grading is tested with a runner (`grading.rs`: one runner a
/// language, in a mode whose console names passing tests), on its e2e
/// project.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GradingData {
    /// Its command, where the e2e project's does not name passing tests.
    pub(crate) run: Option<RunData>,
    /// A test that passes in every mode but `hang`.
    pub(crate) steady: String,
    /// The test the `flaky` mode fails on odd-numbered runs.
    pub(crate) sometimes: String,
    /// Why the data is as it is, for a reader.
    #[serde(default)]
    #[expect(dead_code, reason = "a comment for the reader of the file")]
    note: Option<String>,
}

/// A runner's targeted-retry project (`rerun.rs`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RerunData {
    /// Its directory under `tests/projects/rerun/`.
    pub(crate) project: String,
    /// The modes checked by the runner's own command: `fail`, `flaky`,
    /// `order`.
    pub(crate) modes: Vec<String>,
    /// Whether a consistent failure behind `npm test` is checked too.
    #[serde(default)]
    pub(crate) npm: bool,
    /// Its command, where it is not the e2e project's.
    pub(crate) run: Option<RunData>,
    /// The names the `fail` mode fails.
    #[serde(deserialize_with = "leaked")]
    pub(crate) failing: &'static [&'static str],
    /// The name the `order` mode fails.
    pub(crate) victim: Option<String>,
    /// Why the data is as it is, for a reader.
    #[serde(default)]
    #[expect(dead_code, reason = "a comment for the reader of the file")]
    note: Option<String>,
}

fn yes() -> bool {
    true
}

/// Names read once for the whole test binary, kept for its life so the
/// tables hand out `&'static` names as the Rust tables did.
fn leaked<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<&'static [&'static str], D::Error> {
    let names = Vec::<String>::deserialize(deserializer)?;
    Ok(names
        .into_iter()
        .map(|name| &*Box::leak(name.into_boxed_str()))
        .collect::<Vec<_>>()
        .leak())
}

/// `runner`'s data, read once from `tests/e2e/runners/<name>.json`.
pub(crate) fn data(runner: Runner) -> &'static RunnerData {
    static ALL: OnceLock<Vec<RunnerData>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Runner::ALL
            .iter()
            .map(|runner| {
                let path = repo_root()
                    .join("tests/e2e/runners")
                    .join(format!("{}.json", runner.name()));
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{runner}: {}: {e}", path.display()));
                serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{runner}: {}: {e}", path.display()))
            })
            .collect()
    });
    let at = Runner::ALL
        .iter()
        .position(|&r| r == runner)
        .unwrap_or_else(|| panic!("{runner} is not in Runner::ALL"));
    &all[at]
}

/// The runners of [`Runner::ALL`] with a fixture project of their own,
/// which every test of `main.rs` runs. A new runner fails
/// `every_runner_has_an_e2e_project` until it has its project.
pub(crate) fn projects() -> impl Iterator<Item = Runner> {
    Runner::ALL
        .into_iter()
        .filter(|&runner| data(runner).e2e.own_project)
}

/// The fixture project `runner` runs.
fn source(runner: Runner) -> PathBuf {
    repo_root()
        .join("tests/projects/e2e")
        .join(&data(runner).e2e.project)
}

/// The names the `fail` mode fails, as the parser spells them.
pub(crate) fn failing_names(runner: Runner) -> &'static [&'static str] {
    data(runner).e2e.failing
}

/// A fresh copy of a runner's fixture project.
pub(crate) struct Project {
    pub(crate) runner: Runner,
    pub(crate) dir: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Project {
    pub(crate) fn copy(runner: Runner) -> Project {
        // Not under /tmp: the sandbox gives the run a private /tmp, and a
        // project there would be hidden by it on a host whose own /tmp… is
        // fine too, but keep the copy beside the repository's target dir.
        let base = repo_root().join("target/e2e");
        std::fs::create_dir_all(&base).unwrap();
        let tmp = tempfile::tempdir_in(&base).unwrap();
        let dir = tmp.path().join(runner.name());
        copy_dir(&source(runner), &dir);
        if uses_node_modules(runner) {
            let modules = node_modules();
            assert!(
                modules.is_dir(),
                "{} is missing: run scripts/setup (npm ci)",
                modules.display()
            );
            std::os::unix::fs::symlink(&modules, dir.join("node_modules")).unwrap();
        }
        Project {
            runner,
            dir,
            _tmp: tmp,
        }
    }

    /// The command testgate checks this project with.
    pub(crate) fn config(&self) -> TestConfig {
        config_of(self.runner, &self.dir)
    }
}

/// The command testgate checks `runner`'s project in `dir` with.
fn config_of(runner: Runner, dir: &Path) -> TestConfig {
    data(runner).e2e.run.config(runner, dir)
}

/// Whether `runner`'s project links the shared node_modules (`node --test`
/// needs no package).
pub(crate) fn uses_node_modules(runner: Runner) -> bool {
    data(runner).e2e.node_modules
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "node_modules"
            || name == "target"
            || name == ".flaky-count"
            || name == "__pycache__"
        {
            continue;
        }
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_dir(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// The shared node_modules the node fixtures link to.
pub(crate) fn node_modules() -> PathBuf {
    repo_root().join("tests/projects/e2e/node/node_modules")
}

/// The bubblewrap sandbox for a fixture project: the default, plus the
/// shared node_modules bound read-write for the node projects. Their
/// node_modules is a link out of the project, which the sandbox would
/// otherwise show read-only (vite writes its config bundle there) or not at
/// all (the private /tmp hides a repository checked out under /tmp).
pub(crate) fn bwrap_for(node: bool) -> testgate::Sandbox {
    let mut options = testgate::run::BwrapOptions::default();
    if node {
        options.writable.push(node_modules());
    }
    testgate::Sandbox::Bubblewrap(options)
}

/// The Landlock sandbox for a fixture project, the shared node_modules
/// writable for the node projects as under [`bwrap_for`].
pub(crate) fn landlock_for(node: bool) -> testgate::Sandbox {
    let mut options = testgate::run::LandlockOptions::default();
    if node {
        options.writable.push(node_modules());
    }
    testgate::Sandbox::Landlock(options)
}

/// A new runner in `Runner::ALL` fails here until it has its data file,
/// its e2e project, its failing names and its configuration (needs no
/// runner installed); a data file that names no runner fails too.
#[test]
fn every_runner_has_an_e2e_project() {
    for runner in Runner::ALL {
        let dir = source(runner);
        assert!(dir.is_dir(), "{runner}: {} is missing", dir.display());
        assert!(
            !failing_names(runner).is_empty(),
            "{runner}: no failing names"
        );
        let _ = uses_node_modules(runner);
        let _ = config_of(runner, &dir);
    }
    assert!(projects().count() > 0);
    let runners = repo_root().join("tests/e2e/runners");
    for entry in std::fs::read_dir(&runners).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(
            Runner::ALL.iter().any(|runner| [".json", ".rs"]
                .iter()
                .any(|ext| name == format!("{}{ext}", runner.name()))),
            "{}: {name} is no runner's data or tests",
            runners.display()
        );
    }
}
