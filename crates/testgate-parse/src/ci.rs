//! The prefixes and markers CI systems add to a runner's lines, taken off
//! each line before any recogniser or scan reads it.
//!
//! A job log as a CI system stores it is the runner's output with each line
//! prefixed (a timestamp, a service's name) and the CI's own lines among
//! them (step markers, annotations). Each line is read alone, so a prefix
//! that is only on some lines (interleaved steps) is taken off where it is.
//! Buildkite's `ESC _ bk;t=… BEL` prefix is an APC escape sequence, which
//! the line's cleaning removes with the other escapes ([`crate::line`]).
//!
//! Where each shape is documented:
//! - GitHub Actions: `YYYY-MM-DDTHH:MM:SS.fffffffZ ` on every line of a
//!   downloaded log (and a UTF-8 BOM before the first), workflow commands
//!   shown as `##[group]`, `##[endgroup]`, `##[error]`, `##[warning]`…
//!   (docs.github.com, "Workflow commands for GitHub Actions").
//! - Azure Pipelines: the same timestamps, formatting commands `##[section]`,
//!   `##[command]`, `##[debug]`…, and logging commands `##vso[area.action …]`
//!   (learn.microsoft.com, "Logging commands").
//! - GitLab: `section_start:UNIX_TIMESTAMP:SECTION_NAME[options]\r\e[0K`
//!   followed by the section's header, `section_end:…\r\e[0K`
//!   (docs.gitlab.com, "CI/CD job logs"); with job log timestamps, an
//!   RFC 3339 time and a stream tag (`00O `, `00E+ `) before each line.
//! - Jenkins Timestamper in a Pipeline: `[2026-12-03T10:00:00.123Z] `, and
//!   Pipeline's own `[Pipeline] sh` lines.
//! - `docker compose up`/`logs`: `service-1  | `, the name padded to the
//!   longest service's (`service_1` before Compose v2).
//! - tox (`py311: commands[0]> pytest`) and nox (`nox > …`): lines of their
//!   own between the runner's, which they leave unprefixed.

/// The most prefixes taken off one line: a timestamp, then a service's
/// name, then a second timestamp (`docker compose logs -t` in an Actions
/// step) is three.
const MAX_PREFIXES: usize = 4;

/// The runner's text of a cleaned line: `text` without the CI prefixes
/// it starts with, or `None` where the line is the CI's own (a step
/// marker, an annotation, a logging command, a verdict), which no runner
/// printed.
pub(crate) fn runner_text(text: &str) -> Option<&str> {
    match of(text) {
        Text::Runner(text) => Some(text),
        Text::Ci(_) => None,
    }
}

/// A cleaned line without the CI prefixes it starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Text<'a> {
    /// A line the runner (or a test) printed.
    Runner(&'a str),
    /// A line the CI wrote: a step marker, an annotation, a logging command.
    Ci(&'a str),
}

/// What `text` is, its CI prefixes taken off.
pub(crate) fn of(text: &str) -> Text<'_> {
    let mut text = text;
    for _ in 0..MAX_PREFIXES {
        match read(text) {
            Read::Runner => return Text::Runner(text),
            Read::Ci => return Text::Ci(text),
            Read::After(rest) => text = rest,
        }
    }
    Text::Runner(text)
}

/// The last `docker compose` prefix taken off a line (`app-1  | `, up to
/// [`LastService::MAX`] bytes), so that the lines after it with the same
/// prefix, most of a Compose log, are read by one comparison of its bytes
/// rather than by the service's name. Exact: such a prefix starts with a
/// name byte and ends with `| `, and [`read`] of any line that starts with
/// it takes off that prefix and nothing else.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct LastService {
    prefix: [u8; LastService::MAX],
    len: usize,
}

impl LastService {
    /// The longest prefix remembered.
    const MAX: usize = 32;

