//! Throughput and peak memory of the parsers on large generated logs.
//!
//! ```text
//! cargo run --release -p testgate-parse --example bench -- [--mb 200] [--dir DIR] [--only LOG,…]
//! ```
//!
//! Writes one log per runner (libtest text, `go test -v`, `pytest -v`, and
//! `go test -json`'s events of tests that log heavily, made by generators
//! below; and a captured real log of each of cargo, go `-v` and pytest `-v`
//! from `tests/fixtures/`, repeated) of `--mb` megabytes into a fresh
//! directory under `--dir` (the system temp directory by default; removed
//! at the end), then prints for each:
//! - MB/s parsing it with its own format and with `Format::Auto`, read in
//!   64 KiB chunks as `testgate parse` reads it (page cache warm), and with
//!   `Format::Auto` and the environment and coverage scans, as the facade
//!   reads each attempt's output,
//! - for the events, `events MB/s`: as the facade reads `go test -json`'s
//!   stdout (the events parsed as go's report, rendered back to text by
//!   `GoEvents`, and that text parsed with the scans as the console),
//! - the time of `wc -l` on the same file, for scale, and the ratios of
//!   each to it: every run of the parser follows a run of `wc -l`, and
//!   each ratio divides the best of three by the best of the three `wc -l`
//!   runs beside them, so that both are measured under the same load (the
//!   load average is printed before and after),
//! - with the scans, the same log as each CI system stores it (a prefix
//!   before every line: GitHub Actions' timestamp, GitLab's, Buildkite's,
//!   Jenkins', `docker compose`'s, Actions' with `docker compose`'s)
//!   against the bare log: the cost of taking the CI's prefixes off,
//! - the peak RSS (VmHWM) of a child process that parses it one-shot (the
//!   whole file read into memory) and one that streams it.
//!
//! `--gen DIR` only writes the logs into DIR and keeps them (`--shapes`:
//! each also as every CI shape stores it, `NAME-SHAPE.log`); `--mode stream
//! FILE` parses one with `Format::Auto`, `--mode scans FILE` with the scans
//! too, `--mode events FILE` a `go-json` log as the facade reads it, `--mode
//! floor FILE` only cuts it into lines and notes each in a set of names
//! (the floor of a parser that lists every test), `--mode lines FILE` only
//! cuts it into lines and looks at each line's first byte (the floor of any
//! parser that reads line by line) (for a profiler, or callgrind's count of
//! instructions, which the machine's load cannot move).
//!
//! A program that prints figures, not a test: nothing here asserts a speed.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    reason = "a benchmark program writes its logs, reads them back and times itself; it times a bare \
              `wc -l` and re-runs itself to measure each mode's peak memory, outside any sandbox \
              or environment policy of testgate-run (the pure crate depends on none)"
)]

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use testgate_parse::{Format, GoEvents, Report, Runner, StreamParser};

