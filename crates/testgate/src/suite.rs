//! [`SandboxedTests`]: the loop that runs attempts until the policy knows
//! the verdict.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use testgate_policy::{
    Attempt, Driver, Environment, Findings, Halt, Plan, Policy, Preparation, Selection, Step,
    Verdict,
};
use testgate_run::{
    BwrapOptions, Cancel, EnvPolicy, LandlockOptions, ProjectWrites, RunSpec, Sandbox,
};

use crate::attempt::{Facts, attempt_of, ending_of};
use crate::capture::{AttemptSink, Finished};
use crate::config::TestConfig;
use crate::judge;
use crate::project_tree::{Limits, Snapshot, SnapshotError, TreeChange};
use crate::records::{AttemptRecord, Observer, PreparationRecord, Record, Silent};
use crate::rerun::{self, Target};
use crate::trusted_view::ViewRecord;
use crate::users_report::{self, with_runner_report};

/// How many bytes of each attempt's output are kept for its tail: enough
/// for any runner's closing summary and the failures right before it; the
/// reason cuts it further to `MAX_REASON`.
pub const TAIL_BYTES: usize = 64 * 1024;

/// A project's tests, run in a sandbox: the product in one type.
///
/// ```no_run
/// use testgate::{Sandbox, SandboxedTests, TestConfig};
///
/// let tests = SandboxedTests::new(Sandbox::default(), TestConfig::go("."));
/// let verdict = tests.run();
/// println!("{}: {}", verdict.name(), verdict.reason());
/// ```
#[derive(Debug, Clone)]
pub struct SandboxedTests {
    sandbox: Sandbox,
    /// Why [`Sandbox::Auto`] chose the sandbox, or why none could start.
    sandbox_why: Option<String>,
    config: TestConfig,
    suite: Option<(String, String)>,
    cancel: Option<Cancel>,
}

impl SandboxedTests {
    /// `config`'s tests, to run inside `sandbox`. [`Sandbox::Auto`] is
    /// resolved here, once for every attempt ([`testgate_run::choose_sandbox`]:
    /// bubblewrap where it starts, else Landlock); when neither can start
    /// it stays `Auto` and each attempt is refused, naming both reasons.
    pub fn new(sandbox: Sandbox, config: TestConfig) -> Self {
        let (sandbox, sandbox_why) = match sandbox {
            Sandbox::Auto(options) => match testgate_run::choose_sandbox(&options) {
                Ok(choice) => (choice.sandbox, Some(choice.why)),
                Err(why) => (Sandbox::Auto(options), Some(why)),
            },
            explicit @ (Sandbox::Bubblewrap(_) | Sandbox::Landlock(_) | Sandbox::Host) => {
                (explicit, None)
            }
        };
        SandboxedTests {
            sandbox,
            sandbox_why,
            config,
            suite: None,
            cancel: None,
        }
    }

    /// The sandbox the attempts run in: as given, or what
    /// [`Sandbox::Auto`] chose (still `Auto` when neither could start).
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Why [`Sandbox::Auto`] chose [`sandbox`](SandboxedTests::sandbox), or
    /// why no sandbox can start; `None` for an explicit choice.
    pub fn sandbox_why(&self) -> Option<&str> {
        self.sandbox_why.as_deref()
    }

    /// [`Record::sandbox`].
    fn sandbox_used(&self) -> (&'static str, Option<String>) {
        (self.sandbox.name(), self.sandbox_why.clone())
    }

    /// Names the suite and its version (a commit, say), so a record says
    /// which suite, at which version, gave the verdict.
    pub fn named(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.suite = Some((name.into(), version.into()));
        self
    }

    /// Ends the running attempt's whole process tree when `cancel` is
    /// tripped; the verdict is then Inconclusive (cancelled).
    pub fn cancel_with(mut self, cancel: Cancel) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// The workspace directory the tests run in.
    pub fn workspace(&self) -> &Path {
        self.config.workspace()
    }

    /// The configuration.
    pub fn config(&self) -> &TestConfig {
        &self.config
    }

