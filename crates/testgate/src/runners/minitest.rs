//! minitest (`rake test`, `ruby -Itest test/x_test.rb`): how testgate
//! recognises it, finds it in a project (`Rakefile` beside `test/`), asks
//! its versions, and retries only the failed tests by their names with
//! minitest's `--name=/^(?:Class#test_x|…)$/`.

use std::path::Path;

use testgate_parse::Runner;

use super::rspec::regex_escaped;
use super::{
    EnvJoin, ReportEnv, ReportFile, ReportFormat, ReportRequest, ReportTarget, RunnerProfile,
    Target, names, words,
};
use crate::project_view::{Detected, ProjectView};

/// minitest's `-n` value selecting exactly `targets`: `/^(?:A\#b|…)$/`
/// (minitest matches it against `Class#method`).
fn filter(targets: &[Target<'_>]) -> Result<String, String> {
    let mut alternatives: Vec<String> = Vec::new();
    for name in names(targets) {
        if !name.contains('#') {
            return Err(format!("`{name}` is not a minitest test name"));
        }
        alternatives.push(regex_escaped(name));
    }
    Ok(format!("/^(?:{})$/", alternatives.join("|")))
}

/// `text` as one word of a POSIX shell: rake's test task runs its
/// command, `TESTOPTS` included, through the shell.
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Whether `arg` selects tests for minitest (`-n`, `--name`, `-e`,
/// `--exclude`, joined to their value or not).
fn is_selector(arg: &str) -> bool {
    ["-n", "--name", "-e", "--exclude"]
        .iter()
        .any(|option| arg == *option || arg.starts_with(&format!("{option}=")))
        || (arg.starts_with("-n") && arg.len() > 2)
}

/// rake's arguments `rest` with `-n FILTER` in `TESTOPTS`, added to the
/// command's own `TESTOPTS=` (one that selects by name already cannot be
/// narrowed exactly: the full command runs).
fn rake(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    // One word: rake's test loader takes every word of TESTOPTS that does
    // not start with `-` for a test file.
    let selector = shell_word(&format!("--name={}", filter(targets)?));
    let mut out: Vec<String> = Vec::with_capacity(rest.len() + 1);
    let mut added = false;
    for arg in rest {
        match arg.strip_prefix("TESTOPTS=") {
            Some(own) => {
                if own.split(' ').any(is_selector) {
                    return Err("the command's own TESTOPTS selects tests by name".to_owned());
                }
                let own = own.trim();
                out.push(if own.is_empty() {
                    format!("TESTOPTS={selector}")
                } else {
                    format!("TESTOPTS={own} {selector}")
                });
                added = true;
            }
            None => out.push(arg.clone()),
        }
    }
    if !added {
        out.push(format!("TESTOPTS={selector}"));
    }
    Ok(out)
}

/// `ruby ARGS FILE ARGS`: the test file's own arguments with
/// `--name=FILTER` in place of the command's `-n`/`-e`.
fn ruby(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::with_capacity(rest.len() + 2);
    let mut words = rest.iter();
    let mut after_script = false;
    while let Some(arg) = words.next() {
        if after_script && matches!(arg.as_str(), "-n" | "--name" | "-e" | "--exclude") {
            words.next();
            continue;
        }
        if after_script && is_selector(arg) {
            continue;
        }
        after_script |= is_test_file(arg);
        out.push(arg.clone());
    }
    out.push(format!("--name={}", filter(targets)?));
    Ok(out)
}

/// Whether `arg` is a minitest file by its name (`test/calc_test.rb`,
/// `test_calc.rb`).
fn is_test_file(arg: &str) -> bool {
    let name = arg.rsplit('/').next().unwrap_or(arg);
    !arg.starts_with('-')
        && name.ends_with(".rb")
        && (name.ends_with("_test.rb") || name.starts_with("test_"))
}

/// testgate's reporter plugin for minitest, written as
/// `minitest/testgate_plugin.rb` beside the report's place
/// (docs/formats.md, "Where the outcomes come from").
const PLUGIN: &str = include_str!("minitest_plugin.rb");

/// minitest's report through the environment: the plugin's directory
/// (testgate's, outside the project) added to `RUBYOPT` as `-I`, after the
/// user's own options, and the place in `TESTGATE_MINITEST_REPORT`.
/// minitest's plugin discovery searches `$LOAD_PATH` in every
/// `Minitest.run` (`ruby -Itest`, rake's test loader, behind `make` too),
/// and the plugin adds its reporter there. `None` where the command turns
/// the plugins off (`--no-plugins`, also in rake's `TESTOPTS`), or the
/// directory's path would not stay one word of `RUBYOPT`.
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let dir = place.parent()?.to_str()?;
    let no_plugins = rest.iter().any(|arg| {
        arg == "--no-plugins"
            || arg
                .strip_prefix("TESTOPTS=")
                .is_some_and(|own| own.split_whitespace().any(|w| w == "--no-plugins"))
    });
    if no_plugins || dir.is_empty() || dir.chars().any(char::is_whitespace) {
        return None;
    }
    Some(ReportRequest {
        args: rest.to_vec(),
        env: vec![
            ReportEnv {
                name: "RUBYOPT",
                value: format!("-I{dir}"),
                join: EnvJoin::AppendWords,
            },
            ReportEnv {
                name: "TESTGATE_MINITEST_REPORT",
                value: place.to_str()?.to_owned(),
                join: EnvJoin::Set,
            },
        ],
        files: vec![ReportFile {
            name: "minitest/testgate_plugin.rb",
            contents: PLUGIN.to_owned(),
        }],
        format: ReportFormat::MinitestJson,
        written_to: ReportTarget::File,
        through_environment: true,
    })
}

/// `rake test` and `ruby -Itest test/x_test.rb`.
pub(super) struct Minitest;

impl RunnerProfile for Minitest {
    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::RUBY
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["Rakefile beside test/ (rake test)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        match program {
            "rake" => args
                .iter()
                .any(|a| a == "test" || a.starts_with("test:"))
                .then_some(0),
            "ruby" => args.iter().any(|a| is_test_file(a)).then_some(0),
            _ => None,
        }
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        if rest.iter().any(|a| is_test_file(a)) {
            ruby(rest, targets)
        } else {
            rake(rest, targets)
        }
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["ruby", "--version"]),
            words(&["ruby", "-e", "require 'minitest'; puts Minitest::VERSION"]),
        ]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        let tests = project.kind(Path::new("test")) == Some(testgate_run::EntryKind::Dir);
        if !(project.is_file("Rakefile") && tests) {
            return None;
        }
        Some(Detected::new(
            Runner::Minitest,
            words(&["rake", "test"]),
            vec!["Rakefile".to_owned(), "test/".to_owned()],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::runners::testing::targets;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Minitest, line)
    }

    #[test]
    fn minitest_is_recognised_by_rake_test_and_a_test_file() {
        assert_eq!(recognised("rake test"), Some(0));
        assert_eq!(recognised("ruby -Itest test/calc_test.rb -v"), Some(0));
        // Where it must not fire: rake's other tasks, a script that is no
        // test file, RSpec.
        for line in ["rake spec", "rake", "ruby script.rb", "rspec", "ruby -e 1"] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    #[test]
    fn a_retry_selects_exact_names() {
        let got = Minitest
            .select(
                &words(&["-Itest", "test/calc_test.rb", "-v", "-n", "old"]),
                &targets(&["CalcTest#test_a", "Spec calc::x#test_0001_it (y)"]),
                Path::new("."),
            )
            .unwrap();
        assert_eq!(
            got,
            [
                "-Itest",
                "test/calc_test.rb",
                "-v",
                "--name=/^(?:CalcTest\\#test_a|Spec\\ calc::x\\#test_0001_it\\ \\(y\\))$/"
            ]
        );
        let got = Minitest
            .select(
                &words(&["test", "TESTOPTS=-v"]),
                &targets(&["A#test_it's"]),
                Path::new("."),
            )
            .unwrap();
        assert_eq!(
            got,
            ["test", "TESTOPTS=-v '--name=/^(?:A\\#test_it'\\''s)$/'"]
        );
        let got = Minitest
            .select(&words(&["test"]), &targets(&["A#b"]), Path::new("."))
            .unwrap();
        assert_eq!(got, ["test", "TESTOPTS='--name=/^(?:A\\#b)$/'"]);
        assert!(
            Minitest
                .select(&words(&["test"]), &targets(&["nohash"]), Path::new("."))
                .is_err()
        );
    }

    #[test]
    fn the_report_is_asked_through_rubyopt_unless_plugins_are_off() {
        let place = Path::new("/tmp/r/minitest.json");
        let asked = report(&words(&["-Itest", "test/a_test.rb"]), place).unwrap();
        assert_eq!(asked.env[0].name, "RUBYOPT");
        assert_eq!(asked.env[0].value, "-I/tmp/r");
        assert_eq!(asked.env[0].join, EnvJoin::AppendWords);
        assert_eq!(asked.env[1].value, "/tmp/r/minitest.json");
        assert_eq!(asked.files[0].name, "minitest/testgate_plugin.rb");
        assert_eq!(asked.args, ["-Itest", "test/a_test.rb"]);
        assert!(asked.through_environment);
        // Where it must not ask: the plugins turned off, a directory that
        // would split RUBYOPT.
        assert_eq!(
            report(&words(&["test/a_test.rb", "--no-plugins"]), place),
            None
        );
        assert_eq!(
            report(&words(&["test", "TESTOPTS=-v --no-plugins"]), place),
            None
        );
        assert_eq!(report(&[], Path::new("/tmp/a b/minitest.json")), None);
    }
}
