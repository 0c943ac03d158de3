//! RSpec (`rspec`, `bundle exec rspec`): how testgate
//! recognises it, finds it in a project (`.rspec`, `spec/*_spec.rb`), asks its
//! versions and its JSON report (through `SPEC_OPTS`, from outside the
//! project), and retries only the failed examples by their full
//! descriptions (`-E '^…$'`) or places (`./spec/x_spec.rb:5`).

use std::path::Path;

use testgate_parse::Runner;

use super::pytest::shell_quoted;
use super::{
    EnvJoin, ReportEnv, ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, names,
    words,
};
use crate::project_view::{Detected, ProjectView};

/// RSpec's options that take their value as the next argument.
const VALUE_OPTIONS: &[&str] = &[
    "-I",
    "-r",
    "--require",
    "-f",
    "--format",
    "-o",
    "--out",
    "-e",
    "--example",
    "-E",
    "--example-matches",
    "-t",
    "--tag",
    "-P",
    "--pattern",
    "--exclude-pattern",
    "--default-path",
    "--seed",
    "--order",
    "-O",
    "--options",
];

/// Options dropped from a targeted retry: they select examples, which the
/// names replace.
const DROPPED: &[&str] = &["-e", "--example", "-E", "--example-matches"];

/// Whether `place` is an example's place as RSpec prints it
/// (`./spec/x_spec.rb:5`): rspec-retry names a flaky example so.
fn is_place(name: &str) -> bool {
    name.rsplit_once(':').is_some_and(|(file, line)| {
        file.ends_with(".rb") && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
    })
}

/// `text` as a Ruby regular expression matching it literally (minitest's
/// `--name` takes one too).
pub(super) fn regex_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '.' | '*' | '?' | '+' | '^' | '$' | '|' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
            | '/' | '-' | '#' | ' ' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out
}

/// RSpec's arguments `rest`, the options that select by description
/// dropped and each target added: a place as an argument, a full
/// description as `-E '^…$'` (`-e` would also run every example whose
/// description holds it).
fn select(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::with_capacity(rest.len() + 2 * targets.len());
    let mut i = 0;
    while i < rest.len() {
        let arg = &rest[i];
        i += 1;
        let option = arg.split_once('=').map_or(arg.as_str(), |(o, _)| o);
        let takes_next = VALUE_OPTIONS.contains(&arg.as_str());
        if DROPPED.contains(&option) {
            i += usize::from(takes_next);
            continue;
        }
        out.push(arg.clone());
        if takes_next {
            let value = rest
                .get(i)
                .ok_or_else(|| format!("the option `{arg}` has no value"))?;
            out.push(value.clone());
            i += 1;
        }
    }
    for name in names(targets) {
        if name.is_empty() {
            return Err("an empty name is no RSpec example".to_owned());
        }
        if is_place(name) {
            out.push(name.to_owned());
        } else {
            out.push("-E".to_owned());
            out.push(format!("^{}$", regex_escaped(name)));
        }
    }
    Ok(out)
}

/// The console formatter the command names (`-f d`, `--format
/// documentation`, `--format=progress`), the last one: RSpec's
/// `SPEC_OPTS` formatters replace the command line's, so it is named
/// there again.
fn console_format(rest: &[String]) -> Option<&str> {
    let mut format = None;
    let mut words = rest.iter();
    while let Some(arg) = words.next() {
        if arg == "-f" || arg == "--format" {
            format = words.next().map(String::as_str);
        } else if let Some(value) = arg
            .strip_prefix("--format=")
            .or_else(|| arg.strip_prefix("-f").filter(|v| !v.is_empty()))
        {
            format = Some(value);
        }
    }
    format
}

/// `SPEC_OPTS="--format F --format json --out PLACE"`, F the command's
/// console formatter (progress by default); `None` where the command
/// writes a file of its own (`--out`): RSpec's `SPEC_OPTS` formatters
/// would replace the command's.
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let owns_output = rest.iter().any(|arg| {
        arg == "-o" || arg == "--out" || arg.starts_with("--out=") || arg.starts_with("-o")
    });
    if owns_output {
        return None;
    }
    let console = console_format(rest).unwrap_or("progress");
    if console.starts_with('j') {
        return None;
    }
    let console = shell_quoted(Path::new(console))?;
    Some(ReportRequest {
        args: rest.to_vec(),
        env: vec![ReportEnv {
            name: "SPEC_OPTS",
            value: format!(
                "--format {console} --format json --out {}",
                shell_quoted(place)?
            ),
            join: EnvJoin::AppendWords,
        }],
        files: Vec::new(),
        format: ReportFormat::RspecJson,
        written_to: ReportTarget::File,
        through_environment: true,
    })
}

