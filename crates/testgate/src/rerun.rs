//! Rewriting a test command so that a retry runs only the tests that
//! failed, with each runner's own exact selectors.
//!
//! The policy says *which* tests a targeted retry runs
//! ([`Selection::Only`](testgate_policy::Selection::Only)); this module says
//! *how*: it recognises the runner from the command's argv (also behind
//! `npm test` / `npm run NAME`, by reading `package.json`) and adds the
//! runner's exact selector for each name. Where it cannot do that safely it
//! says why, and the caller runs the full command instead. The rules are in
//! `docs/policy.md`, "Rerunning only the failed tests".

use std::ffi::{OsStr, OsString};
use std::path::Path;

use testgate_parse::Runner;

pub(crate) use crate::runners::Target;
use crate::runners::{self, npm, recognise};

/// The arguments of `program args` that run only `targets`, or why that
/// cannot be done exactly (then the full command must run). `workspace` is
/// where the command runs: pytest's path arguments are checked there, and
/// `npm`'s `package.json` is read from there.
pub(crate) fn targeted_args(
    program: &OsStr,
    args: &[OsString],
    targets: &[Target<'_>],
    workspace: &Path,
) -> Result<Vec<OsString>, String> {
    if targets.is_empty() {
        return Err("there are no names to select".to_owned());
    }
    let program = utf8(program)?;
    let args = args
        .iter()
        .map(|a| utf8(a).map(str::to_owned))
        .collect::<Result<Vec<String>, _>>()?;
    let base = basename(program);
    let rewritten = if base == "npm" {
        npm(&args, targets, workspace)?
    } else if let Some((_, prefix, wrapper)) = runners::script_wrapper(base, &args) {
        let mut out = args[..prefix].to_vec();
        out.extend(wrapper.select(&args[prefix..], targets, workspace)?);
        out
    } else {
        let Some((runner, prefix)) = recognise(base, &args) else {
            return Err(format!(
                "`{program}` is not a test runner testgate can select tests of"
            ));
        };
        let mut out: Vec<String> = args[..prefix].to_vec();
        out.extend(select(runner, &args[prefix..], targets, workspace)?);
        out
    };
    Ok(rewritten.into_iter().map(OsString::from).collect())
}

/// The runner `program args` starts, as [`targeted_args`] recognises it;
/// behind `npm test`/`npm run NAME`, the runner the script's first command
/// starts (after any `NAME=value` words).
pub(crate) fn runner_of(program: &OsStr, args: &[OsString], workspace: &Path) -> Option<Runner> {
    let program = basename(program.to_str()?);
    let args = args
        .iter()
        .map(|a| a.to_str().map(str::to_owned))
        .collect::<Option<Vec<String>>>()?;
    if let Some((runner, _, wrapper)) = runners::script_wrapper(program, &args) {
        return wrapper.runs(workspace).then_some(runner);
    }
    if program != "npm" {
        return recognise(program, &args).map(|(runner, _)| runner);
    }
    let script_name = npm::script_name(&args).ok()?;
    let script = npm::script(workspace, script_name).ok()?;
    let words: Vec<String> = script
        .split_whitespace()
        .skip_while(|w| w.contains('='))
        .map(str::to_owned)
        .collect();
    let (first, rest) = words.split_first()?;
    recognise(basename(first), rest).map(|(runner, _)| runner)
}

fn utf8(arg: &OsStr) -> Result<&str, String> {
    arg.to_str()
        .ok_or_else(|| format!("the argument {arg:?} is not UTF-8"))
}

fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// `program args` for a run that replays no cached result, when the
/// runner's profile says it would (`go test` without `-count`: go replays a
/// passing package's cached result, `ok pkg (cached)`, so every run of a
/// stress sequence after the first would run nothing). `None` for any other
/// command, or one that already runs afresh.
pub(crate) fn uncached(program: &OsStr, args: &[OsString]) -> Option<Vec<OsString>> {
    let words = args
        .iter()
        .map(|a| a.to_str().map(str::to_owned))
        .collect::<Option<Vec<String>>>()?;
    let (runner, prefix) = recognise(basename(program.to_str()?), &words)?;
    let rest = runners::profile(runner).uncached(&words[prefix..])?;
    let mut out = args[..prefix].to_vec();
    out.extend(rest.into_iter().map(OsString::from));
    Some(out)
}

/// The runner's own arguments `rest`, rewritten to run only `targets`.
fn select(
    runner: Runner,
    rest: &[String],
    targets: &[Target<'_>],
    workspace: &Path,
) -> Result<Vec<String>, String> {
    runners::profile(runner).select(rest, targets, workspace)
}

/// `npm test` / `npm run NAME` whose script is a plain runner command:
/// the selectors go after `--`, which npm appends to the script. Only a
/// rewrite that appends to the script's own arguments can be done so.
fn npm(args: &[String], targets: &[Target<'_>], workspace: &Path) -> Result<Vec<String>, String> {
    let (runner, script_args) = npm::script_runner(args, workspace)?;
    let rewritten = select(runner, &script_args, targets, workspace)?;
    let Some(extra) = rewritten.strip_prefix(script_args.as_slice()) else {
        let script_name = npm::script_name(args)?;
        return Err(format!(
            "the npm script `{script_name}` holds arguments a targeted retry must replace"
        ));
    };
    Ok(npm::appended(args, extra))
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    #[test]
    fn stress_runs_go_uncached_unless_the_command_counts() {
        let os = |words: &[&str]| words.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            super::uncached(OsStr::new("go"), &os(&["test", "-v", "./..."])),
            Some(os(&["test", "-count=1", "-v", "./..."]))
        );
        assert_eq!(
            super::uncached(OsStr::new("/usr/bin/go"), &os(&["test", "./..."])),
            Some(os(&["test", "-count=1", "./..."]))
        );
        // Where it must not fire: the user's own count, go vet, another
        // runner, and a `-count` meant for the test binary after -args.
        assert_eq!(
            super::uncached(OsStr::new("go"), &os(&["test", "-count=3", "./..."])),
            None
        );
        assert_eq!(
            super::uncached(OsStr::new("go"), &os(&["vet", "./..."])),
            None
        );
        assert_eq!(super::uncached(OsStr::new("cargo"), &os(&["test"])), None);
        assert_eq!(
            super::uncached(
                OsStr::new("go"),
                &os(&["test", ".", "-args", "-count", "2"])
            ),
            Some(os(&["test", "-count=1", ".", "-args", "-count", "2"]))
        );
    }

    use super::*;
    use crate::runners::{
        go_quote_meta, go_run_pattern, is_doctest, is_python, is_whole_target, js_escape,
        nextest_escape,
    };

    fn t<'a>(name: &'a str, context: Option<&'a str>) -> Target<'a> {
        Target { name, context }
    }

    /// The rewritten argv of `program args` in a workspace with the files
    /// `files` (and `package.json` holding `package`), or the reason.
    fn rewrite(
        command: &[&str],
        targets: &[Target<'_>],
        files: &[(&str, &str)],
    ) -> Result<Vec<String>, String> {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let args: Vec<OsString> = command[1..].iter().map(OsString::from).collect();
        targeted_args(OsStr::new(command[0]), &args, targets, dir.path())
            .map(|args| args.into_iter().map(|a| a.into_string().unwrap()).collect())
    }

    fn ok(command: &[&str], targets: &[Target<'_>]) -> Vec<String> {
        rewrite(command, targets, &[]).unwrap()
    }

    fn refused(command: &[&str], targets: &[Target<'_>], files: &[(&str, &str)]) -> String {
        rewrite(command, targets, files).unwrap_err()
    }

    /// The runner of `command` in a workspace holding `package`, as the
    /// presets see it.
    fn runner(command: &[&str], package: Option<&str>) -> Option<Runner> {
        let dir = tempfile::tempdir().unwrap();
        if let Some(package) = package {
            std::fs::write(dir.path().join("package.json"), package).unwrap();
        }
        let args: Vec<OsString> = command[1..].iter().map(OsString::from).collect();
        runner_of(OsStr::new(command[0]), &args, dir.path())
    }

    #[test]
    fn runners_are_recognised_for_the_presets() {
        assert_eq!(runner(&["go", "test", "./..."], None), Some(Runner::Go));
        assert_eq!(runner(&["go", "vet"], None), None);
        assert_eq!(runner(&["cargo", "test"], None), Some(Runner::Cargo));
        assert_eq!(
            runner(&["cargo", "nextest", "run"], None),
            Some(Runner::Nextest)
        );
        assert_eq!(runner(&["pytest", "-q"], None), Some(Runner::Pytest));
        assert_eq!(
            runner(&["python3", "-m", "pytest"], None),
            Some(Runner::Pytest)
        );
        assert_eq!(runner(&["npx", "jest"], None), Some(Runner::Jest));
        assert_eq!(
            runner(&["npx", "--no-install", "vitest", "run"], None),
            Some(Runner::Vitest)
        );
        let jest = r#"{"scripts": {"test": "NODE_OPTIONS=--x jest --ci", "unit": "vitest run"}}"#;
        assert_eq!(runner(&["npm", "test"], Some(jest)), Some(Runner::Jest));
        assert_eq!(
            runner(&["npm", "run", "unit"], Some(jest)),
            Some(Runner::Vitest)
        );
        assert_eq!(runner(&["npm", "run", "lint"], Some(jest)), None);
        assert_eq!(runner(&["npm", "test"], None), None);
        assert_eq!(runner(&["make", "test"], None), None);
    }

    #[test]
    fn mocha_and_node_test_are_recognised_also_behind_npm() {
        assert_eq!(runner(&["mocha"], None), Some(Runner::Mocha));
        assert_eq!(
            runner(&["npx", "--no-install", "mocha", "test/"], None),
            Some(Runner::Mocha)
        );
        assert_eq!(runner(&["node", "--test"], None), Some(Runner::Node));
        assert_eq!(runner(&["node", "app.js", "--test"], None), None);
        let scripts = r#"{"scripts": {"test": "mocha --reporter dot", "unit": "node --test"}}"#;
        assert_eq!(runner(&["npm", "test"], Some(scripts)), Some(Runner::Mocha));
        assert_eq!(
            runner(&["npm", "run", "unit"], Some(scripts)),
            Some(Runner::Node)
        );
    }

    #[test]
    fn mocha_and_node_test_select_by_anchored_patterns() {
        let targets = [t("calc big (1+1) [x]? millions $ ^", None)];
        assert_eq!(
            ok(&["npx", "mocha", "test/", "--grep", "old"], &targets),
            [
                "mocha",
                "test/",
                "--grep",
                r"^(?:calc big \(1\+1\) \[x\]\? millions \$ \^$)"
            ]
        );
        let targets = [t("calc > big (1+1) > millions $", None)];
        assert_eq!(
            ok(&["node", "--test", "a.test.js"], &targets),
            [
                "--test",
                r"--test-name-pattern=^(?:millions \$|calc big \(1\+1\) millions \$)$",
                "a.test.js"
            ]
        );
        // Behind npm, the pattern is appended to the script's command:
        // node takes it only where the script names no file.
        let node = [("package.json", r#"{"scripts": {"test": "node --test"}}"#)];
        assert_eq!(
            rewrite(&["npm", "test"], &targets, &node).unwrap(),
            [
                "test",
                "--",
                r"--test-name-pattern=^(?:millions \$|calc big \(1\+1\) millions \$)$"
            ]
        );
        let files = [("package.json", r#"{"scripts": {"test": "node --test t/"}}"#)];
        assert_eq!(
            refused(&["npm", "test"], &targets, &files),
            "the npm script `test` holds arguments a targeted retry must replace"
        );
    }

    #[test]
    fn cargo_test_appends_exact_names() {
        let targets = [
            t("tests::adds", Some("unittests src/lib.rs")),
            t("it::works", Some("tests/it.rs")),
        ];
        assert_eq!(
            ok(&["cargo", "test"], &targets),
            ["test", "--", "--exact", "tests::adds", "it::works"]
        );
        assert_eq!(
            ok(
                &[
                    "cargo",
                    "+nightly",
                    "test",
                    "-p",
                    "calc",
                    "--",
                    "--test-threads=1"
                ],
                &targets[..1]
            ),
            [
                "+nightly",
                "test",
                "-p",
                "calc",
                "--",
                "--test-threads=1",
                "--exact",
                "tests::adds"
            ]
        );
        assert_eq!(
            ok(
                &["/usr/bin/cargo", "test", "--", "--exact"],
                &[t("a", None), t("a", None)]
            ),
            ["test", "--", "--exact", "a"]
        );
    }

    #[test]
    fn cargo_doctests_are_not_selected() {
        let why = refused(
            &["cargo", "test"],
            &[
                t("tests::a", None),
                t("src/lib.rs - add (line 5)", Some("Doc-tests calc")),
            ],
            &[],
        );
        assert_eq!(
            why,
            "the doctest `src/lib.rs - add (line 5)` cannot be selected exactly"
        );
        // Where it must not fire: a name with ` - ` that is no doctest.
        assert!(!is_doctest(&t("tests::a - b", None)));
        assert!(is_doctest(&t("x", Some("Doc-tests calc"))));
        assert!(is_doctest(&t("src/lib.rs - Calc::add (line 14)", None)));
    }

    #[test]
    fn cargo_whole_targets_are_not_selected() {
        let why = refused(
            &["cargo", "test"],
            &[
                t("tests::a", None),
                t("--test regexp_filter", Some("tests/regexp_filter.rs")),
            ],
            &[],
        );
        assert_eq!(
            why,
            "the test target `--test regexp_filter` failed as a whole, not as a test a filter selects"
        );
        // Where it must not fire: a test's path.
        assert!(!is_whole_target(&t("tests::a", Some("tests/it.rs"))));
    }

    #[test]
    fn nextest_filters_each_name_in_its_binary() {
        let targets = [
            t("tests::adds", Some("calc")),
            t("big,one", Some("calc::it")),
            t("free", None),
        ];
        assert_eq!(
            ok(
                &[
                    "cargo",
                    "nextest",
                    "run",
                    "--profile",
                    "ci",
                    "--",
                    "--ignored"
                ],
                &targets
            ),
            [
                "nextest",
                "run",
                "--profile",
                "ci",
                "-E",
                r"(binary_id(=calc) & test(=tests::adds)) | (binary_id(=calc::it) & test(=big\,one)) | test(=free)",
                "--no-tests=fail",
                "--",
                "--ignored",
            ]
        );
        assert_eq!(
            ok(
                &["cargo", "nextest", "run", "--no-tests=warn"],
                &[t("a", None)]
            ),
            ["nextest", "run", "--no-tests=warn", "-E", "test(=a)"]
        );
    }

    #[test]
    fn nextest_escapes_what_its_matcher_reads() {
        assert_eq!(nextest_escape(r"a\b)c,d/e(f"), r"a\\b\)c\,d\/e(f");
        assert_eq!(nextest_escape("x\ny\tz\u{1}"), r"x\ny\tz\u{1}");
        assert_eq!(nextest_escape("ünï code"), "ünï code");
    }

    #[test]
    fn pytest_replaces_paths_by_node_ids() {
        let files = [("tests/test_x.py", ""), ("pytest.ini", "")];
        let targets = [
            t(
                "tests/test_x.py::TestA::test_b[1-2]",
                Some("tests/test_x.py"),
            ),
            t(
                "tests/test_x.py::test_w[with space [and] - dash]",
                Some("tests/test_x.py"),
            ),
        ];
        assert_eq!(
            rewrite(
                &[
                    "pytest",
                    "-q",
                    "tests",
                    "-k",
                    "slow",
                    "--lf",
                    "-x",
                    "--tb=short",
                    "-c",
                    "pytest.ini"
                ],
                &targets,
                &files
            )
            .unwrap_or_else(|e| panic!("{e}")),
            [
                "-q",
                "-x",
                "--tb=short",
                "-c",
                "pytest.ini",
                "-p",
                "no:cacheprovider",
                "tests/test_x.py::TestA::test_b[1-2]",
                "tests/test_x.py::test_w[with space [and] - dash]",
            ]
        );
        assert_eq!(
            rewrite(
                &[
                    "python3",
                    "-m",
                    "pytest",
                    "-p",
                    "no:cacheprovider",
                    "tests/test_x.py::test_y[ünï]"
                ],
                &targets[..1],
                &files
            )
            .unwrap(),
            [
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "tests/test_x.py::TestA::test_b[1-2]"
            ]
        );
        assert_eq!(
            rewrite(
                &[
                    "pytest",
                    "-kslow",
                    "-mnot slow",
                    "-rA",
                    "-pno:cacheprovider",
                    "-n",
                    "2"
                ],
                &targets[..1],
                &files
            )
            .unwrap(),
            [
                "-rA",
                "-pno:cacheprovider",
                "-n",
                "2",
                "tests/test_x.py::TestA::test_b[1-2]"
            ]
        );
        assert_eq!(
            rewrite(&["py.test", "--", "tests/test_x.py"], &targets[..1], &files).unwrap(),
            [
                "-p",
                "no:cacheprovider",
                "tests/test_x.py::TestA::test_b[1-2]"
            ]
        );
    }

    #[test]
    fn pytest_turns_coverage_off_where_pytest_cov_is_used() {
        let targets = [t("tests/test_a.py::test_x", Some("tests/test_a.py"))];
        let files = [("tests/test_a.py", "")];
        let with = rewrite(
            &["pytest", "--cov=app", "--cov-fail-under=90"],
            &targets,
            &files,
        )
        .unwrap();
        assert!(with.contains(&"--no-cov".to_owned()), "{with:?}");
        let ini = [
            ("tests/test_a.py", ""),
            ("pytest.ini", "[pytest]\naddopts =\n    --cov=app\n"),
        ];
        let configured = rewrite(&["pytest"], &targets, &ini).unwrap();
        assert!(
            configured.contains(&"--no-cov".to_owned()),
            "{configured:?}"
        );
        // Without pytest-cov, `--no-cov` would be an unknown option.
        let without = rewrite(&["pytest", "-q"], &targets, &files).unwrap();
        assert!(!without.contains(&"--no-cov".to_owned()), "{without:?}");
    }

    #[test]
    fn pytest_keeps_what_it_cannot_place() {
        let targets = [t("tests/test_x.py::test_a", Some("tests/test_x.py"))];
        // `--plugin-opt value`: `value` is no path, so it may be the value
        // of a plugin's option.
        assert_eq!(
            refused(&["pytest", "--plugin-opt", "value"], &targets, &[]),
            "cannot tell whether the pytest argument `value` is a path or an option's value"
        );
        assert_eq!(
            refused(&["pytest", "-k"], &targets, &[]),
            "the pytest option `-k` has no value"
        );
        assert!(!is_python("pythonista"));
        assert!(is_python("python3.12"));
        assert_eq!(
            refused(&["python3", "-m", "nose2"], &targets, &[]),
            "`python3` is not a test runner testgate can select tests of"
        );
        // unittest's, which reads no pytest name.
        assert_eq!(
            refused(&["python3", "-m", "unittest"], &targets, &[]),
            "`tests/test_x.py::test_a` is not a unittest test name"
        );
    }

    /// A project's own `runtests.py` that runs pytest: its retry gets no
    /// unittest labels (the full command runs); Django's, at
    /// `tests/runtests.py`, gets them.
    #[test]
    fn only_djangos_runtests_takes_unittest_labels() {
        let pytest = [t("tests/test_x.py::test_a", Some("tests/test_x.py"))];
        let files = [(
            "runtests.py",
            "import pytest, sys\nsys.exit(pytest.main())\n",
        )];
        assert_eq!(
            refused(&["python", "runtests.py", "-x"], &pytest, &files),
            "`python` is not a test runner testgate can select tests of"
        );
        // Started as the program: known by its file name alone, it still
        // takes no pytest name as a label.
        assert_eq!(
            refused(&["./runtests.py", "-x"], &pytest, &files),
            "`tests/test_x.py::test_a` is not a unittest test name"
        );
        let django = [t(
            "test_slugify (utils_tests.test_text.TestUtilsText)",
            None,
        )];
        assert_eq!(
            ok(
                &[
                    "python3",
                    "tests/runtests.py",
                    "--parallel",
                    "1",
                    "utils_tests"
                ],
                &django
            ),
            [
                "tests/runtests.py",
                "--parallel",
                "1",
                "utils_tests.test_text.TestUtilsText.test_slugify"
            ]
        );
    }

    #[test]
    fn go_quote_meta_escapes_what_go_does() {
        assert_eq!(
            go_quote_meta(r"a.b+c*d?e(f)g|h[i]j{k}l^m$n\o"),
            r"a\.b\+c\*d\?e\(f\)g\|h\[i\]j\{k\}l\^m\$n\\o"
        );
        assert_eq!(go_quote_meta("x=1,y_-_z ünï ✓"), "x=1,y_-_z ünï ✓");
    }

    #[test]
    fn go_run_pattern_anchors_each_level() {
        assert_eq!(go_run_pattern(&["TestA"]), "^TestA$");
        assert_eq!(go_run_pattern(&["TestA", "TestA/sub"]), "^TestA$/^sub$");
        assert_eq!(
            go_run_pattern(&[
                "TestParse",
                "TestParse/empty_input",
                "TestParse/x=1,y=[2]_-_z",
                "TestB"
            ]),
            r"^TestParse$/^empty_input$|^TestParse$/^x=1,y=\[2\]_-_z$|^TestB$"
        );
        // `TestAB` is no parent of `TestA`, nor `TestA` of `TestAB`.
        assert_eq!(
            go_run_pattern(&["TestA", "TestAB/x"]),
            "^TestA$|^TestAB$/^x$"
        );
        assert_eq!(go_run_pattern(&["TestU/ünïcode_✓"]), "^TestU$/^ünïcode_✓$");
    }

    #[test]
    fn go_test_runs_the_failing_packages() {
        let targets = [
            t("TestA", Some("example.com/m/a")),
            t("TestB/sub", Some("example.com/m/b")),
            t("TestC", Some("example.com/m/a")),
        ];
        assert_eq!(
            ok(
                &[
                    "go", "test", "-race", "-run", "Old", "-count", "3", "./...", "-timeout", "30s"
                ],
                &targets
            ),
            [
                "test",
                "-race",
                "-timeout",
                "30s",
                "-count=1",
                "-v",
                "-run",
                "^TestA$|^TestB$/^sub$|^TestC$",
                "example.com/m/a",
                "example.com/m/b",
            ]
        );
        // Without every package known, the given patterns stay; -json
        // states counts, so no -v.
        assert_eq!(
            ok(&["go", "test", "-json", "./..."], &[t("TestA", None)]),
            ["test", "-json", "-count=1", "-run", "^TestA$", "./..."]
        );
        assert_eq!(
            refused(&["go", "test", "./...", "-args", "-x"], &targets, &[]),
            "the go test command passes `-args` to the test binary"
        );
        assert_eq!(
            refused(&["go", "vet"], &targets, &[]),
            "`go` is not a test runner testgate can select tests of"
        );
    }

    #[test]
    fn js_escape_leaves_what_the_u_flag_forbids_escaping() {
        assert_eq!(
            js_escape(r"a.b*(c)[d]{e}|f/g^h$i+j?k\l"),
            r"a\.b\*\(c\)\[d\]\{e\}\|f\/g\^h\$i\+j\?k\\l"
        );
        assert_eq!(js_escape("x - y, z #1 ünï ✓"), "x - y, z #1 ünï ✓");
    }

    #[test]
    fn a_name_that_carries_its_file_selects_by_its_title() {
        // Two files failed `adds` (docs/formats.md: their names carry the
        // file); the pattern holds the title once, the files select.
        let jest = [
            t("src/a.test.js › adds", Some("src/a.test.js")),
            t("src/b.test.js › adds", Some("src/b.test.js")),
        ];
        assert_eq!(
            ok(&["jest"], &jest),
            [
                r"/src\/a\.test\.js$",
                r"/src\/b\.test\.js$",
                "--coverage=false",
                "-t",
                "^(?:adds)$"
            ]
        );
        let vitest = [
            t("src/a.test.js > m > adds", Some("src/a.test.js")),
            t("src/b.test.js > adds", Some("src/b.test.js")),
        ];
        assert_eq!(
            ok(&["vitest", "run"], &vitest),
            [
                "run",
                "src/a.test.js",
                "src/b.test.js",
                "--coverage.enabled=false",
                "-t",
                "^(?:m adds|adds)$"
            ]
        );
        // Where it must not fire: a title that only starts like a path, in
        // another file.
        let other = [t("src/a.test.js › adds", Some("src/b.test.js"))];
        assert_eq!(
            ok(&["jest"], &other)[2..],
            ["-t", r"^(?:src\/a\.test\.js adds)$"]
        );
    }

    #[test]
    fn jest_selects_files_and_full_names() {
        let targets = [
            t("calc › adds negative", Some("jest/calc.test.js")),
            t("calc › big › millions (1e6)", Some("jest/calc.test.js")),
        ];
        assert_eq!(
            ok(
                &[
                    "npx",
                    "--no-install",
                    "jest",
                    "--ci",
                    "-t",
                    "old",
                    "--testNamePattern=older"
                ],
                &targets
            ),
            [
                "--no-install",
                "jest",
                "--ci",
                r"/jest\/calc\.test\.js$",
                "--coverage=false",
                "-t",
                r"^(?:calc adds negative|calc big millions \(1e6\))$",
            ]
        );
        // A name whose file is unknown: every file, still only these tests.
        assert_eq!(
            ok(&["jest"], &[t("a › b", None)]),
            ["--coverage=false", "-t", "^(?:a b)$"]
        );
        // Coverage is off in a targeted retry, whatever the command said:
        // one test cannot meet a global threshold.
        assert_eq!(
            ok(
                &["jest", "--coverage", "--collectCoverage=true", "--ci"],
                &[t("a › b", None)]
            ),
            ["--ci", "--coverage=false", "-t", "^(?:a b)$"]
        );
    }

    #[test]
    fn vitest_selects_files_and_full_names() {
        let targets = [t("calc > adds > [x] y", Some("vitest/calc.test.js"))];
        assert_eq!(
            ok(&["npx", "vitest", "run", "--reporter=default"], &targets),
            [
                "vitest",
                "run",
                "--reporter=default",
                "vitest/calc.test.js",
                "--coverage.enabled=false",
                "-t",
                r"^(?:calc adds \[x\] y)$"
            ]
        );
        assert_eq!(ok(&["vitest"], &targets)[0], "vitest/calc.test.js");
    }

    #[test]
    fn composer_test_of_phpunit_gets_the_filter_after_dashes() {
        let files = [("composer.json", r#"{"scripts": {"test": "phpunit"}}"#)];
        let targets = [t("Tests\\CalcTest::testAdds", None)];
        let got = rewrite(&["composer", "test"], &targets, &files).unwrap();
        assert_eq!(got[..3], ["test", "--", "--filter"]);
        // Where it must not fire: a script that is no plain PHPUnit
        // command, composer's other commands.
        let shell = [("composer.json", r#"{"scripts": {"test": "phpunit && x"}}"#)];
        assert!(rewrite(&["composer", "test"], &targets, &shell).is_err());
        assert!(rewrite(&["composer", "install"], &targets, &files).is_err());
    }

    #[test]
    fn npm_scripts_of_a_runner_get_the_selectors_after_dashes() {
        let package = r#"{"scripts": {"test": "jest --ci", "unit": "vitest run", "sh": "jest && echo ok", "env": "CI=1 jest", "ava": "ava", "go": "go test ./..."}}"#;
        let files = [("package.json", package)];
        let targets = [t("a › b", Some("a.test.js"))];
        assert_eq!(
            rewrite(&["npm", "test"], &targets, &files).unwrap(),
            [
                "test",
                "--",
                r"/a\.test\.js$",
                "--coverage=false",
                "-t",
                "^(?:a b)$"
            ]
        );
        let vitest = [t("a > b", Some("a.test.js"))];
        assert_eq!(
            rewrite(&["npm", "run", "unit", "--", "--silent"], &vitest, &files).unwrap(),
            [
                "run",
                "unit",
                "--",
                "--silent",
                "a.test.js",
                "--coverage.enabled=false",
                "-t",
                "^(?:a b)$"
            ]
        );
        let why = |script: &str| rewrite(&["npm", "run", script], &targets, &files).unwrap_err();
        assert_eq!(
            why("sh"),
            "the npm script `sh` is a shell command (it holds `&`)"
        );
        assert_eq!(
            why("env"),
            "the npm script `env` sets variables before its command"
        );
        assert_eq!(
            why("ava"),
            "the npm script `ava` runs `ava`, not a test runner testgate can select tests of"
        );
        assert_eq!(
            why("go"),
            "the npm script `go` holds arguments a targeted retry must replace"
        );
        assert!(
            why("nope").ends_with("package.json has no script `nope`"),
            "{}",
            why("nope")
        );
        assert!(
            rewrite(&["npm", "test"], &targets, &[])
                .unwrap_err()
                .starts_with("cannot open ")
        );
        assert_eq!(
            rewrite(&["npm", "install"], &targets, &files).unwrap_err(),
            "the npm command runs no script"
        );
    }

    /// A package.json the tests replaced is refused in one line at once:
    /// reading a symlink to /dev/zero (or a FIFO without a writer: the
    /// `package-json-fifo` hostile suite) would otherwise hang testgate
    /// itself (issue 10, item 8).
    #[test]
    fn an_odd_package_json_is_a_reason_not_a_hang() {
        let targets = [t("a", None)];
        let dir = tempfile::tempdir().unwrap();
        let why = || {
            targeted_args(OsStr::new("npm"), &["test".into()], &targets, dir.path()).unwrap_err()
        };
        let path = dir.path().join("package.json");
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        assert!(
            why().ends_with("package.json is a symbolic link, not a regular file"),
            "{}",
            why()
        );
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, vec![b' '; 2 << 20]).unwrap();
        assert!(
            why().ends_with("package.json is larger than 1048576 bytes"),
            "{}",
            why()
        );
    }

    /// A FIFO at `path` (this crate forbids the unsafe of libc's).
    fn mkfifo(path: &std::path::Path) -> std::process::ExitStatus {
        std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap()
    }

    /// A pytest configuration file the tests replaced (a FIFO without a
    /// writer, a link to /dev/zero) is the reason the retry is not
    /// targeted, said at once: never a hang, never a read without bound
    /// (issue 24).
    #[test]
    fn an_odd_pytest_configuration_is_a_reason_not_a_hang() {
        let targets = [t("test_a.py::test_one", None)];
        let dir = tempfile::tempdir().unwrap();
        let args = || targeted_args(OsStr::new("pytest"), &["-q".into()], &targets, dir.path());
        assert!(args().is_ok(), "no configuration at all: {:?}", args());
        let path = dir.path().join("setup.cfg");
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let why = args().unwrap_err();
        assert!(
            why.ends_with("setup.cfg is a symbolic link, not a regular file"),
            "{why}"
        );
        std::fs::remove_file(&path).unwrap();
        assert!(mkfifo(&path).success());
        let why = args().unwrap_err();
        assert!(
            why.ends_with("setup.cfg is a FIFO, not a regular file"),
            "{why}"
        );
        assert!(
            why.starts_with("cannot tell whether pytest-cov is in use: "),
            "{why}"
        );
    }

    #[test]
    fn unknown_commands_and_no_names_run_the_full_command() {
        assert_eq!(
            refused(&["sh", "-c", "cargo test"], &[t("a", None)], &[]),
            "`sh` is not a test runner testgate can select tests of"
        );
        assert_eq!(
            refused(&["./run-tests.sh"], &[t("a", None)], &[]),
            "`./run-tests.sh` is not a test runner testgate can select tests of"
        );
        assert_eq!(
            refused(&["cargo", "test"], &[], &[]),
            "there are no names to select"
        );
        assert_eq!(
            refused(&["npx", "ava"], &[t("a", None)], &[]),
            "`npx` is not a test runner testgate can select tests of"
        );
    }

    proptest::proptest! {
        #[test]
        fn escaped_names_match_exactly_themselves(name in "\\PC{0,20}", other in "\\PC{0,20}") {
            for escaped in [go_quote_meta(&name), js_escape(&name)] {
                let exact = regex::Regex::new(&format!("^(?:{escaped})$")).unwrap();
                proptest::prop_assert!(exact.is_match(&name));
                proptest::prop_assert_eq!(exact.is_match(&other), other == name);
            }
        }
    }
}
