//! Cancelling a run from outside, e.g. from a signal handler.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag that ends a run when tripped. Clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A fresh, untripped handle.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Trips the flag: every run holding this handle ends its tree.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the flag was tripped.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst) || SIGNALLED.load(Ordering::SeqCst) && self.follows_signals()
    }

    /// Whether this handle was made by [`cancel_on_signals`].
    fn follows_signals(&self) -> bool {
        Arc::ptr_eq(&self.0, &signal_flag())
    }
}

/// Set by the signal handler; a plain static because a handler may only
/// touch async-signal-safe state.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

/// The flag shared by every handle [`cancel_on_signals`] returns.
fn signal_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone()
}

extern "C" fn on_signal(_signal: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    SIGNALLED.store(true, Ordering::SeqCst);
}

/// Installs SIGINT, SIGTERM and SIGHUP handlers (process-wide, replacing any
/// earlier ones) that trip the returned handle. A run holding it then ends
/// its process tree like a timeout and reports
/// [`Ending::Cancelled`](crate::Ending::Cancelled). Installing twice is
/// harmless; every call returns a handle on the same flag.
pub fn cancel_on_signals() -> Cancel {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is valid; the handler only stores to an
        // atomic, which is async-signal-safe. SA_RESTART keeps the caller's
        // blocking calls from failing with EINTR.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
    Cancel(signal_flag())
}