/// Whether rake's argument `arg` is RSpec's rake task (`spec`,
/// `spec:models`).
fn is_spec_task(arg: &str) -> bool {
    arg == "spec" || arg.starts_with("spec:")
}

/// rake's arguments `rest` with the targets selected through a
/// `SPEC_OPTS=` argument (rake sets the variable from it, and RSpec's rake
/// task runs rspec with it): `-E '^…$'` or a place for each, after the
/// command's own `SPEC_OPTS=` value (one that selects by description
/// already cannot be narrowed exactly: the full command runs).
fn rake_select(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let mut words: Vec<String> = Vec::with_capacity(2 * targets.len());
    for name in names(targets) {
        if name.is_empty() {
            return Err("an empty name is no RSpec example".to_owned());
        }
        if is_place(name) {
            words.push(shell_word(name));
        } else {
            words.push("-E".to_owned());
            words.push(shell_word(&format!("^{}$", regex_escaped(name))));
        }
    }
    let selection = words.join(" ");
    let mut out: Vec<String> = Vec::with_capacity(rest.len() + 1);
    let mut added = false;
    for arg in rest {
        match arg.strip_prefix("SPEC_OPTS=") {
            Some(own) => {
                let selects = own.split_whitespace().any(|w| {
                    let option = w.split_once('=').map_or(w, |(o, _)| o);
                    DROPPED.contains(&option)
                });
                if selects {
                    return Err("the command's own SPEC_OPTS selects examples".to_owned());
                }
                out.push(format!("SPEC_OPTS={} {selection}", own.trim()).replace("= ", "="));
                added = true;
            }
            None => out.push(arg.clone()),
        }
    }
    if !added {
        out.push(format!("SPEC_OPTS={selection}"));
    }
    Ok(out)
}

/// `text` as one word of a POSIX shell (RSpec splits `SPEC_OPTS` as
/// one).
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// `rake spec`'s report: through the environment's `SPEC_OPTS` as for
/// `rspec` ([`report`], progress as the console), or, where rake's own
/// arguments set `SPEC_OPTS=` (a retry's selection, or the user's), which
/// rake puts in place of the environment's, added to that argument.
fn rake_report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let Some(at) = rest.iter().position(|a| a.starts_with("SPEC_OPTS=")) else {
        return report(&[], place).map(|request| ReportRequest {
            args: rest.to_vec(),
            ..request
        });
    };
    let own = rest[at].strip_prefix("SPEC_OPTS=")?;
    let own_words: Vec<String> = own.split_whitespace().map(str::to_owned).collect();
    let mut request = report(&own_words, place)?;
    let ours = request.env.pop()?.value;
    let mut args = rest.to_vec();
    args[at] = format!("SPEC_OPTS={} {ours}", own.trim()).replace("= ", "=");
    request.args = args;
    request.through_environment = false;
    Some(request)
}

/// `rspec`, `bundle exec rspec`, `rake spec`.
pub(super) struct Rspec;

