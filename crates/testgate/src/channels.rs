//! The runner's own report of an attempt, the second channel beside the
//! console: asked for at a fresh place outside the project, read after the
//! runner exited, and set beside the console (docs/policy.md, "Three
//! channels must agree"; docs/formats.md, "Where the outcomes come from").

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use testgate_parse::{Report, Runner};
use testgate_policy::{Counts, Evidence};
use testgate_run::{EnvPolicy, Sandbox};

use crate::runners::{self, EnvJoin, ReportFormat, ReportRequest, ReportTarget};

/// The largest runner report read. Its bytes and its parse take about
/// four times its size (a 64 MiB JUnit report of 790,000 tests: testgate
/// peaked at 272 MiB), so the cap is what bounds testgate's memory here; a
/// larger report is a note, and the console is read instead.
pub(crate) const MAX_REPORT: u64 = 64 << 20;

/// The reports one attempt asks for: a fresh directory of testgate's (0700,
/// under the host's temporary directory, outside the project and anything
/// the tree check watches; removed when this is dropped), the command's
/// arguments, and each runner's request.
pub(crate) struct Asked {
    /// The directory the reports are written to.
    dir: tempfile::TempDir,
    /// The runner the command line starts, when one is recognised.
    recognised: Option<Runner>,
    /// The program's arguments with the recognised runner's request applied.
    args: Vec<OsString>,
    /// Each request, with the report's file name in `dir`.
    requests: Vec<(Runner, PathBuf, ReportRequest)>,
}

impl std::fmt::Debug for Asked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Asked")
            .field("dir", &self.dir.path())
            .field("recognised", &self.recognised)
            .field("requests", &self.requests)
            .finish_non_exhaustive()
    }
}

/// What asking `program args` for its report takes: for a runner the
/// command line starts, its profile's request (none where the profile has
/// none); for a command no runner is recognised in (`bash -c`, `tox`,
/// `make`, `npm test`), every request made through the environment alone,
/// since the environment reaches a runner behind the wrapper. `Err` when
/// no place could be made for the reports.
pub(crate) fn ask(program: &OsStr, args: &[OsString]) -> Result<Asked, String> {
    let dir = tempfile::Builder::new()
        .prefix("testgate-report-")
        .tempdir()
        .map_err(|e| format!("no directory for the runner's report: {e}"))?;
    let place = |runner: Runner, format: ReportFormat| {
        dir.path()
            .join(format!("{}.{}", runner.name(), format.extension()))
    };
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
    match recognised {
        Some(((runner, prefix), words)) => {
            let profile = runners::profile(runner);
            // The place depends on the format, which the request says: ask
            // once for it, then again with the place.
            let rest = &words[prefix..];
            if let Some(probe) = profile.report(rest, dir.path()) {
                let at = place(runner, probe.format);
                if let Some(request) = profile.report(rest, &at) {
                    let mut all: Vec<String> = words[..prefix].to_vec();
                    all.extend(request.args.iter().cloned());
                    out_args = all.into_iter().map(OsString::from).collect();
                    requests.push((runner, rel(&at), request));
                }
            }
        }
        None => {
            for runner in Runner::ALL {
                let profile = runners::profile(runner);
                let Some(probe) = profile.report(&[], dir.path()) else {
                    continue;
                };
                let at = place(runner, probe.format);
                if let Some(request) = profile.report(&[], &at)
                    && request.through_environment
                {
                    requests.push((runner, rel(&at), request));
                }
            }
        }
    }
    Ok(Asked {
        dir,
        recognised: recognised.map(|((runner, _), _)| runner),
        args: out_args,
        requests,
    })
}

/// The file name of `place` in its directory.
fn rel(place: &Path) -> PathBuf {
    PathBuf::from(place.file_name().unwrap_or_default())
}

