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

pub(super) fn git_ok(dir: &Path, args: &[&str]) {
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
pub(super) fn host_git_runs_nothing_planted(attack: &Attack) {
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
    let ran = planted_ran(attack);
    assert!(ran.is_empty(), "host git ran planted code: {ran:?}");
}

/// The suite's own `planted-git/.git` (with a pre-commit hook) is a new
/// `.git` in the project: Inconclusive `tree_changed`, named first as
/// running later on the host.
fn assert_planted_git_is_a_tree_change(outcome: &super::harness::Outcome) {
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome
            .reason()
            .contains("planted-git/.git (added, runs later on the host)"),
        "{}",
        outcome.reason()
    );
}

#[test]
fn hooks_fsmonitor_and_aliases_cannot_be_planted_in_git() {
    let attack = Attack::new("git-hooks");
    let project = attack.project();
    git_ok(project, &["init", "-q"]);
    git_ok(project, &["add", "-A"]);
    git_ok(project, &["commit", "-q", "-m", "the suite"]);
    let outcome = attack.run();
    assert_planted_git_is_a_tree_change(&outcome);
    // Moving .git aside was refused: the repository is where it was.
    assert!(project.join(".git/HEAD").is_file(), "the .git was moved");
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
    assert_planted_git_is_a_tree_change(&outcome);
    assert_eq!(
        fs::read_to_string(attack.project().join(".git")).expect(".git file"),
        git_file
    );
    host_git_runs_nothing_planted(&attack);
    attack.assert_contained(&outcome);
}

/// The host's `~/.gitconfig` (with `~/.config/git/config`) holds what a
/// test must not see or use: an identity, a credential helper, an include,
/// an alias, a `core.hooksPath`. The sandbox shows git a configuration of
/// its own instead, a file of the attempt's home tmpfs: attempt 1 reads
/// none of the host's, plants a credential helper, a hooks path into the
/// project, an fsmonitor, an alias, an include and an identity in it;
/// attempt 2 finds it fresh; the host's files are byte for byte what they
/// were, and host git run with them afterwards runs nothing planted.
#[test]
fn the_hosts_gitconfig_is_unreadable_and_the_sandboxs_own_dies_with_the_attempt() {
    const CANARY: &str = "gitconfig-canary-71c3";
    let attack = Attack::new("gitconfig");
    let home = attack.outside().join("home");
    fs::create_dir_all(home.join(".config/git")).expect("mkdir");
    let global = format!(
        "[user]\n\tname = {CANARY} name\n\temail = {CANARY}@host.invalid\n\
         [credential]\n\thelper = {CANARY}-helper\n\
         [include]\n\tpath = /nonexistent/{CANARY}.inc\n\
         [alias]\n\t{CANARY} = status\n\
         [core]\n\thooksPath = /nonexistent/{CANARY}-hooks\n"
    );
    let xdg = format!("[url \"https://{CANARY}@example.invalid/\"]\n\tinsteadOf = https://x/\n");
    fs::write(home.join(".gitconfig"), &global).expect("plant");
    fs::write(home.join(".config/git/config"), &xdg).expect("plant");
    let attack = attack.arg("-k").arg("1").testgate_env("HOME", &home);
    let outcome = attack.run();
    outcome.assert_verdict("fail", None, 1);
    let dump = |n: u32| {
        fs::read_to_string(attack.project().join(format!(".cache/dump-{n}.txt")))
            .unwrap_or_else(|e| panic!("attempt {n} left no dump: {e}"))
    };
    let (first, second) = (dump(1), dump(2));
    for (what, text) in [
        ("attempt 1", first.as_str()),
        ("attempt 2", second.as_str()),
        ("stdout", &String::from_utf8_lossy(&outcome.stdout)),
        ("stderr", &String::from_utf8_lossy(&outcome.stderr)),
    ] {
        assert!(
            !text.contains(CANARY),
            "the host's gitconfig leaked into {what}:\n{text}"
        );
    }
    // Each attempt sees the sandbox's identity; attempt 1 could write its
    // global configuration (a test's `git config --global` works) ...
    for text in [&first, &second] {
        assert!(text.contains("testgate <testgate@localhost>"), "{text}");
    }
    assert!(
        first.contains("planted in the sandbox's global configuration"),
        "{first}"
    );
    // ... and attempt 2 found none of it.
    for planted in [
        "credential.helper",
        "hookspath",
        "fsmonitor",
        "alias.st",
        "include.path",
        "planted-",
    ] {
        assert!(
            !second.contains(planted),
            "{planted} outlived attempt 1:\n{second}"
        );
    }
    assert_eq!(
        fs::read_to_string(home.join(".gitconfig")).expect("read"),
        global
    );
    assert_eq!(
        fs::read_to_string(home.join(".config/git/config")).expect("read"),
        xdg
    );
    // testgate keeps its private caches in the home's .cache; nothing else
    // was added.
    let mut entries: Vec<String> = fs::read_dir(&home)
        .expect("home")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(entries, [".cache", ".config", ".gitconfig"]);
    // Host git with the host's own global configuration, in a repository
    // outside: a commit (hooks), status (fsmonitor), the alias, a
    // credential fill (helper) run nothing the attempt planted.
    let repo = attack.outside().join("host-repo");
    fs::create_dir(&repo).expect("mkdir");
    let host_git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&repo)
            .args(args)
            .env("HOME", &home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_TERMINAL_PROMPT", "0")
            .stdin(std::process::Stdio::null())
            .output()
            .expect("start git")
    };
    assert!(host_git(&["init", "-q"]).status.success());
    let _ = host_git(&["commit", "-q", "--allow-empty", "-m", "after the run"]);
    let _ = host_git(&["status"]);
    let _ = host_git(&["st"]);
    let ran = planted_ran(&attack);
    assert!(ran.is_empty(), "host git ran planted code: {ran:?}");
    attack.assert_contained(&outcome);
}

/// The marker files planted code left outside the project: what host git ran.
fn planted_ran(attack: &Attack) -> Vec<String> {
    fs::read_dir(attack.outside())
        .expect("outside")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(attack.marker()))
        .collect()
}
