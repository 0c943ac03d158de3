//! [`TestConfig`]: which test command to run, where, and within what limits.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

use testgate_parse::{Format, Runner};
use testgate_policy::{Expectations, Rerun};

/// The default time limit of one attempt: ten minutes.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// A project's test command: the program and its arguments, the workspace
/// directory it runs in, the time limit of one attempt, how many retries
/// follow a failing attempt, and the environment added to the default
/// allowlist.
///
/// ```
/// use std::time::Duration;
/// use testgate::TestConfig;
///
/// let config = TestConfig::pytest("proj").within(Duration::from_secs(60)).retrying(2);
/// assert_eq!(config.program(), "pytest");
/// assert_eq!(config.retries(), 2);
/// ```
#[derive(Debug, Clone)]
pub struct TestConfig {
    pub(crate) program: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) workspace: PathBuf,
    pub(crate) timeout: Duration,
    pub(crate) retries: u32,
    pub(crate) rerun: Rerun,
    pub(crate) format: Format,
    /// Variables set explicitly, in order: (name, Some(value)) sets,
    /// (name, None) passes the host's value through.
    pub(crate) env: Vec<(OsString, Option<OsString>)>,
    /// Shell commands run once, in order, before the first attempt.
    pub(crate) prepare: Vec<String>,
    /// Whether the last attempt's changes to the tree are left in place.
    pub(crate) keep_changes: bool,
    /// The tests the change is graded against, when given.
    pub(crate) expect: Option<Expectations>,
    /// Stress mode: run the full suite this many times.
    pub(crate) stress: Option<u32>,
    /// The runner's JUnit report, relative to the workspace: each
    /// attempt's primary source of outcomes.
    pub(crate) report: Option<PathBuf>,
    /// Files the caller writes to (its stdout and stderr): never tree
    /// changes.
    pub(crate) own_files: Vec<crate::project_tree::OwnFile>,
    /// What a Pass needs of the runner's own report.
    pub(crate) evidence: EvidenceRule,
    /// The tree the attempts run, when not the tree as submitted.
    pub(crate) view: Option<crate::trusted_view::View>,
}

/// What a Pass needs of the runner's own report (`--evidence`,
/// docs/policy.md, "Three channels must agree").
///
/// ```
/// use testgate::{EvidenceRule, TestConfig};
///
/// let config = TestConfig::new(".", "make", ["test"]).evidence(EvidenceRule::Report);
/// assert_eq!(config.evidence_rule(), EvidenceRule::Report);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum EvidenceRule {
    /// The runner's report where it can be asked for; where it cannot (a
    /// runner behind `make`, a script), the exit status and the console
    /// judge alone, and the verdict says so.
    #[default]
    Any,
    /// No Pass without a report of the runner's own: an attempt whose
    /// runner could not be asked for one is Inconclusive `no_report`.
    Report,
}

impl EvidenceRule {
    /// Every rule, in declaration order.
    pub const ALL: [EvidenceRule; 2] = [EvidenceRule::Any, EvidenceRule::Report];

    /// The rule's name, as `--evidence` takes it: `any` or `report`.
    pub fn name(self) -> &'static str {
        match self {
            EvidenceRule::Any => "any",
            EvidenceRule::Report => "report",
        }
    }
}

/// The variables testgate sets for a runner's command: the one preset
/// table, which the named constructors and the CLI (through
/// [`TestConfig::preset`]) both read. A preset is about how the runner
/// behaves under a gate:
///
/// - jest and vitest: `CI=true`, so a snapshot with nothing stored fails as
///   in CI instead of being written into the project and passing;
/// - go: nothing: the sandbox gives Go's build cache its private, warm
///   place (docs/sandbox.md, "Toolchains and caches").
///
/// ```
/// use testgate::preset_env;
/// use testgate::parse::Runner;
///
/// assert_eq!(preset_env(Runner::Jest), [("CI", "true")]);
/// assert!(preset_env(Runner::Cargo).is_empty());
/// ```
pub fn preset_env(runner: Runner) -> &'static [(&'static str, &'static str)] {
    crate::runners::profile(runner).preset_env()
}

