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

/// Whether a line starting with this byte may carry a CI prefix or be a CI
/// marker: a letter or digit (a timestamp, a service's or an environment's
/// name, `section_…`, `nox`), `[` (Jenkins), `#` (`##[…]`), the first
/// byte of a BOM or of Buildkite's 🚨. Every other line is the runner's as it is, at the cost
/// of one lookup.
const MAY_START: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'[' || c == b'#' || c == 0xef || c == 0xf0;
        b += 1;
    }
    table
};

/// The runner's text of a cleaned line: `text` without the CI prefixes
/// it starts with, or `None` where the line is the CI's own (a step
/// marker, an annotation, a logging command), which no runner printed.
pub(crate) fn runner_text(text: &str) -> Option<&str> {
    let mut text = text;
    for _ in 0..MAX_PREFIXES {
        let Some(&first) = text.as_bytes().first() else {
            return Some(text);
        };
        if first == b' ' {
            return (!is_tox_summary(text)).then_some(text);
        }
        if !MAY_START[usize::from(first)] {
            return Some(text);
        }
        if is_ci_line(text) {
            return None;
        }
        let rest = text
            .strip_prefix('\u{feff}')
            .or_else(|| after_timestamp(text))
            .or_else(|| after_jenkins_timestamp(text))
            .or_else(|| after_compose_service(text));
        match rest {
            Some(rest) => text = rest,
            None => return Some(text),
        }
    }
    Some(text)
}

/// A line the CI wrote, not the runner: a GitHub Actions or Azure
/// Pipelines formatting command (`##[group]Run cargo test`,
/// `##[error]Process completed with exit code 101.`), an Azure logging
/// command (`##vso[task.setvariable …]`), a GitLab section's start or end
/// and its verdict, Buildkite's, a Jenkins Pipeline step (`[Pipeline] sh`),
/// Compose's lines of its own, tox's command line
/// (`py311: commands[0]> pytest`) and verdicts, nox's (`nox > pytest`).
/// The verdicts matter where a log stops mid-test (a hang the CI killed):
/// the line after the runner's last is the CI's, and must not read as the
/// test's output.
fn is_ci_line(text: &str) -> bool {
    if let Some(command) = text.strip_prefix("##") {
        return command.starts_with("vso[") || is_formatting_command(command);
    }
    after_gitlab_section(text).is_some()
        || text.starts_with("ERROR: Job failed: ")
        || text.starts_with("Job succeeded")
        || text.starts_with("\u{1f6a8} Error: The command exited with status ")
        || text.starts_with("[Pipeline] ")
        || text.starts_with("nox > ")
        || text.starts_with("Attaching to ")
        || is_compose_exit(text)
        || is_tox_command(text)
        || is_tox_summary(text)
}

/// `docker compose up`'s line when a container ends:
/// `app-1 exited with code 101`.
fn is_compose_exit(text: &str) -> bool {
    text.split_once(" exited with code ")
        .is_some_and(|(name, code)| is_container_name(name) && is_number(code))
}

/// tox's lines after a command: `py311: exit 1 (0.42 seconds) …`, the
/// summary's `  py311: FAIL code 1 (…)`, `  py311: OK (…)`, and its last
/// `  evaluation failed :( (…)` or `  congratulations :) (…)`.
fn is_tox_summary(text: &str) -> bool {
    let text = text.strip_prefix("  ").unwrap_or(text);
    if text.starts_with("evaluation failed :(") || text.starts_with("congratulations :)") {
        return true;
    }
    let Some(first) = text.bytes().next() else {
        return false;
    };
    if !first.is_ascii_alphanumeric() {
        return false;
    }
    let name_end = text
        .bytes()
        .position(|b| !is_name_byte(b))
        .unwrap_or(text.len());
    let Some(verdict) = text[name_end..].strip_prefix(": ") else {
        return false;
    };
    let exit = verdict
        .strip_prefix("exit ")
        .and_then(|rest| rest.split_once(" ("))
        .is_some_and(|(code, _)| is_number(code.trim_start_matches('-')));
    exit || verdict.starts_with("OK (")
        || verdict.starts_with("FAIL code ")
        || verdict.starts_with("SKIP (")
        || verdict.starts_with("OK \u{2714}")
        || verdict.starts_with("FAIL \u{2716}")
}

/// Digits only, at least one.
fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// A Compose container's name: a service's name, `-` (or `_`) and its
/// number.
fn is_container_name(name: &str) -> bool {
    let Some((service, number)) = name.rsplit_once(['-', '_']) else {
        return false;
    };
    !service.is_empty() && service.bytes().all(is_name_byte) && is_number(number)
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

/// tox 4's line before each command it runs: `ENV: commands[N]> COMMAND`
/// (also `commands_pre`, `commands_post`).
fn is_tox_command(text: &str) -> bool {
    let name_end = text
        .bytes()
        .position(|b| !is_name_byte(b))
        .unwrap_or(text.len());
    let Some(rest) = text[name_end..].strip_prefix(": commands") else {
        return false;
    };
    let rest = rest
        .strip_prefix("_pre")
        .or_else(|| rest.strip_prefix("_post"))
        .unwrap_or(rest);
    rest.strip_prefix('[')
        .and_then(|rest| rest.split_once("]> "))
        .is_some_and(|(index, _)| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
}

/// A byte of a service's or an environment's name.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
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
/// `±HH:MM`.
fn timestamp_len(bytes: &[u8]) -> Option<usize> {
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

/// The rest of a line after Jenkins Timestamper's `[2026-12-03T10:00:00.123Z] `.
fn after_jenkins_timestamp(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('[')?;
    let len = timestamp_len(inner.as_bytes())?;
    inner.get(len..)?.strip_prefix("] ")
}

/// The rest of a line after `docker compose`'s `service-1  | `: a name
/// ending in the container's number (`-1`, or `_1` before Compose v2),
/// spaces, a bar, and the space before the text (none where the text is
/// empty). A line where text comes before a bar — a test's parameters
/// `t.py::test[a-1 | b]`, a table's `| a | b |` — is left.
fn after_compose_service(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    let name_end = b.iter().position(|&c| !is_name_byte(c))?;
    let digits = b[..name_end]
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let numbered =
        digits > 0 && name_end > digits + 1 && matches!(b[name_end - digits - 1], b'-' | b'_');
    if !numbered || b[name_end] != b' ' {
        return None;
    }
    let rest = text[name_end..].trim_start_matches(' ');
    let rest = rest.strip_prefix('|')?;
    Some(rest.strip_prefix(' ').unwrap_or(rest))
        .filter(|_| rest.is_empty() || rest.starts_with(' '))
}

/// The header after GitLab's section marker,
/// `section_start:1764756000:step_script[collapsed=true]` and the `\r`
/// that ends it (the `ESC [0K` after it gone with the escapes); nothing
/// after `section_end:…`, whose `\r` the cleaning took as the line's end.
/// The header is GitLab's title for the section, not the runner's.
fn after_gitlab_section(text: &str) -> Option<&str> {
    let rest = text
        .strip_prefix("section_start:")
        .or_else(|| text.strip_prefix("section_end:"))?;
    let (time, rest) = rest.split_once(':')?;
    if time.is_empty() || !time.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (name, header) = rest.split_once('\r').unwrap_or((rest, ""));
    let name = name.split_once('[').map_or(name, |(name, _)| name);
    let named = !name.is_empty() && name.bytes().all(is_name_byte);
    named.then_some(header)
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
}
