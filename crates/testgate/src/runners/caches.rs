//! Which of the project's private toolchain caches a program uses: handed
//! to `testgate-run` as data ([`testgate_run::RunSpec::caches`]), which
//! knows no tool by name. Each program and its caches is a profile's or
//! its toolchain's ([`super::Program`]); this module knows only shells.

use std::ffi::OsStr;
use std::path::Path;

use testgate_parse::Runner;

use super::ecosystems::{NPM_CACHE, PACKAGE_MANAGERS};

/// The private caches (by [`testgate_run::HomeCache::private`] and
/// [`tool_caches`]' names) the program
/// `program` (a path or a name) run with `args` may use, `None` for any
/// other (`make`, a script), which may use all of them. A copy costs time
/// (and disk: each project's private caches are its own copy) on a
/// project's first check (the host's npm cache is often hundreds of
/// megabytes), so a `go test` does not pay for npm's, a test runner for a
/// package manager's, and cargo (whose registry is the host's, read-only)
/// for none. A shell's `-c` script is read for the commands it starts
/// (`sh -c 'cd crate && cargo test'` uses cargo's, none): each must be
/// one known here, else the script may use all of them.
pub(crate) fn caches_used_by<S: AsRef<OsStr>>(program: &OsStr, args: &[S]) -> Option<Vec<String>> {
    let program = file_name(program);
    let names = match used_by(&program) {
        Some(names) => names.to_vec(),
        None if SHELLS.contains(&program.as_str()) => shell_script_uses(args)?,
        None => return None,
    };
    Some(names.iter().map(|&name| name.to_owned()).collect())
}

/// [`caches_used_by`], less npm's download cache where the command only
/// runs a package script (`npm test`, `yarn run x`, `pnpm t`) in a project
/// whose `node_modules` is installed: nothing is downloaded then, and the
/// host's npm cache (often hundreds of megabytes) was copied for nothing on
/// a project's first check (issue 40: 431 MB, 5.3 s instead of 3.2 s).
pub(crate) fn caches_used_in<S: AsRef<OsStr>>(
    project: &Path,
    program: &OsStr,
    args: &[S],
) -> Option<Vec<String>> {
    let mut names = caches_used_by(program, args)?;
    let manager = file_name(program);
    if PACKAGE_MANAGERS.contains(&manager.as_str())
        && runs_a_script(args)
        && std::fs::symlink_metadata(project.join("node_modules")).is_ok_and(|m| m.is_dir())
    {
        names.retain(|name| name != NPM_CACHE);
    }
    Some(names)
}

/// Whether a package manager's `args` run one of the project's scripts
/// (its first word `test`, `t`, `tst`, `run`, `run-script`, `start`),
/// which installs nothing.
fn runs_a_script<S: AsRef<OsStr>>(args: &[S]) -> bool {
    let first = args
        .iter()
        .filter_map(|arg| arg.as_ref().to_str())
        .find(|arg| !arg.starts_with('-'));
    matches!(
        first,
        Some("test" | "t" | "tst" | "run" | "run-script" | "start")
    )
}

/// The shells whose `-c` script is read.
const SHELLS: [&str; 6] = ["sh", "bash", "dash", "zsh", "ash", "ksh"];

/// Shell builtins and utilities that start no other program: they use
/// no cache.
const NO_CACHE: [&str; 24] = [
    "cd", "export", "set", "true", "false", "echo", "printf", ":", "unset", "test", "[", "tee",
    "cat", "grep", "head", "tail", "wc", "sed", "mkdir", "rm", "cp", "mv", "ls", "sleep",
];

/// The file name of a program given as a path or a name.
fn file_name(program: &OsStr) -> String {
    Path::new(program)
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The caches a shell's `-c SCRIPT` uses: those of each command the script
/// starts, each read as the first word of a simple command (after `VAR=x`
/// assignments, `exec`, `env`); `None` when there is no `-c`, or any
/// command is unknown, or a command word is not plain (quotes,
/// expansions): such a script may use anything. Reading too little only
/// costs cold caches, never a promise.
fn shell_script_uses<S: AsRef<OsStr>>(args: &[S]) -> Option<Vec<&'static str>> {
    let mut args = args.iter().map(|arg| arg.as_ref().to_str());
    let script = loop {
        let arg = args.next()??;
        // `-c`, or a cluster of single-letter options ending with it
        // (`-ec`, `-lc`); anything else before it is not read.
        if arg.starts_with('-')
            && !arg.starts_with("--")
            && arg.ends_with('c')
            && arg.len() > 1
            && arg[1..].bytes().all(|b| b.is_ascii_alphabetic())
        {
            break args.next()??;
        }
        if !arg.starts_with('-') {
            return None;
        }
    };
    let mut uses: Vec<&'static str> = Vec::new();
    for command in script.split([';', '&', '|', '\n', '(', ')']) {
        let mut words = command.split_whitespace().skip_while(|word| {
            matches!(*word, "exec" | "env" | "then" | "do" | "else")
                || (word.contains('=') && !word.starts_with('='))
        });
        let Some(word) = words.next() else {
            continue;
        };
        if !word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+".contains(&b))
        {
            return None;
        }
        let program = file_name(OsStr::new(word));
        if NO_CACHE.contains(&program.as_str()) {
            continue;
        }
        for &name in used_by(&program)? {
            if !uses.contains(&name) {
                uses.push(name);
            }
        }
    }
    Some(uses)
}

