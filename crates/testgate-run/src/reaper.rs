//! The run's reaper: the process std starts for a run, a child subreaper
//! whose only child is the command, so that every process of the run stays
//! its descendant; it reports the command's end, reaps the rest, and ends
//! what is left of the run if the runner dies first.
//!
//! It runs between fork and exec of the process std started and never
//! execs: every call here is a raw system call on memory of its own
//! (async-signal-safe), since the runner's other threads may have held
//! locks when it forked.

use std::ptr;

/// Serves the run as its reaper and never returns: reports the command's
/// pid on `report`, reaps every process that ends beneath it (the
/// command's wait status reported before the command is reaped, so that
/// its pid and process group stay its own until the runner knows), and
/// exits once none is left. If the `runner` (its parent) ends first —
/// killed with SIGKILL, say — it kills what is left of the run, level by
/// level as orphans are reparented to it, and exits.
///
/// Each step below is a function of raw values (fds, pids, a flag) on the
/// stack: no allocation, no lock, only the system calls it names.
pub(crate) fn reap(command: libc::pid_t, report: libc::c_int, runner: libc::pid_t) -> ! {
    ignore_terminal_signals();
    // Only the report stays open: the command's output pipes and std's
    // exec-error pipe must close when the command's side closes them.
    close_all_but(report);
    write_all(report, &command.to_ne_bytes());
    let watched = watch_the_runner(runner);
    let children = child_ends();
    let mut reported = false;
    loop {
        reap_the_ended(command, report, &mut reported);
        wait_for_an_end(children, watched);
    }
}

/// Only the runner ends the reaper: a terminal's or a command's SIGTERM,
/// SIGINT or SIGHUP is not for it (set in the reaper, after the clone, so
/// that the command does not inherit the dispositions).
fn ignore_terminal_signals() {
    for signal in [
        libc::SIGTERM,
        libc::SIGINT,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGPIPE,
    ] {
        // SAFETY: a disposition of our own process.
        unsafe { libc::signal(signal, libc::SIG_IGN) };
    }
}

/// The runner's end, as a pidfd (-1 when the kernel has none), rather than
/// the SIGKILL of PR_SET_PDEATHSIG: the reaper outlives it long enough to
/// end the run. Opened, then the parent checked, so that the pidfd is the
/// `runner`'s and not a process that took its pid; ends the run if the
/// runner is gone already.
fn watch_the_runner(runner: libc::pid_t) -> libc::c_int {
    // SAFETY: pidfd_open, getppid and prctl on our own process.
    unsafe {
        let watched = libc::syscall(libc::SYS_pidfd_open, runner, 0) as libc::c_int;
        if watched >= 0 {
            if libc::getppid() != runner {
                end_the_run();
            }
            libc::prctl(libc::PR_SET_PDEATHSIG, 0);
        }
        watched
    }
}

/// SIGCHLD blocked and delivered through a signalfd, to be polled with the
/// runner's pidfd (-1 when the kernel gives none).
fn child_ends() -> libc::c_int {
    // SAFETY: a signal set on our stack; our own signal mask and a new fd.
    unsafe {
        let mut chld: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut chld);
        libc::sigaddset(&mut chld, libc::SIGCHLD);
        libc::sigprocmask(libc::SIG_BLOCK, &chld, ptr::null_mut());
        libc::signalfd(-1, &chld, libc::SFD_CLOEXEC | libc::SFD_NONBLOCK)
    }
}

/// Reaps every process of the run that has ended, the `command`'s wait
/// status written to `report` first (once: `reported`); exits when none is
/// left.
fn reap_the_ended(command: libc::pid_t, report: libc::c_int, reported: &mut bool) {
    loop {
        // SAFETY: waitid into a siginfo on our stack, waitpid of our own
        // child with a null status; _exit ends the process.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOWAIT | libc::WNOHANG;
            if libc::waitid(libc::P_ALL, 0, &mut info, flags) != 0 {
                if errno() == libc::EINTR {
                    continue;
                }
                // ECHILD: nothing of the run is left.
                libc::_exit(0);
            }
            let pid = info.si_pid();
            if pid == 0 {
                return;
            }
            if pid == command && !*reported {
                write_all(report, &wait_status(&info).to_ne_bytes());
                *reported = true;
            }
            libc::waitpid(pid, ptr::null_mut(), 0);
        }
    }
}

