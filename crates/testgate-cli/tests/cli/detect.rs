//! `testgate check` with no command, started as a user would on copies of
//! the real projects of `tests/projects/e2e/` under bubblewrap with default
//! options: the runner found, the line that says so, the verdict, the
//! JSON's `detected` and the record's command; the usage errors of an
//! unknown, ambiguous or monorepo project; a batch line without `command`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::check::fresh_copy;
use crate::{Run, run};

const FAIL: i32 = 1;
const PASS: i32 = 0;
const USAGE: i32 = 2;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the repository root")
        .to_path_buf()
}

/// The shared node_modules the node projects link to.
fn node_modules() -> PathBuf {
    let modules = repo().join("tests/projects/e2e/node/node_modules");
    assert!(
        modules.is_dir(),
        "{} is missing: run scripts/setup (npm ci)",
        modules.display()
    );
    modules
}

/// A copy of the e2e node project `name` (`jest`, `vitest`, `mocha`) with the
/// shared node_modules linked in.
fn node_project(name: &str) -> (tempfile::TempDir, PathBuf) {
    let (tmp, dir) = fresh_copy(&format!("tests/projects/e2e/node/{name}"), name);
    std::os::unix::fs::symlink(node_modules(), dir.join("node_modules")).expect("link");
    (tmp, dir)
}

/// `testgate check -C dir --env TESTGATE_FIXTURE=mode ARGS` with no
/// command, the host's active virtual environment left out unless `venv`.
fn check_detected(dir: &Path, mode: &str, args: &[&str], venv: Option<&Path>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command
        .arg("check")
        .arg("-C")
        .arg(dir)
        .arg("--env")
        .arg(format!("TESTGATE_FIXTURE={mode}"))
        .args(["--timeout", "150s"])
        .args(args)
        .env_remove("VIRTUAL_ENV");
    if let Some(venv) = venv {
        command.env("VIRTUAL_ENV", venv);
    }
    run(command, None)
}

/// A virtual environment at `at` that sees the host's pytest, without pip
/// (nothing is downloaded).
fn make_venv(at: &Path) {
    #[expect(
        clippy::disallowed_methods,
        reason = "the test builds its fixture, a virtual environment"
    )]
    let made = Command::new("python3")
        .args(["-m", "venv", "--system-site-packages", "--without-pip"])
        .arg(at)
        .status()
        .expect("python3 -m venv");
    assert!(made.success(), "python3 -m venv {}", at.display());
}

/// Runs `testgate check` with no command on `dir` in the fixture's `fail`
/// mode and checks the line that announced `announced`, the Fail and its
/// names (every name one of `names`, and `all` of them when set).
fn fails_as_detected(
    dir: &Path,
    announced: &str,
    names: &[&str],
    all: bool,
    venv: Option<&Path>,
    args: &[&str],
) {
    let mut json_args = vec!["--json"];
    json_args.extend_from_slice(args);
    let out = check_detected(dir, "fail", &json_args, venv);
    let first = out.stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!("testgate: running {announced}"),
        "{}",
        out.stderr
    );
    assert_eq!(out.code, Some(FAIL), "{announced}: {out:#?}");
    let json: Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(json["verdict"], "fail", "{announced}: {json:#}");
    let failing: Vec<&str> = json["failing"]
        .as_array()
        .expect("failing")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(!failing.is_empty(), "{announced}: {json:#}");
    assert!(
        failing.iter().all(|name| names.contains(name)),
        "{announced}: {failing:?}"
    );
    if all {
        // In the runner's order: go's events end a subtest before its
        // parent, its `-v` console the other way round.
        let mut sorted = failing.clone();
        sorted.sort_unstable();
        let mut expected = names.to_vec();
        expected.sort_unstable();
        assert_eq!(sorted, expected, "{announced}");
    }
    let command: Vec<&str> = json["detected"]["command"]
        .as_array()
        .expect("detected.command")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // The attempt ran the detected command, with what testgate adds to
    // obtain the runner's report (`-json`, `--json --outputFile=…`): the
    // detected words in order, none left out.
    let ran: Vec<&str> = json["attempts"][0]["command"]
        .as_array()
        .expect("attempts[0].command")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut rest = ran.iter();
    assert!(
        ran.first() == command.first() && command.iter().all(|word| rest.any(|w| w == word)),
        "{command:?} in {ran:?}"
    );
}

#[test]
fn cargo_and_nextest_projects_are_found_and_fail_by_name() {
    let (_tmp, dir) = fresh_copy("tests/projects/e2e/cargo", "cargo");
    fails_as_detected(
        &dir,
        "`cargo test --workspace` (found Cargo.toml)",
        &["tests::adds_negative"],
        true,
        None,
        &[],
    );
    // nextest when the project configures it (and it is installed, as on
    // the machines that run these tests).
    std::fs::create_dir(dir.join(".config")).expect("mkdir");
    std::fs::write(dir.join(".config/nextest.toml"), "[profile.default]\n").expect("write");
    fails_as_detected(
        &dir,
        "`cargo nextest run --workspace` (found Cargo.toml, .config/nextest.toml)",
        // Its fail-fast makes the names depend on timing.
        &["tests::adds_negative", "big_numbers"],
        false,
        None,
        &[],
    );
}

