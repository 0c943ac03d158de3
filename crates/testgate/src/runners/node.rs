//! `node --test`: how testgate recognises it, its preset environment, its
//! version, its junit report beside its console, and retrying only the
//! failed tests with an anchored `--test-name-pattern`.

use std::path::Path;

use testgate_parse::Runner;

use super::js::js_escape;
use super::{ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, names, one_of};
use crate::project_view::{Detected, ProjectView};

/// How the parser joins a suite's title and its tests'.
const SEPARATOR: &str = " > ";

/// The `--test-name-pattern` of `names` (titles joined by ` > `): each
/// test's own title or its whole path joined with spaces, escaped and
/// anchored. node 20 matches a pattern against a test's own title; later
/// releases against the path of titles: either way the failed tests are
/// selected (and a test elsewhere with the same title too, which only
/// runs more).
pub(crate) fn node_name_pattern(names: &[&str]) -> String {
    let mut alternatives: Vec<String> = Vec::with_capacity(names.len() * 2);
    for name in names {
        let title = name.rsplit(SEPARATOR).next().unwrap_or(name);
        for alternative in [js_escape(title), js_escape(&name.replace(SEPARATOR, " "))] {
            if !alternatives.contains(&alternative) {
                alternatives.push(alternative);
            }
        }
    }
    format!("^(?:{})$", alternatives.join("|"))
}

/// The arguments without node's test name filters (`--test-name-pattern`,
/// `--test-skip-pattern`, with their value), which ours replaces.
fn without_name_pattern(rest: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(rest.len());
    let mut skip_value = false;
    for arg in rest {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        match arg.as_str() {
            "--test-name-pattern" | "--test-skip-pattern" => skip_value = true,
            _ if arg.starts_with("--test-name-pattern=")
                || arg.starts_with("--test-skip-pattern=") => {}
            _ => out.push(arg.clone()),
        }
    }
    out
}

/// The console reporter asked for beside the junit report: once any
/// `--test-reporter` is given node adds no default of its own, so one is
/// named. tap is the one node 20 and 22 use where stdout is no terminal
/// (as under testgate), so their console stays as it was; node 23+ would
/// have printed spec, whose lines the parser reads as well. tap also keeps
/// what a test file prints to stdout a `#` comment, so the console cannot
/// be given a result line.
const CONSOLE_REPORTER: &str = "tap";

/// Whether `word` is one of node's reporter options (`--test-reporter`,
/// `--test-reporter-destination`, with or without `=VALUE`).
fn is_reporter_option(word: &str) -> bool {
    let option = word.split_once('=').map_or(word, |(option, _)| option);
    matches!(option, "--test-reporter" | "--test-reporter-destination")
}

/// `node --test --test-reporter=tap --test-reporter-destination=stdout
/// --test-reporter=junit --test-reporter-destination=PLACE ARGS`: node
/// writes its junit report to the file and its console as it would have
/// (node 18.15+). The options go after `rest`'s leading `--option=value`
/// words (a retry's `--test-name-pattern=…`, so that behind `npm test` they
/// are still appended to the script's words) and before anything else:
/// node takes no option after a file, and a word after an option that
/// takes a value is that value.
/// Where `rest` already names a reporter or a destination, the user chose,
/// and nothing is asked: node refuses reporters and destinations whose
/// counts differ, and an honest run must not be broken (`NODE_OPTIONS`:
/// [`RunnerProfile::report_chosen_by`]).
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    if rest.iter().any(|word| is_reporter_option(word)) {
        return None;
    }
    let at = rest
        .iter()
        .take_while(|word| word.starts_with("--") && word.contains('='))
        .count();
    let mut args = rest[..at].to_vec();
    args.extend([
        format!("--test-reporter={CONSOLE_REPORTER}"),
        "--test-reporter-destination=stdout".to_owned(),
        "--test-reporter=junit".to_owned(),
        format!("--test-reporter-destination={}", place.to_str()?),
    ]);
    args.extend(rest[at..].iter().cloned());
    Some(ReportRequest {
        args,
        env: Vec::new(),
        files: Vec::new(),
        format: ReportFormat::NodeJunit,
        written_to: ReportTarget::File,
        through_environment: false,
    })
}

/// `node --test` (node's options before `--test` kept in front, unless one
/// of them names a reporter: then they are all the runner's own, so that
/// asking for the report sees it).
pub(super) struct Node;

impl RunnerProfile for Node {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::JS
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::NODE
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["package.json's test script calling a known runner"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        if program != "node" && program != "nodejs" {
            return None;
        }
        // `--test` among node's options, before any script.
        let at = args
            .iter()
            .take_while(|a| a.starts_with('-'))
            .position(|a| a == "--test")?;
        if args[..at].iter().any(|a| is_reporter_option(a)) {
            return Some(0);
        }
        Some(at + 1)
    }

