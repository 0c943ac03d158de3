//! `testgate check`: run a test command in the sandbox and print the verdict.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser as _;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use testgate::parse::Format;
use testgate::policy::{Ending, Expectations, Grade, ListedTest, Missing, Rerun, Selection};
use testgate::run::{BwrapOptions, Cancel, LandlockOptions};
use testgate::{
    AttemptRecord, Detected, EvidenceRule, Observer, PreparationRecord, Record, Sandbox,
    SandboxedTests, TestConfig, Verdict,
};

use testgate_documents::{
    CheckArguments, CommandDetected, EnvArgument, EvidenceArgument, Host, MissingArgument,
    RECORD_SCHEMA, RecordDocument, RecordOptions, RecordSandbox, RecordSuite, RerunArgument,
    ToolchainVersion,
};

use crate::{Error, FormatArg};

/// Run a test command in a sandbox and gate on its verdict.
///
/// Runs CMD in DIR inside bubblewrap, bounded by --timeout; after a failing
/// attempt, retries up to K times to tell a broken suite from a flaky one.
/// Prints the verdict and its reason on stdout (one JSON object with
/// --json); the test output streams to stderr while it runs (unless
/// --quiet).
///
/// Exit status: 0 Pass, 1 Fail, 125 Inconclusive (so `git bisect run` skips
/// the commits it cannot judge), 130 when interrupted, 2 on a usage error.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("graded").args(["expect", "baseline"]).multiple(true)))]
pub(crate) struct CheckArgs {
    /// The project directory the command runs in (read-write in the sandbox).
    #[arg(short = 'C', value_name = "DIR", default_value = ".")]
    dir: PathBuf,

    /// Where the project must lie, when an untrusted caller named it
    /// (`testgate mcp --root`): checked on the canonical folder the run
    /// uses. Not an option.
    #[arg(skip)]
    pub(crate) roots: Option<std::sync::Arc<crate::roots::Roots>>,