const CHUNK: usize = 64 * 1024;
const MB: f64 = 1_000_000.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(mode) = flag(&args, "--mode") {
        return child(&mode, &args);
    }
    let mb: u64 = flag(&args, "--mb").map_or(Ok(200), |v| v.parse())?;
    if let Some(keep) = flag(&args, "--gen") {
        // Only writes the logs into `keep` and leaves them, for a profiler
        // to run `--mode stream FILE` on.
        for (name, _, generate) in LOGS {
            let mut out = BufWriter::with_capacity(
                1 << 20,
                File::create(Path::new(&keep).join(format!("{name}.log")))?,
            );
            generate(&mut out, mb * 1_000_000)?;
            out.flush()?;
            if args.iter().any(|a| a == "--shapes") {
                let bare = Path::new(&keep).join(format!("{name}.log"));
                for shape in SHAPES {
                    let to = Path::new(&keep).join(format!("{name}-{}.log", shape.name()));
                    prefix_lines(&bare, &to, shape)?;
                }
            }
        }
        return Ok(());
    }
    let base = flag(&args, "--dir").map_or_else(std::env::temp_dir, PathBuf::from);
    let dir = TempDir::new(&base)?;

    println!(
        "testgate-parse bench: {mb} MB per log, read in {} KiB chunks",
        CHUNK / 1024
    );
    println!("MB/s per CPU second of the measuring thread (wall-clock MB/s in brackets: the");
    println!("machine may be shared); `wc -l` by its CPU time as a child; best of 3 runs.");
    println!(
        "{:<8} {:>5} {:>8} {:>15} {:>15} {:>15} {:>15} {:>7} {:>8} {:>7} {:>9} {:>9}",
        "log",
        "MB",
        "lines",
        "explicit MB/s",
        "auto MB/s",
        "+scans MB/s",
        "wc -l MB/s",
        "auto/wc",
        "+scans/wc",
        "CI/bare",
        "RSS whole",
        "RSS strm"
    );
    // `--only libtest,go`: those logs alone.
    let only = flag(&args, "--only");
    for (name, format, generate) in LOGS {
        if only
            .as_deref()
            .is_some_and(|only| !only.split(',').any(|n| n == name))
        {
            continue;
        }
        let path = dir.0.join(format!("{name}.log"));
        let size = {
            let mut out = BufWriter::with_capacity(1 << 20, File::create(&path)?);
            generate(&mut out, mb * 1_000_000)?;
            out.flush()?;
            std::fs::metadata(&path)?.len()
        };
        let mbytes = size as f64 / MB;
        let load_before = load_average();
        wc_l(&path)?; // warms the page cache for the runs below
        let (wc_explicit, explicit, report) = best_with_wc(&path, || stream_file(format, &path))?;
        let (wc_auto, auto, auto_report) =
            best_with_wc(&path, || stream_file(Format::Auto, &path))?;
        let (wc_scans, scanned, _) = best_with_wc(&path, || scan_file(&path))?;
        let wc = [wc_explicit, wc_auto, wc_scans]
            .into_iter()
            .min_by_key(|t| t.cpu)
            .unwrap_or(wc_auto);
        let events = if name == "go-json" {
            Some(best_of(3, || events_file(&path))?.0)
        } else {
            None
        };
        // Each CI shape's prefixes on every line, parsed with the scans as
        // the facade reads it, against the bare log with the scans.
        let mut shapes = Vec::new();
        let mut ci_report = None;
        for shape in SHAPES {
            let ci_path = dir.0.join(format!("{name}-{}.log", shape.name()));
            prefix_lines(&path, &ci_path, shape)?;
            let (ci, report) = best_of(3, || scan_file(&ci_path))?;
            std::fs::remove_file(&ci_path)?;
            shapes.push((shape, ci.cpu.as_secs_f64() / scanned.cpu.as_secs_f64()));
            ci_report.get_or_insert(report);
        }
        let ci = shapes.first().map_or(0.0, |(_, ratio)| *ratio);
        let ci_report = ci_report.unwrap_or_default();
        let rss_whole = peak_rss_kib("oneshot", &path)?;
        let rss_stream = peak_rss_kib("stream", &path)?;
        let rate = |t: Times| {
            format!(
                "{:.0} ({:.0})",
                mbytes / t.cpu.as_secs_f64(),
                mbytes / t.wall.as_secs_f64()
            )
        };
        println!(
            "{:<8} {:>5.0} {:>8} {:>15} {:>15} {:>15} {:>15} {:>6.2}x {:>7.2}x {:>6.2}x {:>5.1} MiB {:>5.1} MiB",
            name,
            mbytes,
            report.lines,
            rate(explicit),
            rate(auto),
            rate(scanned),
            rate(wc),
            auto.cpu.as_secs_f64() / wc_auto.cpu.as_secs_f64(),
            scanned.cpu.as_secs_f64() / wc_scans.cpu.as_secs_f64(),
            ci,
            rss_whole as f64 / 1024.0,
            rss_stream as f64 / 1024.0,
        );
        if let Some(events) = events {
            println!(
                "         events MB/s (report + render + console): {}",
                rate(events)
            );
        }
        let shapes: Vec<String> = shapes
            .iter()
            .map(|(shape, ratio)| format!("{} {ratio:.2}x", shape.name()))
            .collect();
        println!("         with the scans, CI / bare: {}", shapes.join(", "));
        println!(
            "         explicit / wc -l {:.2}x; load average before {load_before}, after {}",
            explicit.cpu.as_secs_f64() / wc_explicit.cpu.as_secs_f64(),
            load_average()
        );
        println!(
            "         names: explicit {}, auto {}, as CI log {}; detected {:?}; counts {:?}",
            report.failing.len(),
            auto_report.failing.len(),
            ci_report.failing.len(),
            auto_report.format,
            auto_report.counts
        );
        std::fs::remove_file(&path)?;
    }
    Ok(())
}

