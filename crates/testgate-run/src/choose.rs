//! `auto`: bubblewrap where it can start, else Landlock where the kernel has
//! it, else neither, and never the host.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use crate::spec::{BwrapOptions, LandlockOptions, RunSpec, Sandbox};

/// How long the probe of bubblewrap may take; it builds the namespaces of
/// a run and execs bwrap's `--version`, milliseconds on any machine.
const PROBE_BOUND: Duration = Duration::from_secs(10);

/// The sandbox [`choose_sandbox`] chose, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxChoice {
    /// [`Sandbox::Bubblewrap`] or [`Sandbox::Landlock`], with the options
    /// given.
    pub sandbox: Sandbox,
    /// Why, in a sentence: that bubblewrap starts here, or what it said
    /// and that Landlock does.
    pub why: String,
}

/// The sandbox for `options` on this machine: bubblewrap when a probe of it
/// starts (the probe builds the namespaces and mounts a run needs, and is
/// made once per process and set of `bwrap_dirs`), else Landlock when the
/// kernel has it (with the options Landlock knows: the network, Unix
/// sockets, the writable paths, the cap on processes). `Err` names both
/// refusals.
pub fn choose_sandbox(options: &BwrapOptions) -> Result<SandboxChoice, String> {
    let bwrap = match bwrap_starts(&options.bwrap_dirs) {
        Ok(()) => {
            return Ok(SandboxChoice {
                sandbox: Sandbox::Bubblewrap(options.clone()),
                why: "bubblewrap starts here".to_owned(),
            });
        }
        Err(why) => why,
    };
    match crate::landlocked::kernel_abi() {
        Ok(abi) => Ok(SandboxChoice {
            sandbox: Sandbox::Landlock(LandlockOptions {
                allow_network: options.allow_network,
                allow_unix_sockets: options.allow_unix_sockets,
                writable: options.writable.clone(),
                max_processes: options.max_processes,
            }),
            why: format!(
                "bubblewrap cannot start here ({bwrap}); the kernel has Landlock (ABI {abi}); {}",
                landlock_gives_up(abi)
            ),
        }),
        Err(landlock) => Err(format!(
            "no sandbox can start here: bubblewrap cannot ({bwrap}), and Landlock cannot ({landlock})"
        )),
    }
}

/// The Landlock ABI from which a sandboxed process cannot signal a process
/// outside its domain (`LANDLOCK_SCOPE_SIGNAL`).
const SIGNAL_SCOPE: i32 = 6;

/// What the command may do under Landlock (of ABI `abi`) that bubblewrap
/// refuses, in a sentence: `auto` never picks Landlock without saying so
/// (docs/sandbox.md, "The Landlock sandbox, side by side").
fn landlock_gives_up(abi: i32) -> String {
    let mut given_up = String::from(
        "Landlock promises less than bubblewrap: the command sees the host's processes \
         (their command lines, not their memory or environment) and the host-wide files \
         of /proc, may change the mode and times of its user's files outside the project \
         (as root, most of the host's), and may write the project's .git (judged and put \
         back after the attempt)",
    );
    if abi < SIGNAL_SCOPE {
        given_up.push_str(&format!(
            "; and this kernel's Landlock (ABI {abi}, before {SIGNAL_SCOPE}) does not scope \
             signals: the command can signal every process of its user, testgate and its \
             reaper included, so nothing of the run is promised to end with it"
        ));
    }
    given_up
}

/// A probe's directories searched and what it found.
type Probe = (Vec<PathBuf>, Result<(), String>);

/// Whether bubblewrap starts with what a run asks of it, remembered per
/// process for each list of directories searched.
fn bwrap_starts(dirs: &[PathBuf]) -> Result<(), String> {
    static PROBES: Mutex<Vec<Probe>> = Mutex::new(Vec::new());
    let mut probes = PROBES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, known)) = probes.iter().find(|(d, _)| d == dirs) {
        return known.clone();
    }
    let result = probe(dirs);
    probes.push((dirs.to_vec(), result.clone()));
    result
}

/// Starts bwrap with the namespaces, mounts and limits of a run around its
/// own `--version`.
fn probe(dirs: &[PathBuf]) -> Result<(), String> {
    let Some(bwrap) = crate::bwrap::find(dirs) else {
        return Err(format!(
            "no executable bwrap in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let args: Vec<std::ffi::OsString> = [
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--size",
        "1048576",
        "--tmpfs",
        "/tmp",
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--new-session",
        "--die-with-parent",
        // No `init` of bwrap's own in the namespace: the probe is its first
        // process, so bwrap waits for it and nothing is left for the runner
        // to reap (a run's `init` is reaped through its status report).
        "--as-pid-1",
        "--cap-drop",
        "ALL",
        "--",
    ]
    .iter()
    .map(Into::into)
    .chain([bwrap.clone().into_os_string(), "--version".into()])
    .collect();
    let spec = RunSpec::new(bwrap.clone().into_os_string(), args)
        .dir("/")
        .sandbox(Sandbox::Host)
        .timeout(PROBE_BOUND)
        .drain(Duration::from_millis(200));
    // The last few KiB of what bwrap said, for its complaint.
    let mut tail: Vec<u8> = Vec::new();
    let result = crate::sandboxed::run_in(
        &spec,
        crate::sandboxed::Chosen::Host,
        &mut |chunk: &[u8]| {
            tail.extend_from_slice(chunk);
            let excess = tail.len().saturating_sub(4096);
            tail.drain(..excess);
        },
    );
    match result {
        Ok(finished) if finished.ending == crate::Ending::Exited(0) => Ok(()),
        Ok(finished) => Err(crate::bwrap::complaint(&tail)
            .map(|said| format!("bwrap: {said}"))
            .unwrap_or_else(|| format!("{} ended {:?}", bwrap.display(), finished.ending))),
        Err(error) => Err(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_landlock_gives_up_is_said_and_more_without_the_signal_scope() {
        for abi in [1, 5, 6, 9] {
            let said = landlock_gives_up(abi);
            assert!(said.contains("sees the host's processes"), "{said}");
            assert!(said.contains("mode and times"), "{said}");
            assert_eq!(said.contains("does not scope signals"), abi < 6, "{said}");
        }
    }

    #[test]
    fn without_bwrap_landlock_is_chosen_or_both_refusals_are_named() {
        let empty = tempfile::tempdir().expect("a directory without bwrap");
        let options = BwrapOptions {
            bwrap_dirs: vec![empty.path().to_path_buf()],
            allow_network: true,
            ..BwrapOptions::default()
        };
        match (choose_sandbox(&options), crate::landlocked::kernel_abi()) {
            (Ok(choice), Ok(_)) => {
                assert!(
                    matches!(&choice.sandbox, Sandbox::Landlock(o) if o.allow_network),
                    "{choice:?}"
                );
                assert!(
                    choice.why.contains("no executable bwrap in")
                        && choice
                            .why
                            .contains("Landlock promises less than bubblewrap"),
                    "{}",
                    choice.why
                );
            }
            (Err(why), Err(_)) => {
                assert!(why.contains("bubblewrap cannot") && why.contains("Landlock cannot"));
            }
            (other, abi) => panic!("{other:?} with Landlock {abi:?}"),
        }
    }
}