    /// Further attempts after a failing one. They detect flakiness; they
    /// never turn a failure into a pass.
    #[arg(
        short = 'k',
        long,
        alias = "retry",
        value_name = "K",
        default_value_t = 0
    )]
    retries: u32,

    /// The time limit of one attempt: 90s, 5m, 1h30m, 500ms.
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = parse_duration)]
    timeout: Duration,

    /// Where the command runs: `auto` (bubblewrap where it can start, else
    /// Landlock where the kernel has it, else refused: never the host),
    /// `bwrap` (bubblewrap), `landlock` (Landlock, no namespaces: for
    /// containers) or `none` (the host, with only the environment policy,
    /// the process group and the timeout). The sandbox used, and why, is
    /// said on stderr, in --json and in the record.
    #[arg(long, value_name = "SANDBOX", default_value = "auto",
          value_parser = PossibleValuesParser::new(["auto", "bwrap", "landlock", "none"]))]
    sandbox: String,

    /// Let the command reach the network (bwrap and landlock).
    #[arg(long)]
    allow_network: bool,

    /// A further path the command may write (a build cache, say); repeatable.
    #[arg(long, value_name = "PATH")]
    writable: Vec<PathBuf>,

    /// The size cap of each of the sandbox's tmpfs mounts (/tmp, /run,
    /// /dev/shm), which use the host's memory: bytes, or 512M, 4G (KiB,
    /// MiB, GiB) (bwrap only).
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
    tmpfs_size: u64,

    /// Pass the host's NAME through, or set NAME=VALUE; repeatable. The
    /// default environment is an allowlist without secrets.
    #[arg(long, value_name = "NAME[=VALUE]")]
    env: Vec<String>,

    /// What a retry runs: `all` (the command as given) or `failed`.
    #[arg(long, value_name = "WHAT", default_value = "all",
          value_parser = PossibleValuesParser::new(["all", "failed"]).try_map(|s| s.parse::<Rerun>()))]
    rerun: Rerun,

    /// A shell command run once before the attempts (`npm ci`, `cargo
    /// fetch`, `pip install -e .`), in the sandbox but with the network;
    /// repeatable. If it fails, the verdict is Inconclusive (prepare_failed).
    #[arg(long, value_name = "CMD")]
    prepare: Vec<String>,

    /// The runner whose output to read; `auto` recognises every runner.
    #[arg(long, value_name = "FORMAT", value_enum, default_value = "auto")]
    format: FormatArg,

    /// Accepted for scripts written before it was the default, and does
    /// nothing: after every attempt testgate puts back what the attempt
    /// changed, deleted or added in the tree, so that each attempt starts
    /// from the tree as submitted and the tree is left as submitted
    /// (`--keep-changes` leaves the last attempt's changes instead).
    #[arg(long, hide = true)]
    restore: bool,

    /// Leave what the last attempt changed in the tree in place, to look
    /// at, instead of putting the tree back as submitted; the verdict says
    /// so. Earlier attempts' changes are put back all the same. The files
    /// testgate's own output goes to are never touched.
    #[arg(long)]
    keep_changes: bool,

    /// Grade the change against the tests FILE lists instead of the whole
    /// suite: `{"must_pass": [...], "keep_passing": [...]}` (or SWE-bench's
    /// FAIL_TO_PASS / PASS_TO_PASS), or one must-pass name per line. Only
    /// the listed tests decide the verdict (docs/policy.md).
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,

    /// `batch` and `testgate mcp`: the expected tests stated inline (a
    /// manifest line's, a call's), as an --expect file's JSON; read
    /// instead of the file `expect` then names (a stand-in).
    #[arg(skip)]
    expect_inline: Option<testgate_documents::ExpectFile>,

    /// Take the tests, and everything that runs inside the runner's
    /// process by configuration (conftest.py, jest's configuration and
    /// setup files, go's *_test.go, …: docs/security.md, "Trusted
    /// tests"), from git revision REV of the project instead of the
    /// submitted tree, in the view the attempts run; the tree is left as
    /// found. With an --expect instance record, its `base_commit` is the
    /// default REV and its `test_patch` is applied to the trusted files;
    /// `none` runs the tests as submitted.
    #[arg(long, value_name = "REV")]
    trusted: Option<String>,

    /// Apply the patch PATCH (a unified diff, as `git apply` reads it) to
    /// the submitted tree first, in the view the attempts run; the tree is
    /// left as found. `record`: the --expect instance record's
    /// `model_patch`, else its `patch`. A patch that does not apply is
    /// Inconclusive (prepare_failed) and nothing runs.
    #[arg(long, value_name = "PATCH")]
    apply: Option<PathBuf>,

    /// `testgate mcp`: the patch stated inline (a call's `apply`), applied
    /// as --apply's file is.
    #[arg(skip)]
    apply_inline: Option<String>,

    /// Grade the change against an earlier check of the base commit (its
    /// `check --json` output, or its record): every test that passed there
    /// must keep passing; one that broke (passed there, fails in every
    /// attempt here) fails the change. Combines with --expect.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,

    /// The JUnit XML report the runner writes (a path inside the project,
    /// e.g. target/nextest/ci/junit.xml), read after each attempt where
    /// testgate could not ask the runner for its report itself: beside the
    /// console, never believed over it (docs/policy.md, "Three channels
    /// must agree").
    #[arg(long, value_name = "PATH", conflicts_with = "structured")]
    report: Option<PathBuf>,

    /// What a Pass needs of the runner's own report: `any` (the default:
    /// the report where the runner can be asked for one, else the exit
    /// status and the console alone, as the verdict then says) or `report`
    /// (no Pass without one: a runner hidden where it cannot be asked, behind
    /// `make` or a script, is Inconclusive `no_report`).
    #[arg(long, value_name = "WHAT", value_enum, default_value = "any")]
    evidence: EvidenceArg,

    /// Ask the runner for such a report without changing what runs: pytest's
    /// is now obtained by default, outside the project, so for pytest this
    /// adds nothing (docs/formats.md says what each runner needs).
    #[arg(long)]
    structured: bool,

    /// Tests whose outcomes are reported and never gate (one name per
    /// line, or the `check --stress --json` output whose unstable tests to
    /// quarantine). Every other test gates, listed or not.
    #[arg(long, value_name = "FILE")]
    quarantine: Option<PathBuf>,

    /// Stress mode: run the full suite N times, each attempt fresh, and list
    /// every test whose outcome varied, with how often it failed; feed the
    /// JSON output back with --quarantine. Retries and grading do not apply.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..),
          conflicts_with_all = ["expect", "baseline", "quarantine", "retries"])]
    stress: Option<u32>,

    /// With --expect or --baseline: what a listed test that never ran makes
    /// of the verdict: `not-run` (Inconclusive) or `fail`.
    #[arg(
        long,
        value_name = "WHAT",
        value_enum,
        default_value = "not-run",
        requires = "graded"
    )]
    missing: MissingArg,

    /// With --expect or --baseline: tests on no list gate too (a failure of
    /// any test fails the change).
    #[arg(long, requires = "graded")]
    strict: bool,

    /// Write the verdict record (docs/cli.md): the suite, the tree digest,
    /// the command and options, the sandbox, the environment's names, every
    /// attempt and the verdict, as one JSON document.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,

    /// Sign the record with the ed25519 key KEY (from `testgate keygen`).
    #[arg(long, value_name = "KEY", requires = "record")]
    sign: Option<PathBuf>,

    /// The suite's name in the record (default: the directory's name).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,

    /// The suite's version in the record (default: the git commit of DIR).
    #[arg(long = "version", value_name = "VERSION")]
    suite_version: Option<String>,

    /// Write the check's tests to FILE as JUnit XML: each test's outcome
    /// across the attempts (a flaky one as a failure), with the failure's
    /// message and output (docs/cli.md).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,

    /// With --expect: write SWE-bench's evaluation report of the listed
    /// tests to FILE (`resolved`, `tests_status`; docs/cli.md).
    #[arg(long, value_name = "FILE", requires = "expect")]
    swebench_report: Option<PathBuf>,

    /// Print one JSON object (schema in docs/cli.md) instead of text.
    #[arg(long)]
    json: bool,

    /// Do not stream the test output or announce attempts on stderr.
    #[arg(short, long)]
    quiet: bool,

    /// The test command and its arguments, after `--`. Without one,
    /// testgate finds the project's runner from its files (Cargo.toml,
    /// go.mod, pytest's configuration, package.json's test script, …) and
    /// says on stderr which command it chose and why.
    #[arg(last = true, value_name = "CMD")]
    command: Vec<OsString>,
}

/// `--evidence`: what a Pass needs of the runner's own report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum EvidenceArg {
    /// The report where it can be asked for; else the console alone.
    Any,
    /// No Pass without the runner's own report.
    Report,
}

impl EvidenceArg {
    /// The facade's rule.
    fn rule(self) -> EvidenceRule {
        match self {
            EvidenceArg::Any => EvidenceRule::Any,
            EvidenceArg::Report => EvidenceRule::Report,
        }
    }
}

/// `--missing`: what a listed test that never ran makes of the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum MissingArg {
    /// Inconclusive `not_run`: nothing was proved.
    NotRun,
    /// Fail, as SWE-bench grades a test missing from the log.
    Fail,
}

impl CheckArgs {
    /// The project directory, as given.
    pub(crate) fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// The further paths the command may write, as given.
    pub(crate) fn writable(&self) -> &[PathBuf] {
        &self.writable
    }

    /// The `--env` words, as given (`NAME` or `NAME=VALUE`).
    pub(crate) fn env_words(&self) -> &[String] {
        &self.env
    }

    /// `batch`: grade against the expected tests `text` states (an
    /// --expect file's text) instead of the file `--expect` named, which
    /// only stands in for it (so that `--missing` and `--strict` parse, and
    /// everything that asks whether there are expected tests is told so)
    /// and is never read.
    pub(crate) fn expect_inline(&mut self, file: testgate_documents::ExpectFile) {
        self.expect_inline = Some(file);
    }
}

