//! The fixture projects, copied into a fresh directory for each test so a
//! flaky counter starts at zero and nothing is written into the repository.

use std::path::{Path, PathBuf};

use testgate::TestConfig;
use testgate::parse::Runner;

use crate::repo_root;

/// The runners of [`Runner::ALL`] with a fixture project of their own,
/// which every test of `main.rs` runs. A new runner fails
/// `every_runner_has_an_e2e_project` until it has its project.
pub(crate) fn projects() -> impl Iterator<Item = Runner> {
    Runner::ALL
        .into_iter()
        .filter(|&runner| own_project(runner))
}

/// Whether `runner` has a fixture project of its own: nextest runs
/// cargo's, and its fail-fast makes the names a failing run reports depend
/// on timing.
fn own_project(runner: Runner) -> bool {
    match runner {
        Runner::Nextest => false,
        Runner::Gradle
        | Runner::Cargo
        | Runner::Pytest
        | Runner::Go
        | Runner::Jest
        | Runner::Vitest
        | Runner::Mocha
        | Runner::Node
        | Runner::Unittest
        | Runner::Maven
        | Runner::Ctest
        | Runner::Phpunit
        | Runner::Rspec
        | Runner::Minitest
        | Runner::Gtest => true,
        other => panic!("the e2e tests have no {other} project"),
    }
}

/// The fixture project `runner` runs.
fn source(runner: Runner) -> PathBuf {
    let e2e = repo_root().join("tests/projects/e2e");
    match runner {
        Runner::Cargo
        | Runner::Pytest
        | Runner::Go
        | Runner::Unittest
        | Runner::Maven
        | Runner::Gradle
        | Runner::Ctest
        | Runner::Phpunit
        | Runner::Rspec
        | Runner::Minitest
        | Runner::Gtest => e2e.join(runner.name()),
        Runner::Nextest => e2e.join(Runner::Cargo.name()),
        Runner::Jest | Runner::Vitest | Runner::Mocha | Runner::Node => {
            e2e.join("node").join(runner.name())
        }
        other => panic!("the e2e tests have no {other} project"),
    }
}

/// The names the `fail` mode fails, as the parser spells them.
pub(crate) fn failing_names(runner: Runner) -> &'static [&'static str] {
    match runner {
        // cargo stops after the first failing test binary.
        Runner::Cargo => &["tests::adds_negative"],
        // `--no-fail-fast` (see `Project::config`): every binary runs.
        Runner::Nextest => &["tests::adds_negative", "big_numbers"],
        Runner::Pytest => &[
            "tests/test_calc.py::test_adds_negative",
            "tests/test_calc.py::TestBig::test_big_numbers",
        ],
        Runner::Go => &["TestAddNegative", "TestBig", "TestBig/millions"],
        Runner::Jest => &["calc › adds negative", "calc › big › millions"],
        Runner::Vitest => &["calc > adds negative", "calc > big > millions"],
        Runner::Mocha => &["calc adds negative", "calc big millions"],
        Runner::Node => &["calc > adds negative", "calc > big > millions"],
        Runner::Unittest => &[
            "test_adds_negative (tests.test_calc.CalcTest)",
            "test_big_numbers (tests.test_calc.TestBig)",
        ],
        Runner::Maven => &[
            "com.example.CalcTest#addsNegative",
            "com.example.BigTest#bigNumbers",
        ],
        Runner::Gradle => &[
            "com.example.CalcTest#addsNegative",
            "com.example.BigTest#bigNumbers",
        ],
        Runner::Ctest => &["calc.adds_negative", "big.numbers"],
        Runner::Phpunit => &[
            r"Tests\CalcTest::testAddsNegative",
            r"Tests\BigTest::testBigNumbers",
        ],
        Runner::Rspec => &["calc adds negative", "calc big millions"],
        Runner::Minitest => &["CalcTest#test_adds_negative", "BigTest#test_big_numbers"],
        Runner::Gtest => &["Calc.AddsNegative", "Big.Numbers"],
        other => panic!("the e2e tests have no {other} project"),
    }
}

