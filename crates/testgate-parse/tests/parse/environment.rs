//! The environment recognisers over logs captured from real runs
//! (`tests/capture/environment.sh`): each `tests/environment-fixtures/<case>.log`
//! with its `.expected` kind.

use std::path::Path;

use testgate_parse::{EnvironmentKind, EnvironmentScan, Format, parse};

fn kind_name(kind: EnvironmentKind) -> &'static str {
    match kind {
        EnvironmentKind::NoNetwork => "no_network",
        EnvironmentKind::ReadOnlyPath => "read_only_path",
        EnvironmentKind::RunnerNotFound => "runner_not_found",
        EnvironmentKind::ToolchainTooOld => "toolchain_too_old",
        EnvironmentKind::HiddenPath => "hidden_path",
        _ => "other",
    }
}

/// `none` means: no evidence the policy would read. Either nothing fired,
/// or the parser names failing tests, and a named failing test is a
/// failure whatever the output says (a test that prints cargo's own
/// `error: failed to download from` and fails).
#[test]
fn captured_environment_logs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/environment-fixtures");
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let log = entry.unwrap().path();
        if log.extension().and_then(|e| e.to_str()) != Some("log") {
            continue;
        }
        cases += 1;
        let bytes = std::fs::read(&log).unwrap();
        let expected = std::fs::read_to_string(log.with_extension("expected")).unwrap();
        let expected = expected.trim();
        for chunk in [1, 7, 4096] {
            let mut scan = EnvironmentScan::new();
            for piece in bytes.chunks(chunk) {
                scan.feed(piece);
            }
            let found = scan.finish();
            let report = parse(Format::Auto, &bytes);
            let evidence = found.filter(|_| report.failing.is_empty());
            let got = evidence.as_ref().map_or("none", |f| kind_name(f.kind));
            assert_eq!(got, expected, "{} in chunks of {chunk}", log.display());
            // An older toolchain is fixed on the host, and a misspelt cargo
            // subcommand by its spelling: by no option.
            let by_option = |f: &testgate_parse::EnvironmentFailure| {
                f.kind != EnvironmentKind::ToolchainTooOld
                    && !f.fix.contains("is not a cargo command")
            };
            if let Some(found) = evidence.filter(by_option) {
                assert!(
                    found.fix.contains("--"),
                    "{}: the fix names an option: {}",
                    log.display(),
                    found.fix
                );
            }
        }
    }
    assert!(cases >= 12, "only {cases} captured logs");
}