/// The value after `name` in `args`.
fn flag(args: &[String], name: &str) -> Option<String> {
    let at = args.iter().position(|a| a == name)?;
    args.get(at + 1).cloned()
}

/// The child process of a peak-memory measurement: parses FILE (the last
/// argument) with `Format::Auto` one-shot or streamed and prints its VmHWM.
fn child(mode: &str, args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let path = PathBuf::from(args.last().ok_or("--mode needs a FILE")?);
    let report = match mode {
        "oneshot" => testgate_parse::parse(Format::Auto, std::fs::read(&path)?),
        "stream" => stream_file(Format::Auto, &path)?,
        "scans" => scan_file(&path)?,
        "events" => events_file(&path)?,
        "floor" => {
            std::hint::black_box(floor_file(&path)?);
            Report::default()
        }
        "lines" => {
            std::hint::black_box(lines_file(&path)?);
            Report::default()
        }
        other => return Err(format!("unknown mode {other}").into()),
    };
    std::hint::black_box(&report);
    println!("{}", vm_hwm_kib()?);
    Ok(())
}

fn peak_rss_kib(mode: &str, path: &Path) -> Result<u64, Box<dyn std::error::Error>> {
    let out = Command::new(std::env::current_exe()?)
        .arg("--mode")
        .arg(mode)
        .arg(path)
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "bench --mode {mode} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    Ok(String::from_utf8(out.stdout)?.trim().parse()?)
}

/// The process's peak resident set size, from `/proc/self/status`.
fn vm_hwm_kib() -> Result<u64, Box<dyn std::error::Error>> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .ok_or("no VmHWM in /proc/self/status")?;
    Ok(line.trim().trim_end_matches("kB").trim().parse()?)
}

/// The first field of `/proc/loadavg`: how loaded the shared machine was.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_default()
}

/// The best of 3 runs of `f`, each right after a run of `wc -l` on
/// `path`, and the best of those `wc -l` runs: on a machine others load,
/// the two are measured under the same load.
fn best_with_wc<T>(
    path: &Path,
    mut f: impl FnMut() -> io::Result<T>,
) -> Result<(Times, Times, T), Box<dyn std::error::Error>> {
    let mut wc = Times {
        wall: Duration::MAX,
        cpu: Duration::MAX,
    };
    let mut best = wc;
    let mut last = None;
    for _ in 0..3 {
        let once = wc_l_once(path)?;
        wc = Times {
            wall: wc.wall.min(once.wall),
            cpu: wc.cpu.min(once.cpu),
        };
        let (t, value) = best_of(1, &mut f)?;
        best = Times {
            wall: best.wall.min(t.wall),
            cpu: best.cpu.min(t.cpu),
        };
        last = Some(value);
    }
    Ok((wc, best, last.ok_or("no runs")?))
}

/// The time `wc -l` takes on `path`, best of 3.
fn wc_l(path: &Path) -> Result<Times, Box<dyn std::error::Error>> {
    let mut best = Times {
        wall: Duration::MAX,
        cpu: Duration::MAX,
    };
    for _ in 0..3 {
        let once = wc_l_once(path)?;
        best = Times {
            wall: best.wall.min(once.wall),
            cpu: best.cpu.min(once.cpu),
        };
    }
    Ok(best)
}

/// The time `wc -l` takes on `path`, by its CPU time as a child. The kernel
/// counts children's time in 10 ms ticks, so `wc` reads the file
/// `WC_REPEAT` times in one run and the time is divided.
fn wc_l_once(path: &Path) -> Result<Times, Box<dyn std::error::Error>> {
    const WC_REPEAT: u32 = 5;
    {
        let before = children_cpu()?;
        let start = Instant::now();
        let out = Command::new("wc")
            .arg("-l")
            .args(std::iter::repeat_n(path, WC_REPEAT as usize))
            .output()?;
        let wall = start.elapsed() / WC_REPEAT;
        if !out.status.success() {
            return Err("wc -l failed".into());
        }
        let cpu = children_cpu()?.saturating_sub(before) / WC_REPEAT;
        Ok(Times {
            wall,
            cpu: cpu.max(Duration::from_millis(1)),
        })
    }
}

