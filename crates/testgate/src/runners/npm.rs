//! npm's scripts, read once for every runner a script may start: which
//! script an npm command runs (`npm test`, `npm run NAME` and their
//! aliases), and its text from the project's `package.json`.

use std::ffi::OsString;
use std::path::Path;

use testgate_parse::Runner;

use crate::detect::{Detected, ProjectView};

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
pub(crate) fn script_runner(text: &str) -> Option<Runner> {
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
    if script_runner(script)? != runner {
        return None;
    }
    // The script is the project's text: shown on one line, inert.
    let mut found = vec![format!(
        "package.json's test script `{}`",
        crate::detect::one_line(script.as_bytes())
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
        .and_then(script_runner)
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
    use super::script_name;

    fn name(words: &str) -> Result<String, String> {
        let args: Vec<String> = words.split_whitespace().map(str::to_owned).collect();
        script_name(&args).map(str::to_owned)
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
