//! Runs one hostile suite through `testgate check` as CI runs it, and
//! checks what every attack must leave behind: no process, no change to the
//! host, a bounded testgate.
//!
//! Each run copies `tests/hostile/NAME/` into a fresh project directory and
//! runs `testgate check -q -C PROJECT … -- sh run.sh MARKER OUTSIDE ARGS…`.
//! `MARKER` is unique to the run; the scripts export it as `HOSTILE_MARKER`
//! and put it in the names of anything they try to create, so that a
//! surviving process (argv or environment) or a stray file can be found.
//! `OUTSIDE` is a directory outside the project, visible but read-only in the
//! sandbox, holding a `victim` file the attacks try to change.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

/// What the `victim` file outside the project holds; an attack that changes
/// it escaped.
pub(super) const VICTIM: &str = "the host's own file, not the test's\n";

/// testgate's peak RSS may not exceed this in any attack (it streams; it
/// holds a 64 KiB buffer and the tail of the output, not the output).
pub(super) const RSS_LIMIT_KB: u64 = 64 * 1024;

/// How long one testgate run may take before the harness kills it and fails:
/// a liveness bound, not a speed claim. The attacks that would hang a run
/// hold it for 1000 s or for ever; an honest run takes seconds idle, but a
/// flood of a GiB on two cores shared with other builds took over 120 s.
const RUN_BOUND: Duration = Duration::from_secs(600);

/// How long processes of a finished run get to vanish (the kernel ends a
/// PID namespace asynchronously).
const SURVIVOR_BOUND: Duration = Duration::from_secs(5);

/// Attacks that load the whole machine (fork bomb, floods, memory) run one
/// at a time, so that their timings stay meaningful on two cores.
pub(super) fn heavy() -> MutexGuard<'static, ()> {
    static HEAVY: Mutex<()> = Mutex::new(());
    HEAVY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where the attacks' `OUTSIDE` directories live: a place the sandbox shows
/// read-only, whatever the caller exported. Not under /tmp (the sandbox's
/// /tmp is its own, and the attacks must *see* what they try to change) and
/// not under the build directory: a `CARGO_TARGET_DIR` in testgate's
/// environment (`scripts/test` exports one for a checkout under /tmp) is a
/// build output the sandbox makes writable.
fn outside_root() -> PathBuf {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let root = PathBuf::from(format!("/var/tmp/testgate-hostile-{uid}"));
    match fs::DirBuilder::new().mode(0o700).create(&root) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => panic!("{}: {e}", root.display()),
    }
    let meta = fs::symlink_metadata(&root).expect("outside root");
    assert!(
        meta.is_dir() && meta.uid() == uid,
        "{} is not a directory of ours",
        root.display()
    );
    root
}

/// The directory holding one suite per attack.
fn suites() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hostile")
}

/// The sandbox an attack runs in: every attack runs in bubblewrap; those
/// of `hostile::landlock` run under Landlock too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Bwrap,
    Landlock,
}

/// One attack, ready to run.
pub(super) struct Attack {
    name: &'static str,
    marker: String,
    project: TempDir,
    outside: TempDir,
    args: Vec<OsString>,
    script_args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    json: bool,
    ignore_sigchld: bool,
    inherit_fd: Option<fs::File>,
    /// A file in the project testgate's standard error goes to, as a
    /// user's `2> FILE` sends it.
    stderr_into: Option<PathBuf>,
    stdin: Option<fs::File>,
    own_group: bool,
    command: Vec<OsString>,
    /// Whether MARKER and OUTSIDE follow the command (not for a runner
    /// that would take them for test paths).
    marker_args: bool,
    session_key: Option<SessionKey>,
    /// testgate's peak RSS may not exceed this ([`RSS_LIMIT_KB`] unless
    /// the attack's output holds data testgate must keep).
    rss_limit_kb: u64,
    /// A program testgate is started through (it execs testgate).
    wrapper: Option<PathBuf>,
}

/// A key testgate starts with in a fresh session keyring of its own, and
/// the harness's keyring through which that session keyring stays
/// reachable after the run.
struct SessionKey {
    keeper: i32,
    description: std::ffi::CString,
}

