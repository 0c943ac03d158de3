//! mocha: how testgate recognises it (also through `npx`), its preset
//! environment, its versions, its events recorded as they happen by
//! testgate's recorder (`--require`), and retrying only the failed tests
//! with an anchored `--grep` over their full titles.

use std::path::Path;

use testgate_parse::Runner;

use super::js::js_escape;
use super::{
    ReportFile, ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, names,
    names_program, node_package_versions, one_of, own_or_npx,
};
use crate::project_view::{Detected, ProjectView};

/// The titles mocha gives a failing hook: `suite "before all" hook for
/// "test"` (or `in "{root}"` at the root).
const HOOKS: [&str; 4] = [
    " \"before all\" hook",
    " \"before each\" hook",
    " \"after all\" hook",
    " \"after each\" hook",
];

/// The `--grep` of `names`, mocha's full titles (the suites' titles and the
/// test's joined with spaces, what `--grep` is matched against): each
/// escaped and anchored; a hook's failure selects its whole suite (every
/// title that starts with the suite's and a space). A hook of the root
/// suite belongs to every test: no grep selects it.
pub(crate) fn mocha_grep(names: &[&str]) -> Result<String, String> {
    let mut alternatives = Vec::with_capacity(names.len());
    for name in names {
        let hook = HOOKS.iter().find_map(|hook| Some(name.split_once(hook)?.0));
        let root_hook = HOOKS.iter().any(|hook| name.starts_with(hook.trim_start()));
        match hook {
            _ if root_hook => {
                return Err(format!("`{name}` is a hook of mocha's root suite"));
            }
            Some(suite) => alternatives.push(format!("{} ", js_escape(suite))),
            None => alternatives.push(format!("{}$", js_escape(name))),
        }
    }
    Ok(format!("^(?:{})", alternatives.join("|")))
}

/// The arguments without mocha's own test filters (`--grep`/`-g`,
/// `--fgrep`/`-f`, with their value), which ours replaces; an inverted
/// filter (`--invert`/`-i`) cannot be narrowed.
fn without_grep(rest: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(rest.len());
    let mut skip_value = false;
    for arg in rest {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        match arg.as_str() {
            "--grep" | "-g" | "--fgrep" | "-f" => skip_value = true,
            "--invert" | "-i" => {
                return Err("the mocha command inverts its filter (`--invert`)".to_owned());
            }
            _ if arg.starts_with("--grep=") || arg.starts_with("--fgrep=") => {}
            _ => out.push(arg.clone()),
        }
    }
    Ok(out)
}

/// testgate's recorder of mocha's events, written as [`RECORDER_NAME`]
/// beside the report's place, the place in it as a JSON string where
/// `TESTGATE_REPORT_PLACE` stands (docs/formats.md, "mocha").
const RECORDER: &str = include_str!("mocha_recorder.cjs");

/// The recorder's file name beside the report.
const RECORDER_NAME: &str = "mocha-recorder.cjs";

/// The recorder, writing to `place`, beside it.
fn recorder(place: &Path) -> Option<(String, ReportFile)> {
    let path = place.with_file_name(RECORDER_NAME);
    let contents = RECORDER.replace(
        "TESTGATE_REPORT_PLACE",
        &serde_json::to_string(place.to_str()?).ok()?,
    );
    let file = ReportFile {
        name: RECORDER_NAME,
        contents,
    };
    Some((path.to_str()?.to_owned(), file))
}

/// `mocha ARGS --require RECORDER`: mocha loads the recorder, whose global
/// setup fixture subscribes to mocha's runner (its reporter and console
/// untouched) and writes each event to `place` as it happens. `None` where
/// `rest` has a `--` (what follows it is files, a `--require` there too).
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    if rest.iter().any(|arg| arg == "--") {
        return None;
    }
    let (path, file) = recorder(place)?;
    let mut args = rest.to_vec();
    args.extend(["--require".to_owned(), path]);
    Some(ReportRequest {
        args,
        env: Vec::new(),
        files: vec![file],
        format: ReportFormat::MochaJson,
        written_to: ReportTarget::File,
        through_environment: false,
    })
}

/// The preload's arguments for mocha's program (a JavaScript expression of
/// `args` and `place`): `--require RECORDER`, unless `args` has a `--`;
/// where it asks, it first appends `{"event": "asked"}` to the report, so
/// that a report absent after the attempt says mocha's program never
/// started where the preload could ask it (mocha run through its API by a
/// script of the project's: the console judges alone), and a report with
/// no run says it was asked and never ran.
const ASK_BEHIND_WRAPPER: &str = r#"args.includes("--") ? [] : (() => {
    try { require("fs").appendFileSync(place, '{"event":"asked"}\n'); } catch (_) {}
    return ["--require", require("path").join(require("path").dirname(place), "mocha-recorder.cjs")];
  })()"#;

