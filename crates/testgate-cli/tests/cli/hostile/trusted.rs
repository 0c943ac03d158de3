//! Hook forgeries (issue 40): code the submission adds inside the runner's
//! own process — a pytest `conftest.py` hook, a jest `setupFilesAfterEnv`
//! file, a go `TestMain` — makes exit code, report and console all say
//! passed. No runner-level evidence survives that: each is a PASS as
//! submitted. With `--trusted REV` the tests and their configuration come
//! from the revision (the honest tests), and each is the Fail it is; the
//! tree is left as found.

use std::fs;
use std::path::{Path, PathBuf};

use super::harness::{Attack, Place};
use super::persistence::git_ok;

/// The suite's project made a repository whose one commit holds `honest`
/// (the trusted revision); then each `(forged, as)` is renamed into place,
/// the submission's addition.
fn submitted(attack: &Attack, honest: &[&str], forged: &[(&str, &str)]) {
    let project = attack.project();
    git_ok(project, &["init", "-q"]);
    let mut add = vec!["add", "--"];
    add.extend_from_slice(honest);
    git_ok(project, &add);
    git_ok(
        project,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "the honest tests",
        ],
    );
    for (from, to) in forged {
        fs::rename(project.join(from), project.join(to)).expect("plant the forgery");
    }
}

/// `git status --porcelain` of the project, and every file's bytes: what
/// "left as found" compares.
fn state(project: &Path) -> (String, Vec<(PathBuf, Vec<u8>)>) {
    let out = std::process::Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(project)
        .output()
        .expect("git status");
    let mut files = Vec::new();
    for entry in fs::read_dir(project).expect("project") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            let bytes = fs::read(&path).expect("read");
            files.push((path, bytes));
        }
    }
    files.sort();
    (String::from_utf8_lossy(&out.stdout).into_owned(), files)
}

/// Runs `attack` as submitted (a PASS: the forgery works) and with
/// `--trusted HEAD` (a Fail naming `failing`, the forgery's files named in
/// the view's `removed`), and checks the tree is left as found.
fn forged_then_trusted(
    make: impl Fn() -> Attack,
    failing: &str,
    removed: &[&str],
    setup: impl Fn(&Attack),
) {
    let as_submitted = make();
    setup(&as_submitted);
    let outcome = as_submitted.run();
    outcome.assert_verdict("pass", None, 0);
    as_submitted.assert_contained(&outcome);

    let trusted = make().arg("--trusted").arg("HEAD");
    setup(&trusted);
    let before = state(trusted.project());
    let outcome = trusted.run();
    outcome.assert_verdict("fail", None, 1);
    let doc = outcome.doc();
    assert!(
        doc["failing"]
            .as_array()
            .is_some_and(|names| names.iter().any(|n| n == failing)),
        "{doc:#}"
    );
    let view = &doc["view"];
    assert_eq!(view["revision"], "HEAD", "{view:#}");
    assert_eq!(view["put_back"], true, "{view:#}");
    let named: Vec<&str> = view["removed"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p.as_str())
        .collect();
    assert_eq!(named, removed, "{view:#}");
    assert_eq!(
        state(trusted.project()),
        before,
        "the tree was not left as found"
    );
    trusted.assert_contained(&outcome);
}

/// `tests/hostile/trusted-pytest`: a generic `conftest.py` whose
/// `pytest_runtest_makereport` turns failed reports into passed ones: PASS
/// as submitted, Fail with `--trusted HEAD`, under bubblewrap and Landlock.
#[test]
fn a_conftest_hook_forgery_fails_with_trusted_tests() {
    for place in [Place::Bwrap, Place::Landlock] {
        forged_then_trusted(
            || {
                Attack::new_in("trusted-pytest", place)
                    .runner_command(&["python3", "-m", "pytest", "-q"])
            },
            "test_calc.py::test_add",
            &["conftest.py"],
            |attack| submitted(attack, &["calc.py", "test_calc.py"], &[]),
        );
    }
}

/// `tests/hostile/trusted-go`: a `TestMain` that rewrites its own standard
/// output and exits 0: PASS as submitted, Fail with `--trusted HEAD`.
#[test]
fn a_test_main_forgery_fails_with_trusted_tests() {
    forged_then_trusted(
        || Attack::new("trusted-go").runner_command(&["go", "test", "./..."]),
        "TestAdd",
        &["main_test.go"],
        |attack| {
            submitted(
                attack,
                &["go.mod", "calc.go", "calc_test.go"],
                &[("main_test.go.forged", "main_test.go")],
            );
        },
    );
}

use super::harness::node_modules;

/// `tests/hostile/trusted-jest`: a `jest.config.js` naming a
/// `setupFilesAfterEnv` file that replaces `expect`: PASS as submitted,
/// Fail with `--trusted HEAD`.
#[test]
fn a_jest_setup_file_forgery_fails_with_trusted_tests() {
    let modules = node_modules();
    forged_then_trusted(
        || {
            Attack::new("trusted-jest")
                .runner_command(&["npx", "--no-install", "jest"])
                .arg("--writable")
                .arg(&modules)
        },
        "adds",
        &["jest.config.js"],
        |attack| {
            submitted(
                attack,
                &["package.json", "sum.js", "sum.test.js"],
                &[("jest.config.js.forged", "jest.config.js")],
            );
            std::os::unix::fs::symlink(&modules, attack.project().join("node_modules"))
                .expect("link node_modules");
        },
    );
}
