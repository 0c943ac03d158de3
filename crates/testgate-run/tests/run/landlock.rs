//! The Landlock sandbox: what the command can and cannot reach, and the
//! process tree ended without a PID namespace.

use std::path::Path;
use std::time::Duration;

use testgate_run::{Ending, LandlockOptions, RunSpec, Sandbox};

use super::{collect, marked_sleep, processes_with, scratch, unique_token};

/// A run of `sh -c script` under Landlock with `options`, in `project`.
fn landlocked_with(script: &str, project: &Path, options: LandlockOptions) -> RunSpec {
    RunSpec::new("sh", ["-c", script])
        .dir(project)
        .sandbox(Sandbox::Landlock(options))
        .timeout(Duration::from_secs(60))
}

/// A run of `sh -c script` under the default Landlock sandbox.
fn landlocked(script: &str, project: &Path) -> RunSpec {
    landlocked_with(script, project, LandlockOptions::default())
}

fn exit_of(spec: &RunSpec) -> (Ending, String) {
    let (result, output) = collect(spec);
    (result.expect("the Landlock sandbox runs").ending, output)
}

#[test]
fn exit_codes_and_output_are_reported_as_they_are() {
    let dir = scratch();
    for code in [0, 1, 2, 124, 127] {
        let (ending, output) = exit_of(&landlocked(&format!("echo hi; exit {code}"), dir.path()));
        assert_eq!(ending, Ending::Exited(code), "{output}");
        assert_eq!(output, "hi\n");
    }
}

#[test]
fn the_project_is_writable_and_nothing_else() {
    let project = scratch();
    let outside = scratch();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "original").expect("write");
    let script = format!(
        "mkdir -p sub && echo made > sub/made && mv sub/made moved; \
         echo changed > {0}; echo victim=$?; \
         touch /usr/testgate-landlock-probe; echo usr=$?; \
         cat {0} >/dev/null; echo read-outside=$?; \
         echo x > /dev/null; echo null=$?",
        victim.display()
    );
    let (ending, output) = exit_of(&landlocked(&script, project.path()));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert_eq!(
        std::fs::read_to_string(project.path().join("moved")).expect("moved"),
        "made\n"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "original"
    );
    assert!(
        output.contains("victim=1") || output.contains("victim=2"),
        "{output}"
    );
    assert!(!output.contains("usr=0"), "{output}");
    assert!(!Path::new("/usr/testgate-landlock-probe").exists());
    assert!(output.contains("null=0"), "{output}");
    // The scratch directory lies under /var/tmp (outside any build
    // directory, so that no CARGO_TARGET_DIR makes it writable), a shared
    // temporary directory Landlock does not grant: not even readable here,
    // where bubblewrap shows it read-only.
    assert!(output.contains("read-outside=1"), "{output}");
}

#[test]
fn homes_shared_temporary_directories_devices_and_password_hashes_are_not_readable() {
    let project = scratch();
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".to_owned());
    let script = format!(
        "ls {home} >/dev/null 2>&1; echo home=$?; \
         ls /tmp >/dev/null 2>&1; echo tmp=$?; \
         ls /dev >/dev/null 2>&1; echo dev=$?; \
         test -e /etc/shadow && {{ cat /etc/shadow >/dev/null 2>&1; echo shadow=$?; }}; \
         ls /usr >/dev/null; echo usr=$?"
    );
    let (ending, output) = exit_of(&landlocked(&script, project.path()));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    for denied in ["home=0", "tmp=0", "dev=0", "shadow=0"] {
        assert!(!output.contains(denied), "{denied}: {output}");
    }
    assert!(
        output.contains("home=") && output.contains("tmp="),
        "{output}"
    );
    assert!(output.contains("usr=0"), "{output}");
}