/// The caches tools keep at a fixed path outside the homes, handed to
/// every sandboxed run ([`testgate_run::RunSpec::tool_caches`]): each
/// profile's ([`super::RunnerProfile::tool_cache`]), jest's.
pub(crate) fn tool_caches() -> Vec<testgate_run::ToolCache> {
    let uid = testgate_run::effective_uid();
    Runner::ALL
        .into_iter()
        .filter_map(|runner| super::profile(runner).tool_cache(uid))
        .collect()
}

/// [`caches_used_by`] of a file name: the caches of the first program a
/// profile or a toolchain names so, `None` for a program none names.
fn used_by(program: &str) -> Option<&'static [&'static str]> {
    let own = Runner::ALL
        .into_iter()
        .flat_map(|runner| super::profile(runner).programs());
    let toolchains = super::toolchains()
        .into_iter()
        .flat_map(|toolchain| toolchain.programs);
    own.chain(toolchains)
        .find(|known| known.is(program))
        .map(|known| known.caches)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runner_gets_only_its_toolchains_caches_a_script_all() {
        let go: &[&str] = &["home-cache/go-build"];
        let none: &[&str] = &[];
        for (program, expected) in [
            ("go", Some(go)),
            ("python3.12", Some(&["home-cache/pip"][..])),
            ("tox", Some(&["home-cache/pip"][..])),
            ("pytest", Some(none)),
            ("cargo", Some(none)),
            ("npx", Some(&["jest"][..])),
            ("npm", Some(&["npm/_cacache", "jest"][..])),
            ("make", None),
            ("sh", None),
            ("gofmt", None),
        ] {
            assert_eq!(used_by(program), expected, "{program}");
        }
        assert_eq!(
            caches_used_by(OsStr::new("/usr/local/go/bin/go"), &["test"]),
            Some(vec!["home-cache/go-build".to_owned()])
        );
    }

    /// Issue 30: `sh -c 'cargo test'` seeded every host cache (575 MB for
    /// a Rust project); a shell's script is read for what it starts.
    #[test]
    fn a_shell_script_gets_the_caches_of_the_commands_it_starts() {
        let of = |program: &str, args: &[&str]| caches_used_by(OsStr::new(program), args);
        let none: Option<Vec<String>> = Some(vec![]);
        assert_eq!(of("sh", &["-c", "cargo test"]), none);
        assert_eq!(
            of(
                "/bin/bash",
                &["-ec", "cd crate && RUST_BACKTRACE=1 cargo test -q"]
            ),
            none
        );
        assert_eq!(
            of("bash", &["-lc", "go vet ./... && go test ./... | tee log"]),
            Some(vec!["home-cache/go-build".to_owned()])
        );
        assert_eq!(
            of("sh", &["-c", "set -e; npm ci\nexec npx jest"]),
            Some(vec!["npm/_cacache".to_owned(), "jest".to_owned()])
        );
        // Where the script may start anything, it may use any cache.
        for unknown in [
            &["-c", "make test"][..],
            &["-c", "./run-tests.sh"],
            &["-c", "$RUNNER test"],
            &["-c", "\"cargo\" test"],
            &["-c", "cargo test; `which go` test"],
            &["run.sh"],
            &["-c"],
            &["--norc", "run.sh"],
        ] {
            assert_eq!(of("sh", unknown), None, "{unknown:?}");
        }
        assert_eq!(of("make", &["test"]), None);
    }

    /// Issue 40: `npm test` in a project with `node_modules` copied the
    /// host's whole npm cache; a script run installs nothing.
    #[test]
    fn a_script_run_with_node_modules_installed_gets_no_npm_cache() {
        let project = tempfile::tempdir().expect("temp dir");
        let of = |program: &str, args: &[&str]| {
            caches_used_in(project.path(), OsStr::new(program), args)
        };
        let full = Some(vec![NPM_CACHE.to_owned(), "jest".to_owned()]);
        // Not installed: the script may install, so npm's cache is seeded.
        assert_eq!(of("npm", &["test"]), full);
        std::fs::create_dir(project.path().join("node_modules")).expect("node_modules");
        let jest = Some(vec!["jest".to_owned()]);
        assert_eq!(of("npm", &["test"]), jest);
        assert_eq!(of("/usr/bin/yarn", &["--silent", "run", "test:unit"]), jest);
        assert_eq!(of("pnpm", &["t"]), jest);
        // Where it must not fire: an install, npx, a shell's npm ci.
        assert_eq!(of("npm", &["ci"]), full);
        assert_eq!(of("npm", &["exec", "jest"]), full);
        assert_eq!(of("npx", &["jest"]), jest);
        assert_eq!(of("sh", &["-c", "npm ci && npm test"]), full);
    }

    /// Every name handed over is one `testgate-run` keeps (a cache of a
    /// toolchain handed to it, or a tool cache): a misspelt one would
    /// silently seed nothing.
    #[test]
    fn every_cache_named_is_one_testgate_run_keeps() {
        let kept: Vec<String> = super::super::run_toolchains()
            .iter()
            .flat_map(|toolchain| toolchain.caches)
            .map(testgate_run::HomeCache::private)
            .chain(tool_caches().into_iter().map(|tool| tool.private))
            .collect();
        assert!(kept.iter().any(|name| name == NPM_CACHE), "{kept:?}");
        let own = Runner::ALL
            .into_iter()
            .flat_map(|runner| super::super::profile(runner).programs());
        let toolchains = super::super::toolchains()
            .into_iter()
            .flat_map(|toolchain| toolchain.programs);
        for program in own.chain(toolchains) {
            for name in program.caches {
                assert!(kept.iter().any(|kept| kept == name), "{name}");
            }
        }
    }
}
