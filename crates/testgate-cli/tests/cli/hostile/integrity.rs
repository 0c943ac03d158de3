//! Integrity: a suite must not change the tree it is judged on (its own
//! assertions, its test files, its snapshots, its git history) nor plant a
//! file that runs later on the host. Each attack passes on its own terms and
//! must come out Inconclusive `tree_changed`, naming the path, and be put
//! back (the default; `--keep-changes` leaves it to look at).

use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::harness::{Attack, Place};

pub(super) const ASSERTION: &str = "#!/bin/sh\n# expect 5\n[ $((2 + 2)) -eq 5 ]\n";

pub(super) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("start git");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs the `tree-changes` suite's attack `what`, with `--restore` or not,
/// and asserts tree_changed naming `path`.
fn attack(what: &str, restore: bool, path: &str) -> Attack {
    attack_in(Place::Bwrap, what, restore, path)
}

/// [`attack`] in the sandbox `place`.
pub(super) fn attack_in(place: Place, what: &str, restore: bool, path: &str) -> Attack {
    let mut attack = Attack::new_in("tree-changes", place).script_arg(what);
    // `--restore` is the default now, still accepted; `--keep-changes`
    // leaves the last attempt's changes to look at.
    attack = attack.arg(if restore {
        "--restore"
    } else {
        "--keep-changes"
    });
    let outcome = attack.run();
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(outcome.reason().contains(path), "{}", outcome.reason());
    let tree = &outcome.doc()["tree"];
    let bare = path.split(" (").next().unwrap_or(path);
    assert!(tree.to_string().contains(bare), "{tree:#}");
    if restore {
        assert!(tree["restored"]["files"].as_u64() >= Some(1), "{tree:#}");
        assert!(
            outcome.reason().contains("Restored"),
            "{}",
            outcome.reason()
        );
    } else {
        assert!(tree["restored"].is_null(), "{tree:#}");
    }
    attack.assert_contained(&outcome);
    attack
}

#[test]
fn a_test_that_edits_its_own_assertion_is_tree_changed_and_restored() {
    let left = attack("edit", false, "test_math.sh");
    let edited = fs::read_to_string(left.project().join("test_math.sh")).expect("read");
    assert!(edited.contains("expect 4"), "left for the user: {edited}");
    let restored = attack("edit", true, "test_math.sh");
    assert_eq!(
        fs::read_to_string(restored.project().join("test_math.sh")).expect("read"),
        ASSERTION
    );
}

#[test]
fn a_test_that_deletes_a_test_file_is_tree_changed_and_restored() {
    let left = attack("delete", false, "test_math.sh (deleted)");
    assert!(!left.project().join("test_math.sh").exists());
    let restored = attack("delete", true, "test_math.sh (deleted)");
    assert_eq!(
        fs::read_to_string(restored.project().join("test_math.sh")).expect("read"),
        ASSERTION
    );
}

#[test]
fn a_test_that_commits_from_inside_cannot_move_head_and_is_tree_changed() {
    for restore in [false, true] {
        let mut attack = Attack::new("tree-changes").script_arg("commit");
        attack = attack.arg(if restore {
            "--restore"
        } else {
            "--keep-changes"
        });
        let project = attack.project().to_path_buf();
        git(&project, &["init", "-q"]);
        git(&project, &["add", "-A"]);
        git(&project, &["commit", "-q", "-m", "the suite"]);
        let head = git(&project, &["rev-parse", "HEAD"]);
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
        assert!(
            outcome.reason().contains("test_math.sh"),
            "{}",
            outcome.reason()
        );
        // .git is read-only in the sandbox: the commit is refused.
        assert_eq!(git(&project, &["rev-parse", "HEAD"]), head);
        let status = git(&project, &["status", "--porcelain"]);
        if restore {
            assert_eq!(status, "", "restored to HEAD");
        } else {
            assert!(status.contains("test_math.sh"), "{status}");
        }
        attack.assert_contained(&outcome);
    }
}

#[test]
fn a_planted_cargo_config_is_tree_changed_first_and_removed_with_restore() {
    let left = attack(
        "cargo",
        false,
        ".cargo/config.toml (added, runs later on the host)",
    );
    assert!(left.project().join(".cargo/config.toml").exists());
    let restored = attack("cargo", true, ".cargo/config.toml");
    assert!(!restored.project().join(".cargo/config.toml").exists());
}

