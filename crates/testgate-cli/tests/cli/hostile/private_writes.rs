//! What a check writes that a later check or the host reads (issue 34,
//! item 3): bytecode Python would load instead of the source, plants in the
//! folders the host installs into and builds in (a venv, `node_modules`,
//! `target/`, a shared `CARGO_TARGET_DIR`), and what a version question
//! of `--record` could plant. Each runs under bubblewrap here and under
//! Landlock in [`landlock`].

use std::fs;
use std::path::Path;
use std::process::Command;

use super::harness::{Attack, Outcome, Place};

fn write(root: &Path, path: &str, body: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, body).expect("write");
}

/// The `private-writes` suite in `place`, its attack read from the file
/// `what`, in a project holding a broken commit: `pkg/mod.py` says
/// `VALUE = 4`, `test_value.py` wants 5.
fn broken_commit(place: Place) -> Attack {
    let attack = Attack::new_in("private-writes", place).script_arg("from-file");
    let root = attack.project();
    write(root, "pkg/__init__.py", "");
    write(root, "pkg/mod.py", "VALUE = 4\n");
    write(
        root,
        "test_value.py",
        "from pkg.mod import VALUE\n\n\ndef test_value():\n    assert VALUE == 5\n",
    );
    attack
}

fn what(attack: &Attack, what: &str) {
    fs::write(attack.project().join("what"), what).expect("what");
}

/// The broken commit's check: Fail, naming the test, whatever bytecode
/// lies in the tree.
fn assert_broken_commit_fails(outcome: &Outcome) {
    outcome.assert_verdict("fail", None, 1);
    let failing = outcome.doc()["failing"].to_string();
    assert!(failing.contains("test_value"), "{failing}");
}

/// Forged bytecode for `pkg/mod.py`, `VALUE = 5`, unchecked-hash (Python
/// loads it whatever the source holds), where an import reads it:
/// `pkg/__pycache__/mod.cpython-3X.pyc`.
fn forge_bytecode(root: &Path) {
    let forged = root.join("forged.py");
    fs::write(&forged, "VALUE = 5\n").expect("write");
    let status = Command::new("python3")
        .current_dir(root)
        .arg("-c")
        .arg(
            "import importlib.util, py_compile\n\
             py_compile.compile('forged.py', cfile=importlib.util.cache_from_source('pkg/mod.py'),\n\
             invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
        )
        .env_remove("PYTHONPYCACHEPREFIX")
        .status()
        .expect("python3");
    assert!(status.success());
    fs::remove_file(forged).expect("rm");
    let cache = fs::read_dir(root.join("pkg/__pycache__")).expect("__pycache__");
    assert_eq!(cache.count(), 1, "no forged bytecode");
}

/// A tree submitted with forged bytecode for its broken module: Python
/// reads bytecode only from the attempt's own prefix, so the source is
/// what runs. Before: pass (0).
pub(super) fn forged_bytecode_in_the_submitted_tree_is_not_read_in(place: Place) {
    let attack = broken_commit(place);
    forge_bytecode(attack.project());
    what(&attack, "test");
    let outcome = attack.run();
    assert_broken_commit_fails(&outcome);
    attack.assert_contained(&outcome);
}

/// A check that plants forged bytecode (in the tree and in the bytecode
/// prefix it was given), then the next check of the broken commit: Fail.
/// Before: the plant stayed in `pkg/__pycache__` and the next check passed.
pub(super) fn bytecode_a_check_planted_is_not_read_by_the_next_in(place: Place) {
    let attack = broken_commit(place);
    what(&attack, "bytecode");
    let planting = attack.run();
    assert!(
        !planting.reason().contains("refused: bytecode"),
        "{}",
        planting.reason()
    );
    attack.assert_contained(&planting);
    what(&attack, "test");
    let outcome = attack
        .start_as(&format!("{}-next", attack.marker()))
        .finish();
    assert_broken_commit_fails(&outcome);
    attack.assert_contained(&outcome);
}

