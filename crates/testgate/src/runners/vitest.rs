//! vitest: how testgate recognises it (also through `npx`), its preset
//! environment, its versions, its JSON reporter's report, and retrying only
//! the failed tests by file and anchored name pattern.

use super::js::{files, js_name_pattern, titles, without_coverage, without_name_pattern};
use std::path::Path;

use super::{
    ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, names_program,
    node_package_versions, one_of, own_or_npx,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// `vitest run ARGS FILE… --coverage.enabled=false -t '^(?:describe
/// test)$'`: vitest's file filters are parts of the path.
fn vitest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut out = without_coverage(without_name_pattern(rest));
    out.extend(files(targets).into_iter().map(str::to_owned));
    out.push("--coverage.enabled=false".to_owned());
    out.extend([
        "-t".to_owned(),
        js_name_pattern(&titles(targets, " > "), " > "),
    ]);
    out
}

/// vitest's JSON reporter beside the console's: `--reporter=json
/// --outputFile.json=PLACE` after the user's own `--reporter`s, else after
/// `--reporter=default`. vitest's command-line reporters replace the
/// configuration's (vitest 4.1 `resolveConfig`), so a project whose
/// configuration chose its reporters shows vitest's default console under
/// testgate; there is no other way to add a reporter from outside the
/// project (docs/formats.md). Where `rest` names an output file, or the JSON
/// reporter itself (its console would be the JSON), the user chose, and the
/// console judges alone.
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let mut reporters = false;
    let mut values = rest.iter().skip(1).map(Some).chain(std::iter::once(None));
    for arg in rest {
        let next = values.next().flatten();
        let (option, value) = match arg.split_once('=') {
            Some((option, value)) => (option, Some(value)),
            None => (arg.as_str(), next.map(String::as_str)),
        };
        if option == "--outputFile" || option.starts_with("--outputFile.") {
            return None;
        }
        if option == "--reporter" || option == "--reporters" {
            reporters = true;
            if value == Some("json") {
                return None;
            }
        }
    }
    let mut args = rest.to_vec();
    if !reporters {
        args.push("--reporter=default".to_owned());
    }
    args.push("--reporter=json".to_owned());
    args.push(format!("--outputFile.json={}", place.to_str()?));
    Some(ReportRequest {
        args,
        env: Vec::new(),
        files: Vec::new(),
        format: ReportFormat::VitestJson,
        written_to: ReportTarget::File,
        through_environment: false,
    })
}

/// `vitest` and `vitest run`, also through `npx`.
pub(super) struct Vitest;

impl RunnerProfile for Vitest {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JS
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::NODE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &[
            "package.json's test script calling a known runner",
            "vitest.config.*",
        ]
    }

    fn programs(&self) -> &'static [super::Program] {
        // vitest runs under node, as jest does: jest's cache for both.
        &[super::Program {
            names: &["vitest"],
            prefixes: &[],
            caches: &["jest"],
        }]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        // `vitest run`: the command word is vitest's, not an argument.
        let at = own_or_npx(program, args, "vitest")?;
        Some(at + usize::from(args.get(at).map(String::as_str) == Some("run")))
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        Ok(vitest(rest, targets))
    }

    fn tool_output(&self) -> &'static [super::ToolOutput] {
        super::js::COVERAGE_OUTPUT
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        node_package_versions("vitest")
    }

    fn watch_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        // `vitest watch`, `vitest dev`: its commands that never end.
        let at = words
            .iter()
            .position(|w| w == "vitest" || w.ends_with("/vitest"))?;
        words
            .get(at + 1)
            .map(String::as_str)
            .filter(|w| matches!(*w, "watch" | "dev"))
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        names_program(words, "vitest")
            .then(|| one_of(words, &["-u", "--update"], &[]))
            .flatten()
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        super::npm::detect_script(project, Runner::Vitest).or_else(|| {
            super::npm::detect_config(
                project,
                Runner::Vitest,
                "vitest",
                &["js", "ts", "mjs", "cjs", "mts", "cts"],
                &["npx", "vitest", "run"],
            )
        })
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    /// Behind a wrapper, through `NODE_OPTIONS`: vitest's program
    /// (`vitest`, `vitest.mjs`) asked as [`report`] asks it, unless it runs
    /// one of its commands that is no test run.
    fn report_behind_wrapper(&self, place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        super::js::through_node(
            "vitest-ask.cjs",
            r#"(base === "vitest" || base === "vitest.mjs") && !["list", "bench", "init", "typecheck", "watch", "dev"].includes(process.argv[2])"#,
            r#"args.some((a, i) => /^--outputFile([.=]|$)/.test(a) || a === "--reporter=json" || a === "--reporters=json" || (/^--reporters?$/.test(a) && args[i + 1] === "json")) ? [] : [...(args.some((a) => /^--reporters?(=|$)/.test(a)) ? [] : ["--reporter=default"]), "--reporter=json", "--outputFile.json=" + place]"#,
            ReportFormat::VitestJson,
            place,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn vitest_adds_its_json_reporter_beside_the_console() {
        let place = Path::new("/tmp/r/vitest.json");
        let args = |rest: &[&str]| report(&words(rest), place).map(|r| r.args);
        assert_eq!(
            args(&["--retry", "2"]),
            Some(words(&[
                "--retry",
                "2",
                "--reporter=default",
                "--reporter=json",
                "--outputFile.json=/tmp/r/vitest.json"
            ]))
        );
        // The user's reporters are kept, ours added beside them.
        assert_eq!(
            args(&["--reporter=verbose"]),
            Some(words(&[
                "--reporter=verbose",
                "--reporter=json",
                "--outputFile.json=/tmp/r/vitest.json"
            ]))
        );
        assert_eq!(
            args(&["--reporter", "dot"]),
            Some(words(&[
                "--reporter",
                "dot",
                "--reporter=json",
                "--outputFile.json=/tmp/r/vitest.json"
            ]))
        );
        let request = report(&[], place).unwrap();
        assert_eq!(request.format, ReportFormat::VitestJson);
        // Where it must not fire: the user's own output file or JSON
        // reporter.
        for own in [
            &["--outputFile=r.json"][..],
            &["--outputFile.json", "r.json"],
            &["--reporter=json"],
            &["--reporter", "json"],
        ] {
            assert_eq!(args(own), None, "{own:?}");
        }
    }
}
