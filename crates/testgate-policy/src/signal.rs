//! Signal numbers and what a signal that ended the test command says about
//! the code under test.
//!
//! The numbers are the platform's own: Linux's everywhere except where the
//! BSDs and macOS number differently (SIGBUS, SIGSYS). Spelled out here
//! rather than taken from libc, because this crate depends on no system
//! library.

/// What the signal that ended the test command means for the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SignalClass {
    /// The code under test crashed: a Fail.
    Crash,
    /// Someone or something outside ended it (the OOM killer, a person, a
    /// resource limit): nothing was proved.
    FromOutside,
    /// The sandbox's system-call filter ended it.
    Sandbox,
}

const SIGHUP: i32 = 1;
const SIGINT: i32 = 2;
const SIGQUIT: i32 = 3;
const SIGILL: i32 = 4;
const SIGTRAP: i32 = 5;
const SIGABRT: i32 = 6;
const SIGFPE: i32 = 8;
const SIGKILL: i32 = 9;
const SIGSEGV: i32 = 11;
const SIGPIPE: i32 = 13;
const SIGALRM: i32 = 14;
const SIGTERM: i32 = 15;
const SIGXCPU: i32 = 24;
const SIGXFSZ: i32 = 25;

#[cfg(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd",
    target_os = "dragonfly"
))]
mod differs {
    pub(super) const SIGBUS: i32 = 10;
    pub(super) const SIGSYS: i32 = 12;
}
#[cfg(not(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd",
    target_os = "dragonfly"
)))]
mod differs {
    pub(super) const SIGBUS: i32 = 7;
    pub(super) const SIGSYS: i32 = 31;
}
use differs::{SIGBUS, SIGSYS};

/// The classic name of `signal`, for the reason.
pub(crate) fn name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        SIGHUP => "SIGHUP",
        SIGINT => "SIGINT",
        SIGQUIT => "SIGQUIT",
        SIGILL => "SIGILL",
        SIGTRAP => "SIGTRAP",
        SIGABRT => "SIGABRT",
        SIGBUS => "SIGBUS",
        SIGFPE => "SIGFPE",
        SIGKILL => "SIGKILL",
        SIGSEGV => "SIGSEGV",
        SIGPIPE => "SIGPIPE",
        SIGALRM => "SIGALRM",
        SIGTERM => "SIGTERM",
        SIGXCPU => "SIGXCPU",
        SIGXFSZ => "SIGXFSZ",
        SIGSYS => "SIGSYS",
        _ => return None,
    })
}

/// `signal 11 (SIGSEGV)`, or `signal 40` for one without a classic name.
pub(crate) fn describe(signal: i32) -> String {
    match name(signal) {
        Some(name) => format!("signal {signal} ({name})"),
        None => format!("signal {signal}"),
    }
}

/// What ending by `signal` says.
///
/// The crash signals are the ones a process raises on itself: a bad memory
/// access, an abort (Rust's `panic = "abort"`, a failed C assertion), an
/// illegal or trapping instruction (Rust's `abort` intrinsic is `ud2` on
/// x86 and `brk` on aarch64). Every other signal was sent from outside, or
/// is one we cannot attribute to the code, so it proves nothing.
pub(crate) fn classify(signal: i32) -> SignalClass {
    match signal {
        SIGSEGV | SIGABRT | SIGBUS | SIGFPE | SIGILL | SIGTRAP => SignalClass::Crash,
        SIGSYS => SignalClass::Sandbox,
        _ => SignalClass::FromOutside,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crashes_and_kills() {
        for crash in [SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP] {
            assert_eq!(classify(crash), SignalClass::Crash, "{}", describe(crash));
        }
        for outside in [
            SIGKILL, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, 40, 0, -1,
        ] {
            assert_eq!(
                classify(outside),
                SignalClass::FromOutside,
                "{}",
                describe(outside)
            );
        }
        assert_eq!(classify(SIGSYS), SignalClass::Sandbox);
    }

    #[test]
    fn descriptions() {
        assert_eq!(describe(9), "signal 9 (SIGKILL)");
        assert_eq!(describe(64), "signal 64");
        assert_eq!(describe(i32::MIN), format!("signal {}", i32::MIN));
    }
}