/// A fresh copy of a runner's fixture project.
pub(crate) struct Project {
    pub(crate) runner: Runner,
    pub(crate) dir: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Project {
    pub(crate) fn copy(runner: Runner) -> Project {
        // Not under /tmp: the sandbox gives the run a private /tmp, and a
        // project there would be hidden by it on a host whose own /tmp… is
        // fine too, but keep the copy beside the repository's target dir.
        let base = repo_root().join("target/e2e");
        std::fs::create_dir_all(&base).unwrap();
        let tmp = tempfile::tempdir_in(&base).unwrap();
        let dir = tmp.path().join(runner.name());
        copy_dir(&source(runner), &dir);
        if uses_node_modules(runner) {
            let modules = node_modules();
            assert!(
                modules.is_dir(),
                "{} is missing: run scripts/setup (npm ci)",
                modules.display()
            );
            std::os::unix::fs::symlink(&modules, dir.join("node_modules")).unwrap();
        }
        Project {
            runner,
            dir,
            _tmp: tmp,
        }
    }

    /// The command testgate checks this project with.
    pub(crate) fn config(&self) -> TestConfig {
        config_of(self.runner, &self.dir)
    }
}

/// The command testgate checks `runner`'s project in `dir` with.
fn config_of(runner: Runner, dir: &Path) -> TestConfig {
    match runner {
        Runner::Cargo => TestConfig::cargo(dir).env("CARGO_TARGET_DIR", dir.join("target")),
        Runner::Nextest => TestConfig::new(dir, "cargo", ["nextest", "run", "--no-fail-fast"])
            .format(Runner::Nextest)
            .env("CARGO_TARGET_DIR", dir.join("target")),
        Runner::Pytest => TestConfig::pytest(dir),
        Runner::Go => TestConfig::go(dir),
        Runner::Jest => TestConfig::jest(dir),
        Runner::Vitest => TestConfig::vitest(dir),
        Runner::Mocha => TestConfig::mocha(dir),
        Runner::Node => TestConfig::node_test(dir),
        // `-v`: the console names every test, passing ones too.
        Runner::Unittest => TestConfig::new(dir, "python3", ["-m", "unittest", "-v"])
            .format(Runner::Unittest)
            .preset(),
        Runner::Maven => maven(dir),
        Runner::Gradle => gradle(dir),
        Runner::Ctest => ctest(dir),
        Runner::Gtest => gtest(dir, "calc_test"),
        Runner::Phpunit => phpunit(dir),
        Runner::Rspec => TestConfig::new(dir, "rspec", Vec::<String>::new())
            .format(Runner::Rspec)
            .preset(),
        // `-v`: the console names every test, passing ones too.
        Runner::Minitest => TestConfig::new(dir, "rake", ["test", "TESTOPTS=-v"])
            .format(Runner::Minitest)
            .preset(),
        other => panic!("the e2e tests have no {other} project"),
    }
}

/// Whether `runner`'s project links the shared node_modules (`node --test`
/// needs no package).
pub(crate) fn uses_node_modules(runner: Runner) -> bool {
    match runner {
        Runner::Jest | Runner::Vitest | Runner::Mocha => true,
        Runner::Cargo
        | Runner::Nextest
        | Runner::Pytest
        | Runner::Go
        | Runner::Node
        | Runner::Unittest
        | Runner::Maven
        | Runner::Gradle
        | Runner::Ctest
        | Runner::Phpunit
        | Runner::Rspec
        | Runner::Minitest
        | Runner::Gtest => false,
        other => panic!("the e2e tests have no {other} project"),
    }
}

/// `mvn -o -B test` in `dir`: offline, from the local repository
/// `scripts/setup` warmed.
pub(crate) fn maven(dir: &Path) -> TestConfig {
    TestConfig::new(dir, "mvn", ["-o", "-B", "test"])
        .format(Runner::Maven)
        .preset()
}

/// `gradle test --offline --no-daemon` in `dir`: Debian's Gradle, JUnit
/// from Debian's Maven repository.
pub(crate) fn gradle(dir: &Path) -> TestConfig {
    TestConfig::new(dir, "gradle", ["test", "--offline", "--no-daemon"])
        .format(Runner::Gradle)
        .preset()
}

/// `ctest --test-dir testgate-build --output-on-failure` in `dir`, the
/// project configured and built first as detection does (`--prepare`).
pub(crate) fn ctest(dir: &Path) -> TestConfig {
    TestConfig::new(
        dir,
        "ctest",
        ["--test-dir", "testgate-build", "--output-on-failure"],
    )
    .format(Runner::Ctest)
    .preset()
    .prepare("cmake -S . -B testgate-build")
    .prepare("cmake --build testgate-build")
}

/// The GoogleTest binary `testgate-build/BINARY` in `dir`, run directly
/// (`--gtest_color=no`: a GoogleTest flag, by which testgate recognises
/// the binary), built first with cmake as `--prepare` steps.
pub(crate) fn gtest(dir: &Path, binary: &str) -> TestConfig {
    TestConfig::new(
        dir,
        format!("testgate-build/{binary}"),
        ["--gtest_color=no"],
    )
    .format(Runner::Gtest)
    .preset()
    .prepare("cmake -S . -B testgate-build")
    .prepare("cmake --build testgate-build")
}

/// `phpunit` in `dir`: Debian's PHPUnit 9, found by the project's
/// `phpunit.xml.dist`.
pub(crate) fn phpunit(dir: &Path) -> TestConfig {
    TestConfig::new(dir, "phpunit", std::iter::empty::<&str>())
        .format(Runner::Phpunit)
        .preset()
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "node_modules"
            || name == "target"
            || name == ".flaky-count"
            || name == "__pycache__"
        {
            continue;
        }
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            copy_dir(&entry.path(), &to.join(&name));
        } else {
            std::fs::copy(entry.path(), to.join(&name)).unwrap();
        }
    }
}

