//! Cancelling a run: by handle, and by a signal to the runner.

use std::time::Duration;

use testgate_run::{Cancel, Ending, cancel_on_signals, run};

use super::{host, inner_role, marked_sleep, processes_with, reexec, scratch, unique_token};

#[test]
fn a_tripped_handle_ends_the_tree() {
    let dir = scratch();
    let token = unique_token();
    let sleep = marked_sleep(dir.path(), &token);
    let cancel = Cancel::new();
    let spec = host(&format!(
        "{0} 1000 & setsid sh -c '{0} 1001 &'; echo up; {0} 1002",
        sleep.display()
    ))
    .grace(Duration::from_millis(300))
    .cancel(cancel.clone());
    let result = run(&spec, &mut |chunk: &[u8]| {
        if chunk.windows(2).any(|w| w == b"up") {
            cancel.cancel();
        }
    });
    assert_eq!(result.expect("runs").ending, Ending::Cancelled);
    assert_eq!(processes_with(&token), Vec::<i32>::new());
}

#[test]
fn sigterm_to_the_runner_cancels() {
    if inner_role().is_some() {
        return;
    }
    let output = reexec("cancel::inner_sigterm_to_the_runner", "sigterm", &[]);
    assert!(output.contains("ending: Cancelled"), "{output}");
}

#[test]
fn inner_sigterm_to_the_runner() {
    if inner_role().as_deref() != Some("sigterm") {
        return;
    }
    let cancel = cancel_on_signals();
    // The command signals the runner (the parent of its parent, the
    // run's reaper), then would sleep on.
    let spec = host("kill -TERM $(cut -d' ' -f4 /proc/$PPID/stat); exec sleep 1000")
        .grace(Duration::from_millis(300))
        .cancel(cancel);
    let (result, _) = super::collect(&spec);
    println!("ending: {:?}", result.expect("runs").ending);
}
