//! Exit statuses, start failures, environment and fds on the host.

use testgate_run::{Ending, EnvPolicy, RunError, RunSpec, Sandbox};

use super::{collect, host, inner_role, reexec};

#[test]
fn exit_codes_are_reported_as_they_are() {
    for code in [0, 1, 2, 124, 125, 126, 127] {
        let (result, _) = collect(&host(&format!("exit {code}")));
        assert_eq!(result.expect("runs").ending, Ending::Exited(code));
    }
}

#[test]
fn a_signal_death_is_signalled() {
    let (result, _) = collect(&host("kill -9 $$"));
    assert_eq!(result.expect("runs").ending, Ending::Signalled(9));
}

#[test]
fn stdout_and_stderr_both_arrive_and_are_counted() {
    let (result, output) = collect(&host("echo out; echo err >&2; echo out2"));
    let finished = result.expect("runs");
    assert_eq!(finished.output_bytes, output.len() as u64);
    for line in ["out\n", "err\n", "out2\n"] {
        assert!(output.contains(line), "{output:?}");
    }
    assert!(output.find("out\n") < output.find("out2\n"));
    assert!(!finished.leaked_processes);
}

#[test]
fn stdin_is_empty() {
    let (result, output) = collect(&host("cat; echo end"));
    assert_eq!(result.expect("runs").ending, Ending::Exited(0));
    assert_eq!(output, "end\n");
}

#[test]
fn a_missing_program_would_not_start() {
    let spec = RunSpec::new("testgate-no-such-program", ["x"]).sandbox(Sandbox::Host);
    let (result, _) = collect(&spec);
    match result {
        Err(error @ RunError::WouldNotStart { .. }) => {
            assert!(
                error.to_string().contains("testgate-no-such-program"),
                "{error}"
            );
        }
        other => panic!("expected WouldNotStart, got {other:?}"),
    }
}

#[test]
fn a_bad_interpreter_would_not_start() {
    let dir = super::scratch();
    let script = dir.path().join("bad.sh");
    std::fs::write(&script, "#!/nonexistent/interpreter\necho hi\n").expect("write");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let (result, _) = collect(&RunSpec::new(&script, [""; 0]).sandbox(Sandbox::Host));
    assert!(
        matches!(result, Err(RunError::WouldNotStart { .. })),
        "{result:?}"
    );
}

#[test]
fn a_missing_directory_would_not_start() {
    let spec = host("true").dir("/nonexistent/testgate/dir");
    let (result, _) = collect(&spec);
    match result {
        Err(error @ RunError::WouldNotStart { .. }) => {
            assert!(
                error.to_string().contains("/nonexistent/testgate/dir"),
                "{error}"
            );
        }
        other => panic!("expected WouldNotStart, got {other:?}"),
    }
}

#[test]
fn only_the_policy_environment_reaches_the_command() {
    let spec = host("env").env(EnvPolicy::empty().set("ONLY_THIS", "1"));
    let (result, output) = collect(&spec);
    assert_eq!(result.expect("runs").ending, Ending::Exited(0));
    let mut names: Vec<&str> = output
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, _)| k))
        .collect();
    names.sort_unstable();
    // sh adds PWD of its own; the runner adds its marker.
    assert_eq!(names, ["ONLY_THIS", "PWD"], "{output}");
}

#[test]
fn an_inherited_fd_is_not_passed_on() {
    let file = std::fs::File::open("/proc/self/stat").expect("open");
    let fd = std::os::fd::AsRawFd::as_raw_fd(&file);
    // SAFETY: clears close-on-exec on an fd this test owns.
    unsafe {
        libc::fcntl(fd, libc::F_SETFD, 0);
    }
    let probe = format!(
        "if [ -e /proc/self/fd/{fd} ]; then echo open; else echo closed; fi; ls /proc/self/fd"
    );
    let (result, output) = collect(&host(&probe));
    assert_eq!(result.expect("runs").ending, Ending::Exited(0));
    assert!(output.starts_with("closed\n"), "{output}");
    let dir = super::scratch();
    let (result, output) = collect(&super::sandboxed(&probe, dir.path()));
    assert_eq!(result.expect("runs").ending, Ending::Exited(0));
    assert!(output.starts_with("closed\n"), "{output}");
    drop(file);
}

/// With SIGCHLD ignored, the kernel would reap the child itself and its
/// status would be lost; the runner must still report the real exit code.
#[test]
fn sigchld_ignored_by_the_caller() {
    if inner_role().is_some() {
        return;
    }
    let output = reexec("host::inner_sigchld_ignored", "sigchld", &[]);
    assert!(output.contains("exit codes seen: 3 0"), "{output}");
}

#[test]
fn inner_sigchld_ignored() {
    if inner_role().as_deref() != Some("sigchld") {
        return;
    }
    // SAFETY: sets a disposition in this re-executed, single-test process.
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
    }
    let (first, _) = collect(&host("exit 3"));
    let (second, _) = collect(&host("sleep 0.1 & exit 0"));
    let code = |ending| match ending {
        Ending::Exited(code) => code,
        other @ (Ending::Signalled(_)
        | Ending::TimedOut
        | Ending::Cancelled
        | Ending::NetworkRefused) => {
            panic!("unexpected {other:?}")
        }
    };
    println!(
        "exit codes seen: {} {}",
        code(first.expect("runs").ending),
        code(second.expect("runs").ending)
    );
}

#[test]
fn endless_timeouts_are_fine() {
    let spec = host("echo ok")
        .timeout(std::time::Duration::MAX)
        .grace(std::time::Duration::MAX)
        .drain(std::time::Duration::MAX);
    let (result, output) = collect(&spec);
    assert_eq!(result.expect("runs").ending, Ending::Exited(0));
    assert_eq!(output, "ok\n");
}

/// stdout and stderr merge line by line: a line one stream writes in two
/// pieces is never cut by a line of the other (libtest writes `test
/// result: ok` and `. 1 passed; …` apart, and cargo's `Running …` on
/// stderr once landed between them). The pause between the pieces is the
/// command's own, shorter than the 200 ms an unfinished line may wait.
#[test]
fn a_line_written_in_pieces_is_not_cut_by_the_other_stream() {
    let script = "printf 'test result: ok'; sleep 0.02; \
                  printf '     Running tests/api.rs\\n' >&2; sleep 0.02; \
                  printf '. 1 passed; 0 failed\\n'; \
                  printf 'no newline at the end' >&2";
    let (finished, output) = collect(&host(script));
    assert_eq!(finished.expect("ran").ending, Ending::Exited(0));
    assert!(
        output.contains("test result: ok. 1 passed; 0 failed\n"),
        "{output:?}"
    );
    assert!(output.contains("     Running tests/api.rs\n"), "{output:?}");
    // An unfinished last line is handed on at the end.
    assert!(output.contains("no newline at the end"), "{output:?}");
}