/// A `.pth` in the project's venv, a module rewritten there,
/// `node_modules/dep/index.js` rewritten, a test binary replaced in
/// `target/debug/deps` (beside a `Cargo.toml`) and then removed. Under
/// bubblewrap each is refused, the host's files as they were. Under
/// Landlock (which cannot show them read-only without taking the project's
/// top from honest tests) the `.pth` is removed after the run and each
/// change is named: Inconclusive `tree_changed`. Either way nothing is
/// added to site-packages, and the next check of the broken commit is a
/// Fail. Before: pass (0) with every plant left for the host's next
/// `python`, `node` or `cargo test` to run as root.
pub(super) fn nothing_is_planted_in_venv_node_modules_or_target_in(place: Place) {
    let attack = broken_commit(place);
    what(&attack, "installed");
    let root = attack.project();
    let site = ".venv/lib/python3/site-packages";
    write(root, ".venv/pyvenv.cfg", "home = /usr/bin\n");
    write(root, &format!("{site}/dep.py"), "VALUE = 1\n");
    write(root, "package.json", "{\"name\": \"web\"}\n");
    write(root, "node_modules/dep/index.js", "module.exports = 1;\n");
    write(root, "Cargo.toml", "[package]\nname = \"unit\"\n");
    write(root, "target/debug/deps/unit-0123456789abcdef", "ELF\n");
    let outcome = attack.run();
    match place {
        Place::Bwrap => assert_installed_refused(root, site, &outcome),
        Place::Landlock => {
            outcome.assert_verdict("inconclusive", Some("tree_changed"), 125);
            let pth = format!("{site}/evil-{}.pth", attack.marker());
            for (path, what) in [
                (pth.as_str(), "added and removed,"),
                (&format!("{site}/dep.py"), "changed, not put back,"),
                ("node_modules/dep/index.js", "changed, not put back,"),
                (
                    "target/debug/deps/unit-0123456789abcdef",
                    "deleted, not put back,",
                ),
            ] {
                let named = format!("{path} ({what} in an installed folder the host runs from)");
                assert!(
                    outcome.reason().contains(&named),
                    "{named} not said:\n{}",
                    outcome.reason()
                );
            }
            let tree = &outcome.doc()["tree"];
            assert!(tree["added"].to_string().contains(&pth), "{tree}");
            assert!(tree["changed"].to_string().contains("dep.py"), "{tree}");
        }
    }
    let site_packages: Vec<_> = fs::read_dir(root.join(site))
        .expect("site-packages")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(site_packages, ["dep.py"], "a plant in the venv");
    attack.assert_contained(&outcome);
    what(&attack, "test");
    let next = attack
        .start_as(&format!("{}-next", attack.marker()))
        .finish();
    assert_broken_commit_fails(&next);
    attack.assert_contained(&next);
}

/// Under bubblewrap: every write in the installed folders refused, their
/// files as they were.
fn assert_installed_refused(root: &Path, site: &str, outcome: &Outcome) {
    outcome.assert_verdict("pass", None, 0);
    for refused in [
        "pth",
        "site-packages",
        "node_modules",
        "target",
        "target rm",
    ] {
        assert!(
            outcome.reason().contains(&format!("refused: {refused}\n")),
            "{refused} was not refused:\n{}",
            outcome.reason()
        );
    }
    for (path, body) in [
        (format!("{site}/dep.py"), "VALUE = 1\n"),
        (
            "node_modules/dep/index.js".to_owned(),
            "module.exports = 1;\n",
        ),
        (
            "target/debug/deps/unit-0123456789abcdef".to_owned(),
            "ELF\n",
        ),
    ] {
        assert_eq!(
            fs::read_to_string(root.join(&path)).expect("still there"),
            body,
            "{path} changed"
        );
    }
}