    /// Asked by arguments alone, bare and where they reach node (a shell's
    /// `-c` script, an npm script that is the plain command): behind any
    /// other wrapper (`make test`) nothing is asked. `NODE_OPTIONS` would
    /// reach node there, but not the wrapper's own node command, and node
    /// refuses a run whose reporters (`NODE_OPTIONS`' and its arguments')
    /// outnumber their destinations (`ERR_INVALID_ARG_VALUE`, node 20): a
    /// wrapper that names its own reporter would be broken.
    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    /// `NODE_OPTIONS` naming a reporter or a destination: node joins its
    /// reporters with the arguments'.
    fn report_chosen_by(&self, variable: &dyn Fn(&str) -> Option<String>) -> bool {
        variable("NODE_OPTIONS")
            .is_some_and(|options| options.split_whitespace().any(is_reporter_option))
    }

    /// The pattern goes first: node takes every word after the first file
    /// for a file.
    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        let mut out = vec![format!(
            "--test-name-pattern={}",
            node_name_pattern(&names(targets))
        )];
        out.extend(without_name_pattern(rest));
        Ok(out)
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        vec![vec![program.to_owned(), "--version".to_owned()]]
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        one_of(words, &["--test-update-snapshots"], &[])
    }

    /// `npm test` whose script calls `node --test`: node's runner has no
    /// configuration file to find it by.
    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        super::npm::detect_script(project, Runner::Node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_holds_the_title_and_the_path() {
        assert_eq!(
            node_name_pattern(&["calc > big (1+1) > millions $", "top"]),
            r"^(?:millions \$|calc big \(1\+1\) millions \$|top)$"
        );
    }

    #[test]
    fn recognised_only_with_test_before_a_script() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        assert_eq!(Node.recognise("node", &args(&["--test"])), Some(1));
        assert_eq!(
            Node.recognise("node", &args(&["--no-warnings", "--test", "t/"])),
            Some(2)
        );
        // Where it must not fire: a script given `--test` as its argument.
        assert_eq!(Node.recognise("node", &args(&["app.js", "--test"])), None);
        assert_eq!(Node.recognise("deno", &args(&["--test"])), None);
    }

    /// The report is asked for before the files, the console's tap kept;
    /// where it must not fire: the command or its `NODE_OPTIONS` names a
    /// reporter or a destination of its own, before `--test` too.
    #[test]
    fn junit_is_asked_beside_tap_unless_a_reporter_is_named() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let place = Path::new("/tmp/r/node.xml");
        let asked = report(&args(&["--no-warnings", "t/"]), place).unwrap();
        assert_eq!(
            asked.args,
            args(&[
                "--test-reporter=tap",
                "--test-reporter-destination=stdout",
                "--test-reporter=junit",
                "--test-reporter-destination=/tmp/r/node.xml",
                "--no-warnings",
                "t/"
            ])
        );
        assert_eq!(asked.format, ReportFormat::NodeJunit);
        // After a retry's pattern, before a word that may be a value.
        let asked = report(&args(&["--test-name-pattern=^a$", "-r", "x"]), place).unwrap();
        assert_eq!(asked.args[0], "--test-name-pattern=^a$");
        assert_eq!(asked.args[1], "--test-reporter=tap");
        assert_eq!(asked.args[5..], args(&["-r", "x"]));
        assert!(!asked.through_environment);
        for own in [
            &["--test-reporter=dot", "t/"][..],
            &["--test-reporter", "spec"],
            &["--test-reporter-destination=out.txt"],
        ] {
            assert_eq!(report(&args(own), place), None, "{own:?}");
        }
        let options = |value: &'static str| {
            move |name: &str| (name == "NODE_OPTIONS").then(|| value.to_owned())
        };
        assert!(Node.report_chosen_by(&options("--max-old-space-size=9 --test-reporter=dot")));
        assert!(Node.report_chosen_by(&options("--test-reporter-destination=x")));
        assert!(!Node.report_chosen_by(&options("--max-old-space-size=9")));
        assert!(!Node.report_chosen_by(&|_| None));
        // Before `--test`: the options are the runner's own, and seen.
        let before = args(&["--test-reporter=dot", "--test", "t/"]);
        let at = Node.recognise("node", &before).unwrap();
        assert_eq!(at, 0);
        assert_eq!(report(&before[at..], place), None);
        // Behind a wrapper no argument reaches, nothing is asked.
        assert_eq!(Node.report_behind_wrapper(place, Path::new(".")), None);
    }

    #[test]
    fn the_pattern_goes_before_the_files() {
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let targets = [Target {
            name: "calc > adds",
            context: None,
        }];
        assert_eq!(
            Node.select(
                &args(&["--test-name-pattern=old", "a.test.js"]),
                &targets,
                Path::new(".")
            ),
            Ok(args(&[
                "--test-name-pattern=^(?:adds|calc adds)$",
                "a.test.js"
            ]))
        );
    }
}