    /// The names of the variables the command's environment holds (the
    /// default policy over this process's environment, plus the config's
    /// own), sorted; never their values. For a verdict record.
    pub fn environment_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .env_policy()
            .resolve(std::env::vars_os())
            .into_iter()
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The versions of the runner and its toolchain, as they report them
    /// when asked inside the same sandbox, with the same environment, as
    /// the tests (`cargo --version`, `rustc --version`, `go version`,
    /// `python3 -m pytest --version`, `node --version`, `npx --no-install
    /// jest --version`, …): (the question, the first line of the answer),
    /// for the [recognised runner](TestConfig::runner); a question whose
    /// answer did not come in 30 s, or not with exit 0, is left out. Each
    /// runs a command of the toolchain, so it is asked only when wanted
    /// (`check --record`), before the attempts; the project is read-only to
    /// them.
    pub fn toolchain_versions(&self) -> Vec<(String, String)> {
        let Some(runner) = self.config.runner() else {
            return Vec::new();
        };
        let program = self.config.program.to_string_lossy().into_owned();
        let questions = crate::runners::profile(runner).version_questions(&program);
        questions
            .into_iter()
            .filter_map(|question| {
                let answer = self.ask(&question)?;
                Some((question.join(" "), answer))
            })
            .collect()
    }

    /// The first non-empty line `question` prints in the sandbox, within
    /// 30 s, if it exits 0.
    fn ask(&self, question: &[String]) -> Option<String> {
        let (program, args) = question.split_first()?;
        let spec = RunSpec::new(program, args)
            .dir(self.config.workspace.clone())
            .env(self.env_policy())
            .timeout(Duration::from_secs(30))
            .sandbox(self.sandbox.clone())
            // A question writes nothing: a module of the project's that
            // shadows the runner's cannot plant anything while asked.
            .writes(ProjectWrites::Nothing)
            .caches(crate::runners::caches_used_in(
                &self.config.workspace,
                OsStr::new(program),
                args,
            ))
            .tool_caches(crate::runners::tool_caches())
            .toolchains(crate::runners::run_toolchains());
        let mut out: Vec<u8> = Vec::new();
        let mut sink = |chunk: &[u8]| {
            if out.len() < 64 * 1024 {
                out.extend_from_slice(chunk);
            }
        };
        let finished = testgate_run::run(&spec, &mut sink).ok()?;
        if finished.ending != testgate_run::Ending::Exited(0) {
            return None;
        }
        let text = testgate_parse::printable(&out);
        let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
        Some(line.chars().take(200).collect())
    }

    /// The most attempts this check runs: the bound of the driver the
    /// configuration chooses (the retry policy, grading against `expect`, or
    /// `stress` runs). Ask this, never a `Policy` rebuilt beside it.
    pub fn max_attempts(&self) -> u64 {
        self.judge().max_attempts()
    }

    /// The driver the configuration chooses.
    fn judge(&self) -> Box<dyn Driver> {
        let policy = Policy::new(self.config.retries).with_rerun(self.config.rerun);
        let expect = self.config.expect.clone();
        let expect = expect.map(|e| crate::runners::listed_as(self.config.runner(), e));
        judge::driver(policy, expect, self.config.stress)
    }

