//! The bubblewrap sandbox: what the command can and cannot reach.

use std::path::PathBuf;

use testgate_run::{BwrapOptions, Ending, EnvPolicy, RunError, RunSpec, Sandbox};

use super::{collect, host, inner_role, reexec, reexec_in, sandboxed, scratch};

fn exit_of(spec: &RunSpec) -> (Ending, String) {
    let (result, output) = collect(spec);
    (result.expect("the sandbox runs").ending, output)
}

#[test]
fn exit_codes_are_reported_as_they_are() {
    let dir = scratch();
    for code in [0, 1, 2, 124, 125, 126, 127] {
        let (ending, output) = exit_of(&sandboxed(&format!("exit {code}"), dir.path()));
        assert_eq!(ending, Ending::Exited(code), "{output}");
    }
}

#[test]
fn a_clean_run_leaks_nothing() {
    let dir = scratch();
    let (result, output) = collect(&sandboxed("echo hi", dir.path()));
    let finished = result.expect("runs");
    assert_eq!(finished.ending, Ending::Exited(0));
    assert_eq!(output, "hi\n");
    assert!(!finished.leaked_processes);
}

#[test]
fn the_project_is_writable_and_nothing_else() {
    let project = scratch();
    let outside = scratch();
    let victim = outside.path().join("victim");
    std::fs::write(&victim, "original").expect("write");
    let script = format!(
        "echo made > made; echo changed > {0} ; echo rc=$?; touch /usr/testgate-probe; echo rc=$?",
        victim.display()
    );
    let (ending, output) = exit_of(&sandboxed(&script, project.path()));
    assert_eq!(ending, Ending::Exited(0));
    assert_eq!(
        std::fs::read_to_string(project.path().join("made")).expect("made"),
        "made\n"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "original"
    );
    assert!(!output.contains("rc=0"), "{output}");
    assert!(!PathBuf::from("/usr/testgate-probe").exists());
}

#[test]
fn extra_writable_paths_by_choice() {
    let project = scratch();
    let cache = scratch();
    let options = BwrapOptions {
        writable: vec![cache.path().to_owned()],
        ..BwrapOptions::default()
    };
    let script = format!("echo x > {}/f", cache.path().display());
    let (ending, output) =
        exit_of(&sandboxed(&script, project.path()).sandbox(Sandbox::Bubblewrap(options)));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(cache.path().join("f").exists());
}

#[test]
fn remount_and_new_user_namespaces_fail_even_as_root() {
    let dir = scratch();
    let (ending, output) = exit_of(&sandboxed(
        "mount -o remount,rw / && echo REMOUNTED; unshare -U true && echo UNSHARED; \
         grep CapEff /proc/self/status; echo end",
        dir.path(),
    ));
    assert_eq!(ending, Ending::Exited(0));
    assert!(output.contains("end"), "{output}");
    assert!(!output.contains("REMOUNTED"), "{output}");
    assert!(!output.contains("UNSHARED"), "{output}");
    assert!(output.contains("CapEff:\t0000000000000000"), "{output}");
}

#[test]
fn tmp_and_run_are_private() {
    let dir = scratch();
    let (ending, output) = exit_of(&sandboxed("ls -A /tmp /run; echo end", dir.path()));
    assert_eq!(ending, Ending::Exited(0));
    assert_eq!(output, "/run:\n\n/tmp:\nend\n", "{output}");
    // But for the project's private build folder of a toolchain the caller
    // names (cargo's `CARGO_TARGET_DIR`, under `testgate-build`).
    let rust = testgate_run::Toolchain {
        build_outputs: &[("CARGO_TARGET_DIR", "cargo-target")],
        ..testgate_run::Toolchain::NONE
    };
    let sandboxed = |script, dir| sandboxed(script, dir).toolchains(vec![rust]);
    let (ending, output) = exit_of(&sandboxed("ls -A /tmp /run; echo end", dir.path()));
    assert_eq!(ending, Ending::Exited(0));
    assert_eq!(output, "/run:\n\n/tmp:\ntestgate-build\nend\n", "{output}");
    // A tool's cache the caller names is the only other thing there: the
    // project's private one, bound at the tool's path.
    let tool = testgate_run::ToolCache {
        what: "tool cache".to_owned(),
        path: "/tmp/tool_cache_of_the_test".into(),
        private: "tool".to_owned(),
    };
    let (ending, output) =
        exit_of(&sandboxed("ls -A /tmp /run; echo end", dir.path()).tool_caches(vec![tool]));
    assert_eq!(ending, Ending::Exited(0));
    assert_eq!(
        output, "/run:\n\n/tmp:\ntestgate-build\ntool_cache_of_the_test\nend\n",
        "{output}"
    );
}

