//! pytest: how testgate recognises it (also as `python -m pytest`), asks its
//! versions, asks for its JUnit report, and retries only the failed tests by
//! node id in place of the path arguments.

use std::path::Path;

use super::{
    EnvJoin, ReportEnv, ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target,
    ToolOutput, names, one_of,
};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;
use testgate_run::EntryKind;

/// pytest options that take their value as the next argument.
const PYTEST_VALUE_OPTIONS: &[&str] = &[
    "-k",
    "-m",
    "-p",
    "-c",
    "-o",
    "-W",
    "-r",
    "-n",
    "--maxfail",
    "--tb",
    "--durations",
    "--durations-min",
    "--rootdir",
    "--basetemp",
    "--confcutdir",
    "--deselect",
    "--ignore",
    "--ignore-glob",
    "--junitxml",
    "--junit-xml",
    "--junit-prefix",
    "--log-level",
    "--log-file",
    "--log-file-level",
    "--log-format",
    "--log-date-format",
    "--log-cli-level",
    "--import-mode",
    "--capture",
    "--dist",
    "--timeout",
    "--override-ini",
    "--color",
    "--code-highlight",
    "--inifile",
    "--config-file",
    "--pythonwarnings",
    "--cov",
    "--cov-report",
    "--cov-config",
    "--maxprocesses",
    "--numprocesses",
    "--tx",
    "--rsyncdir",
    "--lfnf",
    "--last-failed-no-failures",
    "--show-capture",
    "--assert",
    "--verbosity",
    "--doctest-glob",
    "--debug",
];

/// pytest options dropped from a targeted retry: they select or order by
/// keyword, marker or the previous run's cache, which the node ids replace
/// (and `-p no:cacheprovider` removes the cache options altogether).
const PYTEST_DROPPED: &[&str] = &[
    "-k",
    "-m",
    "--lf",
    "--last-failed",
    "--ff",
    "--failed-first",
    "--nf",
    "--new-first",
    "--sw",
    "--stepwise",
    "--sw-skip",
    "--stepwise-skip",
    "--cache-clear",
    "--lfnf",
    "--last-failed-no-failures",
];

/// `pytest OPTIONS -p no:cacheprovider NODEID…`: the options are kept, the
/// path arguments are replaced by the node ids, and the cache plugin is off
/// so `--lf` state cannot leak from one attempt into the next.
fn pytest(
    rest: &[String],
    targets: &[Target<'_>],
    workspace: &Path,
) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::with_capacity(rest.len() + targets.len() + 2);
    let mut cache_off = false;
    let mut i = 0;
    while i < rest.len() {
        let arg = &rest[i];
        if arg == "--" {
            // Everything after is a path: replaced by the node ids.
            for path in &rest[i + 1..] {
                pytest_path(path, workspace)?;
            }
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            pytest_path(arg, workspace)?;
            i += 1;
            continue;
        }
        let option = arg.split_once('=').map_or(arg.as_str(), |(o, _)| o);
        // `-kslow`, `-rA`: a short option with its value attached.
        let attached = !arg.starts_with("--")
            && arg.len() > 2
            && arg.is_char_boundary(2)
            && PYTEST_VALUE_OPTIONS.contains(&&arg[..2]);
        let option = if attached { &arg[..2] } else { option };
        let takes_next = !attached && !arg.contains('=') && PYTEST_VALUE_OPTIONS.contains(&option);
        let value = if takes_next { rest.get(i + 1) } else { None };
        if takes_next && value.is_none() {
            return Err(format!("the pytest option `{arg}` has no value"));
        }
        let joined_value = arg.split_once('=').map(|(_, v)| v);
        if option == "-p"
            && (value.map(String::as_str).or(joined_value) == Some("no:cacheprovider"))
        {
            cache_off = true;
        }
        if attached && arg == "-pno:cacheprovider" {
            cache_off = true;
        }
        if !PYTEST_DROPPED.contains(&option) {
            out.push(arg.clone());
            out.extend(value.cloned());
        }
        i += 1 + usize::from(takes_next);
    }
    if !cache_off {
        out.extend(["-p".to_owned(), "no:cacheprovider".to_owned()]);
    }
    if uses_coverage(rest, workspace)? {
        // A subset of the tests can never meet `--cov-fail-under`.
        out.push("--no-cov".to_owned());
    }
    out.extend(names(targets).into_iter().map(str::to_owned));
    Ok(out)
}

/// The most of one pytest configuration file read (`pyproject.toml` and
/// the like): larger ones are not a plain project's.
const CONFIG_LIMIT: u64 = 1 << 20;