impl Asked {
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
        self.recognised.is_some_and(|runner| {
            self.requests.iter().any(|(r, _, request)| {
                *r == runner
                    && request.written_to == ReportTarget::Stdout
                    && request.format == ReportFormat::GoTestJson
            })
        })
    }

    /// The report that judges beside `console`: the recognised runner's,
    /// or, behind a wrapper, the one of the runner whose output the console
    /// shows (or any that was written); `None` when none was asked for.
    fn judging(&self, console: &Report) -> Option<&(Runner, PathBuf, ReportRequest)> {
        match self.recognised {
            Some(runner) => self.requests.iter().find(|(r, _, _)| *r == runner),
            None => self
                .requests
                .iter()
                .find(|(r, _, _)| console.format == Some(*r))
                .or_else(|| {
                    self.requests.iter().find(|(_, rel, _)| {
                        std::fs::symlink_metadata(self.dir.path().join(rel)).is_ok()
                    })
                }),
        }
    }

    /// The attempt's outcomes after the runner exited: the report read
    /// beside `console` (see [`beside`]), or the console alone where no
    /// report was asked for; with the note that says what happened when
    /// that is not the obvious.
    pub(crate) fn read(&self, console: Report) -> Judged {
        let Some((_, rel, request)) = self.judging(&console) else {
            return Judged::console_alone(console, None);
        };
        match request.written_to {
            ReportTarget::File => {}
            ReportTarget::Stdout => {
                // The console is the report itself: its parser renders it.
                return Judged::console_alone(console, None);
            }
        }
        let shown = self.dir.path().join(rel);
        let read = testgate_run::ProjectDir::open(self.dir.path())
            .and_then(|dir| dir.read(rel, MAX_REPORT));
        beside(console, read, request.format, &shown.display().to_string())
    }
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
    /// The console alone, because no report could be asked for (`why`).
    pub(crate) fn console_alone_because(console: Report, why: &str) -> Judged {
        Judged::console_alone(console, Some(format!("{why}: its console judged alone")))
    }

    fn console_alone(console: Report, note: Option<String>) -> Judged {
        Judged {
            report: console,
            evidence: Evidence::ConsoleAlone,
            note,
        }
    }
}

/// The console's counts as the policy reads them.
fn counts_of(report: &Report) -> Option<Counts> {
    let c = &report.counts;
    (c.passed.is_some() || c.failed.is_some() || c.skipped.is_some())
        .then(|| Counts::new(c.passed, c.failed, c.skipped))
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
    let missing = |console: Report, note: String| Judged {
        report: console,
        evidence: Evidence::ReportMissing,
        note: Some(note),
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(testgate_run::ProjectFileError::TooLarge { limit, .. }) => {
            let note = format!(
                "the runner's report at {shown} is larger than the {} MiB testgate reads: \
                 its console judged alone",
                limit >> 20
            );
            return Judged::console_alone(console, Some(note));
        }
        Err(why) => {
            return missing(
                console,
                format!("the runner wrote no complete report at {shown} ({why})"),
            );
        }
    };
    let parsed = match format {
        ReportFormat::JUnit => testgate_parse::parse_junit(&bytes),
        ReportFormat::JestJson | ReportFormat::VitestJson => {
            testgate_parse::parse_json_report(&bytes)
        }
        ReportFormat::GoTestJson | ReportFormat::LibtestJson => {
            let note = format!(
                "testgate cannot read the runner's report at {shown} yet: its console judged alone"
            );
            return Judged::console_alone(console, Some(note));
        }
    };
    let report = match parsed {
        Ok(report) => report,
        Err(why) => {
            return missing(
                console,
                format!("the runner's report at {shown} is not a complete report ({why})"),
            );
        }
    };
    let evidence = Evidence::Report {
        console_failing: console.names().map(str::to_owned).collect(),
        console_counts: counts_of(&console),
    };
    Judged {
        report: merged(report, console),
        evidence,
        note: None,
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
    let evidence = Evidence::Report {
        console_failing: console.names().map(str::to_owned).collect(),
        console_counts: counts_of(&console),
    };
    let mut report = events;
    for test in &mut report.failing {
        if let Some(shown) = console.failing.iter().find(|c| c.name == test.name) {
            test.message.clone_from(&shown.message);
            test.excerpt.clone_from(&shown.excerpt);
        }
    }
    for name in &console.flaky {
        if !report.flaky.contains(name) {
            report.flaky.push(name.clone());
        }
    }
    if report.unclosed.is_none() {
        report.unclosed = console.unclosed;
    }
    if report.running.is_empty() {
        report.running = console.running;
    }
    if report.crashes.is_empty() {
        report.crashes = console.crashes;
    }
    report.lines = console.lines;
    report.long_lines = console.long_lines;
    Judged {
        report,
        evidence,
        note: None,
    }
}

/// The report, with what only the console can say: how the output ended,
/// and retries a report may not record (vitest's junit calls a retried pass
/// a pass).
pub(crate) fn merged(mut report: Report, console: Report) -> Report {
    for name in &console.flaky {
        if !report.flaky.contains(name) {
            report.flaky.push(name.clone());
            if let Some(test) = report.tests.iter_mut().find(|t| t.name == *name) {
                test.outcome = testgate_parse::Outcome::Flaky;
            }
        }
    }
    report.unclosed = console.unclosed;
    report.running = console.running;
    report.reruns = console.reruns;
    report.lines = console.lines;
    report.long_lines = console.long_lines;
    report.format = report.format.or(console.format);
    report
}