/// Connects to a TCP port on 127.0.0.1 and to a Unix socket: exit 3 if
/// either connection fails, 0 if both work.
fn connect_script(port: u16, socket: &std::path::Path) -> String {
    format!(
        "perl -MIO::Socket::INET -MIO::Socket::UNIX -e '\
         IO::Socket::INET->new(PeerAddr => \"127.0.0.1:{port}\") or do {{ print \"tcp refused\\n\"; exit 3 }}; \
         IO::Socket::UNIX->new(Peer => \"{}\") or do {{ print \"unix refused\\n\"; exit 4 }}; exit 0'",
        socket.display()
    )
}

#[test]
fn the_network_and_host_sockets_are_unreachable() {
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = tcp.local_addr().expect("addr").port();
    let dir = scratch();
    let socket = dir.path().join("host.sock");
    let _unix = std::os::unix::net::UnixListener::bind(&socket).expect("bind unix");
    // The control: on the host both connections work.
    let (ending, output) = exit_of(&host(&connect_script(port, &socket)));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    // In the sandbox, TCP fails (no network) ...
    let (ending, output) = exit_of(&sandboxed(&connect_script(port, &socket), dir.path()));
    assert_eq!(ending, Ending::Exited(3), "{output}");
    // ... and so does the Unix socket, though its directory is visible: the
    // seccomp filter denies AF_UNIX sockets ...
    let unix_only = format!(
        "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => \"{}\") or exit 4'",
        socket.display()
    );
    let (ending, output) = exit_of(&sandboxed(&unix_only, dir.path()));
    assert_eq!(ending, Ending::Exited(4), "{output}");
    // ... while socketpair, IPC within the command, still works.
    let pair = "perl -MSocket -e 'socketpair(my $a, my $b, AF_UNIX, SOCK_STREAM, 0) or exit 5'";
    let (ending, output) = exit_of(&sandboxed(pair, dir.path()));
    assert_eq!(ending, Ending::Exited(0), "{output}");
}

#[test]
fn network_by_choice() {
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = tcp.local_addr().expect("addr").port();
    let dir = scratch();
    let options = BwrapOptions {
        allow_network: true,
        ..BwrapOptions::default()
    };
    let script = format!(
        "perl -MIO::Socket::INET -e 'IO::Socket::INET->new(PeerAddr => \"127.0.0.1:{port}\") or exit 3'"
    );
    let (ending, output) =
        exit_of(&sandboxed(&script, dir.path()).sandbox(Sandbox::Bubblewrap(options)));
    assert_eq!(ending, Ending::Exited(0), "{output}");
}

#[test]
fn unix_sockets_by_choice_keep_the_rest_of_the_filter() {
    let dir = scratch();
    let socket = dir.path().join("host.sock");
    let _unix = std::os::unix::net::UnixListener::bind(&socket).expect("bind unix");
    let options = BwrapOptions {
        allow_unix_sockets: true,
        ..BwrapOptions::default()
    };
    // AF_UNIX now connects; AF_VSOCK (40) is still refused.
    let script = format!(
        "perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => \"{}\") or exit 4; \
         socket(my $v, 40, 1, 0) and exit 5; print \"vsock: $!\\n\"'",
        socket.display()
    );
    let (ending, output) =
        exit_of(&sandboxed(&script, dir.path()).sandbox(Sandbox::Bubblewrap(options)));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert_eq!(output, "vsock: Address family not supported by protocol\n");
}

