//! npm's scripts, read once for every runner a script may start: which
//! script an npm command runs (`npm test`, `npm run NAME` and their
//! aliases), and its text from the project's `package.json`.

use std::ffi::OsString;
use std::path::Path;

use testgate_parse::Runner;

use crate::project_view::{Detected, ProjectView};

/// The script the npm command `npm args` runs: `test` for `npm test` (and
/// `t`, `tst`), `NAME` for `npm run NAME` (and `run-script`, `rum`, `urn`);
/// otherwise why it runs none.
pub(crate) fn script_name(args: &[String]) -> Result<&str, String> {
    match args.first().map(String::as_str) {
        Some("test" | "t" | "tst") => Ok("test"),
        Some("run" | "run-script" | "rum" | "urn") => match args.get(1) {
            Some(name) if !name.starts_with('-') => Ok(name.as_str()),
            Some(_) | None => Err("the npm command names no script".to_owned()),
        },
        Some(_) | None => Err("the npm command runs no script".to_owned()),
    }
}

/// A package manager that runs a `package.json` script and hands it the
/// words that follow: npm, yarn (1.x, checked with 1.22) and pnpm (checked
/// with 9.15). Each passes them on its own way, which [`Manager::appended`]
/// follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Manager {
    Npm,
    Yarn,
    Pnpm,
}

impl Manager {
    /// The manager a program's file name is.
    pub(crate) fn of(base: &str) -> Option<Manager> {
        match base {
            "npm" => Some(Manager::Npm),
            "yarn" => Some(Manager::Yarn),
            "pnpm" => Some(Manager::Pnpm),
            _ => None,
        }
    }

    /// The script `args` runs: npm's as [`script_name`] says; yarn's and
    /// pnpm's `test` (pnpm's `t` too) and `run NAME` (a bare `yarn NAME`
    /// could be one of yarn's own commands: not read).
    pub(crate) fn script_name(self, args: &[String]) -> Result<&str, String> {
        match (self, args.first().map(String::as_str)) {
            (Manager::Npm, _) => script_name(args),
            (Manager::Yarn, Some("test")) | (Manager::Pnpm, Some("test" | "t")) => Ok("test"),
            (Manager::Yarn | Manager::Pnpm, Some("run")) => match args.get(1) {
                Some(name) if !name.starts_with('-') => Ok(name.as_str()),
                Some(_) | None => Err("the command names no script".to_owned()),
            },
            (Manager::Yarn | Manager::Pnpm, Some(_) | None) => {
                Err("the command runs no script".to_owned())
            }
        }
    }

    /// The words of the command `args` the manager passes on to its
    /// script: npm's and `pnpm test`'s after the `--` (those before it are
    /// the manager's options); yarn's after the script's name, its first
    /// `--` dropped; `pnpm run NAME`'s after the name.
    pub(crate) fn passed(self, args: &[String]) -> Vec<String> {
        let after_dashes = || {
            args.iter()
                .position(|w| w == "--")
                .map_or(&[][..], |at| &args[at + 1..])
                .to_vec()
        };
        let after_name = |name_at: usize| args.get(name_at + 1..).unwrap_or_default();
        match (self, args.first().map(String::as_str)) {
            (Manager::Npm, _) | (Manager::Pnpm, Some("test" | "t")) => after_dashes(),
            (Manager::Pnpm, _) => after_name(1).to_vec(),
            (Manager::Yarn, first) => {
                let mut words = after_name(usize::from(first == Some("run"))).to_vec();
                if let Some(at) = words.iter().position(|w| w == "--") {
                    words.remove(at);
                }
                words
            }
        }
    }

