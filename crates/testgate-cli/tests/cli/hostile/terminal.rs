//! The terminal is testgate's: what a suite writes to the output testgate
//! streams to a real terminal (a pty) cannot act on it or hide the verdict.

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use wait_timeout::ChildExt;

use super::harness::{Attack, contains};

/// How long testgate may run, and its terminal stay open, before the test
/// fails.
const BOUND: Duration = Duration::from_secs(120);

/// A new pty: (master, slave).
fn openpty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two new descriptors; the name, termios and
    // window size are not asked for.
    let status = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(status, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just made and are owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Runs `testgate check` on the attack's project (streaming, not `-q`)
/// with stdout and stderr on a pty's slave; returns what the terminal got.
fn on_a_terminal(attack: &Attack) -> Vec<u8> {
    let (master, slave) = openpty();
    let mut child = Command::new(env!("CARGO_BIN_EXE_testgate"))
        .arg("check")
        .arg("-C")
        .arg(attack.project())
        .args(["--", "sh", "run.sh"])
        .arg(attack.marker())
        .arg(attack.outside())
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave.try_clone().expect("dup slave")))
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("start testgate");
    // The master reads until every slave is closed (EIO), in a thread so
    // that the wait is bounded.
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut master = File::from(master);
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buffer[..n]);
        }
        let _ = sender.send(seen);
    });
    let status = child.wait_timeout(BOUND).expect("wait");
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("testgate did not end within {BOUND:?}");
    }
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(1),
        "the verdict is FAIL"
    );
    receiver
        .recv_timeout(BOUND)
        .expect("the terminal was not closed")
}

fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).escape_debug().to_string()
}

#[test]
fn a_suite_cannot_act_on_the_terminal_or_hide_the_verdict() {
    let attack = Attack::new("terminal");
    let seen = on_a_terminal(&attack);
    for raw in [
        &b"\x1b]52"[..],
        b"\x1b]0;",
        b"\x1b]8;",
        b"\x1b[?1049h",
        b"\x1b[2J",
        b"\x1b[H",
        b"\x1b[?25l",
        b"\x1b[8m",
    ] {
        assert!(
            !seen.windows(raw.len()).any(|w| w == raw),
            "{} reached the terminal raw: {}",
            shown(raw),
            shown(&seen)
        );
    }
    // Shown as text instead; the colour passed.
    for text in ["^[]52;c;cm0gLXJmIH4K^G", "^[[?25l", "^[[8m", "^[[1;"] {
        assert!(contains(&seen, text), "{text} not shown: {}", shown(&seen));
    }
    assert!(contains(&seen, "\x1b[31mFAILED\x1b[0m"), "{}", shown(&seen));
    // The verdict comes after a reset, after all the suite wrote.
    let at = |needle: &[u8]| seen.windows(needle.len()).rposition(|w| w == needle);
    let reset = at(b"\x1b[0m\x1b[?25h").expect("no reset");
    let verdict = at(b"FAIL\r\n").expect("no verdict");
    let needle = b"concealed from here on";
    let concealed = seen
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the suite's text");
    assert!(concealed < reset && reset < verdict, "{}", shown(&seen));
    attack.assert_no_survivors();
    attack.assert_host_unchanged();
}

/// Off a terminal the output is the runner's, byte for byte.
#[test]
fn off_a_terminal_the_output_passes_unchanged() {
    let attack = Attack::new("terminal");
    let out = Command::new(env!("CARGO_BIN_EXE_testgate"))
        .arg("check")
        .arg("-C")
        .arg(attack.project())
        .args(["--", "sh", "run.sh"])
        .arg(attack.marker())
        .arg(attack.outside())
        .stdin(Stdio::null())
        .output()
        .expect("run testgate");
    assert_eq!(out.status.code(), Some(1));
    for raw in ["\x1b]52;c;cm0gLXJmIH4K\x07", "\x1b[?25l", "\x1b[8m"] {
        assert!(contains(&out.stderr, raw), "{}", shown(&out.stderr));
    }
    assert!(!contains(&out.stderr, "\x1b[0m\x1b[?25h"));
    attack.assert_no_survivors();
    attack.assert_host_unchanged();
}
