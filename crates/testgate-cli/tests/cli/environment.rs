//! An environment the sandbox cannot show is Inconclusive, never a verdict
//! on the code: a virtual environment linked to a folder the sandbox hides
//! (built at another path), and one whose interpreter's install is hidden.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::testgate;

/// The real interpreter behind `python3` (pyenv's shim resolved).
fn python() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3");
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .trim()
        .to_owned()
}

/// `testgate check --json --sandbox SANDBOX -C project OPTIONS -- .venv/bin/python -c pass`.
fn check(project: &Path, sandbox: &str, options: &[&str]) -> (Option<i32>, Value) {
    let dir = project.to_str().expect("a UTF-8 path");
    let mut args = vec!["check", "--json", "--sandbox", sandbox, "-C", dir];
    args.extend_from_slice(options);
    args.extend(["--", ".venv/bin/python", "-c", "print('started')"]);
    let run = testgate(&args, None);
    let json = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:#?}"));
    (run.code, json)
}

/// `.venv` in the project is a link to a venv in a folder outside it (in
/// the host's /tmp, which both sandboxes hide). Under Landlock Python
/// starts and cannot read its `pyvenv.cfg` (it was FAIL, no names); under
/// bubblewrap the link leads nowhere and the command would not start.
/// Shown with the option the reason names, it passes.
#[test]
fn a_venv_linked_outside_what_the_sandbox_shows_is_the_environment() {
    let hidden = tempfile::tempdir().expect("a hidden folder");
    let project = tempfile::tempdir().expect("a project");
    let venv = hidden.path().join("venv");
    let made = Command::new(python())
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .expect("python -m venv");
    assert!(made.success());
    std::os::unix::fs::symlink(&venv, project.path().join(".venv")).expect("link .venv");

    let (code, json) = check(project.path(), "landlock", &[]);
    assert_eq!(code, Some(125), "{json:#}");
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");
    assert_eq!(json["cause"], "environment", "{json:#}");
    let reason = json["reason"].as_str().unwrap_or_default();
    let named = format!("{}/.venv", project.path().display());
    assert!(reason.contains(&named), "{reason}");
    assert!(reason.contains("--writable DIR"), "{reason}");

    let (code, json) = check(project.path(), "bwrap", &[]);
    assert_eq!(code, Some(125), "{json:#}");
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");

    let shown = venv.to_str().expect("a UTF-8 path");
    for sandbox in ["landlock", "bwrap"] {
        let (code, json) = check(project.path(), sandbox, &["--writable", shown]);
        assert_eq!(code, Some(0), "{sandbox}: {json:#}");
    }
}

/// The venv lies in the project, but the interpreter its `pyvenv.cfg`
/// `home` names is a copy of the host's in a hidden folder: under Landlock,
/// called as `.venv/bin/python`, Python cannot find its standard library
/// at start (it was FAIL, no names), and the reason names the folder; with
/// the install shown, it passes. (Under bubblewrap the same command
/// passes: its view shows the install; not asserted here.)
#[test]
fn a_venv_of_an_interpreter_the_sandbox_hides_is_the_environment() {
    let hidden = tempfile::tempdir().expect("a hidden folder");
    let project = tempfile::tempdir().expect("a project");
    let install = hidden.path().join("install");
    let python = python();
    let script = r#"
set -e
install="$1"; project="$2"; python="$3"
version="$("$python" -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')"
stdlib="$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
mkdir -p "$install/bin" "$install/lib"
cp "$(readlink -f "$python")" "$install/bin/$version"
tar -C "$(dirname "$stdlib")" --exclude site-packages --exclude dist-packages -cf - "$(basename "$stdlib")" \
    | tar -C "$install/lib" -xf -
"$install/bin/$version" -m venv --without-pip --copies "$project/.venv"
"#;
    let made = Command::new("sh")
        .args(["-c", script, "sh"])
        .arg(&install)
        .arg(project.path())
        .arg(&python)
        .status()
        .expect("a copy of the interpreter and its venv");
    assert!(made.success());

    let (code, json) = check(project.path(), "landlock", &[]);
    assert_eq!(code, Some(125), "{json:#}");
    assert_eq!(json["cause"], "environment", "{json:#}");
    let reason = json["reason"].as_str().unwrap_or_default();
    assert!(reason.contains(&install.display().to_string()), "{reason}");
    assert!(reason.contains("--writable DIR"), "{reason}");

    let shown = install.to_str().expect("a UTF-8 path");
    let (code, json) = check(project.path(), "landlock", &["--writable", shown]);
    assert_eq!(code, Some(0), "{json:#}");
}

/// [`a_venv_linked_outside_what_the_sandbox_shows_is_the_environment`]
/// with default options inside a container (testgate under
/// `tests/containers/without-namespaces`, where `auto` picks Landlock):
/// the same `environment`, naming the venv and the option that shows it;
/// shown, it passes.
#[test]
fn a_venv_linked_outside_what_the_sandbox_shows_is_the_environment_in_a_container() {
    let hidden = tempfile::tempdir().expect("a hidden folder");
    let project = tempfile::tempdir().expect("a project");
    let venv = hidden.path().join("venv");
    let made = Command::new(python())
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .expect("python -m venv");
    assert!(made.success());
    std::os::unix::fs::symlink(&venv, project.path().join(".venv")).expect("link .venv");
    let check = |options: &[&std::ffi::OsStr]| {
        let mut command = Command::new(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/containers/without-namespaces"),
        );
        command
            .arg(env!("CARGO_BIN_EXE_testgate"))
            .args(["check", "--json", "-C"])
            .arg(project.path())
            .args(options)
            .args(["--", ".venv/bin/python", "-c", "print('started')"]);
        let run = crate::run(command, None);
        let json: Value =
            serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:#?}"));
        (run.code, json)
    };

    let (code, json) = check(&[]);
    assert_eq!(code, Some(125), "{json:#}");
    assert_eq!(json["sandbox"]["kind"], "landlock", "{json:#}");
    assert_eq!(json["cause"], "environment", "{json:#}");
    let reason = json["reason"].as_str().unwrap_or_default();
    let named = format!("{}/.venv", project.path().display());
    assert!(reason.contains(&named), "{reason}");
    assert!(reason.contains("--writable DIR"), "{reason}");

    let (code, json) = check(&["--writable".as_ref(), venv.as_os_str()]);
    assert_eq!(code, Some(0), "{json:#}");
}
