//! Detection on small trees: one runner each, the package managers, the
//! ambiguous, unknown and monorepo projects, and files the tests planted.

use std::path::Path;

use super::*;
use crate::runners::npm;

/// A project of `files` (path, text); a path ending in `/` is a folder.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let path = dir.path().join(path);
        if let Some(folder) = path.to_str().and_then(|p| p.strip_suffix('/')) {
            std::fs::create_dir_all(folder).expect("mkdir");
            continue;
        }
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
    dir
}

fn host() -> HostFacts {
    HostFacts::default()
}

/// The command chosen in `dir`, as one line.
fn chosen(dir: &Path, host: &HostFacts) -> String {
    match detect_with(dir, host) {
        Ok(detected) => detected.shown_command(),
        Err(e) => panic!("no command: {e}"),
    }
}

fn refusal(dir: &Path, host: &HostFacts) -> String {
    let message = detect_with(dir, host).expect_err("refused").to_string();
    assert!(!message.contains('\n'), "{message}");
    message
}

#[test]
fn each_runner_is_found_by_its_files() {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("Cargo.toml", "[package]\nname = \"a\"\n")], "cargo test"),
        (
            &[("Cargo.toml", "[package]\nname = \"a\"\n\n[workspace]\n")],
            "cargo test --workspace",
        ),
        (&[("go.mod", "module calc\n")], "go test ./..."),
        (&[("pytest.ini", "[pytest]\n")], "python3 -m pytest"),
        (
            &[(
                "pyproject.toml",
                "[tool.pytest.ini_options]\naddopts = \"-q\"\n",
            )],
            "python3 -m pytest",
        ),
        (&[("setup.cfg", "[tool:pytest]\n")], "python3 -m pytest"),
        (&[("tox.ini", "[tox]\n[pytest]\n")], "python3 -m pytest"),
        (&[("conftest.py", "")], "python3 -m pytest"),
        (&[("tests/test_calc.py", "")], "python3 -m pytest"),
        (
            &[("package.json", r#"{"scripts": {"test": "jest --ci"}}"#)],
            "npm test",
        ),
        (
            &[(
                "package.json",
                r#"{"scripts": {"test": "cross-env CI=1 vitest run"}}"#,
            )],
            "npm test",
        ),
        (&[("jest.config.js", "")], "npx jest"),
        (
            &[("package.json", r#"{"jest": {"testEnvironment": "node"}}"#)],
            "npx jest",
        ),
        (&[("vitest.config.ts", "")], "npx vitest run"),
        (
            &[(
                "package.json",
                r#"{"scripts": {"test": "mocha --reporter dot"}}"#,
            )],
            "npm test",
        ),
        (
            &[(
                "package.json",
                r#"{"scripts": {"test": "node --test test/"}}"#,
            )],
            "npm test",
        ),
        // The script is the project's command, whatever config lies beside.
        (
            &[
                ("package.json", r#"{"scripts": {"test": "jest"}}"#),
                ("vitest.config.ts", ""),
            ],
            "npm test",
        ),
    ];
    for (files, command) in cases {
        let dir = tree(files);
        assert_eq!(chosen(dir.path(), &host()), *command, "{files:?}");
    }
}

#[test]
fn the_why_names_the_files() {
    let dir = tree(&[
        ("package.json", r#"{"scripts": {"test": "vitest run"}}"#),
        ("pnpm-lock.yaml", ""),
    ]);
    let detected = detect_with(dir.path(), &host()).expect("found");
    assert_eq!(detected.runner, Runner::Vitest);
    assert_eq!(
        detected.to_string(),
        "`pnpm test` (found package.json's test script `vitest run`, pnpm-lock.yaml)"
    );
}

#[test]
fn the_lockfile_names_the_package_manager() {
    for (lockfile, command) in [
        ("package-lock.json", "npm test"),
        ("pnpm-lock.yaml", "pnpm test"),
        ("yarn.lock", "yarn test"),
        ("bun.lockb", "bun run test"),
        ("bun.lock", "bun run test"),
    ] {
        let dir = tree(&[
            ("package.json", r#"{"scripts": {"test": "jest"}}"#),
            (lockfile, ""),
        ]);
        assert_eq!(chosen(dir.path(), &host()), command, "{lockfile}");
    }
}

#[test]
fn nextest_only_when_configured_and_installed() {
    let files = [
        ("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n"),
        (".config/nextest.toml", "[profile.default]\n"),
    ];
    let dir = tree(&files);
    let nextest = HostFacts {
        nextest: true,
        ..HostFacts::default()
    };
    assert_eq!(
        chosen(dir.path(), &nextest),
        "cargo nextest run --workspace"
    );
    // Where it must not fire: nextest not installed, or not configured.
    assert_eq!(chosen(dir.path(), &host()), "cargo test --workspace");
    let plain = tree(&files[..1]);
    assert_eq!(chosen(plain.path(), &nextest), "cargo test --workspace");
}

#[test]
fn npm_placeholder_and_unknown_runners_are_not_runners() {
    assert_eq!(
        npm::runner_in_script(r#"echo "Error: no test specified" && exit 1"#),
        None
    );
    assert_eq!(npm::runner_in_script("turbo run test"), None);
    assert_eq!(npm::runner_in_script("tsc && jest"), Some(Runner::Jest));
    assert_eq!(npm::runner_in_script("tsc && mocha"), Some(Runner::Mocha));
    assert_eq!(
        npm::runner_in_script("node --test --test-reporter=spec"),
        Some(Runner::Node)
    );
    // Where it must not fire: node running a script.
    assert_eq!(npm::runner_in_script("node scripts/test.js"), None);
    assert_eq!(
        npm::runner_in_script("node_modules/.bin/vitest run"),
        Some(Runner::Vitest)
    );
    let dir = tree(&[(
        "package.json",
        r#"{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}"#,
    )]);
    let message = refusal(dir.path(), &host());
    assert!(message.starts_with("found no test runner in "), "{message}");
    assert!(message.contains("looked for Cargo.toml"), "{message}");
    assert!(
        message.ends_with("pass the test command after `--`"),
        "{message}"
    );
}

#[test]
fn two_runners_at_the_root_are_ambiguous() {
    let dir = tree(&[
        ("Cargo.toml", "[package]\nname = \"a\"\n"),
        ("package.json", r#"{"scripts": {"test": "jest"}}"#),
    ]);
    let message = refusal(dir.path(), &host());
    assert!(
        message.contains("found more than one test runner in ",),
        "{message}"
    );
    assert!(
        message.contains(": `cargo test` (found Cargo.toml), `npm test` (found package.json's test script `jest`); "),
        "{message}"
    );
    assert!(
        message.ends_with("(e.g. `testgate check -- cargo test`)"),
        "{message}"
    );
    // A `tests/` folder of Python files alone yields to a file that names
    // a runner.
    let layout = tree(&[
        ("Cargo.toml", "[package]\nname = \"a\"\n"),
        ("tests/test_helper.py", ""),
    ]);
    assert_eq!(chosen(layout.path(), &host()), "cargo test");
}

#[test]
fn a_monorepo_lists_its_packages() {
    let dir = tree(&[
        ("web/package.json", r#"{"scripts": {"test": "vitest run"}}"#),
        ("api/go.mod", "module api\n"),
        ("docs/", ""),
        (
            "node_modules/x/package.json",
            r#"{"scripts": {"test": "jest"}}"#,
        ),
    ]);
    let message = refusal(dir.path(), &host());
    assert!(
        message.starts_with("found no test runner at the root of "),
        "{message}"
    );
    assert!(
        message.contains(": api/ (`go test ./...` (found go.mod)), web/ (`npm test` (found package.json's test script `vitest run`)); check each with -C FOLDER"),
        "{message}"
    );
    assert!(!message.contains("node_modules"), "{message}");
}

#[test]
fn the_project_venv_and_the_active_one_run_pytest() {
    let dir = tree(&[("conftest.py", ""), (".venv/bin/", "")]);
    std::os::unix::fs::symlink("/usr/bin/python3", dir.path().join(".venv/bin/python"))
        .expect("symlink");
    let python = dir.path().join(".venv/bin/python");
    let detected = detect_with(dir.path(), &host()).expect("found");
    assert_eq!(detected.command[0], python.as_os_str());
    assert_eq!(detected.command[1..], ["-m", "pytest"]);
    assert_eq!(detected.why(), "found conftest.py, .venv/bin/python");

    let active = HostFacts {
        virtual_env: Some(PathBuf::from("/opt/env")),
        ..HostFacts::default()
    };
    let bare = tree(&[("conftest.py", "")]);
    assert_eq!(
        chosen(bare.path(), &active),
        "/opt/env/bin/python -m pytest"
    );
    // The project's own wins over the active one.
    assert_eq!(
        detect_with(dir.path(), &active).expect("found").command[0],
        python.as_os_str()
    );
}

#[test]
fn a_venv_linked_out_of_the_project_is_not_entered() {
    let outside = tree(&[("bin/python", "")]);
    let dir = tree(&[("conftest.py", "")]);
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".venv")).expect("symlink");
    assert_eq!(chosen(dir.path(), &host()), "python3 -m pytest");
}

#[test]
fn planted_links_and_fifos_are_ignored_never_followed_or_waited_on() {
    let outside = tree(&[
        ("package.json", r#"{"scripts": {"test": "jest"}}"#),
        ("go.mod", "module host\n"),
        ("tests/test_host.py", ""),
    ]);
    let dir = tree(&[]);
    for name in ["package.json", "go.mod"] {
        std::os::unix::fs::symlink(outside.path().join(name), dir.path().join(name))
            .expect("symlink");
    }
    std::os::unix::fs::symlink(outside.path().join("tests"), dir.path().join("tests"))
        .expect("symlink");
    assert!(refusal(dir.path(), &host()).starts_with("found no test runner in "));

    let fifo = tree(&[("jest.config.js", "")]);
    let made = std::process::Command::new("mkfifo")
        .arg(fifo.path().join("package.json"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    // No writer: a blocking open would hang here.
    assert_eq!(chosen(fifo.path(), &host()), "npx jest");

    let big = tree(&[(
        "package.json",
        &format!(
            r#"{{"scripts": {{"test": "jest"}}, "pad": "{}"}}"#,
            " ".repeat(2 << 20)
        ),
    )]);
    assert!(refusal(big.path(), &host()).starts_with("found no test runner in "));
}

#[test]
fn the_projects_text_is_shown_on_one_line_inert() {
    let dir = tree(&[(
        "package.json",
        r#"{"scripts": {"test": "jest \u001b]52;c;ZWNobyBvd25lZA==\u0007\nPASS \u202e"}}"#,
    )]);
    let detected = detect_with(dir.path(), &host()).expect("found");
    let why = detected.why();
    assert!(
        !why.contains(['\n', '\u{1b}', '\u{7}', '\u{202e}']),
        "{why}"
    );
    assert!(why.contains("\\u{a}PASS \\u{202e}"), "{why}");

    let folder = "web\u{1b}[2J\nFAIL";
    let monorepo = tree(&[(&format!("{folder}/go.mod"), "module web\n")]);
    let message = refusal(monorepo.path(), &host());
    assert!(!message.contains('\u{1b}'), "{message}");
    assert!(
        message.contains("\\u{a}FAIL/ (`go test ./...`"),
        "{message}"
    );
}