    /// [`of`] `text`, a prefix equal to the last service's taken off by
    /// comparison. Not inlined: in the dispatch's loop its many branches
    /// cost every line more than the call.
    #[inline(never)]
    pub(crate) fn of<'t>(&mut self, text: &'t str) -> Text<'t> {
        let mut text = text;
        for _ in 0..MAX_PREFIXES {
            // The first byte first: a timestamp or a runner's line is
            // told from the service's name without a call to compare.
            let last = self.prefix.get(..self.len).unwrap_or_default();
            if last
                .first()
                .is_some_and(|&b| text.as_bytes().first() == Some(&b))
                && let Some(rest) = text.as_bytes().strip_prefix(last)
            {
                // The prefix ends with the ASCII `| `: `rest` starts on a
                // character boundary.
                text = text.get(text.len() - rest.len()..).unwrap_or_default();
                continue;
            }
            match read(text) {
                Read::Runner => return Text::Runner(text),
                Read::Ci => return Text::Ci(text),
                Read::After(rest) => {
                    let taken = text.len() - rest.len();
                    self.remember(text.as_bytes().get(..taken).unwrap_or_default());
                    text = rest;
                }
            }
        }
        Text::Runner(text)
    }

    /// Keeps `prefix` where it is a Compose service's: it starts with a
    /// letter or a digit (a timestamp's ends with `Z ` or a stream tag,
    /// Jenkins' starts with `[`) and ends with `| `.
    fn remember(&mut self, prefix: &[u8]) {
        let compose = prefix.first().is_some_and(u8::is_ascii_alphanumeric)
            && prefix.ends_with(b"| ")
            && prefix.len() <= Self::MAX;
        if compose && let Some(slot) = self.prefix.get_mut(..prefix.len()) {
            slot.copy_from_slice(prefix);
            self.len = prefix.len();
        }
    }
}

/// A CI step this line of the CI's starts, with the command or the name
/// the CI gives it where it gives one: GitHub Actions' `##[group]Run
/// cargo test` (the step's first script line), Azure's `##[section]Starting:
/// Test` and `##[command]cargo test`, GitLab's `section_start:…:name\rHeader`
/// (the header), Jenkins' `[Pipeline] { (Stage)` (the stage), tox's
/// `py311: commands[0]> pytest` and nox's `nox > pytest` (the command).
/// `None` for the CI's other lines (annotations, group ends, verdicts).
pub(crate) fn step_of(ci: &str) -> Option<Step<'_>> {
    if let Some(command) = ci.strip_prefix("##[group]") {
        return command.strip_prefix("Run ").map(Step::command);
    }
    if let Some(name) = ci.strip_prefix("##[section]Starting: ") {
        return Some(Step::named(name));
    }
    if let Some(command) = ci.strip_prefix("##[command]") {
        return Some(Step::command(command));
    }
    if let Some(rest) = ci.strip_prefix("section_start:") {
        let (_, rest) = rest.split_once(':')?;
        let (name, header) = rest.split_once('\r').unwrap_or((rest, ""));
        let name = name.split_once('[').map_or(name, |(name, _)| name);
        let header = header.trim();
        return Some(Step::named(if header.is_empty() { name } else { header }));
    }
    if let Some(stage) = ci.strip_prefix("[Pipeline] { (") {
        return Some(Step::named(stage.strip_suffix(')').unwrap_or(stage)));
    }
    if let Some(said) = ci.strip_prefix("nox > ") {
        // nox's own words start with a capital (`Running session tests`,
        // `Session tests was successful.`); a command it runs is echoed as
        // typed.
        let first = said.chars().next()?;
        return (!first.is_uppercase()).then(|| Step::command(said));
    }
    let (_, command) = ci.split_once(": commands")?;
    let (_, command) = command.split_once("]> ")?;
    Some(Step::command(command))
}

/// A command a shell echoed as the CI ran it: GitLab's and Buildkite's
/// `$ cargo test`. Read only once a CI that echoes so was seen (a GitLab
/// section, Buildkite's `~~~ Running commands`): elsewhere a `$ ` line
/// is a test's own output.
pub(crate) fn echoed_command(runner: &str) -> Option<&str> {
    let command = runner.strip_prefix("$ ")?.trim();
    (!command.is_empty()).then_some(command)
}

/// Whether a runner line is Buildkite's header before the commands it
/// echoes (`~~~ Running commands`, `~~~ Running script`).
pub(crate) fn is_buildkite_header(runner: &str) -> bool {
    runner.starts_with("~~~ Running ")
}