/// Waits until a process of the run ends (`children`, the signalfd) or the
/// runner does (`watched`, its pidfd; the run is then ended). Without a
/// signalfd, blocks in waitid until the next end.
fn wait_for_an_end(children: libc::c_int, watched: libc::c_int) {
    // SAFETY: waitid into a siginfo on our stack; poll and read of our own
    // fds into arrays on our stack.
    unsafe {
        if children < 0 {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(libc::P_ALL, 0, &mut info, libc::WEXITED | libc::WNOWAIT);
            return;
        }
        let mut fds = [
            libc::pollfd {
                fd: children,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: watched,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let count = if watched >= 0 { 2 } else { 1 };
        if libc::poll(fds.as_mut_ptr(), count, -1) <= 0 {
            return;
        }
        if fds[1].revents != 0 {
            end_the_run();
        }
        let mut drained = [0u8; 128 * 4];
        while libc::read(children, drained.as_mut_ptr().cast(), drained.len()) > 0 {}
    }
}

/// The runner is gone: kills every child, reaps one, and again, until none
/// is left (a killed child's children are reparented here, and killed in
/// the next round), then exits. Never returns.
fn end_the_run() -> ! {
    loop {
        kill_children();
        // SAFETY: waits for any child of ours; null status.
        let reaped = unsafe { libc::waitpid(-1, ptr::null_mut(), 0) };
        if reaped < 0 && errno() != libc::EINTR {
            // ECHILD: nothing of the run is left.
            // SAFETY: ends the process.
            unsafe { libc::_exit(1) };
        }
    }
}

/// SIGKILLs every child of the reaper, as `/proc/thread-self/children`
/// lists them (the reaper has one thread).
fn kill_children() {
    // SAFETY: open, read and close of our own fd into a stack buffer; kill
    // of pids the kernel lists as our children.
    unsafe {
        let fd = libc::open(
            c"/proc/thread-self/children".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return;
        }
        let mut buffer = [0u8; 4096];
        let mut pid: libc::pid_t = 0;
        loop {
            let n = libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len());
            if n <= 0 {
                break;
            }
            for &byte in &buffer[..n as usize] {
                if byte.is_ascii_digit() {
                    pid = pid
                        .wrapping_mul(10)
                        .wrapping_add(libc::pid_t::from(byte - b'0'));
                } else if pid > 0 {
                    libc::kill(pid, libc::SIGKILL);
                    pid = 0;
                }
            }
        }
        if pid > 0 {
            libc::kill(pid, libc::SIGKILL);
        }
        libc::close(fd);
    }
}

/// The calling thread's errno.
fn errno() -> libc::c_int {
    // SAFETY: errno is thread-local and always readable.
    unsafe { *libc::__errno_location() }
}

/// The `wait(2)` status of an exited child from its `waitid` siginfo.
///
/// # Safety
/// `info` must have been filled by a successful `waitid` with `WEXITED`.
unsafe fn wait_status(info: &libc::siginfo_t) -> libc::c_int {
    // SAFETY: the caller's waitid filled the child fields.
    let status = unsafe { info.si_status() };
    match info.si_code {
        libc::CLD_EXITED => (status & 0xff) << 8,
        libc::CLD_DUMPED => (status & 0x7f) | 0x80,
        _ => status & 0x7f,
    }
}

/// Writes `bytes` (at most `PIPE_BUF`: one atomic write) to `fd`, retrying
/// on EINTR. Async-signal-safe.
fn write_all(fd: libc::c_int, bytes: &[u8]) {
    loop {
        // SAFETY: writes from a slice we borrow.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n >= 0 || errno() != libc::EINTR {
            return;
        }
    }
}

/// Closes every fd of the calling process but `keep`. Async-signal-safe.
fn close_all_but(keep: libc::c_int) {
    // SAFETY: close_range and close on our own descriptors.
    unsafe {
        let below = if keep > 0 {
            libc::syscall(
                libc::SYS_close_range,
                0u32,
                (keep - 1) as libc::c_uint,
                0u32,
            )
        } else {
            0
        };
        let above = libc::syscall(
            libc::SYS_close_range,
            (keep + 1) as libc::c_uint,
            libc::c_uint::MAX,
            0u32,
        );
        if below != 0 || above != 0 {
            // Kernels before 5.9: every fd up to the soft limit.
            let mut limit: libc::rlimit = std::mem::zeroed();
            let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
                limit.rlim_cur.min(65_536) as libc::c_int
            } else {
                1024
            };
            for fd in (0..max).filter(|fd| *fd != keep) {
                libc::close(fd);
            }
        }
    }
}
