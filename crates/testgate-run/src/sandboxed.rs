//! One run in a sandbox already chosen: the environment, the sandbox's
//! command line (bubblewrap) or ruleset (Landlock), the spawn, the watch
//! to the end, and what the ending means.

use std::ffi::OsString;
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::bwrap;
use crate::gitconfig;
use crate::host_view::{self, View};
use crate::outcome::{Ending, Finished, RunError};
use crate::poll::{Stop, Watch};
use crate::process_tree;
use crate::protect::{self, Protected};
use crate::refused::Refusals;
use crate::sink::OutputSink;
use crate::spawn::{self, Launch, pipe};
use crate::spec::{BwrapOptions, LandlockOptions, RunSpec};

/// The command's environment, resolved: every variable it gets.
type Env = Vec<(OsString, OsString)>;

/// The sandbox a run runs in, once [`crate::Sandbox::Auto`] has chosen
/// ([`crate::run`](fn@crate::run)).
#[derive(Clone, Copy)]
pub(crate) enum Chosen<'a> {
    /// No sandbox.
    Host,
    /// The Landlock ruleset ([`crate::landlocked`]).
    Landlock(&'a LandlockOptions),
    /// bubblewrap's command line ([`crate::bwrap`]).
    Bubblewrap(&'a BwrapOptions),
}

/// Runs `spec` in the `chosen` sandbox, handing its output to `sink`, and
/// returns once every process of the run is gone ([`fn@crate::run`] says what
/// it sets on the calling process).
pub(crate) fn run_in(
    spec: &RunSpec,
    chosen: Chosen<'_>,
    sink: &mut dyn OutputSink,
) -> Result<Finished, RunError> {
    process_tree::keep_child_statuses();
    process_tree::become_subreaper();
    let context = Context::of(spec)?;
    let token = run_token();
    let mut env = spec.env.resolve_for(std::env::vars_os(), &spec.toolchains);
    // What the run holds until every process of it is gone (dropped after
    // the watch): the Landlock sandbox's temporary directory, and the
    // hold on the project's private caches against eviction.
    let (launched, _holds) = match chosen {
        Chosen::Host => (start_on_host(spec, &context, &env)?, Holds::default()),
        Chosen::Landlock(options) => start_landlocked(spec, options, &context, &mut env, &token)?,
        Chosen::Bubblewrap(options) => start_in_bubblewrap(spec, options, &context, &mut env)?,
    };
    watch_to_end(spec, chosen, &context, launched, sink)
}

/// The run's program and directory, which its errors name.
pub(crate) struct Context {
    program: String,
    /// The directory as given (or the current one).
    dir: PathBuf,
}

impl Context {
    /// The context of `spec`'s run: its directory, else the current one.
    pub(crate) fn of(spec: &RunSpec) -> Result<Context, RunError> {
        let program = spec.program_name();
        let dir = match &spec.dir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().map_err(|source| RunError::WouldNotStart {
                program: program.clone(),
                dir: PathBuf::from("."),
                source,
            })?,
        };
        Ok(Context { program, dir })
    }

    fn would_not_start(&self, source: io::Error) -> RunError {
        RunError::WouldNotStart {
            program: self.program.clone(),
            dir: self.dir.clone(),
            source,
        }
    }

    fn io_error(&self, source: io::Error) -> RunError {
        RunError::Io {
            program: self.program.clone(),
            source,
        }
    }

    fn refuse(&self, message: String) -> RunError {
        RunError::SandboxRefused {
            program: self.program.clone(),
            message,
        }
    }

    /// The directory, absolute and canonical (a sandbox starts elsewhere:
    /// every path it is given must be absolute), which must be a directory.
    fn canonical_dir(&self) -> Result<PathBuf, RunError> {
        match self.dir.canonicalize() {
            Ok(dir) if dir.is_dir() => Ok(dir),
            Ok(_) => Err(self.would_not_start(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            ))),
            Err(error) => Err(self.would_not_start(error)),
        }
    }

    /// The refusal of a cap on processes as root.
    fn refuse_cap_as_root(&self, max_processes: Option<u32>, uid: u32) -> Result<(), RunError> {
        if max_processes.is_some() && uid == 0 {
            return Err(self.refuse(
                "a cap on processes cannot be applied as root: the kernel exempts uid 0 from RLIMIT_NPROC"
                    .to_owned(),
            ));
        }
        Ok(())
    }
}