/// A CI step's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step<'a> {
    /// The step's command or name as the CI shows it, trimmed.
    pub(crate) label: &'a str,
    /// The label is the command line itself (Azure's `##[command]`, tox's,
    /// nox's, an echoed `$ …`) rather than the step's name: it names the
    /// step already begun where one is (`##[section]Starting:` then
    /// `##[command]`).
    pub(crate) is_command: bool,
}

impl<'a> Step<'a> {
    fn named(label: &'a str) -> Step<'a> {
        Step {
            label: label.trim(),
            is_command: false,
        }
    }

    pub(crate) fn command(label: &'a str) -> Step<'a> {
        Step {
            label: label.trim(),
            is_command: true,
        }
    }
}

/// What the start of a line is.
enum Read<'a> {
    /// The runner's line, as it is.
    Runner,
    /// A line the CI wrote.
    Ci,
    /// A prefix, and the rest of the line after it.
    After(&'a str),
}

/// The start of `text`, told by its first byte: a line that starts with
/// a space or a punctuation byte other than `[` and `#` costs one
/// comparison or two, one that starts with a letter a scan of its first
/// word.
#[inline(always)]
fn read(text: &str) -> Read<'_> {
    let Some(&first) = text.as_bytes().first() else {
        return Read::Runner;
    };
    let ci = |is: bool| if is { Read::Ci } else { Read::Runner };
    match first {
        b'#' => ci(text
            .strip_prefix("##")
            .is_some_and(|command| command.starts_with("vso[") || is_formatting_command(command))),
        b'[' if text.starts_with("[Pipeline] ") => Read::Ci,
        b'[' => after(after_jenkins_timestamp(text)),
        b' ' => ci(is_tox_summary(text)),
        0xef => after(text.strip_prefix('\u{feff}')),
        0xf0 => ci(text.starts_with("\u{1f6a8} Error: The command exited with status ")),
        b'0'..=b'9' => match after_timestamp(text) {
            Some(rest) => Read::After(rest),
            None => named(text),
        },
        b's' if is_gitlab_section(text) => Read::Ci,
        b'E' if text.starts_with("ERROR: Job failed: ") => Read::Ci,
        b'J' if text.starts_with("Job succeeded") => Read::Ci,
        b'n' if text.starts_with("nox > ") => Read::Ci,
        b'A' if text.starts_with("Attaching to ") => Read::Ci,
        b'a'..=b'z' | b'A'..=b'Z' => named(text),
        _ => Read::Runner,
    }
}

/// The rest after a prefix, or the runner's line where there is none.
fn after(rest: Option<&str>) -> Read<'_> {
    rest.map_or(Read::Runner, Read::After)
}

/// A line that starts with a name: `docker compose`'s prefix
/// (`app-1  | `) or its `app-1 exited with code 101`, tox's
/// `py311: commands[0]> pytest` or `py311: exit 1 (…)`; anything else is
/// the runner's.
#[inline(always)]
fn named(text: &str) -> Read<'_> {
    // Cheap first: the name is the first word's name bytes (a table
    // lookup each), a container's name ends in a digit and is followed by
    // a space, tox's is followed by `: `. A runner's line (`test a ... ok`,
    // `tests/t.py::test_a PASSED`) fails here after its first word.
    let bytes = text.as_bytes();
    let end = bytes
        .iter()
        .position(|&b| !NAME_BYTES[usize::from(b)])
        .unwrap_or(bytes.len());
    let candidate = match bytes.get(end) {
        Some(b' ') => end > 0 && bytes[end - 1].is_ascii_digit(),
        Some(b':') => bytes.get(end + 1) == Some(&b' '),
        _ => false,
    };
    if !candidate {
        return Read::Runner;
    }
    let (name, rest) = text.split_at(end);
    match bytes[end] {
        b' ' if is_container_name(name) => after_container_name(rest),
        b':' if is_tox_line(rest) => Read::Ci,
        _ => Read::Runner,
    }
}

