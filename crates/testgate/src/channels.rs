//! The runner's own report of an attempt, the second channel beside the
//! console: asked for at a fresh place outside the project, read after the
//! runner exited, and set beside the console (docs/policy.md, "Three
//! channels must agree"; docs/formats.md, "Where the outcomes come from").

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use testgate_parse::{Beside, FailingTest, Report, Runner, TestOutcome};
use testgate_policy::{Counts, Evidence};
use testgate_run::{EnvPolicy, Sandbox};

use crate::config::EvidenceRule;
use crate::runners::{self, EnvJoin, ReportFormat, ReportRequest, ReportTarget};
use crate::written_reports::{self, Found};

/// The largest runner report read. Its bytes and its parse take about
/// four times its size (a 64 MiB JUnit report of 790,000 tests: testgate
/// peaked at 272 MiB), so the cap is what bounds testgate's memory here; a
/// larger report is a note, and the console is read instead.
pub(crate) const MAX_REPORT: u64 = 64 << 20;

/// The most files read from a report's directory
/// ([`ReportTarget::Directory`]): one for each test binary.
const MAX_REPORT_FILES: usize = 4096;

/// The reports one attempt asks for: a fresh directory of testgate's (0700,
/// under the host's temporary directory, outside the project and anything
/// the tree check watches; removed when this is dropped), the command's
/// arguments, and each runner's request.
pub(crate) struct Asked {
    /// The directory the reports are written to.
    dir: tempfile::TempDir,
    /// Where the command runs: the paths of jest's and vitest's reports are
    /// made relative to it, as their consoles print them.
    root: PathBuf,
    /// The runner the command line starts, when one is recognised.
    recognised: Option<Runner>,
    /// The runner a wrapper starts (an npm script, a shell's `-c` script)
    /// that was asked for its report through its arguments there.
    behind: Option<Runner>,
    /// The program's arguments with the recognised runner's request applied.
    args: Vec<OsString>,
    /// Each request, with the report's file name in `dir`.
    requests: Vec<(Runner, PathBuf, ReportRequest)>,
    /// The report files inside the project before the attempt, where a
    /// request's runner writes them there ([`ReportTarget::Written`]).
    written_before: Option<Found>,
    /// Why the command keeps a request's runner from writing its report
    /// ([`runners::RunnerProfile::unreachable_by`]), said where none was.
    unreachable: Option<String>,
}

impl std::fmt::Debug for Asked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Asked")
            .field("dir", &self.dir.path())
            .field("recognised", &self.recognised)
            .field("behind", &self.behind)
            .field("requests", &self.requests)
            .finish_non_exhaustive()
    }
}

/// A variable of the environment a command runs with: its value, `None`
/// where it is unset.
pub(crate) type Variable<'a> = &'a dyn Fn(&str) -> Option<String>;

/// [`ask_in`] an environment that sets nothing.
#[cfg(test)]
pub(crate) fn ask(program: &OsStr, args: &[OsString], workspace: &Path) -> Result<Asked, String> {
    ask_in(program, args, workspace, &|_| None)
}

/// What asking `program args`, run in `workspace`, for its report takes:
/// for a runner the command line starts, its profile's request (none where
/// the profile has none); behind `npm test` / `npm run NAME` whose script
/// is a plain runner command, that runner's request by arguments, appended
/// after the command's `--` (as a targeted retry's selectors are); behind a
/// shell's `-c` script that is a list of simple commands of which one
/// starts a runner (`bash -c 'cd x && npx jest'`), that command's words
/// rewritten in the script as a bare command's would be; and for every
/// command no runner is recognised in (`bash -c`, `tox`, `make`, `npm
/// test`), every request made through the environment alone, since the
/// environment reaches a runner behind the wrapper. `Err` when no place
/// could be made for the reports. The command runs with the environment
/// `variable` gives: no runner is asked by its arguments where that
/// environment already chose its report
/// ([`runners::RunnerProfile::report_chosen_by`]: node's `NODE_OPTIONS`
/// naming a reporter), nor where a shell's `-c` script sets such a variable
/// before the runner's command.
pub(crate) fn ask_in(
    program: &OsStr,
    args: &[OsString],
    workspace: &Path,
    variable: Variable<'_>,
) -> Result<Asked, String> {
    let dir = tempfile::Builder::new()
        .prefix("testgate-report-")
        .tempdir_in(outside(workspace)?)
        .map_err(|e| format!("no directory for the runner's report: {e}"))?;
    let utf8: Option<Vec<String>> = args.iter().map(|a| a.to_str().map(str::to_owned)).collect();
    let base = Path::new(program)
        .file_name()
        .and_then(OsStr::to_str)
        .unwrap_or_default();
    let recognised = utf8
        .as_ref()
        .and_then(|words| runners::recognise(base, words).map(|found| (found, words)));
    let mut requests = Vec::new();
    let mut out_args = args.to_vec();
    let mut behind = None;
    match recognised {
        Some(((runner, prefix), words)) => {
            if let Some((rel, request)) =
                by_arguments(runner, &words[prefix..], dir.path(), workspace)
                    .filter(|_| !runners::profile(runner).report_chosen_by(variable))
            {
                let mut all: Vec<String> = words[..prefix].to_vec();
                all.extend(request.args.iter().cloned());
                out_args = all.into_iter().map(OsString::from).collect();
                requests.push((runner, rel, request));
            }
        }
        None => {
            if let Some(words) = &utf8 {
                let asked = match runners::ShellScript::of(base, words) {
                    Some(script) => behind_script(&script, words, dir.path(), workspace, variable),
                    None => match runners::script_wrapper(base, words) {
                        Some(wrapped) => behind_wrapper(wrapped, words, dir.path(), workspace),
                        None => runners::npm::Manager::of(base)
                            .and_then(|manager| behind_npm(manager, words, dir.path(), workspace)),
                    },
                }
                .filter(|(runner, ..)| !runners::profile(*runner).report_chosen_by(variable));
                if let Some((runner, all, rel, request)) = asked {
                    out_args = all.into_iter().map(OsString::from).collect();
                    requests.push((runner, rel, request));
                    behind = Some(runner);
                }
            }
            ask_through_environment(dir.path(), workspace, behind, &mut requests);
        }
    }
    // Stale files from an earlier build never count: what lies there now
    // is stamped, and only what the attempt writes is read.
    let written_before = requests
        .iter()
        .find_map(|(_, _, request)| match request.written_to {
            ReportTarget::Written(places) => Some(Found::under(workspace, places)),
            ReportTarget::File | ReportTarget::Directory | ReportTarget::Stdout => None,
        });
    let unreachable = utf8.as_ref().and_then(|words| {
        requests
            .iter()
            .filter(|(_, _, request)| request.through_environment)
            .find_map(|(runner, _, _)| runners::profile(*runner).unreachable_by(base, words))
    });
    Ok(Asked {
        unreachable,
        dir,
        root: workspace.to_path_buf(),
        recognised: recognised.map(|((runner, _), _)| runner),
        behind,
        args: out_args,
        requests,
        written_before,
    })
}

/// Every request made through the environment alone, for the runners but
/// `behind` (asked already), added to `requests`: behind a wrapper no
/// runner is recognised in, the environment reaches whichever runs.
fn ask_through_environment(
    dir: &Path,
    workspace: &Path,
    behind: Option<Runner>,
    requests: &mut Vec<(Runner, PathBuf, ReportRequest)>,
) {
    for (runner, profile) in runners::profiles() {
        let Some(probe) = profile.report_behind_wrapper(dir, workspace) else {
            continue;
        };
        let at = place(dir, runner, probe.format);
        if behind != Some(runner)
            && let Some(request) = profile.report_behind_wrapper(&at, workspace)
            && request.through_environment
            && files_written(dir, &request)
        {
            requests.push((runner, rel(&at), request));
        }
    }
}

