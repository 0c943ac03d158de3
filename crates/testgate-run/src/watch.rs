//! The poll loop of one run: output, the child's exit, deadline, cancel.

use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::process::Child;
use std::time::{Duration, Instant};

use crate::outcome::Ending;
use crate::runner::OutputSink;
use crate::spec::RunSpec;
use crate::tree::Tree;

/// How often members of the tree are looked up while the command runs, so
/// a descendant that detaches and clears its environment is still known.
const SCAN_EVERY: Duration = Duration::from_millis(200);
/// How often the cancel flag is looked at.
const CANCEL_EVERY: Duration = Duration::from_millis(100);
/// How long after SIGKILL we keep reading pipes that something unknown
/// still holds open.
const AFTER_KILL: Duration = Duration::from_secs(1);
/// The stderr tail kept to quote bwrap's own complaint.
const TAIL: usize = 4096;
/// stdout and stderr are merged line by line: a stream's unfinished line
/// waits for its newline, so the other stream's lines never land inside
/// it (libtest writes `test result: ok` and `. 1 passed; …` in two writes,
/// and cargo's `Running …` on stderr came between them). An unfinished
/// line is handed on after this long, or once it is this big.
const PARTIAL_WAIT: Duration = Duration::from_millis(200);
const PARTIAL_MAX: usize = 64 * 1024;

/// Why the runner started ending the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    TimedOut,
    Cancelled,
    /// The command exited but something still held its output open.
    Leaked,
}

/// A pidfd for `pid`, readable once it exits; None on kernels before 5.3.
fn pidfd_open(pid: u32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    // SAFETY: a non-negative return is a fresh fd we own.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Whether the unreaped child `pid` has exited (it stays a zombie).
fn has_exited(pid: u32) -> bool {
    // SAFETY: waitid writes into a zeroed siginfo we own; WNOWAIT leaves the
    // child unreaped so its pid and process group cannot be reused.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        rc == 0 && info.si_pid() != 0
            || rc != 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD)
    }
}

/// The state of one running command.
pub(crate) struct Watch {
    child: Child,
    tree: Tree,
    /// stdout, stderr, bwrap's status pipe; None once at end of file.
    pipes: [Option<OwnedFd>; 3],
    pidfd: Option<OwnedFd>,
    /// A pidfd for bwrap's `init` in the run's PID namespace
    /// ([`crate::bwrap::child_pid`]), taken while it is still bwrap's child:
    /// reparented to the runner once bwrap exits, it is reaped by
    /// [`Watch::reap`], never left a zombie of a long-lived caller.
    sandbox_init: Option<OwnedFd>,
    /// bwrap's `--json-status-fd` report (small; capped).
    pub(crate) status: Vec<u8>,
    /// The last bytes of stderr, for bwrap's complaint.
    pub(crate) tail: Vec<u8>,
    pub(crate) output_bytes: u64,
    buffer: Box<[u8]>,
    /// stdout's and stderr's unfinished last line, and since when it waits.
    partial: [(Vec<u8>, Option<Instant>); 2],
}

impl Watch {
    pub(crate) fn new(mut child: Child, status: Option<OwnedFd>, token: &str) -> io::Result<Watch> {
        let stdout = child.stdout.take().map(OwnedFd::from);
        let stderr = child.stderr.take().map(OwnedFd::from);
        let tree = Tree::new(child.id(), token);
        let pidfd = pidfd_open(child.id());
        Ok(Watch {
            child,
            tree,
            pipes: [stdout, stderr, status],
            pidfd,
            sandbox_init: None,
            status: Vec::new(),
            tail: Vec::new(),
            output_bytes: 0,
            buffer: vec![0; 64 * 1024].into_boxed_slice(),
            partial: [(Vec::new(), None), (Vec::new(), None)],
        })
    }

