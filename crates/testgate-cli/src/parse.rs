//! `testgate parse`: failing test names from runner logs.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use testgate_parse::{Format, Report, StreamParser};

use crate::{Error, FormatArg};

/// How much of an input is read at a time: inputs are streamed, never held
/// whole in memory.
const CHUNK: usize = 64 * 1024;

/// Print the failing tests named in test-runner logs.
///
/// Reads each FILE (standard input when none is given, or for `-`) as the
/// output of cargo test, cargo nextest, pytest, go test, jest, vitest, mocha,
/// `node --test` or Python's unittest (also Django's test runner), or
/// as a runner's own report — JUnit XML (pytest --junitxml, nextest, vitest,
/// jest-junit, go-junit-report) or jest's and vitest's JSON — recognised by
/// its first bytes and read whole, and
/// prints the failing tests' names, one per line, in order of first
/// appearance. Each file is a separate log: its names are printed in turn,
/// so a name failing in two files is printed twice.
///
/// With --json, prints one JSON object per file, one per line: the parse
/// report (format, failing [{name, format, context}], counts {passed,
/// failed, skipped}, no_tests_ran, lines, long_lines, sections: one per
/// runner per CI step, with the step's command, its lines and its failing
/// tests) and a "file" field holding the path as given ("-" for standard
/// input).
///
/// Exits 0 when every input was parsed, failing tests or not; 2 on a usage
/// error or an input that cannot be read (files after it are not read).
#[derive(Debug, clap::Args)]
pub(crate) struct ParseArgs {
    /// The runner that wrote the logs; `auto` recognises every runner, also
    /// several one after another in one log.
    #[arg(long, value_name = "FORMAT", value_enum, default_value = "auto")]
    format: FormatArg,

    /// Print one JSON report per file instead of names.
    #[arg(long)]
    json: bool,

    /// The logs to read; `-` is standard input.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Whether `path` names standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Runs `testgate parse`.
pub(crate) fn run(args: &ParseArgs) -> Result<(), Error> {
    let stdin = [PathBuf::from("-")];
    let files = if args.files.is_empty() {
        &stdin[..]
    } else {
        &args.files[..]
    };
    let mut buf = vec![0; CHUNK];
    let mut out = io::BufWriter::new(io::stdout().lock());
    for path in files {
        let report = parse_input(args.format.0, path, &mut buf).map_err(|source| Error::Read {
            path: path.clone(),
            source,
        })?;
        print_report(&mut out, path, &report, args.json).map_err(Error::Write)?;
        // Each file's result is out before the next file is read, so a slow
        // or failing later input does not hold back an earlier one's.
        out.flush().map_err(Error::Write)?;
    }
    Ok(())
}

/// Streams the input at `path` through a parser, `buf.len()` bytes at a time.
fn parse_input(format: Format, path: &Path, buf: &mut [u8]) -> io::Result<Report> {
    let input: Box<dyn Read> = if is_stdin(path) {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(path)?)
    };
    parse_stream(format, input, buf)
}

/// What `text` (a log, or a runner's report) says, read as `parse` reads a
/// file: `testgate mcp`'s `parse` tool.
pub(crate) fn parse_text(format: Format, text: &[u8]) -> io::Result<Report> {
    parse_stream(format, Box::new(text), &mut vec![0; CHUNK])
}

/// Streams `input` through a parser, `buf.len()` bytes at a time; a
/// runner's report, recognised by its first bytes, is read whole.
fn parse_stream(
    format: Format,
    mut input: Box<dyn Read + '_>,
    buf: &mut [u8],
) -> io::Result<Report> {
    let mut parser = StreamParser::new(format);
    let mut first = true;
    loop {
        match input.read(buf) {
            Ok(0) => return Ok(parser.finish()),
            Ok(n) => {
                let chunk = buf.get(..n).unwrap_or_default();
                if std::mem::take(&mut first) {
                    if testgate_parse::is_junit(chunk) {
                        return whole_report(chunk, input, testgate_parse::parse_junit);
                    }
                    if testgate_parse::is_json_report(chunk) {
                        return whole_report(chunk, input, testgate_parse::parse_json_report);
                    }
                }
                parser.feed(chunk);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The largest runner report read: it is parsed whole.
const MAX_REPORT: u64 = 256 << 20;

/// A runner's report (JUnit XML, jest's or vitest's JSON), `start` and the
/// rest of `input`, read whole (up to [`MAX_REPORT`]) and parsed as one
/// document by `parse`.
fn whole_report(
    start: &[u8],
    input: Box<dyn Read + '_>,
    parse: fn(&[u8]) -> Result<Report, testgate_parse::ReportError>,
) -> io::Result<Report> {
    let mut xml = start.to_vec();
    let limit = MAX_REPORT.saturating_sub(xml.len() as u64);
    input.take(limit.saturating_add(1)).read_to_end(&mut xml)?;
    if xml.len() as u64 > MAX_REPORT {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a runner's report larger than {} MiB", MAX_REPORT >> 20),
        ));
    }
    parse(&xml).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

fn print_report(out: &mut impl Write, path: &Path, report: &Report, json: bool) -> io::Result<()> {
    if json {
        crate::json::write_printable(&mut *out, &crate::json::parse_document(path, report))?;
        writeln!(out)
    } else {
        report.names().try_for_each(|name| writeln!(out, "{name}"))
    }
}