/// The place of `runner`'s report of `format` in `dir`.
fn place(dir: &Path, runner: Runner, format: ReportFormat) -> PathBuf {
    dir.join(format!("{}.{}", runner.name(), format.extension()))
}

/// `runner`'s request for its report when started with its own arguments
/// `rest`, with the report's file name in `dir`: `None` where its profile
/// has none, or a file it needs beside the report could not be written.
fn by_arguments(
    runner: Runner,
    rest: &[String],
    dir: &Path,
    workspace: &Path,
) -> Option<(PathBuf, ReportRequest)> {
    let profile = runners::profile(runner);
    // The place depends on the format, which the request says: ask once
    // for it, then again with the place.
    let probe = profile.report(rest, dir, workspace)?;
    let at = place(dir, runner, probe.format);
    let request = profile.report(rest, &at, workspace)?;
    files_written(dir, &request).then(|| (rel(&at), request))
}

/// A runner, its request and the command's new words: what a wrapper
/// around a runner gives ([`behind_npm`], [`behind_script`]).
type Behind = (Runner, Vec<String>, PathBuf, ReportRequest);

/// Behind `npm test` / `npm run NAME` (the npm arguments `words`; yarn's
/// and pnpm's `test` and `run NAME` alike) whose script is a plain runner
/// command: the runner's request by arguments, appended as the manager
/// passes words on to the script (`runners::npm::Manager::appended`: after
/// the command's `--` for npm and yarn). `None` where the script is a shell
/// command, the runner is asked through the environment alone, or the
/// manager would not pass the words on as they are.
fn behind_npm(
    manager: runners::npm::Manager,
    words: &[String],
    dir: &Path,
    workspace: &Path,
) -> Option<Behind> {
    let (runner, mut script_args) = manager.script_runner(words, workspace).ok()?;
    script_args.extend(manager.passed(words));
    let (rel, request) = by_arguments(runner, &script_args, dir, workspace)?;
    if request.through_environment {
        return None;
    }
    let extra = request.args.strip_prefix(script_args.as_slice())?;
    let all = manager.appended(words, extra)?;
    Some((runner, all, rel, request))
}

/// Behind a wrapper of a project's script (`composer test` whose `test`
/// script is a plain PHPUnit command; composer's arguments `words`): the
/// runner's request through the wrapper's arguments
/// ([`runners::ScriptWrapper::report`]: PHPUnit's `--log-junit PLACE`
/// appended after the command's `--`, which composer appends to the
/// script).
fn behind_wrapper(
    (runner, prefix, wrapper): (Runner, usize, &dyn runners::ScriptWrapper),
    words: &[String],
    dir: &Path,
    workspace: &Path,
) -> Option<Behind> {
    // The place depends on the format, which the request says: ask once
    // for it, then again with the place.
    let probe = wrapper.report(&words[prefix..], dir, workspace)?;
    let at = place(dir, runner, probe.format);
    let request = wrapper.report(&words[prefix..], &at, workspace)?;
    let mut all = words[..prefix].to_vec();
    all.extend(request.args.iter().cloned());
    Some((runner, all, rel(&at), request))
}

/// Behind a shell's `-c` script of simple commands (the shell's arguments
/// `words`): where exactly one command starts a runner (or an npm script
/// of one) that is asked by arguments, the script with that command's
/// words rewritten so. Two runners would write one report; a runner asked
/// through the environment is asked so already.
fn behind_script(
    script: &runners::ShellScript,
    words: &[String],
    dir: &Path,
    workspace: &Path,
    variable: Variable<'_>,
) -> Option<Behind> {
    let mut found = None;
    for (index, assignments, command) in script.commands() {
        let (program, args) = command[assignments..].split_first()?;
        let base = program.rsplit('/').next().unwrap_or(program);
        let asked = match runners::recognise(base, args) {
            Some((runner, prefix)) => {
                let (rel, request) = by_arguments(runner, &args[prefix..], dir, workspace)?;
                // The command's own `NAME=value` words come before the
                // environment's.
                let assigned = |name: &str| {
                    command[..assignments]
                        .iter()
                        .rev()
                        .find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
                        .map(str::to_owned)
                        .or_else(|| variable(name))
                };
                if runners::profile(runner).report_chosen_by(&assigned) {
                    return None;
                }
                if request.through_environment {
                    return None;
                }
                let mut all = command[..=assignments].to_vec();
                all.extend(args[..prefix].iter().cloned());
                all.extend(request.args.iter().cloned());
                Some((runner, all, rel, request))
            }
            // An npm command that runs no plain runner script (`npm ci`)
            // is no runner's.
            None if runners::npm::Manager::of(base)
                .is_some_and(|manager| manager.script_runner(args, workspace).is_ok()) =>
            {
                let manager = runners::npm::Manager::of(base)?;
                let (runner, all, rel, request) = behind_npm(manager, args, dir, workspace)?;
                let mut words = command[..=assignments].to_vec();
                words.extend(all);
                Some((runner, words, rel, request))
            }
            None => None,
        };
        if let Some(asked) = asked {
            if found.is_some() {
                return None;
            }
            found = Some((index, asked));
        }
    }
    let (index, (runner, command, rel, request)) = found?;
    Some((
        runner,
        script.rewritten(words, index, &command),
        rel,
        request,
    ))
}

/// A temporary directory of the host's outside `workspace` (a `TMPDIR`
/// inside the project would put the report where the tree check sees it
/// and the tests may read it as the tree).
fn outside(workspace: &Path) -> Result<PathBuf, String> {
    let project = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf());
    [
        std::env::temp_dir(),
        PathBuf::from("/var/tmp"),
        PathBuf::from("/tmp"),
    ]
    .into_iter()
    .filter_map(|dir| std::fs::canonicalize(dir).ok())
    .find(|dir| !dir.starts_with(&project))
    .ok_or_else(|| {
        format!(
            "no temporary directory outside the project {} for the runner's report",
            workspace.display()
        )
    })
}

/// Whether the files `request` needs beside its report (nextest's tool
/// configuration) were written into `dir`, testgate's own fresh directory;
/// where one cannot be, nothing is asked for and the console judges alone.
fn files_written(dir: &Path, request: &ReportRequest) -> bool {
    request.files.iter().all(|file| {
        let path = dir.join(file.name);
        // A file in a folder of its own (minitest's plugin is found as
        // `minitest/*_plugin.rb`): the folder is made in `dir` first.
        let folder = path
            .parent()
            .filter(|parent| *parent != dir)
            .is_none_or(|parent| parent.is_dir() || std::fs::create_dir(parent).is_ok());
        folder && testgate_run::replace_file(&path, file.contents.as_bytes(), 0o600).is_ok()
    })
}

/// The file name of `place` in its directory.
fn rel(place: &Path) -> PathBuf {
    PathBuf::from(place.file_name().unwrap_or_default())
}

impl Asked {
    /// The directory the reports are written to, where a runner's own
    /// tests write the files its runner would.
    #[cfg(test)]
    pub(crate) fn reports_dir(&self) -> &Path {
        self.dir.path()
    }

