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
    let attack = Attack::new_in("git-follows", place).arg("--restore");
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
    let reasons = git_follows_in(Place::Landlock);
    for planted in [
        ".git/commondir",
        ".git/objects/info/alternates",
        ".git/modules/vendor/config",
        ".git/modules/vendor/hooks/pre-commit",
    ] {
        assert!(reasons[0].contains(planted), "{planted}: {}", reasons[0]);
    }
}