    /// Streams output until the command has exited and its pipes are shut
    /// (or abandoned), ending the tree on deadline, cancel or leak. Returns
    /// why the runner stopped the tree, and whether leftovers were ended.
    pub(crate) fn watch(
        &mut self,
        spec: &RunSpec,
        sink: &mut dyn OutputSink,
    ) -> io::Result<(Option<Stop>, bool)> {
        let start = Instant::now();
        let deadline = spec.timeout.map(|t| start + t);
        let mut exited_at: Option<Instant> = None;
        let mut stop: Option<Stop> = None;
        let mut sigkill_at: Option<Instant> = None;
        let mut killed_at: Option<Instant> = None;
        let mut next_scan = start + SCAN_EVERY;
        loop {
            let now = Instant::now();
            if exited_at.is_none()
                && (self.pidfd.is_none() || now >= next_scan)
                && has_exited(self.child.id())
            {
                exited_at = Some(now);
            }
            if stop.is_none() {
                let pipes_open = self.pipes[0].is_some() || self.pipes[1].is_some();
                stop = if spec.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
                    Some(Stop::Cancelled)
                } else if exited_at.is_none() && deadline.is_some_and(|d| now >= d) {
                    Some(Stop::TimedOut)
                } else if pipes_open && exited_at.is_some_and(|t| now >= t + spec.drain) {
                    Some(Stop::Leaked)
                } else {
                    None
                };
                if stop.is_some() {
                    self.tree.signal(libc::SIGTERM);
                    sigkill_at = Some(now + spec.grace);
                }
            }
            if killed_at.is_none() && sigkill_at.is_some_and(|t| now >= t) {
                self.tree.signal(libc::SIGKILL);
                self.tree.kill_others();
                killed_at = Some(now);
            }
            let pipes_open = self.pipes.iter().any(Option::is_some);
            if exited_at.is_some()
                && (!pipes_open || killed_at.is_some_and(|t| now >= t + AFTER_KILL))
            {
                break;
            }
            if now >= next_scan {
                self.tree.others();
                next_scan = now + SCAN_EVERY;
            }
            let mut wake = [
                Some(next_scan),
                Some(now + CANCEL_EVERY),
                deadline.filter(|_| exited_at.is_none()),
                sigkill_at.filter(|_| killed_at.is_none()),
                exited_at.map(|t| t + spec.drain),
                killed_at.map(|t| t + AFTER_KILL),
                self.partial[0].1.map(|t| t + PARTIAL_WAIT),
                self.partial[1].1.map(|t| t + PARTIAL_WAIT),
            ]
            .into_iter()
            .flatten()
            .filter(|t| *t > now)
            .min()
            .map_or(Duration::ZERO, |t| t - now);
            if self.pidfd.is_none() && exited_at.is_none() {
                // No pidfd: look at the child often instead.
                wake = wake.min(Duration::from_millis(20));
            }
            self.poll_once(wake, &mut exited_at, sink)?;
            self.flush_partials(Some(Instant::now()), sink);
        }
        self.flush_partials(None, sink);
        let leaked = match stop {
            Some(Stop::Leaked) => true,
            Some(Stop::TimedOut | Stop::Cancelled) => {
                self.tree.kill_others();
                false
            }
            None => self.tree.end_others(),
        };
        Ok((stop, leaked))
    }

    /// One poll over the pipes and the pidfd, handing output to the sink.
    fn poll_once(
        &mut self,
        wait: Duration,
        exited_at: &mut Option<Instant>,
        sink: &mut dyn OutputSink,
    ) -> io::Result<()> {
        let mut fds: Vec<libc::pollfd> = Vec::with_capacity(4);
        let mut which: Vec<usize> = Vec::with_capacity(4);
        for (i, pipe) in self.pipes.iter().enumerate() {
            if let Some(fd) = pipe {
                fds.push(pollfd(fd.as_raw_fd()));
                which.push(i);
            }
        }
        if exited_at.is_none() {
            if let Some(pidfd) = &self.pidfd {
                fds.push(pollfd(pidfd.as_fd().as_raw_fd()));
                which.push(usize::MAX);
            }
        }
        let millis = wait.as_millis().min(i32::MAX as u128) as libc::c_int;
        // Round up so a sub-millisecond wait does not spin.
        let millis = if wait > Duration::ZERO {
            millis.max(1)
        } else {
            0
        };
        // SAFETY: fds is a valid array of pollfd of the given length.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            return if error.kind() == io::ErrorKind::Interrupted {
                Ok(())
            } else {
                Err(error)
            };
        }
        for (pfd, i) in fds.iter().zip(which) {
            if pfd.revents == 0 {
                continue;
            }
            if i == usize::MAX {
                *exited_at = Some(Instant::now());
                continue;
            }
            self.read_pipe(i, sink)?;
        }
        Ok(())
    }

    /// Reads one chunk from pipe `i`; closes it at end of file.
    fn read_pipe(&mut self, i: usize, sink: &mut dyn OutputSink) -> io::Result<()> {
        let Some(fd) = &self.pipes[i] else {
            return Ok(());
        };
        // SAFETY: reads into our own buffer, at most its length.
        let n = unsafe {
            libc::read(
                fd.as_raw_fd(),
                self.buffer.as_mut_ptr().cast(),
                self.buffer.len(),
            )
        };
        if n < 0 {
            let error = io::Error::last_os_error();
            let retry = matches!(
                error.kind(),
                io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
            );
            return if retry { Ok(()) } else { Err(error) };
        }
        let chunk = &self.buffer[..n as usize];
        if chunk.is_empty() {
            self.pipes[i] = None;
            if let Some((line, since)) = self.partial.get_mut(i) {
                if !line.is_empty() {
                    sink.output(line);
                }
                line.clear();
                *since = None;
            }
            return Ok(());
        }
        match i {
            2 => {
                // bwrap's status report: a few hundred bytes; cap it anyway.
                if self.status.len() < 64 * 1024 {
                    self.status.extend_from_slice(chunk);
                }
                if self.sandbox_init.is_none() {
                    self.sandbox_init = crate::bwrap::child_pid(&self.status)
                        .and_then(|pid| adopt_sandbox_init(pid, self.child.id()));
                }
            }
            _ => {
                if i == 1 {
                    keep_tail(&mut self.tail, chunk);
                }
                self.output_bytes += chunk.len() as u64;
                let Some((line, since)) = self.partial.get_mut(i) else {
                    return Ok(());
                };
                match chunk.iter().rposition(|b| *b == b'\n') {
                    Some(end) => {
                        if !line.is_empty() {
                            sink.output(line);
                            line.clear();
                        }
                        sink.output(&chunk[..=end]);
                        line.extend_from_slice(&chunk[end + 1..]);
                    }
                    None => line.extend_from_slice(chunk),
                }
                if line.len() >= PARTIAL_MAX {
                    sink.output(line);
                    line.clear();
                }
                *since = if line.is_empty() {
                    None
                } else {
                    since.or(Some(Instant::now()))
                };
            }
        }
        Ok(())
    }

    /// Hands on the unfinished lines that waited [`PARTIAL_WAIT`] by `now`
    /// (all of them when `now` is `None`: the run is over).
    fn flush_partials(&mut self, now: Option<Instant>, sink: &mut dyn OutputSink) {
        for (line, since) in &mut self.partial {
            let due = match (now, *since) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(now), Some(t)) => now >= t + PARTIAL_WAIT,
            };
            if due {
                sink.output(line);
                line.clear();
                *since = None;
            }
        }
    }

    /// Reaps the started process (it has exited or been SIGKILLed).
    pub(crate) fn reap(&mut self) -> io::Result<Ending> {
        let status = self.child.wait()?;
        if let Some(init) = self.sandbox_init.take() {
            reap_sandbox_init(&init);
        }
        use std::os::unix::process::ExitStatusExt;
        Ok(match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signalled(signal),
            (None, None) => Ending::Exited(-1),
        })
    }
}

