//! The poll loop of one run: output, the command's end, deadline, cancel.

use std::io;
use std::io::Read;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::process::Child;
use std::time::{Duration, Instant};

use crate::outcome::Ending;
use crate::process_tree::Tree;
use crate::refused::Refusals;
use crate::sink::OutputSink;
use crate::spawn::Started;
use crate::spec::RunSpec;

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
/// After a read of one stream that did not fill the buffer, that stream is
/// left to gather this long before it is read again: a runner that writes
/// one character per test (PHPUnit's progress dots) woke testgate once per
/// test, 1,700 times and some 5 ms of CPU a check of PHP-Parser
/// (docs/scale.md). The command's end and the other stream's first byte
/// end the wait at once, so lines of the two streams are read in the order
/// an unpaced loop reads them; a read that fills the buffer, or reads of
/// both streams, are followed at once. The output pipes hold [`PIPE_SIZE`]
/// so that a command writing steadily is not held up by the wait: a 64 KiB
/// pipe fills in 5 ms at 13 MB/s, 1 MiB at 200 MB/s.
const RELAY_PACE: Duration = Duration::from_millis(5);
/// What each output pipe is asked to hold (`F_SETPIPE_SZ`): Linux's default
/// limit for an unprivileged process (`/proc/sys/fs/pipe-max-size`).
const PIPE_SIZE: libc::c_int = 1 << 20;

/// Asks the pipe to hold [`PIPE_SIZE`]; where the kernel refuses (a lower
/// limit, a user over its pipe pages), the pipe keeps its size and the
/// output is read as before, only a steady writer may wait on it more.
fn widen(pipe: &OwnedFd) {
    // SAFETY: fcntl on a descriptor we own; F_SETPIPE_SZ only resizes the
    // pipe's buffer, and a failure leaves it as it was.
    unsafe { libc::fcntl(pipe.as_raw_fd(), libc::F_SETPIPE_SZ, PIPE_SIZE) };
}

/// Why the runner started ending the tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    TimedOut,
    Cancelled,
    /// The command exited but something still held its output open.
    Leaked,
    /// The output showed a flood of connections the sandbox refused
    /// ([`crate::refused`]).
    NetworkRefused,
}

/// Hands `lines` to the sink, counting the refusals among them first.
fn hand_on(refusals: &mut Option<Refusals>, sink: &mut dyn OutputSink, lines: &[u8]) {
    if let Some(refusals) = refusals {
        refusals.see(lines);
    }
    sink.output(lines);
}

/// A child's exit, as a pidfd (Linux 5.3 and later): readable once the
/// child has exited, reaped or not.
struct ExitWatch(Option<OwnedFd>);

impl ExitWatch {
    fn of(pid: u32) -> ExitWatch {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return ExitWatch(None);
        };
        // SAFETY: pidfd_open takes a pid and flags and returns a new fd
        // or -1; the fd is owned from here on.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        let fd = libc::c_int::try_from(fd).ok().filter(|fd| *fd >= 0);
        // SAFETY: a descriptor just opened and owned by nothing else.
        ExitWatch(fd.map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }))
    }

    /// Waits until the child exits or `most` has passed; without a pidfd
    /// (an older kernel), `most` whole.
    fn wait(&self, most: Duration) {
        let Some(fd) = &self.0 else {
            std::thread::sleep(most);
            return;
        };
        let mut pfd = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = libc::c_int::try_from(most.as_millis()).unwrap_or(libc::c_int::MAX);
        // SAFETY: one valid pollfd. An interrupted poll only ends the
        // round early: the caller checks and waits again.
        unsafe {
            libc::poll(&mut pfd, 1, millis);
        }
    }
}