const PYTEST_FAILING: [&str; 2] = [
    "tests/test_calc.py::test_adds_negative",
    "tests/test_calc.py::TestBig::test_big_numbers",
];

#[test]
fn a_pytest_project_runs_with_its_own_venv_the_active_one_or_python3() {
    let (tmp, dir) = fresh_copy("tests/projects/e2e/pytest", "pytest");
    fails_as_detected(
        &dir,
        "`python3 -m pytest` (found conftest.py)",
        &PYTEST_FAILING,
        true,
        None,
        &[],
    );
    // A virtual environment made outside the project, and active.
    let outside = tmp.path().join("env");
    make_venv(&outside);
    fails_as_detected(
        &dir,
        &format!(
            "`{}/bin/python -m pytest` (found conftest.py, the active virtual environment {})",
            outside.display(),
            outside.display()
        ),
        &PYTEST_FAILING,
        true,
        Some(&outside),
        &[],
    );
    // The project's own wins over the active one.
    make_venv(&dir.join(".venv"));
    fails_as_detected(
        &dir,
        &format!(
            "`{}/.venv/bin/python -m pytest` (found conftest.py, .venv/bin/python)",
            dir.display()
        ),
        &PYTEST_FAILING,
        true,
        Some(&outside),
        &[],
    );
}

#[test]
fn a_go_project_is_found_by_go_mod() {
    let (_tmp, dir) = fresh_copy("tests/projects/e2e/go", "go");
    fails_as_detected(
        &dir,
        "`go test ./...` (found go.mod)",
        &["TestAddNegative", "TestBig", "TestBig/millions"],
        true,
        None,
        &[],
    );
}

#[test]
fn jest_by_its_config_and_vitest_by_the_test_script() {
    let modules = node_modules();
    let writable = ["--writable", modules.to_str().expect("UTF-8 path")];
    let (_jest_tmp, jest) = node_project("jest");
    fails_as_detected(
        &jest,
        "`npx jest` (found jest.config.js)",
        &["calc › adds negative", "calc › big › millions"],
        true,
        None,
        &writable,
    );
    let (_vitest_tmp, vitest) = node_project("vitest");
    std::fs::write(
        vitest.join("package.json"),
        r#"{"private": true, "scripts": {"test": "vitest run"}}"#,
    )
    .expect("write");
    fails_as_detected(
        &vitest,
        "`npm test` (found package.json's test script `vitest run`)",
        &["calc > adds negative", "calc > big > millions"],
        true,
        None,
        &writable,
    );
}

#[test]
fn mocha_and_node_test_by_the_test_script() {
    let modules = node_modules();
    let writable = ["--writable", modules.to_str().expect("UTF-8 path")];
    let (_mocha_tmp, mocha) = node_project("mocha");
    std::fs::write(
        mocha.join("package.json"),
        r#"{"private": true, "scripts": {"test": "mocha"}}"#,
    )
    .expect("write");
    fails_as_detected(
        &mocha,
        "`npm test` (found package.json's test script `mocha`)",
        &["calc adds negative", "calc big millions"],
        true,
        None,
        &writable,
    );
    let (_node_tmp, node) = fresh_copy("tests/projects/e2e/node/node", "node");
    std::fs::write(
        node.join("package.json"),
        r#"{"private": true, "scripts": {"test": "node --test"}}"#,
    )
    .expect("write");
    fails_as_detected(
        &node,
        "`npm test` (found package.json's test script `node --test`)",
        &["calc > adds negative", "calc > big > millions"],
        true,
        None,
        &[],
    );
}

#[test]
fn the_json_and_the_record_say_the_command_was_detected() {
    let (tmp, dir) = fresh_copy("tests/projects/e2e/pytest", "pytest");
    let record = tmp.path().join("record.json");
    // `--` with nothing after it detects too.
    let out = check_detected(
        &dir,
        "pass",
        &[
            "--json",
            "--record",
            record.to_str().expect("UTF-8 path"),
            "--",
        ],
        None,
    );
    assert_eq!(out.code, Some(PASS), "{out:#?}");
    let json: Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(
        json["detected"],
        json!({"command": ["python3", "-m", "pytest"], "runner": "pytest", "why": "found conftest.py"})
    );
    let document: Value =
        serde_json::from_str(&std::fs::read_to_string(&record).expect("the record")).expect("json");
    let record = &document["record"];
    assert_eq!(record["command"], json!(["python3", "-m", "pytest"]));
    assert_eq!(
        record["command_detected"],
        json!({"runner": "pytest", "why": "found conftest.py"})
    );
    assert_eq!(record["result"]["detected"], json["detected"]);
    // --quiet says nothing on stderr; a given command is no detection.
    let quiet = check_detected(&dir, "pass", &["--quiet", "--json"], None);
    assert_eq!(quiet.code, Some(PASS), "{quiet:#?}");
    assert_eq!(quiet.stderr, "");
    let given = check_detected(
        &dir,
        "pass",
        &["--json", "--", "python3", "-m", "pytest"],
        None,
    );
    let json: Value = serde_json::from_str(&given.stdout).expect("json");
    assert!(json.get("detected").is_none(), "{json:#}");
}

