//! Ending the whole process tree: timeouts, leftovers, the pipe trap.

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
