//! npm's scripts, read once for every runner a script may start: which
//! script an npm command runs (`npm test`, `npm run NAME` and their
//! aliases), and its text from the project's `package.json`.

use std::ffi::OsString;
use std::path::Path;

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
