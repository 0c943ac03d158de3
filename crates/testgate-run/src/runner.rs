//! A run from start to report: the environment, the sandbox's command line,
//! the spawn, and what the ending means.

use std::io::{self, Write};
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::bwrap;
use crate::gitconfig;
use crate::outcome::{Ending, Finished, RunError};
use crate::protect;
use crate::refused::Refusals;
use crate::spawn::{self, Launch};
use crate::spec::{RunSpec, Sandbox};
use crate::tree;
use crate::view;
use crate::watch::{Stop, Watch};

/// Where a run's output goes, chunk by chunk, stdout and stderr merged in
/// arrival order line by line: a stream's unfinished line waits (up to
/// 200 ms, at most 64 KiB) for its newline, so a line of the other stream
/// never lands inside it. The runner holds at most one 64 KiB chunk and
/// one unfinished line per stream; whether output is kept, counted, parsed
/// or shown live (a tee) is the sink's business.
pub trait OutputSink {
    /// Takes the next chunk of output.
    fn output(&mut self, chunk: &[u8]);
}

impl<F: FnMut(&[u8])> OutputSink for F {
    fn output(&mut self, chunk: &[u8]) {
        self(chunk);
    }
}

/// Runs `spec`, handing its output to `sink`, and returns once every process
/// of the run is gone.
///
/// The command runs under a reaper of the run's own, a child subreaper: the
/// run's processes are the reaper's descendants, as the kernel keeps them,
/// however they detach and whatever they drop (their environment, their
/// session, their process group).
///
/// Side effects on the calling process (both process-wide, both set on the
/// first run and left in place): the process becomes a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`), so that what a killed reaper leaves is
/// reparented to it rather than to init; and a `SIG_IGN` disposition of
/// SIGCHLD is reset to the default, since under it the kernel discards
/// children's exit statuses.
pub fn run(spec: &RunSpec, sink: &mut dyn OutputSink) -> Result<Finished, RunError> {
    tree::keep_child_statuses();
    tree::become_subreaper();
    let program = spec.program_name();
    let dir = match &spec.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|source| RunError::WouldNotStart {
            program: program.clone(),
            dir: PathBuf::from("."),
            source,
        })?,
    };
    let would_not_start = |source: io::Error| RunError::WouldNotStart {
        program: program.clone(),
        dir: dir.clone(),
        source,
    };
    let io_error = |source: io::Error| RunError::Io {
        program: program.clone(),
        source,
    };
    let token = run_token();
    let mut env = spec.env.resolve_for(std::env::vars_os(), &spec.toolchains);

    let mut notes = Vec::new();
    // The Landlock sandbox's temporary directory, removed once every
    // process of the run is gone.
    let mut _attempt_tmp: Option<AttemptTmp> = None;
    // The run's hold on its project's private caches: no eviction removes
    // them while it runs.
    let mut _cache_claim = None;
    // Under Landlock, the installed folders as they were before the run.
    let mut installed: Option<crate::installed::Recorded> = None;
    // Under Landlock without a network namespace, the run's loopback
    // supervisor ([`crate::loopback`]): stopped once the run is over.
    let mut loopback: Option<crate::loopback::Supervisor> = None;
    let (child, status_read) = match &spec.sandbox {
        Sandbox::Host => {
            let launch = Launch {
                program: &spec.program,
                args: &spec.args,
                dir: &dir,
                env: &env,
                pass_fds: &[],
                max_processes: None,
                confine: None,
            };
            (spawn::start(&launch).map_err(would_not_start)?, None)
        }
        Sandbox::Auto(options) => {
            let choice = crate::choose::choose_sandbox(options).map_err(|message| {
                RunError::SandboxRefused {
                    program: program.clone(),
                    message,
                }
            })?;
            let name = choice.sandbox.name();
            let mut finished = run(&spec.clone().sandbox(choice.sandbox), sink)?;
            finished
                .sandbox_notes
                .insert(0, format!("auto chose {name}: {}", choice.why));
            return Ok(finished);
        }
        Sandbox::Landlock(options) => {
            let (child, tmp, view_notes, claim, recorded, supervisor) =
                start_landlocked(spec, options, &dir, &mut env, &token)?;
            loopback = supervisor;
            notes = view_notes;
            _attempt_tmp = Some(tmp);
            _cache_claim = claim;
            installed = recorded;
            (child, None)
        }
        Sandbox::Bubblewrap(options) => {
            let refuse = |message: String| RunError::SandboxRefused {
                program: program.clone(),
                message,
            };
            // bwrap starts in `/`: every path it is given must be absolute.
            let dir = match dir.canonicalize() {
                Ok(dir) if dir.is_dir() => dir,
                Ok(_) => {
                    return Err(would_not_start(io::Error::new(
                        io::ErrorKind::NotADirectory,
                        "not a directory",
                    )));
                }
                Err(error) => return Err(would_not_start(error)),
            };
            let mut options = options.clone();
            for path in &mut options.writable {
                if let Ok(absolute) = std::path::absolute(&*path) {
                    *path = absolute;
                }
            }
            let Some(bwrap_path) = bwrap::find(&options.bwrap_dirs) else {
                return Err(refuse(format!(
                    "no executable bwrap in {}",
                    options
                        .bwrap_dirs
                        .iter()
                        .map(|d| d.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            // SAFETY: geteuid cannot fail.
            if options.max_processes.is_some() && unsafe { libc::geteuid() } == 0 {
                return Err(refuse(
                    "a cap on processes cannot be applied as root: the kernel exempts uid 0 from RLIMIT_NPROC"
                        .to_owned(),
                ));
            }
            let home = env
                .iter()
                .find(|(k, _)| k == "HOME")
                .map(|(_, v)| PathBuf::from(v));
            let mut secrets = home.as_deref().map(bwrap::secrets_in).unwrap_or_default();
            secrets.extend(
                options
                    .hidden_files
                    .iter()
                    .filter_map(|path| bwrap::hidden(path)),
            );
            let protected = protect::protected(&dir, spec.writes, &spec.toolchains);
            let homes = crate::env::home_directories();
            let cache_root = cache_root(&homes);
            let (cap, cap_note) = cache_cap();
            // SAFETY: geteuid cannot fail.
            let uid = unsafe { libc::geteuid() };
            let view = view::view(&view::Host {
                homes: &homes,
                env: &env,
                program: &spec.program,
                toolchains: &spec.toolchains,
                caches: spec.caches.as_deref(),
                tool_caches: &spec.tool_caches,
                dir: &dir,
                writable: &options.writable,
                cache_root: cache_root.as_deref(),
                uid,
                seed_cap: crate::seed::SEED_CAP,
                cache_cap: cap,
            });
            for (name, value) in &view.env {
                env.retain(|(k, _)| k != name);
                env.push((name.clone(), value.clone()));
            }
            if !options.allow_network {
                crate::env::stay_offline(&mut env, &spec.toolchains);
            }
            notes = view.notes.clone();
            notes.extend(cap_note);
            // /tmp is the attempt's own tmpfs.
            view::bytecode_in(&mut env, Path::new(BWRAP_BYTECODE), &mut notes);
            // The hold on the project's private caches lasts the run.
            _cache_claim = view.cache_claim.clone();
            let args = bwrap::arguments(
                &options,
                &dir,
                &secrets,
                &protected,
                &view,
                &spec.program,
                &spec.args,
            );
            let (read, write) = pipe().map_err(io_error)?;
            let seccomp = seccomp_pipe(options.allow_unix_sockets).map_err(io_error)?;
            let mut pass_fds = vec![write, seccomp];
            if view.git_config.is_some() {
                let safe = gitconfig::safe_directories(&dir, &protected.git);
                pass_fds.push(data_pipe(&gitconfig::contents(&safe)).map_err(io_error)?);
            }
            let launch = Launch {
                program: &bwrap_path.into_os_string(),
                args: &args,
                dir: Path::new("/"),
                env: &env,
                pass_fds: &pass_fds,
                max_processes: options.max_processes,
                confine: None,
            };
            let child =
                spawn::start(&launch).map_err(|e| refuse(format!("could not start bwrap: {e}")))?;
            // Our copies of the write end must go, or EOF never comes.
            drop(pass_fds);
            (child, Some(read))
        }
    };
    let mut watch = Watch::new(child, status_read).map_err(io_error)?;
    // Under Landlock without the network a command that could not have a
    // network namespace of its own has every connect refused: a flood of
    // refusals ends the run (bubblewrap always gives it its own loopback).
    if let Sandbox::Landlock(options) = &spec.sandbox
        && !options.allow_network
    {
        let mut refusals = crate::refused::Refusals::default();
        if let Some(supervisor) = &loopback {
            refusals.count_the_kernels(std::sync::Arc::clone(&supervisor.refused));
        }
        watch.refusals = Some(refusals);
    }
    let started = Instant::now();
    let result = watch.watch(spec, sink);
    let finished_at = Instant::now();
    let (stop, leaked) = result.map_err(io_error)?;
    let status = watch.reap().map_err(io_error)?;
    drop(loopback);
    let duration = finished_at - started;
    // Every process of the run is gone: nothing writes there any more.
    let installed = installed
        .map(|recorded| recorded.compare())
        .unwrap_or_default();
    let ending = match stop {
        Some(Stop::TimedOut) => Ending::TimedOut,
        Some(Stop::Cancelled) => Ending::Cancelled,
        Some(Stop::NetworkRefused) => Ending::NetworkRefused,
        // A flood seen at the very end still says the same.
        _ if watch.refusals.as_ref().is_some_and(Refusals::is_flood) => Ending::NetworkRefused,
        Some(Stop::Leaked) | None => match &spec.sandbox {
            Sandbox::Host | Sandbox::Landlock(_) | Sandbox::Auto(_) => status,
            Sandbox::Bubblewrap(_) => match bwrap::exit_code(&watch.status) {
                Some(code) => Ending::Exited(code),
                None => {
                    let complaint = bwrap::complaint(&watch.tail).unwrap_or_else(|| {
                        format!("bwrap ended ({status:?}) before the command ran")
                    });
                    return Err(match bwrap::exec_failure(&complaint) {
                        Some(reason) => would_not_start(io::Error::new(
                            exec_error_kind(reason),
                            reason.to_owned(),
                        )),
                        None => RunError::SandboxRefused {
                            program,
                            message: complaint,
                        },
                    });
                }
            },
        },
    };
    Ok(Finished {
        ending,
        duration,
        leaked_processes: leaked,
        output_bytes: watch.output_bytes,
        sandbox_notes: notes,
        installed,
    })
}

/// Python's bytecode prefix under bubblewrap ([`view::bytecode_in`]): in
/// the attempt's own `/tmp`.
const BWRAP_BYTECODE: &str = "/tmp/testgate-bytecode";

/// A directory of the Landlock sandbox's attempt (its `TMPDIR`), removed
/// with what the command left in it when dropped.
struct AttemptTmp(PathBuf);

/// How many names of its project an attempt's temporary directory tries
/// before it takes one of its own: enough for a concurrent check of the
/// project or a directory a killed testgate left behind.
const PROJECT_TMP_NAMES: u64 = 4;

impl AttemptTmp {
    /// A new, empty directory, private to the user, under the runner's
    /// temporary directory (`base`). Named for the project (`dir`) where
    /// the name is free, so that the next attempt's `TMPDIR` is the same
    /// path: jest keys its transform cache on its `cacheDirectory`,
    /// `$TMPDIR/jest_<uid>`, and under a new path every attempt it
    /// transformed every file again. The name is only ever created, never
    /// taken over: one that exists (a concurrent check of the project, a
    /// directory left by a killed run, anything planted there) is passed
    /// over, and after [`PROJECT_TMP_NAMES`] of them the attempt's own
    /// `token` names it.
    fn new(base: &Path, dir: &Path, token: &str) -> io::Result<AttemptTmp> {
        use std::os::unix::fs::DirBuilderExt;
        let sum = view::path_sum(dir);
        let names = (0..PROJECT_TMP_NAMES)
            .map(|n| format!("testgate-{sum:016x}-{n}"))
            .chain(std::iter::once(format!("testgate-{token}")));
        let mut taken = None;
        for name in names {
            let path = base.join(name);
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => return Ok(AttemptTmp(path.canonicalize()?)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => taken = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(taken.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)))
    }
}

impl Drop for AttemptTmp {
    fn drop(&mut self) {
        // Links are removed, not followed.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A command started under Landlock: the child, the temporary directory to
/// remove after the run, the view's notes, the hold on the project's
/// private caches that lasts the run, and the installed folders as they
/// were before it started.
type Landlocked = (
    spawn::Started,
    AttemptTmp,
    Vec<String>,
    Option<std::sync::Arc<crate::evict::InUse>>,
    Option<crate::installed::Recorded>,
    Option<crate::loopback::Supervisor>,
);

/// Starts the command under Landlock ([`crate::landlocked`]): the view
/// bubblewrap would show turned into grants, the environment pointed at
/// the private caches and temporary directory, the child confined before
/// exec; the project writable whole, its installed folders recorded
/// ([`crate::installed`]) instead of shown read-only.
fn start_landlocked(
    spec: &RunSpec,
    options: &crate::spec::LandlockOptions,
    dir: &Path,
    env: &mut Vec<(std::ffi::OsString, std::ffi::OsString)>,
    token: &str,
) -> Result<Landlocked, RunError> {
    let program = spec.program_name();
    let refuse = |message: String| RunError::SandboxRefused {
        program: program.clone(),
        message,
    };
    let would_not_start = |source: io::Error| RunError::WouldNotStart {
        program: program.clone(),
        dir: dir.to_path_buf(),
        source,
    };
    let dir = match dir.canonicalize() {
        Ok(dir) if dir.is_dir() => dir,
        Ok(_) => {
            return Err(would_not_start(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            )));
        }
        Err(error) => return Err(would_not_start(error)),
    };
    let abi = crate::landlocked::kernel_abi().map_err(|why| refuse(format!("Landlock: {why}")))?;
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    if options.max_processes.is_some() && uid == 0 {
        return Err(refuse(
            "a cap on processes cannot be applied as root: the kernel exempts uid 0 from RLIMIT_NPROC"
                .to_owned(),
        ));
    }
    let writable: Vec<PathBuf> = options
        .writable
        .iter()
        .filter_map(|path| std::path::absolute(path).ok())
        .collect();
    let home = env
        .iter()
        .find(|(k, _)| k == "HOME")
        .map(|(_, v)| PathBuf::from(v));
    let homes = crate::env::home_directories();
    let cache_root = cache_root(&homes);
    let (cap, cap_note) = cache_cap();
    let view = view::view(&view::Host {
        homes: &homes,
        env,
        program: &spec.program,
        toolchains: &spec.toolchains,
        caches: spec.caches.as_deref(),
        tool_caches: &spec.tool_caches,
        dir: &dir,
        writable: &writable,
        cache_root: cache_root.as_deref(),
        uid,
        seed_cap: crate::seed::SEED_CAP,
        cache_cap: cap,
    });
    for (name, value) in &view.env {
        env.retain(|(k, _)| k != name);
        env.push((name.clone(), value.clone()));
    }
    if !options.allow_network {
        crate::env::stay_offline(env, &spec.toolchains);
    }
    let tmp = AttemptTmp::new(&std::env::temp_dir(), &dir, token)
        .map_err(|e| refuse(format!("no temporary directory for the attempt: {e}")))?;
    // No mounts: the private caches are used where they are, and jest's
    // `/tmp/jest_<uid>` is a link in the attempt's temporary directory.
    let cache_home = home.or_else(|| homes.first().cloned());
    let variables: Vec<(&str, PathBuf)> = cache_home
        .map(|home| {
            view::cache_variables(&spec.toolchains)
                .into_iter()
                .map(|(name, rel)| (name, home.join(rel)))
                .collect()
        })
        .unwrap_or_default();
    crate::landlocked::caches_in_place(env, &view.writable, &variables);
    // A build output left without a private folder (no cache root): in
    // the attempt's own directory, cold.
    for (_, value) in env.iter_mut() {
        if let Ok(rest) = Path::new(value).strip_prefix(view::BUILD_OUTPUT_PLACE) {
            *value = tmp.0.join("build").join(rest).into_os_string();
        }
    }
    for (host, inside) in &view.writable {
        if let Some(name) = inside.file_name()
            && inside.parent() == Some(Path::new("/tmp"))
        {
            let _ = std::os::unix::fs::symlink(host, tmp.0.join(name));
        }
    }
    let mut notes = view.notes;
    view::bytecode_in(env, &tmp.0.join("bytecode"), &mut notes);
    let git_config = tmp.0.join("gitconfig");
    let protected = protect::protected(&dir, spec.writes, &spec.toolchains);
    let safe = gitconfig::safe_directories(&dir, &protected.git);
    std::fs::write(&git_config, gitconfig::contents(&safe))
        .map_err(|e| refuse(format!("could not write {}: {e}", git_config.display())))?;
    for name in ["TMPDIR", "TEMP", "TMP", "GIT_CONFIG_GLOBAL"] {
        env.retain(|(k, _)| k != name);
    }
    for name in ["TMPDIR", "TEMP", "TMP"] {
        env.push((name.into(), tmp.0.clone().into_os_string()));
    }
    env.push(("GIT_CONFIG_GLOBAL".into(), git_config.into_os_string()));
    crate::toolchain::Toolchain::point_at_temporary(env, &spec.toolchains, &tmp.0);

    let shown: Vec<PathBuf> = view
        .read_only
        .iter()
        .map(|(host, _)| host.clone())
        .collect();
    let mut shown: Vec<PathBuf> = shown;
    let mut write: Vec<PathBuf> = vec![tmp.0.clone()];
    if protected.project_read_only {
        shown.push(dir.clone());
    } else {
        write.push(dir.clone());
    }
    write.extend(writable.iter().cloned());
    write.extend(view.writable.iter().map(|(host, _)| host.clone()));
    write.extend(protected.scratch.iter().cloned());
    let mut hidden = view.hidden_dirs.clone();
    hidden.extend(view.hidden_files.iter().cloned());
    let grants = crate::landlocked::grants(&hidden, &shown, &write);
    let ruleset = crate::landlocked::ruleset(&grants, options.allow_network).map_err(refuse)?;
    // Without the network, a ruleset that leaves it alone too, for a
    // command in a network namespace of its own (a private loopback).
    let private_network = if options.allow_network {
        None
    } else {
        Some(crate::landlocked::ruleset(&grants, true).map_err(refuse)?)
    };
    let mut confinement = crate::landlocked::Confinement::new(
        ruleset,
        private_network,
        options.allow_unix_sockets,
        options.allow_network,
        abi,
    );
    // Without a network namespace of its own the command's loopback is
    // supervised: it may connect to the ports it listens on itself.
    let supervisor = if !options.allow_network && abi >= crate::landlocked::TCP_RULES {
        let (ours, theirs) = crate::loopback::socket_pair()
            .map_err(|e| refuse(format!("the loopback's socket pair: {e}")))?;
        confinement.supervise_loopback(theirs);
        Some(
            crate::loopback::Supervisor::start(ours)
                .map_err(|e| refuse(format!("the loopback's supervisor: {e}")))?,
        )
    } else {
        None
    };
    let launch = Launch {
        program: &spec.program,
        args: &spec.args,
        dir: &dir,
        env,
        pass_fds: &[],
        max_processes: options.max_processes,
        confine: Some(&confinement),
    };
    // Recorded last, just before the command starts.
    let unwatched: Vec<PathBuf> = protected
        .scratch
        .iter()
        .chain(&protected.data_caches)
        .cloned()
        .collect();
    let (recorded, unwatched) = crate::installed::record(
        &dir,
        &protected.host_folders,
        &unwatched,
        crate::installed::Bounds::default(),
    );
    notes.extend(unwatched);
    let child = spawn::start(&launch).map_err(would_not_start)?;
    notes.extend(cap_note);
    let recorded = (!protected.host_folders.is_empty()).then_some(recorded);
    Ok((child, tmp, notes, view.cache_claim, recorded, supervisor))
}

/// Where testgate keeps the projects' private toolchain caches:
/// `$XDG_CACHE_HOME/testgate/sandbox` (when absolute), else
/// `<home>/.cache/testgate/sandbox` of the first home.
pub(crate) fn cache_root(homes: &[PathBuf]) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| homes.first().map(|home| home.join(".cache")))?;
    Some(base.join("testgate").join("sandbox"))
}

/// The cap on the private caches' root: [`crate::evict::CAP_VARIABLE`]'s
/// value, else [`crate::evict::DEFAULT_CAP`] (with a note when the value
/// is not a size).
fn cache_cap() -> (u64, Option<String>) {
    let default = crate::evict::DEFAULT_CAP;
    match std::env::var(crate::evict::CAP_VARIABLE) {
        Err(_) => (default, None),
        Ok(value) => match crate::evict::parse_cap(&value) {
            Some(cap) => (cap, None),
            None => (
                default,
                Some(format!(
                    "{}={value:?} is not a size (such as 8G or 500M): the private caches keep to {} MiB",
                    crate::evict::CAP_VARIABLE,
                    crate::seed::mib(default)
                )),
            ),
        },
    }
}

/// The io::ErrorKind for an exec failure reason as strerror words it.
fn exec_error_kind(reason: &str) -> io::ErrorKind {
    match reason {
        "No such file or directory" => io::ErrorKind::NotFound,
        "Permission denied" => io::ErrorKind::PermissionDenied,
        _ => io::ErrorKind::Other,
    }
}

/// A token unique to this run within this machine's uptime.
fn run_token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
        nanos
    )
}

/// A close-on-exec pipe: (read end, write end).
pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 writes two fds into the array we own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both fds were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pipe holding the seccomp filter, write end closed: its read end.
fn seccomp_pipe(allow_unix_sockets: bool) -> io::Result<OwnedFd> {
    // The filter (under 1 KiB) fits in the pipe's buffer.
    data_pipe(&crate::seccomp::filter_bytes(allow_unix_sockets))
}

/// A pipe holding `data`, write end closed: its read end. `data` must fit
/// in the pipe's buffer (64 KiB on Linux), or the write blocks: the
/// seccomp filter and the git configuration (two paths at most) do.
fn data_pipe(data: &[u8]) -> io::Result<OwnedFd> {
    let (read, write) = pipe()?;
    std::fs::File::from(write).write_all(data)?;
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempts_temporary_directory_is_the_same_path_the_next_time() {
        let base = tempfile::tempdir().unwrap();
        let first = AttemptTmp::new(base.path(), Path::new("/work/project"), "a").unwrap();
        let path = first.0.clone();
        std::fs::write(path.join("left-behind"), "x").unwrap();
        drop(first);
        let second = AttemptTmp::new(base.path(), Path::new("/work/project"), "b").unwrap();
        assert_eq!(second.0, path);
        assert!(std::fs::read_dir(&second.0).unwrap().next().is_none());
        let other = AttemptTmp::new(base.path(), Path::new("/work/other"), "c").unwrap();
        assert_ne!(other.0, path);
    }

    #[test]
    fn a_name_that_exists_is_passed_over_never_taken() {
        let base = tempfile::tempdir().unwrap();
        let planted = tempfile::tempdir().unwrap();
        std::fs::write(planted.path().join("jest_0"), "forged").unwrap();
        let dir = Path::new("/work/project");
        let sum = view::path_sum(dir);
        // A link to a directory of someone else's, a directory with
        // content, and a running check's own.
        std::os::unix::fs::symlink(
            planted.path(),
            base.path().join(format!("testgate-{sum:016x}-0")),
        )
        .unwrap();
        std::fs::create_dir(base.path().join(format!("testgate-{sum:016x}-1"))).unwrap();
        std::fs::write(
            base.path().join(format!("testgate-{sum:016x}-1/jest_0")),
            "forged",
        )
        .unwrap();
        let running = AttemptTmp::new(base.path(), dir, "a").unwrap();
        assert_eq!(
            running.0,
            base.path()
                .canonicalize()
                .unwrap()
                .join(format!("testgate-{sum:016x}-2"))
        );
        let next = AttemptTmp::new(base.path(), dir, "b").unwrap();
        assert_eq!(
            next.0.file_name().unwrap(),
            format!("testgate-{sum:016x}-3").as_str()
        );
        let last = AttemptTmp::new(base.path(), dir, "c").unwrap();
        assert_eq!(last.0.file_name().unwrap(), "testgate-c");
        for tmp in [&running, &next, &last] {
            assert!(std::fs::read_dir(&tmp.0).unwrap().next().is_none());
        }
        drop(running);
        assert_eq!(
            std::fs::read(planted.path().join("jest_0")).unwrap(),
            b"forged"
        );
    }
}
