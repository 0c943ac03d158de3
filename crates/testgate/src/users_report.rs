//! The user's own report (`--report`, a path in the project): where it
//! is, and what it says beside the console where testgate read none of
//! the runner's own (docs/policy.md, "Three channels must agree"). Read
//! beneath the project, no link followed, capped.

use std::path::{Path, PathBuf};

use testgate_policy::Evidence;

use crate::channels::{Judged, MAX_REPORT};
use crate::runners::ReportFormat;

/// Where the user's report is: `rel` under `workspace`, refused when
/// it leaves it (`..`, an absolute path, a symbolic link on the way).
pub(crate) fn report_path(workspace: &Path, rel: &Path) -> Result<(PathBuf, PathBuf), String> {
    let plain = rel
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !plain || rel.as_os_str().is_empty() {
        return Err(format!(
            "{} is not a plain path inside the project",
            rel.display()
        ));
    }
    let root = std::fs::canonicalize(workspace).map_err(|e| e.to_string())?;
    let path = root.join(rel);
    let parent = path.parent().unwrap_or(&root);
    match std::fs::canonicalize(parent) {
        Ok(real) if real.starts_with(&root) => Ok((root, rel.to_path_buf())),
        Ok(_) => Err(format!("{} leads out of the project", rel.display())),
        // The folder does not exist yet: the runner may make it.
        Err(_) => Ok((root, rel.to_path_buf())),
    }
}

/// The user's own report (`--report`, a path in the project), read where
/// testgate read none of the runner's itself (it could not ask, or the
/// command line's own `--junitxml` replaced testgate's behind a wrapper):
/// then it is the report beside the console, under the same rule
/// (docs/policy.md, "Three channels must agree"). Where testgate read the
/// runner's report, a file the suite's tree holds is not read for the
/// verdict.
pub(crate) fn with_runner_report(judged: Judged, at: Result<(PathBuf, PathBuf), String>) -> Judged {
    let (root, rel) = match at {
        Ok(at) => at,
        Err(why) => {
            let note = format!("the runner's report was not read: {why}");
            return Judged {
                note: Some(join_notes(judged.note, note)),
                ..judged
            };
        }
    };
    let path = root.join(&rel);
    let shown = path.display().to_string();
    match judged.evidence {
        Evidence::Report { .. } => {
            let note = format!(
                "the report at {shown} was not read: testgate asked the runner for its own, \
                 outside the project"
            );
            return Judged {
                note: Some(join_notes(judged.note, note)),
                ..judged
            };
        }
        Evidence::ConsoleAlone | Evidence::ReportMissing | Evidence::Unasked => {}
    }
    // Read beneath the project, no link followed, capped, never blocking.
    let read = testgate_run::ProjectDir::open(&root).and_then(|p| p.read(&rel, MAX_REPORT));
    let format = match &read {
        Ok(bytes) if testgate_parse::is_json_report(bytes) => ReportFormat::JestJson,
        Ok(_) | Err(_) => ReportFormat::JUnit,
    };
    let earlier = judged.note;
    let judged = crate::channels::beside(judged.report, read, format, &shown);
    Judged {
        note: match (earlier, judged.note) {
            (Some(a), Some(b)) => Some(join_notes(Some(a), b)),
            (a, b) => a.or(b),
        },
        ..judged
    }
}

/// `earlier; note`.
fn join_notes(earlier: Option<String>, note: String) -> String {
    match earlier {
        Some(earlier) => format!("{earlier}; {note}"),
        None => note,
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "tests build their own fixtures, in folders no test command ran in"
)]
mod tests {
    use super::*;
    use testgate_parse::{Report, Runner};

    /// The console alone, as an attempt judged without a report of its own.
    fn alone(console: Report) -> Judged {
        crate::channels::Judged::console_alone_because(console, "no place")
    }

    /// A console that names one failure, and the user's report file that
    /// names another: the report's outcomes are read, and the console's
    /// names are kept beside them for the policy to compare (never believed
    /// over it, docs/policy.md, "Three channels must agree").
    #[test]
    fn a_users_report_is_read_beside_the_console_not_believed_over_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("junit.xml"),
            r#"<testsuites name="nextest-run"><testsuite name="demo">
<testcase name="tests::real" classname="demo"><failure/></testcase>
<testcase name="tests::printed" classname="demo"/>
</testsuite></testsuites>"#,
        )
        .unwrap();
        let console = testgate_parse::parse(
            Runner::Nextest,
            "        FAIL [   0.001s] demo tests::printed\n",
        );
        let judged =
            with_runner_report(alone(console), Ok((dir.path().into(), "junit.xml".into())));
        assert_eq!(judged.report.names().collect::<Vec<_>>(), ["tests::real"]);
        match &judged.evidence {
            Evidence::Report {
                console_failing, ..
            } => assert_eq!(console_failing, &["tests::printed"]),
            other @ (Evidence::ConsoleAlone | Evidence::ReportMissing | Evidence::Unasked) => {
                panic!("{other:?}")
            }
        }
        let console = testgate_parse::parse(Runner::Nextest, "");
        let judged = with_runner_report(alone(console), Ok((dir.path().into(), "none.xml".into())));
        assert_eq!(judged.evidence, Evidence::ReportMissing);
        assert!(
            judged
                .note
                .as_deref()
                .unwrap_or_default()
                .contains("the runner wrote no complete report at "),
            "{:?}",
            judged.note
        );
        // Over the cap: a note, never the whole file in memory.
        let huge = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.path().join("huge.xml"))
            .unwrap();
        huge.set_len(MAX_REPORT + 1).unwrap();
        let console = testgate_parse::parse(Runner::Nextest, "");
        let judged = with_runner_report(alone(console), Ok((dir.path().into(), "huge.xml".into())));
        assert_eq!(judged.evidence, Evidence::ConsoleAlone);
        assert!(
            judged.note.as_deref().unwrap_or_default().ends_with(
                "huge.xml is larger than the 64 MiB testgate reads: its console judged alone"
            ),
            "{:?}",
            judged.note
        );
        // A report behind a link the attempt planted is not followed.
        std::os::unix::fs::symlink(dir.path().join("junit.xml"), dir.path().join("link.xml"))
            .unwrap();
        let console = testgate_parse::parse(Runner::Nextest, "");
        let judged = with_runner_report(alone(console), Ok((dir.path().into(), "link.xml".into())));
        assert_eq!(judged.evidence, Evidence::ReportMissing);
    }
}
