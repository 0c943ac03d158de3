//! What testgate itself does on the host around a run: its own git on a
//! repository the code under test may have made, verifying a record.

use std::fs;

use super::harness::Attack;

/// The project is no repository's top; the first check's suite makes it
/// one, with a filter driver (and a textconv and an external diff) in its
/// configuration and every file given that filter; the second check's
/// record reads the commit and the dirty state before its first attempt.
/// Had testgate run `git status` on that repository, the filter would have
/// run on the host as root and left its file outside the project.
#[test]
fn a_repository_planted_with_a_filter_runs_nothing_on_the_host() {
    let records = tempfile::tempdir().expect("tempdir");
    let record = records.path().join("record.json");
    let attack = Attack::new("git-filter")
        .arg("--record")
        .arg(&record)
        .arg("--keep-changes");
    let ran = attack
        .outside()
        .join(format!("{}-filter-ran", attack.marker()));
    let first = attack.run();
    // The planted repository is itself a change to the tree (a new `.git`
    // runs later on the host), left in place with --keep-changes: the
    // second check's own git is what this attack is about.
    first.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        first
            .reason()
            .contains(".git (added, runs later on the host)"),
        "the suite did not plant its repository: {}",
        first.reason()
    );
    assert!(
        attack.project().join(".git/config").is_file(),
        "no .git was planted"
    );
    attack.assert_contained(&first);
    let second = attack.run();
    assert!(!ran.exists(), "the planted filter ran on the host");
    let text = fs::read_to_string(&record).expect("the record");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let suite = &doc["record"]["suite"];
    let unchecked = suite["dirty"]["unchecked"].as_str().unwrap_or_default();
    assert!(
        unchecked.contains("filter.hostile."),
        "the record does not say why git was not run: {suite:#}"
    );
    // Not said clean: a tree git could not be asked about is marked dirty.
    assert!(
        suite["version"]
            .as_str()
            .is_some_and(|v| v.len() == 40 + "-dirty".len() && v.ends_with("-dirty")),
        "{suite:#}"
    );
    attack.assert_contained(&second);
}

fn testgate(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_testgate"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("start testgate")
}

/// A record whose verdict was forged and re-signed with another key (any
/// key: `keygen` makes one) carries that key; `verify` without `--key`
/// must not take the record's own key for a trusted one.
#[test]
fn verify_without_a_key_never_passes_a_signed_record() {
    let work = tempfile::tempdir().expect("tempdir");
    let project = work.path().join("project");
    fs::create_dir_all(&project).expect("project");
    fs::write(project.join("test_ok.sh"), "echo '1 passed, 0 failed'\n").expect("suite");
    for key in ["../trusted", "../forger"] {
        let out = testgate(&["keygen", key], &project);
        assert!(out.status.success(), "{out:?}");
    }
    // The forger's record: signed by the forger's key, intact.
    let out = testgate(
        &[
            "check",
            "-q",
            "--record",
            "../record.json",
            "--sign",
            "../forger",
            "--",
            "sh",
            "test_ok.sh",
        ],
        &project,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let verify = |extra: &[&str]| {
        let mut args = vec!["verify", "../record.json", "-C", "."];
        args.extend_from_slice(extra);
        testgate(&args, &project)
    };
    let out = verify(&[]);
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("the signature was not checked"), "{said}");
    assert!(said.contains("pass --key"), "{said}");
    // The trusted key rejects it; the forger's own key accepts it.
    assert_eq!(verify(&["--key", "../trusted.pub"]).status.code(), Some(1));
    assert_eq!(verify(&["--key", "../forger.pub"]).status.code(), Some(0));
}

/// testgate's own git follows nothing out of the project (issue 35): a
/// repository whose `commondir` or `objects/info/alternates` names a folder
/// outside the project (where the snapshot does not walk), or whose `.git`
/// is a file naming a git directory outside, is not given to git at all,
/// and the record says why.
#[test]
fn a_repository_that_leads_out_of_the_project_is_not_given_to_git() {
    for (file, names) in [
        ("commondir", "its commondir names "),
        ("objects/info/alternates", "objects/info/alternates names "),
        (".git", "the git directory "),
    ] {
        let records = tempfile::tempdir().expect("tempdir");
        let record = records.path().join("record.json");
        let attack = Attack::new("git-follows")
            .command(&["true"])
            .arg("--record")
            .arg(&record);
        let project = attack.project();
        super::persistence::git_ok(project, &["init", "-q"]);
        super::persistence::git_ok(project, &["add", "-A"]);
        super::persistence::git_ok(project, &["commit", "-q", "-m", "the suite"]);
        let copy = attack.outside().join("copy");
        let copied = std::process::Command::new("cp")
            .arg("-r")
            .arg(project.join(".git"))
            .arg(&copy)
            .status()
            .expect("cp");
        assert!(copied.success());
        match file {
            // The project's `.git` a file naming the copy outside.
            ".git" => {
                fs::remove_dir_all(project.join(".git")).expect("rm .git");
                let named = format!("gitdir: {}\n", copy.display());
                fs::write(project.join(".git"), named).expect("plant");
            }
            _ => {
                let target = match file {
                    "commondir" => copy.clone(),
                    _ => copy.join("objects"),
                };
                fs::create_dir_all(project.join(".git/objects/info")).expect("info");
                let named = format!("{}\n", target.display());
                fs::write(project.join(".git").join(file), named).expect("plant");
            }
        }
        let outcome = attack.run();
        outcome.assert_verdict("pass", None, 0);
        let text = fs::read_to_string(&record).expect("the record");
        let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
        let suite = &doc["record"]["suite"];
        let unchecked = suite["dirty"]["unchecked"].as_str().unwrap_or_default();
        assert!(
            unchecked.starts_with("git was not run: ")
                && unchecked.contains(names)
                && unchecked.ends_with("outside the project"),
            "{file}: {suite:#}"
        );
        attack.assert_contained(&outcome);
    }
}