/// A command started in its sandbox: the child, the read end of bwrap's
/// status, the sandbox's notes, and (under Landlock) the installed folders
/// as they were before it started.
struct Launched {
    child: spawn::Started,
    status_read: Option<OwnedFd>,
    notes: Vec<String>,
    installed: Option<crate::installed::Recorded>,
    /// Under Landlock without a network namespace, the run's loopback
    /// supervisor ([`crate::loopback`]): stopped once the run is over.
    loopback: Option<crate::loopback::Supervisor>,
}

/// What a run holds until every process of it is gone.
#[derive(Default)]
struct Holds {
    /// The Landlock sandbox's temporary directory, removed when dropped.
    _attempt_tmp: Option<AttemptTmp>,
    /// The run's hold on its project's private caches: no eviction
    /// removes them while it runs.
    _cache_claim: Option<Arc<crate::evict::InUse>>,
}

/// Starts the command with no sandbox.
fn start_on_host(spec: &RunSpec, context: &Context, env: &Env) -> Result<Launched, RunError> {
    let launch = Launch {
        program: &spec.program,
        args: &spec.args,
        dir: &context.dir,
        env,
        pass_fds: &[],
        max_processes: None,
        confine: None,
    };
    Ok(Launched {
        child: spawn::start(&launch).map_err(|e| context.would_not_start(e))?,
        status_read: None,
        notes: Vec::new(),
        installed: None,
        loopback: None,
    })
}

/// Starts the command under bubblewrap ([`crate::bwrap`]): the view of the
/// host, the secrets hidden, the protected paths, the seccomp filter and
/// the git configuration handed over as pipes.
fn start_in_bubblewrap(
    spec: &RunSpec,
    options: &BwrapOptions,
    context: &Context,
    env: &mut Env,
) -> Result<(Launched, Holds), RunError> {
    let dir = context.canonical_dir()?;
    let mut options = options.clone();
    for path in &mut options.writable {
        if let Ok(absolute) = std::path::absolute(&*path) {
            *path = absolute;
        }
    }
    let bwrap_path = find_bwrap(&options, context)?;
    // SAFETY: geteuid cannot fail.
    context.refuse_cap_as_root(options.max_processes, unsafe { libc::geteuid() })?;
    let secrets = secrets_of(env, &options);
    let protected = protect::protected(&dir, spec.writes, &spec.toolchains);
    let homes = crate::env::home_directories();
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    let (view, cap_note) = shown_view(spec, env, &homes, &dir, &options.writable, uid);
    if !options.allow_network {
        crate::env::stay_offline(env, &spec.toolchains);
    }
    let mut notes = view.notes.clone();
    notes.extend(cap_note);
    // /tmp is the attempt's own tmpfs.
    host_view::bytecode_in(env, Path::new(BWRAP_BYTECODE), &mut notes);
    // The hold on the project's private caches lasts the run.
    let holds = Holds {
        _attempt_tmp: None,
        _cache_claim: view.cache_claim.clone(),
    };
    let args = bwrap::arguments(
        &options,
        &dir,
        &secrets,
        &protected,
        &view,
        &spec.program,
        &spec.args,
    );
    let (read, write) = pipe().map_err(|e| context.io_error(e))?;
    let seccomp = seccomp_pipe(options.allow_unix_sockets).map_err(|e| context.io_error(e))?;
    let mut pass_fds = vec![write, seccomp];
    if view.git_config.is_some() {
        let safe = gitconfig::safe_directories(&dir, &protected.git);
        pass_fds.push(data_pipe(&gitconfig::contents(&safe)).map_err(|e| context.io_error(e))?);
    }
    let launch = Launch {
        program: &bwrap_path.into_os_string(),
        args: &args,
        dir: Path::new("/"),
        env,
        pass_fds: &pass_fds,
        max_processes: options.max_processes,
        confine: None,
    };
    let child =
        spawn::start(&launch).map_err(|e| context.refuse(format!("could not start bwrap: {e}")))?;
    // Our copies of the write end must go, or EOF never comes.
    drop(pass_fds);
    let launched = Launched {
        child,
        status_read: Some(read),
        notes,
        installed: None,
        loopback: None,
    };
    Ok((launched, holds))
}