#[test]
fn proc_sys_is_not_writable_even_as_root() {
    let project = scratch();
    // Writes the value back as it is: harmless if the sandbox failed.
    let script = "v=$(cat /proc/sys/kernel/core_pattern) && \
                  (printf '%s\\n' \"$v\" > /proc/sys/kernel/core_pattern) 2>/dev/null; \
                  echo write=$?";
    let (ending, output) = exit_of(&landlocked(script, project.path()));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(
        output.contains("write=") && !output.contains("write=0"),
        "{output}"
    );
}

#[test]
fn the_command_holds_no_capability() {
    let project = scratch();
    let (ending, output) = exit_of(&landlocked(
        "grep -E '^Cap(Inh|Prm|Eff|Amb)|^NoNewPrivs' /proc/self/status",
        project.path(),
    ));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    for line in output.lines() {
        if line.starts_with("Cap") {
            assert!(line.ends_with("0000000000000000"), "{output}");
        }
    }
    assert!(output.contains("NoNewPrivs:\t1"), "{output}");
}

#[test]
fn the_attempt_has_a_private_temporary_directory_removed_after() {
    let project = scratch();
    let (ending, output) = exit_of(&landlocked(
        "echo x > \"$TMPDIR/f\" && echo tmp=$TMPDIR && test \"$TMP\" = \"$TMPDIR\" && \
         test \"$TEMP\" = \"$TMPDIR\" && echo same; echo y > /tmp/testgate-ll-probe-$$; echo slash-tmp=$?",
        project.path(),
    ));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(output.contains("same"), "{output}");
    assert!(!output.contains("slash-tmp=0"), "{output}");
    let tmp = output
        .lines()
        .find_map(|l| l.strip_prefix("tmp="))
        .expect("the temporary directory named");
    assert!(tmp.starts_with('/') && tmp.contains("testgate-"), "{tmp}");
    assert!(!Path::new(tmp).exists(), "{tmp} left behind");
}

/// A Python probe of the network: connects to a host service on the
/// loopback at `port`, sends UDP, binds an ephemeral and a fixed port,
/// makes a Unix socket; prints one `what outcome` line each.
fn network_probe(port: u16) -> String {
    format!(
        "python3 -c \"
import socket
def attempt(name, f):
    try:
        f()
        print(name, 'open')
    except OSError as e:
        print(name, 'refused', e.errno)
def connect():
    s = socket.create_connection(('127.0.0.1', {port}), timeout=5)
    s.sendall(b'hello')
def udp():
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', {port}))
def ephemeral():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
def fixed():
    s = socket.socket(socket.AF_INET6); s.bind(('::1', {port}))
def unix():
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
attempt('connect', connect)
attempt('udp', udp)
attempt('ephemeral', ephemeral)
attempt('fixed', fixed)
attempt('unix', unix)
\""
    )
}

#[test]
fn a_host_service_on_the_loopback_is_unreachable_without_allow_network() {
    let project = scratch();
    let service = std::net::TcpListener::bind("127.0.0.1:0").expect("a host service");
    service.set_nonblocking(true).expect("nonblocking");
    let port = service.local_addr().expect("its address").port();
    // The probe is Python's: where the host's `python3` is a pyenv shim
    // in a home, the caller names the toolchain that shows it, as
    // testgate's runner profiles do.
    let python = testgate_run::Toolchain {
        homes: &[".pyenv", ".local/share/uv", ".conda", "miniconda3"],
        directories: &["VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_ROOT"],
        ..testgate_run::Toolchain::NONE
    };
    let probe = landlocked(&network_probe(port), project.path()).toolchains(vec![python]);
    let (ending, output) = exit_of(&probe);
    assert_eq!(ending, Ending::Exited(0), "{output}");
    // In a network namespace of its own (as root here) UDP and a fixed
    // port are the command's own loopback's, as under bubblewrap; in a
    // container without it, Landlock and seccomp refuse them.
    for refused in ["connect", "unix"] {
        assert!(
            output.contains(&format!("{refused} refused")),
            "{refused}: {output}"
        );
    }
    // A port of its own to listen on, as pytest-rerunfailures takes at start.
    assert!(output.contains("ephemeral open"), "{output}");
    assert!(
        service.accept().is_err(),
        "the service was reached: {output}"
    );

    let options = LandlockOptions {
        allow_network: true,
        allow_unix_sockets: true,
        ..LandlockOptions::default()
    };
    let (ending, output) = exit_of(
        &landlocked_with(&network_probe(port), project.path(), options).toolchains(vec![python]),
    );
    assert_eq!(ending, Ending::Exited(0), "{output}");
    for open in ["connect", "udp", "unix"] {
        assert!(output.contains(&format!("{open} open")), "{open}: {output}");
    }
}

