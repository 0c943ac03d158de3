//! The manifest of `testgate batch`: its lines read in bounded memory, each
//! read as testgate-documents' `ManifestEntry` and turned into `check`'s
//! options through `check`'s own parser.

use std::io::{self, BufRead, Read};
use std::path::Path;

use clap::Parser;
use serde_json::Value;
use testgate::Verdict;
use testgate_documents::{
    ExpectVerdict as Expect, ManifestEntry, ManifestEnv, ManifestExpect, ManifestId,
};

use crate::check::CheckArgs;

/// The longest manifest line read; a longer one is an error line, skipped.
pub(super) const MAX_LINE: usize = 1 << 20;

/// A check ready to run.
#[derive(Debug)]
pub(super) struct Job {
    pub(super) line: u64,
    pub(super) id: Value,
    pub(super) args: Box<CheckArgs>,
    pub(super) expect_verdict: Option<Expect>,
}

/// Why a manifest line is no check: a one-line message, after the line's
/// number.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ManifestError {
    /// The line is longer than [`MAX_LINE`].
    #[error("the line is longer than {MAX_LINE} bytes")]
    TooLong,
    /// The line is not a manifest entry.
    #[error(transparent)]
    Document(#[from] crate::json::DocumentError),
    /// `expect_verdict` names no verdict.
    #[error("`expect_verdict` names no verdict: `{0}` (pass, fail or inconclusive)")]
    NoVerdict(String),
    /// `check`'s parser refused the options the line makes: clap's
    /// message on one line.
    #[error("{}", first_line(&.0.to_string()))]
    Options(#[source] clap::Error),
}

/// A manifest line: its bytes, or a line too long to hold (skipped to its
/// end).
pub(super) enum Line {
    /// The line's bytes without the newline.
    Text(Vec<u8>),
    /// Longer than [`MAX_LINE`]; skipped to its end.
    TooLong,
}

/// The next line of `reader`, at most [`MAX_LINE`] bytes held.
pub(super) fn next_line(reader: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    let ended = bytes.last() == Some(&b'\n');
    if ended {
        bytes.pop();
        return Ok(Some(Line::Text(bytes)));
    }
    if bytes.len() <= MAX_LINE {
        return Ok(Some(Line::Text(bytes)));
    }
    // Skip the rest of the line without holding it.
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(Some(Line::TooLong));
        }
        match memchr_newline(buffer) {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(Some(Line::TooLong));
            }
            None => {
                let length = buffer.len();
                reader.consume(length);
            }
        }
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

pub(super) fn is_blank(line: &Line) -> bool {
    matches!(line, Line::Text(bytes) if bytes.iter().all(u8::is_ascii_whitespace))
}

/// The id of a manifest line: its `id`, else its line number.
pub(super) fn line_id(bytes: &[u8], line: u64) -> Value {
    serde_json::from_slice::<ManifestId>(bytes)
        .ok()
        .and_then(|line| line.id)
        .unwrap_or_else(|| Value::from(line))
}

/// Whether `verdict` is what `expect_verdict` says.
pub(super) fn met(expect: &Expect, verdict: &Verdict) -> bool {
    let (want, cause, failing) = match expect {
        Expect::Verdict(verdict) => (verdict, None, None),
        Expect::Full {
            verdict,
            cause,
            failing,
        } => (verdict, cause.as_ref(), failing.as_ref()),
    };
    if verdict.name() != want {
        return false;
    }
    if cause.is_some_and(|c| verdict.cause().map(|v| v.name()) != Some(c.as_str())) {
        return false;
    }
    failing.is_none_or(|names| {
        let mut want: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut got: Vec<&str> = verdict.failing().iter().map(String::as_str).collect();
        want.sort_unstable();
        got.sort_unstable();
        want == got
    })
}

/// The check of manifest line `line`, or why it cannot be one. Its options
/// go through `check`'s own parser: the same values are accepted and the
/// same one-line messages given.
pub(super) fn job(bytes: &[u8], line: u64, id: Value, dir: &Path) -> Result<Job, ManifestError> {
    let mut entry: ManifestEntry = crate::json::read_document(bytes)?;
    refuse_unknown_verdict(entry.expect_verdict.as_ref())?;
    let mut words: Vec<String> = vec!["check".into(), "--json".into(), "--quiet".into()];
    push_run_words(&mut words, dir, &mut entry);
    push_view_words(&mut words, dir, &mut entry);
    let inline = push_grading_words(&mut words, dir, &mut entry);
    push_output_words(&mut words, dir, &mut entry);
    words.push("--".into());
    words.extend(std::mem::take(&mut entry.command));
    let CheckLine::Check(mut args) =
        CheckLine::try_parse_from(std::iter::once("testgate".to_owned()).chain(words))
            .map_err(ManifestError::Options)?;
    if let Some(file) = inline {
        args.expect_inline(file);
    }
    Ok(Job {
        line,
        id,
        args: Box::new(args),
        expect_verdict: entry.expect_verdict,
    })
}