#[test]
fn credential_stores_in_home_are_hidden() {
    let home = scratch();
    let project = scratch();
    std::fs::create_dir(home.path().join(".ssh")).expect("mkdir");
    std::fs::write(home.path().join(".ssh/id_rsa"), "PRIVATE-KEY-MATERIAL").expect("plant");
    std::fs::write(
        home.path().join(".netrc"),
        "machine x password NETRC-SECRET",
    )
    .expect("plant");
    std::fs::write(home.path().join(".profile"), "not a toolchain").expect("plant");
    std::fs::create_dir_all(home.path().join(".cargo/bin")).expect("mkdir");
    std::fs::write(home.path().join(".cargo/bin/tool"), "visible").expect("plant");
    let script = "cat $HOME/.ssh/id_rsa $HOME/.netrc $HOME/.profile $HOME/.cargo/bin/tool; \
                  ls -A $HOME/.ssh; echo end";
    let env = EnvPolicy::new().set("HOME", home.path());
    // The control: on the host the key is readable.
    let (_, output) = exit_of(&host(script).env(env.clone()));
    assert!(output.contains("PRIVATE-KEY-MATERIAL"), "{output}");
    // The toolchains are the caller's to name (testgate's runner profiles).
    let cargo = testgate_run::Toolchain {
        homes: &[".cargo/bin"],
        ..testgate_run::Toolchain::NONE
    };
    let spec = sandboxed(script, project.path())
        .env(env)
        .toolchains(vec![cargo]);
    let (_, output) = exit_of(&spec);
    assert!(!output.contains("PRIVATE-KEY-MATERIAL"), "{output}");
    assert!(!output.contains("NETRC-SECRET"), "{output}");
    // The home is an allowlist of toolchains: the rest is not there.
    assert!(!output.contains("not a toolchain"), "{output}");
    assert!(output.contains("visible"), "{output}");
}

#[test]
fn a_runner_variable_is_absent_unless_passed() {
    if inner_role().is_some() {
        return;
    }
    let output = reexec(
        "sandbox::inner_runner_variable",
        "environ",
        &[("TESTGATE_PLANTED", "planted-value")],
    );
    assert!(output.contains("checked environ"), "{output}");
}

#[test]
fn inner_runner_variable() {
    if inner_role().as_deref() != Some("environ") {
        return;
    }
    // This process's environment holds TESTGATE_PLANTED (set by the outer
    // test); the sandbox's command and its init (/proc/1/environ) must not.
    assert!(std::env::var_os("TESTGATE_PLANTED").is_some());
    let dir = scratch();
    let script = "env; tr '\\0' '\\n' < /proc/1/environ";
    let (ending, output) = exit_of(&sandboxed(script, dir.path()));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(output.contains("PATH="), "{output}");
    assert!(!output.contains("planted-value"), "{output}");
    let passed = sandboxed(script, dir.path()).env(EnvPolicy::new().pass("TESTGATE_PLANTED"));
    let (_, output) = exit_of(&passed);
    assert_eq!(
        output.matches("TESTGATE_PLANTED=planted-value").count(),
        2,
        "{output}"
    );
    println!("checked environ");
}

#[test]
fn no_bwrap_is_a_refusal() {
    let empty = scratch();
    let options = BwrapOptions {
        bwrap_dirs: vec![empty.path().to_owned()],
        ..BwrapOptions::default()
    };
    let (result, _) =
        collect(&sandboxed("true", empty.path()).sandbox(Sandbox::Bubblewrap(options)));
    assert!(
        matches!(result, Err(RunError::SandboxRefused { .. })),
        "{result:?}"
    );
}

#[test]
fn a_fake_bwrap_on_path_is_not_used() {
    let dir = scratch();
    let fake = dir.path().join("bwrap");
    std::fs::write(&fake, "#!/bin/sh\necho FAKE-BWRAP\nexit 0\n").expect("write");
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let path = format!("{}:/usr/bin:/bin", dir.path().display());
    let spec = sandboxed("grep CapEff /proc/self/status", dir.path())
        .env(EnvPolicy::new().set("PATH", path));
    let (ending, output) = exit_of(&spec);
    assert_eq!(ending, Ending::Exited(0));
    assert!(!output.contains("FAKE-BWRAP"), "{output}");
    assert!(output.contains("0000000000000000"), "{output}");
}