    /// `args` with `extra` appended to its script's arguments, or `None`
    /// where the manager would not pass them on as they are. npm, yarn and
    /// `pnpm test` drop the command's first `--` and pass what follows it
    /// (yarn and pnpm what follows the script's name too): `extra` goes
    /// after a `--`, added where there is none. `pnpm run NAME` passes a
    /// `--` on to the script itself (`pnpm run t -- --ci` gives the script
    /// `-- --ci`; `pnpm test --ci` is refused, an option of pnpm's), so
    /// `extra` follows the name's words there, and a command that holds a
    /// `--` is not rewritten.
    pub(crate) fn appended(self, args: &[String], extra: &[String]) -> Option<Vec<String>> {
        let pnpm_run = self == Manager::Pnpm && args.first().map(String::as_str) == Some("run");
        if !pnpm_run {
            return Some(appended(args, extra));
        }
        if args.iter().any(|a| a == "--") {
            return None;
        }
        let mut out = args.to_vec();
        out.extend(extra.iter().cloned());
        Some(out)
    }
}

/// The most of `package.json` read: larger ones are not a plain project's.
const PACKAGE_JSON_LIMIT: u64 = 1 << 20;

/// The script `name` of the workspace's `package.json`. The tests may have
/// replaced the file (a FIFO, a symlink to `/dev/zero`), so it is read as
/// a regular file only, never followed, never waited on, capped.
pub(crate) fn script(workspace: &Path, name: &str) -> Result<String, String> {
    let path = workspace.join("package.json");
    let bytes =
        testgate_run::read_project_file(&path, PACKAGE_JSON_LIMIT).map_err(|e| e.to_string())?;
    let json: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("cannot parse {}: {e}", path.display()))?;
    json.get("scripts")
        .and_then(|scripts| scripts.get(name))
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("{} has no script `{name}`", path.display()))
}

/// The runner the plain npm script of `npm args` starts in `workspace`,
/// with the script's arguments for that runner: the words after the
/// runner's own prefix (`jest --ci` gives jest and `["--ci"]`), to which
/// npm appends whatever follows the command's `--`. `Err` says why not: the
/// script is a shell command, sets variables, is empty, or starts no runner
/// testgate knows.
pub(crate) fn script_runner(
    args: &[String],
    workspace: &Path,
) -> Result<(Runner, Vec<String>), String> {
    Manager::Npm.script_runner(args, workspace)
}

impl Manager {
    /// [`script_runner`] for this manager's command `args`.
    pub(crate) fn script_runner(
        self,
        args: &[String],
        workspace: &Path,
    ) -> Result<(Runner, Vec<String>), String> {
        plain_script_runner(self.script_name(args)?, workspace)
    }
}

/// The runner the plain script `script_name` of `workspace` starts, with
/// its arguments for that runner ([`script_runner`]).
fn plain_script_runner(
    script_name: &str,
    workspace: &Path,
) -> Result<(Runner, Vec<String>), String> {
    let script = script(workspace, script_name)?;
    if let Some(c) = script
        .chars()
        .find(|c| ";&|<>$`'\"\\*?(){}[]#~\n".contains(*c))
    {
        return Err(format!(
            "the npm script `{script_name}` is a shell command (it holds `{c}`)"
        ));
    }
    let words: Vec<String> = script.split_whitespace().map(str::to_owned).collect();
    let Some((program, script_args)) = words.split_first() else {
        return Err(format!("the npm script `{script_name}` is empty"));
    };
    if program.contains('=') {
        return Err(format!(
            "the npm script `{script_name}` sets variables before its command"
        ));
    }
    let base = program.rsplit('/').next().unwrap_or(program);
    let Some((runner, prefix)) = super::recognise(base, script_args) else {
        return Err(format!(
            "the npm script `{script_name}` runs `{program}`, not a test runner testgate can select tests of"
        ));
    };
    Ok((runner, script_args[prefix..].to_vec()))
}

/// `npm args` with `extra` appended to its script's arguments: after the
/// command's `--`, which is added where it has none.
pub(crate) fn appended(args: &[String], extra: &[String]) -> Vec<String> {
    let mut out = args.to_vec();
    if !args.iter().any(|a| a == "--") {
        out.push("--".to_owned());
    }
    out.extend(extra.iter().cloned());
    out
}

