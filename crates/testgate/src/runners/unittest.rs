//! Python's unittest and Django's test runner: how testgate recognises them
//! (`python -m unittest`, `python -m django test`, `manage.py test`,
//! Django's `runtests.py`), finds them in a project with no pytest
//! configuration, asks their versions, and retries only the failed tests by
//! their dotted names in place of the labels.

use std::path::Path;

use testgate_parse::Runner;

use super::pytest::{interpreter, is_python, pytest_marker};
use super::{
    EnvJoin, ReportEnv, ReportFile, ReportFormat, ReportRequest, ReportTarget, RunnerProfile,
    Target, names,
};
use crate::project_view::{Detected, ProjectView};

/// Options of unittest's and Django's command lines that take their value
/// as the next argument (`-v` only where a number follows: unittest's is a
/// flag, Django's takes the verbosity).
const VALUE_OPTIONS: &[&str] = &[
    "-k",
    "-p",
    "-s",
    "-t",
    "--pattern",
    "--start-directory",
    "--top-level-directory",
    "--durations",
    "--settings",
    "--pythonpath",
    "--testrunner",
    "--tag",
    "--exclude-tag",
    "--start-after",
    "--start-at",
    "--bisect",
    "--pair",
    "--selenium",
    "--selenium-hub",
    "--external-host",
    "--verbosity",
];

/// Options whose value is optional (`--parallel`, `--parallel 4`,
/// `--parallel auto`; `--shuffle`, `--shuffle 42`): the next argument is
/// their value when it is a number or `auto`, never a dotted label.
const OPTIONAL_VALUE: &[&str] = &["--parallel", "--shuffle", "-v"];

/// Options dropped from a targeted retry: they select tests by pattern,
/// tag, or place in the run, which the names replace.
const DROPPED: &[&str] = &[
    "-k",
    "-p",
    "--pattern",
    "--tag",
    "--exclude-tag",
    "--start-after",
    "--start-at",
    "--bisect",
    "--pair",
];

/// The hooks unittest reports under their own name when they fail
/// (`setUpClass (m.C)`, `setUpModule (m)`): no test of that name exists,
/// the class or module they prepare is what ran.
const HOOKS: &[&str] = &[
    "setUpClass",
    "tearDownClass",
    "setUpModule",
    "tearDownModule",
];

/// The dotted label that runs the test unittest describes as `name`
/// (`test_x (m.C)` is `m.C.test_x`; a module that failed to import, `m`,
/// stays; a failed class or module hook runs its class or module). `Err`
/// where no label runs it alone: a doctest (`func (mod)`, whose module is
/// `mod.py` in `workspace`) runs only with its whole module, and a name that
/// is no dotted Python path is no unittest name.
fn label(name: &str, workspace: &Path) -> Result<String, String> {
    let dotted = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && !s.ends_with('.')
            && !s.contains("..")
            && s.chars()
                .all(|c| c == '.' || c == '_' || c.is_alphanumeric())
    };
    let Some((method, rest)) = name.split_once(" (") else {
        return if dotted(name) {
            Ok(name.to_owned())
        } else {
            Err(format!("`{name}` is not a unittest test name"))
        };
    };
    let owner = rest.strip_suffix(')').unwrap_or_default();
    if !dotted(method) || method.contains('.') || !dotted(owner) {
        return Err(format!("`{name}` is not a unittest test name"));
    }
    if HOOKS.contains(&method) {
        return Ok(owner.to_owned());
    }
    if is_module(owner, workspace) || is_method_doctest(method, owner, workspace) {
        return Err(format!(
            "`{name}` is a doctest, which unittest runs only with its whole module"
        ));
    }
    Ok(format!("{owner}.{method}"))
}

/// Whether `dotted` names a module or package in `workspace` (`m.test_doc`:
/// `m/test_doc.py` or `m/test_doc/`), as unittest imports it from the
/// working directory.
fn is_module(dotted: &str, workspace: &Path) -> bool {
    let path = workspace.join(dotted.replace('.', "/"));
    path.with_extension("py").exists() || path.is_dir()
}