/// The rest of a line after a Compose container's name (`rest` starts at
/// the space after it): its `exited with code 101`, or its output after
/// the padding's spaces, a bar, and the space before the text (none
/// where the text is empty). A line where text comes before a bar — a
/// test's parameters `t.py::test[a-1 | b]`, a table's `| a | b |` — is
/// left. The padding's spaces are counted first, so that a service's
/// output line costs no search for the exit's words.
fn after_container_name(rest: &str) -> Read<'_> {
    let spaces = rest.bytes().take_while(|&b| b == b' ').count();
    match rest.as_bytes().get(spaces) {
        Some(b'|') => rest
            .get(spaces + 1..)
            .and_then(after_bar)
            .map_or(Read::Runner, Read::After),
        Some(b'e') if spaces == 1 => match rest.strip_prefix(" exited with code ") {
            Some(code) if is_number(code) => Read::Ci,
            _ => Read::Runner,
        },
        _ => Read::Runner,
    }
}

/// `[group]…`, `[error]…`: one of the formatting commands GitHub Actions
/// and Azure Pipelines show a line of theirs by (after `##`).
fn is_formatting_command(command: &str) -> bool {
    const COMMANDS: [&str; 9] = [
        "group", "endgroup", "error", "warning", "notice", "debug", "section", "command", "info",
    ];
    command
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .is_some_and(|(name, _)| COMMANDS.contains(&name))
}

/// tox's lines after an environment's name (`rest` starts at the colon):
/// tox 4's before each command it runs, `: commands[N]> COMMAND` (also
/// `commands_pre`, `commands_post`), after it `: exit 1 (0.42 seconds) …`,
/// and its verdicts `: OK (…)`, `: FAIL code 1 (…)`, `: SKIP (…)`.
fn is_tox_line(rest: &str) -> bool {
    let Some(rest) = rest.strip_prefix(": ") else {
        return false;
    };
    if let Some(command) = rest.strip_prefix("commands") {
        let command = command
            .strip_prefix("_pre")
            .or_else(|| command.strip_prefix("_post"))
            .unwrap_or(command);
        return command
            .strip_prefix('[')
            .and_then(|rest| rest.split_once("]> "))
            .is_some_and(|(index, _)| is_number(index));
    }
    let exit = rest
        .strip_prefix("exit ")
        .and_then(|rest| rest.split_once(" ("))
        .is_some_and(|(code, _)| is_number(code.trim_start_matches('-')));
    exit || rest.starts_with("OK (")
        || rest.starts_with("FAIL code ")
        || rest.starts_with("SKIP (")
        || rest.starts_with("OK \u{2714}")
        || rest.starts_with("FAIL \u{2716}")
}

/// tox's summary at the end, indented two spaces: `  py311: FAIL code 1
/// (…)`, `  py311: OK (…)`, and its last `  evaluation failed :( (…)` or
/// `  congratulations :) (…)`.
fn is_tox_summary(text: &str) -> bool {
    let Some(text) = text.strip_prefix("  ") else {
        return false;
    };
    if !text
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    if text.starts_with("evaluation failed :(") || text.starts_with("congratulations :)") {
        return true;
    }
    let name_end = text
        .bytes()
        .position(|b| !is_name_byte(b))
        .unwrap_or(text.len());
    is_tox_line(&text[name_end..])
}

/// A byte of a service's or an environment's name.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// [`is_name_byte`] by table, for the first word of every line that starts
/// with a letter.
const NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b'.';
        b += 1;
    }
    table
};

/// Digits only, at least one.
fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// A Compose container's name: a service's name, `-` (or `_` before
/// Compose v2) and its number.
fn is_container_name(name: &str) -> bool {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    digits > 0
        && name.len() > digits + 1
        && matches!(name.as_bytes()[name.len() - digits - 1], b'-' | b'_')
}

/// The rest of a line after an RFC 3339 timestamp and a space, as GitHub
/// Actions and Azure Pipelines (`2026-12-03T10:00:00.1234567Z `) and
/// GitLab (`2026-12-03T10:00:00.123456Z 00O `, with its stream tag) put
/// before every line. Only a whole timestamp with its time zone and the
/// space after it: a name or a message that starts with a date is left.
fn after_timestamp(text: &str) -> Option<&str> {
    let rest = text.get(timestamp_len(text.as_bytes())?..)?;
    let rest = rest.strip_prefix(' ')?;
    Some(after_gitlab_stream(rest).unwrap_or(rest))
}

