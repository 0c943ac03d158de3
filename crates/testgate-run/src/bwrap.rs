//! The bubblewrap command line, bwrap's status report and its refusals.

use std::ffi::{OsStr, OsString};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::host_view::View;
use crate::protect::{PROC_READ_ONLY, Protected};
use crate::spec::BwrapOptions;

/// Credential stores under `$HOME` hidden from the command: directories get
/// an empty tmpfs over them, files `/dev/null`.
const SECRETS: &[&str] = &[
    ".ssh",
    ".aws",
    ".gnupg",
    ".config/gh",
    ".netrc",
    ".docker",
    ".kube",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".npmrc",
    ".pypirc",
];

/// The descriptor bwrap reads the sandbox's git configuration from
/// (`--file`): after `--json-status-fd` (3) and `--seccomp` (4).
pub(crate) const GIT_CONFIG_FD: &str = "5";

/// The first executable `bwrap` in `dirs`, never from `PATH`.
pub(crate) fn find(dirs: &[PathBuf]) -> Option<PathBuf> {
    dirs.iter().map(|d| d.join("bwrap")).find(|path| {
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// What must be hidden under `home`: (path, is_dir) for each store that
/// exists, symlinks resolved so the mount lands on the real target.
pub(crate) fn secrets_in(home: &Path) -> Vec<(PathBuf, bool)> {
    SECRETS
        .iter()
        .filter_map(|rel| hidden(&home.join(rel)))
        .collect()
}

/// `path` as a secret to hide: (its real path, whether it is a directory),
/// or None when it does not exist.
pub(crate) fn hidden(path: &Path) -> Option<(PathBuf, bool)> {
    let real = path.canonicalize().ok()?;
    let is_dir = real.metadata().ok()?.is_dir();
    Some((real, is_dir))
}

/// bwrap's arguments (after the program name) to run `program args` in
/// `dir`. `secrets` comes from [`secrets_in`], `protected` from
/// [`crate::protect::protected`]. The environment is not on the command
/// line: bwrap passes its own (cleared, resolved) environment on.
pub(crate) fn arguments(
    options: &BwrapOptions,
    dir: &Path,
    secrets: &[(PathBuf, bool)],
    protected: &Protected,
    view: &View,
    program: &OsString,
    args: &[OsString],
) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    let size = options.tmpfs_size.to_string();
    system_mounts(&mut out, protected, &size);
    home_mounts(&mut out, view, &size);
    namespaces(&mut out, options);
    project_mounts(&mut out, options, dir, protected, &size);
    secret_mounts(&mut out, options, dir, secrets, view);
    push(
        &mut out,
        &[
            &"--chdir",
            &dir,
            &"--json-status-fd",
            &"3",
            &"--seccomp",
            &"4",
        ],
    );
    push(&mut out, &[&"--"]);
    push(&mut out, &[program]);
    out.extend(args.iter().cloned());
    out
}

/// Appends `items` to bwrap's arguments.
fn push(out: &mut Vec<OsString>, items: &[&dyn AsRef<OsStr>]) {
    out.extend(items.iter().map(|s| s.as_ref().to_os_string()));
}

/// The host read-only, a new /dev and /proc with the host-wide state
/// masked, and the capped tmpfs mounts (`size` is the cap).
fn system_mounts(out: &mut Vec<OsString>, protected: &Protected, size: &str) {
    push(out, &[&"--ro-bind", &"/", &"/"]);
    push(out, &[&"--dev", &"/dev", &"--proc", &"/proc"]);
    // /proc and /sys: the new proc's writable-by-root entries read-only,
    // host-wide state masked. /sys is read-only through `--ro-bind / /`
    // (bwrap makes every submount read-only).
    for path in PROC_READ_ONLY {
        push(out, &[&"--ro-bind-try", &path, &path]);
    }
    for path in &protected.proc_masked {
        push(out, &[&"--ro-bind", &"/dev/null", path]);
    }
    // The new proc itself read-only, as Landlock grants it: no process
    // opens another's `/proc/PID/mem` (its runner's, the same user's) for
    // writing. A process's own memory and descriptors are reached through
    // the calls, not through /proc; a magic link in `/proc/PID/fd` leads
    // to the file's own mount, which keeps its mode.
    push(out, &[&"--remount-ro", &"/proc"]);
    // tmpfs mounts, each capped (tmpfs pages are the host's memory); /dev
    // itself (bwrap's --dev tmpfs takes no size) read-only once /dev/shm
    // is mounted on it.
    for path in ["/tmp", "/run", "/dev/shm"] {
        push(out, &[&"--size", &size, &"--tmpfs", &path]);
    }
    push(out, &[&"--remount-ro", &"/dev"]);
}

/// The homes hidden (a tmpfs each, capped at `size` like the others), the
/// host's password hashes and host keys empty, then what toolchains need
/// shown again: read-only, except the private caches and the build outputs
/// the environment names.
fn home_mounts(out: &mut Vec<OsString>, view: &View, size: &str) {
    for path in &view.hidden_dirs {
        push(out, &[&"--size", &size, &"--tmpfs", path]);
    }
    for path in &view.hidden_files {
        push(out, &[&"--ro-bind", &"/dev/null", path]);
    }
    for (host, inside) in &view.read_only {
        push(out, &[&"--ro-bind", host, inside]);
    }
    for (host, inside) in &view.writable {
        push(out, &[&"--bind", host, inside]);
    }
    // The sandbox's git configuration, a file of the home's tmpfs: gone
    // with the attempt, whatever the command writes into it.
    if let Some(path) = &view.git_config {
        push(out, &[&"--file", &GIT_CONFIG_FD, path]);
    }
}

/// Every namespace new (the network shared only when allowed), user
/// namespaces refused inside, a new session, no capabilities.
fn namespaces(out: &mut Vec<OsString>, options: &BwrapOptions) {
    push(
        out,
        &[&"--unshare-all", &"--unshare-user", &"--disable-userns"],
    );
    if options.allow_network {
        push(out, &[&"--share-net"]);
    }
    push(
        out,
        &[
            &"--new-session",
            &"--die-with-parent",
            &"--cap-drop",
            &"ALL",
        ],
    );
}

/// The project and the writable paths bound, then what stays read-only
/// inside them and the scratch folders (a tmpfs capped at `size`).
fn project_mounts(
    out: &mut Vec<OsString>,
    options: &BwrapOptions,
    dir: &Path,
    protected: &Protected,
    size: &str,
) {
    // Writable paths come after the private /tmp so a project under /tmp
    // stays visible; secrets come last so a writable bind cannot undo them.
    // A project the command may not write (a toolchain's version asked)
    // is bound read-only whole.
    let project = if protected.project_read_only {
        "--ro-bind"
    } else {
        "--bind"
    };
    push(out, &[&project, &dir, &dir]);
    for path in &options.writable {
        push(out, &[&"--bind", path, path]);
    }
    // .git: read-only even inside a writable path, so that hooks, config
    // and a `.git` file's target cannot be planted for host git to run;
    // the venvs, `node_modules` and `target/` the host runs code from, so
    // that nothing can be planted there either.
    for path in protected.git.iter().chain(&protected.host_folders) {
        push(out, &[&"--ro-bind", path, path]);
    }
    for path in &protected.scratch {
        push(out, &[&"--size", &size, &"--tmpfs", path]);
    }
}

/// The credential stores hidden, last so that no writable bind undoes
/// them: a directory under an empty tmpfs, a file under `/dev/null`.
fn secret_mounts(
    out: &mut Vec<OsString>,
    options: &BwrapOptions,
    dir: &Path,
    secrets: &[(PathBuf, bool)],
    view: &View,
) {
    // A secret in a hidden home that nothing shows again is already absent
    // (ENOENT): a `/dev/null` there reads as EACCES (bwrap binds nodev),
    // and yarn 1 as root stopped on `open '/root/.npmrc'`.
    let shown_again = |path: &Path| {
        let inside = |place: &Path| path.starts_with(place);
        view.read_only.iter().any(|(_, at)| inside(at))
            || view.writable.iter().any(|(_, at)| inside(at))
            || options.writable.iter().any(|at| inside(at))
            || inside(dir)
    };
    let absent = |path: &Path| {
        view.hidden_dirs.iter().any(|dir| path.starts_with(dir)) && !shown_again(path)
    };
    for (path, is_dir) in secrets.iter().filter(|(path, _)| !absent(path)) {
        if *is_dir {
            push(out, &[&"--tmpfs", path]);
        } else {
            push(out, &[&"--ro-bind", &"/dev/null", path]);
        }
    }
}

/// The command's exit code from bwrap's `--json-status-fd` report: present
/// only when the command really ran to its end.
pub(crate) fn exit_code(status: &[u8]) -> Option<i32> {
    status_number(status, "\"exit-code\"")
}

/// The number after `key` in bwrap's status report.
fn status_number(status: &[u8], key: &str) -> Option<i32> {
    let text = String::from_utf8_lossy(status);
    let at = text.find(key)?;
    let rest = text[at + key.len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// bwrap's own complaint in the tail of stderr: its last `bwrap: ` line.
pub(crate) fn complaint(stderr_tail: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr_tail);
    text.lines()
        .rev()
        .find_map(|line| line.strip_prefix("bwrap: "))
        .map(str::to_owned)
}

/// If bwrap's complaint is that the program could not be executed, the
/// OS's reason ("No such file or directory"...).
pub(crate) fn exec_failure(complaint: &str) -> Option<&str> {
    let rest = complaint.strip_prefix("execvp ")?;
    rest.rsplit_once(": ").map(|(_, reason)| reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[OsString]) -> String {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn default_arguments() {
        let protected = Protected {
            proc_masked: vec!["/proc/kcore".into(), "/proc/keys".into()],
            git: vec!["/p/.git".into(), "/m/.git/worktrees/p".into()],
            host_folders: vec!["/p/.venv".into(), "/p/node_modules".into()],
            project_read_only: false,
            scratch: vec!["/p/node_modules/.vite-temp".into()],
            data_caches: vec!["/p/node_modules/.vite/vitest".into()],
        };
        let args = arguments(
            &BwrapOptions::default(),
            Path::new("/p"),
            &[
                (PathBuf::from("/h/.ssh"), true),
                (PathBuf::from("/h/.netrc"), false),
            ],
            &protected,
            &View::default(),
            &"cargo".into(),
            &["test".into()],
        );
        assert_eq!(
            strings(&args),
            "--ro-bind / / --dev /dev --proc /proc \
             --ro-bind-try /proc/sys /proc/sys \
             --ro-bind-try /proc/sysrq-trigger /proc/sysrq-trigger \
             --ro-bind-try /proc/irq /proc/irq --ro-bind-try /proc/bus /proc/bus \
             --ro-bind-try /proc/fs /proc/fs --ro-bind-try /proc/acpi /proc/acpi \
             --ro-bind-try /proc/scsi /proc/scsi --ro-bind-try /proc/pressure /proc/pressure \
             --ro-bind /dev/null /proc/kcore --ro-bind /dev/null /proc/keys \
             --remount-ro /proc \
             --size 1073741824 --tmpfs /tmp --size 1073741824 --tmpfs /run \
             --size 1073741824 --tmpfs /dev/shm --remount-ro /dev \
             --unshare-all --unshare-user --disable-userns --new-session \
             --die-with-parent --cap-drop ALL --bind /p /p \
             --ro-bind /p/.git /p/.git --ro-bind /m/.git/worktrees/p /m/.git/worktrees/p \
             --ro-bind /p/.venv /p/.venv --ro-bind /p/node_modules /p/node_modules \
             --size 1073741824 --tmpfs /p/node_modules/.vite-temp \
             --tmpfs /h/.ssh --ro-bind /dev/null /h/.netrc \
             --chdir /p --json-status-fd 3 --seccomp 4 -- cargo test"
        );
    }

    /// A secret in a hidden home is left absent (a `/dev/null` there read
    /// as EACCES: yarn 1 stopped on `/root/.npmrc`); one that a later bind
    /// shows again (a toolchain's folder, a writable path) is still covered.
    #[test]
    fn a_secret_in_a_hidden_home_is_absent_unless_shown_again() {
        let view = View {
            hidden_dirs: vec!["/h".into()],
            read_only: vec![("/h/.cargo".into(), "/h/.cargo".into())],
            ..View::default()
        };
        let options = BwrapOptions {
            writable: vec!["/h/.config".into()],
            ..BwrapOptions::default()
        };
        let args = strings(&arguments(
            &options,
            Path::new("/p"),
            &[
                (PathBuf::from("/h/.npmrc"), false),
                (PathBuf::from("/h/.ssh"), true),
                (PathBuf::from("/h/.cargo/credentials.toml"), false),
                (PathBuf::from("/h/.config/gh"), true),
                (PathBuf::from("/etc/shadow"), false),
            ],
            &Protected::default(),
            &view,
            &"x".into(),
            &[],
        ));
        assert!(!args.contains("/h/.npmrc"), "{args}");
        assert!(!args.contains("/h/.ssh"), "{args}");
        assert!(
            args.contains("--ro-bind /dev/null /h/.cargo/credentials.toml"),
            "{args}"
        );
        assert!(args.contains("--tmpfs /h/.config/gh"), "{args}");
        assert!(args.contains("--ro-bind /dev/null /etc/shadow"), "{args}");
    }

    #[test]
    fn git_is_read_only_after_writable_paths_and_tmpfs_size_is_an_option() {
        let options = BwrapOptions {
            writable: vec!["/p/.git".into()],
            tmpfs_size: 64 << 20,
            ..BwrapOptions::default()
        };
        let protected = Protected {
            proc_masked: Vec::new(),
            git: vec!["/p/.git".into()],
            ..Protected::default()
        };
        let args = strings(&arguments(
            &options,
            Path::new("/p"),
            &[],
            &protected,
            &View::default(),
            &"x".into(),
            &[],
        ));
        assert!(
            args.contains("--bind /p/.git /p/.git --ro-bind /p/.git /p/.git --chdir"),
            "{args}"
        );
        assert!(args.contains("--size 67108864 --tmpfs /tmp --size 67108864 --tmpfs /run --size 67108864 --tmpfs /dev/shm"), "{args}");
    }

    #[test]
    fn network_and_writable_paths() {
        let options = BwrapOptions {
            allow_network: true,
            allow_unix_sockets: true,
            writable: vec!["/cache".into()],
            ..BwrapOptions::default()
        };
        let args = strings(&arguments(
            &options,
            Path::new("/p"),
            &[],
            &Protected::default(),
            &View::default(),
            &"x".into(),
            &[],
        ));
        assert!(args.contains("--unshare-all --unshare-user --disable-userns --share-net"));
        assert!(args.contains("--bind /p /p --bind /cache /cache --chdir"));
        // The filter stays: Unix sockets allowed changes it, not its presence.
        assert!(args.ends_with("--json-status-fd 3 --seccomp 4 -- x"));
    }

    /// A toolchain's version asked: the whole project read-only.
    #[test]
    fn a_project_the_command_may_not_write_is_bound_read_only() {
        let protected = Protected {
            project_read_only: true,
            ..Protected::default()
        };
        let args = strings(&arguments(
            &BwrapOptions::default(),
            Path::new("/p"),
            &[],
            &protected,
            &View::default(),
            &"x".into(),
            &[],
        ));
        assert!(args.contains("--ro-bind /p /p --chdir /p"), "{args}");
        assert!(!args.contains("--bind /p /p"), "{args}");
    }

    #[test]
    fn the_git_configuration_is_a_file_of_the_homes_tmpfs() {
        let view = View {
            hidden_dirs: vec!["/root".into()],
            writable: vec![("/c/home-cache".into(), "/root/.cache".into())],
            git_config: Some("/root/.gitconfig".into()),
            ..View::default()
        };
        let args = strings(&arguments(
            &BwrapOptions::default(),
            Path::new("/p"),
            &[],
            &Protected::default(),
            &view,
            &"x".into(),
            &[],
        ));
        assert!(
            args.contains(
                "--tmpfs /root --bind /c/home-cache /root/.cache \
                 --file 5 /root/.gitconfig --unshare-all"
            ),
            "{args}"
        );
    }

    #[test]
    fn exit_code_only_from_an_exit_code_entry() {
        let ran = b"{ \"child-pid\": 7, \"mnt-namespace\": 1 }\n{ \"exit-code\": 124 }\n";
        assert_eq!(exit_code(ran), Some(124));
        assert_eq!(exit_code(b"{ \"child-pid\": 7 }\n"), None);
        assert_eq!(exit_code(b""), None);
        assert_eq!(exit_code(b"{ \"exit-code\": }"), None);
    }

    #[test]
    fn complaint_is_the_last_bwrap_line() {
        let tail = b"noise\nbwrap: Can't find source path /x: No such file or directory\n";
        assert_eq!(
            complaint(tail).as_deref(),
            Some("Can't find source path /x: No such file or directory")
        );
        assert_eq!(complaint(b"the test's own stderr\n"), None);
    }

    #[test]
    fn exec_failure_reason() {
        assert_eq!(
            exec_failure("execvp /x/y: No such file or directory"),
            Some("No such file or directory")
        );
        assert_eq!(
            exec_failure("Can't mount proc: Operation not permitted"),
            None
        );
    }
}