/// The bwrap executable in the options' directories.
fn find_bwrap(options: &BwrapOptions, context: &Context) -> Result<PathBuf, RunError> {
    bwrap::find(&options.bwrap_dirs).ok_or_else(|| {
        context.refuse(format!(
            "no executable bwrap in {}",
            options
                .bwrap_dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// The files bubblewrap covers: the secrets in the command's home and the
/// files the options hide.
fn secrets_of(env: &Env, options: &BwrapOptions) -> Vec<(PathBuf, bool)> {
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
    secrets
}

/// The view of the host either sandbox shows ([`host_view::view`]), its
/// variables set in `env`; with the note on the private caches' cap.
fn shown_view(
    spec: &RunSpec,
    env: &mut Env,
    homes: &[PathBuf],
    dir: &Path,
    writable: &[PathBuf],
    uid: u32,
) -> (View, Option<String>) {
    let cache_root = cache_root(homes);
    let (cap, cap_note) = cache_cap();
    let view = host_view::view(&host_view::Host {
        homes,
        env,
        program: &spec.program,
        toolchains: &spec.toolchains,
        caches: spec.caches.as_deref(),
        tool_caches: &spec.tool_caches,
        dir,
        writable,
        cache_root: cache_root.as_deref(),
        uid,
        seed_cap: crate::seed::SEED_CAP,
        cache_cap: cap,
    });
    for (name, value) in &view.env {
        env.retain(|(k, _)| k != name);
        env.push((name.clone(), value.clone()));
    }
    (view, cap_note)
}

/// Watches the started command to its end and every process of the run
/// gone, and says how it ended.
fn watch_to_end(
    spec: &RunSpec,
    chosen: Chosen<'_>,
    context: &Context,
    launched: Launched,
    sink: &mut dyn OutputSink,
) -> Result<Finished, RunError> {
    let Launched {
        child,
        status_read,
        notes,
        installed,
        loopback,
    } = launched;
    let mut watch = Watch::new(child, status_read).map_err(|e| context.io_error(e))?;
    // Under Landlock without the network a command that could not have a
    // network namespace of its own has every connect refused: a flood of
    // refusals ends the run (bubblewrap always gives it its own loopback).
    if let Chosen::Landlock(options) = chosen
        && !options.allow_network
    {
        let mut refusals = Refusals::default();
        if let Some(supervisor) = &loopback {
            refusals.count_the_kernels(Arc::clone(&supervisor.refused));
        }
        watch.refusals = Some(refusals);
    }
    let started = Instant::now();
    let result = watch.watch(spec, sink);
    let finished_at = Instant::now();
    let (stop, leaked) = result.map_err(|e| context.io_error(e))?;
    let status = watch.reap().map_err(|e| context.io_error(e))?;
    drop(loopback);
    let duration = finished_at - started;
    // Every process of the run is gone: nothing writes there any more.
    let installed = installed
        .map(|recorded| recorded.compare())
        .unwrap_or_default();
    let ending = ending_of(stop, status, &watch, chosen, context)?;
    Ok(Finished {
        ending,
        duration,
        leaked_processes: leaked,
        output_bytes: watch.output_bytes,
        sandbox_notes: notes,
        installed,
    })
}

/// How the run ended: what stopped it, else the command's status (under
/// bubblewrap, the status bwrap reported of the command; bwrap's own end
/// before the command ran is an error).
fn ending_of(
    stop: Option<Stop>,
    status: Ending,
    watch: &Watch,
    chosen: Chosen<'_>,
    context: &Context,
) -> Result<Ending, RunError> {
    Ok(match stop {
        Some(Stop::TimedOut) => Ending::TimedOut,
        Some(Stop::Cancelled) => Ending::Cancelled,
        Some(Stop::NetworkRefused) => Ending::NetworkRefused,
        // A flood seen at the very end still says the same.
        _ if watch.refusals.as_ref().is_some_and(Refusals::is_flood) => Ending::NetworkRefused,
        Some(Stop::Leaked) | None => match chosen {
            Chosen::Host | Chosen::Landlock(_) => status,
            Chosen::Bubblewrap(_) => match bwrap::exit_code(&watch.status) {
                Some(code) => Ending::Exited(code),
                None => {
                    let complaint = bwrap::complaint(&watch.tail).unwrap_or_else(|| {
                        format!("bwrap ended ({status:?}) before the command ran")
                    });
                    return Err(match bwrap::exec_failure(&complaint) {
                        Some(reason) => context.would_not_start(io::Error::new(
                            exec_error_kind(reason),
                            reason.to_owned(),
                        )),
                        None => context.refuse(complaint),
                    });
                }
            },
        },
    })
}

/// Python's bytecode prefix under bubblewrap ([`host_view::bytecode_in`]): in
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
        let sum = host_view::path_sum(dir);
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

/// Starts the command under Landlock ([`crate::landlocked`]): the view
/// bubblewrap would show turned into grants, the environment pointed at
/// the private caches and temporary directory, the child confined before
/// exec; the project writable whole, its installed folders recorded
/// ([`crate::installed`]) instead of shown read-only.
fn start_landlocked(
    spec: &RunSpec,
    options: &LandlockOptions,
    context: &Context,
    env: &mut Env,
    token: &str,
) -> Result<(Launched, Holds), RunError> {
    let dir = context.canonical_dir()?;
    let abi = crate::landlocked::kernel_abi()
        .map_err(|why| context.refuse(format!("Landlock: {why}")))?;
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    context.refuse_cap_as_root(options.max_processes, uid)?;
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
    let (view, cap_note) = shown_view(spec, env, &homes, &dir, &writable, uid);
    if !options.allow_network {
        crate::env::stay_offline(env, &spec.toolchains);
    }
    let tmp = AttemptTmp::new(&std::env::temp_dir(), &dir, token)
        .map_err(|e| context.refuse(format!("no temporary directory for the attempt: {e}")))?;
    let cache_home = home.or_else(|| homes.first().cloned());
    let protected = protect::protected(&dir, spec.writes, &spec.toolchains);
    let mut notes = point_into_attempt(spec, env, &view, &tmp, cache_home)
        .and_then(|notes| write_git_config(env, &tmp, &dir, &protected).map(|()| notes))
        .map_err(|e| context.refuse(e))?;
    crate::toolchain::Toolchain::point_at_temporary(env, &spec.toolchains, &tmp.0);
    let mut confinement = confinement(options, abi, &view, &tmp, &dir, &writable, &protected)
        .map_err(|e| context.refuse(e))?;
    // Without a network namespace of its own the command's loopback is
    // supervised: it may connect to the ports it listens on itself.
    let loopback = if !options.allow_network && abi >= crate::landlocked::TCP_RULES {
        let (ours, theirs) = crate::loopback::socket_pair()
            .map_err(|e| context.refuse(format!("the loopback's socket pair: {e}")))?;
        confinement.supervise_loopback(theirs);
        Some(
            crate::loopback::Supervisor::start(ours)
                .map_err(|e| context.refuse(format!("the loopback's supervisor: {e}")))?,
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
    let (recorded, unwatched) = record_installed(&dir, &protected);
    notes.extend(unwatched);
    let child = spawn::start(&launch).map_err(|e| context.would_not_start(e))?;
    notes.extend(cap_note);
    let launched = Launched {
        child,
        status_read: None,
        notes,
        installed: recorded,
        loopback,
    };
    let holds = Holds {
        _attempt_tmp: Some(tmp),
        _cache_claim: view.cache_claim,
    };
    Ok((launched, holds))
}

/// Points the command's environment into the attempt's temporary directory
/// under Landlock: no mounts, so the private caches are used where they
/// are, a build output without a private folder goes to the attempt's own
/// directory (cold), jest's `/tmp/jest_<uid>` is a link in it, and so is
/// Python's bytecode. The view's notes, with the bytecode's.
fn point_into_attempt(
    spec: &RunSpec,
    env: &mut Env,
    view: &View,
    tmp: &AttemptTmp,
    cache_home: Option<PathBuf>,
) -> Result<Vec<String>, String> {
    let variables: Vec<(&str, PathBuf)> = cache_home
        .map(|home| {
            host_view::cache_variables(&spec.toolchains)
                .into_iter()
                .map(|(name, rel)| (name, home.join(rel)))
                .collect()
        })
        .unwrap_or_default();
    crate::landlocked::caches_in_place(env, &view.writable, &variables);
    for (_, value) in env.iter_mut() {
        if let Ok(rest) = Path::new(value).strip_prefix(host_view::BUILD_OUTPUT_PLACE) {
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
    let mut notes = view.notes.clone();
    host_view::bytecode_in(env, &tmp.0.join("bytecode"), &mut notes);
    Ok(notes)
}

/// Writes the sandbox's git configuration in the attempt's temporary
/// directory and points the command's `TMPDIR`, `TEMP`, `TMP` and
/// `GIT_CONFIG_GLOBAL` there.
fn write_git_config(
    env: &mut Env,
    tmp: &AttemptTmp,
    dir: &Path,
    protected: &Protected,
) -> Result<(), String> {
    let git_config = tmp.0.join("gitconfig");
    let safe = gitconfig::safe_directories(dir, &protected.git);
    std::fs::write(&git_config, gitconfig::contents(&safe))
        .map_err(|e| format!("could not write {}: {e}", git_config.display()))?;
    for name in ["TMPDIR", "TEMP", "TMP", "GIT_CONFIG_GLOBAL"] {
        env.retain(|(k, _)| k != name);
    }
    for name in ["TMPDIR", "TEMP", "TMP"] {
        env.push((name.into(), tmp.0.clone().into_os_string()));
    }
    env.push(("GIT_CONFIG_GLOBAL".into(), git_config.into_os_string()));
    Ok(())
}

/// The Landlock confinement of the run: the view's hidden, shown and
/// writable paths as grants, and (without the network) a second ruleset
/// that leaves the network alone, for a command in a network namespace of
/// its own (a private loopback).
fn confinement(
    options: &LandlockOptions,
    abi: i32,
    view: &View,
    tmp: &AttemptTmp,
    dir: &Path,
    writable: &[PathBuf],
    protected: &Protected,
) -> Result<crate::landlocked::Confinement, String> {
    let mut shown: Vec<PathBuf> = view
        .read_only
        .iter()
        .map(|(host, _)| host.clone())
        .collect();
    let mut write: Vec<PathBuf> = vec![tmp.0.clone()];
    if protected.project_read_only {
        shown.push(dir.to_path_buf());
    } else {
        write.push(dir.to_path_buf());
    }
    write.extend(writable.iter().cloned());
    write.extend(view.writable.iter().map(|(host, _)| host.clone()));
    write.extend(protected.scratch.iter().cloned());
    let mut hidden = view.hidden_dirs.clone();
    hidden.extend(view.hidden_files.iter().cloned());
    let grants = crate::landlocked::grants(&hidden, &shown, &write);
    let ruleset = crate::landlocked::ruleset(&grants, options.allow_network)?;
    let private_network = if options.allow_network {
        None
    } else {
        Some(crate::landlocked::ruleset(&grants, true)?)
    };
    Ok(crate::landlocked::Confinement::new(
        ruleset,
        private_network,
        options.allow_unix_sockets,
        options.allow_network,
        abi,
    ))
}

/// The project's installed folders as they are before the run (`None`
/// when it has none), and the notes on what is left out of the watch.
fn record_installed(
    dir: &Path,
    protected: &Protected,
) -> (Option<crate::installed::Recorded>, Vec<String>) {
    let unwatched: Vec<PathBuf> = protected
        .scratch
        .iter()
        .chain(&protected.data_caches)
        .cloned()
        .collect();
    let (recorded, unwatched) = crate::installed::record(
        dir,
        &protected.host_folders,
        &unwatched,
        crate::installed::Bounds::default(),
    );
    let recorded = (!protected.host_folders.is_empty()).then_some(recorded);
    (recorded, unwatched)
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
        let sum = host_view::path_sum(dir);
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
