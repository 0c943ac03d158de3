//! Ending the whole process tree: timeouts, leftovers, the pipe trap.

use std::path::Path;
use std::time::{Duration, Instant};

use testgate_run::{BwrapOptions, Ending, Sandbox};

use super::{collect, host, marked_sleep, processes_with, sandboxed, scratch, unique_token};

/// A script that starts, besides its own `sleep`: a double-forked `setsid`
/// grandchild, and a process that ignores SIGTERM; each reports when up.
fn tree_script(sleep: &str) -> String {
    format!(
        "setsid sh -c '( echo gc-up; exec {sleep} 1000 ) &' ; \
         ( trap '' TERM; echo ignorer-up; exec {sleep} 1001 ) & \
         echo main-up; {sleep} 1002"
    )
}

/// How long a run that ends its tree may take at most, whatever the load:
/// a liveness bound, not a speed claim. The processes these tests start
/// would hold the run for 1000 s; ending them takes well under a second
/// on an idle machine, and 15 s was seen on a loaded one.
const ENDS_WITHIN: Duration = Duration::from_secs(300);

/// Waits (bounded) until no live process carries `token`.
fn none_left(token: &str) -> bool {
    // Reaping by init of processes we SIGKILLed is not instant when they
    // were not ours to reap; the runner itself promises they are dead, so a
    // short bounded look suffices.
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        if processes_with(token).is_empty() {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::yield_now();
    }
}

#[test]
fn a_timeout_ends_detached_and_term_ignoring_processes() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let mut seen = String::new();
    let spec = host(&tree_script(&sleep.display().to_string()))
        .timeout(Duration::from_secs(5))
        .grace(Duration::from_millis(500));
    let started = Instant::now();
    let result = testgate_run::run(&spec, &mut |c: &[u8]| {
        seen.push_str(&String::from_utf8_lossy(c));
    });
    let finished = result.expect("runs");
    assert_eq!(finished.ending, Ending::TimedOut);
    for up in ["gc-up", "ignorer-up", "main-up"] {
        assert!(seen.contains(up), "{up} missing from {seen:?}");
    }
    assert!(
        started.elapsed() < ENDS_WITHIN,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(
        processes_with(&token),
        Vec::<i32>::new(),
        "processes of the run survived"
    );
}

#[test]
fn a_timeout_ends_the_tree_in_the_sandbox() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let spec = sandboxed(&tree_script(&sleep.display().to_string()), dir.path())
        .timeout(Duration::from_secs(5))
        .grace(Duration::from_millis(500));
    let (result, output) = collect(&spec);
    assert_eq!(result.expect("runs").ending, Ending::TimedOut, "{output}");
    assert!(
        output.contains("gc-up") && output.contains("ignorer-up"),
        "{output}"
    );
    assert!(none_left(&token), "processes of the run survived");
}

#[test]
fn leftover_background_processes_are_ended() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let script = format!(
        "{0} 1000 >/dev/null 2>&1 & setsid sh -c '{0} 1001 >/dev/null 2>&1 &' ; echo done",
        sleep.display()
    );
    let (result, output) = collect(&host(&script));
    let finished = result.expect("runs");
    assert_eq!(finished.ending, Ending::Exited(0));
    assert_eq!(output, "done\n");
    assert!(finished.leaked_processes);
    assert_eq!(processes_with(&token), Vec::<i32>::new());
}

#[test]
fn a_clean_run_leaks_nothing() {
    let (result, _) = collect(&host("sleep 0 & wait; echo ok"));
    let finished = result.expect("runs");
    assert_eq!(finished.ending, Ending::Exited(0));
    assert!(!finished.leaked_processes);
}

#[test]
fn the_pipe_trap_returns_within_the_drain_window() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    // The background sleep keeps stdout open long after sh exits.
    let script = format!("{} 1000 & echo done; exit 7", sleep.display());
    let started = Instant::now();
    let (result, output) = collect(&host(&script).drain(Duration::from_millis(500)));
    let finished = result.expect("runs");
    assert!(
        started.elapsed() < ENDS_WITHIN,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(finished.ending, Ending::Exited(7));
    assert_eq!(output, "done\n");
    assert!(finished.leaked_processes);
    assert_eq!(processes_with(&token), Vec::<i32>::new());
}

