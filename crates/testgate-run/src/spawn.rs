//! The one place that starts a child process: the run's reaper
//! ([`crate::reaper`]) and, beneath it, the command.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Stdio};

/// Everything the one constructor needs to start a process.
pub(crate) struct Launch<'a> {
    pub(crate) program: &'a OsString,
    pub(crate) args: &'a [OsString],
    pub(crate) dir: &'a Path,
    /// The complete environment: the process gets this and nothing else.
    pub(crate) env: &'a [(OsString, OsString)],
    /// Fds handed to the child as 3, 4, ... (bwrap's `--json-status-fd`,
    /// `--seccomp`), in order.
    pub(crate) pass_fds: &'a [OwnedFd],
    /// RLIMIT_NPROC for the child.
    pub(crate) max_processes: Option<u32>,
    /// The Landlock sandbox, applied last before exec. With it `pass_fds`
    /// must be empty: the ruleset's fd could sit where they are put.
    pub(crate) confine: Option<&'a crate::landlocked::Confinement>,
}

/// A started command: the run's reaper and what it reports.
pub(crate) struct Started {
    /// The process std started: the run's reaper, a child subreaper whose
    /// only child is the command. Every process the command starts stays
    /// its descendant (an orphan is reparented to the nearest subreaper),
    /// whatever the process detaches from or drops; it reaps them all and
    /// exits once the last is gone. It holds the command's stdout and
    /// stderr (`Child::stdout`, `Child::stderr`).
    pub(crate) reaper: Child,
    /// The read end of the reaper's report: the command's pid (4 bytes,
    /// native order) at once, then its wait status (4 bytes) when it ends,
    /// written before it is reaped. End of file without a status: the
    /// reaper died.
    pub(crate) report: OwnedFd,
}

/// Starts a child: the run's reaper ([`Started::reaper`]) and under it the
/// command, in a process group of its own (not the reaper's), stdin from
/// /dev/null, stdout and stderr piped, a cleared environment holding only
/// `env`, no inherited fd but 0, 1, 2 (and 3, 4, ... = `pass_fds`). If the
/// runner dies, the reaper ends the run ([`crate::reaper::reap`]).
pub(crate) fn start(launch: &Launch<'_>) -> io::Result<Started> {
    let (report, report_write) = pipe()?;
    // Above the command's fds, so no dup2 onto 3, 4, ... can land on it.
    let report_write = report_write.try_clone_to_owned_at_least(10)?;
    let report_fd = report_write.as_raw_fd();
    // Copies at 10 and up, so that dup2 onto 3, 4, ... in the child cannot
    // overwrite a source that happens to sit there.
    let high: Vec<OwnedFd> = launch
        .pass_fds
        .iter()
        .map(|fd| fd.try_clone_to_owned_at_least(10))
        .collect::<io::Result<_>>()?;
    let sources: Vec<libc::c_int> = high.iter().map(AsRawFd::as_raw_fd).collect();
    let mut command = command_of(launch);
    let max_processes = launch.max_processes;
    let confine = launch.confine.map(crate::landlocked::Confinement::in_child);
    // SAFETY: getpid is async-signal-safe and called before fork.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs between fork and exec and only makes
    // async-signal-safe calls (prctl, getpid, getppid, a raw clone, dup2,
    // setpgid, syscall, setrlimit; the reaper's and the confinement's
    // system calls), each step in the child as it requires.
    unsafe {
        command.pre_exec(move || {
            let reaper = split_off_the_command(parent, report_fd)?;
            enter_a_group_of_its_own(reaper)?;
            hand_over_fds(&sources)?;
            limit_processes(max_processes)?;
            if let Some(confine) = &confine {
                confine.apply()?;
            }
            Ok(())
        });
    }
    let child = command.spawn();
    drop(high);
    drop(report_write);
    Ok(Started {
        reaper: child?,
        report,
    })
}

/// The std command for `launch`: its program, arguments and directory, a
/// cleared environment holding only `env`, stdin from /dev/null, stdout
/// and stderr piped, a process group of its own.
fn command_of(launch: &Launch<'_>) -> std::process::Command {
    #[expect(
        clippy::disallowed_methods,
        reason = "the one constructor of child processes: applies the environment policy, process group and fd hygiene"
    )]
    let mut command = std::process::Command::new(launch.program);
    command
        .args(launch.args)
        .current_dir(launch.dir)
        .env_clear()
        .envs(launch.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    command
}

