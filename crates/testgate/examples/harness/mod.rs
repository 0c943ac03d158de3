//! What the benchmark programs share: the repository and the names
//! chosen on the command line, a scratch folder under `target/`, copies of
//! the e2e projects, a crate with a registry dependency, a silent
//! observer, CPU time and medians. Each program uses some of it.
#![allow(
    dead_code,
    reason = "each example compiles this module and uses only part of it"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use testgate::Observer;

/// An observer that shows nothing.
pub(crate) struct Quiet;
impl Observer for Quiet {}

/// The testgate checkout (the first argument, else the current
/// directory), absolute: node_modules is linked to from the projects'
/// folder; the names chosen after it; and a fresh scratch folder under its
/// `target/NAME`, removed when dropped.
pub(crate) fn setup(name: &str) -> (PathBuf, Vec<String>, tempfile::TempDir) {
    let repo = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::current_dir().expect("cwd"));
    let repo = repo.canonicalize().expect("the testgate checkout");
    let chosen: Vec<String> = std::env::args().skip(2).collect();
    let base = repo.join("target").join(name);
    std::fs::create_dir_all(&base).expect("the scratch folder's parent");
    let scratch = tempfile::tempdir_in(&base).expect("scratch dir");
    (repo, chosen, scratch)
}

/// The CPU time, user and system, of this process and of its children
/// waited for.
pub(crate) fn cpu_time() -> Duration {
    let of = |who| {
        // SAFETY: getrusage writes a whole `rusage` into the zeroed value
        // it is given and reads nothing else.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(who, &mut usage);
            usage
        };
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
        };
        time(usage.ru_utime) + time(usage.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

/// The median of `times`.
pub(crate) fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// A copy of the project `from` at `to`, without its dependencies and
/// build output.
pub(crate) fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if name == "node_modules" || name == "target" || name == "__pycache__" {
            continue;
        }
        if entry.file_type().expect("file type").is_dir() {
            copy(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).expect("copy");
        }
    }
}

/// A crate that depends on the registry's `libc`, at the version this
/// workspace locks (so it is in the host's registry), with its lock file.
pub(crate) fn cargo_crate(repo: &Path, dir: &Path) {
    let lock = std::fs::read_to_string(repo.join("Cargo.lock")).expect("Cargo.lock");
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"libc\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .and_then(|v| v.strip_suffix('"'))
        .expect("libc in Cargo.lock")
        .to_owned();
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"uses-libc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\nlibc = \"={version}\"\n\n[workspace]\n"
        ),
    )
    .expect("Cargo.toml");
    std::fs::write(
        dir.join("src/lib.rs"),
        "#[test]\nfn has_a_pid() {\n    assert!(unsafe { libc::getpid() } > 0);\n}\n",
    )
    .expect("lib.rs");
    let status = Command::new("cargo")
        .args(["generate-lockfile", "--offline", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .status()
        .expect("cargo generate-lockfile");
    assert!(status.success(), "cargo generate-lockfile --offline failed");
}
