//! jest: how testgate recognises it (also through `npx`), its preset
//! environment, its versions, its `--json` report, and retrying only the
//! failed tests by file and anchored name pattern.

use super::js::{
    files, js_escape, js_name_pattern, titles, without_coverage, without_name_pattern,
};
use std::path::Path;

use super::{
    ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, long_flag, names_program,
    node_package_versions, one_of, own_or_npx,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// `jest ARGS /FILE$… --coverage=false -t '^(?:describe test)$'`: jest's
/// path arguments are regular expressions over absolute paths, so each
/// file is escaped and anchored at a `/` and at the end.
fn jest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut out = without_coverage(without_name_pattern(rest));
    for file in files(targets) {
        let file = file.trim_start_matches("./");
        out.push(format!("/{}$", js_escape(file.trim_start_matches('/'))));
    }
    out.push("--coverage=false".to_owned());
    out.extend([
        "-t".to_owned(),
        js_name_pattern(&titles(targets, " › "), " › "),
    ]);
    out
}

/// `jest ARGS --json --outputFile=PLACE`: jest writes its JSON report to
/// the file and keeps its console as it was (on stderr), adding one line,
/// `Test results written to: …`. Where `rest` already asks for JSON (its
/// console would be the JSON) or names an output file, the user chose, and
/// the console judges alone.
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let owns_report = rest.iter().any(|arg| {
        let option = arg.split_once('=').map_or(arg.as_str(), |(o, _)| o);
        matches!(option, "--json" | "--outputFile" | "--output-file")
    });
    if owns_report {
        return None;
    }
    let mut args = rest.to_vec();
    args.push("--json".to_owned());
    args.push(format!("--outputFile={}", place.to_str()?));
    Some(ReportRequest {
        args,
        env: Vec::new(),
        files: Vec::new(),
        format: ReportFormat::JestJson,
        written_to: ReportTarget::File,
        through_environment: false,
    })
}

/// `jest`, also through `npx`.
pub(super) struct Jest;

impl RunnerProfile for Jest {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JS
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::NODE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &[
            "package.json's test script calling a known runner",
            "jest.config.*",
        ]
    }

    fn programs(&self) -> &'static [super::Program] {
        &[super::Program {
            names: &["jest"],
            prefixes: &[],
            caches: &["jest"],
        }]
    }

    fn tool_cache(&self, uid: u32) -> Option<testgate_run::ToolCache> {
        Some(cache(uid))
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        own_or_npx(program, args, "jest")
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        Ok(jest(rest, targets))
    }

    fn tool_output(&self) -> &'static [super::ToolOutput] {
        super::js::COVERAGE_OUTPUT
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        node_package_versions("jest")
    }

    fn watch_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        // jest's own, and the long spellings any runner's watch mode
        // shares: refused in any command.
        long_flag(words, &["--watch", "--watchAll", "--watch-all"])
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        let flag = one_of(words, &["--updateSnapshot"], &["--updateSnapshot="]);
        // The short ones only where jest is named: `-u` means other things
        // to other programs.
        flag.or_else(|| {
            names_program(words, "jest")
                .then(|| one_of(words, &["-u", "-ci=false", "--ci=false"], &[]))
                .flatten()
        })
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        super::npm::detect_script(project, Runner::Jest).or_else(|| {
            super::npm::detect_config(
                project,
                Runner::Jest,
                "jest",
                &["js", "ts", "mjs", "cjs", "mts", "cts", "json"],
                &["npx", "jest"],
            )
        })
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    /// Behind a wrapper, through `NODE_OPTIONS`: jest's program (`jest`,
    /// `…/jest/bin/jest.js`) asked as [`report`] asks it.
    fn report_behind_wrapper(&self, place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        super::js::through_node(
            "jest-ask.cjs",
            r#"base === "jest" || /[\\/]jest(-cli)?[\\/]bin[\\/]jest\.js$/.test(script)"#,
            r#"args.some((a) => /^--(json|outputFile|output-file)(=|$)/.test(a)) ? [] : ["--json", "--outputFile=" + place]"#,
            ReportFormat::JestJson,
            place,
        )
    }
}

/// jest's cache, `/tmp/jest_<uid in base 36>`: outside the homes, so the
/// sandbox gives it its own private, persistent place
/// ([`testgate_run::ToolCache`]), named `jest` among the project's caches.
pub(crate) fn cache(uid: u32) -> testgate_run::ToolCache {
    testgate_run::ToolCache {
        what: "jest cache".to_owned(),
        path: std::path::PathBuf::from(format!("/tmp/jest_{}", base36(uid))),
        private: "jest".to_owned(),
    }
}

/// `n` in base 36, as jest names its cache directory (`jest_` and the uid).
fn base36(mut n: u32) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn jest_writes_its_json_report_to_the_place() {
        let place = Path::new("/tmp/testgate-report-x/jest.json");
        let request = report(&words(&["--ci", "--verbose"]), place).unwrap();
        assert_eq!(
            request.args,
            words(&[
                "--ci",
                "--verbose",
                "--json",
                "--outputFile=/tmp/testgate-report-x/jest.json"
            ])
        );
        assert_eq!(request.format, ReportFormat::JestJson);
        assert!(!request.through_environment);
        // Where it must not fire: the user's own JSON or output file.
        for own in [
            &["--json"][..],
            &["--outputFile=r.json"],
            &["--outputFile", "r.json"],
        ] {
            assert_eq!(report(&words(own), place), None, "{own:?}");
        }
    }

    #[test]
    fn jest_names_its_cache_in_base_36() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(1000), "rs");
        assert_eq!(base36(u32::MAX), "1z141z3");
        assert_eq!(cache(7).path, std::path::Path::new("/tmp/jest_7"));
    }
}