    /// Waits until no other check holds the project
    /// ([`testgate_run::ProjectLock`]), or this one is cancelled. A folder
    /// that cannot be held (a file system without `flock`) is checked
    /// without the hold, as before.
    fn hold_project(&self) -> Option<testgate_run::ProjectLock> {
        loop {
            match testgate_run::ProjectLock::try_hold(&self.config.workspace) {
                Ok(Some(hold)) => return Some(hold),
                Ok(None) if !self.cancel.as_ref().is_some_and(Cancel::is_cancelled) => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// Runs the tests, retrying as configured, and says whether they passed.
    pub fn run(&self) -> Verdict {
        self.run_observed(&mut Silent).verdict
    }

    /// The project's tree as found, with what earlier checks learnt of it
    /// unless the tests run on the `host` (docs/sandbox.md, "Across
    /// checks").
    fn record(&self, host: bool) -> Result<Snapshot, crate::project_tree::SnapshotError> {
        let (root, cancel) = (&self.config.workspace, self.cancel.clone());
        if host {
            Snapshot::take_within(root, true, Limits::default(), cancel)
        } else {
            Snapshot::take_remembering(root, Limits::default(), cancel)
        }
    }

    /// [`run`](SandboxedTests::run), showing each attempt to `observer` as
    /// it runs, and returning every attempt's record with the verdict.
    pub fn run_observed(&self, observer: &mut dyn Observer) -> Record {
        if let Err(refused) = crate::project::project_dir(&self.config.workspace) {
            // Nothing runs in, snapshots or restores the host's root or a
            // home: the caller gets the reason instead.
            return self.ran_nothing(Halt::SandboxRefused.verdict(refused.to_string()));
        }
        // One check of a project at a time: each puts the tree back.
        let _hold = self.hold_project();
        // Unsandboxed, the tests could write testgate's private state:
        // nothing learnt there is used, and it is removed after the check.
        let host = matches!(self.sandbox, Sandbox::Host);
        let _forget = host.then(|| Forget(&self.config.workspace));
        // Recorded before anything runs: a preparation is judged too.
        let snapshot = match self.record(host) {
            Ok(snapshot) => {
                let snapshot = snapshot.leave_out(&self.config.own_files);
                // The user's own report is what they asked the runner to
                // write: left in place.
                match &self.config.report {
                    Some(rel) => snapshot.keeping_new(rel),
                    None => snapshot,
                }
            }
            Err(error) => return self.unrecorded(&error, Vec::new()),
        };
        let Some(view) = &self.config.view else {
            return self.run_from(snapshot, observer);
        };
        // The tree as found is what is put back after the check; the view
        // (the patch, the trusted tests) is what the attempts run and what
        // each attempt is compared with.
        let found = snapshot;
        let written = crate::trusted_view::write_into(
            view,
            &self.config.workspace,
            &found.file_paths(),
            self.config.runner(),
        );
        let mut made = match written {
            Ok(made) => made,
            Err(why) => {
                let found = found.uncancelled();
                let put_back = found.put_back(&found.compare()).map(|_| ());
                let mut record = self.ran_nothing(Halt::PrepareFailed.verdict(format!(
                    "the tree the attempts were to run could not be made, so nothing ran: {why}"
                )));
                record.view = Some(ViewRecord {
                    put_back: Some(put_back),
                    ..ViewRecord::default()
                });
                return record;
            }
        };
        let mut record = match found.retake() {
            Ok(view) => self.run_from(view, observer),
            Err(error) => self.unrecorded(&error, Vec::new()),
        };
        // Also after an interruption: the view must not stay in the tree.
        let found = found.uncancelled();
        made.put_back = Some(found.put_back(&found.compare()).map(|_| ()));
        record.view = Some(made);
        record
    }

    /// A record of a check that ran nothing, with `verdict`.
    fn ran_nothing(&self, verdict: Verdict) -> Record {
        Record {
            suite: self.suite.clone(),
            verdict,
            findings: Findings::default(),
            preparations: Vec::new(),
            attempts: Vec::new(),
            tree_digest: None,
            tree_unbound: Vec::new(),
            tree: None,
            grading: None,
            stress: None,
            sandbox: self.sandbox_used(),
            view: None,
        }
    }

    /// The preparations and the attempts on the tree `snapshot` recorded.
    fn run_from(&self, snapshot: Snapshot, observer: &mut dyn Observer) -> Record {
        let preparations = match self.run_preparations(&snapshot, observer) {
            Ok(preparations) => preparations,
            Err(stopped) => return *stopped,
        };
        let snapshot = if preparations.is_empty() {
            snapshot
        } else {
            // What the preparations wrote where runners write is the tree
            // the attempts run on.
            match snapshot.retake() {
                Ok(snapshot) => snapshot,
                Err(error) => return self.unrecorded(&error, preparations),
            }
        };
        self.run_attempts(&snapshot, preparations, observer)
    }

    /// Runs the preparation steps in order, each compared against the tree
    /// `snapshot` recorded; the record that ends the check when one failed
    /// or changed the tree (or testgate was interrupted comparing it).
    fn run_preparations(
        &self,
        snapshot: &Snapshot,
        observer: &mut dyn Observer,
    ) -> Result<Vec<PreparationRecord>, Box<Record>> {
        let mut preparations = Vec::new();
        for (index, command) in self.config.prepare.iter().enumerate() {
            if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                break;
            }
            observer.preparation_started(index + 1, command);
            let record = self.prepare(index + 1, command, observer);
            observer.preparation_finished(&record);
            let failed = !record.preparation.succeeded();
            let verdict = record.preparation.verdict();
            preparations.push(record);
            if failed {
                let mut stopped = self.ran_nothing(verdict);
                stopped.preparations = preparations;
                return Err(Box::new(stopped));
            }
            let mut change = snapshot.compare_preparation();
            if !change.is_empty() {
                let verdict = if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                    Halt::Cancelled.verdict(format!(
                            "testgate was interrupted while it compared the tree after the preparation `{command}`"
                        ))
                } else {
                    change.restored = Some(snapshot.restore(&change));
                    Halt::TreeChanged.verdict(change.preparation_reason(command))
                };
                let mut stopped = self.ran_nothing(verdict);
                stopped.preparations = preparations;
                stopped.tree_digest = Some(snapshot.digest());
                stopped.tree_unbound = unbound(snapshot);
                stopped.tree = Some(change);
                return Err(Box::new(stopped));
            }
        }
        Ok(preparations)
    }

    /// The attempts the driver plans, each on the tree `snapshot` recorded
    /// (put back after each), until it knows the verdict; the record of
    /// the check.
    fn run_attempts(
        &self,
        snapshot: &Snapshot,
        preparations: Vec<PreparationRecord>,
        observer: &mut dyn Observer,
    ) -> Record {
        let judge = self.judge();
        let mut attempts: Vec<Attempt> = Vec::new();
        let mut records: Vec<AttemptRecord> = Vec::new();
        // The judged changes, by attempt number.
        let mut changes: Vec<(usize, TreeChange)> = Vec::new();
        // Whether the verdict is the driver's (not testgate's own `cancelled`).
        let mut by_driver = true;
        let verdict = loop {
            let Plan { step, note, .. } = judge.plan(&attempts);
            let selection = match step {
                Step::Done(verdict) => break verdict,
                Step::Run(selection) => selection,
            };
            if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
                break judge.verdict(&attempts);
            }
            let number = attempts.len() + 1;
            let mut record = self.planned_attempt(number, selection, note, &records, observer);
            let change = self.tree_after_attempt(&*judge, snapshot, &attempts, &mut record);
            observer.attempt_finished(&record);
            attempts.push(record.attempt.clone());
            records.push(record);
            let change = match change {
                Ok(change) => change,
                Err(interrupted) => {
                    by_driver = false;
                    break interrupted;
                }
            };
            let stuck = matches!(change.restored, Some(Err(_)));
            if !change.is_empty() || stuck {
                changes.push((number, change));
            }
            // A tree not put back would make the next attempt run another
            // tree; a driver that weighs each test across attempts (graded
            // and stress runs) has nothing to stand on after a change.
            if stuck || (!changes.is_empty() && judge::ends_at_tree_change(&*judge, &attempts)) {
                break judge.verdict(&attempts);
            }
        };
        let given = (verdict, by_driver);
        let (verdict, findings, tree) =
            judge::conclude(&*judge, given, changes, &mut attempts, &mut records);
        Record {
            suite: self.suite.clone(),
            verdict,
            findings,
            preparations,
            attempts: records,
            tree_digest: Some(snapshot.digest()),
            tree_unbound: unbound(snapshot),
            tree,
            grading: judge.grading(&attempts),
            stress: judge.varied(&attempts),
            sandbox: self.sandbox_used(),
            view: None,
        }
    }

