//! What of its project a sandboxed command may write (`RunSpec::writes`),
//! under bubblewrap and under Landlock, and where Python's bytecode and
//! cargo's builds go.

use std::path::Path;
use std::time::Duration;

use std::path::PathBuf;

use testgate_run::{
    Finished, Installed, InstalledPart, LandlockOptions, ProjectWrites, RunSpec, Sandbox, Toolchain,
};

use super::{collect, scratch};

/// The two sandboxes.
fn sandboxes() -> [Sandbox; 2] {
    [
        Sandbox::Bubblewrap(testgate_run::BwrapOptions::default()),
        Sandbox::Landlock(LandlockOptions::default()),
    ]
}

/// The installed folders and build outputs of the toolchains testgate's
/// runner profiles hand over (`crates/testgate/src/runners/ecosystems.rs`):
/// this crate knows none by itself.
fn toolchains() -> Vec<Toolchain> {
    vec![
        Toolchain {
            installed: &[Installed::Beside {
                name: "target",
                manifest: "Cargo.toml",
            }],
            build_outputs: &[("CARGO_TARGET_DIR", "cargo-target")],
            ..Toolchain::NONE
        },
        Toolchain {
            installed: &[
                Installed::HoldingFile("pyvenv.cfg"),
                Installed::HoldingFolder("conda-meta"),
            ],
            ..Toolchain::NONE
        },
        Toolchain {
            installed: &[Installed::Named("node_modules")],
            scratch: &[InstalledPart {
                installed: "node_modules",
                beside: "package.json",
                path: ".vite-temp",
            }],
            data_caches: &[InstalledPart {
                installed: "node_modules",
                beside: "package.json",
                path: ".vite/vitest",
            }],
            ..Toolchain::NONE
        },
    ]
}

/// A project with a venv, `node_modules`, a cargo `target/` and sources.
fn project(dir: &Path) {
    for folder in [".venv/lib", "node_modules/dep", "target/debug", "src"] {
        std::fs::create_dir_all(dir.join(folder)).expect("mkdir");
    }
    std::fs::write(dir.join(".venv/pyvenv.cfg"), "home = /usr/bin\n").expect("write");
    std::fs::write(dir.join("node_modules/dep/index.js"), "1;\n").expect("write");
    std::fs::write(dir.join("Cargo.toml"), "[package]\n").expect("write");
}

/// A write to each of `paths` in the project (appended: Landlock governs
/// contents, not times, so `touch` of an existing file would pass), one
/// `NAME=STATUS` line each (2: the shell could not open it).
fn touches(paths: &[&str], dir: &Path, sandbox: &Sandbox, writes: ProjectWrites) -> String {
    touches_finished(paths, dir, sandbox, writes).1
}

/// [`touches`] with the run's report.
fn touches_finished(
    paths: &[&str],
    dir: &Path,
    sandbox: &Sandbox,
    writes: ProjectWrites,
) -> (Finished, String) {
    let script: String = paths
        .iter()
        .map(|p| format!("printf x 2>/dev/null >>{p}; echo {p}=$?; "))
        .collect();
    let spec = RunSpec::new("sh", ["-c", &script])
        .dir(dir)
        .sandbox(sandbox.clone())
        .toolchains(toolchains())
        .writes(writes)
        .timeout(Duration::from_secs(60));
    let (result, output) = collect(&spec);
    (result.expect("the sandbox runs"), output)
}

