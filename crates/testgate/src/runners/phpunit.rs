//! PHPUnit (`phpunit`, `vendor/bin/phpunit`, `php vendor/bin/phpunit`):
//! how testgate recognises it, finds it by its `phpunit.xml(.dist)`, asks
//! it for its JUnit report with `--log-junit` (PHPUnit 9 reads no variable
//! for it), and retries only the failed tests with one anchored `--filter`.

use std::path::Path;

use super::{
    FailsApart, ReportFormat, ReportRequest, ReportTarget, RunnerProfile, ScriptWrapper, Target,
    ToolOutput, names,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// PHPUnit's configuration files, in the order PHPUnit 9 looks for them.
const CONFIGS: &[&str] = &["phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"];

/// PHP's options that take their value as the next argument.
const PHP_VALUE_OPTIONS: &[&str] = &["-d", "-c", "-z", "-t", "-f"];

/// PHP's options after which the rest is code or input, never a script.
const PHP_CODE_OPTIONS: &[&str] = &["-r", "-B", "-R", "-F", "-E", "-a", "-S"];

/// PHPUnit's options that select tests by name: a targeted retry's
/// `--filter` replaces them.
const FILTER: &str = "--filter";

/// Whether `word` is a path to PHPUnit's script (`phpunit`,
/// `vendor/bin/phpunit`, `./vendor/phpunit/phpunit/phpunit`).
fn is_phpunit_path(word: &str) -> bool {
    word.rsplit('/').next() == Some("phpunit")
}

/// How many of `php`'s `args` come before PHPUnit's own: its options, then
/// the script; `None` when the script is not PHPUnit.
fn behind_php(args: &[String]) -> Option<usize> {
    let mut skip = false;
    for (i, arg) in args.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if PHP_CODE_OPTIONS.contains(&arg.as_str()) {
            return None;
        }
        if arg == "-f" {
            // `php -f SCRIPT`: the script is the next word.
            return args
                .get(i + 1)
                .filter(|script| is_phpunit_path(script))
                .map(|_| i + 2);
        }
        if arg.starts_with('-') {
            skip = PHP_VALUE_OPTIONS.contains(&arg.as_str());
            continue;
        }
        return is_phpunit_path(arg).then_some(i + 1);
    }
    None
}

/// `name` quoted for a PCRE pattern between `/` delimiters: every
/// character PCRE reads as its own (and the delimiter) behind a backslash,
/// as PHP's `preg_quote($name, '/')` does.
pub(crate) fn pcre_quote(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if matches!(
            c,
            '.' | '\\'
                | '+'
                | '*'
                | '?'
                | '['
                | '^'
                | ']'
                | '$'
                | '('
                | ')'
                | '{'
                | '}'
                | '='
                | '!'
                | '<'
                | '>'
                | '|'
                | ':'
                | '-'
                | '#'
                | '/'
        ) {
            out.push('\\');
        }
        if c == '\0' {
            out.push_str("\\000");
        } else {
            out.push(c);
        }
    }
    out
}

