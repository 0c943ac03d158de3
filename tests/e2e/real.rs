//! Real open-source projects vendored under `tests/projects/real/` (each
//! with its licence), checked as a user checks them, without a command:
//! Pass as vendored, and Fail naming exactly the example that a one-line
//! break fails, under bubblewrap and under Landlock (issue 39).

use std::path::{Path, PathBuf};
use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Record, SandboxedTests, TestConfig};

use crate::projects::copy_dir;
use crate::{NoObserver, Where, assert_fail, assert_pass, repo_root};

/// A fresh copy of `tests/projects/real/NAME`, beside the repository's
/// target dir (not under /tmp, which the sandbox makes private).
fn copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let base = repo_root().join("target/e2e");
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(&base).unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&repo_root().join("tests/projects/real").join(name), &dir);
    (tmp, dir)
}

/// The check `testgate check` runs in `dir` without a command: the
/// detected command, with default options otherwise.
fn zero_config(dir: &Path, runner: Runner, place: Where) -> Record {
    let detected = testgate::detect_command(dir).expect("a command is detected");
    assert_eq!(detected.runner, runner, "{detected}");
    let (program, args) = detected.command.split_first().expect("a program");
    let config = TestConfig::new(dir, program.clone(), args.to_vec())
        .format(detected.runner)
        .within(Duration::from_secs(300));
    SandboxedTests::new(place.sandbox_for(Some(runner)), config).run_observed(&mut NoObserver)
}

/// sickill/rainbow (RSpec, 219 examples): found by its `spec/`, passes as
/// vendored; with one expectation inverted the example is named by its full
/// description, as RSpec's JSON report of a bare run names it. Vendored
/// with one change: tests/projects/real/README.md.
#[test]
fn rainbow_passes_and_fails_naming_the_broken_example_in_both_sandboxes() {
    for place in [Where::Bwrap, Where::Landlock] {
        let (_tmp, dir) = copy("rainbow");
        let record = zero_config(&dir, Runner::Rspec, place);
        assert_pass(&record, &format!("rainbow under {place:?}"));

        let spec = dir.join("spec/unit/string_utils_spec.rb");
        let text = std::fs::read_to_string(&spec).unwrap();
        let broken = text.replacen(
            "expect(string).to eq('hello')",
            "expect(string).not_to eq('hello')",
            1,
        );
        assert_ne!(text, broken, "the break applies");
        std::fs::write(&spec, broken).unwrap();
        let record = zero_config(&dir, Runner::Rspec, place);
        assert_fail(
            &record,
            &["Rainbow::StringUtils.wrap_with_sgr doesn't mutate original string"],
            &format!("broken rainbow under {place:?}"),
        );
    }
}
