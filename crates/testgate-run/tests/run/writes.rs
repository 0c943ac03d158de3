//! What of its project a sandboxed command may write (`RunSpec::writes`),
//! under bubblewrap and under Landlock, and where Python's bytecode and
//! cargo's builds go.

use std::path::Path;
use std::time::Duration;

use testgate_run::{LandlockOptions, ProjectWrites, RunSpec, Sandbox};

use super::{collect, scratch};

/// The two sandboxes.
fn sandboxes() -> [Sandbox; 2] {
    [
        Sandbox::Bubblewrap(testgate_run::BwrapOptions::default()),
        Sandbox::Landlock(LandlockOptions::default()),
    ]
}

/// A project with a venv, `node_modules`, a cargo `target/` and sources.
fn project(dir: &Path) {
    for folder in [".venv/lib", "node_modules/dep", "target/debug", "src"] {
        std::fs::create_dir_all(dir.join(folder)).expect("mkdir");
    }
    std::fs::write(dir.join(".venv/pyvenv.cfg"), "home = /usr/bin\n").expect("write");
    std::fs::write(dir.join("Cargo.toml"), "[package]\n").expect("write");
}

/// A write to each of `paths` in the project (appended: Landlock governs
/// contents, not times, so `touch` of an existing file would pass), one
/// `NAME=STATUS` line each (2: the shell could not open it).
fn touches(paths: &[&str], dir: &Path, sandbox: &Sandbox, writes: ProjectWrites) -> String {
    let script: String = paths
        .iter()
        .map(|p| format!("printf x 2>/dev/null >>{p}; echo {p}=$?; "))
        .collect();
    let spec = RunSpec::new("sh", ["-c", &script])
        .dir(dir)
        .sandbox(sandbox.clone())
        .writes(writes)
        .timeout(Duration::from_secs(60));
    let (result, output) = collect(&spec);
    result.expect("the sandbox runs");
    output
}

#[test]
fn installed_folders_are_read_only_unless_a_step_installs() {
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
        let tests = touches(&paths, dir.path(), &sandbox, ProjectWrites::default());
        for refused in &paths[..3] {
            assert!(!tests.contains(&format!("{refused}=0")), "{name}: {tests}");
        }
        for allowed in &paths[3..] {
            assert!(tests.contains(&format!("{allowed}=0")), "{name}: {tests}");
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

/// Landlock's cost: the folder holding an installed one gets no new
/// entry (under bubblewrap it does).
#[test]
fn under_landlock_the_folder_holding_a_venv_gets_no_new_entry() {
    for sandbox in sandboxes() {
        let dir = scratch();
        project(dir.path());
        let out = touches(
            &["new-at-top"],
            dir.path(),
            &sandbox,
            ProjectWrites::default(),
        );
        let expected = match sandbox {
            Sandbox::Landlock(_) => "new-at-top=2",
            Sandbox::Bubblewrap(_) | Sandbox::Auto(_) | Sandbox::Host => "new-at-top=0",
        };
        assert!(out.contains(expected), "{}: {out}", sandbox.name());
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