impl Attack {
    /// The suite `tests/hostile/NAME`, copied into a fresh project.
    pub(super) fn new(name: &'static str) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        // Fixed width and a closing `-m`: no marker is a substring of
        // another, so a scan never takes a concurrent run's process for
        // this one's.
        let marker = format!(
            "hostile-{name}-{}-{:05}-m",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let project = tempfile::Builder::new()
            .prefix("hostile-project-")
            .tempdir()
            .expect("project dir");
        let source = suites().join(name);
        for entry in fs::read_dir(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display())) {
            let entry = entry.expect("suite entry");
            fs::copy(entry.path(), project.path().join(entry.file_name())).expect("copy suite");
        }
        let outside = tempfile::Builder::new()
            .prefix("hostile-outside-")
            .tempdir_in(outside_root())
            .expect("outside dir");
        fs::write(outside.path().join("victim"), VICTIM).expect("victim");
        Attack {
            name,
            marker,
            project,
            outside,
            args: Vec::new(),
            script_args: Vec::new(),
            env: Vec::new(),
            json: true,
            ignore_sigchld: false,
            inherit_fd: None,
            stderr_into: None,
            stdin: None,
            own_group: false,
            command: vec!["sh".into(), "run.sh".into()],
            marker_args: true,
            session_key: None,
            rss_limit_kb: RSS_LIMIT_KB,
            wrapper: None,
        }
    }

    /// The suite `tests/hostile/NAME` with default options under
    /// `tests/containers/without-namespaces`, the seccomp filter of a
    /// container runtime's default profile (no namespaces): `auto` picks
    /// Landlock there, as inside the podman container CI runs.
    pub(super) fn in_a_container(name: &'static str) -> Self {
        let mut attack = Attack::new(name);
        attack.wrapper = Some(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/containers/without-namespaces"),
        );
        attack
    }

    /// The suite `tests/hostile/NAME` under Landlock, testgate started as
    /// root without `CAP_SYS_ADMIN` (`tests/containers/without-sys-admin`),
    /// as a container runtime starts a container's root: no network
    /// namespace but in a user namespace of the command's own.
    pub(super) fn without_sys_admin(name: &'static str) -> Self {
        let mut attack = Attack::new(name).arg("--sandbox").arg("landlock");
        attack.wrapper = Some(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/containers/without-sys-admin"),
        );
        attack
    }

    /// The suite `tests/hostile/NAME` in the sandbox `place`.
    pub(super) fn new_in(name: &'static str, place: Place) -> Self {
        let attack = Attack::new(name);
        match place {
            Place::Bwrap => attack.arg("--sandbox").arg("bwrap"),
            Place::Landlock => attack.arg("--sandbox").arg("landlock"),
        }
    }

    /// Run `words` instead of `sh run.sh` (then MARKER, OUTSIDE, ARGS…).
    pub(super) fn command(mut self, words: &[&str]) -> Self {
        self.command = words.iter().map(OsString::from).collect();
        self
    }

    /// Run `words` alone, without MARKER and OUTSIDE after them: for a
    /// suite run by its real runner (pytest would take them for paths).
    pub(super) fn runner_command(mut self, words: &[&str]) -> Self {
        self.command = words.iter().map(OsString::from).collect();
        self.marker_args = false;
        self
    }

    /// Start testgate in a fresh session keyring holding a `user` key
    /// described `description`, as a login session's keyring would; the
    /// session keyring is linked into `keeper` (a keyring the test owns) so
    /// that the test can search it after the run.
    pub(super) fn in_session_keyring(mut self, keeper: i32, description: &str) -> Self {
        self.session_key = Some(SessionKey {
            keeper,
            description: std::ffi::CString::new(description).expect("no NUL"),
        });
        self
    }

    /// A further `testgate check` option (before `--`).
    /// `--keep-changes`: the suite's own files (what it found, wrote or
    /// dumped) stay in the project for the test to read; without it every
    /// attempt's writes are put back.
    pub(super) fn keeping_changes(self) -> Self {
        self.arg("--keep-changes")
    }

    pub(super) fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// A further argument to the suite's `run.sh`, after MARKER and OUTSIDE.
    pub(super) fn script_arg(mut self, arg: impl Into<OsString>) -> Self {
        self.script_args.push(arg.into());
        self
    }

