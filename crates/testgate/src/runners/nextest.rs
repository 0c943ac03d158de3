//! `cargo nextest run`: how testgate recognises it, asks its versions, asks
//! for its JUnit report, and retries only the failed tests with nextest's
//! filtersets.

use std::path::Path;

use super::{ReportFile, ReportFormat, ReportRequest, ReportTarget, RunnerProfile, Target, words};
use crate::project_view::{Detected, ProjectView};
use testgate_parse::Runner;

/// A string for nextest's `=` (equality) name matcher, escaped as its
/// filterset reference says: `\`, `)`, `,`, `/` and control characters.
pub(crate) fn nextest_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ')' => out.push_str("\\)"),
            ',' => out.push_str("\\,"),
            '/' => out.push_str("\\/"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:X}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `cargo nextest run ARGS -E 'binary_id(=B) & test(=N) | …' --no-tests=fail`:
/// each name in the binary that failed it, so a test of the same name in
/// another binary does not run; no test to run is an error, not a pass.
fn nextest(rest: &[String], targets: &[Target<'_>]) -> Vec<String> {
    let mut terms: Vec<String> = Vec::with_capacity(targets.len());
    for target in targets {
        let test = format!("test(={})", nextest_escape(target.name));
        let term = match target.context {
            Some(binary) => format!("(binary_id(={}) & {test})", nextest_escape(binary)),
            None => test,
        };
        if !terms.contains(&term) {
            terms.push(term);
        }
    }
    // Arguments after `--` go to the test binaries; ours go before them.
    let split = rest.iter().position(|a| a == "--").unwrap_or(rest.len());
    let mut out = rest[..split].to_vec();
    out.extend(["-E".to_owned(), terms.join(" | ")]);
    if !rest[..split]
        .iter()
        .any(|a| a == "--no-tests" || a.starts_with("--no-tests="))
    {
        out.push("--no-tests=fail".to_owned());
    }
    out.extend(rest[split..].iter().cloned());
    out
}

/// The file name of testgate's tool configuration beside the report.
const TOOL_CONFIG: &str = "nextest-tool.toml";

/// The most of the project's `.config/nextest.toml` read to see whether it
/// names its own JUnit report.
const CONFIG_LIMIT: u64 = 1 << 20;

/// `cargo nextest run ARGS --tool-config-file testgate:DIR/nextest-tool.toml`,
/// the file holding `[profile.default.junit] path = "PLACE"`: every profile
/// inherits the default's, so the user's `--profile` (or `NEXTEST_PROFILE`)
/// keeps its retries, timeouts and threads, and nextest writes its JUnit at
/// that absolute path when the run ends. The project's own configuration
/// comes before a tool's: where it names a JUnit report (any `junit` in
/// `.config/nextest.toml`, read through the one door for untrusted files), or
/// the command names its own configuration (`--config-file`,
/// `--tool-config-file`), the console judges alone.
fn report(rest: &[String], place: &Path, workspace: &Path) -> Option<ReportRequest> {
    let split = rest.iter().position(|a| a == "--").unwrap_or(rest.len());
    let own_config = rest[..split].iter().any(|arg| {
        let option = arg.split_once('=').map_or(arg.as_str(), |(o, _)| o);
        matches!(option, "--config-file" | "--tool-config-file")
    });
    if own_config || names_junit(workspace)? {
        return None;
    }
    let tool = place.with_file_name(TOOL_CONFIG);
    let mut args = rest[..split].to_vec();
    args.extend([
        "--tool-config-file".to_owned(),
        format!("testgate:{}", tool.to_str()?),
    ]);
    args.extend(rest[split..].iter().cloned());
    Some(ReportRequest {
        args,
        env: Vec::new(),
        files: vec![ReportFile {
            name: TOOL_CONFIG,
            contents: format!("[profile.default.junit]\npath = {}\n", toml_string(place)?),
        }],
        format: ReportFormat::JUnit,
        written_to: ReportTarget::File,
        through_environment: false,
    })
}

/// Whether the project's `.config/nextest.toml` in `workspace` mentions
/// JUnit (`Some(false)` when there is none); `None` when it cannot be read,
/// so nothing is asked for.
fn names_junit(workspace: &Path) -> Option<bool> {
    let config = workspace.join(".config/nextest.toml");
    match testgate_run::read_project_file(&config, CONFIG_LIMIT) {
        Ok(bytes) => Some(bytes.windows(5).any(|w| w.eq_ignore_ascii_case(b"junit"))),
        Err(testgate_run::ProjectFileError::Open { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Some(false)
        }
        Err(_) => None,
    }
}

/// `path` as a TOML basic string; `None` when it is not UTF-8 or holds a
/// control character.
fn toml_string(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    if text.chars().any(char::is_control) {
        return None;
    }
    Some(format!(
        "\"{}\"",
        text.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// `cargo nextest run`, also as `cargo +TOOLCHAIN nextest run`.
pub(super) struct Nextest;

impl RunnerProfile for Nextest {
    fn trusted(&self) -> &'static [super::TrustedPath] {
        super::trusted::RUST
    }

    fn toolchain(&self) -> &'static super::Toolchain {
        &super::ecosystems::RUST
    }

    fn looks_for(&self) -> &'static [&'static str] {
        &["Cargo.toml (cargo test, or cargo nextest run with .config/nextest.toml)"]
    }

    fn env_prefixes(&self) -> &'static [&'static str] {
        &["NEXTEST_"]
    }

    fn recognise(&self, program: &str, args: &[String]) -> Option<usize> {
        let at = super::cargo::toolchain_words(program, args)?;
        let arg = |i: usize| args.get(i).map(String::as_str);
        (arg(at) == Some("nextest") && arg(at + 1) == Some("run")).then_some(at + 2)
    }

    fn select(
        &self,
        rest: &[String],
        targets: &[Target<'_>],
        _workspace: &Path,
    ) -> Result<Vec<String>, String> {
        Ok(nextest(rest, targets))
    }

    fn version_questions(&self, _program: &str) -> Vec<Vec<String>> {
        vec![
            words(&["cargo", "--version"]),
            words(&["rustc", "--version"]),
            words(&["cargo", "nextest", "--version"]),
        ]
    }

    fn report(&self, rest: &[String], place: &Path, workspace: &Path) -> Option<ReportRequest> {
        report(rest, place, workspace)
    }

    fn detect(&self, project: &ProjectView<'_>) -> Option<Detected> {
        if !super::cargo::nextest_configured(project) {
            return None;
        }
        let mut command = words(&["cargo", "nextest", "run"]);
        if super::cargo::is_workspace(project) {
            command.push("--workspace".to_owned());
        }
        Some(Detected::new(
            Runner::Nextest,
            command,
            vec!["Cargo.toml".to_owned(), ".config/nextest.toml".to_owned()],
        ))
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests write a project's configuration in folders of their own"
)]
mod tests {
    use super::*;
    use std::ffi::{OsStr, OsString};

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn nextest_writes_its_junit_where_a_tool_configuration_says() {
        let project = tempfile::tempdir().unwrap();
        let place = Path::new("/tmp/testgate-report-x/nextest.xml");
        let rest = words(&["--profile", "ci", "--retries", "2", "--", "--ignored"]);
        let request = report(&rest, place, project.path()).unwrap();
        assert_eq!(
            request.args,
            words(&[
                "--profile",
                "ci",
                "--retries",
                "2",
                "--tool-config-file",
                "testgate:/tmp/testgate-report-x/nextest-tool.toml",
                "--",
                "--ignored"
            ])
        );
        assert_eq!(
            request.files,
            vec![ReportFile {
                name: "nextest-tool.toml",
                contents:
                    "[profile.default.junit]\npath = \"/tmp/testgate-report-x/nextest.xml\"\n"
                        .to_owned(),
            }]
        );
        assert_eq!(request.format, ReportFormat::JUnit);
        assert!(!request.through_environment);
        // A configuration without JUnit changes nothing.
        std::fs::create_dir(project.path().join(".config")).unwrap();
        let config = project.path().join(".config/nextest.toml");
        std::fs::write(&config, "[profile.ci]\nretries = 2\n").unwrap();
        assert!(report(&rest, place, project.path()).is_some());
    }

    #[test]
    fn nextest_is_asked_nothing_where_the_user_chose_its_configuration() {
        let project = tempfile::tempdir().unwrap();
        let place = Path::new("/tmp/r/nextest.xml");
        for own in [
            &["--config-file", "n.toml"][..],
            &["--config-file=n.toml"],
            &["--tool-config-file", "x:/n.toml"],
        ] {
            assert_eq!(report(&words(own), place, project.path()), None, "{own:?}");
        }
        // After `--` the words are the test binaries': not nextest's options.
        assert!(report(&words(&["--", "--config-file"]), place, project.path()).is_some());
        // The project's configuration names its own JUnit report: it wins
        // over a tool's, so testgate's place would stay empty.
        std::fs::create_dir(project.path().join(".config")).unwrap();
        let config = project.path().join(".config/nextest.toml");
        std::fs::write(&config, "[profile.ci.junit]\npath = \"junit.xml\"\n").unwrap();
        assert_eq!(report(&[], place, project.path()), None);
        // A configuration that cannot be read safely (a link) asks nothing.
        std::fs::remove_file(&config).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &config).unwrap();
        assert_eq!(report(&[], place, project.path()), None);
    }

    #[test]
    fn a_place_is_one_toml_string() {
        let project = tempfile::tempdir().unwrap();
        let request = report(&[], Path::new("/tmp/a \"b\\/n.xml"), project.path()).unwrap();
        assert_eq!(
            request.files[0].contents,
            "[profile.default.junit]\npath = \"/tmp/a \\\"b\\\\/n.xml\"\n"
        );
        assert_eq!(
            report(&[], Path::new("/tmp/a\nb/n.xml"), project.path()),
            None
        );
    }

    /// nextest's tool configuration is written into the report's own
    /// directory before the attempt, and names the place there.
    #[test]
    #[expect(
        clippy::disallowed_methods,
        reason = "the test reads the tool configuration from testgate's own fresh directory"
    )]
    fn nextest_is_asked_through_a_tool_configuration_beside_its_report() {
        let project = tempfile::tempdir().unwrap();
        let asked = crate::channels::ask(
            OsStr::new("cargo"),
            &["nextest", "run", "--no-fail-fast"].map(OsString::from),
            project.path(),
        )
        .expect("a place");
        let tool = asked.reports_dir().join("nextest-tool.toml");
        let place = asked.reports_dir().join("nextest.xml");
        let args: Vec<&OsStr> = asked.args().iter().map(OsString::as_os_str).collect();
        let config = format!("testgate:{}", tool.display());
        assert_eq!(
            args,
            [
                "nextest",
                "run",
                "--no-fail-fast",
                "--tool-config-file",
                config.as_str()
            ]
        );
        let written = std::fs::read_to_string(&tool).unwrap();
        assert_eq!(
            written,
            format!("[profile.default.junit]\npath = \"{}\"\n", place.display())
        );
    }
}