/// The npm script `command` (a whole argv, program first) runs in
/// `workspace`, as its name and its text: `None` when `command` is not
/// `npm test` / `npm run NAME` (or an alias), or the script cannot be read.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("package.json"), r#"{"scripts": {"test": "jest --ci"}}"#).unwrap();
/// let command = ["npm".into(), "t".into()];
/// assert_eq!(
///     testgate::npm_script(&command, dir.path()),
///     Some(("test".to_owned(), "jest --ci".to_owned()))
/// );
/// ```
pub fn npm_script(command: &[OsString], workspace: &Path) -> Option<(String, String)> {
    let words: Vec<String> = command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let (program, args) = words.split_first()?;
    if program.rsplit('/').next() != Some("npm") {
        return None;
    }
    let name = script_name(args).ok()?;
    let text = script(workspace, name).ok()?;
    Some((name.to_owned(), text))
}

/// The package managers whose lockfile names them, and the command that
/// runs the `test` script through each (`bun test` would run bun's own
/// runner instead of the script).
const MANAGERS: [(&str, &[&str]); 6] = [
    ("package-lock.json", &["npm", "test"]),
    ("npm-shrinkwrap.json", &["npm", "test"]),
    ("pnpm-lock.yaml", &["pnpm", "test"]),
    ("yarn.lock", &["yarn", "test"]),
    ("bun.lockb", &["bun", "run", "test"]),
    ("bun.lock", &["bun", "run", "test"]),
];

/// The runner the npm script `text` calls (`jest --ci`, `cross-env CI=1
/// vitest run`, `npx jest && eslint .`), by every profile's recognition of
/// each word as a program; `None` for npm's placeholder (`echo "Error: no
/// test specified" && exit 1`) and for a script that calls no runner
/// testgate reads (`turbo run test`).
pub(crate) fn runner_in_script(text: &str) -> Option<Runner> {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    (0..words.len()).find_map(|at| {
        let program = words[at].rsplit('/').next().unwrap_or_default();
        super::recognise(program, &words[at + 1..]).map(|(runner, _)| runner)
    })
}

/// The project's `package.json`, parsed; `None` when it is missing, not a
/// regular file (a link, a FIFO), too large, or not JSON.
fn package_json(project: &ProjectView<'_>) -> Option<serde_json::Value> {
    serde_json::from_str(&project.text("package.json")?).ok()
}

/// The `test` script of `package`.
fn test_script(package: &serde_json::Value) -> Option<&str> {
    package.get("scripts")?.get("test")?.as_str()
}

/// `npm test` (or the command of the package manager the lockfile names)
/// when the project's `test` script calls `runner`.
pub(super) fn detect_script(project: &ProjectView<'_>, runner: Runner) -> Option<Detected> {
    let package = package_json(project)?;
    let script = test_script(&package)?;
    if runner_in_script(script)? != runner {
        return None;
    }
    // The script is the project's text: shown on one line, inert.
    let mut found = vec![format!(
        "package.json's test script `{}`",
        crate::project_view::one_line(script.as_bytes())
    )];
    let (lockfile, command) = MANAGERS
        .iter()
        .find(|(lockfile, _)| project.is_file(lockfile))
        .map_or((None, MANAGERS[0].1), |(lockfile, command)| {
            (Some(*lockfile), *command)
        });
    found.extend(lockfile.map(str::to_owned));
    Some(Detected::new(runner, command.iter().copied(), found))
}

/// `command` when the project holds the runner's configuration file
/// (`STEM.config.EXT`, or for jest the `jest` key of `package.json`) and its
/// `test` script calls no runner testgate reads (when it does, the script
/// is the project's command, whatever configuration lies beside it).
pub(super) fn detect_config(
    project: &ProjectView<'_>,
    runner: Runner,
    stem: &str,
    extensions: &[&str],
    command: &[&str],
) -> Option<Detected> {
    let package = package_json(project);
    if package
        .as_ref()
        .and_then(test_script)
        .and_then(runner_in_script)
        .is_some()
    {
        return None;
    }
    let file = extensions
        .iter()
        .map(|ext| format!("{stem}.config.{ext}"))
        .find(|file| project.is_file(file))
        .or_else(|| {
            package
                .as_ref()
                .and_then(|p| p.get(stem))
                .filter(|_| runner == Runner::Jest)
                .map(|_| format!("package.json's `{stem}` key"))
        })?;
    Some(Detected::new(runner, command.iter().copied(), vec![file]))
}