    /// The arguments to run the program with.
    pub(crate) fn args(&self) -> &[OsString] {
        &self.args
    }

    /// `env` with the requests' variables added; a value that extends the
    /// command's own is appended to what `env` would give it.
    pub(crate) fn env(&self, env: EnvPolicy) -> EnvPolicy {
        let mut env = env;
        for (_, _, request) in &self.requests {
            for variable in &request.env {
                let value = match variable.join {
                    EnvJoin::Set => OsString::from(&variable.value),
                    EnvJoin::PrependPath => {
                        let own = env
                            .resolve(std::env::vars_os())
                            .into_iter()
                            .find(|(name, _)| name == variable.name)
                            .map(|(_, value)| value)
                            .filter(|value| !value.is_empty());
                        let mut value = OsString::from(&variable.value);
                        if let Some(own) = own {
                            value.push(":");
                            value.push(own);
                        }
                        value
                    }
                    EnvJoin::AppendWords => {
                        let own = env
                            .resolve(std::env::vars_os())
                            .into_iter()
                            .find(|(name, _)| name == variable.name)
                            .map(|(_, value)| value)
                            .filter(|value| !value.is_empty());
                        match own {
                            Some(mut own) => {
                                own.push(" ");
                                own.push(&variable.value);
                                own
                            }
                            None => OsString::from(&variable.value),
                        }
                    }
                };
                env = env.set(variable.name, value);
            }
        }
        env
    }

    /// `sandbox` with the reports' directory writable inside it, at the
    /// same path.
    pub(crate) fn sandbox(&self, sandbox: Sandbox) -> Sandbox {
        if self.requests.is_empty() {
            return sandbox;
        }
        let dir = self.dir.path().to_path_buf();
        match sandbox {
            Sandbox::Bubblewrap(mut options) => {
                options.writable.push(dir);
                Sandbox::Bubblewrap(options)
            }
            Sandbox::Landlock(mut options) => {
                options.writable.push(dir);
                Sandbox::Landlock(options)
            }
            Sandbox::Auto(mut options) => {
                options.writable.push(dir);
                Sandbox::Auto(options)
            }
            Sandbox::Host => Sandbox::Host,
        }
    }

    /// Whether the recognised runner writes its report as events on its
    /// stdout (`go test -json`): the attempt's sink then parses them as the
    /// report and renders the console back from them
    /// (`AttemptSink::with_go_events`), and [`beside_events`] sets the two
    /// side by side.
    pub(crate) fn events_on_stdout(&self) -> bool {
        self.events_runner().is_some()
    }

    /// The runner whose report is the events on its stdout
    /// ([`Asked::events_on_stdout`]): the one whose profile asked for them.
    pub(crate) fn events_runner(&self) -> Option<Runner> {
        self.recognised.or(self.behind).filter(|&runner| {
            self.requests.iter().any(|(r, _, request)| {
                *r == runner
                    && request.written_to == ReportTarget::Stdout
                    && matches!(
                        request.format,
                        ReportFormat::GoTestJson | ReportFormat::GoTestFraming
                    )
            })
        })
    }

    /// Whether the events on stdout are `go test -v=test2json`'s framing
    /// rather than `-json`'s events ([`Asked::events_on_stdout`]).
    pub(crate) fn framing_on_stdout(&self) -> bool {
        self.events_on_stdout()
            && self
                .requests
                .iter()
                .any(|(_, _, request)| request.format == ReportFormat::GoTestFraming)
    }

    /// The report that judges beside `console`: the recognised runner's,
    /// or, behind a wrapper, the one of the runner whose output the console
    /// shows (where the console shows no runner's, one that was written);
    /// `None` when none was asked for, or the console shows another
    /// runner's output (a wrapper that runs two runners: the report would
    /// hide the other's failures).
    fn judging(&self, console: &Report) -> Option<&(Runner, PathBuf, ReportRequest)> {
        match (self.recognised, console.format) {
            (Some(runner), _) | (None, Some(runner)) => {
                self.requests.iter().find(|(r, _, _)| *r == runner)
            }
            // The runner a wrapper was asked through, whose console shows
            // nothing of it: its report (or its absence) judges.
            (None, None) if self.behind.is_some() => self
                .requests
                .iter()
                .find(|(r, _, _)| Some(*r) == self.behind),
            (None, None) => self
                .requests
                .iter()
                .find(|(_, rel, _)| std::fs::symlink_metadata(self.dir.path().join(rel)).is_ok()),
        }
    }

    /// The attempt's outcomes after the runner exited: the report read
    /// beside `console` (see [`beside`]), or the console alone where no
    /// report was asked for; with the note that says what happened when
    /// that is not the obvious.
    pub(crate) fn read(&self, console: Report) -> Judged {
        let console = files_relative(console, &self.root);
        let Some((runner, rel, request)) = self.judging(&console) else {
            return Judged::console_alone(console, None);
        };
        match request.written_to {
            ReportTarget::File => {}
            ReportTarget::Stdout => {
                // The console is the report itself: its parser renders it.
                return Judged::console_alone(console, None);
            }
            ReportTarget::Written(places) => {
                return self.read_written(console, *runner, places);
            }
            ReportTarget::Directory => return self.read_directory(console, *runner, rel),
        }
        let shown = self.dir.path().join(rel);
        // mocha behind a wrapper: the preload marks the report as it asks
        // mocha's program, so none at all says no mocha program started
        // where it could ask (mocha run through its API by a script).
        if request.format == ReportFormat::MochaJson
            && request.through_environment
            && std::fs::symlink_metadata(&shown).is_err()
        {
            return Judged::console_alone_because(
                console,
                "no mocha program started where testgate's preload could give it the recorder \
                 (mocha run through its API?)",
            );
        }
        let read = testgate_run::ProjectDir::open(self.dir.path())
            .and_then(|dir| dir.read(rel, MAX_REPORT));
        let shown = shown.display().to_string();
        let mut judged = beside_under(console, read, request.format, &shown, &self.root);
        if let (Evidence::ReportMissing, Some(why)) = (&judged.evidence, &self.unreachable) {
            judged.note = Some(match judged.note {
                Some(note) => format!("{why}: {note}"),
                None => why.clone(),
            });
        }
        judged
    }

    /// The files `runner`'s processes wrote into the report's directory
    /// `rel` ([`ReportTarget::Directory`]), at most [`MAX_REPORT_FILES`],
    /// joined and read as its JUnit XML beside `console`. None written is a
    /// missing report.
    fn read_directory(&self, console: Report, runner: Runner, rel: &Path) -> Judged {
        let shown = self.dir.path().join(rel).display().to_string();
        let names = testgate_run::Dir::open(self.dir.path())
            .and_then(|dir| dir.open_dir(rel.as_os_str()))
            .and_then(|dir| dir.names_at_most(MAX_REPORT_FILES))
            .unwrap_or_default();
        if names.is_empty() {
            return Judged {
                report: console,
                evidence: Evidence::ReportMissing,
                note: Some(format!("the runner wrote no report file into {shown}")),
            };
        }
        let files: Vec<PathBuf> = names.iter().map(|name| rel.join(name)).collect();
        let at = PathBuf::from(&shown);
        let crashed = crashed_in(&console);
        let mut judged = self.read_joined(console, runner, self.dir.path(), &files, &shown, at);
        if matches!(judged.evidence, Evidence::Report { .. }) {
            with_crashed(&mut judged.report, crashed);
        }
        if files.len() > 1 {
            let note = format!(
                "{} report files read, one for each test binary that finished",
                files.len()
            );
            return judged.noting_a_read_report(note);
        }
        judged
    }