/// GitLab's stream tag after its timestamp: two hex digits, `O` or `E`,
/// `+` where the line continues the last, a space.
fn after_gitlab_stream(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    let tagged = b.len() >= 4
        && b[0].is_ascii_hexdigit()
        && b[1].is_ascii_hexdigit()
        && matches!(b[2], b'O' | b'E');
    if !tagged {
        return None;
    }
    text[3..]
        .strip_prefix(' ')
        .or_else(|| text[3..].strip_prefix("+ "))
}

/// The length of the RFC 3339 timestamp `bytes` start with:
/// `YYYY-MM-DDTHH:MM:SS`, a fraction of up to 9 digits, then `Z` or
/// `±HH:MM`. Every line of an Actions, Azure or GitLab log starts with
/// one, so its fixed part is checked by fixed positions, a word at a time
/// ([`is_date_time`], [`leading_digits`]), not byte by byte.
fn timestamp_len(bytes: &[u8]) -> Option<usize> {
    if !is_date_time(bytes.first_chunk()?) {
        return None;
    }
    let mut at = DATE_TIME.len();
    if bytes.get(at) == Some(&b'.') {
        let digits = leading_digits(bytes.get(at + 1..).unwrap_or_default());
        if !(1..=9).contains(&digits) {
            return None;
        }
        at += 1 + digits;
    }
    match bytes.get(at)? {
        b'Z' => Some(at + 1),
        b'+' | b'-' => {
            let zone = bytes.get(at + 1..at + 6)?;
            let fits = zone[0].is_ascii_digit()
                && zone[1].is_ascii_digit()
                && zone[2] == b':'
                && zone[3].is_ascii_digit()
                && zone[4].is_ascii_digit();
            fits.then_some(at + 6)
        }
        _ => None,
    }
}

/// The shape of a timestamp's date and time, `d` a digit.
const DATE_TIME: &[u8; 19] = b"dddd-dd-ddTdd:dd:dd";

/// The three overlapping 8-byte words that cover [`DATE_TIME`], by where
/// each starts, with their masks ([`word_shape`]).
const DATE_TIME_WORDS: [(usize, WordShape); 3] =
    [(0, word_shape(0)), (8, word_shape(8)), (11, word_shape(11))];

/// A word of [`DATE_TIME`] as masks over a little-endian `u64`: `mask`
/// keeps a digit's high nibble and a separator's whole byte, `want` is
/// what they must be (`0x3_` for a digit), `add` puts 6 on each digit so
/// that its high nibble stays `3` only for `0` to `9`.
#[derive(Clone, Copy)]
struct WordShape {
    mask: u64,
    want: u64,
    add: u64,
}

const fn word_shape(at: usize) -> WordShape {
    let mut shape = WordShape {
        mask: 0,
        want: 0,
        add: 0,
    };
    let mut i = 0;
    while i < 8 {
        let b = DATE_TIME[at + i];
        let shift = 8 * i;
        if b == b'd' {
            shape.mask |= 0xf0 << shift;
            shape.want |= 0x30 << shift;
            shape.add |= 0x06 << shift;
        } else {
            shape.mask |= 0xff << shift;
            shape.want |= (b as u64) << shift;
        }
        i += 1;
    }
    shape
}

/// Whether `head` is a date and time of [`DATE_TIME`]'s shape. A byte
/// whose high nibble is `3` is `0x30..=0x3f`; plus 6 it stays below `0x40`
/// (no carry into the next byte) and keeps its high nibble only if it was
/// a digit.
fn is_date_time(head: &[u8; 19]) -> bool {
    DATE_TIME_WORDS.iter().all(|&(at, shape)| {
        let word = head
            .get(at..)
            .and_then(<[u8]>::first_chunk::<8>)
            .map_or(0, |word| u64::from_le_bytes(*word));
        word & shape.mask == shape.want && word.wrapping_add(shape.add) & shape.mask == shape.want
    })
}

/// How many ASCII digits `bytes` starts with, counted up to 10: eight at
/// once where eight bytes are there (a byte is a digit where its high
/// nibble is `3` and its low nibble plus 6 stays below `0x10`).
fn leading_digits(bytes: &[u8]) -> usize {
    if let Some(word) = bytes.first_chunk::<8>() {
        let word = u64::from_le_bytes(*word);
        let not_digits = ((word & 0xf0f0_f0f0_f0f0_f0f0) ^ 0x3030_3030_3030_3030)
            | ((word & 0x0f0f_0f0f_0f0f_0f0f).wrapping_add(0x0606_0606_0606_0606)
                & 0x1010_1010_1010_1010);
        let digits = (not_digits.trailing_zeros() / 8) as usize;
        if digits < 8 {
            return digits;
        }
    }
    bytes
        .iter()
        .take(10)
        .take_while(|b| b.is_ascii_digit())
        .count()
}

