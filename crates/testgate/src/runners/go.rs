//! `go test`: how testgate recognises it, asks its version, and retries only
//! the failed tests with an anchored `-run` pattern per name and the failing
//! packages.

use std::path::Path;

use super::{ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, names, words};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// `regexp.QuoteMeta` of Go: a backslash before each of `\.+*?()|[]{}^$`.
pub(crate) fn go_quote_meta(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The `-run` pattern of go names: `^TestA$|^TestB$/^sub$`. go splits the
/// pattern at unbracketed `/` and matches each part against one level of
/// the (already rewritten) test name, and a top-level `|` separates
/// alternatives. A parent whose subtest is selected too is left out: its
/// own alternative would run all its subtests, and it runs anyway as the
/// subtest's parent.
pub(crate) fn go_run_pattern(names: &[&str]) -> String {
    let mut alternatives: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let parent_of_another = names.iter().any(|other| {
            other.len() > name.len()
                && other.starts_with(name)
                && other[name.len()..].starts_with('/')
        });
        if parent_of_another {
            continue;
        }
        let levels: Vec<String> = name
            .split('/')
            .map(|level| format!("^{}$", go_quote_meta(level)))
            .collect();
        let alternative = levels.join("/");
        if !alternatives.contains(&alternative) {
            alternatives.push(alternative);
        }
    }
    alternatives.join("|")
}

/// `go test` flags that take their value as the next argument.
const GO_VALUE_FLAGS: &[&str] = &[
    "run",
    "skip",
    "bench",
    "benchtime",
    "count",
    "cpu",
    "parallel",
    "timeout",
    "tags",
    "coverprofile",
    "covermode",
    "coverpkg",
    "o",
    "exec",
    "p",
    "ldflags",
    "gcflags",
    "asmflags",
    "mod",
    "modfile",
    "blockprofile",
    "blockprofilerate",
    "cpuprofile",
    "memprofile",
    "memprofilerate",
    "mutexprofile",
    "mutexprofilefraction",
    "outputdir",
    "trace",
    "vet",
    "list",
    "fuzz",
    "fuzztime",
    "fuzzminimizetime",
    "shuffle",
    "installsuffix",
    "pkgdir",
    "toolexec",
    "compiler",
    "gccgoflags",
    "buildmode",
    "C",
    "overlay",
    "pgo",
];

