//! What the default sandbox gives a test that the host's home and network
//! gave it (`tests/projects/sandbox/`), so that a verdict about the sandbox
//! never reads as one about the code: git's identity and trust with the
//! host's `~/.gitconfig` hidden, and npm failing at once, with the fix,
//! where it would wait on a registry it cannot reach.

use std::path::Path;
use std::time::Duration;

use testgate::parse::Runner;
use testgate::{Cause, Record, Sandbox, SandboxedTests, TestConfig, Verdict};

use crate::projects::{Project, copy_dir};
use crate::{NoObserver, assert_inconclusive, assert_pass, repo_root};

fn run(config: TestConfig) -> Record {
    SandboxedTests::new(Sandbox::default(), config).run_observed(&mut NoObserver)
}

/// A fresh copy of `tests/projects/sandbox/NAME`, beside the repository's
/// target dir (not under /tmp, which the sandbox makes private).
fn copy(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let base = repo_root().join("target/e2e");
    std::fs::create_dir_all(&base).unwrap();
    let tmp = tempfile::tempdir_in(&base).unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&repo_root().join("tests/projects/sandbox").join(name), &dir);
    (tmp, dir)
}

/// Tests that commit: with the identity the machine gives git (the host's
/// `~/.gitconfig` is hidden: this was a Fail, `Author identity unknown`),
/// with the repository's own `git config user.name`, and with
/// `GIT_AUTHOR_NAME`: each asserts the author it chose, so an identity of
/// the sandbox's that overrode theirs would fail them.
#[test]
fn tests_that_commit_find_an_identity_and_their_own_wins() {
    let (_tmp, dir) = copy("git-identity");
    let record = run(TestConfig::pytest(&dir).within(Duration::from_secs(120)));
    assert_pass(&record, "git-identity under bwrap");
}

/// Run as root on a checkout another user owns, git refuses the project's
/// repository ("detected dubious ownership") unless the configuration marks
/// it safe; the host's may have, and the sandbox hides it. Inside, the
/// sandbox's own configuration marks the project's repository safe.
#[test]
#[expect(
    clippy::disallowed_methods,
    reason = "the checkout is made as a user makes it: git init"
)]
fn the_projects_repository_owned_by_another_user_is_not_refused_by_git() {
    let (_tmp, dir) = copy("git-identity");
    let init = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(init.success());
    chown_all(&dir, 1000);
    let config = TestConfig::new(&dir, "pytest", ["-q", "-p", "no:cacheprovider"])
        .format(Runner::Pytest)
        .within(Duration::from_secs(120));
    let record = run(config);
    assert_pass(&record, "a checkout owned by uid 1000, run as root");
}

/// `path` and everything under it owned by `uid` (CI runs as root).
fn chown_all(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid))
        .unwrap_or_else(|e| panic!("chown {}: {e} (the e2e tests run as root)", path.display()));
    if path.symlink_metadata().unwrap().is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            chown_all(&entry.unwrap().path(), uid);
        }
    }
}

/// The e2e vitest project without its `node_modules` (the user forgot
/// `npm ci`), default options: npx would fetch vitest from a registry the
/// sandbox cannot reach, and npm retried for minutes (a `timed_out` after
/// the whole 10-minute default in the field, 70 s with a cold cache). npm
/// is told to stay offline: it fails at once (`ENOTCACHED`), and the
/// verdict is Inconclusive `environment`, with the fix. The limit below is
/// shorter than npm's retries, so a run that waited on the registry would
/// be `timed_out`, not `environment`.
#[test]
fn npx_without_node_modules_is_an_environment_failure_with_the_fix() {
    for (runner, args) in [
        (Runner::Vitest, &["--no-install", "vitest", "run"][..]),
        (Runner::Vitest, &["vitest", "run"][..]),
        (Runner::Jest, &["jest"][..]),
    ] {
        let project = Project::copy(runner);
        std::fs::remove_file(project.dir.join("node_modules")).unwrap();
        let config = TestConfig::new(&project.dir, "npx", args.iter().copied())
            .format(runner)
            .preset()
            .within(Duration::from_secs(30));
        let what = format!("npx {} without node_modules", args.join(" "));
        let record = run(config);
        assert_inconclusive(&record, Cause::Environment, &what);
        let reason = match &record.verdict {
            Verdict::Inconclusive { reason, .. } => reason,
            other @ (Verdict::Pass { .. } | Verdict::Fail { .. }) => panic!("{what}: {other:#?}"),
        };
        assert!(reason.contains("`npm ci`"), "{what}: {reason}");
        assert!(reason.contains("--allow-network"), "{what}: {reason}");
        assert!(reason.contains("ENOTCACHED"), "{what}: {reason}");
    }
}