    /// `files` beneath `base`, joined and read as `runner`'s JUnit XML
    /// beside `console` (`shown` names them; a read that fails names `at`).
    fn read_joined(
        &self,
        console: Report,
        runner: Runner,
        base: &Path,
        files: &[PathBuf],
        shown: &str,
        at: PathBuf,
    ) -> Judged {
        let read = written_reports::joined(base, files, MAX_REPORT);
        let read = read.map_err(|why| testgate_run::ProjectFileError::Open {
            path: at,
            source: std::io::Error::other(why),
        });
        beside_read(
            console,
            read,
            ReportFormat::JUnit,
            Some(runner),
            shown,
            &self.root,
        )
    }

    /// The report files `runner` wrote inside the project during the
    /// attempt (new, or rewritten since [`ask_in`] stamped what lay there),
    /// joined and read as its JUnit XML beside `console`. None written is
    /// a missing report: a run that wrote none never reached its end.
    fn read_written(
        &self,
        console: Report,
        runner: Runner,
        places: &[runners::WrittenReports],
    ) -> Judged {
        let folders: Vec<&str> = places.iter().map(|p| p.folder).collect();
        let shown = format!("{} (TEST-*.xml)", folders.join(", "));
        let before = self.written_before.clone().unwrap_or_default();
        let written = Found::under(&self.root, places).written_since(&before);
        if written.is_empty() {
            return Judged {
                report: console,
                evidence: Evidence::ReportMissing,
                note: Some(format!(
                    "the runner wrote no report file under {shown} in this attempt"
                )),
            };
        }
        let judged = self.read_joined(
            console,
            runner,
            &self.root,
            &written,
            &shown,
            self.root.clone(),
        );
        let note = format!(
            "{} report file(s) the runner wrote under {shown} in this attempt read \
             (found by their status before and after it: the runner cannot be told to write them elsewhere)",
            written.len()
        );
        judged.noting_a_read_report(note)
    }
}

/// The failing tests `console` names where it shows a binary dying: one
/// named failing and still running where its output stopped (GoogleTest's
/// `[ RUN      ] A.B` with no result, `formats/gtest.rs`). A binary that
/// dies writes no file into the report's directory
/// ([`ReportTarget::Directory`]): only the console names the test it died
/// in and those that failed in it before; where no binary died, none.
fn crashed_in(console: &Report) -> Vec<(FailingTest, Option<TestOutcome>)> {
    let died = console
        .failing
        .iter()
        .any(|test| console.running.contains(&test.name));
    if !died {
        return Vec::new();
    }
    console
        .failing
        .iter()
        .map(|test| {
            let seen = console.tests.iter().find(|t| t.name == test.name);
            (test.clone(), seen.cloned())
        })
        .collect()
}

/// `report`, read from the files of the binaries that finished, with the
/// console's failures where a binary died ([`crashed_in`]) failed: a file
/// that says one passed does not outvote the console (the same name in
/// two binaries, or a file a test wrote), as a name that failed in any
/// file failed. Where the run exited 0 too, the policy finds the
/// contradiction: a test that ends the process with 0 mid-run looks the
/// same.
fn with_crashed(report: &mut Report, crashed: Vec<(FailingTest, Option<TestOutcome>)>) {
    for (test, seen) in crashed {
        match report.tests.iter_mut().find(|t| t.name == test.name) {
            Some(listed) => listed.outcome = testgate_parse::Outcome::Failed,
            None => report.tests.extend(seen),
        }
        if !report.failing.iter().any(|t| t.name == test.name) {
            report.failing.push(test);
        }
    }
}

/// `console` with each file that failed as a whole named by an absolute
/// path beneath `root` (rake's test loader gives ruby the absolute path of
/// a minitest file that failed to load) named relative to `root`, as a run
/// from there names it: the name then stays the same in every copy of the
/// project.
fn files_relative(console: Report, root: &Path) -> Report {
    let canonical = std::fs::canonicalize(root).ok();
    let relative = |name: &str| -> Option<String> {
        let path = Path::new(name);
        if !path.is_absolute() {
            return None;
        }
        [Some(root), canonical.as_deref()]
            .into_iter()
            .flatten()
            .find_map(|root| path.strip_prefix(root).ok())
            .filter(|rel| !rel.as_os_str().is_empty())
            .and_then(|rel| rel.to_str().map(str::to_owned))
    };
    let mut console = console;
    for test in &mut console.failing {
        if test.kind == testgate_parse::Kind::File
            && let Some(rel) = relative(&test.name)
        {
            test.name = rel;
        }
    }
    for test in &mut console.tests {
        if test.kind == testgate_parse::Kind::File
            && let Some(rel) = relative(&test.name)
        {
            test.name = rel;
        }
    }
    console
}

/// An attempt's outcomes as the channels gave them.
#[derive(Debug)]
pub(crate) struct Judged {
    /// The outcomes the policy reads: the report's where it was read.
    pub(crate) report: Report,
    /// Which channels judged.
    pub(crate) evidence: Evidence,
    /// What the attempt's note says of the report, if anything.
    pub(crate) note: Option<String>,
}

impl Judged {
    /// `self` with `note` after its own, where a report was read (a
    /// missing one says so itself).
    fn noting_a_read_report(mut self, note: String) -> Judged {
        if self.evidence != Evidence::ReportMissing {
            self.note = Some(match self.note {
                Some(other) => format!("{other}; {note}"),
                None => note,
            });
        }
        self
    }

    /// The console alone, because no report could be asked for (`why`).
    pub(crate) fn console_alone_because(console: Report, why: &str) -> Judged {
        Judged::console_alone(console, Some(format!("{why}: its console judged alone")))
    }

    /// These outcomes under `rule`: with [`EvidenceRule::Report`], the
    /// console alone is [`Evidence::Unasked`], which gives no Pass, and the
    /// note says why.
    pub(crate) fn under(self, rule: EvidenceRule) -> Judged {
        match (rule, &self.evidence) {
            (EvidenceRule::Report, Evidence::ConsoleAlone) => {
                let why = "no report of the runner's own could be asked for \
                     (the command hides its runner where no argument or variable reaches it), \
                     and --evidence report requires one";
                let note = match self.note {
                    Some(note) => format!("{note}; {why}"),
                    None => why.to_owned(),
                };
                Judged {
                    evidence: Evidence::Unasked,
                    note: Some(note),
                    ..self
                }
            }
            (
                EvidenceRule::Any | EvidenceRule::Report,
                Evidence::ConsoleAlone
                | Evidence::ReportMissing
                | Evidence::Unasked
                | Evidence::Report { .. },
            ) => self,
        }
    }

    /// The console alone, with `note` if anything needs saying.
    pub(crate) fn console_alone(console: Report, note: Option<String>) -> Judged {
        Judged {
            report: console,
            evidence: Evidence::ConsoleAlone,
            note,
        }
    }
}

/// The report and the console set beside each other
/// ([`testgate_parse::Beside`]), as the policy judges them: the report's
/// outcomes, the console's word as its evidence.
fn judged_beside(beside: Beside) -> Judged {
    let Beside {
        report,
        console_failing,
        console_counts,
        ..
    } = beside;
    Judged {
        report,
        evidence: Evidence::Report {
            console_failing,
            console_counts: console_counts.map(|c| Counts::new(c.passed, c.failed, c.skipped)),
        },
        note: None,
    }
}

