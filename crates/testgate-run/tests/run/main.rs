//! Integration tests of testgate-run: real processes, real bwrap.

mod cancel;
mod flood;
mod host;
mod landlock;
mod sandbox;
mod tree;
mod writes;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use testgate_run::{EnvPolicy, Finished, RunError, RunSpec, Sandbox, run};

/// A run of `sh -c script` on the host, with a generous timeout.
fn host(script: &str) -> RunSpec {
    RunSpec::new("sh", ["-c", script])
        .sandbox(Sandbox::Host)
        .timeout(Duration::from_secs(60))
}

/// A run of `sh -c script` in the default bubblewrap sandbox.
fn sandboxed(script: &str, project: &Path) -> RunSpec {
    RunSpec::new("sh", ["-c", script])
        .dir(project)
        .timeout(Duration::from_secs(60))
}

/// Runs `spec`, collecting its output.
fn collect(spec: &RunSpec) -> (Result<Finished, RunError>, String) {
    let mut output = Vec::new();
    let result = run(spec, &mut |chunk: &[u8]| output.extend_from_slice(chunk));
    (result, String::from_utf8_lossy(&output).into_owned())
}

/// A scratch directory the sandbox shows read-only, whatever the caller
/// exported: not under `/tmp` (which the sandbox makes private) and not
/// under the build directory (a `CARGO_TARGET_DIR` in the environment, as
/// `scripts/test` exports for a checkout under /tmp, is a build output the
/// sandbox makes writable).
fn scratch() -> tempfile::TempDir {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let root = PathBuf::from(format!("/var/tmp/testgate-run-tests-{uid}"));
    match std::fs::DirBuilder::new().mode(0o700).create(&root) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => panic!("{}: {e}", root.display()),
    }
    let meta = std::fs::symlink_metadata(&root).expect("scratch root");
    assert!(
        meta.is_dir() && meta.uid() == uid,
        "{} is not a directory of ours",
        root.display()
    );
    tempfile::Builder::new()
        .prefix("run-test-")
        .tempdir_in(&root)
        .expect("a scratch dir")
}

/// A string no other process on the machine carries.
fn unique_token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "tgtok{}x{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A `sleep` whose argv[0] carries `token`: `dir/sleep-TOKEN`.
fn marked_sleep(dir: &Path, token: &str) -> PathBuf {
    let path = dir.join(format!("sleep-{token}"));
    std::os::unix::fs::symlink(which("sleep").expect("sleep on PATH"), &path).expect("symlink");
    path
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Pids of live processes whose command line holds `token`.
fn processes_with(token: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(token) {
            found.push(pid);
        }
    }
    found
}

/// Env var telling a re-executed test binary which inner test to act out.
const INNER: &str = "TESTGATE_RUN_INNER";

/// Which inner role this process plays, if it was re-executed.
fn inner_role() -> Option<String> {
    std::env::var(INNER).ok()
}

/// Re-executes this test binary (through `run`, on the host) to run the
/// single test `name` with `INNER=role` plus `extra` variables, returning its
/// output. Used where a test needs process-wide state of its own (signal
/// dispositions, environment, peak memory).
fn reexec(name: &str, role: &str, extra: &[(&str, &str)]) -> String {
    reexec_in(Sandbox::Host, None, name, role, extra)
}

/// [`reexec`] in a sandbox of choice, in `dir`.
fn reexec_in(
    sandbox: Sandbox,
    dir: Option<&Path>,
    name: &str,
    role: &str,
    extra: &[(&str, &str)],
) -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let mut env = EnvPolicy::new().set(INNER, role);
    for (k, v) in extra {
        env = env.set(OsString::from(k), OsString::from(v));
    }
    let spec = RunSpec::new(exe, [name, "--exact", "--nocapture", "--test-threads=1"])
        .sandbox(sandbox)
        .env(env)
        .timeout(Duration::from_secs(240));
    let spec = match dir {
        Some(dir) => spec.dir(dir),
        None => spec,
    };
    let (result, output) = collect(&spec);
    let finished = result.expect("the inner test binary starts");
    assert_eq!(
        finished.ending,
        testgate_run::Ending::Exited(0),
        "inner test {name} failed:\n{output}"
    );
    assert!(
        output.contains("1 passed"),
        "inner test {name} did not run:\n{output}"
    );
    output
}