/// CPU time of waited-for children (user + system), from `/proc/self/stat`.
fn children_cpu() -> io::Result<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // Counted from the field after the parenthesised command name (field 3):
    // cutime and cstime, fields 16 and 17, are at 13 and 14.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    Ok(Duration::from_millis(
        (ticks(13) + ticks(14)) * 1000 / CLOCK_TICKS,
    ))
}

/// `getconf CLK_TCK` on Linux everywhere that matters.
const CLOCK_TICKS: u64 = 100;

/// This thread's CPU time, from `/proc/thread-self/schedstat` (ns).
fn thread_cpu() -> io::Result<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")?;
    let ns = stat
        .split_whitespace()
        .next()
        .and_then(|f| f.parse().ok())
        .unwrap_or(0);
    Ok(Duration::from_nanos(ns))
}

/// Wall-clock and CPU time of one measurement.
#[derive(Debug, Clone, Copy)]
struct Times {
    wall: Duration,
    cpu: Duration,
}

/// A CI system's prefix on every line of a job's log (the shapes of
/// `tests/parse/ci_shapes.rs`, line by line; Azure Pipelines' is GitHub
/// Actions', GitLab's raw trace has none).
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// An RFC 3339 timestamp with seven digits of fraction.
    Actions,
    /// GitLab's job log timestamps: the time and the stream tag `00O `.
    GitLab,
    /// Buildkite's APC `ESC _bk;t=MILLIS BEL`.
    Buildkite,
    /// Jenkins' Timestamper, `[…Z] `.
    Jenkins,
    /// `docker compose`'s `app-1  | `.
    Compose,
    /// `docker compose` in an Actions step: the timestamp, then the service.
    ActionsCompose,
}

const SHAPES: [Shape; 6] = [
    Shape::Actions,
    Shape::GitLab,
    Shape::Buildkite,
    Shape::Jenkins,
    Shape::Compose,
    Shape::ActionsCompose,
];

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::Actions => "actions",
            Shape::GitLab => "gitlab",
            Shape::Buildkite => "buildkite",
            Shape::Jenkins => "jenkins",
            Shape::Compose => "compose",
            Shape::ActionsCompose => "actions+compose",
        }
    }

    /// Writes line `n`'s prefix.
    fn prefix(self, out: &mut impl Write, n: u64) -> io::Result<()> {
        let actions = |out: &mut dyn Write| {
            write!(
                out,
                "2026-12-03T10:{:02}:{:02}.{:07}Z ",
                n / 60 % 60,
                n % 60,
                n % 10_000_000
            )
        };
        match self {
            Shape::Actions => actions(out),
            Shape::GitLab => write!(
                out,
                "2026-12-03T10:00:{:02}.{:06}Z 00O ",
                n % 60,
                n % 1_000_000
            ),
            Shape::Buildkite => write!(out, "\x1b_bk;t={}\x07", 1_764_756_000_000 + n),
            Shape::Jenkins => write!(out, "[2026-12-03T10:00:{:02}.{:03}Z] ", n % 60, n % 1000),
            Shape::Compose => write!(out, "app-1  | "),
            Shape::ActionsCompose => {
                actions(out)?;
                write!(out, "app-1  | ")
            }
        }
    }
}

/// Writes the log at `from` to `to` as `shape`'s CI stores it: its prefix
/// before every line.
fn prefix_lines(from: &Path, to: &Path, shape: Shape) -> io::Result<()> {
    use std::io::BufRead;
    let mut lines = io::BufReader::with_capacity(1 << 20, File::open(from)?);
    let mut out = BufWriter::with_capacity(1 << 20, File::create(to)?);
    let mut line = Vec::new();
    let mut n = 0u64;
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        shape.prefix(&mut out, n)?;
        out.write_all(&line)?;
        n += 1;
    }
    out.flush()
}

/// Parses the file at `path` as `testgate parse` does: 64 KiB reads.
fn stream_file(format: impl Into<Format>, path: &Path) -> io::Result<Report> {
    let mut file = File::open(path)?;
    let mut buf = vec![0; CHUNK];
    let mut parser = StreamParser::new(format);
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(parser.finish());
        }
        parser.feed(&buf[..n]);
    }
}

