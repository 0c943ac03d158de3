//! The kernel's host-wide interfaces: sysctls and the rest of /proc and
//! /sys, kernel keyrings, socket families a network namespace does not
//! isolate.

use std::ffi::CString;
use std::fs;

use super::harness::{Attack, Place, keyctl};

#[test]
fn proc_sys_sysrq_and_sys_are_read_only_as_root() {
    proc_sys_sysrq_and_sys_are_read_only_as_root_in(Place::Bwrap);
}

/// [`proc_sys_sysrq_and_sys_are_read_only_as_root`] in `place`.
pub(super) fn proc_sys_sysrq_and_sys_are_read_only_as_root_in(place: Place) {
    let core_pattern =
        || fs::read_to_string("/proc/sys/kernel/core_pattern").expect("core_pattern");
    let before = core_pattern();
    let attack = Attack::new_in("proc-sys", place);
    let outcome = attack.run();
    match place {
        Place::Bwrap => outcome.assert_verdict("pass", None, 0),
        // No /proc of its own to mask files in: the host-wide files root
        // reads are readable (docs/security.md, "not promised"); nothing
        // is writable.
        Place::Landlock => {
            outcome.assert_verdict("fail", None, 1);
            let escapes: Vec<&str> = outcome
                .reason()
                .lines()
                .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
                .collect();
            assert!(
                escapes
                    .iter()
                    .all(|l| matches!(*l, "READ /proc/keys" | "READ /proc/timer_list")),
                "{escapes:?}"
            );
        }
    }
    let tail = String::from_utf8_lossy(&outcome.stdout);
    assert!(
        outcome
            .reason()
            .contains("refused: /proc/sys/kernel/core_pattern"),
        "{tail}"
    );
    assert!(
        outcome.reason().contains("sysctls open for writing: 0"),
        "{tail}"
    );
    assert_eq!(core_pattern(), before, "the host's core_pattern changed");
    attack.assert_contained(&outcome);
}

/// `add_key(2)`: the new key's id.
fn add_key(kind: &str, description: &str, payload: &[u8], ring: i32) -> i32 {
    let kind = CString::new(kind).expect("kind");
    let description = CString::new(description).expect("description");
    // SAFETY: add_key with valid NUL-terminated strings and a payload slice.
    let id = unsafe {
        libc::syscall(
            libc::SYS_add_key,
            kind.as_ptr(),
            description.as_ptr(),
            payload.as_ptr(),
            payload.len(),
            ring,
        )
    };
    assert!(id > 0, "add_key: {}", std::io::Error::last_os_error());
    i32::try_from(id).expect("key ids are i32")
}

/// Whether a `user` key `description` is reachable from `ring`.
fn found(ring: i32, description: &str) -> bool {
    let kind = CString::new("user").expect("kind");
    let description = CString::new(description).expect("description");
    // SAFETY: keyctl(KEYCTL_SEARCH) with valid NUL-terminated strings.
    let id = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            keyctl::SEARCH,
            ring,
            kind.as_ptr(),
            description.as_ptr(),
            0,
        )
    };
    id > 0
}

/// A keyring of the test's, linked into its user keyring; unlinked (and so
/// freed) on drop, a failed assertion included.
struct Keeper(i32);

impl Drop for Keeper {
    fn drop(&mut self) {
        // SAFETY: keyctl(KEYCTL_UNLINK) on a keyring this test made.
        unsafe {
            libc::syscall(
                libc::SYS_keyctl,
                keyctl::UNLINK,
                self.0,
                keyctl::USER_KEYRING,
            )
        };
    }
}

#[test]
fn kernel_keyrings_are_out_of_reach_both_ways() {
    kernel_keyrings_are_out_of_reach_both_ways_in(Place::Bwrap);
}

/// [`kernel_keyrings_are_out_of_reach_both_ways`] in `place`.
pub(super) fn kernel_keyrings_are_out_of_reach_both_ways_in(place: Place) {
    let attack = Attack::new_in("keyrings", place);
    let marker = attack.marker().to_owned();
    let host_key = format!("{marker}-host-key");
    // The test's own keyring, alive in its user keyring, through which
    // testgate's session keyring (linked into it) is searched afterwards.
    let keeper = add_key(
        "keyring",
        &format!("{marker}-keeper"),
        b"",
        keyctl::USER_KEYRING,
    );
    let _unlink = Keeper(keeper);
    // Every permission for its owner too, not only its possessor: the
    // child links its new session keyring in after leaving the session
    // through which it possessed the keeper.
    // SAFETY: keyctl(KEYCTL_SETPERM) on a keyring this test made.
    let set = unsafe { libc::syscall(libc::SYS_keyctl, keyctl::SETPERM, keeper, 0x3f3f_0000) };
    assert_eq!(set, 0, "setperm: {}", std::io::Error::last_os_error());
    let attack = attack
        .in_session_keyring(keeper, &host_key)
        .script_arg(&host_key);
    let outcome = attack.run();
    let host_key_there = found(keeper, &host_key);
    let planted: Vec<String> = ["@s", "@u", "@us"]
        .iter()
        .map(|ring| format!("{marker}-inside{ring}"))
        .filter(|name| found(keeper, name) || found(keyctl::USER_KEYRING, name))
        .collect();
    match place {
        Place::Bwrap => outcome.assert_verdict("pass", None, 0),
        // /proc/keys cannot be masked without a /proc of the sandbox's
        // own: the descriptions of the keys root may view are seen there
        // (docs/security.md, "not promised"); searching, reading, listing
        // and adding are refused.
        Place::Landlock => {
            outcome.assert_verdict("fail", None, 1);
            let reason = outcome.reason();
            assert!(
                reason.contains("SAW the host's key in /proc/keys"),
                "{reason}"
            );
            for escape in ["FOUND", "ADDED", "LISTED"] {
                assert!(!reason.contains(escape), "{escape}: {reason}");
            }
        }
    }
    // The negative control: the host's key was in testgate's session.
    assert!(
        host_key_there,
        "the host key was not in the session keyring"
    );
    assert!(
        planted.is_empty(),
        "keys added inside reached the host: {planted:?}"
    );
    attack.assert_contained(&outcome);
}

#[test]
fn vsock_packet_alg_and_other_socket_families_are_refused() {
    vsock_packet_alg_and_other_socket_families_are_refused_in(Place::Bwrap);
}

/// [`vsock_packet_alg_and_other_socket_families_are_refused`] in `place`.
pub(super) fn vsock_packet_alg_and_other_socket_families_are_refused_in(place: Place) {
    let attack = Attack::new_in("socket-families", place);
    let outcome = attack.run();
    // Under Landlock too the command has a network namespace of its own
    // (as root here), where the internet families are not refused.
    outcome.assert_verdict("pass", None, 0);
    assert!(
        outcome
            .reason()
            .contains("refused: AF_VSOCK stream (Address family not supported by protocol)"),
        "{}",
        outcome.reason()
    );
    attack.assert_contained(&outcome);
}
