//! Persistence through what git follows from `.git` (issue 35): a
//! `commondir` naming a copy of the repository whose configuration sets
//! `core.fsmonitor`, `objects/info/alternates`, a submodule's git directory,
//! and the file the project's own `include.path` names. Under both
//! sandboxes each one that could be written is found after the attempt and,
//! with `--restore`, put back, so host git runs none of them.

use std::fs;

use super::harness::{Attack, Place};
use super::persistence::{git_ok, host_git_runs_nothing_planted};

/// The project: a repository (one commit) with a `Cargo.toml`, so that
/// `target/` is a folder the walk otherwise leaves alone, whose
/// configuration includes `target/gitconfig.local` (missing before the
/// run, as a project-local include often is).
fn repository(attack: &Attack) {
    let project = attack.project();
    fs::write(project.join("Cargo.toml"), "[package]\nname = \"p\"\n").expect("Cargo.toml");
    git_ok(project, &["init", "-q"]);
    git_ok(project, &["add", "-A"]);
    git_ok(project, &["commit", "-q", "-m", "the suite"]);
    git_ok(
        project,
        &["config", "include.path", "../target/gitconfig.local"],
    );
}

fn git_follows_in(place: Place) -> Vec<String> {
    git_follows(Attack::new_in("git-follows", place))
}

fn git_follows(attack: Attack) -> Vec<String> {
    let attack = attack.arg("--restore");
    repository(&attack);
    let outcome = attack.run();
    // First what matters: host git, run as a user would, runs nothing.
    host_git_runs_nothing_planted(&attack);
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    // The include is in the tests' reach under both sandboxes.
    assert!(
        outcome.reason().contains("target/gitconfig.local (added"),
        "{}",
        outcome.reason()
    );
    assert!(
        !attack.project().join("target/gitconfig.local").exists(),
        "the planted include was not removed"
    );
    attack.assert_contained(&outcome);
    vec![outcome.reason().to_owned()]
}

/// Under bubblewrap `.git` is read-only: only the include (a file of the
/// project) can be planted, and it is found and removed.
#[test]
fn what_git_follows_from_git_cannot_persist_under_bubblewrap() {
    let reasons = git_follows_in(Place::Bwrap);
    for refused in [".git/commondir", ".git/modules/vendor/config"] {
        assert!(!reasons[0].contains(refused), "{refused}: {}", reasons[0]);
    }
}

/// Under Landlock `.git` is writable inside the project: the common
/// directory, the alternates and the submodule's configuration and hook are
/// planted too, and each is found and put back.
#[test]
fn what_git_follows_from_git_is_found_and_restored_under_landlock() {
    found_and_restored(&git_follows_in(Place::Landlock));
}

/// Default options inside a container (`auto` picks Landlock there): the
/// same plants, found and put back.
#[test]
fn what_git_follows_from_git_is_found_and_restored_in_a_container() {
    found_and_restored(&git_follows(Attack::in_a_container("git-follows")));
}

fn found_and_restored(reasons: &[String]) {
    for planted in [
        ".git/commondir",
        ".git/objects/info/alternates",
        ".git/modules/vendor/config",
        ".git/modules/vendor/hooks/pre-commit",
    ] {
        assert!(reasons[0].contains(planted), "{planted}: {}", reasons[0]);
    }
}

/// The project's `.git` moved aside and made a file whose `gitdir:` names a
/// repository outside the project (one whose configuration sets
/// `core.fsmonitor`): host git would use that one. Under bubblewrap `.git`
/// cannot be moved (a read-only mount); under Landlock it can, and the
/// change is found (`.git` changed, runs later on the host) and the `.git`
/// file removed by `--restore`, so host git in the project runs nothing
/// planted. **Not restored**: the repository itself — `--restore` makes
/// `.git` a folder again with what the walk records of it (configuration,
/// hooks, `info`), not its objects and refs; the moved folder is left for
/// the user to move back.
fn a_git_file_naming_a_repository_outside_in(place: Place) -> super::harness::Outcome {
    a_git_file_naming_a_repository_outside(Attack::new_in("git-follows", place))
}

fn a_git_file_naming_a_repository_outside(attack: Attack) -> super::harness::Outcome {
    let attack = attack.arg("--restore").script_arg("gitdir");
    repository(&attack);
    let evil = attack.outside().join("evil.git");
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(attack.project().join(".git"))
        .arg(&evil)
        .status()
        .expect("cp");
    assert!(copied.success());
    let marker = attack.outside().join(format!("{}-gitdir", attack.marker()));
    let config = format!(
        "[core]\n\tfsmonitor = touch '{}'; false\n",
        marker.display()
    );
    let mut file = fs::OpenOptions::new()
        .append(true)
        .open(evil.join("config"))
        .expect("config");
    std::io::Write::write_all(&mut file, config.as_bytes()).expect("append");
    let outcome = attack.run();
    // Host git in the project, as a user would run it after the check
    // (whether it finds a repository there or not).
    let _ = std::process::Command::new("git")
        .arg("-C")
        .arg(attack.project())
        .args(["status", "--porcelain"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("start git");
    assert!(
        !marker.exists(),
        "host git ran the outside repository's fsmonitor"
    );
    attack.assert_contained(&outcome);
    outcome
}

#[test]
fn a_git_file_naming_a_repository_outside_cannot_be_planted_under_bubblewrap() {
    let outcome = a_git_file_naming_a_repository_outside_in(Place::Bwrap);
    outcome.assert_verdict("pass", None, 0);
}

#[test]
fn a_git_file_naming_a_repository_outside_is_found_and_removed_under_landlock() {
    found_and_removed(a_git_file_naming_a_repository_outside_in(Place::Landlock));
}

/// Default options inside a container (`auto` picks Landlock there).
#[test]
fn a_git_file_naming_a_repository_outside_is_found_and_removed_in_a_container() {
    found_and_removed(a_git_file_naming_a_repository_outside(
        Attack::in_a_container("git-follows"),
    ));
}

fn found_and_removed(outcome: super::harness::Outcome) {
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome
            .reason()
            .starts_with("attempt 1 changed the tree it was judging, so its result is not evidence of a pass: .git (changed, runs later on the host)"),
        "{}",
        outcome.reason()
    );
}