    /// Replaces the further arguments to the suite's `run.sh`: for a later
    /// check of the same project that runs another part of the suite.
    pub(super) fn set_script_args(&mut self, args: &[&str]) {
        self.script_args = args.iter().map(OsString::from).collect();
    }

    /// A variable in testgate's own environment (not passed on by default).
    pub(super) fn testgate_env(
        mut self,
        name: impl Into<OsString>,
        value: impl Into<OsString>,
    ) -> Self {
        self.env.push((name.into(), value.into()));
        self
    }

    /// Print the text verdict instead of JSON.
    /// Allows testgate a peak RSS of `kb` KiB: for an attack whose output
    /// holds data testgate must keep (a hundred thousand failing names).
    pub(super) fn allowing_rss_kb(mut self, kb: u64) -> Self {
        self.rss_limit_kb = kb;
        self
    }

    pub(super) fn text(mut self) -> Self {
        self.json = false;
        self
    }

    /// Start testgate with SIGCHLD ignored, as a careless parent would.
    pub(super) fn ignoring_sigchld(mut self) -> Self {
        self.ignore_sigchld = true;
        self
    }

    /// Let testgate inherit `file` as descriptor 7.
    pub(super) fn inheriting(mut self, file: fs::File) -> Self {
        self.inherit_fd = Some(file);
        self
    }

    /// Send testgate's standard error to the project's file `name` (created
    /// empty before the run, as a shell's `2> name` does) instead of a pipe.
    pub(super) fn stderr_into(mut self, name: &str) -> Self {
        self.stderr_into = Some(self.project.path().join(name));
        self
    }

    /// Start testgate as the leader of its own process group, as a shell
    /// starts a foreground job (so that a signal to the group is Ctrl-C).
    pub(super) fn in_own_group(mut self) -> Self {
        self.own_group = true;
        self
    }

    /// Give testgate `file` as its standard input (a terminal, say).
    pub(super) fn stdin(mut self, file: fs::File) -> Self {
        self.stdin = Some(file);
        self
    }

    pub(super) fn marker(&self) -> &str {
        &self.marker
    }

    pub(super) fn project(&self) -> &Path {
        self.project.path()
    }

    /// The e2e node projects' `node_modules` ([`node_modules`]) linked
    /// into the project and given writable, as a suite of jest, vitest or
    /// mocha needs it.
    pub(super) fn with_node_modules(self) -> Self {
        let modules = node_modules();
        std::os::unix::fs::symlink(&modules, self.project().join("node_modules"))
            .expect("link node_modules");
        self.arg("--writable").arg(modules)
    }

    pub(super) fn outside(&self) -> &Path {
        self.outside.path()
    }