/// Behind a wrapper, through `NODE_OPTIONS` ([`super::js::through_node`]):
/// mocha's program (`mocha`, `…/mocha/bin/mocha.js`) given `--require
/// RECORDER` as [`report`] gives it ([`ASK_BEHIND_WRAPPER`]); the recorder
/// written beside the preload.
fn report_behind_wrapper(place: &Path) -> Option<ReportRequest> {
    let (_, file) = recorder(place)?;
    let mut request = super::js::through_node(
        "mocha-ask.cjs",
        r#"base === "mocha" || /[\\/]mocha[\\/]bin[\\/]mocha(\.js)?$/.test(script)"#,
        ASK_BEHIND_WRAPPER,
        ReportFormat::MochaJson,
        place,
    )?;
    request.files.push(file);
    Some(request)
}

/// `mocha`, also through `npx`.
pub(super) struct Mocha;

impl RunnerProfile for Mocha {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JS
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::NODE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["package.json's test script calling a known runner"]
    }

    fn programs(&self) -> &'static [super::Program] {
        &[super::Program {
            names: &["mocha"],
            prefixes: &[],
            caches: &[],
        }]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        own_or_npx(program, args, "mocha")
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        let mut out = without_grep(rest)?;
        out.extend(["--grep".to_owned(), mocha_grep(&names(targets))?]);
        Ok(out)
    }

    fn tool_output(&self) -> &'static [super::ToolOutput] {
        super::js::COVERAGE_OUTPUT
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        node_package_versions("mocha")
    }

    fn watch_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        // mocha's short `-w`, only where mocha is named.
        names_program(words, "mocha")
            .then(|| one_of(words, &["-w"], &[]))
            .flatten()
    }

    /// `npm test` whose script calls mocha. A `.mocharc.*` alone does not
    /// name the command (its `spec` may need the script's arguments).
    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        super::npm::detect_script(project, Runner::Mocha)
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    fn report_behind_wrapper(&self, place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report_behind_wrapper(place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grep_is_escaped_and_anchored() {
        assert_eq!(
            mocha_grep(&["calc adds", "calc big (1+1) [x]? millions $ ^"]),
            Ok(r"^(?:calc adds$|calc big \(1\+1\) \[x\]\? millions \$ \^$)".to_owned())
        );
    }

    #[test]
    fn a_hook_selects_its_suite_and_a_root_hook_refuses() {
        assert_eq!(
            mocha_grep(&["db \"before all\" hook for \"reads\""]),
            Ok("^(?:db )".to_owned())
        );
        assert!(mocha_grep(&["\"before each\" hook in \"{root}\""]).is_err());
        // Where it must not fire: a title that only mentions a hook.
        assert_eq!(
            mocha_grep(&["runs the before all hook"]),
            Ok("^(?:runs the before all hook$)".to_owned())
        );
    }

    #[test]
    fn the_users_filters_are_replaced_and_an_inverted_one_refused() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            without_grep(&args(&["test/", "-g", "x", "--fgrep=y", "--bail"])),
            Ok(args(&["test/", "--bail"]))
        );
        assert!(without_grep(&args(&["--grep", "x", "--invert"])).is_err());
    }

    #[test]
    fn mocha_requires_the_recorder_beside_the_report() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let place = Path::new("/tmp/testgate-report-x/mocha.jsonl");
        let request = report(&args(&["test/", "--bail"]), place).unwrap();
        assert_eq!(
            request.args,
            args(&[
                "test/",
                "--bail",
                "--require",
                "/tmp/testgate-report-x/mocha-recorder.cjs"
            ])
        );
        assert_eq!(request.format, ReportFormat::MochaJson);
        assert!(!request.through_environment);
        assert_eq!(request.files[0].name, "mocha-recorder.cjs");
        let contents = &request.files[0].contents;
        assert!(
            contents.contains(r#"const place = "/tmp/testgate-report-x/mocha.jsonl";"#),
            "{contents}"
        );
        assert!(!contents.contains("TESTGATE_REPORT_PLACE"));
        // Where it must not ask: a `--` after which every word is a file.
        assert_eq!(report(&args(&["--", "a.spec.js"]), place), None);
    }

    #[test]
    fn behind_a_wrapper_mochas_program_is_given_the_recorder() {
        let place = Path::new("/tmp/testgate-report-x/mocha.jsonl");
        let request = report_behind_wrapper(place).unwrap();
        assert!(request.through_environment);
        assert_eq!(request.args, Vec::<String>::new());
        assert_eq!(request.env[0].name, "NODE_OPTIONS");
        assert_eq!(
            request.env[0].value,
            "--require /tmp/testgate-report-x/mocha-ask.cjs"
        );
        let names: Vec<&str> = request.files.iter().map(|f| f.name).collect();
        assert_eq!(names, ["mocha-ask.cjs", "mocha-recorder.cjs"]);
        let preload = &request.files[0].contents;
        assert!(preload.contains(r#"base === "mocha""#), "{preload}");
        assert!(preload.contains("mocha-recorder.cjs"), "{preload}");
        // Where it must not ask: a place NODE_OPTIONS would split.
        assert_eq!(
            report_behind_wrapper(Path::new("/tmp/a b/mocha.jsonl")),
            None
        );
    }
}
