//! Escapes and secrets: writing outside the project, remounting, reading
//! planted secrets, reaching the host's network and sockets, a terminal.

use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, UdpSocket};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::net::UnixListener;

use super::harness::{Attack, Place, contains};

#[test]
fn writes_to_etc_home_and_outside_the_project_fail() {
    let attack = Attack::new("writes-outside");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    // /tmp and the homes are the run's own (tmpfs): written inside, absent
    // on the host afterwards (assert_host_unchanged looks in /tmp and the
    // home for the marker).
    for private in ["wrote the private /tmp/", "wrote the private /root/"] {
        assert!(
            outcome.reason().contains(private),
            "{private}: {}",
            outcome.reason()
        );
    }
    attack.assert_contained(&outcome);
}

#[test]
fn writes_through_symlinks_pointing_outside_fail() {
    writes_through_symlinks_pointing_outside_fail_in(Place::Bwrap);
}

/// [`writes_through_symlinks_pointing_outside_fail`] in `place`.
pub(super) fn writes_through_symlinks_pointing_outside_fail_in(place: Place) {
    let attack = Attack::new_in("symlink-out", place);
    let outcome = attack.run();
    // Every write failed; the links it left lead outside the project, for
    // a host tool to follow later: a change to the tree, named.
    outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
    for link in [
        "etc-link (added, a link out of the project)",
        "outside-link (added, a link out of the project)",
        "victim-link (added, a link out of the project)",
    ] {
        assert!(outcome.reason().contains(link), "{}", outcome.reason());
    }
    attack.assert_contained(&outcome);
}

#[test]
fn remounts_and_nested_user_namespaces_fail_as_root() {
    remounts_and_nested_user_namespaces_fail_as_root_in(Place::Bwrap);
}

pub(super) fn remounts_and_nested_user_namespaces_fail_as_root_in(place: Place) {
    let attack = Attack::new_in("remount-userns", place);
    let outcome = attack.run();
    match place {
        Place::Bwrap => outcome.assert_verdict("pass", None, 0),
        // Landlock: no remount, no mount, no mapped root, no mount
        // namespace; a bare user namespace can be made (not promised:
        // docs/security.md), and Landlock's rules hold inside it.
        Place::Landlock => {
            outcome.assert_verdict("fail", None, 1);
            let reason = outcome.reason();
            for refused in [
                "refused: mount -o remount,rw /",
                "refused: mount -t tmpfs none",
                "refused: unshare --user --map-root-user true",
                "refused: unshare --mount true",
            ] {
                assert!(reason.contains(refused), "{refused}: {reason}");
            }
            assert_eq!(reason.matches("SUCCEEDED").count(), 1, "{reason}");
            assert!(
                reason.contains("SUCCEEDED: unshare --user true"),
                "{reason}"
            );
            assert!(!reason.contains("WROTE"), "{reason}");
        }
    }
    attack.assert_contained(&outcome);
}

/// The victim's mode, owner and times: the sandbox shows it read-only, so
/// `chmod`, `chown` and `touch` on it are refused.
#[test]
fn the_mode_owner_and_times_of_a_file_outside_cannot_change() {
    let attack = Attack::new_in("metadata", Place::Bwrap);
    let before = victim_metadata(&attack);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    assert_eq!(victim_metadata(&attack), before);
    attack.assert_contained(&outcome);
}

/// The victim's mode, owner and modification time.
pub(super) fn victim_metadata(attack: &Attack) -> (u32, u32, i64) {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(attack.outside().join("victim")).expect("victim");
    (meta.mode(), meta.uid(), meta.mtime())
}

#[test]
fn planted_secrets_and_canaries_are_unreadable() {
    planted_secrets_and_canaries_are_unreadable_in(Place::Bwrap);
}

