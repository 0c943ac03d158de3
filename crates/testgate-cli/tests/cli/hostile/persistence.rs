//! Persistence through the repository: code planted in `.git` for host git
//! to run after the sandbox is gone.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use super::harness::Attack;

/// Host git in `dir`, as a user would run it: no system or global config
/// of this machine, an identity for commits.
fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=hostile",
            "-c",
            "user.email=hostile@example.invalid",
        ])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("start git")
}

fn git_ok(dir: &Path, args: &[&str]) {
    let out = git(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs on the host what the attack planted for: `git status` (fsmonitor),
/// `git commit` (pre-commit hook, hooksPath) and the aliases; then asserts
/// that none of the planted commands ran.
fn host_git_runs_nothing_planted(attack: &Attack) {
    let project = attack.project();
    git_ok(project, &["status", "--porcelain"]);
    git_ok(
        project,
        &["commit", "-q", "--allow-empty", "-m", "after the run"],
    );
    for alias in ["st", "ci", "co"] {
        // Unknown aliases fail; only whether they ran anything matters.
        let _ = git(project, &[alias]);
    }
    let ran: Vec<String> = fs::read_dir(attack.outside())
        .expect("outside")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(attack.marker()))
        .collect();
    assert!(ran.is_empty(), "host git ran planted code: {ran:?}");
}

#[test]
fn hooks_fsmonitor_and_aliases_cannot_be_planted_in_git() {
    let attack = Attack::new("git-hooks");
    let project = attack.project();
    git_ok(project, &["init", "-q"]);
    git_ok(project, &["add", "-A"]);
    git_ok(project, &["commit", "-q", "-m", "the suite"]);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome.reason().contains("refused: moving .git"),
        "{}",
        outcome.reason()
    );
    host_git_runs_nothing_planted(&attack);
    attack.assert_contained(&outcome);
}

/// The project is a linked worktree (as `/work/wt/*` are): its `.git` is a
/// file naming a git directory in the main repository. The main repository
/// is writable by choice here (`--writable`), so only following the `.git`
/// file protects its hooks and config.
#[test]
fn a_worktrees_git_file_its_git_dir_and_the_main_repository_are_protected() {
    let attack = Attack::new("git-hooks");
    let main = attack.outside().join("main");
    let linked = attack.outside().join("linked");
    fs::create_dir(&main).expect("mkdir main");
    git_ok(&main, &["init", "-q"]);
    git_ok(&main, &["commit", "-q", "--allow-empty", "-m", "main"]);
    git_ok(
        &main,
        &[
            "worktree",
            "add",
            "-q",
            "--detach",
            linked.to_str().expect("utf-8"),
        ],
    );
    fs::rename(linked.join(".git"), attack.project().join(".git")).expect("move the .git file");
    fs::remove_dir_all(&linked).expect("remove the first checkout");
    git_ok(attack.project(), &["worktree", "repair"]);
    let git_file = fs::read_to_string(attack.project().join(".git")).expect(".git file");
    let attack = attack.arg("--writable").arg(&main);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome
            .reason()
            .contains("refused: rewriting the .git file"),
        "{}",
        outcome.reason()
    );
    assert_eq!(
        fs::read_to_string(attack.project().join(".git")).expect(".git file"),
        git_file
    );
    host_git_runs_nothing_planted(&attack);
    attack.assert_contained(&outcome);
}