/// Refuses an `expect_verdict` that names no verdict.
fn refuse_unknown_verdict(expect: Option<&Expect>) -> Result<(), ManifestError> {
    if let Some(Expect::Verdict(v) | Expect::Full { verdict: v, .. }) = expect
        && !matches!(v.as_str(), "pass" | "fail" | "inconclusive")
    {
        return Err(ManifestError::NoVerdict(v.clone()));
    }
    Ok(())
}

/// The words of how the check runs: its workspace, retries, timeout,
/// sandbox, environment, preparation, rerun and format.
fn push_run_words(words: &mut Vec<String>, dir: &Path, entry: &mut ManifestEntry) {
    push_flag(words, "-C", path_word(dir, &entry.workspace));
    if let Some(retries) = entry.retries {
        push_flag(words, "--retries", retries.to_string());
    }
    if let Some(timeout) = &entry.timeout {
        push_flag(words, "--timeout", timeout.word());
    }
    if let Some(sandbox) = entry.sandbox.take() {
        push_flag(words, "--sandbox", sandbox);
    }
    if let Some(size) = &entry.tmpfs_size {
        push_flag(words, "--tmpfs-size", size.word());
    }
    for path in entry.writable.iter().flatten() {
        push_flag(words, "--writable", path_word(dir, path));
    }
    match entry.env.take() {
        None => {}
        Some(ManifestEnv::List(names)) => {
            names.into_iter().for_each(|n| push_flag(words, "--env", n))
        }
        Some(ManifestEnv::Map(map)) => {
            for (name, value) in map {
                let word = match value {
                    None => name,
                    Some(value) => format!("{name}={value}"),
                };
                push_flag(words, "--env", word);
            }
        }
    }
    for step in entry.prepare.take().into_iter().flatten() {
        push_flag(words, "--prepare", step);
    }
    if let Some(rerun) = entry.rerun.take() {
        push_flag(words, "--rerun", rerun);
    }
    if let Some(format) = entry.format.take() {
        push_flag(words, "--format", format);
    }
    if entry.allow_network == Some(true) {
        words.push("--allow-network".into());
    }
    if entry.restore == Some(true) {
        words.push("--restore".into());
    }
    if entry.keep_changes == Some(true) {
        words.push("--keep-changes".into());
    }
}

/// The words of the view the attempts run: the trusted revision and the
/// patch.
fn push_view_words(words: &mut Vec<String>, dir: &Path, entry: &mut ManifestEntry) {
    if let Some(revision) = entry.trusted.take() {
        // One word: a revision that begins with `-` is the option's value
        // (refused as no revision), never an option.
        words.push(format!("--trusted={revision}"));
    }
    if let Some(patch) = &entry.apply {
        let word = if patch.as_os_str() == "record" {
            "record".to_owned()
        } else {
            path_word(dir, patch)
        };
        push_flag(words, "--apply", word);
    }
}

/// The words of how the check is graded; an inline expected-tests list is
/// returned, to replace its stand-in once the words are parsed.
fn push_grading_words(
    words: &mut Vec<String>,
    dir: &Path,
    entry: &mut ManifestEntry,
) -> Option<testgate_documents::ExpectFile> {
    // Inline expected tests: `--expect` names a stand-in, so that
    // `--missing` and `--strict` parse, and the text replaces it below.
    let inline = match entry.expect.take() {
        None => None,
        Some(ManifestExpect::File(path)) => {
            push_flag(words, "--expect", path_word(dir, &path));
            None
        }
        Some(ManifestExpect::Inline(file)) => {
            push_flag(words, "--expect", "(inline)".to_owned());
            Some(*file)
        }
    };
    if let Some(baseline) = &entry.baseline {
        push_flag(words, "--baseline", path_word(dir, baseline));
    }
    if let Some(quarantine) = &entry.quarantine {
        push_flag(words, "--quarantine", path_word(dir, quarantine));
    }
    if let Some(runs) = entry.stress {
        push_flag(words, "--stress", runs.to_string());
    }
    if let Some(missing) = entry.missing.take() {
        push_flag(words, "--missing", missing);
    }
    if entry.strict == Some(true) {
        words.push("--strict".into());
    }
    if let Some(evidence) = entry.evidence.take() {
        push_flag(words, "--evidence", evidence);
    }
    inline
}