impl CheckArgs {
    /// The record's `options`: those that change a verdict.
    fn record_options(&self) -> RecordOptions {
        RecordOptions {
            timeout_ms: u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX),
            retries: self.retries,
            rerun: format!("{:?}", self.rerun).to_lowercase(),
            format: self.format.0.name().to_owned(),
            restore: !self.keep_changes,
            keep_changes: self.keep_changes,
            evidence: self.evidence.rule().name().to_owned(),
        }
    }

    /// The record's `sandbox`: the one asked for, and the one used
    /// (`kind`) and why.
    fn record_sandbox(&self, kind: &str, why: Option<String>) -> RecordSandbox {
        RecordSandbox {
            kind: kind.to_owned(),
            requested: self.sandbox.clone(),
            why,
            allow_network: self.allow_network,
            writable: self
                .writable
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect(),
            tmpfs_size: self.tmpfs_size,
        }
    }

    /// The names `--env` gives, never their values.
    fn env_names(&self) -> Vec<String> {
        let name = |e: &String| e.split_once('=').map_or(e.as_str(), |(n, _)| n).to_owned();
        self.env.iter().map(name).collect()
    }
}

/// `check`'s options parsed from no words: every option's default, as
/// `check`'s own declaration states it.
#[derive(Debug, clap::Parser)]
#[command(name = "testgate")]
enum Defaults {
    Check(CheckArgs),
}

/// Why the `check` tool's arguments make no `check` options: a one-line
/// message naming the argument.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ToolCallError {
    /// `check`'s own defaults were refused by its parser (a bug).
    #[error("check's defaults do not parse")]
    Defaults,
    /// Both `k` and `retries`.
    #[error("give `k` or `retries`, not both")]
    BothRetries,
    /// `timeout` is no duration.
    #[error("`timeout`: {0}")]
    Timeout(#[source] ValueError),
    /// `format` names no format.
    #[error("`format` is \"{0}\": give one of {names}", names = format_names())]
    Format(String),
    /// `missing` or `strict` without `expect`.
    #[error("`{0}` grades against `expect`: give `expect` too")]
    WithoutExpect(&'static str),
    /// `stress` of fewer than two runs.
    #[error("`stress` is {0}: give 2 runs or more")]
    TooFewRuns(u32),
    /// `stress` with `expect` or `retries`.
    #[error("`stress` cannot be used with `expect` or `retries`")]
    StressGraded,
}

/// Every format's name, as a message offers them.
fn format_names() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    names.join(", ")
}

impl CheckArgs {
    /// `check --json --quiet`'s options for the `testgate mcp` `check`
    /// tool's `call`, run in `dir` (its `workspace`, resolved), typed value
    /// to option with no command line in between; or why not, in one line
    /// naming the argument. The caller has vetted `env` and the workspace.
    pub(crate) fn of_tool_call(
        call: CheckArguments,
        dir: PathBuf,
    ) -> Result<CheckArgs, ToolCallError> {
        let Ok(Defaults::Check(mut args)) = Defaults::try_parse_from(["testgate", "check"]) else {
            return Err(ToolCallError::Defaults);
        };
        args.dir = dir;
        args.json = true;
        args.quiet = true;
        args.retries = match (call.retries, call.k) {
            (Some(_), Some(_)) => return Err(ToolCallError::BothRetries),
            (Some(k), None) | (None, Some(k)) => k,
            (None, None) => args.retries,
        };
        if let Some(timeout) = &call.timeout {
            args.timeout = parse_duration(&timeout.word()).map_err(ToolCallError::Timeout)?;
        }
        if let Some(rerun) = call.rerun {
            args.rerun = match rerun {
                RerunArgument::All => Rerun::All,
                RerunArgument::Failed => Rerun::Failed,
            };
        }
        args.env = match call.env {
            None => Vec::new(),
            Some(EnvArgument::Map(map)) => {
                map.into_iter().map(|(n, v)| format!("{n}={v}")).collect()
            }
            Some(EnvArgument::List(words)) => words,
        };
        args.allow_network = call.allow_network.unwrap_or(false);
        if let Some(name) = &call.format {
            let format = Format::ALL.iter().copied().find(|f| f.name() == name);
            args.format = FormatArg(format.ok_or_else(|| ToolCallError::Format(name.clone()))?);
        }
        args.restore = call.restore.unwrap_or(false);
        args.keep_changes = call.keep_changes.unwrap_or(false);
        // A revision is passed to git after `--end-of-options`, a patch is
        // data: neither reaches a command line as an option.
        args.trusted = call.trusted;
        args.apply_inline = call.apply;
        args.grade_as_called(call.expect, call.missing, call.strict, call.stress)?;
        if let Some(evidence) = call.evidence {
            args.evidence = match evidence {
                EvidenceArgument::Any => EvidenceArg::Any,
                EvidenceArgument::Report => EvidenceArg::Report,
            };
        }
        args.command = call
            .command
            .unwrap_or_default()
            .into_iter()
            .map(OsString::from)
            .collect();
        Ok(args)
    }

    /// The `check` tool's grading arguments as options: `expect` (an
    /// --expect file's JSON), `missing` and `strict` with it, `stress`
    /// without it or retries; or why not, naming the argument.
    fn grade_as_called(
        &mut self,
        expect: Option<testgate_documents::ExpectFile>,
        missing: Option<MissingArgument>,
        strict: Option<bool>,
        stress: Option<u32>,
    ) -> Result<(), ToolCallError> {
        let graded = expect.is_some();
        if let Some(file) = expect {
            // A stand-in, as a manifest's inline list has: never read.
            self.expect = Some(PathBuf::from("(inline)"));
            self.expect_inline = Some(file);
        }
        for (given, name) in [(missing.is_some(), "missing"), (strict.is_some(), "strict")] {
            if given && !graded {
                return Err(ToolCallError::WithoutExpect(name));
            }
        }
        if let Some(missing) = missing {
            self.missing = match missing {
                MissingArgument::NotRun => MissingArg::NotRun,
                MissingArgument::Fail => MissingArg::Fail,
            };
        }
        self.strict = strict.unwrap_or(false);
        if let Some(runs) = stress {
            if runs < 2 {
                return Err(ToolCallError::TooFewRuns(runs));
            }
            if graded || self.retries > 0 {
                return Err(ToolCallError::StressGraded);
            }
            self.stress = Some(runs);
        }
        Ok(())
    }
}

