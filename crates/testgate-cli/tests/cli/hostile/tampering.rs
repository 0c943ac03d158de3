//! Tampering that the seccomp filter refuses: reaching into the runner that
//! judges the tests, and leaving a set-user-ID file behind.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use super::harness::Attack;

/// Asserts that every line of the attack's output that names an attempt
/// says it was refused, and that each of `attempts` was tried.
fn assert_all_refused(reason: &str, attempts: &[&str]) {
    for attempt in attempts {
        assert!(
            reason.contains(&format!("refused: {attempt}")),
            "{attempt} was not refused:\n{reason}"
        );
    }
    assert!(!reason.contains("DID "), "{reason}");
    assert!(!reason.contains("REFUSED OTHERWISE"), "{reason}");
}

#[test]
fn a_test_cannot_ptrace_read_write_or_steal_from_its_runner() {
    let attack = Attack::new("tampering");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert_all_refused(
        outcome.reason(),
        &[
            "ptrace attach to the parent (EPERM)",
            "ptrace traceme (EPERM)",
            "process_vm_readv of the parent (EPERM)",
            "process_vm_writev into the parent (EPERM)",
            "pidfd_getfd of the parent's stdout (EPERM)",
            "strace true",
        ],
    );
    attack.assert_contained(&outcome);
}

#[test]
fn a_test_cannot_leave_a_set_id_file_in_the_project() {
    let attack = Attack::new("setuid");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert_all_refused(
        outcome.reason(),
        &[
            "chmod u+s",
            "chmod g+s",
            "chmod 4755",
            "chmod 6755",
            "fchmod 4755",
            "chmod 2755",
            "fchmodat2 4755",
            "open O_CREAT 4755",
            "mknod S_IFREG 6755",
        ],
    );
    assert!(outcome.reason().contains("allowed: chmod 0755"));
    // What the host sees afterwards, whatever the suite said.
    // The suite works in `target/`, which the tree check leaves unjudged:
    // seccomp alone holds there.
    let target = attack.project().join("target");
    let copied = target.join(format!("sh-{}", attack.marker()));
    assert!(copied.exists(), "the copy of sh was not made");
    for entry in fs::read_dir(&target).expect("target") {
        let entry = entry.expect("entry");
        let mode = entry.metadata().expect("metadata").permissions().mode();
        assert_eq!(
            mode & 0o6000,
            0,
            "{} is set-ID ({mode:o})",
            entry.path().display()
        );
    }
    attack.assert_contained(&outcome);
}