/// Whether pytest-cov is in use: a `--cov` option in the arguments or in
/// the project's pytest configuration (`addopts`). `--no-cov` is only
/// understood where pytest-cov is installed, so it is added only then. The
/// tests may have replaced a configuration file (a FIFO, a link to
/// `/dev/zero`): it is read as a regular file only, never followed, never
/// waited on, capped, and one that cannot be read so is the reason the
/// retry is not targeted.
fn uses_coverage(rest: &[String], workspace: &Path) -> Result<bool, String> {
    let cov = |text: &str| text.split_whitespace().any(|w| w.starts_with("--cov"));
    if rest.iter().any(|arg| cov(arg)) {
        return Ok(true);
    }
    for name in ["pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"] {
        let bytes = match testgate_run::read_project_file(&workspace.join(name), CONFIG_LIMIT) {
            Ok(bytes) => bytes,
            Err(testgate_run::ProjectFileError::Open { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                continue;
            }
            Err(e) => return Err(format!("cannot tell whether pytest-cov is in use: {e}")),
        };
        let found = String::from_utf8_lossy(&bytes).lines().any(|line| {
            let line = line.trim_start().trim_start_matches(['"', '\'']);
            (line.contains("addopts") && cov(line)) || line.starts_with("--cov")
        });
        if found {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A positional pytest argument is dropped only when it is surely a path
/// (or node id) in the workspace; anything else may be the value of a
/// plugin's option, and dropping it would change the run.
fn pytest_path(arg: &str, workspace: &Path) -> Result<(), String> {
    let file = arg.split("::").next().unwrap_or(arg);
    if !file.is_empty() && workspace.join(file).exists() {
        Ok(())
    } else {
        Err(format!(
            "cannot tell whether the pytest argument `{arg}` is a path or an option's value"
        ))
    }
}

/// `pytest`, `py.test`, and `python -m pytest`.
pub(super) struct Pytest;

impl RunnerProfile for Pytest {
    fn structured(&self) -> bool {
        // Its JUnit report is obtained by default.
        true
    }

    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::PYTEST
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::PYTHON
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &[
            "pytest's configuration (pytest.ini, pyproject.toml's [tool.pytest.ini_options], setup.cfg's [tool:pytest], tox.ini's [pytest], conftest.py, tests/test_*.py)",
        ]
    }

    fn env_prefixes(&self) -> &'static [&'static str] {
        &["PYTEST_"]
    }

    fn programs(&self) -> &'static [super::Program] {
        &[super::Program {
            names: &["pytest", "py.test"],
            prefixes: &[],
            caches: &[],
        }]
    }

    fn host_files(&self) -> &'static [super::HostFile] {
        &[
            super::HostFile::Named("conftest.py"),
            super::HostFile::Named("pytest.ini"),
        ]
    }

    fn shadowed(&self) -> &'static [super::Module] {
        &[
            super::Module {
                name: "pytest",
                package: true,
            },
            super::Module {
                name: "_pytest",
                package: true,
            },
            super::Module {
                name: "pluggy",
                package: true,
            },
            super::Module {
                name: "py",
                package: false,
            },
        ]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let arg = |i: usize| args.get(i).map(String::as_str);
        match program {
            "pytest" | "py.test" => Some(0),
            python if is_python(python) => {
                (arg(0) == Some("-m") && arg(1) == Some("pytest")).then_some(2)
            }
            _ => None,
        }
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        workspace: &Path,
    ) -> Result<Vec<String>, String> {
        pytest(rest, targets, workspace)
    }

    fn tool_output(&self) -> &'static [ToolOutput] {
        const PYTHON: &[&str] = &[
            "pyproject.toml",
            "setup.py",
            "setup.cfg",
            "tox.ini",
            "pytest.ini",
        ];
        const fn beside_python(name: &'static str) -> ToolOutput {
            ToolOutput {
                name,
                beside: PYTHON,
            }
        }
        // pytest's cache, hypothesis's database, pytest-benchmark's
        // folder (made even with --benchmark-disable), coverage.py's data
        // and HTML report.
        const OUTPUT: &[ToolOutput] = &[
            beside_python(".pytest_cache"),
            beside_python(".hypothesis"),
            beside_python(".benchmarks"),
            beside_python(".coverage"),
            beside_python("htmlcov"),
        ];
        OUTPUT
    }

    fn report(&self, rest: &[String], place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, place)
    }

    fn version_questions(&self, program: &str) -> Vec<Vec<String>> {
        let python = if program.contains("python") {
            program.to_owned()
        } else {
            "python3".to_owned()
        };
        let pytest: Vec<String> = if program.contains("python") {
            vec![
                program.to_owned(),
                "-m".into(),
                "pytest".into(),
                "--version".into(),
            ]
        } else {
            vec!["pytest".into(), "--version".into()]
        };
        vec![vec![python, "--version".into()], pytest]
    }

    fn snapshot_update_word<'a>(&self, words: &'a [String]) -> Option<&'a str> {
        // syrupy's, pytest-snapshot's and their kin.
        one_of(
            words,
            &[
                "--snapshot-update",
                "--snapshot-update-all",
                "--update-snapshots",
                "--update-snapshot",
            ],
            &[],
        )
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        let (marker, layout_only) = pytest_marker(project)?;
        let (python, from) = interpreter(project);
        let mut found = vec![marker];
        found.extend(from);
        let detected = Detected::new(
            Runner::Pytest,
            [python, "-m".into(), "pytest".into()],
            found,
        );
        Some(if layout_only {
            detected.layout_only()
        } else {
            detected
        })
    }
}