    /// Runs attempt `number` of `selection` (its command rewritten for a
    /// targeted retry from the earlier `records`), with the plan's `note`
    /// before the rewrite's and the attempt's own.
    fn planned_attempt(
        &self,
        number: usize,
        selection: Selection,
        note: Option<String>,
        records: &[AttemptRecord],
        observer: &mut dyn Observer,
    ) -> AttemptRecord {
        let (program, args, selection, rewrite_note) = self.command_for(selection, records);
        let mut command = vec![program.clone()];
        command.extend(args.iter().cloned());
        observer.attempt_started(number, &selection, &command);
        let mut record = self.attempt(number, &program, &args, selection, observer);
        let note = match (note, rewrite_note) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        };
        if let Some(note) = note {
            // The attempt's own note (its report) stays, after the plan's.
            let note = match &record.attempt.note {
                Some(own) => format!("{note}; {own}"),
                None => note,
            };
            record.attempt = record.attempt.with_note(note);
        }
        record
    }

    /// What attempt `record` changed in the tree `snapshot` recorded, put
    /// back unless it is the last and the caller keeps it to look at (every
    /// attempt starts from the tree as submitted), with the incidental
    /// changes noted on the attempt; the verdict `cancelled` when testgate
    /// was interrupted while it compared (the comparison may have stopped
    /// half-way: unproved).
    fn tree_after_attempt(
        &self,
        judge: &dyn Driver,
        snapshot: &Snapshot,
        attempts: &[Attempt],
        record: &mut AttemptRecord,
    ) -> Result<TreeChange, Verdict> {
        let mut change = snapshot.compare();
        // Under Landlock, what the attempt did in the installed folders.
        change.installed = record.installed.clone();
        if change.is_untouched() {
            return Ok(change);
        }
        if self.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Err(Halt::Cancelled.verdict(format!(
                "testgate was interrupted while it compared the tree after attempt {}",
                record.number
            )));
        }
        let mut after = attempts.to_vec();
        after.push(record.attempt.clone());
        let last = matches!(judge.plan(&after).step, Step::Done(_));
        if !(last && self.config.keep_changes) {
            change.restored = Some(snapshot.put_back(&change));
        }
        if let Some(incidental) = change.incidental_note() {
            record.attempt = record
                .attempt
                .clone()
                .with_note(match &record.attempt.note {
                    Some(own) => format!("{own}; {incidental}"),
                    None => incidental,
                });
        }
        Ok(change)
    }

    /// Runs one preparation step: `sh -c COMMAND` in the workspace, in the
    /// sandbox with the network, within the attempts' time limit.
    fn prepare(
        &self,
        number: usize,
        command: &str,
        observer: &mut dyn Observer,
    ) -> PreparationRecord {
        let sandbox = match &self.sandbox {
            Sandbox::Bubblewrap(options) => {
                let options = BwrapOptions {
                    allow_network: true,
                    ..options.clone()
                };
                // TODO(toolchains): set `dependency_stores_writable: true`
                // here once BwrapOptions has it, so that `npm ci`, `cargo
                // fetch` and `go mod download` can fill the toolchains'
                // caches that the attempts then read.
                Sandbox::Bubblewrap(options)
            }
            Sandbox::Landlock(options) => Sandbox::Landlock(LandlockOptions {
                allow_network: true,
                ..options.clone()
            }),
            Sandbox::Auto(options) => Sandbox::Auto(BwrapOptions {
                allow_network: true,
                ..options.clone()
            }),
            Sandbox::Host => Sandbox::Host,
        };
        let args = [OsString::from("-c"), OsString::from(command)];
        // A preparation installs: the venvs, `node_modules` and `target/`
        // the attempts see read-only are its to fill.
        let mut spec = RunSpec::new("sh", &args)
            .dir(self.config.workspace.clone())
            .env(self.env_policy())
            .timeout(self.config.timeout)
            .sandbox(sandbox)
            .writes(ProjectWrites::All)
            .tool_caches(crate::runners::tool_caches())
            .toolchains(crate::runners::run_toolchains());
        if let Some(cancel) = &self.cancel {
            spec = spec.cancel(cancel.clone());
        }
        let before = top_level_entries(&self.config.workspace);
        let mut sink = AttemptSink::new(self.config.format, TAIL_BYTES, observer);
        let started = Instant::now();
        let result = testgate_run::run(&spec, &mut sink);
        let Finished {
            tail, environment, ..
        } = sink.finish();
        let (ending, duration) = match &result {
            Ok(finished) => (
                ending_of(Ok(finished.ending), self.config.timeout),
                finished.duration,
            ),
            Err(error) => (
                ending_of(Err(error), self.config.timeout),
                started.elapsed(),
            ),
        };
        let after = top_level_entries(&self.config.workspace);
        let removed: Vec<String> = before.difference(&after).cloned().collect();
        PreparationRecord {
            number,
            preparation: Preparation::new(command, ending)
                .with_tail(tail)
                .with_removed(removed)
                .with_environment(environment.map(|found| Environment::new(found.what, found.fix))),
            duration,
        }
    }

    /// The command line that runs `selection`, the selection it really
    /// runs, and a note when that is not the one asked for.
    ///
    /// A targeted selection is rewritten with the runner's own exact
    /// selectors ([`crate::rerun`]), each name placed by the context the
    /// parser gave it in the latest attempt that named it. When that cannot
    /// be done safely the full command runs, and the attempt is recorded as
    /// full: the policy must not read a full run as "passed when run alone".
    fn command_for(
        &self,
        selection: Selection,
        records: &[AttemptRecord],
    ) -> (OsString, Vec<OsString>, Selection, Option<String>) {
        let program = self.config.program.clone();
        let Selection::Only(names) = &selection else {
            if self.config.stress.is_some()
                && let Some(args) = rerun::uncached(&program, &self.config.args)
            {
                let note = records.is_empty().then(|| {
                    "added -count=1: go would replay its cached results instead of running \
                     the tests again"
                        .to_owned()
                });
                return (program, args, selection, note);
            }
            return (program, self.config.args.clone(), selection, None);
        };
        // A name failing in two places (one title in two jest files) is
        // two tests: each place of the latest attempt that named it.
        let mut targets: Vec<Target<'_>> = Vec::with_capacity(names.len());
        for name in names {
            let latest = records
                .iter()
                .rev()
                .find(|r| r.report.failing.iter().any(|t| t.name == *name));
            let mut places: Vec<Option<&str>> = Vec::new();
            for test in latest.iter().flat_map(|r| &r.report.failing) {
                let place = test.context.as_deref();
                if test.name == *name && !places.contains(&place) {
                    places.push(place);
                }
            }
            if places.is_empty() {
                places.push(None);
            }
            targets.extend(places.into_iter().map(|context| Target { name, context }));
        }
        match rerun::targeted_args(
            &program,
            &self.config.args,
            &targets,
            &self.config.workspace,
        ) {
            Ok(args) => (program, args, selection, None),
            Err(why) => (
                program,
                self.config.args.clone(),
                Selection::Full,
                Some(format!(
                    "ran the full suite instead of only {}: {why}",
                    count_tests(names.len())
                )),
            ),
        }
    }

    /// The record of a check that ran nothing because the tree could not be
    /// recorded: Inconclusive `tree_unreadable` (or `cancelled`), with why.
    fn unrecorded(&self, error: &SnapshotError, preparations: Vec<PreparationRecord>) -> Record {
        let when = if preparations.is_empty() {
            "before the first attempt"
        } else {
            "after the preparations"
        };
        let verdict = match error {
            SnapshotError::Cancelled => Halt::Cancelled.verdict(format!(
                    "testgate was interrupted while it recorded the tree {when}; no attempt ran"
                )),
            SnapshotError::Unreadable { .. }
            | SnapshotError::TooDeep { .. }
            | SnapshotError::TooManyEntries { .. }
            | SnapshotError::TooLarge { .. }
            | SnapshotError::OverTime { .. } => Halt::TreeUnreadable.verdict(format!(
                    "the tree could not be recorded {when}, so a change to it could not have been seen, and no attempt ran: {error}"
                )),
        };
        Record {
            suite: self.suite.clone(),
            verdict,
            findings: Findings::default(),
            preparations,
            attempts: Vec::new(),
            tree_digest: None,
            tree_unbound: Vec::new(),
            tree: None,
            grading: None,
            stress: None,
            sandbox: self.sandbox_used(),
            view: None,
        }
    }

    /// The environment of every command: the config's variables over the
    /// default policy, and no bytecode written into the project (a new or
    /// changed `__pycache__` entry is then a tree change; see
    /// docs/sandbox.md).
    fn env_policy(&self) -> EnvPolicy {
        self.env_policy_of(None)
    }

    /// [`env_policy`](SandboxedTests::env_policy), with attempt `number`
    /// (from 1) in `TESTGATE_ATTEMPT`: the tree is put back between
    /// attempts, so a suite (a fixture that is flaky on purpose) that
    /// wants to tell its attempts apart reads the number instead of
    /// counting in the tree.
    fn env_policy_of(&self, attempt: Option<usize>) -> EnvPolicy {
        let mut base =
            crate::runners::pass_runners_env(EnvPolicy::new()).set("PYTHONDONTWRITEBYTECODE", "1");
        if let Some(number) = attempt {
            base = base.set("TESTGATE_ATTEMPT", number.to_string());
        }
        self.config
            .env
            .iter()
            .fold(base, |policy, (name, value)| match value {
                Some(value) => policy.set(name.clone(), value.clone()),
                None => policy.pass(name.clone()),
            })
    }

    fn attempt(
        &self,
        number: usize,
        program: &OsString,
        args: &[OsString],
        selection: Selection,
        observer: &mut dyn Observer,
    ) -> AttemptRecord {
        // The runner's own report, asked for at a fresh place outside the
        // project (docs/policy.md, "Three channels must agree").
        // The environment the attempt runs with, as `testgate_run` makes it.
        let env = self
            .env_policy_of(Some(number))
            .resolve_for(std::env::vars_os(), &crate::runners::run_toolchains());
        let variable = |name: &str| {
            env.iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, value)| value.to_str().map(str::to_owned))
        };
        let asked = crate::channels::ask_in(program, args, &self.config.workspace, &variable);
        let (spec, run_args) = self.attempt_spec(number, program, args, &asked);
        let fails_apart = fails_apart(program, args, &self.config.workspace);
        let report_path = self.users_report_cleared();
        let mut sink = AttemptSink::new(self.config.format, TAIL_BYTES, observer);
        if let Ok(asked) = asked.as_ref()
            && let Some(runner) = asked.events_runner()
        {
            sink = sink.with_go_events(runner, asked.framing_on_stdout());
        }
        let started = Instant::now();
        let mut result = testgate_run::run(&spec, &mut sink);
        let Finished {
            report,
            events,
            tail,
            environment,
            coverage_below_threshold,
        } = sink.finish();
        let judged = self.judged(asked, report, events, report_path);
        let installed = match &mut result {
            Ok(finished) => std::mem::take(&mut finished.installed),
            Err(_) => testgate_run::InstalledChange::default(),
        };
        let (ran, duration, leaked, sandbox_notes) = match &mut result {
            Ok(finished) => (
                Ok(finished.ending),
                finished.duration,
                finished.leaked_processes,
                std::mem::take(&mut finished.sandbox_notes),
            ),
            Err(error) => (Err(&*error), started.elapsed(), false, Vec::new()),
        };
        let (attempt, report) = attempt_of(Facts {
            ran,
            timeout: self.config.timeout,
            duration,
            leaked,
            selection,
            judged,
            tail,
            environment,
            coverage_below_threshold,
            runner_recognised: self.config.runner().is_some(),
            every_test: self.config.expect.is_some() || self.config.stress.is_some(),
            fails_apart,
        });
        let mut command = vec![program.to_string_lossy().into_owned()];
        command.extend(run_args.iter().map(|a| a.to_string_lossy().into_owned()));
        AttemptRecord {
            number,
            command,
            attempt,
            report,
            sandbox_notes,
            installed,
        }
    }

    /// What attempt `number` runs: `program` with `args` (or the arguments
    /// that ask the runner for its report, when it was `asked`), in the
    /// workspace, with its environment, limits, sandbox and caches; and
    /// the arguments it runs with.
    fn attempt_spec(
        &self,
        number: usize,
        program: &OsString,
        args: &[OsString],
        asked: &Result<crate::channels::Asked, String>,
    ) -> (RunSpec, Vec<OsString>) {
        let (run_args, env, sandbox) = match asked {
            Ok(asked) => (
                asked.args().to_vec(),
                asked.env(self.env_policy_of(Some(number))),
                asked.sandbox(self.sandbox.clone()),
            ),
            Err(_) => (
                args.to_vec(),
                self.env_policy_of(Some(number)),
                self.sandbox.clone(),
            ),
        };
        let mut spec = RunSpec::new(program, &run_args)
            .dir(self.config.workspace.clone())
            .env(env)
            .timeout(self.config.timeout)
            .sandbox(sandbox)
            .caches(crate::runners::caches_used_in(
                &self.config.workspace,
                program,
                &run_args,
            ))
            .tool_caches(crate::runners::tool_caches())
            .toolchains(crate::runners::run_toolchains());
        if let Some(cancel) = &self.cancel {
            spec = spec.cancel(cancel.clone());
        }
        (spec, run_args)
    }

    /// Where the user's report (`--report`) is, if one was named, with a
    /// stale one removed: it must not stand for this attempt (removed
    /// beneath the project: a link on the way is not followed).
    fn users_report_cleared(&self) -> Option<Result<(PathBuf, PathBuf), String>> {
        let report_path = self
            .config
            .report
            .as_ref()
            .map(|rel| users_report::report_path(&self.config.workspace, rel));
        if let Some(Ok((root, rel))) = &report_path
            && let Ok(project) = testgate_run::ProjectDir::open(root)
        {
            let _ = project.remove(rel);
        }
        report_path
    }

    /// The attempt's channels judged together: the console's `report`
    /// beside the runner's own (its stdout `events`, or the report it was
    /// `asked` for) and the user's report, under the evidence rule.
    fn judged(
        &self,
        asked: Result<crate::channels::Asked, String>,
        report: testgate_parse::Report,
        events: Option<testgate_parse::Report>,
        report_path: Option<Result<(PathBuf, PathBuf), String>>,
    ) -> crate::channels::Judged {
        let judged = match (&asked, events) {
            (Ok(_), Some(events)) => crate::channels::beside_events(report, events),
            (Ok(asked), None) => asked.read(report),
            (Err(why), _) => crate::channels::Judged::console_alone_because(report, why),
        };
        drop(asked);
        // Where the user's report is, decided again: the attempt may have
        // made a folder on the way a symbolic link out of the project.
        let report_path = report_path.and(
            self.config
                .report
                .as_ref()
                .map(|rel| users_report::report_path(&self.config.workspace, rel)),
        );
        let judged = match report_path {
            Some(path) => with_runner_report(judged, path),
            None => judged,
        };
        judged.under(self.config.evidence)
    }
}

