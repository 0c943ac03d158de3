//! Commands a gate refuses for what they ask, before anything runs: one
//! that watches for changes (it would never end) and one that lets the
//! tests rewrite their own snapshots (its pass would be no evidence).
//! [`crate::TestConfig::watch_mode`] and [`crate::TestConfig::snapshot_update`]
//! ask them of a check's command.

use std::ffi::OsString;
use std::path::Path;

/// The first word of `words` (a whole command, or an npm script's words)
/// that puts a test runner in watch mode, where it would wait for changes
/// instead of ending: `--watch`, `--watchAll`, vitest's `watch` and `dev`
/// commands, mocha's `-w`. Each runner's own words are its profile's
/// (`crates/testgate/src/runners/`).
///
/// ```
/// let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
/// assert_eq!(testgate::refused_commands::watch_word(&words("npx jest --watch")), Some("--watch"));
/// assert_eq!(testgate::refused_commands::watch_word(&words("npx jest --watch=false")), None);
/// ```
pub fn watch_word(words: &[String]) -> Option<&str> {
    crate::runners::watch_word(words)
}

/// The snapshot-update flag in a command or its environment, if any: a
/// gate must not let tests rewrite their own expectations. Each runner's
/// flags are its profile's; the variables are the snapshot libraries'
/// (`INSTA_UPDATE`) and any runner's (`UPDATE_SNAPSHOTS`).
pub fn snapshot_update(args: &[OsString], env: &[(OsString, Option<OsString>)]) -> Option<String> {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(a) = crate::runners::snapshot_update_word(&words) {
        return Some(format!(
            "`{a}` lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it"
        ));
    }
    for (name, value) in env {
        let value = value.as_ref().map(|v| v.to_string_lossy().into_owned());
        if name == "INSTA_UPDATE" && !matches!(value.as_deref(), Some("no" | "0")) {
            return Some(
                "INSTA_UPDATE lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it".to_owned(),
            );
        }
        if name == "UPDATE_SNAPSHOTS" || name == "SNAPSHOT_UPDATE" {
            return Some(format!(
                "{} lets the tests rewrite their own expected snapshots; a gate must judge them as they are: drop it",
                name.to_string_lossy()
            ));
        }
    }
    None
}

/// Why `command` would wait for changes instead of ending, if it would: a
/// watch flag (`--watch`, `--watchAll`, jest's, vitest's, mocha's and
/// node's; mocha's `-w`), vitest's `watch` or `dev` command, or an npm
/// script (`npm test`, `npm run NAME`) of the package.json in `dir` that
/// holds one. Left to run, it would sit until the timeout; the user gets
/// one line instead.
pub fn watch_mode(command: &[OsString], dir: &Path) -> Option<String> {
    let words: Vec<String> = command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    if let Some(flag) = watch_word(&words) {
        return Some(format!(
            "the test command asks to watch for changes (`{flag}`), so it would never end: \
             drop `{flag}`; testgate runs the tests once"
        ));
    }
    // The tests control package.json: it is read as a regular file only,
    // never followed or waited on, capped.
    let (script, text) = crate::runners::npm::npm_script(command, dir)?;
    let text = text.as_str();
    let script_words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    let flag = watch_word(&script_words)?;
    Some(format!(
        "the npm script `{script}` (`{text}`) watches for changes (`{flag}`), so it would \
         never end: run the runner without `{flag}`; testgate runs the tests once"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    /// Each runner's words are its own: a short flag only where its
    /// runner is named, the long ones in any command (docs/cli.md).
    #[test]
    fn each_runner_refuses_its_own_words() {
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        let snapshot = |s: &str| snapshot_update(&args(&s.split(' ').collect::<Vec<_>>()), &[]);
        assert_eq!(watch_word(&words("npx mocha -w")), Some("-w"));
        assert_eq!(watch_word(&words("npx jest -w")), None, "-w is mocha's");
        assert_eq!(watch_word(&words("vitest dev")), Some("dev"));
        assert_eq!(watch_word(&words("npx jest dev")), None, "dev is vitest's");
        assert_eq!(watch_word(&words("make test --watch")), Some("--watch"));
        assert!(snapshot("npx jest -u").is_some());
        assert!(
            snapshot("make -u").is_none(),
            "-u only where jest or vitest is named"
        );
        assert!(snapshot("npx vitest --update").is_some());
        assert!(snapshot("node --test --test-update-snapshots").is_some());
        assert!(snapshot("cargo test -- --insta-update").is_some());
        assert!(snapshot("tox -- --snapshot-update").is_some());
        assert!(snapshot("go test -update ./...").is_none());
    }

    #[test]
    fn snapshot_updates_are_refused() {
        assert!(snapshot_update(&args(&["npx", "jest", "-u"]), &[]).is_some());
        assert!(snapshot_update(&args(&["npx", "vitest", "run", "-u"]), &[]).is_some());
        assert!(snapshot_update(&args(&["npx", "jest", "--updateSnapshot"]), &[]).is_some());
        assert!(snapshot_update(&args(&["pytest", "--snapshot-update"]), &[]).is_some());
        // node 22's snapshot tests.
        assert!(
            snapshot_update(&args(&["node", "--test", "--test-update-snapshots"]), &[]).is_some()
        );
        assert!(
            snapshot_update(
                &args(&["cargo", "test"]),
                &[("INSTA_UPDATE".into(), Some("always".into()))]
            )
            .is_some()
        );
        assert!(snapshot_update(&args(&["cargo", "test", "-u"]), &[]).is_none());
        assert!(snapshot_update(&args(&["npx", "jest"]), &[]).is_none());
    }

    #[test]
    fn watch_flags() {
        let words = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(watch_word(&words("npx jest --watch")), Some("--watch"));
        assert_eq!(
            watch_word(&words("npx jest --watchAll=true")),
            Some("--watchAll=true")
        );
        assert_eq!(watch_word(&words("npx vitest --watch")), Some("--watch"));
        assert_eq!(watch_word(&words("npx vitest watch")), Some("watch"));
        assert_eq!(watch_word(&words("npx jest --watch=false")), None);
        assert_eq!(watch_word(&words("npx vitest run")), None);
        assert_eq!(watch_word(&words("npx mocha -w")), Some("-w"));
        assert_eq!(watch_word(&words("node --test --watch")), Some("--watch"));
        assert_eq!(watch_word(&words("grep -w x")), None);
        assert_eq!(watch_word(&words("cargo test watch")), None);
    }

    /// Every alias npm accepts for running a script is read for a watch
    /// flag, the ones the retry knew and this check did not (`rum`, `urn`).
    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test writes its own fixture, in a folder no test command ran in"
    )]
    fn npm_script_aliases_are_read_for_watch_flags() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"scripts": {"test": "vitest", "dev": "vitest watch", "unit": "vitest run"}}"#,
        )
        .expect("package.json");
        let command = |s: &str| s.split(' ').map(OsString::from).collect::<Vec<_>>();
        for watching in [
            "npm run dev",
            "npm run-script dev",
            "npm rum dev",
            "npm urn dev",
        ] {
            let why = watch_mode(&command(watching), dir.path());
            assert!(
                why.as_deref()
                    .is_some_and(|w| w.contains("`dev` (`vitest watch`)")),
                "{watching}: {why:?}"
            );
        }
        for once in [
            "npm test",
            "npm t",
            "npm run unit",
            "npm rum unit",
            "npm run",
            "npm ci",
        ] {
            assert_eq!(watch_mode(&command(once), dir.path()), None, "{once}");
        }
    }
}