/// Whether `method (owner)` is a doctest of a class's method (`area
/// (shapes.test_doc.Box)`): `owner` is a class of a module in `workspace`
/// and `method` is no name unittest's loader takes for a test (`test*`,
/// `runTest`), so no TestCase holds it.
fn is_method_doctest(method: &str, owner: &str, workspace: &Path) -> bool {
    !method.starts_with("test")
        && method != "runTest"
        && owner
            .rsplit_once('.')
            .is_some_and(|(module, _)| is_module(module, workspace))
}

/// unittest's or Django's arguments `rest`, the labels replaced by the
/// dotted names of `targets` and the options that select by pattern, tag or
/// place dropped. `python -m unittest discover` runs from its top-level
/// directory: only a discovery from the working directory (`-t .`, or no
/// `-t` and `-s .`) names the tests as a run from there imports them.
fn select(
    rest: &[String],
    targets: &[Target<'_>],
    workspace: &Path,
) -> Result<Vec<String>, String> {
    let labels = names(targets)
        .into_iter()
        .map(|name| label(name, workspace))
        .collect::<Result<Vec<String>, String>>()?;
    let mut out: Vec<String> = Vec::with_capacity(rest.len() + labels.len());
    let mut discover = false;
    let (mut start, mut top) = (None, None);
    // discover's start directory, pattern and top-level directory.
    let mut positional = 0;
    let mut i = 0;
    while i < rest.len() {
        let arg = &rest[i];
        i += 1;
        if arg == "discover" && i == 1 {
            discover = true;
            continue;
        }
        if !arg.starts_with('-') || arg == "-" {
            // A label, or discover's start, pattern and top-level directory.
            if discover {
                match positional {
                    0 => start = Some(arg.clone()),
                    2 => top = Some(arg.clone()),
                    _ => {}
                }
                positional += 1;
            }
            continue;
        }
        let (option, joined) = match arg.split_once('=') {
            Some((option, value)) if option.starts_with("--") => (option, Some(value)),
            _ => (arg.as_str(), None),
        };
        let next = rest.get(i);
        let value = if joined.is_some() {
            None
        } else if VALUE_OPTIONS.contains(&option) {
            Some(next.ok_or_else(|| format!("the option `{arg}` has no value"))?)
        } else if OPTIONAL_VALUE.contains(&option) {
            next.filter(|v| v.as_str() == "auto" || v.bytes().all(|b| b.is_ascii_digit()))
                .filter(|v| !v.is_empty())
        } else {
            None
        };
        i += usize::from(value.is_some());
        let value_text = value.map(String::as_str).or(joined);
        match option {
            "-s" | "--start-directory" if discover => start = value_text.map(str::to_owned),
            "-t" | "--top-level-directory" if discover => top = value_text.map(str::to_owned),
            _ if DROPPED.contains(&option) => {}
            _ => {
                out.push(arg.clone());
                out.extend(value.cloned());
            }
        }
    }
    if let Some(from) = top.or(start).filter(|_| discover)
        && !matches!(from.trim_end_matches('/'), "." | "")
    {
        return Err(format!(
            "unittest's discover names the tests from `{from}`, not from the working directory"
        ));
    }
    out.extend(labels);
    Ok(out)
}

/// Python 3.11's `test_x (m.C.test_x)` as `test_x (m.C)`, the name the
/// parser and the recorder's report give, also where the list kept the
/// docstring's line `-v` prints under it (`test_x (m.C)\nCounts…`); `None`
/// for any other name (a docstring's line alone is graded as the test the
/// run gives it to: `Attempt::aliases`).
fn listed_name(name: &str) -> Option<String> {
    if let Some((first, _docstring)) = name.split_once('\n') {
        let first = first.trim_end();
        return listed_name(first).or_else(|| is_test_name(first).then(|| first.to_owned()));
    }
    let (method, rest) = name.split_once(" (")?;
    let owner = rest.strip_suffix(')')?;
    let class = owner.strip_suffix(method)?.strip_suffix('.')?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c == '.' || c == '_' || c.is_alphanumeric())
    };
    (plain(method) && !method.contains('.') && plain(class)).then(|| format!("{method} ({class})"))
}

/// Whether `name` is unittest's canonical `test_x (m.C)`.
fn is_test_name(name: &str) -> bool {
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c == '.' || c == '_' || c.is_alphanumeric())
    };
    name.split_once(" (").is_some_and(|(method, rest)| {
        plain(method) && !method.contains('.') && rest.strip_suffix(')').is_some_and(plain)
    })
}