/// `console` set beside the runner's report `read` (`shown` says where it
/// was): the report's outcomes with the console as the cross-check. A
/// report that is missing or not a report of `format` is
/// [`Evidence::ReportMissing`]; one over [`MAX_REPORT`] leaves the console
/// alone, with a note.
pub(crate) fn beside(
    console: Report,
    read: Result<Vec<u8>, testgate_run::ProjectFileError>,
    format: ReportFormat,
    shown: &str,
) -> Judged {
    beside_under(console, read, format, shown, Path::new(""))
}

/// [`beside`], with the paths of a jest or vitest report made relative to
/// `root`, where the runner ran (an empty `root` keeps them).
fn beside_under(
    console: Report,
    read: Result<Vec<u8>, testgate_run::ProjectFileError>,
    format: ReportFormat,
    shown: &str,
    root: &Path,
) -> Judged {
    beside_read(console, read, format, None, shown, root)
}

/// [`beside_under`], the report read as `runner`'s where it says so
/// ([`testgate_parse::parse_junit_of`]: Gradle's XML names no producer).
fn beside_read(
    console: Report,
    read: Result<Vec<u8>, testgate_run::ProjectFileError>,
    format: ReportFormat,
    runner: Option<Runner>,
    shown: &str,
    root: &Path,
) -> Judged {
    let read = match read {
        Ok(bytes) => report_in(&bytes, format, runner, &console, shown, root),
        Err(testgate_run::ProjectFileError::TooLarge { limit, .. }) => {
            ReportRead::ConsoleAlone(Some(format!(
                "the runner's report at {shown} is larger than the {} MiB testgate reads: \
                 its console judged alone",
                limit >> 20
            )))
        }
        Err(why) => ReportRead::Missing(format!(
            "the runner wrote no complete report at {shown} ({why})"
        )),
    };
    match read {
        ReportRead::Complete(report) => judged_beside(Beside::report(report, console)),
        ReportRead::ConsoleAlone(note) => Judged::console_alone(console, note),
        ReportRead::Missing(note) => Judged {
            report: console,
            evidence: Evidence::ReportMissing,
            note: Some(note),
        },
    }
}

/// What the runner's report says, before it is set beside the console.
#[expect(
    clippy::large_enum_variant,
    reason = "one a report, matched at once: a box would only add an allocation"
)]
enum ReportRead {
    /// The whole run's report.
    Complete(Report),
    /// No word either way: the console is judged alone, with this note.
    ConsoleAlone(Option<String>),
    /// No report of this run ([`Evidence::ReportMissing`]): why.
    Missing(String),
}

/// The runner's report `bytes` (at `shown`) read as `format`, as
/// `runner`'s where it says so, its paths relative to `root`; `console`
/// tells a unittest report the run wrote from one a test wrote.
fn report_in(
    bytes: &[u8],
    format: ReportFormat,
    runner: Option<Runner>,
    console: &Report,
    shown: &str,
    root: &Path,
) -> ReportRead {
    let parsed = match format {
        ReportFormat::JUnit => match runner {
            Some(runner) => testgate_parse::parse_junit_of(runner, bytes),
            None => testgate_parse::parse_junit(bytes),
        },
        ReportFormat::NodeJunit => testgate_parse::parse_junit_of(Runner::Node, bytes),
        ReportFormat::JestJson | ReportFormat::VitestJson => {
            testgate_parse::parse_json_report_in(bytes, &root.to_string_lossy())
        }
        ReportFormat::UnittestJson => match testgate_parse::parse_unittest_report(bytes) {
            // The process the recorder was in ran no TextTestRunner (a
            // wrapper, another runner): no word either way, and nothing
            // to say (the evidence says the console judged alone).
            Ok(report) if report.format.is_none() => return ReportRead::ConsoleAlone(None),
            // unittest prints its closing line on the console after the
            // run the recorder writes down: a report of a closed run beside
            // a console with no closing line was not written by the run
            // (a test wrote it, then ended the process before unittest
            // printed a thing).
            Ok(report) if report.unclosed.is_none() && console.counts.ran().is_none() => {
                return ReportRead::Missing(format!(
                    "the unittest report at {shown} records a run whose closing line \
                     the console never printed"
                ));
            }
            parsed => parsed,
        },
        ReportFormat::RspecJson => testgate_parse::parse_rspec_json(bytes),
        ReportFormat::MinitestJson => testgate_parse::parse_minitest_report(bytes),
        ReportFormat::MochaJson => match testgate_parse::parse_mocha_report(bytes) {
            // A mocha before 8.2 runs no global setup fixture, where the
            // recorder subscribes: it said so, and the console judges alone.
            Ok(report) if report.format.is_none() => {
                return ReportRead::ConsoleAlone(Some(
                    "testgate's recorder cannot record this mocha (before 8.2: no global \
                     setup fixtures): its console judged alone"
                        .to_owned(),
                ));
            }
            parsed => parsed,
        },
        ReportFormat::GoTestJson | ReportFormat::GoTestFraming | ReportFormat::LibtestJson => {
            let note = format!(
                "testgate cannot read the runner's report at {shown} yet: its console judged alone"
            );
            return ReportRead::ConsoleAlone(Some(note));
        }
    };
    match parsed {
        // A report that says it is not the whole run's (jest's
        // `wasInterrupted`, fewer tests listed than counted) is no report.
        Ok(report) if report.unclosed.is_some() => {
            let why = report.unclosed.unwrap_or_default();
            ReportRead::Missing(format!(
                "the runner's report at {shown} is not a complete report ({why})"
            ))
        }
        Ok(report) => ReportRead::Complete(report),
        Err(why) => ReportRead::Missing(format!(
            "the runner's report at {shown} is not a complete report ({why})"
        )),
    }
}