/// Under bubblewrap the installed folders are read-only; under Landlock
/// (which would have to take the project's top from the command to show
/// them so) they are written, and after the run what was added is removed
/// and what changed is reported (`Finished::installed`).
#[test]
fn installed_folders_are_read_only_or_watched_unless_a_step_installs() {
    for sandbox in sandboxes() {
        let dir = scratch();
        project(dir.path());
        let paths = [
            ".venv/lib/evil.pth",
            "node_modules/dep/index.js",
            "target/debug/bin",
            "src/new.rs",
            "Cargo.toml",
        ];
        let name = sandbox.name();
        let (finished, tests) =
            touches_finished(&paths, dir.path(), &sandbox, ProjectWrites::default());
        for installed in &paths[..3] {
            let written = tests.contains(&format!("{installed}=0"));
            let landlock = matches!(sandbox, Sandbox::Landlock(_));
            assert_eq!(written, landlock, "{name}: {tests}");
        }
        for allowed in &paths[3..] {
            assert!(tests.contains(&format!("{allowed}=0")), "{name}: {tests}");
        }
        let change = &finished.installed;
        match sandbox {
            Sandbox::Landlock(_) => {
                let added = [".venv/lib/evil.pth", "target/debug/bin"].map(PathBuf::from);
                assert_eq!(change.removed, added, "{name}: {change:?}");
                assert_eq!(
                    change.changed,
                    [PathBuf::from("node_modules/dep/index.js")],
                    "{name}: {change:?}"
                );
                assert!(change.vanished.is_empty() && change.left.is_empty());
                for gone in added {
                    assert!(!dir.path().join(gone).exists(), "{name}: left behind");
                }
            }
            Sandbox::Bubblewrap(_) | Sandbox::Auto(_) | Sandbox::Host => {
                assert!(change.is_empty(), "{name}: {change:?}");
            }
        }
        let installs = touches(&paths, dir.path(), &sandbox, ProjectWrites::All);
        assert_eq!(
            installs.matches("=0").count(),
            paths.len(),
            "{name}: {installs}"
        );
        let question = touches(&paths, dir.path(), &sandbox, ProjectWrites::Nothing);
        assert!(!question.contains("=0"), "{name}: {question}");
    }
}

/// The folder holding an installed one gets new entries in both
/// sandboxes (jest's `coverage/`, a missing `Cargo.lock`). When Landlock
/// split the project's grant to show the installed folders read-only, it
/// got none (`new-at-top=2`).
#[test]
fn the_folder_holding_a_venv_gets_new_entries_in_both_sandboxes() {
    for sandbox in sandboxes() {
        let dir = scratch();
        project(dir.path());
        let out = touches(
            &["new-at-top"],
            dir.path(),
            &sandbox,
            ProjectWrites::default(),
        );
        assert!(out.contains("new-at-top=0"), "{}: {out}", sandbox.name());
    }
}

/// Python's bytecode prefix and cargo's target directory point at folders
/// of the attempt's and the project's own, writable, whatever the command
/// was given; the bytecode prefix starts empty in every attempt.
#[test]
fn bytecode_and_builds_go_to_private_folders() {
    for sandbox in sandboxes() {
        let dir = scratch();
        let script = "echo prefix=$PYTHONPYCACHEPREFIX; echo target=$CARGO_TARGET_DIR; \
                      ls -A \"$PYTHONPYCACHEPREFIX\" 2>/dev/null | wc -l; \
                      mkdir -p \"$PYTHONPYCACHEPREFIX\" \"$CARGO_TARGET_DIR\" \
                      && touch \"$PYTHONPYCACHEPREFIX/left\" \"$CARGO_TARGET_DIR/built\" && echo wrote";
        let spec = RunSpec::new("sh", ["-c", script])
            .dir(dir.path())
            .env(
                testgate_run::EnvPolicy::new()
                    .set("PYTHONPYCACHEPREFIX", dir.path())
                    .set("CARGO_TARGET_DIR", "/var/tmp/shared-target"),
            )
            .sandbox(sandbox.clone())
            .toolchains(toolchains())
            .timeout(Duration::from_secs(60));
        for _ in 0..2 {
            let (result, output) = collect(&spec);
            result.expect("the sandbox runs");
            let name = sandbox.name();
            assert!(output.contains("wrote"), "{name}: {output}");
            assert!(
                !output.contains(&format!("prefix={}\n", dir.path().display())),
                "{name}: {output}"
            );
            assert!(
                !output.contains("target=/var/tmp/shared-target"),
                "{name}: {output}"
            );
            // Nothing the first attempt left in the prefix.
            assert!(output.contains("\n0\nwrote"), "{name}: {output}");
        }
        assert!(!Path::new("/var/tmp/shared-target").exists());
    }
}