/// The child's first step: it dies with the spawning thread (or stops if
/// the runner, `parent`, is gone already), becomes a child subreaper and
/// clones the command; the clone's parent serves the run as its reaper,
/// reporting on `report_fd`, and never returns. Returns, in the command,
/// the reaper's pid.
///
/// # Safety
/// Only in the child between fork and exec: async-signal-safe calls only.
unsafe fn split_off_the_command(
    parent: libc::pid_t,
    report_fd: libc::c_int,
) -> io::Result<libc::pid_t> {
    // SAFETY: prctl, getppid, getpid, a raw clone and _exit, between fork
    // and exec as the caller promises.
    unsafe {
        // Die with the spawning thread; if the runner died already, stop.
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::getppid() != parent {
            libc::_exit(1);
        }
        // This process becomes the run's reaper; its child goes on to
        // become the command. A raw clone, not fork(3): the C library's
        // fork handlers take locks another thread of the runner may
        // have held when it forked.
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        let reaper = libc::getpid();
        let command = libc::syscall(libc::SYS_clone, libc::SIGCHLD, 0, 0, 0, 0);
        if command < 0 {
            return Err(io::Error::last_os_error());
        }
        if command > 0 {
            crate::reaper::reap(command as libc::pid_t, report_fd, parent);
        }
        Ok(reaper)
    }
}

/// The command dies with its `reaper` (or stops if it is gone already)
/// and leaves the reaper's process group for one of its own.
///
/// # Safety
/// Only in the child between fork and exec: async-signal-safe calls only.
unsafe fn enter_a_group_of_its_own(reaper: libc::pid_t) -> io::Result<()> {
    // SAFETY: prctl, getppid, _exit and setpgid, between fork and exec as
    // the caller promises.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::getppid() != reaper {
            libc::_exit(1);
        }
        // A group of its own: a signal to the command's group (at the
        // timeout, on cancel) never reaches the reaper.
        if libc::setpgid(0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Puts `sources` at 3, 4, ... for the command and marks every other
/// inherited fd above them close-on-exec.
///
/// # Safety
/// Only in the child between fork and exec: async-signal-safe calls only.
unsafe fn hand_over_fds(sources: &[libc::c_int]) -> io::Result<()> {
    let mut first_closed = 3;
    for source in sources {
        // dup2 clears close-on-exec on the target, so it survives exec.
        // SAFETY: dup2 between fork and exec, as the caller promises.
        if unsafe { libc::dup2(*source, first_closed) } < 0 {
            return Err(io::Error::last_os_error());
        }
        first_closed += 1;
    }
    // Mark every other inherited fd close-on-exec rather than closing
    // it: std's own exec-error pipe must stay usable until exec.
    // SAFETY: close_range between fork and exec, as the caller promises.
    let marked = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first_closed as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC as libc::c_uint,
        )
    };
    if marked != 0 {
        mark_cloexec_by_hand(first_closed);
    }
    Ok(())
}

/// RLIMIT_NPROC at `max` for the command, when there is one.
///
/// # Safety
/// Only in the child between fork and exec: async-signal-safe calls only.
unsafe fn limit_processes(max: Option<u32>) -> io::Result<()> {
    if let Some(max) = max {
        let limit = libc::rlimit {
            rlim_cur: libc::rlim_t::from(max),
            rlim_max: libc::rlim_t::from(max),
        };
        // SAFETY: setrlimit from a struct we own, between fork and exec as
        // the caller promises.
        if unsafe { libc::setrlimit(libc::RLIMIT_NPROC, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// `try_clone_to_owned`, at fd `min` or above, close-on-exec.
trait CloneAtLeast {
    fn try_clone_to_owned_at_least(&self, min: libc::c_int) -> io::Result<OwnedFd>;
}

impl CloneAtLeast for OwnedFd {
    fn try_clone_to_owned_at_least(&self, min: libc::c_int) -> io::Result<OwnedFd> {
        // SAFETY: F_DUPFD_CLOEXEC returns a fresh fd (or -1) that we own.
        let fd = unsafe { libc::fcntl(self.as_raw_fd(), libc::F_DUPFD_CLOEXEC, min) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: fd was just created and is owned by nobody else.
        Ok(unsafe { std::os::fd::FromRawFd::from_raw_fd(fd) })
    }
}

/// Fallback for kernels without `close_range` (before 5.11): fcntl on every
/// fd up to the soft limit. Async-signal-safe.
fn mark_cloexec_by_hand(first: libc::c_int) {
    // SAFETY: getrlimit and fcntl are async-signal-safe; fcntl on a closed fd
    // fails harmlessly with EBADF.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur.min(65_536) as libc::c_int
        } else {
            1024
        };
        for fd in first..max {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
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