/// Why `--apply` names no patch testgate can apply: a one-line message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ApplyError {
    /// `--apply record` and the instance record holds no patch.
    #[error("--apply record: the --expect instance record holds no `model_patch` or `patch`")]
    NoPatchInRecord,
    /// The patch file cannot be read.
    #[error("--apply: cannot read the patch: {0}")]
    Unreadable(#[source] testgate::run::ProjectFileError),
    /// The patch file is not UTF-8.
    #[error("--apply: the patch {} is not UTF-8", path.display())]
    NotUtf8 {
        /// The patch as given.
        path: PathBuf,
    },
}

/// What a check ended with, for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CheckEnd {
    /// The verdict was Pass.
    Pass,
    /// The verdict was Fail.
    Fail,
    /// The verdict was Inconclusive, for any cause but an interruption.
    Inconclusive,
    /// testgate was interrupted (SIGINT, SIGTERM, SIGHUP) and ended the run.
    Interrupted,
}

/// Why an option's value is not one: a one-line message naming the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ValueError {
    /// Not a duration.
    #[error("`{0}` is not a duration (try 30s, 5m, 1h30m or 500ms)")]
    NotADuration(String),
    /// A duration of zero.
    #[error("the timeout `{0}` must be longer than zero")]
    ZeroDuration(String),
    /// Not a size.
    #[error("`{0}` is not a size (try 512M, 4G or a number of bytes)")]
    NotASize(String),
    /// A size of zero.
    #[error("the size `{0}` must be larger than zero")]
    ZeroSize(String),
}

/// Parses `90s`, `5m`, `1h30m`, `500ms`, or a plain number of seconds.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, ValueError> {
    let malformed = || ValueError::NotADuration(text.to_owned());
    let text_trim = text.trim();
    if text_trim.is_empty() {
        return Err(malformed());
    }
    let zero = || ValueError::ZeroDuration(text.to_owned());
    if let Ok(seconds) = text_trim.parse::<u64>() {
        if seconds == 0 {
            return Err(zero());
        }
        return Ok(Duration::from_secs(seconds));
    }
    let mut total = Duration::ZERO;
    let mut rest = text_trim;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return Err(malformed());
        }
        let number: u64 = rest[..digits].parse().map_err(|_| malformed())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit = match &rest[..unit_len] {
            "ms" => Duration::from_millis(number),
            "s" => Duration::from_secs(number),
            "m" => Duration::from_secs(number.checked_mul(60).ok_or_else(malformed)?),
            "h" => Duration::from_secs(number.checked_mul(3600).ok_or_else(malformed)?),
            _ => return Err(malformed()),
        };
        total = total.checked_add(unit).ok_or_else(malformed)?;
        rest = &rest[unit_len..];
    }
    if total.is_zero() {
        return Err(zero());
    }
    Ok(total)
}

/// Parses `1073741824`, `512K`, `64M`, `4G` (binary units; `MiB`, `GiB`
/// and `MB` spellings accepted alike) into bytes; zero is refused.
pub(crate) fn parse_size(text: &str) -> Result<u64, ValueError> {
    let malformed = || ValueError::NotASize(text.to_owned());
    let trimmed = text.trim();
    let digits = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let number: u64 = trimmed[..digits].parse().map_err(|_| malformed())?;
    let shift = match trimmed[digits..].to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(malformed()),
    };
    let bytes = number.checked_mul(1 << shift).ok_or_else(malformed)?;
    if bytes == 0 {
        return Err(ValueError::ZeroSize(text.to_owned()));
    }
    Ok(bytes)
}

/// A check that ran: its record, and the command detection chose when
/// none was given.
pub(crate) struct Checked {
    /// What the attempts showed and the verdict.
    pub(crate) record: Record,
    /// The command testgate chose from the project's files, and why.
    pub(crate) detected: Option<Detected>,
}

impl Checked {
    /// The `check --json` document of this check.
    pub(crate) fn document(&self) -> testgate_documents::CheckDocument<'_> {
        crate::json::check_document_detected(&self.record, self.detected.as_ref())
    }
}

pub(crate) fn run(args: CheckArgs) -> Result<CheckEnd, Error> {
    let cancel = testgate::run::cancel_on_signals();
    let checked = execute(&args, &cancel)?;
    let record = &checked.record;
    // The verdict is decided: a reader that closed standard output
    // (`check … | true`, `| head -0`) or a full disk loses the text, never
    // the exit status, which is the verdict's.
    if let Err(e) = write_verdict(&args, &checked) {
        let _ = writeln!(
            io::stderr(),
            "testgate: could not write the verdict to standard output ({e}); the exit status is the verdict's"
        );
    }
    Ok(end_of(&record.verdict, &cancel))
}

/// Writes the verdict (text, or `--json`'s document) to standard output.
fn write_verdict(args: &CheckArgs, checked: &Checked) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    if args.json {
        crate::json::write_printable(&mut stdout, &checked.document())?;
        writeln!(stdout)?;
    } else {
        if io::stdout().is_terminal() {
            // Whatever state the terminal was left in, the verdict is seen.
            stdout.write_all(crate::terminal::RESET)?;
        }
        write_text(&mut stdout, &checked.record.verdict)?;
    }
    stdout.flush()
}

/// What `verdict` means for the exit code; an Inconclusive verdict after
/// `cancel` fired is an interruption.
pub(crate) fn end_of(verdict: &Verdict, cancel: &Cancel) -> CheckEnd {
    match verdict {
        Verdict::Pass { .. } => CheckEnd::Pass,
        Verdict::Fail { .. } => CheckEnd::Fail,
        Verdict::Inconclusive { .. } if cancel.is_cancelled() => CheckEnd::Interrupted,
        Verdict::Inconclusive { .. } => CheckEnd::Inconclusive,
    }
}