/// The floor of any parser that records every test: the file read in
/// 64 KiB chunks, cut into lines by `memchr`, and each line (its first 128
/// bytes) looked up in a set of names and added while the set holds fewer
/// than `MAX_TESTS`, as the every-test list holds a name; no cleaning, no
/// recogniser, no scan. Gives the set's size.
fn floor_file(path: &Path) -> io::Result<usize> {
    use std::collections::HashSet;
    let mut file = File::open(path)?;
    let mut buf = vec![0; CHUNK];
    let mut names: HashSet<Vec<u8>, foldhash::fast::RandomState> = HashSet::default();
    let mut partial = Vec::new();
    let mut note = |line: &[u8]| {
        let name = line.get(..128).unwrap_or(line);
        if !names.contains(name) && names.len() < testgate_parse::MAX_TESTS {
            names.insert(name.to_vec());
        }
    };
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            note(&partial);
            break;
        }
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &buf[..n]) {
            if partial.is_empty() {
                note(&buf[start..end]);
            } else {
                partial.extend_from_slice(&buf[start..end]);
                note(&partial);
                partial.clear();
            }
            start = end + 1;
        }
        partial.extend_from_slice(&buf[start..n]);
    }
    Ok(names.len())
}

/// The floor of any parser that reads a log line by line: the file read
/// in 64 KiB chunks and cut into lines by `memchr`, each line's first byte
/// looked at (a line carried over a chunk's end is copied, as the stream
/// does); nothing noted. Gives the count of lines starting with `t`.
fn lines_file(path: &Path) -> io::Result<usize> {
    let mut file = File::open(path)?;
    let mut buf = vec![0; CHUNK];
    let mut partial = Vec::new();
    let mut count = 0usize;
    let mut look = |line: &[u8]| {
        if std::hint::black_box(line).first() == Some(&b't') {
            count += 1;
        }
    };
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            look(&partial);
            break;
        }
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &buf[..n]) {
            if partial.is_empty() {
                look(&buf[start..end]);
            } else {
                partial.extend_from_slice(&buf[start..end]);
                look(&partial);
                partial.clear();
            }
            start = end + 1;
        }
        partial.extend_from_slice(&buf[start..n]);
    }
    Ok(count)
}

/// Parses the file at `path` as the facade reads an attempt's output:
/// `Format::Auto`, with the environment and coverage scans on its lines.
fn scan_file(path: &Path) -> io::Result<Report> {
    let mut file = File::open(path)?;
    let mut buf = vec![0; CHUNK];
    let mut parser = StreamParser::new(Format::Auto).with_scans();
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            let scanned = parser.finish_scanned();
            std::hint::black_box((&scanned.environment, scanned.coverage_below_threshold));
            return Ok(scanned.report);
        }
        parser.feed(&buf[..n]);
    }
}

/// Reads `go test -json`'s stdout at `path` as the facade does
/// (`crates/testgate/src/capture.rs`): each event read once by `GoEvents`,
/// which hands go's report parser the lines it needs (all but the tests'
/// output) and renders the text that is parsed, with the scans, as the
/// console.
fn events_file(path: &Path) -> io::Result<Report> {
    let mut file = File::open(path)?;
    let mut buf = vec![0; CHUNK];
    let mut report = StreamParser::new(Runner::Go);
    let mut console = StreamParser::new(Format::Auto).with_scans();
    let mut renderer = GoEvents::new();
    let mut text = Vec::with_capacity(CHUNK);
    let mut lines = Vec::with_capacity(CHUNK);
    loop {
        let n = file.read(&mut buf)?;
        text.clear();
        lines.clear();
        if n == 0 {
            renderer.finish_split(&mut text, Some(&mut lines));
            report.feed(&lines);
            console.feed(&text);
            std::hint::black_box(console.finish_scanned());
            return Ok(report.finish());
        }
        renderer.feed_split(&buf[..n], &mut text, Some(&mut lines));
        report.feed(&lines);
        console.feed(&text);
    }
}

/// The fastest of `runs` runs of `f` (wall and CPU time apart), and the
/// last result.
fn best_of<T>(runs: u32, mut f: impl FnMut() -> io::Result<T>) -> io::Result<(Times, T)> {
    let mut best = Times {
        wall: Duration::MAX,
        cpu: Duration::MAX,
    };
    let mut last = None;
    for _ in 0..runs {
        let cpu = thread_cpu()?;
        let start = Instant::now();
        let value = f()?;
        let wall = start.elapsed();
        let cpu = thread_cpu()?
            .saturating_sub(cpu)
            .max(Duration::from_nanos(1));
        best = Times {
            wall: best.wall.min(wall),
            cpu: best.cpu.min(cpu),
        };
        last = Some(value);
    }
    Ok((best, last.ok_or_else(|| io::Error::other("no runs"))?))
}