/// The rest of a line after Jenkins Timestamper's `[2026-12-03T10:00:00.123Z] `.
fn after_jenkins_timestamp(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('[')?;
    let len = timestamp_len(inner.as_bytes())?;
    inner.get(len..)?.strip_prefix("] ")
}

/// The text after a Compose prefix's bar: past the space before it, or
/// empty where the line ends at the bar.
fn after_bar(rest: &str) -> Option<&str> {
    match rest.strip_prefix(' ') {
        Some(text) => Some(text),
        None => rest.is_empty().then_some(rest),
    }
}

/// GitLab's section marker,
/// `section_start:1764756000:step_script[collapsed=true]` and the `\r`
/// that ends it (the `ESC [0K` after it gone with the escapes), then the
/// section's header, GitLab's title for it; or `section_end:…`, whose
/// `\r` the cleaning took as the line's end.
fn is_gitlab_section(text: &str) -> bool {
    let Some(rest) = text
        .strip_prefix("section_start:")
        .or_else(|| text.strip_prefix("section_end:"))
    else {
        return false;
    };
    let Some((time, rest)) = rest.split_once(':') else {
        return false;
    };
    let name = rest.split_once('\r').map_or(rest, |(name, _)| name);
    let name = name.split_once('[').map_or(name, |(name, _)| name);
    is_number(time) && !name.is_empty() && name.bytes().all(is_name_byte)
}

#[cfg(test)]
mod tests {
    use super::runner_text;

    #[test]
    fn each_ci_prefix_is_taken_off() {
        let cases = [
            // GitHub Actions (the first line after a BOM) and Azure Pipelines.
            (
                "\u{feff}2026-12-03T10:00:00.1234567Z test a ... ok",
                "test a ... ok",
            ),
            (
                "2026-12-03T10:00:00.1234567Z --- FAIL: TestX (0.00s)",
                "--- FAIL: TestX (0.00s)",
            ),
            ("2026-12-03T10:00:00.1234567Z ", ""),
            ("2026-12-03T10:00:00+01:00 ok", "ok"),
            // GitLab's job log timestamps and stream tag.
            (
                "2026-12-03T10:00:00.123456Z 00O running 1 test",
                "running 1 test",
            ),
            ("2026-12-03T10:00:00.123456Z 01E+ more", "more"),
            // Jenkins Timestamper.
            (
                "[2026-12-03T10:00:00.123Z] test a ... FAILED",
                "test a ... FAILED",
            ),
            // docker compose, also empty, Compose v1, and inside Actions.
            ("app-1  | test a ... ok", "test a ... ok"),
            ("web_1     | PASS src/a.test.js", "PASS src/a.test.js"),
            ("app-1  |", ""),
            ("2026-12-03T10:00:00.1234567Z app-1  | =   ok", "=   ok"),
            (
                "app-1  | 2026-12-03T10:00:00.000000000Z --- PASS: T",
                "--- PASS: T",
            ),
        ];
        for (line, runner) in cases {
            assert_eq!(runner_text(line), Some(runner), "{line:?}");
        }
    }