#[test]
fn bwrap_failing_its_own_setup_is_a_refusal_in_its_words() {
    let dir = scratch();
    let options = BwrapOptions {
        writable: vec!["/nonexistent/testgate".into()],
        ..BwrapOptions::default()
    };
    let (result, _) = collect(&sandboxed("true", dir.path()).sandbox(Sandbox::Bubblewrap(options)));
    match result {
        Err(RunError::SandboxRefused { message, .. }) => {
            assert!(message.contains("/nonexistent/testgate"), "{message}");
        }
        other => panic!("expected SandboxRefused, got {other:?}"),
    }
}

#[test]
fn a_test_printing_like_bwrap_and_exiting_1_is_just_exit_1() {
    let dir = scratch();
    let (ending, _) = exit_of(&sandboxed(
        "echo 'bwrap: Can not mount: fake' >&2; exit 1",
        dir.path(),
    ));
    assert_eq!(ending, Ending::Exited(1));
}

#[test]
fn a_process_cap_as_root_is_a_refusal() {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let dir = scratch();
    let options = BwrapOptions {
        max_processes: Some(64),
        ..BwrapOptions::default()
    };
    let (result, _) = collect(&sandboxed("true", dir.path()).sandbox(Sandbox::Bubblewrap(options)));
    assert!(
        matches!(result, Err(RunError::SandboxRefused { .. })),
        "{result:?}"
    );
}

#[test]
fn a_missing_program_or_interpreter_would_not_start() {
    let dir = scratch();
    let script = dir.path().join("bad.sh");
    std::fs::write(&script, "#!/nonexistent/interpreter\necho hi\n").expect("write");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    for program in [PathBuf::from("testgate-no-such-program"), script] {
        let spec = RunSpec::new(&program, [""; 0]).dir(dir.path());
        let (result, _) = collect(&spec);
        assert!(
            matches!(result, Err(RunError::WouldNotStart { .. })),
            "{program:?}: {result:?}"
        );
    }
}

/// Without user namespaces bwrap cannot set up: the run is refused, in
/// bwrap's words; `auto` runs it under Landlock instead. Acted out inside
/// a sandbox, which disables them.
#[test]
fn no_user_namespaces_is_a_refusal() {
    if inner_role().is_some() {
        return;
    }
    let project = scratch();
    let output = reexec_in(
        Sandbox::Bubblewrap(BwrapOptions::default()),
        Some(project.path()),
        "sandbox::inner_no_user_namespaces",
        "nouserns",
        &[],
    );
    assert!(output.contains("refused: "), "{output}");
    // The default, `auto`, runs the command under Landlock there instead.
    assert!(
        output.contains("auto: Exited(0), auto chose landlock: bubblewrap cannot start here"),
        "{output}"
    );
}

#[test]
fn inner_no_user_namespaces() {
    if inner_role().as_deref() != Some("nouserns") {
        return;
    }
    let here = std::env::current_dir().expect("cwd");
    let bwrap = Sandbox::Bubblewrap(BwrapOptions::default());
    let (result, _) = collect(&sandboxed("true", &here).sandbox(bwrap));
    match result {
        Err(RunError::SandboxRefused { message, .. }) => println!("refused: {message}"),
        other => panic!("expected SandboxRefused, got {other:?}"),
    }
    let (result, _) = collect(&sandboxed("true", &here));
    match result {
        Ok(finished) => println!(
            "auto: {:?}, {}",
            finished.ending,
            finished.sandbox_notes.first().map_or("", String::as_str)
        ),
        Err(error) => panic!("auto was refused: {error}"),
    }
}