/// A suite that starts a server on the loopback and connects to it (an
/// express app under supertest, a Python test of a socket server): the
/// command's own loopback, as under bubblewrap, while the host's stays
/// out of reach (the test above).
#[test]
fn a_server_the_command_starts_on_the_loopback_is_reachable() {
    let project = scratch();
    let script = "python3 -c \"
import socket, threading
server = socket.socket(); server.bind(('127.0.0.1', 0)); server.listen()
port = server.getsockname()[1]
def answer():
    peer, _ = server.accept(); peer.sendall(peer.recv(5).upper()); peer.close()
threading.Thread(target=answer).start()
client = socket.create_connection(('127.0.0.1', port), timeout=10)
client.sendall(b'hello')
print('answered', client.recv(5).decode())
\"";
    let python = testgate_run::Toolchain {
        homes: &[".pyenv", ".local/share/uv", ".conda", "miniconda3"],
        directories: &["VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_ROOT"],
        ..testgate_run::Toolchain::NONE
    };
    let (ending, output) = exit_of(&landlocked(script, project.path()).toolchains(vec![python]));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(output.contains("answered HELLO"), "{output}");
}

#[test]
fn the_command_cannot_signal_processes_outside_the_sandbox() {
    let project = scratch();
    let outside = std::process::id();
    let (ending, output) = exit_of(&landlocked(
        &format!(
            "kill -0 {outside} 2>/dev/null; echo outside=$?; sleep 0 & kill -0 $! ; echo own=$?"
        ),
        project.path(),
    ));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(output.contains("outside=1"), "{output}");
    assert!(output.contains("own=0"), "{output}");
}

#[test]
fn a_timeout_ends_detached_and_term_ignoring_processes_without_a_pid_namespace() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let sleep = sleep.display();
    let script = format!(
        "setsid sh -c '( echo gc-up; exec {sleep} 1000 ) &' ; \
         ( trap '' TERM; echo ignorer-up; exec {sleep} 1001 ) & \
         echo main-up; {sleep} 1002"
    );
    let spec = landlocked(&script, dir.path())
        .timeout(Duration::from_secs(5))
        .grace(Duration::from_millis(500));
    let (result, output) = collect(&spec);
    assert_eq!(result.expect("runs").ending, Ending::TimedOut, "{output}");
    for up in ["gc-up", "ignorer-up", "main-up"] {
        assert!(output.contains(up), "{up} missing from {output:?}");
    }
    assert_eq!(
        processes_with(&token),
        Vec::<i32>::new(),
        "processes of the run survived"
    );
}

#[test]
fn leftover_daemons_are_ended_after_a_clean_exit() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let script = format!(
        "{0} 1000 >/dev/null 2>&1 & setsid sh -c '{0} 1001 >/dev/null 2>&1 &' ; echo done",
        sleep.display()
    );
    let (result, output) = collect(&landlocked(&script, dir.path()));
    let finished = result.expect("runs");
    assert_eq!(finished.ending, Ending::Exited(0), "{output}");
    assert!(finished.leaked_processes);
    assert_eq!(processes_with(&token), Vec::<i32>::new());
}