/// What the project of the command `program args` fails a run on apart
/// from failed tests (PHPUnit's `failOnRisky`), read before the attempt.
fn fails_apart(
    program: &OsString,
    args: &[OsString],
    workspace: &Path,
) -> Option<crate::runners::FailsApart> {
    let base = Path::new(program).file_name()?.to_str()?;
    let words: Option<Vec<String>> = args.iter().map(|a| a.to_str().map(str::to_owned)).collect();
    crate::runners::fails_apart(base, &words?, workspace)
}

/// The names of the top-level entries of `dir`, to tell what a
/// preparation removed; empty when it cannot be read.
fn top_level_entries(dir: &Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// [`Snapshot::unbound`], as text.
fn unbound(snapshot: &Snapshot) -> Vec<String> {
    snapshot
        .unbound()
        .iter()
        .map(|p| p.display().to_string())
        .collect()
}

/// `1 test`, `3 tests`.
fn count_tests(n: usize) -> String {
    if n == 1 {
        "1 test".to_owned()
    } else {
        format!("{n} tests")
    }
}

/// On drop, removes what checks learnt of the project's tree in its
/// private state ([`testgate_run::PrivateState::forget`]): the guard of a
/// check whose tests ran on the host.
struct Forget<'a>(&'a std::path::Path);

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        // Nothing to remove, or no cache directory: nothing was learnt.
        let _ = testgate_run::PrivateState::forget(self.0);
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use super::*;
    use testgate_policy::Cause;

    /// Each attempt sees the tree as submitted (a script that exits 3 when
    /// it does not), rewrites a file and fails: every retry runs, and the
    /// tree is put back after the last too unless the caller keeps it.
    #[test]
    fn every_attempt_starts_from_the_tree_as_submitted_and_the_last_may_be_kept() {
        for keep in [false, true] {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::write(dir.path().join("data.txt"), "as submitted\n").expect("data");
            let script = "grep -q 'as submitted' data.txt || exit 3; \
                          echo changed > data.txt; mkdir -p empty/folder; exit 1";
            let config = TestConfig::new(dir.path(), "sh", ["-c", script])
                .retrying(2)
                .keep_changes(keep);
            let record = SandboxedTests::new(Sandbox::Host, config).run_observed(&mut Silent);
            let endings: Vec<_> = record
                .attempts
                .iter()
                .map(|r| r.attempt.ending.clone())
                .collect();
            assert_eq!(
                endings,
                vec![testgate_policy::Ending::Exited { code: 1 }; 3],
                "keep {keep}: {:?}",
                record.verdict
            );
            // Failing naming no test: a change leaves no evidence.
            assert_eq!(record.verdict.cause(), Some(Cause::TreeChanged));
            let left = std::fs::read_to_string(dir.path().join("data.txt")).expect("data");
            let tree = record.tree.expect("the change");
            assert_eq!(tree.changed, [std::path::PathBuf::from("data.txt")]);
            assert_eq!(tree.incidental, [std::path::PathBuf::from("empty")]);
            if keep {
                assert_eq!(left, "changed\n");
                assert!(tree.restored.is_none());
                assert!(record.verdict.reason().contains("--keep-changes"));
            } else {
                assert_eq!(left, "as submitted\n");
                assert!(!dir.path().join("empty").exists());
                assert!(tree.put_back());
            }
        }
    }

    /// The library refuses the host's root as a project before anything
    /// runs in it, snapshots it or restores it: the caller gets the reason.
    #[test]
    fn the_root_is_never_a_project_even_through_the_library() {
        let tests = SandboxedTests::new(
            Sandbox::Host,
            TestConfig::new("/", "true", Vec::<OsString>::new()),
        );
        let record = tests.run_observed(&mut Silent);
        assert!(record.attempts.is_empty() && record.tree_digest.is_none());
        assert!(
            matches!(
                record.verdict,
                Verdict::Inconclusive {
                    cause: Cause::SandboxRefused,
                    ..
                }
            ),
            "{:?}",
            record.verdict
        );
        assert_eq!(
            record.verdict.reason(),
            "refusing / as the project directory: it is the root directory, which the tests \
             would be free to write"
        );
    }
}