/// The shared node_modules the node fixtures link to.
pub(crate) fn node_modules() -> PathBuf {
    repo_root().join("tests/projects/e2e/node/node_modules")
}

/// The bubblewrap sandbox for a fixture project: the default, plus the
/// shared node_modules bound read-write for the node projects. Their
/// node_modules is a link out of the project, which the sandbox would
/// otherwise show read-only (vite writes its config bundle there) or not at
/// all (the private /tmp hides a repository checked out under /tmp).
pub(crate) fn bwrap_for(node: bool) -> testgate::Sandbox {
    let mut options = testgate::run::BwrapOptions::default();
    if node {
        options.writable.push(node_modules());
    }
    testgate::Sandbox::Bubblewrap(options)
}

/// The Landlock sandbox for a fixture project, the shared node_modules
/// writable for the node projects as under [`bwrap_for`].
pub(crate) fn landlock_for(node: bool) -> testgate::Sandbox {
    let mut options = testgate::run::LandlockOptions::default();
    if node {
        options.writable.push(node_modules());
    }
    testgate::Sandbox::Landlock(options)
}

/// A new runner in `Runner::ALL` fails here until it has its e2e project,
/// its failing names and its configuration (needs no runner installed).
#[test]
fn every_runner_has_an_e2e_project() {
    for runner in Runner::ALL {
        let dir = source(runner);
        assert!(dir.is_dir(), "{runner}: {} is missing", dir.display());
        assert!(
            !failing_names(runner).is_empty(),
            "{runner}: no failing names"
        );
        let _ = uses_node_modules(runner);
        let _ = own_project(runner);
        let _ = config_of(runner, &dir);
    }
    assert!(projects().count() > 0);
}