/// The `--filter` pattern that runs exactly `targets`: PHPUnit matches it
/// against `Ns\Class::method` plus ` with data set #N` or ` with data set
/// "name"`, so each name is quoted whole and anchored; a class failed as a
/// whole (no `::`) runs whole.
pub(crate) fn filter_pattern(targets: &[Target<'_>]) -> Result<String, String> {
    let mut parts: Vec<String> = Vec::new();
    for name in names(targets) {
        if name.is_empty() {
            return Err("an empty name selects no PHPUnit test".to_owned());
        }
        let part = if name.contains("::") {
            format!("{}$", pcre_quote(name))
        } else {
            format!("{}\\:\\:", pcre_quote(name))
        };
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    Ok(format!("/^(?:{})/", parts.join("|")))
}

/// `rest` without its own `--filter` (and its value), with one for
/// `targets`.
fn select(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let pattern = filter_pattern(targets)?;
    let mut out = Vec::with_capacity(rest.len() + 2);
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if word == FILTER {
            words.next();
            continue;
        }
        if word.starts_with("--filter=") {
            continue;
        }
        out.push(word.clone());
    }
    out.push(FILTER.to_owned());
    out.push(pattern);
    Ok(out)
}

/// The most bytes of `composer.json` read.
const COMPOSER_JSON_LIMIT: u64 = 1 << 20;

/// PHPUnit's own arguments in the `test` script of `workspace`'s
/// `composer.json`, where that script is one plain PHPUnit command
/// (`phpunit ARGS`, `vendor/bin/phpunit ARGS`, `@php vendor/bin/phpunit
/// ARGS`; a list of one such command); otherwise why not.
fn composer_script(workspace: &Path) -> Result<Vec<String>, String> {
    let path = workspace.join("composer.json");
    let bytes =
        testgate_run::read_project_file(&path, COMPOSER_JSON_LIMIT).map_err(|e| e.to_string())?;
    let json: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("cannot parse {}: {e}", path.display()))?;
    let script = match json.get("scripts").and_then(|scripts| scripts.get("test")) {
        Some(serde_json::Value::String(one)) => one.clone(),
        Some(serde_json::Value::Array(list)) if list.len() == 1 => list[0]
            .as_str()
            .ok_or("composer's `test` script is no command")?
            .to_owned(),
        Some(_) => return Err("composer's `test` script is more than one command".to_owned()),
        None => return Err(format!("{} has no `test` script", path.display())),
    };
    if let Some(c) = script
        .chars()
        .find(|c| ";&|<>$`'\"\\*?(){}[]#~\n".contains(*c))
    {
        return Err(format!(
            "composer's `test` script is a shell command (it holds `{c}`)"
        ));
    }
    let words: Vec<String> = script.split_whitespace().map(str::to_owned).collect();
    let (program, args) = words
        .split_first()
        .ok_or("composer's `test` script is empty")?;
    let base = program.rsplit('/').next().unwrap_or(program);
    let prefix = match base {
        "phpunit" => Some(0),
        "@php" | "php" => behind_php(args),
        _ => None,
    }
    .ok_or_else(|| format!("composer's `test` script runs `{program}`, not PHPUnit"))?;
    Ok(args[prefix..].to_vec())
}

/// Whether composer's arguments `args` run the project's `test` script
/// (`composer test ARGS`).
fn is_composer_test(args: &[String]) -> bool {
    args.first().is_some_and(|a| a == "test")
}

/// `composer test`'s own words `rest` split at its `--`: composer's
/// options, and the words composer appends to the script.
fn composer_words(rest: &[String]) -> (&[String], &[String]) {
    match rest.iter().position(|w| w == "--") {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[]),
    }
}

/// `composer test`'s words `rest` with `extra` appended to what composer
/// passes on to the script (after `--`).
fn composer_appended(rest: &[String], extra: &[String]) -> Vec<String> {
    let (own, passed) = composer_words(rest);
    let mut out = own.to_vec();
    out.push("--".to_owned());
    out.extend(passed.iter().cloned());
    out.extend(extra.iter().cloned());
    out
}