    #[test]
    fn the_cis_own_lines_are_no_runners() {
        for line in [
            "##[group]Run cargo test",
            "##[endgroup]",
            "##[error]Process completed with exit code 101.",
            "2026-12-03T10:00:00.1234567Z ##[warning]Node.js 16 actions are deprecated.",
            "##[section]Starting: Test",
            "2026-12-03T10:00:00.1234567Z ##[command]/usr/bin/bash /tmp/x.sh",
            "##vso[task.setvariable variable=x]1",
            "section_end:1764756000:step_script",
            "section_start:1764756000:step_script\rExecuting \"step_script\" stage",
            "section_start:1764756000:tests[collapsed=true]\rTests",
            "ERROR: Job failed: exit code 101",
            "\u{1f6a8} Error: The command exited with status 101",
            "Attaching to app-1, db-1",
            "app-1 exited with code 101",
            "py311: exit 1 (0.42 seconds) /p> pytest -v pid=4242",
            "  py311: FAIL code 1 (0.50=setup[0.08]+cmd[0.42] seconds)",
            "  py311: OK (0.50=setup[0.08]+cmd[0.42] seconds)",
            "  evaluation failed :( (0.55 seconds)",
            "  congratulations :) (0.55 seconds)",
            "[2026-12-03T10:00:00.123Z] [Pipeline] sh",
            "py311: commands[0]> pytest -v",
            "lint: commands_pre[1]> pip list",
            "nox > Running session tests-3.11",
        ] {
            assert_eq!(runner_text(line), None, "{line:?}");
        }
    }

    /// Where none of the prefixes must fire: the runners' own lines, names
    /// that start with a date, a bar inside a pytest line, `##` that is
    /// not a command, brackets that are not Jenkins'.
    #[test]
    fn a_runners_line_is_left_as_it_is() {
        for line in [
            "test tests::adds ... ok",
            "tests/test_x.py::test_pipe[a-1 | b] PASSED",
            "FAILED t.py::test_pipe[x-1  | y] - assert 0",
            "test_x.py::test_a PASSED",
            "2026-12-03_migration_test.py::test_up PASSED",
            "2026-12-03T10:00:00Z_test.py::test_up PASSED",
            "2026-12-03 10:00:00 INFO started",
            "2026-12-03T10:00:00.1234567890Z too many digits",
            "20261203T100000Z compact",
            "[gw0] [ 50%] PASSED t.py::test_a",
            "[2026-12-03] not a timestamp",
            "## heading",
            "##[unknown]x",
            "| a | b |",
            "row-1 |no space after the bar",
            "section_start:notatime:x\rheader",
            "  1) calc adds negative:",
            "    tests::adds",
            "  py311 is not a verdict",
            "the app exited with code 101",
            "ERROR: Job failed to start? (a message)",
            "ok  \texample.com/m\t0.01s",
            "  ✓ 2026-12-03 rollover works (3 ms)",
            "--- FAIL: TestDate/2026-12-03T10:00:00Z (0.00s)",
        ] {
            assert_eq!(runner_text(line), Some(line), "{line:?}");
        }
    }

    /// The word-at-a-time timestamp reads what the byte-by-byte reading
    /// before it read: every byte of each CI's timestamp (and the space
    /// after it) replaced by every byte value, and every truncation.
    #[test]
    fn the_timestamp_is_read_as_byte_by_byte() {
        fn byte_by_byte(bytes: &[u8]) -> Option<usize> {
            const SHAPE: &[u8; 19] = b"dddd-dd-ddTdd:dd:dd";
            let head = bytes.get(..SHAPE.len())?;
            let fits = head.iter().zip(SHAPE).all(|(&b, &s)| match s {
                b'd' => b.is_ascii_digit(),
                _ => b == s,
            });
            if !fits {
                return None;
            }
            let mut at = SHAPE.len();
            if bytes.get(at) == Some(&b'.') {
                let digits = bytes[at + 1..]
                    .iter()
                    .take(10)
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if !(1..=9).contains(&digits) {
                    return None;
                }
                at += 1 + digits;
            }
            match bytes.get(at)? {
                b'Z' => Some(at + 1),
                b'+' | b'-' => {
                    let zone = bytes.get(at + 1..at + 6)?;
                    let fits = zone[0].is_ascii_digit()
                        && zone[1].is_ascii_digit()
                        && zone[2] == b':'
                        && zone[3].is_ascii_digit()
                        && zone[4].is_ascii_digit();
                    fits.then_some(at + 6)
                }
                _ => None,
            }
        }
        for stamp in [
            "2026-12-03T10:00:00.1234567Z x",
            "2026-12-03T10:00:00.123456789Z x",
            "2026-12-03T10:00:00.12345678Z x",
            "2026-12-03T10:00:00.123Z] x",
            "2026-12-03T10:00:00Z x",
            "2026-12-03T10:00:00+01:00 x",
            "2026-12-03T10:00:00.5-08:00 x",
        ] {
            let mut bytes = stamp.as_bytes().to_vec();
            for end in 0..=bytes.len() {
                assert_eq!(
                    super::timestamp_len(&bytes[..end]),
                    byte_by_byte(&bytes[..end]),
                    "{stamp:?} cut at {end}"
                );
            }
            for at in 0..bytes.len() {
                let kept = bytes[at];
                for b in 0..=u8::MAX {
                    bytes[at] = b;
                    assert_eq!(
                        super::timestamp_len(&bytes),
                        byte_by_byte(&bytes),
                        "{stamp:?} with {b:#x} at {at}"
                    );
                }
                bytes[at] = kept;
            }
        }
    }