#[test]
fn the_pipe_trap_in_the_sandbox() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let script = format!("{} 1000 & echo done; exit 7", sleep.display());
    let started = Instant::now();
    let spec = sandboxed(&script, dir.path()).sandbox(Sandbox::Bubblewrap(BwrapOptions::default()));
    let (result, output) = collect(&spec);
    assert!(
        started.elapsed() < ENDS_WITHIN,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(result.expect("runs").ending, Ending::Exited(7));
    assert_eq!(output, "done\n");
    assert!(none_left(&token));
}

/// A runner killed with SIGKILL (OOM, a CI's hard timeout) cannot end its
/// run itself: its reaper, which watches it through a pidfd, does. Here an
/// inner runner (this binary re-executed) starts a detached `setsid`
/// process and is SIGKILLed; the detached process must be gone while the
/// outer run still holds everything that is orphaned (so that the outer
/// run's own reaper, which would end it later, proves nothing). With the
/// reaper dying by PR_SET_PDEATHSIG along with the runner, the detached
/// process was reparented to the outer reaper and lived on.
#[test]
fn a_runner_killed_with_sigkill_takes_its_run_with_it() {
    if super::inner_role().is_some() {
        return;
    }
    let dir = scratch();
    let token = unique_token();
    let exe = std::env::current_exe().expect("test binary path");
    // The marked sleep's argv, as a pattern that matches no script that
    // holds it: `sleep-[t]gtok…`.
    let pattern = format!("sleep-[{}]{}", &token[..1], &token[1..]);
    let script = format!(
        "TESTGATE_RUN_INNER=killed RUNNER_KILLED_DIR='{dir}' RUNNER_KILLED_TOKEN={token} \
         '{exe}' tree::inner_runner_killed --exact --nocapture --test-threads=1 & \
         inner=$!; i=0; \
         while [ ! -e '{dir}/up' ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i+1)); done; \
         [ -e '{dir}/up' ] || {{ echo 'never up'; exit 1; }}; \
         kill -9 $inner; wait $inner; i=0; \
         while pgrep -f '{pattern}' >/dev/null && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done; \
         if pgrep -f '{pattern}' >/dev/null; then echo 'survivor alive'; else echo 'survivor gone'; fi",
        dir = dir.path().display(),
        exe = exe.display(),
    );
    let (result, output) = collect(&host(&script).timeout(ENDS_WITHIN));
    assert_eq!(result.expect("runs").ending, Ending::Exited(0), "{output}");
    assert!(output.contains("survivor gone"), "{output}");
    assert!(processes_with(&token).is_empty());
}

#[test]
fn inner_runner_killed() {
    if super::inner_role().as_deref() != Some("killed") {
        return;
    }
    let dir = std::env::var("RUNNER_KILLED_DIR").expect("dir");
    let token = std::env::var("RUNNER_KILLED_TOKEN").expect("token");
    let sleep = marked_sleep(Path::new(&dir), &token);
    let pattern = format!("sleep-[{}]{}", &token[..1], &token[1..]);
    let spec = host(&format!(
        "setsid sh -c 'exec {sleep} 1000' </dev/null >/dev/null 2>&1 & \
         while ! pgrep -f '{pattern}' >/dev/null; do sleep 0.01; done; touch '{dir}/up'; exec sleep 1000",
        sleep = sleep.display(),
    ));
    let _ = collect(&spec);
}

/// Runs one after another in one process (`batch`, `mcp`) leave no zombie:
/// bubblewrap's processes that its monitor leaves behind were reparented to
/// the runner (a subreaper) and never reaped, a zombie `bwrap` per attempt
/// until the process exited (issue 35); they are the run's reaper's now,
/// which reaps everything beneath it.
#[test]
fn sandboxed_runs_in_one_process_leave_no_zombie() {
    if super::inner_role().is_some() {
        return;
    }
    let output = super::reexec("tree::inner_sandboxed_runs", "zombies", &[]);
    assert!(output.contains("zombies: 0"), "{output}");
}

#[test]
fn inner_sandboxed_runs() {
    if super::inner_role().as_deref() != Some("zombies") {
        return;
    }
    let dir = scratch();
    for _ in 0..3 {
        let (result, output) = collect(&sandboxed("echo hi", dir.path()));
        assert_eq!(result.expect("runs").ending, Ending::Exited(0), "{output}");
    }
    let mut zombies = 0;
    for task in std::fs::read_dir("/proc/self/task")
        .expect("tasks")
        .flatten()
    {
        let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for pid in children.split_whitespace() {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
            if state.is_some_and(|rest| rest.starts_with('Z')) {
                zombies += 1;
            }
        }
    }
    println!("zombies: {zombies}");
}