/// `composer test` whose script is a plain PHPUnit command (`rest`:
/// composer's words after `test`): the retry's `--filter` appended after
/// `--`, where the script's and the command's words select nothing
/// already.
fn composer_select(
    rest: &[String],
    targets: &[Target<'_>],
    workspace: &Path,
) -> Result<Vec<String>, String> {
    let mut phpunit = composer_script(workspace)?;
    phpunit.extend(composer_words(rest).1.iter().cloned());
    let rewritten = select(&phpunit, targets)?;
    let extra = rewritten
        .strip_prefix(phpunit.as_slice())
        .ok_or("composer's `test` script or the command selects tests with `--filter` already")?;
    Ok(composer_appended(rest, extra))
}

/// `composer test` whose script is a plain PHPUnit command (`rest`:
/// composer's words after `test`): `--log-junit PLACE` appended after
/// `--`; `None` where the script or the command names its own report, or
/// the script is not plain PHPUnit.
fn composer_report(rest: &[String], place: &Path, workspace: &Path) -> Option<ReportRequest> {
    let mut phpunit = composer_script(workspace).ok()?;
    phpunit.extend(composer_words(rest).1.iter().cloned());
    let asked = Phpunit.report(&phpunit, place, workspace)?;
    let extra = ["--log-junit".to_owned(), place.to_str()?.to_owned()];
    Some(ReportRequest {
        args: composer_appended(rest, &extra),
        ..asked
    })
}

/// The most bytes of a PHPUnit configuration read.
const CONFIG_LIMIT: u64 = 1 << 20;

/// The attributes of the root element `<phpunit …>` of PHPUnit's
/// configuration `xml`, by name; `None` where it has no such element.
fn root_attributes(xml: &str) -> Option<Vec<(&str, &str)>> {
    let mut rest = xml;
    // The declaration, comments and a doctype before the root element.
    loop {
        rest = rest.trim_start().strip_prefix('<')?;
        if let Some(after) = rest.strip_prefix("!--") {
            rest = &after[after.find("-->")? + 3..];
        } else if rest.starts_with('?') || rest.starts_with('!') {
            rest = &rest[rest.find('>')? + 1..];
        } else {
            break;
        }
    }
    let rest = rest
        .strip_prefix("phpunit")
        .filter(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/'))?;
    let mut attributes = Vec::new();
    let mut rest = rest;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with('>') || rest.starts_with("/>") {
            return Some(attributes);
        }
        let (name, after) = rest.split_once('=')?;
        let after = after.trim_start();
        let quote = after.chars().next().filter(|q| *q == '"' || *q == '\'')?;
        let value = &after[1..];
        let end = value.find(quote)?;
        attributes.push((name.trim(), &value[..end]));
        rest = &value[end + 1..];
    }
}

/// What the configuration `xml` fails a run on apart from failed tests:
/// its root's `failOnRisky` and `failOnWarning`, each set where its value
/// is `true` in any case (PHPUnit 9's `getBoolean`; any other value is
/// false).
fn configured(xml: &str) -> Option<FailsApart> {
    let attributes = root_attributes(xml)?;
    let set = |name: &str| {
        attributes
            .iter()
            .any(|(n, v)| *n == name && v.eq_ignore_ascii_case("true"))
    };
    Some(FailsApart {
        risky: set("failOnRisky"),
        warned: set("failOnWarning"),
    })
}

/// The configuration PHPUnit's arguments `rest` name (`-c FILE|DIR`,
/// `--configuration …`), `Some(None)` under `--no-configuration`, `None`
/// where they name none (PHPUnit then looks in the working directory).
fn configuration_named(rest: &[String]) -> Option<Option<&str>> {
    let mut words = rest.iter();
    let mut named = None;
    while let Some(word) = words.next() {
        if word == "--no-configuration" {
            return Some(None);
        }
        if word == "-c" || word == "--configuration" {
            named = words.next().map(String::as_str).or(named);
        } else if let Some(value) = word.strip_prefix("--configuration=") {
            named = Some(value);
        }
    }
    named.map(Some)
}

/// Which of the tests PHPUnit counts risky or warned about, not failed,
/// fail the run of PHPUnit's arguments `rest` run in `workspace`: the
/// configuration's `failOnRisky`/`failOnWarning` (the file `-c` names, or
/// `phpunit.xml`, else `phpunit.xml.dist` there, as PHPUnit 9.6 looks),
/// and the command's `--fail-on-risky`/`--fail-on-warning`, which only
/// add. `None` where a configuration is there and cannot be read.
fn fails_apart(rest: &[String], workspace: &Path) -> Option<FailsApart> {
    let named = configuration_named(rest);
    let candidates: Vec<std::path::PathBuf> = match named {
        Some(None) => Vec::new(),
        Some(Some(path)) => {
            let path = workspace.join(path);
            if path.is_dir() {
                ["phpunit.xml", "phpunit.xml.dist"]
                    .iter()
                    .map(|c| path.join(c))
                    .collect()
            } else {
                vec![path]
            }
        }
        None => ["phpunit.xml", "phpunit.xml.dist"]
            .iter()
            .map(|c| workspace.join(c))
            .collect(),
    };
    let mut fails = FailsApart::default();
    if let Some(config) = candidates.iter().find(|c| c.is_file()) {
        let bytes = testgate_run::read_project_file(config, CONFIG_LIMIT).ok()?;
        fails = configured(std::str::from_utf8(&bytes).ok()?)?;
    }
    fails.risky |= rest.iter().any(|w| w == "--fail-on-risky");
    fails.warned |= rest.iter().any(|w| w == "--fail-on-warning");
    Some(fails)
}

/// `composer test`'s [`fails_apart`]: its script's PHPUnit arguments and
/// those the command appends; `None` where the script is not plain PHPUnit.
fn composer_fails_apart(rest: &[String], workspace: &Path) -> Option<FailsApart> {
    let mut phpunit = composer_script(workspace).ok()?;
    phpunit.extend(composer_words(rest).1.iter().cloned());
    fails_apart(&phpunit, workspace)
}

/// `composer test` whose `test` script is a plain PHPUnit command: the
/// words after `--` are appended to the script.
struct ComposerTest;

impl ScriptWrapper for ComposerTest {
    fn runs(&self, workspace: &Path) -> bool {
        composer_script(workspace).is_ok()
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        workspace: &Path,
    ) -> Result<Vec<String>, String> {
        composer_select(rest, targets, workspace)
    }

    fn report(&self, rest: &[String], place: &Path, workspace: &Path) -> Option<ReportRequest> {
        composer_report(rest, place, workspace)
    }

    fn fails_apart(&self, rest: &[String], workspace: &Path) -> Option<FailsApart> {
        composer_fails_apart(rest, workspace)
    }
}

/// PHPUnit run by its script or by `php`, or behind `composer test`.
pub(super) struct Phpunit;

impl RunnerProfile for Phpunit {
    fn script_wrapper(
        &self,
        program: &str,
        args: &[String],
    ) -> Option<(usize, &'static dyn ScriptWrapper)> {
        (program == "composer" && is_composer_test(args)).then_some((1, &ComposerTest as _))
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::PHP
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["phpunit.xml or phpunit.xml.dist (phpunit, or vendor/bin/phpunit)"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        if program == "phpunit" {
            return Some(0);
        }
        if program == "php" || program.starts_with("php8") || program.starts_with("php7") {
            return behind_php(args);
        }
        None
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        select(rest, targets)
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        // The user's own report goes where they said; the console judges.
        if rest
            .iter()
            .any(|arg| arg == "--log-junit" || arg.starts_with("--log-junit="))
        {
            return None;
        }
        let mut args = vec!["--log-junit".to_owned(), place.to_str()?.to_owned()];
        args.extend(rest.iter().cloned());
        Some(ReportRequest {
            args,
            env: Vec::new(),
            files: Vec::new(),
            format: ReportFormat::JUnit,
            written_to: ReportTarget::File,
            through_environment: false,
        })
    }

    fn fails_apart(&self, rest: &[String], workspace: &Path) -> Option<FailsApart> {
        fails_apart(rest, workspace)
    }

    fn tool_output(&self) -> &'static [ToolOutput] {
        // PHPUnit 9 writes its result cache (for `executionOrder="defects"`)
        // beside its configuration by default.
        &[ToolOutput {
            name: ".phpunit.result.cache",
            beside: CONFIGS,
        }]
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        let phpunit = if program == "phpunit" {
            vec!["phpunit".to_owned(), "--version".to_owned()]
        } else {
            vec![
                "php".to_owned(),
                "vendor/bin/phpunit".to_owned(),
                "--version".to_owned(),
            ]
        };
        vec![vec!["php".to_owned(), "--version".to_owned()], phpunit]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        let config = CONFIGS.iter().find(|c| project.is_file(c))?;
        let mut found = vec![(*config).to_owned()];
        let command = if project.is_file("vendor/bin/phpunit") {
            found.push("vendor/bin/phpunit".to_owned());
            "vendor/bin/phpunit"
        } else {
            "phpunit"
        };
        Some(Detected::new(Runner::Phpunit, [command], found))
    }
}

#[cfg(test)]
mod tests {
    use super::{FailsApart, configuration_named, configured, fails_apart};
    use super::{
        Phpunit, RunnerProfile, composer_report, composer_script, composer_select, filter_pattern,
        is_composer_test, pcre_quote,
    };
    use crate::runners::words;
    use std::path::Path;

    fn recognised(line: &str) -> Option<usize> {
        crate::runners::testing::recognised(&Phpunit, line)
    }

    #[test]
    fn phpunit_is_recognised_by_its_script() {
        assert_eq!(recognised("phpunit"), Some(0));
        assert_eq!(recognised("vendor/bin/phpunit --testdox"), Some(0));
        assert_eq!(recognised("php vendor/bin/phpunit tests"), Some(1));
        assert_eq!(
            recognised("php -d memory_limit=-1 ./vendor/bin/phpunit"),
            Some(3)
        );
        // Where it must not fire: another PHP script, another program.
        for line in [
            "php artisan test",
            "php -r phpunit",
            "php -d x phpunit.php",
            "composer install",
            "pytest",
        ] {
            assert_eq!(recognised(line), None, "{line}");
        }
    }

    use crate::runners::testing::targets;

    #[test]
    fn names_are_quoted_whole_and_anchored() {
        assert_eq!(
            pcre_quote(r#"A\B::m with data set "x.y (1)""#),
            r#"A\\B\:\:m with data set "x\.y \(1\)""#
        );
        assert_eq!(pcre_quote("a/b#c"), r"a\/b\#c");
        assert_eq!(
            filter_pattern(&targets(&[
                r"Demo\CalcTest::testFails",
                r"Demo\CalcTest::testN with data set #1",
                r"Demo\BrokenTest",
            ]))
            .unwrap(),
            r"/^(?:Demo\\CalcTest\:\:testFails$|Demo\\CalcTest\:\:testN with data set \#1$|Demo\\BrokenTest\:\:)/"
        );
    }

    #[test]
    fn a_retry_replaces_the_commands_filter() {
        let rest: Vec<String> = ["--filter", "old", "tests", "--filter=x", "--testdox"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        let out = Phpunit
            .select(&rest, &targets(&[r"A\B::m"]), Path::new("."))
            .unwrap();
        assert_eq!(
            out,
            ["tests", "--testdox", "--filter", r"/^(?:A\\B\:\:m$)/"]
        );
    }

    #[test]
    fn the_report_is_asked_by_flag_unless_the_command_names_its_own() {
        let place = Path::new("/tmp/r/phpunit.xml");
        let asked = Phpunit.report(&["tests".to_owned()], place, Path::new("."));
        assert_eq!(
            asked.map(|r| r.args),
            Some(vec![
                "--log-junit".to_owned(),
                "/tmp/r/phpunit.xml".to_owned(),
                "tests".to_owned()
            ])
        );
        let own = ["--log-junit=mine.xml".to_owned()];
        assert!(Phpunit.report(&own, place, Path::new(".")).is_none());
    }

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test builds its own small trees, in folders no test command ran in"
    )]
    fn found_by_its_configuration_and_its_vendor_script() {
        let host = crate::detect::HostFacts::default();
        let found = |files: &[&str]| {
            let dir = tempfile::tempdir().expect("tempdir");
            for file in files {
                let path = dir.path().join(file);
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                std::fs::write(&path, "").expect("write");
            }
            let view = crate::detect::ProjectView::open(dir.path(), &host).expect("view");
            Phpunit.detect(&view).map(|d| d.shown_command())
        };
        assert_eq!(found(&["phpunit.xml.dist"]).as_deref(), Some("phpunit"));
        assert_eq!(
            found(&["phpunit.xml", "vendor/bin/phpunit"]).as_deref(),
            Some("vendor/bin/phpunit")
        );
        // Where it must not fire: composer alone, a tests folder alone.
        assert_eq!(found(&["composer.json", "tests/ATest.php"]), None);
    }

    /// `composer test` whose `test` script is plain PHPUnit: the retry's
    /// filter and the report's `--log-junit` go after `--`.
    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test writes its own composer.json, in a folder no test command ran in"
    )]
    fn composer_test_selects_and_asks_after_the_dashes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |script: &str| {
            let json = format!(r#"{{"scripts": {{"test": {script}}}}}"#);
            std::fs::write(dir.path().join("composer.json"), json).expect("write");
        };
        write(r#""vendor/bin/phpunit --colors=never""#);
        let got =
            composer_select(&[], &targets(&["Tests\\CalcTest::testAdds"]), dir.path()).unwrap();
        assert_eq!(got[0], "--");
        assert_eq!(got[1], "--filter");
        let place = Path::new("/tmp/r/phpunit.xml");
        let asked = composer_report(&words(&["--timeout=0"]), place, dir.path()).unwrap();
        assert_eq!(
            asked.args,
            ["--timeout=0", "--", "--log-junit", "/tmp/r/phpunit.xml"]
        );
        let asked = composer_report(&words(&["--", "tests"]), place, dir.path()).unwrap();
        assert_eq!(
            asked.args,
            ["--", "tests", "--log-junit", "/tmp/r/phpunit.xml"]
        );
        write(r#"["@php vendor/bin/phpunit"]"#);
        assert!(composer_script(dir.path()).is_ok());
        // Where it must not fire: a script that is no plain PHPUnit
        // command, a filter the script holds already, its own report.
        for script in [
            r#""phpstan && phpunit""#,
            r#""pest""#,
            r#"["phpunit", "phpstan"]"#,
        ] {
            write(script);
            assert!(composer_script(dir.path()).is_err(), "{script}");
            assert_eq!(composer_report(&[], place, dir.path()), None, "{script}");
        }
        write(r#""phpunit --filter old""#);
        assert!(composer_select(&[], &targets(&["A::b"]), dir.path()).is_err());
        write(r#""phpunit --log-junit mine.xml""#);
        assert_eq!(composer_report(&[], place, dir.path()), None);
        assert!(is_composer_test(&words(&["test"])));
        assert!(!is_composer_test(&words(&["install"])));
    }

    /// The configuration's root attributes, as PHPUnit 9.6 reads them: a
    /// value of `true` in any case sets one; anything else, or an element
    /// other than the root, does not.
    #[test]
    fn the_configuration_says_what_fails_a_run_apart_from_failed_tests() {
        let both = FailsApart {
            risky: true,
            warned: true,
        };
        let xml = "<?xml version=\"1.0\"?>\n<!-- a <phpunit failOnRisky=\"true\"> -->\n\
            <phpunit colors='false' failOnRisky=\"TRUE\"\n failOnWarning=\"true\">\n</phpunit>\n";
        assert_eq!(configured(xml), Some(both));
        let none = FailsApart::default();
        for xml in [
            "<phpunit failOnRisky=\"1\" failOnWarning=\"yes\"/>",
            "<phpunit colors=\"false\"><php><ini name=\"failOnRisky\" value=\"true\"/></php></phpunit>",
            "<phpunit failOnIncomplete=\"true\" failOnSkipped=\"true\">",
        ] {
            assert_eq!(configured(xml), Some(none), "{xml}");
        }
        // Where it must not fire: no `<phpunit>` root, a broken attribute.
        assert_eq!(configured("<phpunitx failOnRisky=\"true\"/>"), None);
        assert_eq!(configured("<phpunit failOnRisky=true>"), None);
        let rest = words(&["-c", "ci/phpunit.xml", "--fail-on-risky"]);
        assert_eq!(configuration_named(&rest), Some(Some("ci/phpunit.xml")));
        let rest = words(&["--configuration=ci", "--no-configuration"]);
        assert_eq!(configuration_named(&rest), Some(None));
        assert_eq!(configuration_named(&words(&["tests"])), None);
    }

    /// The configuration PHPUnit would read (phpunit.xml before
    /// phpunit.xml.dist, or what `-c` names, or none), with the flags,
    /// which only add.
    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test writes its own configurations, in a folder no test command ran in"
    )]
    fn the_project_fails_apart_by_its_configuration_and_flags() {
        let project = tempfile::tempdir().unwrap();
        let dir = project.path();
        let none = FailsApart::default();
        let risky = FailsApart {
            risky: true,
            warned: false,
        };
        let warned = FailsApart {
            risky: false,
            warned: true,
        };
        assert_eq!(fails_apart(&[], dir), Some(none));
        let flag = words(&["--fail-on-warning"]);
        assert_eq!(fails_apart(&flag, dir), Some(warned));
        std::fs::write(
            dir.join("phpunit.xml.dist"),
            "<phpunit failOnRisky=\"true\"/>",
        )
        .unwrap();
        assert_eq!(fails_apart(&[], dir), Some(risky));
        assert_eq!(
            fails_apart(&flag, dir),
            Some(FailsApart {
                risky: true,
                warned: true
            })
        );
        std::fs::write(dir.join("phpunit.xml"), "<phpunit/>").unwrap();
        assert_eq!(fails_apart(&[], dir), Some(none));
        std::fs::create_dir(dir.join("ci")).unwrap();
        std::fs::write(
            dir.join("ci/phpunit.xml"),
            "<phpunit failOnWarning=\"true\"/>",
        )
        .unwrap();
        assert_eq!(fails_apart(&words(&["-c", "ci"]), dir), Some(warned));
        assert_eq!(
            fails_apart(&words(&["--configuration", "ci/phpunit.xml"]), dir),
            Some(warned)
        );
        assert_eq!(
            fails_apart(&words(&["--no-configuration"]), dir),
            Some(none)
        );
        // Behind `composer test`: its script's words and the command's.
        std::fs::write(
            dir.join("composer.json"),
            r#"{"scripts":{"test":"phpunit -c ci"}}"#,
        )
        .unwrap();
        let composer = |args: &[&str]| crate::runners::fails_apart("composer", &words(args), dir);
        assert_eq!(composer(&["test"]), Some(warned));
        assert_eq!(
            composer(&["test", "--", "--fail-on-risky"]),
            Some(FailsApart {
                risky: true,
                warned: true
            })
        );
        // A configuration that is not PHPUnit's: not known.
        std::fs::write(dir.join("phpunit.xml"), "not xml").unwrap();
        assert_eq!(fails_apart(&[], dir), None);
        // Where it must not fire: another runner's command.
        assert_eq!(crate::runners::fails_apart("pytest", &[], dir), None);
    }
}