    /// Starts testgate; the run's output is collected on threads.
    pub(super) fn start(&self) -> Running<'_> {
        self.start_as(&self.marker)
    }

    /// Starts testgate with another marker, for a second run in the same
    /// project.
    pub(super) fn start_as(&self, marker: &str) -> Running<'_> {
        let mut command = match &self.wrapper {
            Some(wrapper) => {
                let mut command = Command::new(wrapper);
                command.arg(env!("CARGO_BIN_EXE_testgate"));
                command
            }
            None => Command::new(env!("CARGO_BIN_EXE_testgate")),
        };
        command
            .arg("check")
            .arg("-q")
            .arg("-C")
            .arg(self.project.path())
            .args(self.json.then_some("--json"))
            .args(&self.args)
            .arg("--")
            .args(&self.command)
            .args(
                [OsStr::new(marker), self.outside.path().as_os_str()]
                    .into_iter()
                    .filter(|_| self.marker_args),
            )
            .args(&self.script_args)
            .envs(self.env.iter().map(|(n, v)| (n, v)))
            .stdin(match &self.stdin {
                Some(file) => Stdio::from(file.try_clone().expect("dup stdin")),
                None => Stdio::null(),
            })
            .stdout(Stdio::piped())
            .stderr(match &self.stderr_into {
                Some(path) => Stdio::from(fs::File::create(path).expect("create the stderr file")),
                None => Stdio::piped(),
            });
        let ignore_sigchld = self.ignore_sigchld;
        let own_group = self.own_group;
        let fd = self
            .inherit_fd
            .as_ref()
            .map(std::os::fd::AsRawFd::as_raw_fd);
        let session_key = self
            .session_key
            .as_ref()
            .map(|key| (key.keeper, key.description.clone()));
        // SAFETY: only async-signal-safe calls (signal, dup2, setpgid,
        // syscall) between fork and exec; the key's strings were made
        // before the fork.
        unsafe {
            command.pre_exec(move || {
                if let Some((keeper, description)) = &session_key {
                    join_session_keyring_with_key(*keeper, description)?;
                }
                if own_group && libc::setpgid(0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if ignore_sigchld {
                    libc::signal(libc::SIGCHLD, libc::SIG_IGN);
                }
                if let Some(fd) = fd {
                    // dup2 clears close-on-exec on the copy.
                    if libc::dup2(fd, 7) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let started = Instant::now();
        let mut child = command.spawn().expect("start testgate");
        let stdout = collect(child.stdout.take().expect("piped"));
        let stderr = match child.stderr.take() {
            Some(pipe) => collect(pipe),
            None => thread::spawn(Vec::new),
        };
        Running {
            attack: self,
            child,
            started,
            stdout,
            stderr,
            peak_kb: 0,
        }
    }

    /// Runs testgate to its end.
    pub(super) fn run(&self) -> Outcome {
        self.start().finish()
    }

    /// Asserts that nothing of this run is alive, bounded by
    /// [`SURVIVOR_BOUND`], and returns what was found.
    pub(super) fn assert_no_survivors(&self) {
        let deadline = Instant::now() + SURVIVOR_BOUND;
        loop {
            let alive = processes_marked(&self.marker);
            if alive.is_empty() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{}: processes of the run survived testgate: {alive:#?}",
                self.name
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Asserts that the host is as the run found it: the victim unchanged,
    /// nothing else in OUTSIDE, and no file named with the marker in /etc,
    /// the home directory or /tmp.
    pub(super) fn assert_host_unchanged(&self) {
        let victim = fs::read_to_string(self.outside.path().join("victim"));
        assert_eq!(
            victim.as_deref().ok(),
            Some(VICTIM),
            "{}: the file outside the project changed",
            self.name
        );
        let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
        for dir in [
            Path::new("/etc"),
            Path::new(&home),
            Path::new("/tmp"),
            self.outside.path(),
        ] {
            let Ok(entries) = fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                assert!(
                    !name
                        .as_encoded_bytes()
                        .windows(self.marker.len())
                        .any(|w| w == self.marker.as_bytes()),
                    "{}: the run created {} on the host",
                    self.name,
                    entry.path().display()
                );
            }
        }
    }

    /// The checks every attack ends with.
    pub(super) fn assert_contained(&self, outcome: &Outcome) {
        self.assert_no_survivors();
        self.assert_host_unchanged();
        assert!(
            outcome.peak_kb > 0 && outcome.peak_kb < self.rss_limit_kb,
            "{}: testgate's peak RSS was {} KiB",
            self.name,
            outcome.peak_kb
        );
        eprintln!(
            "hostile {:<24} exit {:?} in {:>6.2}s, testgate peak RSS {:>6} KiB",
            self.name,
            outcome.code,
            outcome.wall.as_secs_f64(),
            outcome.peak_kb
        );
    }
}

/// A testgate run in progress.
pub(super) struct Running<'a> {
    attack: &'a Attack,
    child: Child,
    started: Instant,
    stdout: JoinHandle<Vec<u8>>,
    stderr: JoinHandle<Vec<u8>>,
    peak_kb: u64,
}

impl Running<'_> {
    pub(super) fn pid(&self) -> i32 {
        i32::try_from(self.child.id()).expect("pid fits")
    }

    /// Waits, bounded, until `file` exists in the project (the suite's way
    /// of saying it is ready to be interrupted).
    pub(super) fn wait_for_file(&mut self, file: &str, bound: Duration) {
        let path = self.attack.project().join(file);
        let deadline = Instant::now() + bound;
        while !path.exists() {
            self.sample();
            if Instant::now() > deadline || self.exited() {
                let _ = self.child.kill();
                panic!(
                    "{}: {file} did not appear within {bound:?}",
                    self.attack.name
                );
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Reads testgate's high-water mark of resident memory. VmHWM only
    /// grows, so the last sample before exit misses at most the growth of
    /// the final 10 ms.
    fn sample(&mut self) {
        let status = fs::read_to_string(format!("/proc/{}/status", self.child.id()));
        if let Some(kb) = status.ok().as_deref().and_then(vm_hwm_kb) {
            self.peak_kb = self.peak_kb.max(kb);
        }
    }

    /// Whether testgate has exited (observed without reaping it, so that
    /// its pid stays valid for signals until `finish`).
    fn exited(&self) -> bool {
        // SAFETY: waitid writes into a valid, zeroed siginfo_t.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let done = libc::waitid(
                libc::P_PID,
                self.child.id(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            done == 0 && info.si_pid() != 0
        }
    }

    /// Waits for testgate to exit (bounded by [`RUN_BOUND`]).
    pub(super) fn finish(mut self) -> Outcome {
        let deadline = self.started + RUN_BOUND;
        while !self.exited() {
            self.sample();
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "{}: testgate did not end within {RUN_BOUND:?}",
                    self.attack.name
                );
            }
            thread::sleep(Duration::from_millis(10));
        }
        let status = self.child.wait().expect("reap testgate");
        let wall = self.started.elapsed();
        let stdout = self.stdout.join().expect("stdout reader");
        let stderr = self.stderr.join().expect("stderr reader");
        let json = if self.attack.json {
            serde_json::from_slice(&stdout).ok()
        } else {
            None
        };
        Outcome {
            code: status.code(),
            stdout,
            stderr,
            json,
            peak_kb: self.peak_kb,
            wall,
        }
    }
}

/// What a testgate run gave.
#[derive(Debug)]
pub(super) struct Outcome {
    pub(super) code: Option<i32>,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
    pub(super) json: Option<Value>,
    pub(super) peak_kb: u64,
    pub(super) wall: Duration,
}

impl Outcome {
    /// The JSON document (the run must have used `--json`).
    pub(super) fn doc(&self) -> &Value {
        self.json.as_ref().unwrap_or_else(|| {
            panic!(
                "stdout is not one JSON document:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&self.stdout),
                String::from_utf8_lossy(&self.stderr)
            )
        })
    }

    /// `(verdict, cause)` from the JSON document.
    pub(super) fn verdict(&self) -> (&str, Option<&str>) {
        let doc = self.doc();
        (
            doc["verdict"].as_str().expect("verdict"),
            doc["cause"].as_str(),
        )
    }

    /// The first attempt's object.
    pub(super) fn attempt(&self) -> &Value {
        &self.doc()["attempts"][0]
    }

    pub(super) fn reason(&self) -> &str {
        self.doc()["reason"].as_str().expect("reason")
    }

    /// Asserts the first attempt's exit code and what became of the report
    /// testgate asked for (`"missing"`, `"read"`, …), showing the attempt
    /// when they differ.
    pub(super) fn assert_exit_and_report(&self, exit_code: i64, report: &str) {
        let attempt = self.attempt();
        assert_eq!(
            (attempt["exit_code"].as_i64(), attempt["report"].as_str()),
            (Some(exit_code), Some(report)),
            "{attempt:#}"
        );
    }

    /// Asserts the verdict, the cause and the exit code together, showing
    /// the whole document when they differ.
    pub(super) fn assert_verdict(&self, verdict: &str, cause: Option<&str>, code: i32) {
        assert_eq!(
            (self.verdict(), self.code),
            ((verdict, cause), Some(code)),
            "{:#}\nstderr: {}",
            self.doc(),
            String::from_utf8_lossy(&self.stderr)
        );
    }
}

/// `keyctl(2)` operations and special keyring ids (linux/keyctl.h).
pub(super) mod keyctl {
    pub(crate) const JOIN_SESSION_KEYRING: libc::c_long = 1;
    pub(crate) const SETPERM: libc::c_long = 5;
    pub(crate) const LINK: libc::c_long = 8;
    pub(crate) const UNLINK: libc::c_long = 9;
    pub(crate) const SEARCH: libc::c_long = 10;
    pub(crate) const SESSION_KEYRING: i32 = -3;
    pub(crate) const USER_KEYRING: i32 = -4;
}

/// In the child before exec: a new anonymous session keyring, a `user` key
/// `description` in it, and the session keyring linked into `keeper`.
/// Async-signal-safe (raw syscalls only).
unsafe fn join_session_keyring_with_key(
    keeper: i32,
    description: &std::ffi::CStr,
) -> std::io::Result<()> {
    const PAYLOAD: &[u8] = b"the host's secret";
    let fail = || Err(std::io::Error::last_os_error());
    // SAFETY: keyctl and add_key with valid NUL-terminated strings.
    unsafe {
        let null: *const libc::c_char = std::ptr::null();
        if libc::syscall(libc::SYS_keyctl, keyctl::JOIN_SESSION_KEYRING, null) < 0 {
            return fail();
        }
        if libc::syscall(
            libc::SYS_add_key,
            c"user".as_ptr(),
            description.as_ptr(),
            PAYLOAD.as_ptr(),
            PAYLOAD.len(),
            keyctl::SESSION_KEYRING,
        ) < 0
        {
            return fail();
        }
        if libc::syscall(
            libc::SYS_keyctl,
            keyctl::LINK,
            keyctl::SESSION_KEYRING,
            keeper,
        ) < 0
        {
            return fail();
        }
    }
    Ok(())
}

/// Reads `pipe` to its end on a thread, keeping at most the last 8 MiB (an
/// attack may flood; testgate with -q should not, but the harness must not
/// be the one to run out of memory). 8 MiB holds the JSON document of
/// 100,000 failing names, which lists them three times (`failing`,
/// `findings.always_failed`, the attempt's `failing`).
fn collect(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        const KEEP: usize = 8 << 20;
        let mut kept = Vec::new();
        let mut buf = vec![0; 64 * 1024];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => return kept,
                Ok(n) => {
                    kept.extend_from_slice(&buf[..n]);
                    if kept.len() > 2 * KEEP {
                        kept.drain(..kept.len() - KEEP);
                    }
                }
            }
        }
    })
}