/// `console` (the text rendered back from the events) set beside the
/// report the runner wrote as events on its stdout (`go test -json`). The
/// events name every test's outcome, a failure a later run passed over
/// (`-count=N`), and a binary that ended mid-test; the console adds each
/// failing test's own output (its excerpt), which go prints only as text.
/// No event at all (go stopped before any package ran: a missing module, a
/// bad flag) is a missing report.
pub(crate) fn beside_events(console: Report, events: Report) -> Judged {
    if events.format.is_none() {
        return Judged {
            report: console,
            evidence: Evidence::ReportMissing,
            note: Some("go test -json wrote no test2json event".to_owned()),
        };
    }
    judged_beside(Beside::events(events, console))
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests plant what a hostile attempt would (files, a FIFO) in folders of their own"
)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    /// The variables `asked` adds, resolved over an environment holding
    /// only `own`.
    fn added(asked: &Asked, own: Option<&str>) -> Vec<(String, String)> {
        let base = match own {
            Some(value) => EnvPolicy::empty().set("PYTEST_ADDOPTS", value),
            None => EnvPolicy::empty(),
        };
        asked
            .env(base)
            .resolve(std::iter::empty::<(OsString, OsString)>())
            .into_iter()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect()
    }

    /// A file named by an absolute path beneath the project is named from
    /// the project; a test's name, and a path elsewhere, are left alone.
    #[test]
    fn failed_files_beneath_the_project_are_named_from_it() {
        let file = |name: &str| {
            testgate_parse::FailingTest::new(name, Runner::Minitest, None)
                .with_kind(testgate_parse::Kind::File)
        };
        let mut console = Report::default();
        console.failing = vec![
            file("/p/test/loads_test.rb"),
            file("/elsewhere/x_test.rb"),
            file("test/a_test.rb"),
            testgate_parse::FailingTest::new("/p/test/t.rb#x", Runner::Minitest, None),
        ];
        let got = files_relative(console, Path::new("/p"));
        let names: Vec<&str> = got.failing.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "test/loads_test.rb",
                "/elsewhere/x_test.rb",
                "test/a_test.rb",
                "/p/test/t.rb#x"
            ]
        );
    }

    /// pytest's report is asked for through `PYTEST_ADDOPTS`, appended to
    /// the user's own, for pytest in the argv and behind a wrapper; not
    /// where the command line names its own report or turns the plugin
    /// off, and not for a runner whose profile has no request.
    #[test]
    fn pytest_is_asked_through_its_environment_where_it_may_run() {
        for (program, args) in [
            ("python3", &["-m", "pytest", "-q"][..]),
            ("pytest", &[][..]),
            ("sh", &["-c", "make test"][..]),
            ("tox", &["-e", "py"][..]),
        ] {
            let asked =
                ask(OsStr::new(program), &os(args), Path::new("/nonexistent")).expect("a place");
            assert_eq!(asked.args(), os(args), "{program}: arguments unchanged");
            let place = asked.dir.path().join("pytest.xml");
            let ours = format!("--junitxml={}", place.display());
            // Behind a wrapper node's `NODE_OPTIONS` is set too (jest's and
            // vitest's preloads): only pytest's variable is looked at here.
            let added = |asked: &Asked, own: Option<&str>| -> Vec<(String, String)> {
                added(asked, own)
                    .into_iter()
                    .filter(|(name, _)| name == "PYTEST_ADDOPTS")
                    .collect()
            };
            assert_eq!(
                added(&asked, None),
                [("PYTEST_ADDOPTS".to_owned(), ours.clone())],
                "{program}"
            );
            assert_eq!(
                added(&asked, Some("-x -rA")),
                [("PYTEST_ADDOPTS".to_owned(), format!("-x -rA {ours}"))],
                "{program}: the user's own kept first"
            );
        }
        for args in [
            &["-m", "pytest", "--junitxml=out.xml"][..],
            &["-m", "pytest", "--junit-xml", "out.xml"][..],
            &["-m", "pytest", "-p", "no:junitxml"][..],
            &["-m", "pytest", "-pno:junitxml"][..],
        ] {
            let asked =
                ask(OsStr::new("python3"), &os(args), Path::new("/nonexistent")).expect("a place");
            assert!(asked.requests.is_empty(), "{args:?}");
            assert!(added(&asked, None).is_empty(), "{args:?}");
        }
        let cargo = ask(
            OsStr::new("cargo"),
            &os(&["test"]),
            Path::new("/nonexistent"),
        )
        .expect("a place");
        assert!(cargo.requests.is_empty());
    }

    /// A place pytest would split (a space, a quote) is quoted as one word.
    #[test]
    fn a_place_is_one_word_of_pytest_addopts() {
        let request = runners::profile(Runner::Pytest)
            .report(
                &[],
                Path::new("/tmp/a b/it's.xml"),
                Path::new("/nonexistent"),
            )
            .expect("a request");
        assert_eq!(request.env[0].value, r#"--junitxml='/tmp/a b/it'\''s.xml'"#);
    }

    /// A report read beside the console: its outcomes, the console's
    /// names kept for the policy; an unparsable one is missing, never the
    /// console's word alone.
    #[test]
    fn a_report_stands_beside_the_console() {
        let console = testgate_parse::parse(
            Runner::Pytest,
            "test_x.py F.\n\
             =========================== short test summary info ============================\n\
             FAILED test_x.py::test_printed - assert 0\n\
             ========================= 1 failed, 1 passed in 0.01s ==========================\n",
        );
        let junit =
            br#"<?xml version="1.0"?><testsuites name="pytest tests"><testsuite name="pytest">
<testcase classname="test_x" name="test_printed"/><testcase classname="test_x" name="test_b"/>
</testsuite></testsuites>"#;
        let judged = beside(
            console.clone(),
            Ok(junit.to_vec()),
            ReportFormat::JUnit,
            "r",
        );
        assert_eq!(judged.report.names().count(), 0);
        assert_eq!(judged.report.tests.len(), 2);
        assert_eq!(
            judged.evidence,
            Evidence::Report {
                console_failing: vec!["test_x.py::test_printed".to_owned()],
                console_counts: Some(Counts::new(Some(1), Some(1), Some(0))),
            }
        );
        let cut = beside(console, Ok(junit[..60].to_vec()), ReportFormat::JUnit, "r");
        assert_eq!(cut.evidence, Evidence::ReportMissing);
    }

    /// yarn's and pnpm's scripts as npm's, each handed the words its own
    /// way (`runners::npm::Manager`); a `pnpm run NAME --` is not
    /// rewritten (pnpm would hand the script the `--`), the environment
    /// still reaches it.
    #[test]
    fn jest_and_vitest_behind_yarn_and_pnpm_scripts_are_asked_by_arguments() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"scripts": {"test": "jest --ci", "unit": "vitest run"}}"#,
        )
        .expect("package.json");
        for (program, args) in [("yarn", &["test"][..]), ("pnpm", &["test"])] {
            let asked = ask(OsStr::new(program), &os(args), dir.path()).expect("a place");
            let file = format!(
                "--outputFile={}",
                asked.dir.path().join("jest.json").display()
            );
            assert_eq!(
                asked.args(),
                os(&["test", "--", "--json", &file]),
                "{program}"
            );
            assert_eq!(asked.behind, Some(Runner::Jest));
        }
        let vitest = |asked: &Asked| {
            format!(
                "--outputFile.json={}",
                asked.dir.path().join("vitest.json").display()
            )
        };
        let asked = ask(
            OsStr::new("yarn"),
            &os(&["run", "unit", "-t", "x"]),
            dir.path(),
        )
        .expect("a place");
        let file = vitest(&asked);
        assert_eq!(
            asked.args(),
            os(&[
                "run",
                "unit",
                "-t",
                "x",
                "--",
                "--reporter=default",
                "--reporter=json",
                &file
            ])
        );
        let asked = ask(
            OsStr::new("pnpm"),
            &os(&["run", "unit", "-t", "x"]),
            dir.path(),
        )
        .expect("a place");
        let file = vitest(&asked);
        assert_eq!(
            asked.args(),
            os(&[
                "run",
                "unit",
                "-t",
                "x",
                "--reporter=default",
                "--reporter=json",
                &file
            ])
        );
        let asked = ask(
            OsStr::new("pnpm"),
            &os(&["run", "unit", "--", "-t"]),
            dir.path(),
        )
        .expect("a place");
        assert_eq!(asked.args(), os(&["run", "unit", "--", "-t"]));
        assert_eq!(asked.behind, None);
        // Behind a shell too.
        let asked =
            ask(OsStr::new("bash"), &os(&["-c", "yarn test"]), dir.path()).expect("a place");
        assert_eq!(asked.behind, Some(Runner::Jest));
    }

    #[test]
    fn jest_behind_a_plain_npm_script_is_asked_after_the_dashes() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"scripts": {"test": "jest --ci", "unit": "vitest run", "both": "jest && true"}}"#,
        )
        .expect("package.json");
        let asked = ask(OsStr::new("npm"), &os(&["test"]), dir.path()).expect("a place");
        let place = asked.dir.path().join("jest.json");
        let file = format!("--outputFile={}", place.display());
        assert_eq!(asked.args(), os(&["test", "--", "--json", &file]));
        let asked = ask(
            OsStr::new("npm"),
            &os(&["run", "unit", "--", "-t", "x"]),
            dir.path(),
        )
        .expect("a place");
        let place = asked.dir.path().join("vitest.json");
        let file = format!("--outputFile.json={}", place.display());
        assert_eq!(
            asked.args(),
            os(&[
                "run",
                "unit",
                "--",
                "-t",
                "x",
                "--reporter=default",
                "--reporter=json",
                &file
            ])
        );
        // The user's reporter after `--` is kept, ours added beside it.
        let asked = ask(
            OsStr::new("npm"),
            &os(&["run", "unit", "--", "--reporter=dot"]),
            dir.path(),
        )
        .expect("a place");
        let place = asked.dir.path().join("vitest.json");
        let file = format!("--outputFile.json={}", place.display());
        assert_eq!(
            asked.args(),
            os(&[
                "run",
                "unit",
                "--",
                "--reporter=dot",
                "--reporter=json",
                &file
            ])
        );
        // Where it must not fire: a script that is a shell command, which
        // arguments cannot reach safely; the environment reaches it (a
        // variable, node's `NODE_OPTIONS`, a plugin on a search path):
        // every runner whose profile asks behind a wrapper is asked, in
        // `Runner::ALL`'s order (each profile's own tests pin its request).
        let asked = ask(OsStr::new("npm"), &os(&["run", "both"]), dir.path()).expect("a place");
        assert_eq!(asked.args(), os(&["run", "both"]));
        let through: Vec<(Runner, bool)> = asked
            .requests
            .iter()
            .map(|(runner, _, request)| (*runner, request.through_environment))
            .collect();
        let behind_wrapper: Vec<(Runner, bool)> = Runner::ALL
            .into_iter()
            .filter(|&runner| {
                runners::profile(runner)
                    .report_behind_wrapper(asked.dir.path(), dir.path())
                    .is_some()
            })
            .map(|runner| (runner, true))
            .collect();
        assert_eq!(through, behind_wrapper);
        assert!(
            through.contains(&(Runner::Pytest, true)) && through.contains(&(Runner::Jest, true)),
            "{through:?}"
        );
        // Each preload is written beside its report, and named in
        // `NODE_OPTIONS` after the command's own options.
        for name in ["jest-ask.cjs", "vitest-ask.cjs", "mocha-ask.cjs"] {
            let preload = asked.dir.path().join(name);
            assert!(preload.is_file(), "{}", preload.display());
        }
        let env = asked.env(EnvPolicy::new().set("NODE_OPTIONS", "--max-old-space-size=100"));
        let node_options = env
            .resolve(std::iter::empty())
            .into_iter()
            .find(|(name, _)| name == "NODE_OPTIONS")
            .map(|(_, value)| value.to_string_lossy().into_owned());
        assert_eq!(
            node_options,
            Some(format!(
                "--max-old-space-size=100 --require {} --require {} --require {}",
                asked.dir.path().join("jest-ask.cjs").display(),
                asked.dir.path().join("vitest-ask.cjs").display(),
                asked.dir.path().join("mocha-ask.cjs").display()
            ))
        );
    }

    /// Behind `composer test` whose script is plain PHPUnit, PHPUnit's
    /// report is asked after the command's `--`; where it must not fire:
    /// composer's other commands.
    #[test]
    fn phpunit_behind_composer_test_is_asked_after_the_dashes() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("composer.json"),
            r#"{"scripts": {"test": "vendor/bin/phpunit"}}"#,
        )
        .expect("composer.json");
        let asked = ask(
            OsStr::new("composer"),
            &os(&["test", "--", "tests"]),
            dir.path(),
        )
        .expect("a place");
        let place = asked.dir.path().join("phpunit.xml");
        let place = place.display().to_string();
        assert_eq!(
            asked.args(),
            os(&["test", "--", "tests", "--log-junit", &place])
        );
        assert_eq!(asked.behind, Some(Runner::Phpunit));
        let asked = ask(OsStr::new("composer"), &os(&["install"]), dir.path()).expect("a place");
        assert_eq!(asked.args(), os(&["install"]));
        assert_eq!(asked.behind, None);
    }

    /// Behind a shell's `-c` script of simple commands, the one command
    /// that starts a runner is asked as a bare one would be, and nothing
    /// else in the script changes; where it must not fire: two runners,
    /// a pipe, a script file.
    #[test]
    fn a_runner_behind_a_shell_script_is_asked_in_the_script() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"scripts": {"test": "jest --ci"}}"#,
        )
        .expect("package.json");
        let script = |script: &str| {
            let asked = ask(OsStr::new("bash"), &os(&["-c", script]), dir.path()).expect("a place");
            let place = |name: &str| asked.dir.path().join(name).display().to_string();
            let (jest, vitest) = (place("jest.json"), place("vitest.json"));
            let args: Vec<String> = asked
                .args()
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            (args, asked.behind, asked.events_on_stdout(), jest, vitest)
        };
        let (args, behind, events, jest, _) = script("npx jest --ci && echo done");
        assert_eq!(
            args,
            [
                "-c".to_owned(),
                format!("npx jest --ci --json --outputFile={jest} && echo done")
            ]
        );
        assert_eq!((behind, events), (Some(Runner::Jest), false));
        let (args, behind, _, _, vitest) = script("cd web; CI=1 npx vitest run --retry 2");
        assert_eq!(
            args[1],
            format!(
                "cd web; CI=1 npx vitest run --retry 2 --reporter=default --reporter=json --outputFile.json={vitest}"
            )
        );
        assert_eq!(behind, Some(Runner::Vitest));
        let (args, behind, events, _, _) = script("go test -count=3 ./...");
        // go 1.20+ (the `go` on PATH) is asked for its framing, any other
        // go for `-json`.
        let go = if runners::go_prints_framing() {
            "go test -count=3 ./... -v=test2json"
        } else {
            "go test -json -count=3 ./..."
        };
        assert_eq!(args[1], go);
        assert_eq!((behind, events), (Some(Runner::Go), true));
        let (args, behind, _, jest, _) = script("npm ci && npm test");
        assert_eq!(
            args[1],
            format!("npm ci && npm test -- --json --outputFile={jest}")
        );
        assert_eq!(behind, Some(Runner::Jest));
        for unchanged in [
            "go test ./a && go test ./b",
            "npx jest | tee log",
            "./run.sh",
        ] {
            let (args, behind, events, _, _) = script(unchanged);
            assert_eq!(args[1], unchanged);
            assert_eq!((behind, events), (None, false), "{unchanged}");
        }
        let asked = ask(OsStr::new("sh"), &os(&["run.sh"]), dir.path()).expect("a place");
        assert_eq!(asked.args(), os(&["run.sh"]));
    }

    /// node is asked for its junit report bare, in a shell's `-c` script
    /// and behind a plain npm script; where it must not be (node would
    /// refuse the run): the environment's `NODE_OPTIONS`, or the script's
    /// own `NODE_OPTIONS=` before node, names a reporter.
    #[test]
    fn node_is_asked_unless_its_node_options_name_a_reporter() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"scripts": {"test": "node --test"}}"#,
        )
        .expect("package.json");
        let reporter =
            |name: &str| (name == "NODE_OPTIONS").then(|| "--test-reporter=dot".to_owned());
        let asked_in = |program: &str, args: &[&str], variable: Variable<'_>| {
            let asked =
                ask_in(OsStr::new(program), &os(args), dir.path(), variable).expect("a place");
            let place = asked.dir.path().join("node.xml").display().to_string();
            let args: Vec<String> = asked
                .args()
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            let asked_node = asked.requests.iter().any(|(runner, _, request)| {
                *runner == Runner::Node && request.format == ReportFormat::NodeJunit
            });
            (args, asked_node, place)
        };
        let ours = |place: &str| {
            format!(
                "--test-reporter=tap --test-reporter-destination=stdout \
                 --test-reporter=junit --test-reporter-destination={place}"
            )
        };
        let (args, asked, place) = asked_in("node", &["--test", "t/"], &|_| None);
        assert!(asked);
        assert_eq!(args.join(" "), format!("--test {} t/", ours(&place)));
        let (args, asked, place) = asked_in("sh", &["-c", "node --test; exit 0"], &|_| None);
        assert!(asked);
        assert_eq!(args[1], format!("node --test {}; exit 0", ours(&place)));
        let (args, asked, place) = asked_in("npm", &["test"], &|_| None);
        assert!(asked);
        assert_eq!(args.join(" "), format!("test -- {}", ours(&place)));
        for (program, args, variable) in [
            ("node", &["--test"][..], &reporter as Variable<'_>),
            ("sh", &["-c", "node --test"], &reporter),
            ("npm", &["test"], &reporter),
            (
                "sh",
                &["-c", "NODE_OPTIONS=--test-reporter=dot node --test"],
                &|_| None,
            ),
        ] {
            let (got, asked, _) = asked_in(program, args, variable);
            assert!(!asked, "{program} {args:?}");
            assert_eq!(got, args, "{program} {args:?}: unchanged");
        }
    }

    /// mocha's recorder report beside a console with a green epilogue: a
    /// report cut before its `end` is missing (never a Pass), one naming a
    /// failure judges with it, and a mocha the recorder could not serve
    /// leaves the console alone, with a note.
    #[test]
    fn mochas_recorded_events_judge_beside_its_epilogue() {
        let console =
            || testgate_parse::parse(Runner::Mocha, "  s\n    ✔ t\n\n\n  2 passing (4ms)\n\n");
        let asked = ask(OsStr::new("mocha"), &[], Path::new("/nonexistent")).expect("a place");
        let place = asked.dir.path().join("mocha.jsonl");
        let fail = "{\"event\":\"start\"}\n{\"event\":\"fail\",\"title\":\"s u\"}\n";
        std::fs::write(&place, fail).unwrap();
        assert_eq!(asked.read(console()).evidence, Evidence::ReportMissing);
        std::fs::write(
            &place,
            format!("{fail}{{\"event\":\"end\",\"passes\":1,\"failures\":1}}\n"),
        )
        .unwrap();
        let judged = asked.read(console());
        assert!(
            matches!(judged.evidence, Evidence::Report { .. }),
            "{judged:?}"
        );
        assert_eq!(judged.report.names().collect::<Vec<_>>(), ["s u"]);
        std::fs::write(&place, "{\"event\":\"unserved\",\"why\":\"mocha 8.1.3\"}\n").unwrap();
        let judged = asked.read(console());
        assert_eq!(judged.evidence, Evidence::ConsoleAlone);
        assert!(judged.note.is_some_and(|note| note.contains("before 8.2")));
        // Behind a wrapper (`sh run.sh`): no report at all is no mocha
        // program the preload saw (mocha's API in a script), the console
        // alone; one the preload marked and no run followed is missing.
        let asked = ask(
            OsStr::new("sh"),
            &os(&["run.sh"]),
            Path::new("/nonexistent"),
        )
        .expect("a place");
        let judged = asked.read(console());
        assert_eq!(judged.evidence, Evidence::ConsoleAlone, "{judged:?}");
        assert!(
            judged
                .note
                .is_some_and(|note| note.contains("through its API"))
        );
        let place = asked.dir.path().join("mocha.jsonl");
        std::fs::write(&place, "{\"event\":\"asked\"}\n").unwrap();
        assert_eq!(asked.read(console()).evidence, Evidence::ReportMissing);
    }

    /// What the attempt left at the report's place is read as a regular
    /// file only: a symbolic link (to a green report elsewhere) or a FIFO
    /// (which would block testgate) is a report missing, at once; the
    /// place is removed with the `Asked`.
    #[test]
    fn a_link_or_a_fifo_at_the_place_is_no_report() {
        let green = br#"<testsuites name="pytest tests"><testsuite name="pytest"><testcase classname="t" name="test_a"/></testsuite></testsuites>"#;
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::write(elsewhere.path().join("green.xml"), green).unwrap();
        let console = || testgate_parse::parse(Runner::Pytest, "");
        let asked = ask(OsStr::new("pytest"), &[], Path::new("/nonexistent")).expect("a place");
        let place = asked.dir.path().join("pytest.xml");
        std::os::unix::fs::symlink(elsewhere.path().join("green.xml"), &place).unwrap();
        assert_eq!(asked.read(console()).evidence, Evidence::ReportMissing);
        std::fs::remove_file(&place).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&place)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(asked.read(console()).evidence, Evidence::ReportMissing);
        std::fs::remove_file(&place).unwrap();
        std::fs::write(&place, green).unwrap();
        assert!(matches!(
            asked.read(console()).evidence,
            Evidence::Report { .. }
        ));
        let dir = asked.dir.path().to_path_buf();
        drop(asked);
        assert!(!dir.exists(), "the place is removed after the attempt");
    }

    /// Behind a wrapper the report judges when the console shows its
    /// runner's output, or no runner's; never beside another runner's
    /// console, whose failures it would hide.
    #[test]
    fn behind_a_wrapper_the_report_judges_only_its_runners_console() {
        let green = br#"<testsuites name="pytest tests"><testsuite name="pytest"><testcase classname="t" name="test_a"/></testsuite></testsuites>"#;
        let asked = ask(
            OsStr::new("sh"),
            &os(&["-c", "make test"]),
            Path::new("/nonexistent"),
        )
        .expect("a place");
        std::fs::write(asked.dir.path().join("pytest.xml"), green).unwrap();
        let pytest = testgate_parse::parse(Runner::Pytest, "1 passed in 0.01s\n");
        let nothing = testgate_parse::parse(Runner::Pytest, "");
        let cargo = testgate_parse::parse(
            Runner::Cargo,
            "running 1 test\ntest t ... FAILED\n\nfailures:\n    t\n\n\
             test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
        );
        assert!(matches!(
            asked.read(pytest).evidence,
            Evidence::Report { .. }
        ));
        assert!(matches!(
            asked.read(nothing).evidence,
            Evidence::Report { .. }
        ));
        let beside_cargo = asked.read(cargo);
        assert_eq!(beside_cargo.evidence, Evidence::ConsoleAlone);
        assert_eq!(beside_cargo.report.names().collect::<Vec<_>>(), ["t"]);
    }

    /// A `TMPDIR` inside the project is passed over: the report's place is
    /// never where the tree check looks.
    #[test]
    fn the_place_is_never_inside_the_project() {
        let temp = std::fs::canonicalize(std::env::temp_dir()).unwrap();
        let dir = outside(&temp).expect("another temporary directory");
        assert!(!dir.starts_with(&temp), "{}", dir.display());
        assert_eq!(outside(Path::new("/nonexistent")).unwrap(), temp);
    }
}