/// Runs the check `args` describes, cancelled by `cancel`, and writes its
/// `--record`; the caller prints the verdict (`check`) or collects it
/// (`batch`).
pub(crate) fn execute(args: &CheckArgs, cancel: &Cancel) -> Result<Checked, Error> {
    execute_observed(args, cancel, |max_attempts| {
        Box::new(Announcer {
            quiet: args.quiet,
            max_attempts,
            terminal: io::stderr()
                .is_terminal()
                .then(crate::terminal::TerminalFilter::new),
        })
    })
}

/// [`execute`], shown to the observer `observe` makes from the most
/// attempts the check may run (`testgate mcp` sends progress with it).
pub(crate) fn execute_observed<'o>(
    args: &CheckArgs,
    cancel: &Cancel,
    observe: impl FnOnce(u64) -> Box<dyn Observer + 'o>,
) -> Result<Checked, Error> {
    // Not the host's root, a home, or a folder holding one.
    let dir = testgate::project_dir(&args.dir)?;
    if let Some(roots) = &args.roots {
        roots.admit(&dir).map_err(Error::Workspace)?;
    }
    let writable = args
        .writable
        .iter()
        .map(|path| writable_path(path))
        .collect::<Result<Vec<_>, _>>()?;
    let detected = detected_command(args, &dir)?;
    let command: &[OsString] = detected.as_ref().map_or(&args.command, |d| &d.command);
    let Some((program, rest)) = command.split_first().filter(|(p, _)| !p.is_empty()) else {
        return Err(Error::EmptyCommand);
    };
    if let Some(why) = TestConfig::new(&dir, program.clone(), rest.iter().cloned()).watch_mode() {
        return Err(Error::WatchMode(why));
    }
    refuse_unstructured(args, &dir, program, rest)?;
    let config = config_of(args, &dir, program, rest, detected.as_ref());
    // `--swebench-report`: the instance and its listed tests; an instance
    // record's trusted revision, test patch and patch.
    let (mut config, instance, instance_fields) = with_expectations(args, &dir, config)?;
    config = with_env(args, config)?;
    // The runner's preset (CI=true for jest and vitest, …), as the
    // library's constructors apply it; a name given with --env wins.
    config = config.preset();
    if let Some(why) = config.snapshot_update() {
        return Err(Error::SnapshotUpdate(why));
    }
    let sandbox = sandbox_of(args, writable);
    let asked = view_asked(args, instance_fields)?;
    if !asked.is_empty() {
        let runner = config.runner();
        config = config.view(crate::trusted::view(&dir, runner, &asked));
    }
    let tests = SandboxedTests::new(sandbox, config).cancel_with(cancel.clone());
    if let (Some(why), false) = (tests.sandbox_why(), args.quiet) {
        let _ = writeln!(
            io::stderr(),
            "testgate: sandbox: {} ({why})",
            tests.sandbox().name()
        );
    }
    // The driver's own bound (`--stress N` runs N, whatever `-k` says).
    let mut observer = observe(tests.max_attempts());
    let before = before_the_attempts(args, &dir, &tests);
    let record = tests.run_observed(observer.as_mut());
    if let Some(view) = &record.view {
        say_view(view, args.quiet);
    }
    if let (Some(path), Some(before)) = (&args.record, before) {
        let document = record_document(
            args,
            &dir,
            command,
            &tests,
            &record,
            detected.as_ref(),
            before,
        );
        crate::record::write(path, &document, args.sign.as_deref())?;
    }
    if args.junit.is_some() || args.swebench_report.is_some() {
        let check = crate::json::check_document_detected(&record, detected.as_ref());
        if let Some(path) = &args.junit {
            crate::outputs::write_junit(path, &check)?;
        }
        if let (Some(path), Some(instance)) = (&args.swebench_report, &instance) {
            crate::outputs::write_swebench(path, &check, instance)?;
        }
    }
    Ok(Checked { record, detected })
}

/// The command the project's files name when none was given (or the
/// user is told what was found: none, several, folders below), said on
/// stderr unless `--quiet`.
fn detected_command(args: &CheckArgs, dir: &std::path::Path) -> Result<Option<Detected>, Error> {
    if !args.command.is_empty() {
        return Ok(None);
    }
    let detected = testgate::detect_command(dir)?;
    if !args.quiet {
        let _ = writeln!(
            io::stderr(),
            "testgate: running `{}` ({})",
            detected.shown_command(),
            detected.why()
        );
        for step in &detected.prepare {
            let _ = writeln!(io::stderr(), "testgate: preparing first: `{step}`");
        }
    }
    Ok(Some(detected))
}

/// `--structured` asks the runner for its report: a runner whose report is
/// obtained by default, outside the project (pytest's, docs/formats.md),
/// supports it ([`testgate::supports_structured`]); any other runner is a
/// usage error.
fn refuse_unstructured(
    args: &CheckArgs,
    dir: &std::path::Path,
    program: &OsString,
    rest: &[OsString],
) -> Result<(), Error> {
    if !args.structured {
        return Ok(());
    }
    let probe = TestConfig::new(dir, program.clone(), rest.iter().cloned());
    match probe.runner() {
        Some(runner) if testgate::supports_structured(runner) => Ok(()),
        Some(other) => Err(Error::Structured(other.name().to_owned())),
        None => Err(Error::Structured(program.to_string_lossy().into_owned())),
    }
}

/// The check's configuration from its options: limits, retries, format,
/// the preparation steps (the user's, then the detected command's), the
/// stress runs and the user's report.
fn config_of(
    args: &CheckArgs,
    dir: &std::path::Path,
    program: &OsString,
    rest: &[OsString],
    detected: Option<&Detected>,
) -> TestConfig {
    let mut config = TestConfig::new(dir, program.clone(), rest.to_vec())
        .within(args.timeout)
        .retrying(args.retries)
        .rerun(args.rerun)
        .format(args.format.0)
        .keep_changes(args.keep_changes)
        .evidence(args.evidence.rule())
        .own_output(own_output());
    let detected_steps = detected.into_iter().flat_map(|d| d.prepare.iter());
    for step in args.prepare.iter().chain(detected_steps) {
        config = config.prepare(step.clone());
    }
    if let Some(runs) = args.stress {
        config = config.stress(runs);
    }
    if let Some(path) = args.report.clone() {
        config = config.report(path);
    }
    config
}

