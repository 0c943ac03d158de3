//! Finding and ending every process a run started, however it detached.
//!
//! The runner makes itself a child subreaper, so a descendant that double
//! forks or calls `setsid` is reparented to the runner rather than to init.
//! A run's processes are then: the descendants of the started process, plus
//! the descendants of any child of the runner whose environment carries the
//! run's marker ([`MARKER`]), plus any process seen as a member earlier and
//! still alive (same pid, same start time).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::sync::Once;
use std::time::{Duration, Instant};

/// The environment variable that marks a run's processes.
pub(crate) const MARKER: &str = "TESTGATE_RUN_ID";

/// Makes the whole runner process a child subreaper, once. Process-wide.
pub(crate) fn become_subreaper() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: prctl with integer arguments has no memory effects.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// Undoes `SIG_IGN` (or `SA_NOCLDWAIT`) on SIGCHLD, under which the kernel
/// reaps children itself and their exit status is lost. Process-wide.
pub(crate) fn keep_child_statuses() {
    // SAFETY: sigaction reads into and writes from valid, zeroed structs.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut current) != 0 {
            return;
        }
        if current.sa_sigaction == libc::SIG_IGN {
            let mut default: libc::sigaction = std::mem::zeroed();
            default.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(libc::SIGCHLD, &default, std::ptr::null_mut());
        } else if current.sa_flags & libc::SA_NOCLDWAIT != 0 {
            current.sa_flags &= !libc::SA_NOCLDWAIT;
            libc::sigaction(libc::SIGCHLD, &current, std::ptr::null_mut());
        }
    }
}

/// One line of `/proc/PID/stat`, the parts we need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ProcStat {
    pid: i32,
    ppid: i32,
    start_time: u64,
    zombie: bool,
}

/// Parses `/proc/PID/stat`; the command name may hold spaces and parens, so
/// fields are counted from the last `)`.
fn parse_stat(pid: i32, text: &str) -> Option<ProcStat> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (state); ppid is field 4; starttime is field 22.
    Some(ProcStat {
        pid,
        zombie: matches!(*fields.first()?, "Z" | "X"),
        ppid: fields.get(1)?.parse().ok()?,
        start_time: fields.get(19)?.parse().ok()?,
    })
}

/// The stat of one process, if it still exists.
fn stat_of(pid: i32) -> Option<ProcStat> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(pid, &text)
}

/// The children of every thread of `pid`, from `/proc/PID/task/*/children`
/// (a walk proportional to the tree, not to the machine's process count).
fn children_of(pid: &str) -> Vec<i32> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        if let Ok(text) = fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|c| c.parse::<i32>().ok()),
            );
        }
    }
    out
}

/// Whether `/proc/PID/environ` holds `MARKER=token`.
fn has_marker(pid: i32, needle: &[u8]) -> bool {
    fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|b| *b == 0).any(|var| var == needle))
        .unwrap_or(false)
}

/// How long processes found after the command's exit may take to go by
/// themselves before they count as left behind.
const SETTLE: Duration = Duration::from_millis(200);

/// The processes of one run.
pub(crate) struct Tree {
    root: i32,
    me: i32,
    /// `MARKER=token`, as found in `/proc/PID/environ`.
    needle: Vec<u8>,
    /// Every member seen so far: pid → start time.
    known: HashMap<i32, u64>,
}

impl Tree {
    /// The tree under the started process `root`, marked with `token`.
    pub(crate) fn new(root: u32, token: &str) -> Tree {
        Tree {
            root: root as i32,
            // SAFETY: getpid cannot fail.
            me: unsafe { libc::getpid() },
            needle: format!("{MARKER}={token}").into_bytes(),
            known: HashMap::new(),
        }
    }