impl TestConfig {
    /// `program args…` run in `workspace`, with no retries, a ten-minute
    /// limit, and the runner's output format detected automatically.
    pub fn new<I, A>(workspace: impl Into<PathBuf>, program: impl Into<OsString>, args: I) -> Self
    where
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        TestConfig {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            workspace: workspace.into(),
            timeout: DEFAULT_TIMEOUT,
            retries: 0,
            rerun: Rerun::All,
            format: Format::Auto,
            env: Vec::new(),
            prepare: Vec::new(),
            keep_changes: false,
            expect: None,
            stress: None,
            report: None,
            own_files: Vec::new(),
            evidence: EvidenceRule::Any,
            view: None,
        }
    }

    /// `cargo test` in `dir`, with the runner's [preset](TestConfig::preset).
    pub fn cargo(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "cargo", ["test"])
            .format(Runner::Cargo)
            .preset()
    }

    /// `cargo nextest run` in `dir`, with the runner's
    /// [preset](TestConfig::preset).
    pub fn nextest(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "cargo", ["nextest", "run"])
            .format(Runner::Nextest)
            .preset()
    }

    /// `pytest -q` in `dir`, with the runner's [preset](TestConfig::preset).
    pub fn pytest(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "pytest", ["-q"])
            .format(Runner::Pytest)
            .preset()
    }

    /// `go test ./...` in `dir`, with the runner's
    /// [preset](TestConfig::preset) (none: the sandbox keeps Go's cache).
    pub fn go(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "go", ["test", "./..."])
            .format(Runner::Go)
            .preset()
    }

    /// `npx --no-install jest` in `dir`, with the runner's
    /// [preset](TestConfig::preset) (`CI=true`).
    pub fn jest(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "npx", ["--no-install", "jest"])
            .format(Runner::Jest)
            .preset()
    }

    /// `npx --no-install vitest run` in `dir`, with the runner's
    /// [preset](TestConfig::preset) (`CI=true`).
    pub fn vitest(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "npx", ["--no-install", "vitest", "run"])
            .format(Runner::Vitest)
            .preset()
    }

    /// `npx --no-install mocha` in `dir`, with the runner's
    /// [preset](TestConfig::preset) (`CI=true`).
    pub fn mocha(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "npx", ["--no-install", "mocha"])
            .format(Runner::Mocha)
            .preset()
    }

    /// `node --test` in `dir`, with the runner's
    /// [preset](TestConfig::preset) (`CI=true`).
    pub fn node_test(dir: impl Into<PathBuf>) -> Self {
        Self::new(dir, "node", ["--test"])
            .format(Runner::Node)
            .preset()
    }

    /// The runner this config's command starts, recognised from the command
    /// line as `--rerun failed` recognises it (`go test`, `cargo test`,
    /// `cargo nextest run`, `pytest`, `python -m pytest`, `npx jest`,
    /// `npx vitest`, `mocha`, `node --test`, and `npm test`/`npm run NAME` through the script in
    /// `package.json`, read as a file the tests control); else the runner of
    /// an explicit [`format`](TestConfig::format); else None.
    pub fn runner(&self) -> Option<Runner> {
        crate::rerun::runner_of(&self.program, &self.args, &self.workspace).or(self.format.runner())
    }

    /// Adds the variables testgate sets for the [recognised
    /// runner](TestConfig::runner) ([`preset_env`]), each unless the config
    /// already sets or passes that name. The named constructors
    /// ([`go`](TestConfig::go), [`jest`](TestConfig::jest), …) and the CLI
    /// apply it, so a command gets the same preset whoever starts it.
    ///
    /// ```
    /// use testgate::TestConfig;
    ///
    /// let config = TestConfig::new(".", "npx", ["jest"]).preset();
    /// assert_eq!(config.variables(), [("CI".into(), Some("true".into()))]);
    /// let mine = TestConfig::new(".", "npx", ["jest"]).env("CI", "false").preset();
    /// assert_eq!(mine.variables(), [("CI".into(), Some("false".into()))]);
    /// // The one runner a shell's `-c` script starts gets its preset too.
    /// let script = TestConfig::new(".", "sh", ["-c", "gradle test --offline; exit 0"]).preset();
    /// assert!(script.variables().iter().any(|(name, _)| name == "GRADLE_OPTS"));
    /// ```
    pub fn preset(mut self) -> Self {
        let Some(runner) = self.runner().or_else(|| self.runner_in_script()) else {
            return self;
        };
        for (name, value) in preset_env(runner) {
            if !self.env.iter().any(|(set, _)| set == name) {
                self.env.push((name.into(), Some(value.into())));
            }
        }
        self
    }

    /// The one runner a shell's `-c` script starts (`sh -c 'gradle test;
    /// exit 0'`), whose preset the script's command needs as much as a
    /// bare one: Gradle 4.4 does not start under bubblewrap without its
    /// `GRADLE_OPTS`.
    fn runner_in_script(&self) -> Option<Runner> {
        let program = Path::new(&self.program).file_name()?.to_str()?;
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| a.to_str().map(str::to_owned))
            .collect::<Option<_>>()?;
        crate::runners::ShellScript::of(program, &args)?.runner()
    }

    /// The variables set (`Some(value)`) or passed from the host (`None`)
    /// on top of the default environment policy, in order.
    pub fn variables(&self) -> &[(OsString, Option<OsString>)] {
        &self.env
    }

    /// Sets the time limit of one attempt.
    pub fn within(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets how many further attempts follow a failing one. They detect
    /// flakiness; they never turn a failure into a pass.
    pub fn retrying(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    /// Sets what a retry runs: everything, or only the tests that failed.
    pub fn rerun(mut self, rerun: Rerun) -> Self {
        self.rerun = rerun;
        self
    }

    /// Grades the change against `expectations` (the tests that must pass,
    /// the tests that must keep passing) instead of the whole suite: only
    /// the listed tests decide the verdict (docs/policy.md, "Grading
    /// against expected tests").
    ///
    /// ```
    /// use testgate::TestConfig;
    /// use testgate::policy::Expectations;
    ///
    /// let config = TestConfig::pytest("proj")
    ///     .expect(Expectations::new(["tests/test_x.py::test_fixed"], ["tests/test_x.py::test_ok"]));
    /// assert_eq!(config.expectations().map(|e| e.must_pass.len()), Some(1));
    /// ```
    pub fn expect(mut self, expectations: Expectations) -> Self {
        self.expect = Some(expectations);
        self
    }

    /// Stress mode: runs the full suite `runs` times, each attempt fresh,
    /// whatever the earlier ones showed, and lists every test whose outcome
    /// varied ([`Record::stress`](crate::Record::stress)); retries and
    /// expectations do not apply. What a harness runs once per task to
    /// validate the tests it grades by.
    pub fn stress(mut self, runs: u32) -> Self {
        self.stress = Some(runs);
        self
    }

    /// Reads the JUnit XML report the runner writes at `path` (relative to
    /// the workspace) after each attempt, as that attempt's primary source
    /// of outcomes; the console becomes the cross-check, and where the two
    /// disagree the attempt's note says so. A stale report is removed before
    /// each attempt; a path that leaves the workspace (`..`, a symbolic link
    /// on the way) is never read. docs/formats.md, "The runners' own
    /// reports".
    pub fn report(mut self, path: impl Into<PathBuf>) -> Self {
        self.report = Some(path.into());
        self
    }

    /// The expectations the change is graded against, if any.
    pub fn expectations(&self) -> Option<&Expectations> {
        self.expect.as_ref()
    }

    /// Sets the output format the parser expects: a [`Runner`], or
    /// [`Format::Auto`] (the default for [`TestConfig::new`]).
    pub fn format(mut self, format: impl Into<Format>) -> Self {
        self.format = format.into();
        self
    }

    /// Sets the variable `name` to `value` in the test command's environment.
    pub fn env(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((name.into(), Some(value.into())));
        self
    }

    /// Passes the host's variable `name` through, even where the default
    /// policy would hold it back (its name holds TOKEN, SECRET, …).
    pub fn pass_env(mut self, name: impl Into<OsString>) -> Self {
        self.env.push((name.into(), None));
        self
    }

    /// Adds a preparation step: the shell command `command` (`npm ci`,
    /// `cargo fetch`, `pip install -e .`, `go mod download`) runs once,
    /// before the first attempt, in the sandbox but with the network, and
    /// its output is shown like an attempt's. It is not an attempt: when
    /// it fails, the verdict is Inconclusive
    /// [`Cause::PrepareFailed`](crate::Cause::PrepareFailed) and no test
    /// runs. Repeatable; the steps run in the order given.
    ///
    /// ```
    /// use testgate::TestConfig;
    ///
    /// let config = TestConfig::jest("web").prepare("npm ci");
    /// assert_eq!(config.preparations(), ["npm ci"]);
    /// ```
    pub fn prepare(mut self, command: impl Into<String>) -> Self {
        self.prepare.push(command.into());
        self
    }

    /// The preparation steps, in order.
    pub fn preparations(&self) -> &[String] {
        &self.prepare
    }

    /// Kept for callers written before restoring was the default: the
    /// tree is put back after every attempt whatever this says (`true`
    /// asks for what is done anyway; `false` is not `keep_changes`).
    pub fn restore(self, restore: bool) -> Self {
        let _ = restore;
        self
    }

    /// Leaves what the *last* attempt changed in the tree in place, for
    /// the user to look at, instead of putting the tree back as submitted
    /// (`--keep-changes`); the verdict says so. Every earlier attempt's
    /// changes are put back all the same, so that each attempt starts
    /// from the tree as submitted (docs/sandbox.md, "The tree is the tree").
    pub fn keep_changes(mut self, keep: bool) -> Self {
        self.keep_changes = keep;
        self
    }

    /// The caller's own files: where its standard output and error go when
    /// that is a file in the project (`testgate check -- cargo test >
    /// tg.log`). Taken before the first attempt, they are not tree changes
    /// and `--restore` never touches them ([`Snapshot::leave_out`](crate::project_tree::Snapshot::leave_out)).
    ///
    /// ```
    /// use std::os::fd::AsFd;
    /// use testgate::TestConfig;
    /// use testgate::project_tree::OwnFile;
    ///
    /// let stdout = std::fs::File::from(std::io::stdout().as_fd().try_clone_to_owned()?);
    /// let config = TestConfig::cargo(".").own_output(OwnFile::of(&stdout.metadata()?));
    /// assert!(config.own_files().len() <= 1);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn own_output(
        mut self,
        files: impl IntoIterator<Item = crate::project_tree::OwnFile>,
    ) -> Self {
        self.own_files.extend(files);
        self.own_files.sort_unstable();
        self.own_files.dedup();
        self
    }

    /// Runs the attempts on `view` instead of the tree as submitted: a
    /// model patch applied and the trusted tests put in (`--apply`,
    /// `--trusted`, docs/security.md "Trusted tests"). The view is written
    /// into the project after the tree was recorded as found, and the tree
    /// is put back as found after the check, whatever
    /// [`keep_changes`](TestConfig::keep_changes) says; a view that cannot
    /// be made is Inconclusive `prepare_failed`, with nothing run.
    ///
    /// ```
    /// use testgate::{TestConfig, View, ViewFile};
    ///
    /// let honest = ViewFile { bytes: b"def test_one():\n    assert True\n".to_vec(), executable: false };
    /// let config = TestConfig::pytest(".").view(View::new().trusted("main", [("test_one.py".into(), honest)]));
    /// assert!(config.trusted_view().is_some());
    /// ```
    pub fn view(mut self, view: crate::trusted_view::View) -> Self {
        self.view = Some(view);
        self
    }

    /// The view given with [`TestConfig::view`].
    pub fn trusted_view(&self) -> Option<&crate::trusted_view::View> {
        self.view.as_ref()
    }

    /// The caller's own files given with [`TestConfig::own_output`].
    pub fn own_files(&self) -> &[crate::project_tree::OwnFile] {
        &self.own_files
    }

    /// Sets what a Pass needs of the runner's own report
    /// ([`EvidenceRule`]; [`EvidenceRule::Any`] by default).
    pub fn evidence(mut self, rule: EvidenceRule) -> Self {
        self.evidence = rule;
        self
    }

    /// What a Pass needs of the runner's own report.
    pub fn evidence_rule(&self) -> EvidenceRule {
        self.evidence
    }

    /// The snapshot-update flag in the command or its environment, if any
    /// (`jest -u`, `--snapshot-update`, `INSTA_UPDATE=always`): a usage
    /// error, as tests must not rewrite their own expectations.
    pub fn snapshot_update(&self) -> Option<String> {
        let mut command = vec![self.program.clone()];
        command.extend(self.args.iter().cloned());
        crate::refused_commands::snapshot_update(&command, &self.env)
    }

    /// Why the command would watch for changes instead of ending, if it
    /// would (`jest --watch`, `vitest dev`, an npm script that holds one:
    /// [`crate::refused_commands::watch_mode`]): a usage error, as it would
    /// sit until the timeout. Reads the workspace's `package.json` as a
    /// regular file only, capped.
    ///
    /// ```
    /// use testgate::TestConfig;
    ///
    /// let config = TestConfig::new(".", "npx", ["jest", "--watch"]);
    /// assert!(config.watch_mode().is_some_and(|why| why.contains("`--watch`")));
    /// assert_eq!(TestConfig::new(".", "npx", ["jest"]).watch_mode(), None);
    /// ```
    pub fn watch_mode(&self) -> Option<String> {
        let mut command = vec![self.program.clone()];
        command.extend(self.args.iter().cloned());
        crate::refused_commands::watch_mode(&command, &self.workspace)
    }

    /// The program.
    pub fn program(&self) -> &OsStr {
        &self.program
    }

    /// The arguments.
    pub fn args(&self) -> &[OsString] {
        &self.args
    }

    /// The workspace directory the command runs in.
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// The time limit of one attempt.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The number of retries after a failing attempt.
    pub fn retries(&self) -> u32 {
        self.retries
    }
}