/// `go test FLAGS -count=1 -v -run PATTERN PACKAGE…`: the packages that
/// failed instead of the given patterns, no cached result, and `-v`, the
/// only plain output in which go states each test's result (the parser's
/// counts, without which a targeted retry is no evidence).
fn go(rest: &[String], targets: &[Target<'_>]) -> Result<Vec<String>, String> {
    let mut flags: Vec<String> = Vec::with_capacity(rest.len() + 5);
    let mut packages: Vec<String> = Vec::new();
    let mut verbose = false;
    let mut i = 0;
    while i < rest.len() {
        let arg = &rest[i];
        if !arg.starts_with('-') {
            packages.push(arg.clone());
            i += 1;
            continue;
        }
        let bare = arg.trim_start_matches('-');
        let (flag, joined) = match bare.split_once('=') {
            Some((flag, _)) => (flag, true),
            None => (bare, false),
        };
        if flag == "args" {
            return Err("the go test command passes `-args` to the test binary".to_owned());
        }
        let takes_next = !joined && GO_VALUE_FLAGS.contains(&flag);
        if takes_next && i + 1 >= rest.len() {
            return Err(format!("the go test flag `{arg}` has no value"));
        }
        if flag == "v" || flag == "json" {
            verbose = true;
        }
        if flag != "run" && flag != "count" {
            flags.push(arg.clone());
            if takes_next {
                flags.push(rest[i + 1].clone());
            }
        }
        i += 1 + usize::from(takes_next);
    }
    // The packages that failed, where the parser knew every one of them.
    let contexts: Option<Vec<&str>> = targets.iter().map(|t| t.context).collect();
    if let Some(contexts) = contexts {
        packages.clear();
        for package in contexts {
            if !packages.iter().any(|p| p == package) {
                packages.push(package.to_owned());
            }
        }
    }
    let mut out = flags;
    out.push("-count=1".to_owned());
    if !verbose {
        out.push("-v".to_owned());
    }
    out.extend(["-run".to_owned(), go_run_pattern(&names(targets))]);
    out.extend(packages);
    Ok(out)
}

/// `go test`.
pub(super) struct Go;

impl RunnerProfile for Go {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::GO
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::GO
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["go.mod"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        (program == "go" && args.first().map(String::as_str) == Some("test")).then_some(1)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &std::path::Path,
    ) -> Result<Vec<String>, String> {
        go(rest, targets)
    }

    /// `-count=1` first when `rest` set no `-count` (a `-count` after
    /// `-args` is the test binary's).
    fn uncached(&self, rest: &[String]) -> Option<Vec<String>> {
        let counted = rest
            .iter()
            .take_while(|w| *w != "-args")
            .any(|w| w.starts_with("-count") || w.starts_with("--count"));
        if counted {
            return None;
        }
        let mut out = vec!["-count=1".to_owned()];
        out.extend(rest.iter().cloned());
        Some(out)
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![words(&["go", "version"])]
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        project.is_file("go.mod").then(|| {
            Detected::new(
                Runner::Go,
                words(&["go", "test", "./..."]),
                vec!["go.mod".to_owned()],
            )
        })
    }

    fn report(&self, rest: &[String], _place: &Path, _workspace: &Path) -> Option<ReportRequest> {
        report(rest, go_prints_framing())
    }
}

/// Whether the `go` on `PATH` prints the test binaries' `-v=test2json`
/// framing (go 1.20 and later), by its root's `VERSION` file; `false`
/// where that cannot be read (then `-json` is asked, which every go has).
/// Read once a process.
pub(crate) fn go_prints_framing() -> bool {
    static PRINTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PRINTS.get_or_init(|| go_version().is_some_and(|version| version >= (1, 20)))
}

/// `(1, 26)` of the `go` on `PATH`, from `GOROOT/VERSION` (`go1.26.8`).
#[expect(
    clippy::disallowed_methods,
    reason = "go's own installation, not a file under the project: a few bytes testgate's user installed"
)]
fn go_version() -> Option<(u32, u32)> {
    let path = std::env::var_os("PATH")?;
    let go = std::env::split_paths(&path)
        .map(|dir| dir.join("go"))
        .find(|go| go.is_file())?;
    let go = std::fs::canonicalize(go).ok()?;
    let version = std::fs::read_to_string(go.parent()?.parent()?.join("VERSION")).ok()?;
    version_of(version.lines().next()?)
}