/// The words of what the check writes besides its result: the report it
/// reads, the record, JUnit, the SWE-bench report, the signature and the
/// suite's name and version.
fn push_output_words(words: &mut Vec<String>, dir: &Path, entry: &mut ManifestEntry) {
    // A path inside the project, as `check --report` takes it.
    if let Some(report) = &entry.report {
        push_flag(words, "--report", report.to_string_lossy().into_owned());
    }
    if entry.structured == Some(true) {
        words.push("--structured".into());
    }
    if let Some(record) = &entry.record {
        push_flag(words, "--record", path_word(dir, record));
    }
    if let Some(junit) = &entry.junit {
        push_flag(words, "--junit", path_word(dir, junit));
    }
    if let Some(report) = &entry.swebench_report {
        push_flag(words, "--swebench-report", path_word(dir, report));
    }
    if let Some(key) = &entry.sign {
        push_flag(words, "--sign", path_word(dir, key));
    }
    if let Some(name) = entry.name.take() {
        push_flag(words, "--name", name);
    }
    if let Some(version) = entry.version.take() {
        push_flag(words, "--version", version);
    }
}

/// `check`'s options of a manifest line's JSON, paths relative to `dir`:
/// the options the MCP `check` tool must make of the same arguments.
#[cfg(test)]
pub(crate) fn check_args(bytes: &[u8], dir: &Path) -> Result<CheckArgs, ManifestError> {
    job(bytes, 0, Value::Null, dir).map(|job| *job.args)
}

/// `check`'s options, parsed from a manifest line's words.
#[derive(Debug, Parser)]
#[command(name = "testgate")]
enum CheckLine {
    Check(CheckArgs),
}

fn push_flag(words: &mut Vec<String>, flag: &str, value: String) {
    words.push(flag.to_owned());
    words.push(value);
}

/// `path` as a word of the check's command line, relative to the manifest.
fn path_word(dir: &Path, path: &Path) -> String {
    dir.join(path).to_string_lossy().into_owned()
}