/// The option of python's own (before its module, script or `-c`) that
/// keeps the recorder out of the process `program args` starts: `E` and
/// `I` ignore `PYTHONPATH`, `S` imports no `sitecustomize`. `None` for
/// another program, or a python without them.
fn isolating_flag(program: &str, args: &[String]) -> Option<char> {
    if !is_python(script_name(program)) {
        return None;
    }
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let Some(flags) = arg.strip_prefix('-').filter(|f| !f.starts_with('-')) else {
            // A script, or a long option (`--version`): python's own end.
            return None;
        };
        for (at, flag) in flags.char_indices() {
            match flag {
                'E' | 'I' | 'S' => return Some(flag),
                // The module, the command: python's own options end.
                'c' | 'm' => return None,
                // The rest of the word is the option's value, else the
                // next word.
                'W' | 'X' => {
                    if at + 1 == flags.len() {
                        words.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    None
}

/// Whether the script `path` (a `runtests.py`) is where Django's tree
/// holds its own, `tests/runtests.py`: another project's `runtests.py` (a
/// pytest wrapper, nose's) is no unittest runner, and recognition reads no
/// file to tell. A `runtests.py` started as the program itself is known
/// by its file name alone (`./tests/runtests.py`, as SWE-bench runs
/// Django's): its retries still take only unittest's names.
fn djangos_runtests(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    parts.next();
    parts.next() == Some("tests")
}

/// The file name of the script `path` (`tests/runtests.py`: `runtests.py`).
fn script_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `python -m unittest`, `python -m django test`, `django-admin test`,
/// `manage.py test`, Django's `runtests.py`, each also as a virtual
/// environment's python by path.
pub(super) struct Unittest;

impl RunnerProfile for Unittest {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::UNITTEST
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::PYTHON
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &[
            "Django's manage.py",
            "test*.py modules importing unittest (without pytest's configuration)",
        ]
    }

    /// Django's settings (`DJANGO_SETTINGS_MODULE`), which `python -m
    /// django test` needs.
    fn env_prefixes(&self) -> &'static [&'static str] {
        &["DJANGO_"]
    }

    /// Django's scripts, which the host runs as the test command itself: a
    /// submission that rewrites one changes what the next check runs.
    fn host_files(&self) -> &'static [super::HostFile] {
        &[
            super::HostFile::Named("manage.py"),
            super::HostFile::Named("runtests.py"),
        ]
    }

    fn programs(&self) -> &'static [super::Program] {
        &[super::Program {
            names: &["django-admin", "manage.py", "runtests.py"],
            prefixes: &[],
            caches: &[],
        }]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let arg = |i: usize| args.get(i).map(String::as_str);
        match program {
            "manage.py" | "django-admin" => (arg(0) == Some("test")).then_some(1),
            "runtests.py" => Some(0),
            python if is_python(python) => match (arg(0), arg(1), arg(2)) {
                (Some("-m"), Some("unittest"), _) => Some(2),
                (Some("-m"), Some("django"), Some("test")) => Some(3),
                _ => match (arg(0).map(script_name), arg(1)) {
                    (Some("manage.py"), Some("test")) => Some(2),
                    (Some("runtests.py"), _) if djangos_runtests(&args[0]) => Some(1),
                    _ => None,
                },
            },
            _ => None,
        }
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        workspace: &Path,
    ) -> Result<Vec<String>, String> {
        select(rest, targets, workspace)
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    fn listed_name(&self, name: &str) -> Option<String> {
        listed_name(name)
    }

    fn unreachable_by(&self, program: &str, args: &[String]) -> Option<String> {
        let flag = isolating_flag(program, args)?;
        let what = if flag == 'S' {
            "imports no sitecustomize"
        } else {
            "ignores PYTHONPATH"
        };
        Some(format!(
            "python's -{flag} {what}, which is how testgate's unittest recorder reaches the \
             run: no report, so a Pass cannot stand (run python without -{flag})"
        ))
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        let python = if is_python(script_name(program)) {
            program.to_owned()
        } else {
            "python3".to_owned()
        };
        // Django's question fails where Django is not installed, and is
        // then left out.
        vec![
            vec![python.clone(), "--version".into()],
            vec![python, "-m".into(), "django".into(), "--version".into()],
        ]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        if pytest_marker(project).is_some_and(|(_, layout_only)| !layout_only) {
            return None;
        }
        let (python, from) = interpreter(project);
        let (command, marker) = if django(project) {
            (
                vec![python, "manage.py".into(), "test".into()],
                "Django's manage.py".to_owned(),
            )
        } else {
            let module = unittest_module(project)?;
            (
                vec![python, "-m".into(), "unittest".into()],
                format!("{module} importing unittest"),
            )
        };
        let mut found = vec![marker];
        found.extend(from);
        Some(Detected::new(Runner::Unittest, command, found))
    }
}

/// testgate's recorder of unittest's results, written as `sitecustomize.py`
/// beside the report's place (docs/formats.md, "Where the outcomes come
/// from").
const RECORDER: &str = include_str!("unittest_recorder.py");

/// unittest's report through the environment: the recorder's directory
/// (testgate's, outside the project) first on `PYTHONPATH`, before the
/// user's own, and the place in `TESTGATE_UNITTEST_REPORT`. Python imports
/// the recorder as `sitecustomize` at startup; it records what every
/// `unittest.TextTestRunner` gives (`python -m unittest`, Django's
/// `DiscoverRunner`, behind `make` or `tox` too) and then runs the
/// `sitecustomize` it shadows. The arguments are left alone.
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let dir = place.parent()?.to_str()?;
    // `:` would split the search path.
    if dir.contains(':') || place.to_str()?.is_empty() {
        return None;
    }
    Some(ReportRequest {
        args: rest.to_vec(),
        env: vec![
            ReportEnv {
                name: "PYTHONPATH",
                value: dir.to_owned(),
                join: EnvJoin::PrependPath,
            },
            ReportEnv {
                name: "TESTGATE_UNITTEST_REPORT",
                value: place.to_str()?.to_owned(),
                join: EnvJoin::Set,
            },
        ],
        files: vec![ReportFile {
            name: "sitecustomize.py",
            contents: RECORDER.to_owned(),
        }],
        format: ReportFormat::UnittestJson,
        written_to: ReportTarget::File,
        through_environment: true,
    })
}

