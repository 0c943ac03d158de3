//! Finding and ending every process a run started, however it detached.
//!
//! The command runs under a reaper of its run ([`crate::spawn::Started`]),
//! a child subreaper: an orphan is reparented to the nearest living
//! subreaper among its ancestors, so a descendant that double forks,
//! calls `setsid` or clears its environment stays beneath the reaper. A
//! run's processes are the reaper's descendants, found by the kernel's
//! tree (`/proc/PID/task/*/children`), never by anything a process carries
//! and could drop.

use std::collections::HashSet;
use std::fs;
use std::sync::Once;
use std::time::{Duration, Instant};

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
    zombie: bool,
}

/// Parses `/proc/PID/stat`; the command name may hold spaces and parens, so
/// fields are counted from the last `)`.
fn parse_stat(pid: i32, text: &str) -> Option<ProcStat> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is field 3 (state).
    Some(ProcStat {
        pid,
        zombie: matches!(*fields.first()?, "Z" | "X"),
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

/// How long processes found after the command's exit may take to go by
/// themselves before they count as left behind.
const SETTLE: Duration = Duration::from_millis(200);

/// The processes of one run.
pub(crate) struct Tree {
    /// The run's reaper.
    reaper: i32,
    /// The command, the reaper's child.
    root: i32,
    /// Whether the command has ended: its pid and process group may then
    /// be reaped and no longer its own.
    root_ended: bool,
}

impl Tree {
    /// The tree beneath the run's `reaper`, whose child is the command `root`.
    pub(crate) fn new(reaper: u32, root: u32) -> Tree {
        Tree {
            reaper: reaper as i32,
            root: root as i32,
            root_ended: false,
        }
    }

    /// Records that the command has ended.
    pub(crate) fn root_ended(&mut self) {
        self.root_ended = true;
    }

    /// The live (non-zombie) members other than the root: every
    /// descendant of the reaper (the reaper reaps the zombies).
    pub(crate) fn others(&mut self) -> Vec<i32> {
        let mut stack = children_of(&self.reaper.to_string());
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
            if stat_of(pid).is_some_and(|p| !p.zombie) {
                live.push(pid);
            }
        }
        live
    }

    /// Sends `signal` to the root's process group and the root while it
    /// has not ended (until the reaper has reported it, it is unreaped and
    /// its pid cannot be reused), and to every other live member. Returns
    /// how many members besides the root were signalled.
    pub(crate) fn signal(&mut self, signal: libc::c_int) -> usize {
        let others = self.others();
        // SAFETY: kill/killpg only send signals; the root is unreaped
        // until the reaper reports it and the others were just found as
        // members.
        unsafe {
            if !self.root_ended {
                libc::killpg(self.root, signal);
                libc::kill(self.root, signal);
            }
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
        assert_eq!(parse_stat(1, "1 (x)"), None);
        assert_eq!(parse_stat(1, "garbage"), None);
    }
}