/// clap's message on one line: without its `error: ` prefix, its usage
/// and its tips.
fn first_line(message: &str) -> String {
    let text: Vec<&str> = message
        .lines()
        .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
        .map(str::trim)
        .collect();
    let text = text.join(" ");
    text.strip_prefix("error: ").unwrap_or(&text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn entry(text: &str) -> Result<Job, ManifestError> {
        job(text.as_bytes(), 7, Value::from(7), Path::new("/m"))
    }

    #[test]
    fn a_line_becomes_checks_options() {
        let job = entry(r#"{"workspace": "p", "command": ["cargo", "test"], "retries": 2, "timeout": 90, "env": {"A": "1", "B": null}}"#).unwrap();
        let args = format!("{:?}", job.args);
        assert!(args.contains("dir: \"/m/p\""), "{args}");
        assert!(args.contains("retries: 2"), "{args}");
        assert!(args.contains("timeout: 90s"), "{args}");
        assert!(args.contains("env: [\"A=1\", \"B\"]"), "{args}");
    }

    /// `trusted` is one word (`--trusted=REV`): a revision beginning with
    /// `-` is its value, never an option; `apply` a path relative to the
    /// manifest, or `record`.
    #[test]
    fn trusted_and_apply_become_checks_options() {
        let job =
            entry(r#"{"workspace": "p", "command": ["x"], "trusted": "-x", "apply": "fix.diff"}"#)
                .unwrap();
        let args = format!("{:?}", job.args);
        assert!(args.contains("trusted: Some(\"-x\")"), "{args}");
        assert!(args.contains("apply: Some(\"/m/fix.diff\")"), "{args}");
        let job = entry(r#"{"workspace": "p", "command": ["x"], "apply": "record"}"#).unwrap();
        let args = format!("{:?}", job.args);
        assert!(args.contains("apply: Some(\"record\")"), "{args}");
    }

    #[test]
    fn grading_options_become_checks_with_paths_relative_to_the_manifest() {
        let job = entry(r#"{"workspace": "p", "command": ["x"], "expect": "e.json", "baseline": "b.json", "quarantine": "/q", "missing": "fail", "strict": true}"#).unwrap();
        let args = format!("{:?}", job.args);
        for wanted in [
            "expect: Some(\"/m/e.json\")",
            "expect_inline: None",
            "baseline: Some(\"/m/b.json\")",
            "quarantine: Some(\"/q\")",
            "missing: Fail",
            "strict: true",
        ] {
            assert!(args.contains(wanted), "{wanted}: {args}");
        }
        let inline =
            entry(r#"{"workspace": "p", "command": ["x"], "expect": {"must_pass": ["a"]}}"#)
                .unwrap();
        let args = format!("{:?}", inline.args);
        assert!(
            args.contains(r#"expect_inline: Some(ExpectFile { must_pass: Some(TestList(["a"]))"#),
            "{args}"
        );
        let recorded = entry(r#"{"workspace": "p", "command": ["x"], "report": "t/j.xml", "record": "r.json", "sign": "k", "name": "n", "version": "v1"}"#).unwrap();
        let args = format!("{:?}", recorded.args);
        for wanted in [
            "report: Some(\"t/j.xml\")",
            "record: Some(\"/m/r.json\")",
            "sign: Some(\"/m/k\")",
            "name: Some(\"n\")",
            "suite_version: Some(\"v1\")",
        ] {
            assert!(args.contains(wanted), "{wanted}: {args}");
        }
        let outputs = entry(r#"{"workspace": "p", "command": ["x"], "expect": {"must_pass": ["t"]}, "junit": "j.xml", "swebench_report": "s.json"}"#).unwrap();
        let args = format!("{:?}", outputs.args);
        for wanted in [
            "junit: Some(\"/m/j.xml\")",
            "swebench_report: Some(\"/m/s.json\")",
        ] {
            assert!(args.contains(wanted), "{wanted}: {args}");
        }
        let structured =
            entry(r#"{"workspace": "p", "command": ["x"], "structured": true}"#).unwrap();
        assert!(format!("{:?}", structured.args).contains("structured: true"));
        let stress = entry(r#"{"workspace": "p", "command": ["x"], "stress": 3}"#).unwrap();
        assert!(format!("{:?}", stress.args).contains("stress: Some(3)"));
        // check's own rules hold: its range, and what conflicts with what.
        for (line, wanted) in [
            (
                r#"{"workspace": "p", "command": ["x"], "stress": 1}"#,
                "--stress",
            ),
            (
                r#"{"workspace": "p", "command": ["x"], "stress": 3, "expect": "e"}"#,
                "cannot be used with",
            ),
        ] {
            let why = entry(line).unwrap_err().to_string();
            assert!(why.contains(wanted) && !why.contains('\n'), "{why}");
        }
    }

    #[test]
    fn a_line_without_a_command_leaves_it_to_detection() {
        for line in [
            r#"{"workspace": "p"}"#,
            r#"{"workspace": "p", "command": []}"#,
        ] {
            let job = entry(line).unwrap();
            assert!(format!("{:?}", job.args).contains("command: []"), "{line}");
        }
    }

    #[test]
    fn bad_lines_say_what_is_wrong_in_one_line() {
        let cases = [
            (r#"{"command": ["x"]}"#, "missing field `workspace`"),
            (
                r#"{"workspace": "p", "command": ["x"], "retires": 2}"#,
                "unknown field `retires`",
            ),
            (
                r#"{"workspace": "p", "command": ["x"], "timeout": "soon"}"#,
                "`soon` is not a duration",
            ),
            (
                r#"{"workspace": "p", "command": ["x"], "expect_verdict": "green"}"#,
                "`expect_verdict` names no verdict",
            ),
            (
                r#"{"workspace": "p", "command": ["x"], "env": {"A": 1}}"#,
                "`env.A`: invalid type: integer `1`",
            ),
            ("not json", "expected"),
        ];
        for (line, wanted) in cases {
            let why = entry(line).unwrap_err().to_string();
            assert!(why.contains(wanted), "{line}: {why}");
            assert!(!why.contains('\n'), "{line}: {why}");
        }
    }

    #[test]
    fn an_overlong_line_is_skipped_to_its_end() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\n{}\nlast");
        let mut reader = BufReader::new(text.as_slice());
        assert!(matches!(
            next_line(&mut reader).unwrap(),
            Some(Line::TooLong)
        ));
        assert!(matches!(next_line(&mut reader).unwrap(), Some(Line::Text(b)) if b == b"{}"));
        assert!(matches!(next_line(&mut reader).unwrap(), Some(Line::Text(b)) if b == b"last"));
        assert!(next_line(&mut reader).unwrap().is_none());
    }

    #[test]
    fn ids_default_to_the_line_number() {
        assert_eq!(line_id(br#"{"id": "a"}"#, 3), Value::from("a"));
        assert_eq!(line_id(br#"{"id": null}"#, 3), Value::from(3));
        assert_eq!(line_id(b"{}", 3), Value::from(3));
    }
}