    /// The live (non-zombie) members other than the root, recording them.
    /// Zombie members reparented to the runner are reaped on the way.
    pub(crate) fn others(&mut self) -> Vec<i32> {
        let mut stack = vec![self.root];
        for pid in children_of("self") {
            if pid == self.root {
                continue;
            }
            let seen_before =
                stat_of(pid).is_some_and(|p| self.known.get(&pid) == Some(&p.start_time));
            if seen_before || has_marker(pid, &self.needle) {
                stack.push(pid);
            }
        }
        // Members seen before that now hang under another reaper.
        let known: Vec<(i32, u64)> = self.known.iter().map(|(p, t)| (*p, *t)).collect();
        for (pid, start_time) in known {
            match stat_of(pid) {
                Some(p) if p.start_time == start_time => stack.push(pid),
                Some(_) | None => {
                    self.known.remove(&pid);
                }
            }
        }
        let mut members = HashSet::new();
        let mut live = Vec::new();
        while let Some(pid) = stack.pop() {
            if !members.insert(pid) {
                continue;
            }
            stack.extend(children_of(&pid.to_string()));
            if pid == self.root {
                continue;
            }
            let Some(p) = stat_of(pid) else { continue };
            self.known.insert(pid, p.start_time);
            if p.zombie {
                if p.ppid == self.me {
                    // SAFETY: waitpid on a specific pid that is our zombie
                    // child and a member of this run; no other code waits
                    // for it.
                    unsafe {
                        libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
                    }
                    self.known.remove(&pid);
                }
            } else {
                live.push(pid);
            }
        }
        live
    }

    /// Sends `signal` to the root's process group, the root (while it is
    /// unreaped its pid cannot be reused) and every other live member.
    /// Returns how many members besides the root were signalled.
    pub(crate) fn signal(&mut self, signal: libc::c_int) -> usize {
        let others = self.others();
        // SAFETY: kill/killpg only send signals; the root is our unreaped
        // child and the others were just found as members.
        unsafe {
            libc::killpg(self.root, signal);
            libc::kill(self.root, signal);
            for pid in &others {
                libc::kill(*pid, signal);
            }
        }
        others.len()
    }

    /// Ends every member but the root, once the root has exited: each is
    /// stopped (SIGSTOP) as soon as it is found, so that nothing of the run
    /// acts after its command ended (a detached grandchild would otherwise
    /// write into the project while testgate looks at it, or during a
    /// SIGTERM handler's grace), then killed. Returns whether any was
    /// alive beyond [`SETTLE`].
    pub(crate) fn end_others(&mut self) -> bool {
        let mut left = self.others();
        if left.is_empty() {
            return false;
        }
        // Processes already on their way out are no leak: under bwrap the
        // kernel kills the sandbox's processes once bwrap exits
        // (--die-with-parent, the PID namespace), a moment after it; a
        // stopped process is killed so too.
        let settle_until = Instant::now() + SETTLE;
        loop {
            for pid in &left {
                // SAFETY: signals a member just found.
                unsafe {
                    libc::kill(*pid, libc::SIGSTOP);
                }
            }
            if Instant::now() >= settle_until {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
            left = self.others();
            if left.is_empty() {
                return false;
            }
        }
        self.kill_others();
        true
    }

    /// SIGKILLs the members but the root, rescanning so that processes
    /// forked meanwhile are caught too; bounded so a fork bomb cannot hold
    /// the runner forever.
    pub(crate) fn kill_others(&mut self) {
        for _ in 0..200 {
            let others = self.others();
            if others.is_empty() {
                return;
            }
            for pid in &others {
                // SAFETY: signals a member just found.
                unsafe {
                    libc::kill(*pid, libc::SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_with_spaces_and_parens_in_the_name() {
        let text = "42 (a (weird) name) S 7 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123456 0 0";
        assert_eq!(
            parse_stat(42, text),
            Some(ProcStat {
                pid: 42,
                ppid: 7,
                start_time: 123456,
                zombie: false
            })
        );
    }

    #[test]
    fn zombie_state_is_seen() {
        let text = "9 (sh) Z 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 77 0 0";
        assert!(parse_stat(9, text).is_some_and(|p| p.zombie));
    }

    #[test]
    fn truncated_stat_is_none() {
        assert_eq!(parse_stat(1, "1 (x) S"), None);
        assert_eq!(parse_stat(1, "garbage"), None);
    }
}