/// `config` graded against what `--expect`, `--baseline` and
/// `--quarantine` list; with the SWE-bench instance (`--swebench-report`)
/// and the instance record's fields, where the expectations came from one.
fn with_expectations(
    args: &CheckArgs,
    dir: &std::path::Path,
    config: TestConfig,
) -> Result<
    (
        TestConfig,
        Option<crate::outputs::Instance>,
        crate::trusted::InstanceFields,
    ),
    Error,
> {
    let mut instance: Option<crate::outputs::Instance> = None;
    let mut instance_fields = crate::trusted::InstanceFields::default();
    if args.expect.is_none() && args.baseline.is_none() && args.quarantine.is_none() {
        return Ok((config, instance, instance_fields));
    }
    let missing = match args.missing {
        MissingArg::NotRun => Missing::Inconclusive,
        MissingArg::Fail => Missing::Fail,
    };
    let expected = expected_of(args)?;
    if let Some(expected) = &expected {
        instance_fields = expected.instance.clone();
    }
    if let (Some(_), Some(expected)) = (&args.swebench_report, &expected) {
        instance = Some(swebench_instance(args, dir, expected));
    }
    let mut expectations = match expected {
        Some(expected) => expected.expectations,
        None => Expectations::new(Vec::<String>::new(), Vec::<String>::new()),
    };
    if let Some(path) = &args.baseline {
        // What passed on the base commit must keep passing.
        // Each by its name and its file, where the runner gave one.
        let passed = crate::diff::grades_in(path)?
            .into_iter()
            .filter(|test| test.grade == Grade::Passed)
            .map(|test| match test.context {
                Some(file) => ListedTest::in_file(test.name, file),
                None => ListedTest::from(test.name),
            });
        expectations.keep_passing.extend(passed);
    }
    // A quarantine alone grades every test but the quarantined ones.
    let strict = args.strict || (args.expect.is_none() && args.baseline.is_none());
    if let Some(path) = &args.quarantine {
        let names = crate::expect::read_quarantine(path)?;
        expectations.quarantine = names;
    }
    let config = config.expect(expectations.with_missing(missing).with_strict(strict));
    Ok((config, instance, instance_fields))
}

/// The `--expect` file (or the expectations given inline), with a note on
/// stderr of what an instance record held that was not read (also under
/// `--quiet`: it is about the input, not the run).
fn expected_of(args: &CheckArgs) -> Result<Option<crate::expect::Expected>, Error> {
    let expected = match (&args.expect_inline, &args.expect) {
        (Some(file), _) => Some(
            crate::expect::expected(file.clone()).map_err(crate::expect::ExpectError::Inline)?,
        ),
        (None, Some(path)) => Some(crate::expect::read(path)?),
        (None, None) => None,
    };
    let mut used: Vec<&str> = Vec::new();
    if args.trusted.as_deref() != Some("none") {
        used.extend(["base_commit", "base", "test_patch"]);
    }
    if args
        .apply
        .as_ref()
        .is_some_and(|p| p.as_os_str() == "record")
    {
        used.extend(["patch", "fix_patch", "model_patch"]);
    }
    if let Some(note) = expected.as_ref().and_then(|e| e.note(&used)) {
        let _ = writeln!(io::stderr(), "testgate: {note}");
    }
    Ok(expected)
}

/// `config` with the `--env` entries: `NAME=VALUE` set, `NAME` passed.
fn with_env(args: &CheckArgs, mut config: TestConfig) -> Result<TestConfig, Error> {
    for entry in &args.env {
        config = match entry.split_once('=') {
            Some((name, value)) if !name.is_empty() => config.env(name, value),
            None if !entry.is_empty() => config.pass_env(entry),
            _ => return Err(Error::BadEnv(entry.clone())),
        };
    }
    Ok(config)
}

/// The sandbox `--sandbox` names, with the options that apply to it.
fn sandbox_of(args: &CheckArgs, writable: Vec<PathBuf>) -> Sandbox {
    let bwrap = BwrapOptions {
        allow_network: args.allow_network,
        writable,
        tmpfs_size: args.tmpfs_size,
        // The signing key is testgate's, not the tests': unreadable
        // inside wherever it lies (under bubblewrap; Landlock grants no
        // home, see docs/sandbox.md).
        hidden_files: args.sign.iter().cloned().collect(),
        ..BwrapOptions::default()
    };
    match args.sandbox.as_str() {
        "none" => Sandbox::Host,
        "bwrap" => Sandbox::Bubblewrap(bwrap),
        "landlock" => Sandbox::Landlock(LandlockOptions {
            allow_network: bwrap.allow_network,
            allow_unix_sockets: bwrap.allow_unix_sockets,
            writable: bwrap.writable,
            max_processes: bwrap.max_processes,
        }),
        _ => Sandbox::Auto(bwrap),
    }
}

/// What a `--record` holds that is read before the attempts: the suite's
/// version and dirty marker, the toolchain's versions, the start.
struct BeforeAttempts {
    version: Option<String>,
    dirty: Option<testgate_documents::Dirty>,
    toolchain: Vec<ToolchainVersion>,
    started: u64,
}

/// What a `--record` needs read before the first attempt (`None` without
/// one): the version, before what the attempts do to the tree (that is
/// the tree digest's business); the toolchain's versions, asked before the
/// tree is recorded and the attempts run, with the project read-only, so
/// that nothing a question runs (a module of the project's that shadows
/// the runner's) can plant a file after the tree check.
fn before_the_attempts(
    args: &CheckArgs,
    dir: &std::path::Path,
    tests: &SandboxedTests,
) -> Option<BeforeAttempts> {
    args.record.as_ref()?;
    let (version, dirty) = match &args.suite_version {
        Some(version) => (Some(version.clone()), None),
        None => {
            let repository = crate::record::repository(dir);
            let dirty = repository
                .as_ref()
                .and_then(|repository| crate::record::git_dirty(repository, dir))
                .flatten();
            let head = match (repository.map(|r| r.head), &dirty) {
                (Some(head), Some(_)) => Some(format!("{head}-dirty")),
                (head, _) => head,
            };
            (head, dirty)
        }
    };
    let toolchain = tests
        .toolchain_versions()
        .into_iter()
        .map(|(question, answer)| ToolchainVersion { question, answer })
        .collect();
    Some(BeforeAttempts {
        version,
        dirty,
        toolchain,
        started: unix_seconds(),
    })
}