/// `VmHWM` of a `/proc/PID/status`, in KiB.
fn vm_hwm_kb(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Every process whose argv or environment holds `marker`: pid and argv.
pub(super) fn processes_marked(marker: &str) -> Vec<(u32, String)> {
    let me = std::process::id();
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let holds = |bytes: &[u8]| bytes.windows(marker.len()).any(|w| w == marker.as_bytes());
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .filter_map(|pid| {
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let environ = fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            (holds(&cmdline) || holds(&environ)).then(|| {
                let shown = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                (pid, shown)
            })
        })
        .collect()
}

/// Whether `bytes` hold a control character other than `\n` and `\t`, raw
/// or as a C1 code point.
pub(super) fn has_control(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes)
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

/// Whether `haystack` contains `needle`.
pub(super) fn contains(haystack: &[u8], needle: impl AsRef<OsStr>) -> bool {
    let needle = needle.as_ref().as_encoded_bytes();
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The negative control of the survivor scan: a marked process started
/// here, outside testgate, is found (by argv and by environment alone).
#[test]
fn the_survivor_scan_sees_a_marked_process() {
    let marker = format!("hostile-control-{}-m", std::process::id());
    let mut by_env = Command::new("sleep")
        .arg("30")
        .env("HOSTILE_MARKER", &marker)
        .spawn()
        .expect("start sleep");
    // Between fork and exec the child's cmdline is still empty: poll
    // (bounded) until the exec shows.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut found = processes_marked(&marker);
    while !found
        .iter()
        .any(|(_, cmdline)| cmdline.starts_with("sleep 30"))
        && std::time::Instant::now() < until
    {
        std::thread::yield_now();
        found = processes_marked(&marker);
    }
    let _ = by_env.kill();
    let _ = by_env.wait();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.starts_with("sleep 30"), "{found:?}");
    assert!(processes_marked(&marker).is_empty());
}

/// The node_modules of the e2e node projects, which the suite links to:
/// its canonical path, since a checkout under /tmp is visible in the
/// sandbox only where it is bound, and a bind given as `a/../b` is not
/// where the link `a/../b` leads inside.
pub(super) fn node_modules() -> PathBuf {
    let modules = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/projects/e2e/node/node_modules");
    assert!(
        modules.is_dir(),
        "{} is missing: run scripts/setup (npm ci)",
        modules.display()
    );
    modules.canonicalize().expect("canonical node_modules")
}