/// testgate run with `CARGO_TARGET_DIR` naming a folder shared with other
/// projects (holding another project's test binary): the command builds in
/// the project's private folder, and the shared one is not written.
/// Before: it was bound writable, and the binary replaced.
pub(super) fn a_shared_cargo_target_dir_is_not_written_in(place: Place) {
    let attack = Attack::new_in("private-writes", place);
    let shared = attack.outside().join("shared-target");
    write(&shared, "debug/deps/other-0123456789abcdef", "ELF\n");
    let attack = attack
        .testgate_env("CARGO_TARGET_DIR", &shared)
        .script_arg("shared")
        .script_arg(&shared);
    let outcome = attack.run();
    outcome.assert_verdict("pass", None, 0);
    for refused in ["shared binary", "shared plant"] {
        assert!(
            outcome.reason().contains(&format!("refused: {refused}")),
            "{refused} was not refused:\n{}",
            outcome.reason()
        );
    }
    assert!(
        outcome.reason().contains("built in /"),
        "the private build folder was not writable:\n{}",
        outcome.reason()
    );
    assert_eq!(
        fs::read_to_string(shared.join("debug/deps/other-0123456789abcdef")).expect("kept"),
        "ELF\n"
    );
    let planted: Vec<_> = fs::read_dir(&shared)
        .expect("shared")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(planted, ["debug"], "a plant in the shared folder");
    attack.assert_contained(&outcome);
}

/// `--record` asks the toolchain's version (`python3 -m pytest --version`)
/// in the project; a module of the commit's that shadows pytest plants a
/// `conftest.py` and a `Makefile` when asked. The question runs before the
/// tree is recorded and with the project read-only: nothing is planted.
/// Before: it ran after the tree check, and both were left for the host.
pub(super) fn a_version_question_plants_nothing_in(place: Place) {
    let records = tempfile::tempdir().expect("tempdir");
    let record = records.path().join("record.json");
    let attack = Attack::new_in("private-writes", place)
        .arg("--record")
        .arg(&record)
        .runner_command(&["python3", "-m", "pytest", "-q"]);
    write(
        attack.project(),
        "pytest.py",
        "import sys\n\
         if '--version' in sys.argv:\n\
         \x20   for name in ('conftest.py', 'Makefile'):\n\
         \x20       try:\n\
         \x20           open(name, 'w').write('planted\\n')\n\
         \x20       except OSError as e:\n\
         \x20           print('refused:', name, e)\n\
         \x20   print('pytest 9.9.9')\n\
         \x20   sys.exit(0)\n\
         print('1 passed in 0.01s')\n",
    );
    let outcome = attack.run();
    attack.assert_contained(&outcome);
    for planted in ["conftest.py", "Makefile"] {
        assert!(
            !attack.project().join(planted).exists(),
            "the version question planted {planted}: {}",
            outcome.reason()
        );
    }
    assert!(record.is_file(), "no record written");
}

#[test]
fn forged_bytecode_in_the_submitted_tree_is_not_read() {
    forged_bytecode_in_the_submitted_tree_is_not_read_in(Place::Bwrap);
}

#[test]
fn bytecode_a_check_planted_is_not_read_by_the_next() {
    bytecode_a_check_planted_is_not_read_by_the_next_in(Place::Bwrap);
}

#[test]
fn nothing_is_planted_in_venv_node_modules_or_target() {
    nothing_is_planted_in_venv_node_modules_or_target_in(Place::Bwrap);
}

#[test]
fn a_shared_cargo_target_dir_is_not_written() {
    a_shared_cargo_target_dir_is_not_written_in(Place::Bwrap);
}

#[test]
fn a_version_question_plants_nothing() {
    a_version_question_plants_nothing_in(Place::Bwrap);
}

/// The same attacks under Landlock.
mod landlock {
    use super::*;

    #[test]
    fn forged_bytecode_in_the_submitted_tree_is_not_read() {
        forged_bytecode_in_the_submitted_tree_is_not_read_in(Place::Landlock);
    }

    #[test]
    fn bytecode_a_check_planted_is_not_read_by_the_next() {
        bytecode_a_check_planted_is_not_read_by_the_next_in(Place::Landlock);
    }

    #[test]
    fn nothing_is_planted_in_venv_node_modules_or_target() {
        nothing_is_planted_in_venv_node_modules_or_target_in(Place::Landlock);
    }

    #[test]
    fn a_shared_cargo_target_dir_is_not_written() {
        a_shared_cargo_target_dir_is_not_written_in(Place::Landlock);
    }

    #[test]
    fn a_version_question_plants_nothing() {
        a_version_question_plants_nothing_in(Place::Landlock);
    }
}