#[test]
fn a_test_that_rewrites_its_snapshot_is_tree_changed_and_restored() {
    attack("snapshot", false, "out.snap (changed)");
    let restored = attack("snapshot", true, "out.snap");
    assert_eq!(
        fs::read_to_string(restored.project().join("out.snap")).expect("read"),
        "the old output\n"
    );
}

/// Runs the `failing-tree-change` suite's attack `what` (it fails naming
/// `tests::adds` and changes the tree), with `--restore` or not, always
/// with `--record` (written outside the project); the outcome and the
/// record's document.
fn failing_attack(what: &str, restore: bool) -> (Attack, super::harness::Outcome, Value) {
    failing_attack_in(Place::Bwrap, what, restore)
}

/// [`failing_attack`] in the sandbox `place`.
pub(super) fn failing_attack_in(
    place: Place,
    what: &str,
    restore: bool,
) -> (Attack, super::harness::Outcome, Value) {
    let mut attack = Attack::new_in("failing-tree-change", place).script_arg(what);
    let record = attack.outside().join("record.json");
    attack = attack.arg("--record").arg(&record);
    // `--restore` is the default now, still accepted; `--keep-changes`
    // leaves the last attempt's changes to look at.
    attack = attack.arg(if restore {
        "--restore"
    } else {
        "--keep-changes"
    });
    let outcome = attack.run();
    let text = fs::read_to_string(&record).expect("the record is written");
    let document: Value = serde_json::from_str(&text).expect("the record is JSON");
    attack.assert_contained(&outcome);
    (attack, outcome, document)
}

/// The first attempt failed naming a test, so the Fail stands (docs/policy.md,
/// "The tree changed"); that rule must not keep the change from `--restore`
/// nor from the record, which both still name it.
#[test]
fn a_failing_suite_that_edits_the_tree_is_a_fail_yet_restored_and_recorded() {
    for restore in [false, true] {
        let (attack, outcome, record) = failing_attack("edit", restore);
        outcome.assert_verdict("fail", None, 1);
        assert_eq!(outcome.doc()["failing"], serde_json::json!(["tests::adds"]));
        assert!(
            outcome
                .reason()
                .contains("it changed the tree it was judging: test_math.sh (changed)"),
            "{}",
            outcome.reason()
        );
        let result = &record["record"]["result"];
        assert_eq!(record["record"]["verdict"], "fail", "{record:#}");
        assert_eq!(
            result["tree"]["changed"],
            serde_json::json!(["test_math.sh"])
        );
        assert!(
            result["reason"]
                .as_str()
                .unwrap_or_default()
                .contains("test_math.sh")
        );
        let left = fs::read_to_string(attack.project().join("test_math.sh")).expect("read");
        if restore {
            assert_eq!(left, ASSERTION, "--restore still puts the tree back");
            assert_eq!(result["tree"]["restored"]["files"], 1, "{result:#}");
        } else {
            assert!(left.contains("expect 4"), "left for the user: {left}");
        }
    }
}

/// A Fail tells a gate to reject and move on: a plant that runs later on
/// the host, left in place, keeps the verdict Inconclusive tree_changed;
/// once `--restore` removed it, the proven Fail stands.
#[test]
fn a_failing_suite_that_plants_a_host_run_file_stays_tree_changed_unless_restored() {
    let (attack, outcome, record) = failing_attack("plant", false);
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    assert!(
        outcome
            .reason()
            .contains(".cargo/config.toml (added, runs later on the host)"),
        "{}",
        outcome.reason()
    );
    assert_eq!(record["record"]["verdict"], "inconclusive", "{record:#}");
    assert!(attack.project().join(".cargo/config.toml").exists());

    let (attack, outcome, record) = failing_attack("plant", true);
    outcome.assert_verdict("fail", None, 1);
    assert_eq!(
        record["record"]["result"]["tree"]["added"],
        serde_json::json!([".cargo/config.toml"])
    );
    assert!(!attack.project().join(".cargo/config.toml").exists());
}