/// A project folder of `files` under target/cli-tests.
fn project_of(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let base = repo().join("target/cli-tests");
    std::fs::create_dir_all(&base).expect("target/cli-tests");
    let tmp = tempfile::tempdir_in(&base).expect("temp dir");
    let dir = tmp.path().join("project");
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    std::fs::create_dir_all(&dir).expect("mkdir");
    (tmp, dir)
}

#[test]
fn unknown_ambiguous_and_monorepo_projects_are_usage_errors_in_one_line() {
    let jest = r#"{"scripts": {"test": "jest"}}"#;
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[], "found no test runner in "),
        (
            &[(
                "package.json",
                r#"{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}"#,
            )],
            "looked for Cargo.toml",
        ),
        (
            &[
                ("Cargo.toml", "[package]\nname = \"a\"\n"),
                ("package.json", jest),
            ],
            "found more than one test runner in ",
        ),
        (
            &[("web/package.json", jest), ("api/go.mod", "module api\n")],
            "but in its folders: api/ (`go test ./...` (found go.mod)), web/ (`npm test`",
        ),
    ];
    for (files, message) in cases {
        let (_tmp, dir) = project_of(files);
        for dashes in [&[][..], &["--"][..]] {
            let out = check_detected(&dir, "pass", dashes, None);
            assert_eq!(out.code, Some(USAGE), "{files:?}: {out:#?}");
            assert_eq!(out.stdout, "");
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            assert!(out.stderr.starts_with("testgate: "), "{}", out.stderr);
            assert!(out.stderr.contains(message), "{}", out.stderr);
        }
    }
}

#[test]
fn a_batch_line_without_a_command_detects_it() {
    let (tmp, dir) = fresh_copy("tests/projects/e2e/pytest", "pytest");
    let (_empty_tmp, empty) = project_of(&[]);
    let manifest = tmp.path().join("manifest.jsonl");
    let lines = [
        json!({"id": "found", "workspace": dir, "env": {"TESTGATE_FIXTURE": "fail"}}),
        json!({"id": "unknown", "workspace": empty, "command": []}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&manifest, text).expect("write the manifest");
    let mut command = Command::new(env!("CARGO_BIN_EXE_testgate"));
    command
        .arg("batch")
        .arg(&manifest)
        .env_remove("VIRTUAL_ENV");
    let out = run(command, None);
    let results: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let by_id = |id: &str| {
        results
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id}: {out:#?}"))
    };
    let found = by_id("found");
    assert_eq!(found["result"]["verdict"], "fail", "{found:#}");
    assert_eq!(found["result"]["failing"], json!(PYTEST_FAILING));
    assert_eq!(
        found["result"]["detected"]["command"],
        json!(["python3", "-m", "pytest"])
    );
    let unknown = by_id("unknown");
    assert!(
        unknown["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("found no test runner in ")),
        "{unknown:#}"
    );
}

/// A CMake project with `enable_testing()`: built afresh into
/// `testgate-build/` by preparation steps (said on stderr, listed in the
/// JSON), then tested by ctest: Fail by name, and Pass on a second check of
/// the same copy (whose earlier build is removed first).
#[test]
fn a_cmake_project_is_built_then_tested_by_ctest() {
    let (_tmp, dir) = fresh_copy("tests/projects/e2e/ctest", "ctest");
    fails_as_detected(
        &dir,
        "`ctest --test-dir testgate-build --output-on-failure` (found CMakeLists.txt with enable_testing())",
        &["calc.adds_negative", "big.numbers"],
        true,
        None,
        &[],
    );
    let out = check_detected(&dir, "pass", &["--json"], None);
    assert_eq!(out.code, Some(PASS), "{out:#?}");
    assert!(
        out.stderr
            .contains("testgate: preparing first: `cmake --build testgate-build`"),
        "{}",
        out.stderr
    );
    let json: Value = serde_json::from_str(&out.stdout).expect("json");
    let steps: Vec<&str> = json["preparations"]
        .as_array()
        .expect("preparations")
        .iter()
        .filter_map(|step| step["command"].as_str())
        .collect();
    assert_eq!(
        steps,
        [
            "cmake -E rm -rf testgate-build",
            "cmake -S . -B testgate-build",
            "cmake --build testgate-build"
        ],
        "{json:#}"
    );
}