/// `(1, 26)` of `go1.26.8`, `go1.26rc1`, `go1.20`.
fn version_of(line: &str) -> Option<(u32, u32)> {
    let rest = line.trim().strip_prefix("go")?;
    let (major, rest) = rest.split_once('.')?;
    let minor: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// go's report is its test binaries' results on stdout, as `go test -json`
/// converts them (test2json). Where go prints the binaries' framing
/// (`framing`: go 1.20+), `-v=test2json` is asked last among go's flags
/// (before any `-args`, whose words are the test binary's), so that it
/// wins over a `-v` of the command's: go prints the binaries' text with
/// each of the testing package's lines marked `^V`, and testgate converts
/// it as test2json does (`testgate_parse::GoFraming`), sparing go the JSON
/// encoding of every line a test logs (docs/scale.md). Otherwise, and
/// where the command asks for `-json` itself, `-json` first. Only a `go
/// test` the argv starts is rewritten: behind `make`, `bash -c` or `npm
/// test` nothing reaches go, and its console judges alone
/// (docs/formats.md). The console is rendered back from the events
/// (`testgate_parse::GoEvents`, `GoFraming`): what `go test -v` prints. A
/// command that turns it off (`-json=false`) chose plain text: its console
/// judges alone.
fn report(rest: &[String], framing: bool) -> Option<ReportRequest> {
    let go_flags = || rest.iter().take_while(|w| *w != "-args" && *w != "--args");
    let json_value = |w: &str| match w.trim_start_matches('-').strip_prefix("json")? {
        "" => Some("true".to_owned()),
        value => value.strip_prefix('=').map(str::to_owned),
    };
    let set: Vec<String> = go_flags()
        .filter(|w| w.starts_with('-'))
        .filter_map(|w| json_value(w))
        .collect();
    // go's flag package: the last setting wins.
    match set.last().map(String::as_str) {
        Some("true" | "1" | "t" | "T" | "TRUE" | "True") | None => {}
        Some(_) => return None,
    }
    let json = !set.is_empty();
    let (args, format) = if json {
        (rest.to_vec(), ReportFormat::GoTestJson)
    } else if framing {
        let at = go_flags().count();
        let mut args = Vec::with_capacity(rest.len() + 1);
        args.extend(rest[..at].iter().cloned());
        args.push("-v=test2json".to_owned());
        args.extend(rest[at..].iter().cloned());
        (args, ReportFormat::GoTestFraming)
    } else {
        let mut args = Vec::with_capacity(rest.len() + 1);
        args.push("-json".to_owned());
        args.extend(rest.iter().cloned());
        (args, ReportFormat::GoTestJson)
    };
    Some(ReportRequest {
        args,
        env: Vec::new(),
        files: Vec::new(),
        format,
        written_to: ReportTarget::Stdout,
        through_environment: false,
    })
}

#[cfg(test)]
mod tests {
    use super::{ReportFormat, report, version_of};

    fn args(words: &[&str]) -> Vec<String> {
        report(&super::words(words), false)
            .map(|r| r.args)
            .unwrap_or_default()
    }

    fn framing_args(words: &[&str]) -> Vec<String> {
        report(&super::words(words), true)
            .map(|r| r.args)
            .unwrap_or_default()
    }

    /// Where go prints the framing, `-v=test2json` is asked last among
    /// go's flags (a `-v` of the command's does not undo it); a command
    /// that asks for `-json` keeps it, and `-json=false` still asks
    /// nothing.
    #[test]
    fn the_framing_is_asked_for_last_among_go_s_flags() {
        assert_eq!(framing_args(&["./..."]), ["./...", "-v=test2json"]);
        assert_eq!(
            framing_args(&["-v", "-count=3", "./..."]),
            ["-v", "-count=3", "./...", "-v=test2json"]
        );
        assert_eq!(
            framing_args(&["./x", "-args", "-v"]),
            ["./x", "-v=test2json", "-args", "-v"]
        );
        let json = report(&super::words(&["-json", "./..."]), true).expect("a report");
        assert_eq!(
            (json.args, json.format),
            (super::words(&["-json", "./..."]), ReportFormat::GoTestJson)
        );
        assert!(report(&super::words(&["-json=false", "./..."]), true).is_none());
    }

    #[test]
    fn go_versions_are_read_from_goroot() {
        assert_eq!(version_of("go1.26.8"), Some((1, 26)));
        assert_eq!(version_of("go1.20"), Some((1, 20)));
        assert_eq!(version_of("go1.21rc2"), Some((1, 21)));
        assert_eq!(version_of("devel go1.27-abc"), None);
        assert_eq!(version_of("go"), None);
    }

    #[test]
    fn json_is_asked_for_first_unless_the_command_asks_already() {
        assert_eq!(args(&["./..."]), ["-json", "./..."]);
        assert_eq!(
            args(&["-v", "-count=3", "./..."]),
            ["-json", "-v", "-count=3", "./..."]
        );
        assert_eq!(args(&["-json", "./..."]), ["-json", "./..."]);
        assert_eq!(args(&["./...", "--json"]), ["./...", "--json"]);
        assert_eq!(args(&["-json=true", "./..."]), ["-json=true", "./..."]);
        // A command that turns it off chose go's plain text.
        assert!(report(&super::words(&["-json=false", "./..."]), false).is_none());
        assert!(report(&super::words(&["-json", "-json=0", "./..."]), false).is_none());
        // Words that only start like the flag are not it.
        assert_eq!(args(&["-jsonx", "./..."]), ["-json", "-jsonx", "./..."]);
        // A `-json` after `-args` is the test binary's: go's own is added.
        assert_eq!(
            args(&["./x", "-args", "-json"]),
            ["-json", "./x", "-args", "-json"]
        );
    }
}