/// What shows the project runs pytest, and whether only its layout does: a
/// configuration file with pytest's section, `conftest.py`, or else a
/// `tests/` (or `test/`) folder of `test_*.py` / `*_test.py` files.
pub(super) fn pytest_marker(project: &ProjectView<'_>) -> Option<(String, bool)> {
    let sections: [(&str, &[&str]); 4] = [
        ("pytest.ini", &[]),
        (
            "pyproject.toml",
            &["[tool.pytest.ini_options]", "[tool.pytest]"],
        ),
        ("setup.cfg", &["[tool:pytest]"]),
        ("tox.ini", &["[pytest]"]),
    ];
    for (file, headers) in sections {
        let named = if headers.is_empty() {
            project.is_file(file)
        } else {
            project.has_section(file, headers)
        };
        if named {
            let marker = match headers.first() {
                Some(header) => format!("{file}'s {header}"),
                None => file.to_owned(),
            };
            return Some((marker, false));
        }
    }
    if project.is_file("conftest.py") {
        return Some(("conftest.py".to_owned(), false));
    }
    ["tests", "test"].into_iter().find_map(|folder| {
        let test_file = project.names_in(folder).into_iter().any(|name| {
            let name = name.to_string_lossy();
            name.ends_with(".py") && (name.starts_with("test_") || name.ends_with("_test.py"))
        });
        test_file.then(|| (format!("{folder}/test_*.py"), true))
    })
}

/// The Python that runs pytest, and where it comes from: the project's own
/// virtual environment (`.venv/`, `venv/`), else the active one
/// (`VIRTUAL_ENV`), else `python3` on `PATH`. The interpreter is only
/// named here, never run: it runs inside the sandbox, whatever it links to.
pub(super) fn interpreter(project: &ProjectView<'_>) -> (std::ffi::OsString, Option<String>) {
    for venv in [".venv", "venv"] {
        let rel = format!("{venv}/bin/python");
        if matches!(
            project.kind(Path::new(&rel)),
            Some(EntryKind::File | EntryKind::Symlink)
        ) {
            return (project.root().join(&rel).into_os_string(), Some(rel));
        }
    }
    if let Some(venv) = &project.host().virtual_env {
        return (
            venv.join("bin/python").into_os_string(),
            Some(format!("the active virtual environment {}", venv.display())),
        );
    }
    ("python3".into(), None)
}

/// pytest's JUnit report through `PYTEST_ADDOPTS`, appended to the user's
/// own: the environment reaches pytest behind `tox`, `npm test`, `make` and
/// `bash -c` too, and pytest reads it after the configuration's `addopts`,
/// so our `--junitxml` replaces a configured one (a configuration's `-p
/// no:junitxml` leaves no report: `-p junitxml` cannot undo it, pytest then
/// registers the plugin twice). The command line comes last: where
/// `rest` names its own `--junitxml` (or turns the plugin off), the user chose
/// where the report goes, and the console judges alone (their `--report`
/// then reads it).
fn report(rest: &[String], place: &Path) -> Option<ReportRequest> {
    let owns_report = rest.iter().enumerate().any(|(i, arg)| {
        let option = arg.split_once('=').map_or(arg.as_str(), |(o, _)| o);
        let plugin_off = |value: &str| value == "no:junitxml";
        matches!(option, "--junitxml" | "--junit-xml")
            || arg == "-pno:junitxml"
            || (option == "-p" && rest.get(i + 1).is_some_and(|v| plugin_off(v)))
            || (option == "-p" && arg.split_once('=').is_some_and(|(_, v)| plugin_off(v)))
    });
    if owns_report {
        return None;
    }
    Some(ReportRequest {
        args: rest.to_vec(),
        env: vec![ReportEnv {
            name: "PYTEST_ADDOPTS",
            value: format!("--junitxml={}", shell_quoted(place)?),
            join: EnvJoin::AppendWords,
        }],
        files: Vec::new(),
        format: ReportFormat::JUnit,
        written_to: ReportTarget::File,
        through_environment: true,
    })
}

/// `path` as one word of a POSIX shell (pytest splits `PYTEST_ADDOPTS` with
/// `shlex`); `None` when it is not UTF-8.
pub(super) fn shell_quoted(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@%,".contains(&b));
    Some(if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    })
}

/// `python`, `python3`, `python3.12`.
pub(crate) fn is_python(program: &str) -> bool {
    program
        .strip_prefix("python")
        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}
