//! The bubblewrap command line, bwrap's status report and its refusals.

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

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
        .filter_map(|rel| {
            let path = home.join(rel);
            let real = path.canonicalize().ok()?;
            let is_dir = real.metadata().ok()?.is_dir();
            Some((real, is_dir))
        })
        .collect()
}

/// bwrap's arguments (after the program name) to run `program args` in
/// `dir`. `secrets` comes from [`secrets_in`]. The environment is not on the
/// command line: bwrap passes its own (cleared, resolved) environment on.
pub(crate) fn arguments(
    options: &BwrapOptions,
    dir: &Path,
    secrets: &[(PathBuf, bool)],
    program: &OsString,
    args: &[OsString],
) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    let mut push = |items: &[&dyn AsRef<std::ffi::OsStr>]| {
        out.extend(items.iter().map(|s| s.as_ref().to_os_string()));
    };
    push(&[&"--ro-bind", &"/", &"/"]);
    push(&[&"--dev", &"/dev", &"--proc", &"/proc"]);
    push(&[&"--tmpfs", &"/tmp", &"--tmpfs", &"/run"]);
    push(&[&"--unshare-all", &"--unshare-user", &"--disable-userns"]);
    if options.allow_network {
        push(&[&"--share-net"]);
    }
    push(&[
        &"--new-session",
        &"--die-with-parent",
        &"--cap-drop",
        &"ALL",
    ]);
    // Writable paths come after the private /tmp so a project under /tmp
    // stays visible; secrets come last so a writable bind cannot undo them.
    push(&[&"--bind", &dir, &dir]);
    for path in &options.writable {
        push(&[&"--bind", path, path]);
    }
    for (path, is_dir) in secrets {
        if *is_dir {
            push(&[&"--tmpfs", path]);
        } else {
            push(&[&"--ro-bind", &"/dev/null", path]);
        }
    }
    push(&[&"--chdir", &dir, &"--json-status-fd", &"3"]);
    if !options.allow_unix_sockets {
        push(&[&"--seccomp", &"4"]);
    }
    push(&[&"--"]);
    push(&[program]);
    out.extend(args.iter().cloned());
    out
}

/// The command's exit code from bwrap's `--json-status-fd` report: present
/// only when the command really ran to its end.
pub(crate) fn exit_code(status: &[u8]) -> Option<i32> {
    let text = String::from_utf8_lossy(status);
    let at = text.find("\"exit-code\"")?;
    let rest = text[at + "\"exit-code\"".len()..].trim_start();
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
        let args = arguments(
            &BwrapOptions::default(),
            Path::new("/p"),
            &[
                (PathBuf::from("/h/.ssh"), true),
                (PathBuf::from("/h/.netrc"), false),
            ],
            &"cargo".into(),
            &["test".into()],
        );
        assert_eq!(
            strings(&args),
            "--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /run \
             --unshare-all --unshare-user --disable-userns --new-session \
             --die-with-parent --cap-drop ALL --bind /p /p --tmpfs /h/.ssh \
             --ro-bind /dev/null /h/.netrc --chdir /p --json-status-fd 3 --seccomp 4 -- cargo test"
        );
    }

    #[test]
    fn network_and_writable_paths() {
        let options = BwrapOptions {
            allow_network: true,
            allow_unix_sockets: true,
            writable: vec!["/cache".into()],
            ..BwrapOptions::default()
        };
        let args = strings(&arguments(&options, Path::new("/p"), &[], &"x".into(), &[]));
        assert!(args.contains("--unshare-all --unshare-user --disable-userns --share-net"));
        assert!(args.contains("--bind /p /p --bind /cache /cache --chdir"));
        assert!(args.ends_with("--json-status-fd 3 -- x"));
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