/// A directory removed when dropped, also on an early error return.
struct TempDir(PathBuf);

impl TempDir {
    fn new(base: &Path) -> io::Result<TempDir> {
        let path = base.join(format!("testgate-bench-{}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        Ok(TempDir(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

type Generator = fn(&mut dyn Write, u64) -> io::Result<()>;

const LOGS: [(&str, Runner, Generator); 7] = [
    ("libtest", Runner::Cargo, libtest),
    ("go", Runner::Go, go_verbose),
    ("pytest", Runner::Pytest, pytest_verbose),
    ("go-json", Runner::Go, go_json),
    ("cargo-real", Runner::Cargo, cargo_real),
    ("go-real", Runner::Go, go_real),
    ("pytest-real", Runner::Pytest, pytest_real),
];

/// `log` written again and again until `target` bytes are: a captured
/// real run's log (`tests/fixtures/`, with `tests/capture/`'s scripts),
/// repeated, so that every line is one a real runner printed (its names
/// repeat with every copy, so the every-test list stays small).
fn repeated(out: &mut dyn Write, target: u64, log: &[u8]) -> io::Result<()> {
    let mut written = 0u64;
    while written < target {
        out.write_all(log)?;
        written += log.len().max(1) as u64;
    }
    Ok(())
}

/// `cargo test` over several test binaries, captured.
fn cargo_real(out: &mut dyn Write, target: u64) -> io::Result<()> {
    repeated(
        out,
        target,
        include_bytes!("../tests/fixtures/cargo/several_binaries.log"),
    )
}

/// `go test -v`, captured.
fn go_real(out: &mut dyn Write, target: u64) -> io::Result<()> {
    repeated(
        out,
        target,
        include_bytes!("../tests/fixtures/go/verbose.log"),
    )
}

/// `pytest -v`, captured.
fn pytest_real(out: &mut dyn Write, target: u64) -> io::Result<()> {
    repeated(
        out,
        target,
        include_bytes!("../tests/fixtures/pytest/verbose.log"),
    )
}

/// A small deterministic generator (xorshift64*): the logs are the same on
/// every run, and no dependency is needed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// True about once in `n` calls.
    fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[(self.next() % words.len() as u64) as usize]
    }
}

const WORDS: [&str; 16] = [
    "parse",
    "render",
    "empty",
    "unicode",
    "large_input",
    "nested",
    "roundtrip",
    "escapes",
    "config",
    "timeout",
    "retry",
    "invalid",
    "utf8",
    "whitespace",
    "ordering",
    "defaults",
];

/// A counter that says when `target` bytes have been written.
struct Sized<'a> {
    out: &'a mut dyn Write,
    written: u64,
}

impl Write for Sized<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// `cargo test` over many test binaries, libtest's text output.
fn libtest(out: &mut dyn Write, target: u64) -> io::Result<()> {
    let mut out = Sized { out, written: 0 };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    writeln!(out, "   Compiling bench-crate v0.1.0 (/src/bench-crate)")?;
    writeln!(
        out,
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in 41.07s"
    )?;
    let mut binary = 0u64;
    while out.written < target {
        binary += 1;
        let tests = 1500 + rng.next() % 1000;
        writeln!(
            out,
            "     Running tests/suite_{binary}.rs (target/debug/deps/suite_{binary}-{:016x})",
            rng.next()
        )?;
        writeln!(out, "\nrunning {tests} tests")?;
        let mut failed = Vec::new();
        let (mut passed, mut ignored) = (0, 0);
        for i in 0..tests {
            let name = format!(
                "{}::tests::{}_{}_{i}",
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.pick(&WORDS)
            );
            if rng.one_in(400) {
                writeln!(out, "test {name} ... FAILED")?;
                failed.push(name);
            } else if rng.one_in(50) {
                writeln!(out, "test {name} ... ignored, needs network")?;
                ignored += 1;
            } else {
                writeln!(out, "test {name} ... ok")?;
                passed += 1;
            }
        }
        if !failed.is_empty() {
            writeln!(out, "\nfailures:\n")?;
            for name in &failed {
                writeln!(out, "---- {name} stdout ----")?;
                writeln!(
                    out,
                    "\nthread '{name}' panicked at tests/suite_{binary}.rs:{}:9:",
                    rng.next() % 900
                )?;
                writeln!(
                    out,
                    "assertion `left == right` failed\n  left: 1\n right: 2"
                )?;
                writeln!(
                    out,
                    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
                )?;
            }
            writeln!(out, "\nfailures:")?;
            for name in &failed {
                writeln!(out, "    {name}")?;
            }
        }
        let result = if failed.is_empty() { "ok" } else { "FAILED" };
        writeln!(
            out,
            "\ntest result: {result}. {passed} passed; {} failed; {ignored} ignored; 0 measured; 0 filtered out; finished in {}.{:02}s\n",
            failed.len(),
            rng.next() % 10,
            rng.next() % 100
        )?;
    }
    Ok(())
}

/// `go test -v ./...` over many packages, with subtests and test logs.
fn go_verbose(out: &mut dyn Write, target: u64) -> io::Result<()> {
    let mut out = Sized { out, written: 0 };
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut package = 0u64;
    while out.written < target {
        package += 1;
        let mut package_failed = false;
        for t in 0..300 + rng.next() % 200 {
            let test = format!(
                "Test{}{}_{t}",
                capitalise(rng.pick(&WORDS)),
                capitalise(rng.pick(&WORDS))
            );
            writeln!(out, "=== RUN   {test}")?;
            let mut test_failed = false;
            let subtests = rng.next() % 4;
            let mut results = Vec::new();
            for s in 0..subtests {
                let sub = format!("{test}/{}_{s}", rng.pick(&WORDS));
                writeln!(out, "=== RUN   {sub}")?;
                if rng.one_in(3) {
                    writeln!(
                        out,
                        "    {}_test.go:{}: checking {}",
                        rng.pick(&WORDS),
                        rng.next() % 500,
                        rng.pick(&WORDS)
                    )?;
                }
                let fail = rng.one_in(300);
                if fail {
                    writeln!(
                        out,
                        "    {}_test.go:{}: got 1, want 2",
                        rng.pick(&WORDS),
                        rng.next() % 500
                    )?;
                }
                test_failed |= fail;
                results.push((sub, fail));
            }
            if subtests == 0 && rng.one_in(200) {
                writeln!(
                    out,
                    "    {}_test.go:{}: unexpected error: EOF",
                    rng.pick(&WORDS),
                    rng.next() % 500
                )?;
                test_failed = true;
            }
            let verdict = if test_failed { "FAIL" } else { "PASS" };
            writeln!(out, "--- {verdict}: {test} (0.{:02}s)", rng.next() % 100)?;
            for (sub, fail) in results {
                let verdict = if fail { "FAIL" } else { "PASS" };
                writeln!(out, "    --- {verdict}: {sub} (0.00s)")?;
            }
            package_failed |= test_failed;
        }
        if package_failed {
            writeln!(
                out,
                "FAIL\nFAIL\texample.com/bench/pkg{package}\t0.{:03}s",
                rng.next() % 1000
            )?;
        } else {
            writeln!(
                out,
                "PASS\nok  \texample.com/bench/pkg{package}\t0.{:03}s",
                rng.next() % 1000
            )?;
        }
    }
    writeln!(out, "FAIL")
}

/// `go test -json`'s events of packages whose passing tests log heavily
/// (a few `t.Log` lines each, printed only in verbose mode, and so in the
/// events): each line an event as go 1.26 writes it.
fn go_json(out: &mut dyn Write, target: u64) -> io::Result<()> {
    let mut out = Sized { out, written: 0 };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut package = 0u64;
    let time = "2026-12-06T14:00:16.809353643Z";
    while out.written < target {
        package += 1;
        let pkg = format!("example.com/bench/pkg{package}");
        writeln!(
            out,
            r#"{{"Time":"{time}","Action":"start","Package":"{pkg}"}}"#
        )?;
        for t in 0..200 + rng.next() % 100 {
            let test = format!("Test{}_{t}", capitalise(rng.pick(&WORDS)));
            let output = |out: &mut Sized<'_>, text: &str| {
                writeln!(
                    out,
                    r#"{{"Time":"{time}","Action":"output","Package":"{pkg}","Test":"{test}","Output":"{text}\n"}}"#
                )
            };
            writeln!(
                out,
                r#"{{"Time":"{time}","Action":"run","Package":"{pkg}","Test":"{test}"}}"#
            )?;
            output(&mut out, &format!("=== RUN   {test}"))?;
            for _ in 0..rng.next() % 8 {
                output(
                    &mut out,
                    &format!(
                        r#"    {}_test.go:{}: {} \"{}\" took {}\tms"#,
                        rng.pick(&WORDS),
                        rng.next() % 500,
                        rng.pick(&WORDS),
                        rng.pick(&WORDS),
                        rng.next() % 100
                    ),
                )?;
            }
            output(&mut out, &format!("--- PASS: {test} (0.00s)"))?;
            writeln!(
                out,
                r#"{{"Time":"{time}","Action":"pass","Package":"{pkg}","Test":"{test}","Elapsed":0}}"#
            )?;
        }
        writeln!(
            out,
            r#"{{"Time":"{time}","Action":"output","Package":"{pkg}","Output":"PASS\n"}}"#
        )?;
        writeln!(
            out,
            r#"{{"Time":"{time}","Action":"output","Package":"{pkg}","Output":"ok  \t{pkg}\t0.{:03}s\n"}}"#,
            rng.next() % 1000
        )?;
        writeln!(
            out,
            r#"{{"Time":"{time}","Action":"pass","Package":"{pkg}","Elapsed":0.01}}"#
        )?;
    }
    Ok(())
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `pytest -v`, many sessions (one per CI step), each with a failures section
/// and a short summary.
fn pytest_verbose(out: &mut dyn Write, target: u64) -> io::Result<()> {
    let mut out = Sized { out, written: 0 };
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let rule = |title: &str| {
        let pad = 80usize.saturating_sub(title.len() + 2);
        format!(
            "{} {title} {}",
            "=".repeat(pad / 2),
            "=".repeat(pad - pad / 2)
        )
    };
    while out.written < target {
        let tests = 4000 + rng.next() % 2000;
        writeln!(out, "{}", rule("test session starts"))?;
        writeln!(
            out,
            "platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0 -- /usr/bin/python3"
        )?;
        writeln!(
            out,
            "cachedir: .pytest_cache\nrootdir: /src/bench\nconfigfile: pyproject.toml"
        )?;
        writeln!(out, "collecting ... collected {tests} items\n")?;
        let mut failed = Vec::new();
        let mut passed = 0;
        for i in 0..tests {
            let id = format!(
                "tests/test_{}.py::test_{}_{}_{i}",
                rng.pick(&WORDS),
                rng.pick(&WORDS),
                rng.pick(&WORDS)
            );
            let param = if rng.one_in(4) {
                format!("[{}-{}]", rng.pick(&WORDS), rng.next() % 10)
            } else {
                String::new()
            };
            let id = format!("{id}{param}");
            let fail = rng.one_in(500);
            let verdict = if fail { "FAILED" } else { "PASSED" };
            let left = format!("{id} {verdict}");
            let pct = format!("[{:>3}%]", i * 100 / tests);
            let pad = 80usize.saturating_sub(left.len() + pct.len()).max(1);
            writeln!(out, "{left}{}{pct}", " ".repeat(pad))?;
            if fail {
                failed.push(id);
            } else {
                passed += 1;
            }
        }
        if !failed.is_empty() {
            writeln!(out, "\n{}", rule("FAILURES"))?;
            for id in &failed {
                let short = id.rsplit("::").next().unwrap_or(id);
                writeln!(out, "{}", rule(short).replace('=', "_"))?;
                writeln!(
                    out,
                    "\n    def {}():",
                    short.split('[').next().unwrap_or(short)
                )?;
                writeln!(
                    out,
                    ">       assert parse(\"\") == []\nE       AssertionError: assert None == []\nE        +  where None = parse('')\n"
                )?;
                writeln!(
                    out,
                    "{}:{}: AssertionError",
                    id.split("::").next().unwrap_or(id),
                    rng.next() % 300
                )?;
            }
            writeln!(out, "{}", rule("short test summary info"))?;
            for id in &failed {
                writeln!(out, "FAILED {id} - AssertionError: assert None == []")?;
            }
        }
        let summary = if failed.is_empty() {
            format!(
                "{passed} passed in {}.{:02}s",
                rng.next() % 60,
                rng.next() % 100
            )
        } else {
            format!(
                "{} failed, {passed} passed in {}.{:02}s",
                failed.len(),
                rng.next() % 60,
                rng.next() % 100
            )
        };
        writeln!(out, "{}", rule(&summary))?;
    }
    Ok(())
}