/// [`planted_secrets_and_canaries_are_unreadable`] in `place`.
pub(super) fn planted_secrets_and_canaries_are_unreadable_in(place: Place) {
    const CANARY: &str = "canary-8d1f3c";
    let attack = Attack::new_in("secrets", place).keeping_changes();
    // A HOME the run sees (passed with --env), with a key planted in it.
    let home = attack.outside().join("home");
    fs::create_dir_all(home.join(".ssh")).expect("mkdir .ssh");
    fs::write(home.join(".ssh/id_rsa"), format!("{CANARY}-ssh-key\n")).expect("plant key");
    // An inherited descriptor that holds the canary.
    let inherited = attack.outside().join("inherited");
    fs::write(&inherited, format!("{CANARY}-inherited-fd\n")).expect("plant fd file");
    let fd = fs::File::open(&inherited).expect("open fd file");
    let mut home_arg = std::ffi::OsString::from("HOME=");
    home_arg.push(&home);
    let mut attack = attack
        .arg("--env")
        .arg(home_arg)
        .testgate_env("HOSTILE_CANARY", format!("{CANARY}-env"))
        .testgate_env("AWS_SECRET_ACCESS_KEY", format!("{CANARY}-aws"))
        .inheriting(fd);
    // Names the old allowlist let through (issue 10): another vendor behind
    // `GO`, secret words it did not know, a URL with a password in a
    // variable that is otherwise passed.
    let by_name = [
        "GOOGLE_API_KEY_2",
        "NPM_CONFIG__AUTH",
        "npm_config__auth",
        "NODE_AUTH",
        "GO_PAT",
        "PYTHON_KEYRING_PASS",
        "CARGO_CREDS",
        "PIP_PRIVATE_INDEX",
    ];
    for name in by_name {
        attack = attack.testgate_env(name, format!("{CANARY}-{name}"));
    }
    attack = attack
        .testgate_env("GOPROXY", format!("https://user:{CANARY}@proxy.example"))
        .testgate_env(
            "PIP_INDEX_URL",
            format!("https://__token__:{CANARY}@pypi.example/simple"),
        )
        // Passed, to show the environment is seen at all.
        .testgate_env("GOFLAGS", "-mod=mod");
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    let dump = fs::read(attack.project().join("dump.bin")).expect("the suite's dump");
    assert!(contains(&dump, "== ssh"), "the dump is empty");
    assert!(
        contains(&dump, "GOFLAGS=-mod=mod"),
        "GOFLAGS was not passed"
    );
    for name in by_name.iter().chain(&["GOPROXY", "PIP_INDEX_URL"]) {
        assert!(
            !contains(&dump, format!("{name}=")),
            "{name} reached the sandbox"
        );
    }
    for (what, bytes) in [
        ("dump", &dump),
        ("stdout", &outcome.stdout),
        ("stderr", &outcome.stderr),
    ] {
        assert!(
            !contains(bytes, CANARY),
            "the canary leaked into the {what}"
        );
    }
    attack.assert_contained(&outcome);
}

#[test]
fn the_hosts_loopback_unix_sockets_and_dns_are_unreachable() {
    the_hosts_loopback_unix_sockets_and_dns_are_unreachable_in(Place::Bwrap);
}

/// [`the_hosts_loopback_unix_sockets_and_dns_are_unreachable`] in `place`.
pub(super) fn the_hosts_loopback_unix_sockets_and_dns_are_unreachable_in(place: Place) {
    let tcp = TcpListener::bind("127.0.0.1:0").expect("tcp listener");
    let udp = UdpSocket::bind("127.0.0.1:0").expect("udp socket");
    let attack = Attack::new_in("network", place);
    let unix = UnixListener::bind(attack.outside().join("sock")).expect("unix listener");
    let attack = attack
        .script_arg(tcp.local_addr().expect("addr").port().to_string())
        .script_arg(udp.local_addr().expect("addr").port().to_string());
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    tcp.set_nonblocking(true).expect("nonblocking");
    udp.set_nonblocking(true).expect("nonblocking");
    unix.set_nonblocking(true).expect("nonblocking");
    let tcp_accept = tcp.accept().map(|_| ()).map_err(|e| e.kind());
    let unix_accept = unix.accept().map(|_| ()).map_err(|e| e.kind());
    let udp_recv = udp.recv(&mut [0; 256]).map(|_| ()).map_err(|e| e.kind());
    assert_eq!(
        (tcp_accept, unix_accept, udp_recv),
        (
            Err(ErrorKind::WouldBlock),
            Err(ErrorKind::WouldBlock),
            Err(ErrorKind::WouldBlock)
        ),
        "a host listener heard from the sandbox"
    );
    fs::remove_file(attack.outside().join("sock")).expect("remove the socket");
    attack.assert_contained(&outcome);
}

#[test]
fn a_suite_reaches_its_own_loopback_servers_and_not_the_hosts() {
    a_suite_reaches_its_own_loopback_servers_and_not_the_hosts_in(Place::Bwrap);
}

/// A suite that starts a server on the loopback and talks to it passes (a
/// loopback of its own: under Landlock a network namespace the command
/// enters), and reaches no host listener on the loopback, not even by
/// listening on the host listener's port number and connecting there.
pub(super) fn a_suite_reaches_its_own_loopback_servers_and_not_the_hosts_in(place: Place) {
    own_loopback_and_not_the_hosts(Attack::new_in("own-loopback", place));
}