/// How long bwrap's `init` may take to end after bwrap did: it is killed
/// with it (`--die-with-parent`), so at once in practice.
const INIT_ENDS: Duration = Duration::from_secs(5);

/// A pidfd for `pid`, bwrap's `init`, when `pid` is the child of bwrap
/// (`root`, unreaped, so its pid is not reused) or already reparented to
/// the runner as the first process of a PID namespace: either way the
/// pidfd names the sandbox's `init`, whose exit status nobody reads.
fn adopt_sandbox_init(pid: i32, root: u32) -> Option<OwnedFd> {
    let pidfd = pidfd_open(u32::try_from(pid).ok()?)?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .map(str::trim)
    };
    let parent: u32 = field("PPid:")?.parse().ok()?;
    let first_of_namespace = field("NSpid:").is_some_and(|ids| {
        let ids: Vec<&str> = ids.split_whitespace().collect();
        ids.len() > 1 && ids.last() == Some(&"1")
    });
    let own = parent == root || (parent == std::process::id() && first_of_namespace);
    own.then_some(pidfd)
}

/// Reaps bwrap's `init` (see [`Watch::sandbox_init`]): waits for it up to
/// [`INIT_ENDS`], kills it if it is still there, and waits again as long.
/// A pidfd names one process for good, so no other child's status is taken.
fn reap_sandbox_init(init: &OwnedFd) {
    for kill in [false, true] {
        if kill {
            // SAFETY: sends a signal through a pidfd we own.
            unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    init.as_raw_fd(),
                    libc::SIGKILL,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                );
            }
        }
        let mut fds = [pollfd(init.as_raw_fd())];
        let millis = INIT_ENDS.as_millis().min(i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd.
        unsafe { libc::poll(fds.as_mut_ptr(), 1, millis) };
        // SAFETY: waitid writes into a zeroed siginfo we own; P_PIDFD waits
        // for exactly the process the pidfd names (ECHILD if it is not, or
        // no longer, our child: nothing to reap).
        let rc = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PIDFD,
                init.as_raw_fd() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG,
            );
            info.si_pid()
        };
        if rc != 0 || !still_running(init) {
            return;
        }
    }
}

/// Whether the process a pidfd names has not exited yet.
fn still_running(pidfd: &OwnedFd) -> bool {
    let mut fds = [pollfd(pidfd.as_raw_fd())];
    // SAFETY: one valid pollfd, no wait.
    let ready = unsafe { libc::poll(fds.as_mut_ptr(), 1, 0) };
    ready == 0
}

fn pollfd(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// Keeps the last [`TAIL`] bytes of stderr.
fn keep_tail(tail: &mut Vec<u8>, chunk: &[u8]) {
    if chunk.len() >= TAIL {
        tail.clear();
        tail.extend_from_slice(&chunk[chunk.len() - TAIL..]);
        return;
    }
    let overflow = (tail.len() + chunk.len()).saturating_sub(TAIL);
    tail.drain(..overflow);
    tail.extend_from_slice(chunk);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_bytes() {
        let mut tail = Vec::new();
        keep_tail(&mut tail, &[1; 3000]);
        keep_tail(&mut tail, &[2; 3000]);
        assert_eq!(tail.len(), TAIL);
        assert_eq!(tail[TAIL - 3000..], [2; 3000]);
        keep_tail(&mut tail, &[3; 5000]);
        assert_eq!(tail, vec![3; TAIL]);
    }
}