/// Whether the project's root holds Django's `manage.py`.
fn django(project: &ProjectView<'_>) -> bool {
    project
        .text("manage.py")
        .is_some_and(|text| text.contains("django"))
}

/// The most test modules detection reads.
const MODULES_READ: usize = 32;

/// A `test*.py` module unittest's discovery from the root finds (at the
/// root, or in a `tests`/`test` package: a folder without `__init__.py` is
/// not searched) that imports unittest and not pytest.
fn unittest_module(project: &ProjectView<'_>) -> Option<String> {
    let mut candidates = Vec::new();
    for folder in ["", "tests", "test"] {
        if !folder.is_empty() && !project.is_file(&format!("{folder}/__init__.py")) {
            continue;
        }
        for name in project.names_in(folder) {
            let name = name.to_string_lossy();
            if name.starts_with("test") && name.ends_with(".py") {
                candidates.push(if folder.is_empty() {
                    name.into_owned()
                } else {
                    format!("{folder}/{name}")
                });
            }
        }
    }
    candidates.into_iter().take(MODULES_READ).find(|rel| {
        project.text(rel).is_some_and(|text| {
            let imports = |module: &str| {
                text.lines().any(|line| {
                    let line = line.trim_start();
                    line.starts_with(&format!("import {module}"))
                        || line.starts_with(&format!("from {module} "))
                        || line.starts_with(&format!("from {module}."))
                })
            };
            imports("unittest") && !imports("pytest")
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    use crate::runners::testing::targets;

    #[test]
    fn every_form_is_recognised_and_pytest_is_not() {
        let cases: &[(&str, &[&str], Option<usize>)] = &[
            ("python3", &["-m", "unittest", "-v"], Some(2)),
            ("python", &["-m", "unittest"], Some(2)),
            ("python3.11", &["-m", "django", "test", "app"], Some(3)),
            ("python", &["manage.py", "test", "app"], Some(2)),
            ("python3", &["src/manage.py", "test"], Some(2)),
            ("manage.py", &["test", "-v", "2"], Some(1)),
            ("django-admin", &["test"], Some(1)),
            ("runtests.py", &["--verbosity", "2", "mod"], Some(0)),
            ("python", &["tests/runtests.py", "mod"], Some(1)),
            ("python3", &["./tests/runtests.py", "mod"], Some(1)),
            ("python3", &["/testbed/tests/runtests.py"], Some(1)),
            // Where it must not fire: pytest, another module or command.
            ("python3", &["-m", "pytest"], None),
            ("python3", &["-m", "django", "runserver"], None),
            ("python", &["manage.py", "migrate"], None),
            ("manage.py", &["runserver"], None),
            ("python3", &["-c", "import unittest"], None),
            ("node", &["-m", "unittest"], None),
            // Another project's runtests.py (pytest's, at its root).
            ("python", &["runtests.py", "-x"], None),
            ("python3", &["./runtests.py"], None),
            ("python", &["scripts/runtests.py"], None),
        ];
        for (program, words, expected) in cases {
            assert_eq!(
                Unittest.recognise(program, &args(words)),
                *expected,
                "{program} {words:?}"
            );
        }
        assert_eq!(
            super::super::recognise("python3", &args(&["-m", "pytest"])).map(|(r, _)| r),
            Some(Runner::Pytest)
        );
    }

    #[test]
    fn pythons_isolating_flags_are_named() {
        let flag = |program: &str, words: &[&str]| isolating_flag(program, &args(words));
        assert_eq!(flag("python3", &["-I", "-m", "unittest"]), Some('I'));
        assert_eq!(
            flag("python3.11", &["-bE", "-m", "django", "test"]),
            Some('E')
        );
        assert_eq!(flag("python", &["-S", "manage.py", "test"]), Some('S'));
        assert_eq!(
            flag("python3", &["-W", "ignore", "-I", "-m", "unittest"]),
            Some('I')
        );
        // Where it must not fire: python's other options, the runner's own
        // (after the module), another program, `-W`'s value.
        assert_eq!(flag("python3", &["-m", "unittest", "-E"]), None);
        assert_eq!(flag("python3", &["-u", "-B", "-m", "unittest"]), None);
        assert_eq!(flag("python3", &["-WignoreE", "-m", "unittest"]), None);
        assert_eq!(flag("python3", &["manage.py", "test", "-I"]), None);
        assert_eq!(flag("pytest", &["-I"]), None);
    }

    #[test]
    fn djangos_settings_pass_and_its_secrets_do_not() {
        let policy = super::super::pass_runners_env(testgate_run::EnvPolicy::new());
        let host = [
            ("DJANGO_SETTINGS_MODULE", "site_cfg.settings"),
            ("DJANGO_CONFIGURATION", "Test"),
            ("DJANGO_SECRET_KEY", "canary"),
            ("DJANGO_DB_PASSWORD", "canary"),
            ("DJANGO_DATABASE_URL", "postgres://u:canary@db/x"),
        ];
        let passed: Vec<_> = policy
            .resolve(host.map(|(n, v)| (n.into(), v.into())))
            .into_iter()
            .map(|(name, _)| name)
            .filter(|name| name.to_string_lossy().starts_with("DJANGO_"))
            .collect();
        assert_eq!(passed, ["DJANGO_CONFIGURATION", "DJANGO_SETTINGS_MODULE"]);
        // Before the profile passed them: none of the host's.
        let before: Vec<_> = testgate_run::EnvPolicy::new()
            .resolve(host.map(|(n, v)| (n.into(), v.into())))
            .into_iter()
            .filter(|(name, _)| name.to_string_lossy().starts_with("DJANGO_"))
            .collect();
        assert!(before.is_empty(), "{before:?}");
    }

    #[test]
    fn the_report_is_asked_through_the_environment_from_outside() {
        let place = Path::new("/tmp/testgate-report-x/unittest.jsonl");
        let request = report(&args(&["-v", "app"]), place).expect("a request");
        assert_eq!(request.args, args(&["-v", "app"]), "the arguments alone");
        assert!(request.through_environment);
        assert_eq!(request.format, ReportFormat::UnittestJson);
        let env: Vec<_> = request
            .env
            .iter()
            .map(|v| (v.name, v.value.as_str(), v.join))
            .collect();
        assert_eq!(
            env,
            [
                ("PYTHONPATH", "/tmp/testgate-report-x", EnvJoin::PrependPath),
                (
                    "TESTGATE_UNITTEST_REPORT",
                    place.to_str().expect("utf-8"),
                    EnvJoin::Set
                ),
            ]
        );
        assert_eq!(request.files[0].name, "sitecustomize.py");
        assert!(
            request.files[0]
                .contents
                .contains("TESTGATE_UNITTEST_REPORT")
        );
        // Where it must not fire: a directory `:` would split.
        assert!(report(&[], Path::new("/tmp/a:b/unittest.jsonl")).is_none());
    }

    #[test]
    fn djangos_scripts_run_on_the_host() {
        for path in ["manage.py", "tests/runtests.py", "site/manage.py"] {
            assert!(crate::host_files::runs_on_host(Path::new(path)), "{path}");
        }
        // Where it must not fire: a test module, an app's views.
        for path in ["shop/tests.py", "shop/views.py", "manage_test.py"] {
            assert!(!crate::host_files::runs_on_host(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn python_311s_listed_names_are_canonical() {
        assert_eq!(
            listed_name("test_x (admin_views.tests.AdminTests.test_x)").as_deref(),
            Some("test_x (admin_views.tests.AdminTests)")
        );
        // The name and its docstring's line, as `-v` prints them.
        for listed in [
            "test_x (admin_views.tests.AdminTests.test_x)\nChecks the view.",
            "test_x (admin_views.tests.AdminTests)\nChecks the view.",
        ] {
            assert_eq!(
                listed_name(listed).as_deref(),
                Some("test_x (admin_views.tests.AdminTests)"),
                "{listed:?}"
            );
        }
        // Where it must not fire: a canonical name, a doctest, a docstring
        // line, a subtest, another runner's name, prose over two lines.
        for name in [
            "test_x (admin_views.tests.AdminTests)",
            "triple (shapes.test_doc)",
            "Regression test for #12345 (x.y)",
            "test_x (m.C.test_x) (i=1)",
            "tests/test_x.py::test_x",
            "Regression test for #1\nand more (x.y)",
        ] {
            assert_eq!(listed_name(name), None, "{name}");
        }
    }

    #[test]
    fn names_become_dotted_labels() {
        let here = Path::new("/nonexistent");
        assert_eq!(label("test_x (m.C)", here), Ok("m.C.test_x".to_owned()));
        assert_eq!(
            label("test_ünï (pkg.mod.Box)", here),
            Ok("pkg.mod.Box.test_ünï".to_owned())
        );
        assert_eq!(label("pkg.test_mod", here), Ok("pkg.test_mod".to_owned()));
        assert_eq!(label("setUpClass (m.C)", here), Ok("m.C".to_owned()));
        assert_eq!(label("setUpModule (m)", here), Ok("m".to_owned()));
        // Where it must not fire: another runner's names.
        assert!(label("tests/test_x.py::test_y", here).is_err());
        assert!(label("calc > adds", here).is_err());
        assert!(label("test_x (m.C) (i=1)", here).is_err());
    }

    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test builds its own fixture, in a folder no test command ran in"
    )]
    fn a_doctest_cannot_be_selected_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("shapes")).expect("mkdir");
        std::fs::write(dir.path().join("shapes/test_doc.py"), "").expect("write");
        let err = label("triple (shapes.test_doc)", dir.path()).expect_err("a doctest");
        assert!(err.contains("doctest"), "{err}");
        // A class method's doctest is named by its class.
        let err = label("area (shapes.test_doc.Box)", dir.path()).expect_err("a doctest");
        assert!(err.contains("doctest"), "{err}");
        // Where it must not fire: a class in that module, its `runTest`.
        assert_eq!(
            label("test_x (shapes.test_doc.C)", dir.path()),
            Ok("shapes.test_doc.C.test_x".to_owned())
        );
        assert_eq!(
            label("runTest (shapes.test_doc.C)", dir.path()),
            Ok("shapes.test_doc.C.runTest".to_owned())
        );
    }

    use crate::runners::testing::detected;

    #[test]
    fn found_where_pytest_is_not_configured() {
        const MODULE: &str = "import unittest\n\nclass T(unittest.TestCase):\n    pass\n";
        const MANAGE: &str = "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 's')\nfrom django.core.management import execute_from_command_line\n";
        assert_eq!(
            detected(&[("test_calc.py", MODULE)]),
            "python3 -m unittest (found test_calc.py importing unittest)"
        );
        assert_eq!(
            detected(&[("tests/__init__.py", ""), ("tests/test_calc.py", MODULE)]),
            "python3 -m unittest (found tests/test_calc.py importing unittest)"
        );
        assert_eq!(
            detected(&[("manage.py", MANAGE), ("app/tests.py", MODULE)]),
            "python3 manage.py test (found Django's manage.py)"
        );
        // Where it must not fire: pytest configured, a module of pytest's,
        // a folder discovery does not enter, a manage.py that is not
        // Django's.
        assert!(detected(&[("conftest.py", ""), ("test_calc.py", MODULE)]).contains("pytest"));
        assert!(
            detected(&[("pytest.ini", "[pytest]\n"), ("manage.py", MANAGE)]).contains("pytest")
        );
        let both = format!("import pytest\n{MODULE}");
        assert_eq!(
            detected(&[("tests/__init__.py", ""), ("tests/test_calc.py", &both)]),
            "python3 -m pytest (found tests/test_*.py)"
        );
        assert_eq!(
            detected(&[("tests/test_calc.py", MODULE)]),
            "python3 -m pytest (found tests/test_*.py)"
        );
        assert!(detected(&[("manage.py", "print('hi')\n")]).starts_with("found no test runner"));
    }

    #[test]
    fn labels_are_replaced_and_options_kept() {
        let here = Path::new("/nonexistent");
        let two = targets(&["test_a (m.C)", "test_b (m.C)", "test_a (m.C)"]);
        // The arguments, and what a retry runs instead (`None`: it cannot).
        type Case = (&'static [&'static str], Option<&'static [&'static str]>);
        let cases: &[Case] = &[
            (&["-v"], Some(&["-v", "m.C.test_a", "m.C.test_b"])),
            (
                &["-v", "-k", "slow", "old.mod", "-b"],
                Some(&["-v", "-b", "m.C.test_a", "m.C.test_b"]),
            ),
            // Django's: `-v 2`, `--parallel` with and without its value.
            (
                &[
                    "-v",
                    "2",
                    "--parallel",
                    "4",
                    "--settings=s",
                    "app",
                    "--keepdb",
                ],
                Some(&[
                    "-v",
                    "2",
                    "--parallel",
                    "4",
                    "--settings=s",
                    "--keepdb",
                    "m.C.test_a",
                    "m.C.test_b",
                ]),
            ),
            (
                &[
                    "--verbosity",
                    "2",
                    "--settings",
                    "test_sqlite",
                    "--parallel",
                    "1",
                    "utils_tests",
                ],
                Some(&[
                    "--verbosity",
                    "2",
                    "--settings",
                    "test_sqlite",
                    "--parallel",
                    "1",
                    "m.C.test_a",
                    "m.C.test_b",
                ]),
            ),
            (
                &["--parallel", "app"],
                Some(&["--parallel", "m.C.test_a", "m.C.test_b"]),
            ),
            (
                &["--tag", "slow", "--exclude-tag=db"],
                Some(&["m.C.test_a", "m.C.test_b"]),
            ),
            (&["discover"], Some(&["m.C.test_a", "m.C.test_b"])),
            (
                &["discover", "-s", ".", "-p", "*_test.py"],
                Some(&["m.C.test_a", "m.C.test_b"]),
            ),
            (
                &["discover", "-v", "-s", "tests", "-t", "."],
                Some(&["-v", "m.C.test_a", "m.C.test_b"]),
            ),
            // Where it cannot: discovery names the tests from elsewhere.
            (&["discover", "-s", "tests"], None),
            (&["discover", "tests"], None),
            (&["--settings"], None),
        ];
        for (rest, expected) in cases {
            let got = select(&args(rest), &two, here);
            match expected {
                Some(words) => assert_eq!(got, Ok(args(words)), "{rest:?}"),
                None => assert!(got.is_err(), "{rest:?}: {got:?}"),
            }
        }
    }
}