/// [`a_suite_reaches_its_own_loopback_servers_and_not_the_hosts`] with
/// `attack` (the suite `own-loopback` started as the caller chose).
pub(super) fn own_loopback_and_not_the_hosts(attack: Attack) {
    let tcp = TcpListener::bind("127.0.0.1:0").expect("tcp listener");
    let attack = attack.script_arg(tcp.local_addr().expect("addr").port().to_string());
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    tcp.set_nonblocking(true).expect("nonblocking");
    assert_eq!(
        tcp.accept().map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::WouldBlock),
        "the host listener heard from the sandbox"
    );
    attack.assert_contained(&outcome);
}

/// A pseudo-terminal in raw mode: (master, slave).
fn raw_pty() -> (fs::File, fs::File) {
    // SAFETY: plain libc calls on descriptors this function owns; the
    // returned name is copied before any other call.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(master, name.as_mut_ptr(), name.len()), 0);
        let slave = libc::open(
            name.as_ptr(),
            libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
        );
        assert!(slave >= 0, "open the pty slave");
        let mut mode: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(slave, &mut mode), 0);
        libc::cfmakeraw(&mut mode);
        assert_eq!(libc::tcsetattr(slave, libc::TCSANOW, &mode), 0);
        (fs::File::from_raw_fd(master), fs::File::from_raw_fd(slave))
    }
}

#[test]
fn tiocsti_cannot_push_input_into_the_callers_terminal() {
    tiocsti_cannot_push_input_into_the_callers_terminal_in(Place::Bwrap);
}