/// testgate's own stderr file in the project is left out of the tree
/// comparison by its path *and* its inode: linked or renamed elsewhere, it
/// is judged at its new path like any file, and the passing suite that
/// tried it is Inconclusive `tree_changed` naming that path.
#[test]
fn testgates_own_output_file_linked_or_moved_onto_a_judged_path_is_tree_changed() {
    for (what, path) in [
        ("link", "conftest.py (added, runs later on the host)"),
        ("replace", "test_math.sh (changed)"),
        ("rename", "conftest.py (added, runs later on the host)"),
    ] {
        let attack = Attack::new("own-output-link")
            .script_arg(what)
            .stderr_into("tg.log");
        let outcome = attack.run();
        outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
        assert!(
            outcome.reason().contains(path),
            "{what}: {}",
            outcome.reason()
        );
        attack.assert_contained(&outcome);
    }
}

#[test]
fn snapshot_update_flags_are_a_usage_error() {
    for words in [
        &["npx", "jest", "-u"][..],
        &["npx", "vitest", "run", "--update"],
        &["npx", "jest", "--updateSnapshot"],
        &["pytest", "--snapshot-update"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_testgate"))
            .args(["check", "-q", "--"])
            .args(words)
            .output()
            .expect("start testgate");
        assert_eq!(out.status.code(), Some(2), "{words:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("rewrite their own expected snapshots"),
            "{stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_testgate"))
        .args([
            "check",
            "-q",
            "--env",
            "INSTA_UPDATE=always",
            "--",
            "cargo",
            "test",
        ])
        .output()
        .expect("start testgate");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

fn testgate(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_testgate"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("start testgate")
}

/// A signed record of a real run (root, bwrap, default options) verifies
/// against the key and the tree; one changed byte of a tracked file, or of
/// the record, and verify rejects it. The record holds the environment's
/// names, never their values.
#[test]
fn a_signed_record_verifies_then_is_rejected_after_one_byte_changes() {
    let work = tempfile::tempdir().expect("tempdir");
    let project = work.path().join("project");
    fs::create_dir_all(&project).expect("project");
    fs::write(project.join("test_ok.sh"), "echo '1 passed, 0 failed'\n").expect("suite");
    git(&project, &["init", "-q"]);
    git(&project, &["add", "-A"]);
    git(&project, &["commit", "-q", "-m", "the suite"]);
    let head = git(&project, &["rev-parse", "HEAD"]);

    let out = testgate(&["keygen", "../key"], &project);
    assert!(out.status.success(), "{out:?}");
    let mode = fs::metadata(work.path().join("key"))
        .expect("key")
        .permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
        0o600
    );

    let out = testgate(
        &[
            "check",
            "-q",
            "--record",
            "../record.json",
            "--sign",
            "../key",
            "--env",
            "HOSTILE_SECRET=s3cr3t-value",
            "--",
            "sh",
            "test_ok.sh",
        ],
        &project,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = fs::read_to_string(work.path().join("record.json")).expect("record");
    assert!(
        !text.contains("s3cr3t-value"),
        "a value leaked into the record"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
    let record = &doc["record"];
    assert_eq!(record["env"], serde_json::json!(["HOSTILE_SECRET"]));
    let environment = record["environment"].as_array().expect("environment");
    for name in ["HOSTILE_SECRET", "PATH"] {
        assert!(environment.contains(&serde_json::json!(name)), "{record:#}");
    }
    // `sh test_ok.sh` is no runner testgate recognises: nothing to ask.
    assert_eq!(record["toolchain"], serde_json::json!([]), "{record:#}");
    assert_eq!(record["suite"]["version"].as_str(), Some(head.trim()));
    assert_eq!(record["verdict"], "pass");
    assert_eq!(record["sandbox"]["kind"], "bwrap");
    assert!(record["suite"]["dirty"].is_null(), "{record:#}");
    assert!(
        record["host"]["bwrap"]
            .as_str()
            .is_some_and(|v| v.starts_with("bubblewrap ")),
        "{record:#}"
    );

    let verify = |dir: &Path| {
        testgate(
            &["verify", "../record.json", "--key", "../key.pub", "-C", "."],
            dir,
        )
    };
    let out = verify(&project);
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    // One tracked byte changed: the tree no longer matches.
    fs::write(project.join("test_ok.sh"), "echo '1 passed, 0 failed'\n ").expect("edit");
    let out = verify(&project);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("is not the recorded one"),
        "{out:?}"
    );
    git(&project, &["checkout", "--", "test_ok.sh"]);
    assert_eq!(verify(&project).status.code(), Some(0));

    // The record itself changed (a fail made a pass): the signature fails.
    fs::write(
        work.path().join("record.json"),
        text.replace("\"pass\"", "\"fail\""),
    )
    .expect("forge");
    let out = verify(&project);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("signature does not match"),
        "{out:?}"
    );
}

/// A record of a tree with uncommitted changes says so: the version is the
/// commit marked `-dirty`, with a digest of the changes, read before the
/// first attempt; a different uncommitted change gives a different digest.
#[test]
fn a_record_of_uncommitted_changes_is_marked_dirty() {
    let work = tempfile::tempdir().expect("tempdir");
    let project = work.path().join("project");
    fs::create_dir_all(&project).expect("project");
    fs::write(project.join("test_ok.sh"), "echo '1 passed, 0 failed'\n").expect("suite");
    git(&project, &["init", "-q"]);
    git(&project, &["add", "-A"]);
    git(&project, &["commit", "-q", "-m", "the suite"]);
    let head = git(&project, &["rev-parse", "HEAD"]);
    let record = |edit: &str| {
        fs::write(
            project.join("test_ok.sh"),
            format!("echo '1 passed, 0 failed' # {edit}\n"),
        )
        .expect("edit");
        let out = testgate(
            &[
                "check",
                "-q",
                "--record",
                "../record.json",
                "--",
                "sh",
                "test_ok.sh",
            ],
            &project,
        );
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = fs::read_to_string(work.path().join("record.json")).expect("record");
        let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
        doc["record"]["suite"].clone()
    };
    let first = record("one");
    assert_eq!(
        first["version"].as_str(),
        Some(format!("{}-dirty", head.trim()).as_str()),
        "{first:#}"
    );
    assert_eq!(first["dirty"]["paths"], 1, "{first:#}");
    let digest = first["dirty"]["digest"].as_str().expect("digest");
    assert_eq!(digest.len(), 64, "{first:#}");
    let second = record("two");
    assert_ne!(
        second["dirty"]["digest"].as_str(),
        Some(digest),
        "{second:#}"
    );
}

/// A file over the hashing limit (16 MiB) edited in place, its size and
/// modification time put back: the digest binds it by size alone, so
/// `verify` must not say a flat "tree: ok"; it names the file, and the
/// record lists it in `tree_unbound`. Before: "tree: ok, … matches".
#[test]
fn verify_names_a_large_file_it_could_not_bind() {
    let work = tempfile::tempdir().expect("tempdir");
    let project = work.path().join("project");
    fs::create_dir_all(&project).expect("project");
    fs::write(project.join("test_ok.sh"), "echo '1 passed, 0 failed'\n").expect("test");
    let big = project.join("big.bin");
    fs::write(&big, vec![0u8; 17 << 20]).expect("big");
    let out = testgate(
        &[
            "check",
            "-q",
            "--record",
            "../record.json",
            "--",
            "sh",
            "test_ok.sh",
        ],
        &project,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = fs::read_to_string(work.path().join("record.json")).expect("record");
    let doc: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(
        doc["record"]["tree_unbound"],
        serde_json::json!(["big.bin"])
    );
    let modified = fs::metadata(&big)
        .and_then(|m| m.modified())
        .expect("mtime");
    let file = fs::OpenOptions::new().write(true).open(&big).expect("open");
    std::os::unix::fs::FileExt::write_at(&file, b"X", 5).expect("edit in place");
    file.set_modified(modified).expect("mtime put back");
    drop(file);
    let out = testgate(&["verify", "../record.json", "-C", "."], &project);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!said.contains("tree: ok,"), "{said}");
    assert!(
        said.contains(
            "the digest does not bind, only their size (over 16 MiB, not hashed): big.bin"
        ),
        "{said}"
    );
}
