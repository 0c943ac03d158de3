//! What jest and vitest share: the failing files and an anchored test name
//! pattern, the coverage options a targeted retry turns off, and how either
//! is asked for its report behind a wrapper (`make test`, a script), through
//! node's own `NODE_OPTIONS`.

use std::path::Path;

use super::{EnvJoin, ReportEnv, ReportFile, ReportFormat, ReportRequest, ReportTarget, Target};

/// The module node preloads in every process behind a wrapper
/// (`NODE_OPTIONS=--require PRELOAD`). In the runner's own process (its
/// program, `process.argv[1]`, is `IS_RUNNER`), it takes itself out of
/// `NODE_OPTIONS`, so the tests and the runner's workers see the variable
/// the command had, and appends `EXTRA` (the report's arguments, computed
/// from the runner's own `args`) to the runner's arguments; in any other
/// process it does nothing. It takes every preload of the same place out
/// (jest's and vitest's are both given behind a wrapper).
const PRELOAD: &str = r#"// testgate: asks a test runner started behind a wrapper for its report.
"use strict";
(() => {
  const me = __filename;
  const script = process.argv[1] || "";
  const base = require("path").basename(script);
  if (!(IS_RUNNER)) return;
  // Every preload of testgate's (each beside its report) leaves with it.
  const dir = require("path").dirname(me) + "/";
  const ours = new RegExp("--require " + dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "\\S*", "g");
  const own = (process.env.NODE_OPTIONS || "").replace(ours, "").trim();
  if (own === "") delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = own;
  const args = process.argv.slice(2);
  const place = PLACE;
  process.argv.push(...(EXTRA));
})();
"#;

/// A request for `format`'s report at `place` through `NODE_OPTIONS`: a
/// preload module (`name`, beside the report) that asks the runner whose
/// program `is_runner` (a JavaScript expression of `base` and `script`)
/// recognises with the arguments `extra` (an expression of `args` and
/// `place`). `None` where the place is no plain path, which
/// `NODE_OPTIONS` would split.
pub(super) fn through_node(
    name: &'static str,
    is_runner: &str,
    extra: &str,
    format: ReportFormat,
    place: &Path,
) -> Option<ReportRequest> {
    let place_text = place.to_str()?;
    let preload = place.with_file_name(name);
    let preload = preload.to_str()?;
    if preload.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '\\' | '\'')) {
        return None;
    }
    let contents = PRELOAD
        .replace("IS_RUNNER", is_runner)
        .replace("EXTRA", extra)
        .replace("PLACE", &serde_json::to_string(place_text).ok()?);
    Some(ReportRequest {
        args: Vec::new(),
        env: vec![ReportEnv {
            name: "NODE_OPTIONS",
            value: format!("--require {preload}"),
            join: EnvJoin::AppendWords,
        }],
        files: vec![ReportFile { name, contents }],
        format,
        written_to: ReportTarget::File,
        through_environment: true,
    })
}

/// A JavaScript regular expression matching `s` literally, also under the
/// `u` flag, where escaping any other character is a syntax error.
pub(crate) fn js_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '^'
                | '$'
                | '.'
                | '*'
                | '+'
                | '?'
                | '('
                | ')'
                | '['
                | ']'
                | '{'
                | '}'
                | '|'
                | '/'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The `--testNamePattern` of full names whose levels the canonical name
/// joins with `separator`: jest and vitest match the pattern against the
/// describe titles and the test title joined with single spaces.
pub(super) fn js_name_pattern(names: &[&str], separator: &str) -> String {
    let alternatives: Vec<String> = names
        .iter()
        .map(|name| js_escape(&name.replace(separator, " ")))
        .collect();
    format!("^(?:{})$", alternatives.join("|"))
}

/// The runner's arguments without its test name pattern (`-t X`,
/// `--testNamePattern X`, `--testNamePattern=X`), which ours replaces.
pub(super) fn without_name_pattern(rest: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(rest.len());
    let mut skip_value = false;
    for arg in rest {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if arg == "-t" || arg == "--testNamePattern" || arg == "--test-name-pattern" {
            skip_value = true;
            continue;
        }
        if arg.starts_with("-t=")
            || arg.starts_with("--testNamePattern=")
            || arg.starts_with("--test-name-pattern=")
        {
            continue;
        }
        out.push(arg.clone());
    }
    out
}

/// Each target's title once, in the order given: its name, without a file
/// before it where a list written so gives one (`src/a.test.js › adds`:
/// names carry no file since issue 36, docs/formats.md), which the name
/// pattern must not hold (the file is selected by path).
pub(super) fn titles<'a>(targets: &[Target<'a>], separator: &str) -> Vec<&'a str> {
    let mut titles: Vec<&str> = Vec::with_capacity(targets.len());
    for target in targets {
        let title = target
            .context
            .and_then(|file| target.name.strip_prefix(file))
            .and_then(|rest| rest.strip_prefix(separator))
            .unwrap_or(target.name);
        if !titles.contains(&title) {
            titles.push(title);
        }
    }
    titles
}

/// The failing files, each once, when the parser knew every one.
pub(super) fn files<'a>(targets: &[Target<'a>]) -> Vec<&'a str> {
    let mut files: Vec<&str> = Vec::new();
    if targets.iter().any(|t| t.context.is_none()) {
        return files;
    }
    for file in targets.iter().filter_map(|t| t.context) {
        if !files.contains(&file) {
            files.push(file);
        }
    }
    files
}

/// The arguments without the ones that turn coverage on, which a targeted
/// retry turns off: a subset of the tests can never meet a global coverage
/// threshold, and the runner would fail a retry whose tests all passed.
pub(super) fn without_coverage(args: Vec<String>) -> Vec<String> {
    args.into_iter()
        .filter(|arg| {
            let option = arg.split_once('=').map_or(arg.as_str(), |(o, _)| o);
            !matches!(
                option,
                "--coverage" | "--collectCoverage" | "--collect-coverage"
            ) && !option.starts_with("--coverage.")
        })
        .collect()
}

/// What istanbul, c8 and nyc write beside a `package.json` when a jest,
/// vitest or mocha suite runs with coverage ([`super::RunnerProfile::tool_output`]).
pub(super) const COVERAGE_OUTPUT: &[super::ToolOutput] = &[
    super::ToolOutput {
        name: "coverage",
        beside: &["package.json"],
    },
    super::ToolOutput {
        name: ".nyc_output",
        beside: &["package.json"],
    },
];