impl RunnerProfile for Rspec {
    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::RUBY
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &[".rspec or spec/*_spec.rb (rspec)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        match program {
            "rspec" => Some(0),
            // `rake spec`: RSpec's rake task, whose arguments are rake's.
            "rake" if args.iter().any(|a| is_spec_task(a)) => Some(0),
            "bundle" if args.first().is_some_and(|a| a == "exec") => args
                .get(1)
                .is_some_and(|p| p == "rspec" || p.ends_with("/rspec"))
                .then_some(2),
            _ => None,
        }
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        if rest.iter().any(|a| is_spec_task(a)) {
            rake_select(rest, targets)
        } else {
            select(rest, targets)
        }
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        if rest.iter().any(|a| is_spec_task(a)) {
            rake_report(rest, place)
        } else {
            report(rest, place)
        }
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["rspec", "--version"]),
            words(&["ruby", "--version"]),
        ]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        // A `spec/` folder alone is no RSpec project (jasmine's is one too):
        // only one holding RSpec's files.
        let rspec_files = || {
            project.names_in("spec").iter().any(|name| {
                let name = name.to_string_lossy();
                name == "spec_helper.rb" || name.ends_with("_spec.rb")
            })
        };
        let found = if project.is_file(".rspec") {
            ".rspec"
        } else if rspec_files() {
            "spec/*_spec.rb"
        } else {
            return None;
        };
        Some(Detected::new(
            Runner::Rspec,
            words(&["rspec"]),
            vec![found.to_owned()],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::runners::testing::targets;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Rspec, line)
    }

    #[test]
    fn rspec_is_recognised_alone_and_behind_bundler() {
        assert_eq!(recognised("rspec spec/a_spec.rb"), Some(0));
        assert_eq!(recognised("bundle exec rspec -f d"), Some(2));
        assert_eq!(recognised("rake spec"), Some(0));
        assert_eq!(recognised("rake spec:models"), Some(0));
        // Where it must not fire: another program behind bundler, rake's
        // other tasks, minitest's `ruby -Itest`.
        for line in [
            "bundle exec rake test",
            "rake test",
            "rake specs",
            "rake",
            "ruby -Itest t.rb",
        ] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    #[test]
    fn a_retry_selects_by_exact_description_or_place() {
        let rest = words(&["-f", "d", "-e", "old", "spec/"]);
        let got = select(
            &rest,
            &targets(&["Calc adds (1 + 1)", "./spec/flaky_spec.rb:17"]),
        )
        .unwrap();
        assert_eq!(
            got,
            [
                "-f",
                "d",
                "spec/",
                "-E",
                "^Calc\\ adds\\ \\(1\\ \\+\\ 1\\)$",
                "./spec/flaky_spec.rb:17"
            ]
        );
        assert!(!is_place("Calc adds: 1"));
        assert!(select(&words(&["-f"]), &targets(&["x"])).is_err());
    }

    use crate::runners::testing::detected;

    #[test]
    fn found_by_rspec_files_and_not_by_any_spec_folder() {
        assert_eq!(
            detected(&[(".rspec", "--require spec_helper\n")]),
            "rspec (found .rspec)"
        );
        assert_eq!(
            detected(&[("spec/calc_spec.rb", "")]),
            "rspec (found spec/*_spec.rb)"
        );
        assert_eq!(
            detected(&[("Rakefile", ""), ("test/calc_test.rb", "")]),
            "rake test (found Rakefile, test/)"
        );
        // Where it must not fire: jasmine's `spec/` beside a Node project.
        let node = detected(&[
            ("spec/calc.spec.js", ""),
            ("package.json", r#"{"scripts":{"test":"jest"}}"#),
        ]);
        assert!(node.starts_with("npm test"), "{node}");
    }

    #[test]
    fn the_report_keeps_the_console_formatter() {
        let place = Path::new("/tmp/r/report.json");
        let asked = report(&words(&["--format", "documentation"]), place).unwrap();
        assert_eq!(
            asked.env[0].value,
            "--format documentation --format json --out /tmp/r/report.json"
        );
        let asked = report(&[], place).unwrap();
        assert!(asked.env[0].value.starts_with("--format progress "));
        // Where it must not ask: the command writes its own file.
        assert_eq!(report(&words(&["-f", "json", "-o", "x.json"]), place), None);
    }

    #[test]
    fn rake_spec_selects_and_asks_through_spec_opts() {
        let got = Rspec
            .select(
                &words(&["spec"]),
                &targets(&["calc adds", "./spec/a_spec.rb:3"]),
                Path::new("."),
            )
            .unwrap();
        assert_eq!(
            got,
            ["spec", "SPEC_OPTS=-E '^calc\\ adds$' './spec/a_spec.rb:3'"]
        );
        let got = Rspec
            .select(
                &words(&["spec", "SPEC_OPTS=--order defined"]),
                &targets(&["it's"]),
                Path::new("."),
            )
            .unwrap();
        assert_eq!(got, ["spec", "SPEC_OPTS=--order defined -E '^it'\\''s$'"]);
        assert!(
            Rspec
                .select(
                    &words(&["spec", "SPEC_OPTS=-e old"]),
                    &targets(&["x"]),
                    Path::new(".")
                )
                .is_err()
        );
        let place = Path::new("/tmp/r/rspec.json");
        // No SPEC_OPTS argument: through the environment, rake's words kept.
        let asked = Rspec
            .report(&words(&["spec"]), place, Path::new("."))
            .unwrap();
        assert!(asked.through_environment);
        assert_eq!(asked.args, ["spec"]);
        assert_eq!(
            asked.env[0].value,
            "--format progress --format json --out /tmp/r/rspec.json"
        );
        // A SPEC_OPTS argument (which rake puts in place of the
        // environment's): the request is added to it.
        let asked = Rspec
            .report(&words(&["spec", "SPEC_OPTS=-E x"]), place, Path::new("."))
            .unwrap();
        assert!(!asked.through_environment);
        assert!(asked.env.is_empty());
        assert_eq!(
            asked.args,
            [
                "spec",
                "SPEC_OPTS=-E x --format progress --format json --out /tmp/r/rspec.json"
            ]
        );
    }
}
