//! `testgate batch`: many checks from a JSON-lines manifest, `--jobs` at a
//! time, each result a JSON line written as its check ends.
//!
//! Memory stays flat in the manifest's length: the manifest is streamed
//! (read twice: once to count, once to run), at most `--jobs` checks are in
//! flight, results are written as they end, and resuming keeps one 64-bit
//! hash per check already in `--out`, read a line at a time whatever its
//! length.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;
use testgate::run::Cancel;
use testgate_documents::{BATCH_SCHEMA, BatchLine};

use crate::check::{self, CheckEnd};
use crate::{Error, exit};

mod manifest;
mod out;
mod progress;
mod resume;

#[cfg(test)]
pub(crate) use manifest::check_args;
use manifest::{Job, Line, ManifestError, is_blank, job, line_id, met, next_line};
use progress::CheckDuration;
use resume::{done_ids, id_hash};

/// Run the checks of a manifest, in parallel, results as JSON lines.
///
/// MANIFEST holds one check per line, a JSON object: `workspace` and
/// `command` (an array of words), and optionally `id`, `retries`,
/// `timeout`, `sandbox`, `allow_network`, `writable`, `tmpfs_size`, `env`,
/// `prepare`, `rerun`, `format`, `restore`, `keep_changes`, `expect` (a file's path or its
/// JSON inline), `baseline`, `quarantine`, `stress`, `missing`, `strict`,
/// `report`, `structured`, `record`, `junit`, `swebench_report`, `sign`,
/// `name`, `version` (as
/// `check`'s options) and
/// `expect_verdict` (a verdict, or `{verdict, cause, failing}`). Relative
/// paths are
/// relative to the manifest's directory. Each result is one JSON line
/// (docs/cli.md), written as its check ends; with --out, the checks whose
/// `id` already has a result in FILE are skipped, so an interrupted batch
/// resumes (an error line is no result: its check is tried again). Two
/// lines with one `id` are refused before anything runs.
///
/// Exit status: 0 when every check ran and met its `expect_verdict`, 1 when
/// one did not meet it, 2 when a manifest line was invalid or a check could
/// not run, 130 when interrupted.
#[derive(Debug, clap::Args)]
pub(crate) struct BatchArgs {
    /// The manifest: one JSON object per line (`-` is not accepted: it is
    /// read twice).
    #[arg(value_name = "MANIFEST")]
    manifest: PathBuf,

    /// How many checks run at once, each in its own sandbox.
    #[arg(short = 'j', long, value_name = "N", default_value = "1")]
    jobs: NonZeroUsize,

    /// Append the results to FILE, skipping the checks already in it, but
    /// for error lines (default: standard output, nothing skipped).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Run only the check on line INDEX of the manifest (0-based, blank
    /// lines not counted): one pod of a Kubernetes Indexed Job.
    #[arg(long, value_name = "INDEX")]
    index: Option<u64>,

    /// Run only shard I of N: the checks whose index (0-based, blank lines
    /// not counted, as --index counts) modulo N is I-1. With --out, the
    /// shard's checks already done are skipped, as without it.
    #[arg(long, value_name = "I/N", value_parser = parse_shard, conflicts_with = "index")]
    shard: Option<Shard>,

    /// No progress line and no summary on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// `--shard I/N`: shard `index` (from 1) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    index: u64,
    count: u64,
}

/// `--shard`'s value is not `I/N` with 1 <= I <= N.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a shard: give I/N with 1 <= I <= N, e.g. 2/8")]
pub(crate) struct NotAShard(String);

