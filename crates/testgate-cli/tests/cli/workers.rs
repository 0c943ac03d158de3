//! Honest suites that start processes of their own pass under the run's
//! reaper, in both sandboxes: pytest-xdist workers and a server on the
//! loopback, `go test ./...` over several packages, jest workers and a node
//! `http` server on the loopback. The projects are `tests/projects/sandbox/workers/`.

use std::path::{Path, PathBuf};

use crate::check::fresh_copy;
use crate::testgate;

/// `testgate check -q --sandbox SANDBOX -C DIR OPTIONS -- COMMAND`: asserts
/// a PASS with `passed` tests.
fn assert_passes(dir: &Path, sandbox: &str, options: &[&str], command: &[&str], passed: u32) {
    let dir = dir.to_str().expect("a UTF-8 path");
    let mut args = vec!["check", "-q", "--sandbox", sandbox, "-C", dir];
    args.extend_from_slice(options);
    args.push("--");
    args.extend_from_slice(command);
    let run = testgate(&args, None);
    assert_eq!(run.code, Some(0), "{sandbox}: {run:#?}");
    let counts = format!("{passed} passed, 0 failed");
    assert!(run.stdout.contains(&counts), "{sandbox}: {run:#?}");
}

/// A copy of the workers project `name`.
fn project(name: &str) -> (tempfile::TempDir, PathBuf) {
    fresh_copy(&format!("tests/projects/sandbox/workers/{name}"), name)
}

const XDIST: &[&str] = &[
    "python3",
    "-m",
    "pytest",
    "-n",
    "2",
    "-p",
    "no:cacheprovider",
];

#[test]
fn pytest_xdist_workers_and_a_loopback_server_pass_under_bubblewrap() {
    let (_tmp, dir) = project("pytest");
    assert_passes(&dir, "bwrap", &[], XDIST, 6);
}

/// Under Landlock as under bubblewrap a test connects to the servers it
/// started, and pytest-rerunfailures's workers to their controller: the
/// command has a loopback of its own (a network namespace; docs/sandbox.md).
#[test]
fn pytest_xdist_workers_and_a_loopback_server_pass_under_landlock() {
    let (_tmp, dir) = project("pytest");
    assert_passes(&dir, "landlock", &[], XDIST, 6);
}

#[test]
fn go_test_of_several_packages_passes_in_both_sandboxes() {
    let (_tmp, dir) = project("go");
    for sandbox in ["bwrap", "landlock"] {
        assert_passes(&dir, sandbox, &[], &["go", "test", "./..."], 3);
    }
}

/// Three worker files and `server.test.js`, an `http` server on the
/// loopback the test starts and requests, as supertest does.
#[test]
fn jest_workers_pass_in_both_sandboxes() {
    let (_tmp, dir) = project("jest");
    let modules = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/projects/e2e/node/node_modules")
        .canonicalize();
    let Ok(modules) = modules else {
        panic!("tests/projects/e2e/node/node_modules is missing: run scripts/setup (npm ci)");
    };
    std::os::unix::fs::symlink(&modules, dir.join("node_modules")).expect("link node_modules");
    // The linked folder is shown to the run: in a checkout under /tmp it
    // lies in the host's /tmp, which the sandbox hides.
    let modules = modules.to_str().expect("a UTF-8 path");
    for sandbox in ["bwrap", "landlock"] {
        let options = ["--writable", modules];
        assert_passes(
            &dir,
            sandbox,
            &options,
            &["npx", "jest", "--maxWorkers=2"],
            4,
        );
    }
}