/// The `--record` document of the check.
fn record_document<'r>(
    args: &CheckArgs,
    dir: &std::path::Path,
    command: &[OsString],
    tests: &SandboxedTests,
    record: &'r Record,
    detected: Option<&Detected>,
    before: BeforeAttempts,
) -> RecordDocument<'r> {
    let name = args.name.clone().unwrap_or_else(|| {
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let bwrap = matches!(tests.sandbox(), Sandbox::Bubblewrap(_))
        .then(crate::record::bwrap_version)
        .flatten();
    RecordDocument {
        schema: RECORD_SCHEMA.to_owned(),
        testgate: env!("CARGO_PKG_VERSION").to_owned(),
        suite: RecordSuite {
            name,
            version: before.version,
            dirty: before.dirty,
        },
        tree_digest: record.tree_digest.clone(),
        tree_unbound: record.tree_unbound.clone(),
        command: command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        options: args.record_options(),
        sandbox: args.record_sandbox(record.sandbox.0, record.sandbox.1.clone()),
        env: args.env_names(),
        environment: tests.environment_names(),
        toolchain: before.toolchain,
        host: Host {
            kernel: kernel_release(),
            bwrap,
        },
        started_at: before.started,
        ended_at: unix_seconds(),
        verdict: record.verdict.name().to_owned(),
        result: crate::json::check_document_detected(record, detected),
        // How the command was chosen: no one typed it.
        command_detected: detected.map(|detected| CommandDetected {
            runner: detected.runner.name().to_owned(),
            why: detected.why(),
        }),
    }
}

/// One line on stderr of what the view the attempts ran differed in from
/// the submission (unless `quiet`), and always when the tree could not be
/// put back as found.
fn say_view(view: &testgate::ViewRecord, quiet: bool) {
    if let Some(Err(why)) = &view.put_back {
        let _ = writeln!(
            io::stderr(),
            "testgate: the tree could not be put back as found: {why}"
        );
    }
    let differences: Vec<String> = view
        .differences()
        .map(|p| p.display().to_string())
        .collect();
    if quiet || differences.is_empty() {
        return;
    }
    let revision = view.revision.as_deref().unwrap_or("?");
    let shown: Vec<&str> = differences.iter().take(10).map(String::as_str).collect();
    let more = differences.len() - shown.len();
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let _ = writeln!(
        io::stderr(),
        "testgate: the trusted tests of {revision} ran instead of the submission's: {}{more}",
        shown.join(", ")
    );
}

/// What `--trusted`, `--apply` and an instance record ask of the view the
/// attempts run: the record's `base_commit` and `test_patch` unless
/// `--trusted` says otherwise (`none`: the tests as submitted); the patch
/// `--apply` names (`record`: the record's).
fn view_asked(
    args: &CheckArgs,
    record: crate::trusted::InstanceFields,
) -> Result<crate::trusted::ViewAsked, Error> {
    let revision = match args.trusted.as_deref() {
        Some("none") => None,
        Some(revision) => Some(revision.to_owned()),
        None => record.base_commit.clone(),
    };
    let test_patch = revision.as_ref().and(record.test_patch);
    let patch = match (&args.apply, &args.apply_inline) {
        (_, Some(text)) => Some(text.clone()),
        (Some(path), None) if path.as_os_str() == "record" => {
            Some(record.patch.ok_or(ApplyError::NoPatchInRecord)?)
        }
        (Some(path), None) => {
            let bytes = testgate::run::read_project_file(path, crate::trusted::PATCH_BYTES)
                .map_err(ApplyError::Unreadable)?;
            Some(String::from_utf8(bytes).map_err(|_| ApplyError::NotUtf8 { path: path.clone() })?)
        }
        (None, None) => None,
    };
    Ok(crate::trusted::ViewAsked {
        revision,
        test_patch,
        patch,
    })
}

/// `--swebench-report`'s instance: the record's `instance_id`, else the
/// suite's name (`--name`, else the directory's), and the listed tests.
fn swebench_instance(
    args: &CheckArgs,
    dir: &std::path::Path,
    expected: &crate::expect::Expected,
) -> crate::outputs::Instance {
    let id = expected
        .instance_id
        .clone()
        .or_else(|| args.name.clone())
        .unwrap_or_else(|| {
            dir.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
    let list = |names: &[ListedTest], list: &str| {
        names
            .iter()
            .map(|test| (test.name.clone(), list.to_owned()))
            .collect::<Vec<_>>()
    };
    let mut listed = list(&expected.expectations.must_pass, "must_pass");
    listed.extend(list(&expected.expectations.keep_passing, "keep_passing"));
    crate::outputs::Instance { id, listed }
}

/// The files testgate's own standard output and error write to, when they
/// are files (`testgate check -- cargo test > tg.log`): what testgate
/// writes there is no change the suite made, and `--restore` must never
/// replace the file testgate is writing its verdict to.
fn own_output() -> Vec<testgate::project_tree::OwnFile> {
    use std::os::fd::AsFd;
    [
        io::stdout().as_fd().try_clone_to_owned(),
        io::stderr().as_fd().try_clone_to_owned(),
    ]
    .into_iter()
    .filter_map(Result::ok)
    .filter_map(|fd| std::fs::File::from(fd).metadata().ok())
    .filter_map(|meta| testgate::project_tree::OwnFile::of(&meta))
    .collect()
}

/// Why a `--writable` path is refused: a few words, after the path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum WritableRefusal {
    /// The path cannot be resolved (it does not exist).
    #[error("{0}")]
    Unresolved(#[source] io::Error),
    /// The path would open the host or a home directory to the tests:
    /// the facade's reason ([`testgate::host_folder`]).
    #[error("{0}")]
    HostFolder(String),
}

/// The canonical form of a `--writable` path, or the usage error: it must
/// exist (bwrap would refuse it at run time, and every attempt would be
/// Inconclusive), and it must not be `/` or hold a home directory of the
/// user running testgate (`$HOME` or the password database's), which would
/// let the tests write the host or the credentials and shell files that
/// run later on it.
fn writable_path(path: &std::path::Path) -> Result<PathBuf, Error> {
    let refuse = |why| Error::Writable {
        path: path.to_owned(),
        why,
    };
    let canonical =
        std::fs::canonicalize(path).map_err(|e| refuse(WritableRefusal::Unresolved(e)))?;
    match testgate::host_folder(&canonical) {
        Some(why) => Err(refuse(WritableRefusal::HostFolder(why))),
        None => Ok(canonical),
    }
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The host kernel's release, for a record.
#[expect(
    clippy::disallowed_methods,
    reason = "a file of the kernel's, not under the project"
)]
fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// Shows each attempt on stderr: its start, its output live, its end.
struct Announcer {
    quiet: bool,
    max_attempts: u64,
    /// On a terminal, what filters the output (`terminal.rs`); None off a
    /// terminal, where the bytes pass unchanged.
    terminal: Option<crate::terminal::TerminalFilter>,
}

impl Announcer {
    /// Ends the stream of one attempt or preparation on a terminal: what
    /// the filter held back shown, then every attribute off and the cursor
    /// shown, so that testgate's own lines (and the verdict) are seen.
    fn end_stream(&mut self) {
        if let Some(filter) = &mut self.terminal {
            let mut out = Vec::new();
            filter.finish(&mut out);
            out.extend_from_slice(crate::terminal::RESET);
            let _ = io::stderr().write_all(&out);
        }
    }
}

impl Observer for Announcer {
    fn attempt_started(&mut self, number: usize, selection: &Selection, command: &[OsString]) {
        if self.quiet {
            return;
        }
        let shown: Vec<String> = command
            .iter()
            .map(|a| testgate::parse::printable(a.as_encoded_bytes()))
            .collect();
        let what = match selection {
            Selection::Full => String::new(),
            Selection::Only(names) => format!(" (retrying {} failed test(s))", names.len()),
        };
        let _ = writeln!(
            io::stderr(),
            "testgate: attempt {number} of at most {}{what}: {}",
            self.max_attempts,
            shown.join(" ")
        );
    }

    fn preparation_started(&mut self, number: usize, command: &str) {
        if !self.quiet {
            let _ = writeln!(
                io::stderr(),
                "testgate: preparation {number}: {}",
                testgate::parse::printable(command.as_bytes())
            );
        }
    }

    fn preparation_finished(&mut self, record: &PreparationRecord) {
        if !self.quiet {
            self.end_stream();
            let _ = writeln!(
                io::stderr(),
                "\ntestgate: preparation {} {} after {:.2}s",
                record.number,
                describe_ending(&record.preparation.ending),
                record.duration.as_secs_f64(),
            );
        }
    }

    fn output(&mut self, chunk: &[u8]) {
        if self.quiet {
            return;
        }
        match &mut self.terminal {
            Some(filter) => {
                let mut out = Vec::with_capacity(chunk.len() + 16);
                filter.feed(chunk, &mut out);
                let _ = io::stderr().write_all(&out);
            }
            None => {
                let _ = io::stderr().write_all(chunk);
            }
        }
    }

    fn attempt_finished(&mut self, record: &AttemptRecord) {
        if self.quiet {
            return;
        }
        self.end_stream();
        if record.number == 1 {
            for note in &record.sandbox_notes {
                let _ = writeln!(
                    io::stderr(),
                    "testgate: sandbox: {}",
                    testgate::parse::printable(note.as_bytes())
                );
            }
        }
        let attempt = &record.attempt;
        let failing = match attempt.failing.len() {
            0 => String::new(),
            1 => ", 1 failing test".to_owned(),
            n => format!(", {n} failing tests"),
        };
        let _ = writeln!(
            io::stderr(),
            "\ntestgate: attempt {} {} after {:.2}s{failing}",
            record.number,
            describe_ending(&attempt.ending),
            attempt.duration.as_secs_f64(),
        );
    }
}

/// How an attempt or a preparation ended, in a few words.
pub(crate) fn describe_ending(ending: &Ending) -> String {
    match ending {
        Ending::Exited { code: 0 } => "exited 0".to_owned(),
        Ending::Exited { code } => format!("exited {code}"),
        Ending::Signalled { signal } => format!("was killed by signal {signal}"),
        Ending::TimedOut { after } => format!("timed out ({}s limit)", after.as_secs_f64()),
        Ending::SandboxRefused { why } => format!("was refused by the sandbox: {why}"),
        Ending::WouldNotStart { why } => format!("would not start: {why}"),
        Ending::Cancelled => "was cancelled".to_owned(),
        Ending::Lost { why } => format!("was lost: {why}"),
    }
}

fn write_text(out: &mut impl Write, verdict: &Verdict) -> io::Result<()> {
    let head = match verdict {
        Verdict::Pass { .. } => "PASS".to_owned(),
        Verdict::Fail { .. } => "FAIL".to_owned(),
        Verdict::Inconclusive { cause, .. } => format!("INCONCLUSIVE ({})", cause.name()),
    };
    writeln!(out, "{head}")?;
    let reason = testgate::parse::printable(verdict.reason().as_bytes());
    writeln!(out, "{}", reason.trim_end())
}

#[cfg(test)]
mod tests {
    use super::{parse_duration, parse_size};
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
    }

    #[test]
    fn malformed_durations() {
        for bad in [
            "",
            "s",
            "5x",
            "m5",
            "1.5s",
            "-3s",
            "0s",
            "0",
            "0m0s",
            "99999999999999999999h",
            "5 m",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("512KiB"), Ok(512 << 10));
        assert_eq!(parse_size("2gb"), Ok(2 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        for bad in [
            "",
            "G",
            "0",
            "0M",
            "1.5G",
            "-1G",
            "5X",
            "99999999999T",
            "1 G",
        ] {
            assert!(parse_size(bad).is_err(), "{bad:?} must be refused");
        }
    }
}