/// Why a batch could not run or keep its results: each a one-line
/// message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum BatchError {
    /// `--out`'s folder cannot be resolved.
    #[error("cannot resolve --out {}: {source}", path.display())]
    OutUnresolved {
        /// `--out` as given.
        path: PathBuf,
        /// What the OS said.
        source: io::Error,
    },
    /// `--out` cannot be opened to append to (a link, no such folder).
    #[error("cannot open the results file: {0}")]
    OutUnopened(#[from] testgate::run::ProjectFileError),
    /// `--out`'s end cannot be found.
    #[error("cannot open the results file: {0}")]
    OutUnsought(#[source] io::Error),
    /// `--out` lies where a check's tests could write.
    #[error(transparent)]
    OutExposed(#[from] out::Exposed),
    /// Two manifest lines have one id: resume could not tell their
    /// results apart.
    #[error(
        "{}: lines {first} and {line} have the same id {label}: give each check its own `id`",
        manifest.display()
    )]
    SameId {
        /// The manifest.
        manifest: PathBuf,
        /// The first line of the id.
        first: u64,
        /// The line that has it again.
        line: u64,
        /// The id as the progress line shows it.
        label: String,
    },
    /// `--out` cannot be read to resume from.
    #[error(transparent)]
    Resume(#[from] resume::ResumeError),
    /// A result line could not be written, or the manifest read to its end.
    #[error("{0}")]
    Write(#[source] io::Error),
    /// `--out` was written by something other than this batch.
    #[error(transparent)]
    Foreign(#[from] out::WrittenByAnother),
}

/// Parses `I/N`, 1 <= I <= N.
fn parse_shard(text: &str) -> Result<Shard, NotAShard> {
    let bad = || NotAShard(text.to_owned());
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let index: u64 = index.trim().parse().map_err(|_| bad())?;
    let count: u64 = count.trim().parse().map_err(|_| bad())?;
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// Which of the manifest's checks this batch runs: all, the one of
/// `--index`, or those of `--shard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LinePick {
    index: Option<u64>,
    shard: Option<Shard>,
}

impl LinePick {
    /// Whether the check on the `nonblank`-th non-blank line (from 1) runs.
    fn takes(self, nonblank: u64) -> bool {
        let index = nonblank.saturating_sub(1);
        self.index.is_none_or(|i| i == index)
            && self
                .shard
                .is_none_or(|shard| index % shard.count == shard.index - 1)
    }
}

/// How a batch ended, for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BatchEnd {
    /// Every check ran and met its expectation (or had none).
    Complete,
    /// Every check ran; at least one did not meet its expectation.
    Unexpected,
    /// A manifest line was invalid, or a check could not run.
    Errors,
    /// A signal ended the batch and its running checks.
    Interrupted,
}

/// What the main thread hears from the reader and the workers.
enum Event {
    /// The check of a manifest line started; its id as the progress line
    /// shows it.
    Started { line: u64, label: String },
    /// The check of a manifest line ended after `took`: its line to write,
    /// or `None` when the interruption ended it.
    Finished {
        line: u64,
        took: Duration,
        finished: Option<Finished>,
    },
    /// A manifest line that is no check: its error line to write.
    Rejected(Finished),
    /// The manifest could not be read any further.
    Unreadable(io::Error),
}

/// A finished check's line and what it counts as.
struct Finished {
    text: String,
    tally: Tally,
    unexpected: bool,
}

#[derive(Debug, Clone, Copy)]
enum Tally {
    Pass,
    Fail,
    Inconclusive,
    Error,
}

#[derive(Debug, Default)]
struct Counts {
    pass: u64,
    fail: u64,
    inconclusive: u64,
    error: u64,
    unexpected: u64,
    interrupted: u64,
    running: u64,
}

impl Counts {
    /// The progress line's counts, short enough for 80 columns (the
    /// running checks are named after them: [`progress::line`]).
    fn live(&self) -> String {
        let error = if self.error > 0 {
            format!(" error {}", self.error)
        } else {
            String::new()
        };
        format!(
            "pass {} fail {} inconclusive {}{error}",
            self.pass, self.fail, self.inconclusive
        )
    }

    fn done(&self) -> u64 {
        self.pass + self.fail + self.inconclusive + self.error
    }

    fn message(&self) -> String {
        format!(
            "pass {} · fail {} · inconclusive {} · error {} · running {}",
            self.pass, self.fail, self.inconclusive, self.error, self.running
        )
    }
}

pub(crate) fn run(args: &BatchArgs) -> Result<BatchEnd, Error> {
    let manifest_dir = args
        .manifest
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let (out_file, done) = open_out(args, &manifest_dir)?;
    let pick = LinePick {
        index: args.index,
        shard: args.shard,
    };
    let to_run = count_to_run(open_manifest(args)?, &args.manifest, &done, pick)?;
    // Results go to the file this process alone appends to (what it did
    // not write is cut off: `out::OutFile`), or to standard output.
    let results = match out_file {
        Some(file) => Results::File(out::OutFile::new(file).map_err(BatchError::OutUnsought)?),
        None => Results::Stdout(io::stdout()),
    };
    let manifest = open_manifest(args)?;

    let cancel = testgate::run::cancel_on_signals();
    let started = Instant::now();
    let mut ledger = Ledger {
        bar: progress_bar(args.quiet, to_run),
        to_run,
        counts: Counts::default(),
        took: CheckDuration::default(),
        running: Vec::new(),
        write_error: None,
        results,
    };
    let (job_tx, job_rx) = mpsc::sync_channel::<Job>(0);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (event_tx, event_rx) = mpsc::channel::<Event>();
    let skipped = std::thread::scope(|scope| {
        let reader = {
            let (events, cancel) = (event_tx.clone(), cancel.clone());
            let (done, dir) = (&done, manifest_dir.as_path());
            scope.spawn(move || dispatch(manifest, dir, done, pick, &job_tx, &events, &cancel))
        };
        for _ in 0..args.jobs.get() {
            let (jobs, events, cancel) = (Arc::clone(&job_rx), event_tx.clone(), cancel.clone());
            scope.spawn(move || work(&jobs, &events, &cancel));
        }
        drop(event_tx);
        drop(job_rx);
        for event in event_rx {
            ledger.hear(event, args, &cancel);
        }
        reader.join().unwrap_or(0)
    });
    ledger.bar.finish_and_clear();
    if !args.quiet {
        summary(
            &ledger.counts,
            skipped,
            started.elapsed(),
            args.out.as_deref(),
        );
    }
    ledger.close(args.out.is_some(), &cancel)
}

/// The manifest, opened once more.
fn open_manifest(args: &BatchArgs) -> Result<File, Error> {
    File::open(&args.manifest).map_err(|source| Error::Read {
        path: args.manifest.clone(),
        source,
    })
}

/// `--out`, opened to resume from and append to, and the ids already done
/// in it; or neither, without `--out`.
fn open_out(args: &BatchArgs, manifest_dir: &Path) -> Result<(Option<File>, HashSet<u64>), Error> {
    let Some(path) = &args.out else {
        return Ok((None, HashSet::new()));
    };
    // --out where any check's tests could write is refused whole, before
    // it is opened and anything runs.
    let out = out::canonical_out(path).map_err(|source| BatchError::OutUnresolved {
        path: path.clone(),
        source,
    })?;
    refuse_exposed_out(open_manifest(args)?, &args.manifest, manifest_dir, &out)?;
    // --out is opened once, to resume from and append to: a link a suite
    // planted there since the last run is refused, not followed.
    let mut file = testgate::run::append_file(path).map_err(BatchError::OutUnopened)?;
    let done = done_ids(&mut file, path).map_err(BatchError::Resume)?;
    Ok((Some(file), done))
}

/// What the main thread keeps while a batch runs: the counts, the
/// running checks, the progress shown, and where results go.
struct Ledger {
    bar: ProgressBar,
    /// How many checks the batch starts.
    to_run: u64,
    counts: Counts,
    took: CheckDuration,
    /// The running checks' ids, by manifest line: at most --jobs of them.
    running: Vec<(u64, String)>,
    /// The first result that could not be written (or the manifest read).
    write_error: Option<io::Error>,
    results: Results,
}

impl Ledger {
    /// Takes in what the reader or a worker said, and shows the progress.
    fn hear(&mut self, event: Event, args: &BatchArgs, cancel: &Cancel) {
        let finished = match event {
            Event::Started { line, label } => {
                self.counts.running += 1;
                self.running.push((line, label));
                None
            }
            Event::Finished {
                line,
                took: duration,
                finished,
            } => {
                self.counts.running = self.counts.running.saturating_sub(1);
                self.running.retain(|(running, _)| *running != line);
                match &finished {
                    None => self.counts.interrupted += 1,
                    // A check that could not run says nothing of how
                    // long checks take.
                    Some(Finished {
                        tally: Tally::Error,
                        ..
                    }) => {}
                    Some(Finished {
                        tally: Tally::Pass | Tally::Fail | Tally::Inconclusive,
                        ..
                    }) => self.took.record(duration),
                }
                finished
            }
            Event::Rejected(finished) => Some(finished),
            Event::Unreadable(e) => {
                self.write_error.get_or_insert(io::Error::new(
                    e.kind(),
                    format!("cannot read {}: {e}", args.manifest.display()),
                ));
                cancel.cancel();
                None
            }
        };
        if let Some(finished) = finished {
            self.write(finished, args, cancel);
        }
        let left = self.took.left(
            self.to_run.saturating_sub(self.counts.done()),
            args.jobs.get(),
        );
        let ids: Vec<String> = self
            .running
            .iter()
            .map(|(_, label)| label.clone())
            .collect();
        self.bar
            .set_message(progress::line(&self.counts.live(), left, &ids));
    }

    /// Counts a finished check and writes its line; without a terminal,
    /// logs a line per check.
    fn write(&mut self, finished: Finished, args: &BatchArgs, cancel: &Cancel) {
        let counts = &mut self.counts;
        match finished.tally {
            Tally::Pass => counts.pass += 1,
            Tally::Fail => counts.fail += 1,
            Tally::Inconclusive => counts.inconclusive += 1,
            Tally::Error => counts.error += 1,
        }
        counts.unexpected += u64::from(finished.unexpected);
        // One write of the whole line, flushed: a reader (or a
        // resume) never sees half a result.
        let written = self.results.write_line(finished.text.as_bytes());
        if let Err(e) = written {
            self.write_error.get_or_insert(e);
            cancel.cancel();
        }
        if !self.bar.is_hidden() {
            self.bar.inc(1);
        } else if !args.quiet {
            // No terminal: one line per check, for the log.
            let to_run = self.to_run;
            let left = to_run.saturating_sub(self.counts.done());
            let eta = if left > 0 {
                let left = self.took.left(left, args.jobs.get());
                format!(" · eta {}", progress::eta(left))
            } else {
                String::new()
            };
            eprintln!(
                "testgate: batch: {} of {to_run} done: {}{eta}",
                self.counts.done(),
                self.counts.message()
            );
        }
    }

    /// How the batch ended, once the results file is checked: an error
    /// when a result could not be written (but a closed standard output,
    /// which ends it as interrupted), or its results file was written by
    /// another.
    fn close(self, to_file: bool, cancel: &Cancel) -> Result<BatchEnd, Error> {
        if let Results::File(file) = self.results {
            file.finish().map_err(BatchError::Foreign)?;
        }
        if let Some(e) = self.write_error {
            if e.kind() == io::ErrorKind::BrokenPipe && !to_file {
                return Ok(BatchEnd::Interrupted);
            }
            return Err(BatchError::Write(e).into());
        }
        let counts = &self.counts;
        Ok(if cancel.is_cancelled() {
            BatchEnd::Interrupted
        } else if counts.error > 0 {
            BatchEnd::Errors
        } else if counts.unexpected > 0 {
            BatchEnd::Unexpected
        } else {
            BatchEnd::Complete
        })
    }
}

/// Where result lines go.
enum Results {
    File(out::OutFile),
    Stdout(io::Stdout),
}

impl Results {
    /// One write of the whole line, flushed: a reader (or a resume) never
    /// sees half a result.
    fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        match self {
            Results::File(file) => file.write_line(line),
            Results::Stdout(stdout) => stdout.write_all(line).and_then(|()| stdout.flush()),
        }
    }
}

/// The exit code of a batch that ended so.
pub(crate) fn exit_code(ending: BatchEnd) -> u8 {
    match ending {
        BatchEnd::Complete => exit::SUCCESS,
        BatchEnd::Unexpected => exit::FAIL,
        BatchEnd::Errors => exit::TROUBLE,
        BatchEnd::Interrupted => exit::INTERRUPTED,
    }
}

fn progress_bar(quiet: bool, length: u64) -> ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:10}] {pos}/{len} {wide_msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

fn summary(counts: &Counts, skipped: u64, elapsed: Duration, out: Option<&Path>) {
    let minutes = elapsed.as_secs_f64() / 60.0;
    let rate = if minutes > 0.0 {
        counts.done() as f64 / minutes
    } else {
        0.0
    };
    let mut text = format!(
        "testgate: batch: {} checks in {:.1}s, {rate:.1} per minute\n",
        counts.done(),
        elapsed.as_secs_f64()
    );
    let rows = [
        ("pass", counts.pass, ""),
        ("fail", counts.fail, ""),
        ("inconclusive", counts.inconclusive, ""),
        ("error", counts.error, "the check could not run"),
        (
            "unexpected",
            counts.unexpected,
            "the verdict was not the expected one",
        ),
        ("skipped", skipped, "already in --out"),
        (
            "interrupted",
            counts.interrupted,
            "not written: run again to resume",
        ),
    ];
    for (name, count, note) in rows {
        if count > 0 || matches!(name, "pass" | "fail" | "inconclusive") {
            let row = format!("  {name:<13} {count:>7}  {note}");
            text.push_str(row.trim_end());
            text.push('\n');
        }
    }
    if let Some(out) = out {
        text.push_str(&format!("  results in {}\n", out.display()));
    }
    eprint!("{text}");
}

/// Refuses `out` (canonical) when it lies in the workspace or a
/// `writable` path of any valid line of the manifest (an invalid line runs
/// nothing).
fn refuse_exposed_out(manifest: File, path: &Path, dir: &Path, out: &Path) -> Result<(), Error> {
    let mut reader = BufReader::new(manifest);
    let mut line = 0u64;
    let unreadable = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    while let Some(text) = next_line(&mut reader).map_err(unreadable)? {
        line += 1;
        let Line::Text(bytes) = &text else { continue };
        if is_blank(&text) {
            continue;
        }
        let exposed = job(bytes, line, Value::from(line), dir)
            .ok()
            .and_then(|job| out::refuse_exposed(out, &job));
        if let Some(exposed) = exposed {
            return Err(BatchError::OutExposed(exposed).into());
        }
    }
    Ok(())
}

/// How many checks of the manifest a run will start (the progress bar's
/// length): the non-blank lines not already done, or one with --index,
/// or the shard's with --shard.
/// Two lines with one id are refused here, before anything runs: resume
/// could not tell their results apart.
fn count_to_run(
    manifest: File,
    path: &Path,
    done: &HashSet<u64>,
    pick: LinePick,
) -> Result<u64, Error> {
    let mut reader = BufReader::new(manifest);
    let (mut line, mut nonblank, mut count) = (0u64, 0u64, 0u64);
    // The first line of each id, by the id's hash: 16 bytes a line.
    let mut first_line: HashMap<u64, u64> = HashMap::new();
    let unreadable = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    while let Some(text) = next_line(&mut reader).map_err(unreadable)? {
        line += 1;
        if is_blank(&text) {
            continue;
        }
        nonblank += 1;
        let id = match &text {
            Line::Text(bytes) => line_id(bytes, line),
            Line::TooLong => Value::from(line),
        };
        let hash = id_hash(&id);
        if let Some(first) = first_line.insert(hash, line) {
            return Err(BatchError::SameId {
                manifest: path.to_path_buf(),
                first,
                line,
                label: progress::label(&id),
            }
            .into());
        }
        if !pick.takes(nonblank) {
            continue;
        }
        count += u64::from(!done.contains(&hash));
    }
    Ok(count)
}

/// The reader: each manifest line to a worker (or, when invalid, straight
/// to the output as an error line), until the end or an interruption.
/// Returns how many lines were skipped as already done.
fn dispatch(
    manifest: File,
    dir: &Path,
    done: &HashSet<u64>,
    pick: LinePick,
    jobs: &mpsc::SyncSender<Job>,
    events: &mpsc::Sender<Event>,
    cancel: &Cancel,
) -> u64 {
    let mut reader = BufReader::new(manifest);
    let (mut line, mut nonblank, mut skipped) = (0u64, 0u64, 0u64);
    loop {
        if cancel.is_cancelled() {
            return skipped;
        }
        let text = match next_line(&mut reader) {
            Ok(Some(text)) => text,
            Ok(None) => return skipped,
            Err(e) => {
                let _ = events.send(Event::Unreadable(e));
                return skipped;
            }
        };
        line += 1;
        if is_blank(&text) {
            continue;
        }
        nonblank += 1;
        if !pick.takes(nonblank) {
            continue;
        }
        let (id, job) = match &text {
            Line::Text(bytes) => {
                let id = line_id(bytes, line);
                let job = job(bytes, line, id.clone(), dir);
                (id, job)
            }
            Line::TooLong => (Value::from(line), Err(ManifestError::TooLong)),
        };
        if done.contains(&id_hash(&id)) {
            skipped += 1;
            continue;
        }
        match job {
            Ok(job) => {
                if jobs.send(job).is_err() {
                    return skipped;
                }
            }
            Err(why) => {
                let text = error_line(&id, line, &format!("manifest line {line}: {why}"));
                let _ = events.send(Event::Rejected(text));
            }
        }
    }
}

/// A worker: runs checks until the reader is done.
fn work(jobs: &Mutex<mpsc::Receiver<Job>>, events: &mpsc::Sender<Event>, cancel: &Cancel) {
    loop {
        // The lock is held only while waiting for the next job.
        let job = match jobs.lock() {
            Ok(receiver) => receiver.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        if cancel.is_cancelled() {
            return;
        }
        let _ = events.send(Event::Started {
            line: job.line,
            label: progress::label(&job.id),
        });
        let started = Instant::now();
        let finished = match check::execute(&job.args, cancel) {
            Ok(checked) => {
                let record = &checked.record;
                let outcome = check::end_of(&record.verdict, cancel);
                match outcome {
                    // Ended by the interruption: not a result, not written,
                    // so a resumed batch runs it again.
                    CheckEnd::Interrupted => None,
                    CheckEnd::Pass | CheckEnd::Fail | CheckEnd::Inconclusive => {
                        Some(verdict_line(&job, &checked, outcome, started.elapsed()))
                    }
                }
            }
            Err(e) => Some(error_line(&job.id, job.line, &e.to_string())),
        };
        let _ = events.send(Event::Finished {
            line: job.line,
            took: started.elapsed(),
            finished,
        });
    }
}

fn verdict_line(
    job: &Job,
    checked: &check::Checked,
    outcome: CheckEnd,
    took: Duration,
) -> Finished {
    let record = &checked.record;
    let (exit_code, tally) = match outcome {
        CheckEnd::Pass => (exit::SUCCESS, Tally::Pass),
        CheckEnd::Fail => (exit::FAIL, Tally::Fail),
        CheckEnd::Inconclusive => (exit::INCONCLUSIVE, Tally::Inconclusive),
        CheckEnd::Interrupted => (exit::INTERRUPTED, Tally::Inconclusive),
    };
    let as_expected = job.expect_verdict.as_ref().map(|e| met(e, &record.verdict));
    let line = BatchLine {
        schema: BATCH_SCHEMA,
        id: job.id.clone(),
        line: job.line,
        exit_code,
        as_expected,
        error: None,
        duration_ms: u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
        result: Some(checked.document()),
    };
    match to_line(&line) {
        Ok(text) => Finished {
            text,
            tally,
            unexpected: as_expected == Some(false),
        },
        Err(e) => error_line(
            &job.id,
            job.line,
            &format!("cannot serialise the result: {e}"),
        ),
    }
}

fn error_line(id: &Value, line: u64, why: &str) -> Finished {
    let result = BatchLine {
        schema: BATCH_SCHEMA,
        id: id.clone(),
        line,
        exit_code: exit::TROUBLE,
        as_expected: None,
        error: Some(why.to_owned()),
        duration_ms: 0,
        result: None,
    };
    Finished {
        // A line of strings and numbers serialises.
        text: to_line(&result).unwrap_or_default(),
        tally: Tally::Error,
        unexpected: false,
    }
}

/// A result line's text: through the one writer of testgate's JSON.
fn to_line(line: &BatchLine<'_>) -> serde_json::Result<String> {
    crate::json::line_text(line)
}