#[cfg(test)]
mod tests {
    use super::{Manager, script_name};

    fn name(words: &str) -> Result<String, String> {
        let args: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
        script_name(&args).map(str::to_owned)
    }

    /// How each manager passes words on to its script, as npm 10, yarn
    /// 1.22 and pnpm 9.15 did with a script printing its arguments.
    #[test]
    fn each_manager_is_handed_the_words_its_own_way() {
        let w = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let extra = w(&["--json"]);
        for manager in [Manager::Npm, Manager::Yarn, Manager::Pnpm] {
            assert_eq!(
                manager.appended(&w(&["test"]), &extra),
                Some(w(&["test", "--", "--json"]))
            );
            assert_eq!(
                manager.appended(&w(&["test", "--", "-t", "x"]), &extra),
                Some(w(&["test", "--", "-t", "x", "--json"]))
            );
        }
        assert_eq!(
            Manager::Yarn.appended(&w(&["run", "unit"]), &extra),
            Some(w(&["run", "unit", "--", "--json"]))
        );
        assert_eq!(
            Manager::Pnpm.appended(&w(&["run", "unit"]), &extra),
            Some(w(&["run", "unit", "--json"]))
        );
        // Where it must not: pnpm would hand the script the `--` itself.
        assert_eq!(
            Manager::Pnpm.appended(&w(&["run", "unit", "--", "-t"]), &extra),
            None
        );
        assert_eq!(
            Manager::Yarn.passed(&w(&["test", "--ci", "--", "-t"])),
            w(&["--ci", "-t"])
        );
        assert_eq!(Manager::Yarn.passed(&w(&["run", "unit", "-t"])), w(&["-t"]));
        assert_eq!(Manager::Pnpm.passed(&w(&["run", "unit", "-t"])), w(&["-t"]));
        assert_eq!(Manager::Pnpm.passed(&w(&["test", "--", "-t"])), w(&["-t"]));
        assert_eq!(Manager::Npm.passed(&w(&["run", "unit", "-t"])), w(&[]));
        assert_eq!(Manager::Yarn.script_name(&w(&["test"])), Ok("test"));
        assert_eq!(Manager::Pnpm.script_name(&w(&["t"])), Ok("test"));
        assert_eq!(Manager::Pnpm.script_name(&w(&["run", "unit"])), Ok("unit"));
        // `yarn t`, `yarn install`, `pnpm add`: not a script read.
        assert!(Manager::Yarn.script_name(&w(&["t"])).is_err());
        assert!(Manager::Yarn.script_name(&w(&["install"])).is_err());
        assert!(Manager::Pnpm.script_name(&w(&["add", "x"])).is_err());
        assert_eq!(Manager::of("pnpm"), Some(Manager::Pnpm));
        assert_eq!(Manager::of("bun"), None);
    }

    #[test]
    fn every_alias_names_its_script() {
        for test in ["test", "t", "tst", "test --ci"] {
            assert_eq!(name(test), Ok("test".to_owned()), "{test}");
        }
        for run in ["run unit", "run-script unit", "rum unit", "urn unit"] {
            assert_eq!(name(run), Ok("unit".to_owned()), "{run}");
        }
        // Where it must not fire: no script named, an option in its
        // place, another npm command.
        assert_eq!(
            name("run"),
            Err("the npm command names no script".to_owned())
        );
        assert_eq!(
            name("run --silent unit"),
            Err("the npm command names no script".to_owned())
        );
        assert_eq!(name("ci"), Err("the npm command runs no script".to_owned()));
        assert_eq!(name(""), Err("the npm command runs no script".to_owned()));
    }
}