    /// A remembered Compose prefix reads every line as [`of`] reads it:
    /// lines of several services, prefixes alone, without the space after
    /// the bar, an exit, a bar inside a runner's line, after a timestamp,
    /// each line read after each other line.
    #[test]
    fn a_remembered_service_reads_as_the_line_alone() {
        use super::{LastService, of};
        let lines = [
            "app-1  | test a ... ok",
            "app-1  |",
            "app-1  |x",
            "app-1  | ",
            "app-1  | app-1  | nested",
            "app-1  | 2026-12-03T10:00:00.000000000Z --- PASS: T",
            "app-1 exited with code 101",
            "app-10 | test b ... FAILED",
            "db-1   | LOG:  ready",
            "web_1     | PASS src/a.test.js",
            "2026-12-03T10:00:00.1234567Z app-1  | =   ok",
            "2026-12-03T10:00:00.1234567Z app-1  |",
            "tests/test_x.py::test_pipe[a-1 | b] PASSED",
            "1app-1  | digits first",
            "section_start-1  | not a section",
            "\u{feff}app-1  | after a BOM",
            "[2026-12-03T10:00:00.123Z] app-1  | in Jenkins",
            "app-1  | ##[group]Run cargo test",
            "app-1  | py311: commands[0]> pytest",
            "a-very-long-service-name-that-pads-every-other-one-out-1 | long",
            "a-very-long-service-name-that-pads-every-other-one-out-1 | long",
            "test a ... ok",
        ];
        for first in lines {
            for second in lines {
                let mut service = LastService::default();
                assert_eq!(service.of(first), of(first), "{first:?}");
                assert_eq!(service.of(second), of(second), "{second:?} after {first:?}");
                assert_eq!(service.of(second), of(second), "{second:?} twice");
            }
        }
    }

    /// The CI's lines that begin a step give its command or name; the
    /// CI's other lines give none.
    #[test]
    fn each_ci_names_its_steps() {
        use super::{Step, Text, of, step_of};
        let cases = [
            (
                "2026-12-03T10:00:00.1234567Z ##[group]Run cargo test --workspace",
                Some(("cargo test --workspace", true)),
            ),
            ("##[group]Operating System", None),
            ("##[endgroup]", None),
            ("##[error]Process completed with exit code 101.", None),
            ("##[section]Starting: Test", Some(("Test", false))),
            ("##[section]Finishing: Test", None),
            (
                "##[command]/usr/bin/bash --noprofile --norc /tmp/x.sh",
                Some(("/usr/bin/bash --noprofile --norc /tmp/x.sh", true)),
            ),
            (
                "section_start:1764756000:step_script\rExecuting \"step_script\" stage",
                Some(("Executing \"step_script\" stage", false)),
            ),
            (
                "section_start:1764756000:tests[collapsed=true]\r",
                Some(("tests", false)),
            ),
            ("section_end:1764756000:step_script", None),
            ("[Pipeline] { (Unit tests)", Some(("Unit tests", false))),
            ("[Pipeline] sh", None),
            ("py311: commands[0]> pytest -v", Some(("pytest -v", true))),
            ("py311: exit 1 (0.42 seconds) /p> pytest -v pid=4242", None),
            ("nox > pytest tests/", Some(("pytest tests/", true))),
            ("nox > Running session tests-3.11", None),
        ];
        for (line, expected) in cases {
            let Text::Ci(said) = of(line) else {
                panic!("{line:?} is the CI's");
            };
            let got = step_of(said).map(|Step { label, is_command }| (label, is_command));
            assert_eq!(got, expected, "{line:?}");
        }
    }
}