pub(super) fn tiocsti_cannot_push_input_into_the_callers_terminal_in(place: Place) {
    // testgate itself gets a terminal as stdin; the command must not reach
    // it (its stdin is /dev/null and it has a new session).
    let (mut master, slave) = raw_pty();
    let attack = Attack::new_in("tiocsti", place).stdin(slave.try_clone().expect("dup slave"));
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    // Raw mode: one injected byte would be readable at once.
    // SAFETY: fcntl on a descriptor this test owns.
    unsafe {
        let flags = libc::fcntl(slave.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(slave.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    let injected = (&slave).read(&mut [0; 64]).map_err(|e| e.kind());
    assert_eq!(
        injected,
        Err(ErrorKind::WouldBlock),
        "input was pushed into the terminal"
    );
    // The terminal still works: what the master writes, the slave reads.
    master.write_all(b"k").expect("write to the pty");
    attack.assert_contained(&outcome);
}

/// Removes planted files, then the directories made for them, at the end
/// of a test, failed or not.
struct Planted {
    files: Vec<std::path::PathBuf>,
    dirs: Vec<std::path::PathBuf>,
}

impl Drop for Planted {
    fn drop(&mut self) {
        for file in &self.files {
            let _ = fs::remove_file(file);
        }
        for dir in &self.dirs {
            let _ = fs::remove_dir(dir);
        }
    }
}

#[test]
fn the_home_is_an_allowlist_and_caches_are_private() {
    the_home_is_an_allowlist_and_caches_are_private_in(Place::Bwrap);
}

pub(super) fn the_home_is_an_allowlist_and_caches_are_private_in(place: Place) {
    const CANARY: &str = "canary-5e02a7";
    let attack = Attack::new_in("home", place).keeping_changes();
    // The HOME testgate runs with, as a user's: credentials, a history,
    // notes, a toolchain, and the host's own Go build cache.
    let home = attack.outside().join("home");
    let files = [
        ".git-credentials",
        ".config/rclone/rclone.conf",
        ".bash_history",
        ".vault-token",
        ".cache/huggingface/token",
        "notes/secret.txt",
        ".m2/settings.xml",
        ".gradle/gradle.properties",
    ];
    for file in files {
        let path = home.join(file);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(&path, format!("{CANARY} {file}\n")).expect("plant");
    }
    fs::create_dir_all(home.join(".cargo/bin")).expect("mkdir");
    fs::create_dir_all(home.join(".cargo/registry")).expect("mkdir");
    fs::write(home.join(".cargo/bin/tool"), "toolchain-readable\n").expect("tool");
    fs::create_dir_all(home.join(".cache/go-build/00")).expect("mkdir");
    fs::write(home.join(".cache/go-build/00/object"), "host object\n").expect("object");
    // Maven's repository (shown read-only) and Gradle's caches (a private
    // copy); beside them, their credentials (hidden).
    fs::create_dir_all(home.join(".m2/repository/org/example")).expect("mkdir");
    fs::write(
        home.join(".m2/repository/org/example/x.pom"),
        "m2-readable\n",
    )
    .expect("pom");
    fs::create_dir_all(home.join(".gradle/caches/modules-2")).expect("mkdir");
    fs::write(
        home.join(".gradle/caches/modules-2/seed"),
        "gradle-seeded\n",
    )
    .expect("seed");
    // The runner's home in the password database (root's, in CI) and
    // another user's home, each with a canary.
    let own_home = std::path::PathBuf::from(
        String::from_utf8(
            std::process::Command::new("sh")
                .args(["-c", "getent passwd $(id -u) | cut -d: -f6"])
                .output()
                .expect("getent")
                .stdout,
        )
        .expect("utf-8")
        .trim(),
    );
    // Not named after the marker: the harness takes such files in the
    // home for the run's own doing.
    let planted = format!("testgate-canary-{}", std::process::id());
    let mut others = vec![own_home.join(format!(".{planted}"))];
    let mut made = Vec::new();
    if std::path::Path::new("/home").is_dir() {
        let other_home = std::path::PathBuf::from(format!("/home/{planted}"));
        others.push(other_home.join("token"));
        made.push(other_home);
    }
    let _planted = Planted {
        files: others.clone(),
        dirs: made.clone(),
    };
    for dir in &made {
        fs::create_dir(dir).expect("mkdir other home");
    }
    let mut attack = attack;
    for other in &others {
        fs::write(other, format!("{CANARY} other home\n")).expect("plant other home");
        attack = attack.script_arg(other);
    }
    let attack = attack
        .testgate_env("HOME", &home)
        .testgate_env("XDG_CACHE_HOME", home.join(".cache"));
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    let dump = fs::read(attack.project().join("dump.bin")).expect("the suite's dump");
    assert!(contains(&dump, "== shadow"), "the dump is incomplete");
    for (what, bytes) in [
        ("dump", &dump),
        ("stdout", &outcome.stdout),
        ("stderr", &outcome.stderr),
    ] {
        assert!(
            !contains(bytes, CANARY),
            "the canary leaked into the {what}"
        );
    }
    // /etc/shadow: no entry of the host's file was read.
    if let Ok(shadow) = fs::read_to_string("/etc/shadow") {
        for entry in shadow.lines().filter(|l| l.contains(':')) {
            assert!(!contains(&dump, entry), "/etc/shadow was read: {entry}");
        }
    }
    // The toolchain stays readable, and read-only; the host's Go cache is
    // readable through the private copy; the writes went to that copy.
    assert!(
        contains(&dump, "toolchain-readable"),
        "the toolchain was hidden"
    );
    assert!(
        !contains(&dump, "WROTE"),
        "a toolchain directory was written"
    );
    assert!(
        contains(&dump, "host object"),
        "the host's Go cache was not seeded into the private one"
    );
    assert!(
        contains(&dump, "wrote-private-caches"),
        "the caches were not writable"
    );
    assert_eq!(
        fs::read_to_string(home.join(".cargo/bin/tool")).expect("tool"),
        "toolchain-readable\n"
    );
    assert!(!home.join(".cargo/registry/planted").exists());
    assert!(!home.join(".cache/go-build/planted").exists());
    assert!(!home.join(".npm/planted").exists());
    assert!(
        contains(&dump, "m2-readable"),
        "Maven's repository was hidden"
    );
    assert!(
        contains(&dump, "gradle-seeded"),
        "the host's Gradle caches were not seeded into the private ones"
    );
    assert!(!home.join(".m2/repository/planted").exists());
    assert!(!home.join(".gradle/caches/planted").exists());
    let private = home.join(".cache/testgate/sandbox");
    // One project's caches (beside them the eviction's `.evicted` stamp).
    let caches: Vec<_> = fs::read_dir(&private)
        .expect("the private caches")
        .flatten()
        .filter(|e| !e.file_name().as_encoded_bytes().starts_with(b"."))
        .map(|e| e.path())
        .collect();
    assert_eq!(caches.len(), 1, "{caches:?}");
    assert!(caches[0].join("home-cache/go-build/planted").is_file());
    assert!(caches[0].join("npm/planted").is_file());
    assert!(caches[0].join("gradle/caches/planted").is_file());
    assert_eq!(
        fs::read_to_string(home.join("notes/secret.txt")).expect("notes"),
        format!("{CANARY} notes/secret.txt\n")
    );
    attack.assert_contained(&outcome);
}
