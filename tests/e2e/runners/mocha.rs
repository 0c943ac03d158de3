//! mocha's own e2e tests, beyond those every runner shares (`main.rs`).

use testgate::Cause;
use testgate::parse::Runner;

use crate::projects::{self, Project};
use crate::{
    EVERY_PLACE, Where, assert_fail, assert_inconclusive, assert_judged_by_report, assert_pass,
    fixture_check,
};

/// The commands that run the e2e project's mocha: bare (as
/// `runners/mocha.json` runs it), `--parallel`, the json reporter (whose
/// console testgate does not read: before the recorder a failing run was a
/// Fail naming nothing), behind `sh -c` (the script
/// rewritten), `npm test` whose script is plain mocha (the recorder's
/// `--require` after `--`), and an npm script that is a shell command
/// (reached through `NODE_OPTIONS`).
const COMMANDS: [(&str, &[&str]); 6] = [
    ("npx", &["--no-install", "mocha"]),
    ("npx", &["--no-install", "mocha", "--parallel"]),
    ("npx", &["--no-install", "mocha", "--reporter", "json"]),
    ("sh", &["-c", "npx --no-install mocha"]),
    ("npm", &["test"]),
    ("npm", &["run", "shell"]),
];

/// mocha judged by the events testgate's recorder wrote as they happened,
/// for each of [`COMMANDS`], in both sandboxes and on the host: Pass (the
/// report's counts are mocha's 5 tests), Fail with its names, flaky.
#[test]
fn mocha_is_judged_by_its_recorders_report() {
    let runner = Runner::Mocha;
    for place in EVERY_PLACE {
        for (program, args) in COMMANDS {
            let what = format!("{program} {args:?} in {place:?}");
            let project = Project::copy(runner);
            std::fs::write(
                project.dir.join("package.json"),
                r#"{"private": true, "scripts": {"test": "mocha", "shell": "mocha && true"}}"#,
            )
            .expect("package.json");
            let run = |mode: &str, retries: u32| {
                fixture_check(
                    place,
                    runner,
                    &project.dir,
                    program,
                    args.iter().copied(),
                    mode,
                    retries,
                )
            };
            let record = run("pass", 2);
            assert_pass(&record, &what);
            assert_judged_by_report(&record, &what);
            assert_eq!(record.attempts[0].report.counts.ran(), Some(5), "{what}");
            let record = run("fail", 1);
            assert_fail(&record, projects::failing_names(runner), &what);
            assert_judged_by_report(&record, &what);
            assert_inconclusive(&run("flaky", 2), Cause::Flaky, &what);
        }
    }
}

/// mocha run through its API by a script of the project's (`node run.mjs`,
/// bare and behind `sh -c`): no mocha program for the preload to give the
/// recorder, and the report's absence says so; the console judges alone,
/// as before the recorder, in both sandboxes: Pass, Fail with its names
/// (with the recorder and no such rule: Inconclusive `truncated` for the
/// pass).
#[test]
fn mocha_through_its_api_is_judged_by_its_console() {
    let runner = Runner::Mocha;
    for place in [Where::Bwrap, Where::Landlock] {
        for (program, args) in [("node", &["run.mjs"][..]), ("sh", &["-c", "node run.mjs"])] {
            let what = format!("{program} {args:?} in {place:?}");
            let project = Project::copy(runner);
            std::fs::write(
                project.dir.join("run.mjs"),
                "import Mocha from \"mocha\";\n\
                 const mocha = new Mocha();\n\
                 mocha.addFile(\"test/calc.spec.js\");\n\
                 await mocha.loadFilesAsync();\n\
                 mocha.run((failures) => { process.exitCode = failures ? 1 : 0; });\n",
            )
            .expect("run.mjs");
            let run = |mode: &str, retries: u32| {
                fixture_check(
                    place,
                    runner,
                    &project.dir,
                    program,
                    args.iter().copied(),
                    mode,
                    retries,
                )
            };
            let record = run("pass", 2);
            assert_pass(&record, &what);
            let evidence = &record.attempts[0].attempt.evidence;
            assert_eq!(
                *evidence,
                testgate::policy::Evidence::ConsoleAlone,
                "{what}"
            );
            assert_fail(&run("fail", 0), projects::failing_names(runner), &what);
        }
    }
}