#[test]
fn a_relative_directory_is_the_runner_s_own_relative_path() {
    // The test runs in the crate's directory; `tests` is relative to it.
    let (ending, output) = exit_of(&sandboxed("pwd", std::path::Path::new("tests")));
    assert_eq!(ending, Ending::Exited(0));
    let expected = std::fs::canonicalize("tests").expect("tests dir");
    assert_eq!(output.trim_end(), expected.display().to_string());
}

/// The host's `~/.gitconfig` is hidden with the home; git in the sandbox
/// finds a neutral identity of testgate's in the home's tmpfs, which the
/// repository's own `user.name` and the `GIT_AUTHOR_*` variables override,
/// and nothing of the host's file (its identity, its credential helper,
/// its alias).
#[test]
fn git_has_a_neutral_identity_that_the_tests_own_overrides() {
    let home = scratch();
    let project = scratch();
    std::fs::write(
        home.path().join(".gitconfig"),
        "[user]\n\tname = Host Person\n\temail = host@example.com\n\
         [credential]\n\thelper = store --file /host/creds\n[alias]\n\thostalias = status\n",
    )
    .expect("plant");
    let script = "set -e; cd \"$(mktemp -d)\"; git init -q .; echo x > f; git add f; \
                  git commit -qm one; git log -1 --format='first %an <%ae>'; \
                  git config user.name 'Repo Own'; git config user.email own@repo; \
                  git commit -q --allow-empty -m two; git log -1 --format='second %an <%ae>'; \
                  GIT_AUTHOR_NAME=Env git commit -q --allow-empty -m three; \
                  git log -1 --format='third %an'; \
                  echo global:; git config --global --list";
    let env = EnvPolicy::new().set("HOME", home.path());
    let (ending, output) = exit_of(&sandboxed(script, project.path()).env(env));
    assert_eq!(ending, Ending::Exited(0), "{output}");
    assert!(
        output.contains("first testgate <testgate@localhost>"),
        "{output}"
    );
    assert!(output.contains("second Repo Own <own@repo>"), "{output}");
    assert!(output.contains("third Env"), "{output}");
    for host in ["Host Person", "host@example.com", "helper", "hostalias"] {
        assert!(
            !output.contains(host),
            "{host} reached the sandbox: {output}"
        );
    }
    // The host's file is as it was.
    let host_file = std::fs::read_to_string(home.path().join(".gitconfig")).expect("read");
    assert!(host_file.contains("Host Person") && !host_file.contains("testgate"));
}

/// Without network npm stays offline (it fails at once for a package in no
/// cache, instead of retrying the registry until the timeout), unless the
/// command's environment sets it, in any case, or the network is allowed.
#[test]
fn npm_stays_offline_without_network_unless_told_otherwise() {
    let dir = scratch();
    let script = "env | grep -i '^npm_config_offline=' || echo unset";
    // Node's toolchain as testgate's runner profiles hand it: this crate
    // knows no npm by itself.
    let node = testgate_run::Toolchain {
        offline: &[("npm_config_offline", "true")],
        ..testgate_run::Toolchain::NONE
    };
    let sandboxed = |script, dir| sandboxed(script, dir).toolchains(vec![node]);
    let (_, output) = exit_of(&sandboxed(script, dir.path()));
    assert_eq!(output, "npm_config_offline=true\n");
    let own = EnvPolicy::new().set("npm_config_offline", "false");
    let (_, output) = exit_of(&sandboxed(script, dir.path()).env(own));
    assert_eq!(output, "npm_config_offline=false\n");
    let upper = EnvPolicy::new().set("NPM_CONFIG_OFFLINE", "false");
    let (_, output) = exit_of(&sandboxed(script, dir.path()).env(upper));
    assert_eq!(output, "NPM_CONFIG_OFFLINE=false\n");
    let network = Sandbox::Bubblewrap(BwrapOptions {
        allow_network: true,
        ..BwrapOptions::default()
    });
    let (_, output) = exit_of(&sandboxed(script, dir.path()).sandbox(network));
    assert_eq!(output, "unset\n");
    let (_, output) = exit_of(&host(script).toolchains(vec![node]));
    assert_eq!(output, "unset\n");
}