/// Whether the unreaped child `pid` has exited (it stays a zombie).
fn has_exited(pid: u32) -> bool {
    // SAFETY: waitid writes into a zeroed siginfo we own; WNOWAIT leaves the
    // child unreaped so its pid cannot be reused.
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

/// How long the reaper may take to end after the command and its pipes
/// did, with the leftovers killed again every [`REAP_ROUND`]: a bound on a
/// fork bomb's last generations, not a speed claim.
const REAP_BOUND: Duration = Duration::from_secs(60);
const REAP_ROUND: Duration = Duration::from_millis(50);

/// The state of one running command.
pub(crate) struct Watch {
    /// The run's reaper ([`crate::spawn::Started::reaper`]).
    reaper: Child,
    tree: Tree,
    /// stdout, stderr, bwrap's status pipe; None once at end of file.
    pipes: [Option<OwnedFd>; 3],
    /// The reaper's report, None once at end of file.
    report: Option<OwnedFd>,
    /// The bytes of the command's wait status read so far.
    report_bytes: Vec<u8>,
    /// bwrap's `--json-status-fd` report (small; capped).
    pub(crate) status: Vec<u8>,
    /// The last bytes of stderr, for bwrap's complaint.
    pub(crate) tail: Vec<u8>,
    pub(crate) output_bytes: u64,
    buffer: Box<[u8]>,
    /// stdout's and stderr's unfinished last line, and since when it waits.
    partial: [(Vec<u8>, Option<Instant>); 2],
    /// Whether the last poll read output of stdout, of stderr, that did
    /// not fill the buffer.
    read_short: [bool; 2],
    /// The socket calls the sandbox refused, as the output reports them;
    /// `None` where the network is the command's (allowed, or the host).
    pub(crate) refusals: Option<Refusals>,
}

impl Watch {
    pub(crate) fn new(started: Started, status: Option<OwnedFd>) -> io::Result<Watch> {
        let Started { mut reaper, report } = started;
        let stdout = reaper.stdout.take().map(OwnedFd::from);
        let stderr = reaper.stderr.take().map(OwnedFd::from);
        for pipe in stdout.iter().chain(&stderr) {
            widen(pipe);
        }
        // The reaper writes the command's pid first thing after the fork.
        let mut pid = [0u8; 4];
        let mut report = std::fs::File::from(report);
        if let Err(error) = report.read_exact(&mut pid) {
            let _ = reaper.kill();
            let _ = reaper.wait();
            return Err(io::Error::new(
                error.kind(),
                format!("the run's reaper ended before it named the command: {error}"),
            ));
        }
        let command = u32::from_ne_bytes(pid);
        let tree = Tree::new(reaper.id(), command);
        Ok(Watch {
            reaper,
            tree,
            pipes: [stdout, stderr, status],
            report: Some(OwnedFd::from(report)),
            report_bytes: Vec::new(),
            status: Vec::new(),
            tail: Vec::new(),
            output_bytes: 0,
            buffer: vec![0; 64 * 1024].into_boxed_slice(),
            partial: [(Vec::new(), None), (Vec::new(), None)],
            read_short: [false; 2],
            refusals: None,
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
        loop {
            let now = Instant::now();
            if stop.is_none() {
                let pipes_open = self.pipes[0].is_some() || self.pipes[1].is_some();
                stop = if spec.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
                    Some(Stop::Cancelled)
                } else if exited_at.is_none() && deadline.is_some_and(|d| now >= d) {
                    Some(Stop::TimedOut)
                } else if self.refusals.as_ref().is_some_and(Refusals::is_flood) {
                    Some(Stop::NetworkRefused)
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
            let wake = [
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
            self.poll_once(wake, &mut exited_at, sink)?;
            self.flush_partials(Some(Instant::now()), sink);
            if exited_at.is_none() && stop.is_none() {
                self.pace(RELAY_PACE.min(wake));
            }
        }
        self.flush_partials(None, sink);
        let leaked = match stop {
            Some(Stop::Leaked) => true,
            Some(Stop::TimedOut | Stop::Cancelled | Stop::NetworkRefused) => {
                self.tree.kill_others();
                false
            }
            None => self.tree.end_others(),
        };
        Ok((stop, leaked))
    }

    /// When the last poll read a little of one output stream and nothing
    /// of the other, waits up to `most` for the command's end or the other
    /// stream's output, leaving the first to gather ([`RELAY_PACE`]).
    fn pace(&self, most: Duration) {
        let other = match self.read_short {
            [true, false] => 1,
            [false, true] => 0,
            [false, false] | [true, true] => return,
        };
        let Some(report) = &self.report else {
            return;
        };
        let mut fds = vec![pollfd(report.as_raw_fd())];
        if let Some(pipe) = &self.pipes[other] {
            fds.push(pollfd(pipe.as_raw_fd()));
        }
        let millis = most.as_millis().min(i32::MAX as u128) as libc::c_int;
        // SAFETY: fds is a valid array of pollfd of the given length. What
        // woke it is seen by the next poll over every pipe; an
        // interruption only ends the wait early.
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
    }

    /// One poll over the pipes and the reaper's report, handing output to the sink.
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
        if let Some(report) = &self.report {
            fds.push(pollfd(report.as_fd().as_raw_fd()));
            which.push(usize::MAX);
        }
        self.read_short = [false; 2];
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
                if self.read_report()? && exited_at.is_none() {
                    *exited_at = Some(Instant::now());
                    self.tree.root_ended();
                }
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
                    hand_on(&mut self.refusals, sink, line);
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
            }
            _ => {
                if i == 1 {
                    keep_tail(&mut self.tail, chunk);
                }
                if let Some(short) = self.read_short.get_mut(i) {
                    *short = chunk.len() < self.buffer.len();
                }
                self.output_bytes += chunk.len() as u64;
                let Some((line, since)) = self.partial.get_mut(i) else {
                    return Ok(());
                };
                match chunk.iter().rposition(|b| *b == b'\n') {
                    Some(end) => {
                        if !line.is_empty() {
                            hand_on(&mut self.refusals, sink, line);
                            line.clear();
                        }
                        hand_on(&mut self.refusals, sink, &chunk[..=end]);
                        line.extend_from_slice(&chunk[end + 1..]);
                    }
                    None => line.extend_from_slice(chunk),
                }
                if line.len() >= PARTIAL_MAX {
                    hand_on(&mut self.refusals, sink, line);
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
                hand_on(&mut self.refusals, sink, line);
                line.clear();
                *since = None;
            }
        }
    }

    /// Reads the reaper's report; true once the command has ended (its
    /// status is in, or the reaper is gone).
    fn read_report(&mut self) -> io::Result<bool> {
        let Some(report) = &self.report else {
            return Ok(true);
        };
        let mut bytes = [0u8; 4];
        // SAFETY: reads into our own buffer, at most its length.
        let n = unsafe { libc::read(report.as_raw_fd(), bytes.as_mut_ptr().cast(), bytes.len()) };
        if n < 0 {
            let error = io::Error::last_os_error();
            let retry = matches!(
                error.kind(),
                io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
            );
            return if retry { Ok(false) } else { Err(error) };
        }
        if n == 0 {
            self.report = None;
            return Ok(true);
        }
        self.report_bytes.extend_from_slice(&bytes[..n as usize]);
        Ok(self.report_bytes.len() >= 4)
    }

    /// Waits until the reaper has reaped the last process of the run and
    /// ended, killing what is left every [`REAP_ROUND`] (bounded by
    /// [`REAP_BOUND`]), and returns how the command ended.
    pub(crate) fn reap(&mut self) -> io::Result<Ending> {
        let reaper = self.reaper.id();
        let until = Instant::now() + REAP_BOUND;
        // The reaper ends a moment after the command: a round's wait ends
        // when it does, not a whole round later (issue 36: 50 ms of every
        // run under Landlock went to that sleep).
        let exit = ExitWatch::of(reaper);
        while !has_exited(reaper) {
            if Instant::now() >= until {
                // What is left goes to the runner, a subreaper too, rather
                // than to init; the run is an error, not a verdict.
                let _ = self.reaper.kill();
                let _ = self.reaper.wait();
                return Err(io::Error::other(
                    "processes of the run were still starting after they were killed for a minute",
                ));
            }
            self.tree.kill_others();
            exit.wait(REAP_ROUND);
        }
        let reaper_status = self.reaper.wait()?;
        let Ok(status) = <[u8; 4]>::try_from(self.report_bytes.get(..4).unwrap_or_default()) else {
            return Err(io::Error::other(format!(
                "the run's reaper ended ({reaper_status}) before it reported the command's end"
            )));
        };
        let status = libc::c_int::from_ne_bytes(status);
        Ok(if libc::WIFEXITED(status) {
            Ending::Exited(libc::WEXITSTATUS(status))
        } else if libc::WIFSIGNALED(status) {
            Ending::Signalled(libc::WTERMSIG(status))
        } else {
            Ending::Exited(-1)
        })
    }
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
