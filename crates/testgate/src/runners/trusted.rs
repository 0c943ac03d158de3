//! The paths a runner's process runs or reads as its own tests and their
//! configuration: what `check --trusted REV` takes from the trusted revision.
//!
//! Data, one list per ecosystem, named by each profile's
//! [`RunnerProfile::trusted`](super::RunnerProfile::trusted). A path is
//! relative to the project's top; folders tools own (`node_modules`, `.git`,
//! a venv, `target`) are never trusted paths, whatever a pattern says.

use std::ffi::OsStr;
use std::path::{Component, Path};

/// One shape of trusted path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrustedPath {
    /// A file of this name at any depth (`conftest.py`).
    Named(&'static str),
    /// A file whose name starts with the first and ends with the second
    /// at any depth (`test_` … `.py`; `jest.config.` … ``).
    Shaped(&'static str, &'static str),
    /// A file whose name holds this part between a stem and an extension
    /// (`.test.` of `sum.test.ts`), at any depth.
    Marked(&'static str),
    /// Everything inside a folder of this name at any depth (`__tests__`),
    /// or of these consecutive names (`src/test`).
    InFolder(&'static str),
    /// This file at the project's top (`.config/nextest.toml`).
    AtTop(&'static str),
}

/// Folders whose content is a tool's, never a trusted path.
const OWNED_BY_TOOLS: &[&str] = &[
    ".git",
    "node_modules",
    ".venv",
    "venv",
    "target",
    "__pycache__",
];

/// Python's configuration files pytest and unittest read.
const PYTHON_CONFIG: &[TrustedPath] = &[
    TrustedPath::Named("conftest.py"),
    TrustedPath::Named("pytest.ini"),
    TrustedPath::Named("pyproject.toml"),
    TrustedPath::Named("setup.cfg"),
    TrustedPath::Named("tox.ini"),
];

/// pytest: `conftest.py` at any depth, the test files by pytest's default
/// names, the folders named `tests`/`test`, and the configuration files.
pub(crate) const PYTEST: &[TrustedPath] = &[
    TrustedPath::Named("conftest.py"),
    TrustedPath::Named("pytest.ini"),
    TrustedPath::Named("pyproject.toml"),
    TrustedPath::Named("setup.cfg"),
    TrustedPath::Named("tox.ini"),
    TrustedPath::Shaped("test_", ".py"),
    TrustedPath::Shaped("", "_test.py"),
    TrustedPath::InFolder("tests"),
    TrustedPath::InFolder("test"),
];

/// unittest and Django: `test*.py`, Django's `runtests.py`, the folders
/// named `tests`/`test` (Django keeps its test settings there), and
/// Python's configuration files.
pub(crate) const UNITTEST: &[TrustedPath] = &[
    TrustedPath::Shaped("test", ".py"),
    TrustedPath::Named("runtests.py"),
    TrustedPath::InFolder("tests"),
    TrustedPath::InFolder("test"),
    PYTHON_CONFIG[0],
    PYTHON_CONFIG[1],
    PYTHON_CONFIG[2],
    PYTHON_CONFIG[3],
    PYTHON_CONFIG[4],
];

/// jest, vitest, mocha, node's test runner and npm scripts: `package.json`
/// (its `jest`/`mocha` keys and scripts configure the runner), each
/// runner's configuration and setup files by their usual names, the
/// transforms that rewrite the tests' code (babel), test files by name
/// (`*.test.*`, `*.spec.*`) and folder (`__tests__`, `test`, `tests`).
pub(crate) const JS: &[TrustedPath] = &[
    TrustedPath::Named("package.json"),
    TrustedPath::Shaped("jest.config.", ""),
    TrustedPath::Shaped("jest.setup", ""),
    TrustedPath::Shaped("setupTests.", ""),
    TrustedPath::Shaped("vitest.config.", ""),
    TrustedPath::Shaped("vitest.workspace.", ""),
    TrustedPath::Shaped("vite.config.", ""),
    TrustedPath::Shaped(".mocharc", ""),
    TrustedPath::Shaped("babel.config.", ""),
    TrustedPath::Shaped(".babelrc", ""),
    TrustedPath::Marked(".test."),
    TrustedPath::Marked(".spec."),
    TrustedPath::InFolder("__tests__"),
    TrustedPath::InFolder("test"),
    TrustedPath::InFolder("tests"),
];

/// go: every `*_test.go` (`TestMain` included) and the `testdata` folders
/// the tests read.
pub(crate) const GO: &[TrustedPath] = &[
    TrustedPath::Shaped("", "_test.go"),
    TrustedPath::InFolder("testdata"),
];

/// cargo and nextest: the test and bench targets, nextest's configuration,
/// and cargo's configuration (whose `runner` runs each test binary). The
/// `#[cfg(test)]` modules inside `src/` are files of the code under test:
/// they cannot be told apart by path.
pub(crate) const RUST: &[TrustedPath] = &[
    TrustedPath::InFolder("tests"),
    TrustedPath::InFolder("benches"),
    TrustedPath::AtTop(".config/nextest.toml"),
    TrustedPath::InFolder(".cargo"),
];

/// Maven and Gradle: the test sources and resources (`src/test/**`, of
/// every module).
pub(crate) const JAVA: &[TrustedPath] = &[TrustedPath::InFolder("src/test")];

/// Whether `path` (relative to the project's top) is one of `trusted`.
pub(crate) fn is_trusted(trusted: &[TrustedPath], path: &Path) -> bool {
    let mut names: Vec<&OsStr> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => names.push(name),
            // Only a plain relative path names a place in the project.
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) | Component::ParentDir => return false,
        }
    }
    let Some((file, folders)) = names.split_last() else {
        return false;
    };
    if folders.iter().any(|name| {
        OWNED_BY_TOOLS
            .iter()
            .any(|owned| *name == OsStr::new(owned))
    }) {
        return false;
    }
    let Some(file) = file.to_str() else {
        return false;
    };
    trusted.iter().any(|shape| match *shape {
        TrustedPath::Named(name) => file == name,
        TrustedPath::Shaped(start, end) => {
            file.len() >= start.len() + end.len() && file.starts_with(start) && file.ends_with(end)
        }
        TrustedPath::Marked(part) => file
            .find(part)
            .is_some_and(|at| at > 0 && at + part.len() < file.len()),
        TrustedPath::InFolder(folder) => {
            let wanted: Vec<&OsStr> = folder.split('/').map(OsStr::new).collect();
            folders
                .windows(wanted.len())
                .any(|w| w == wanted.as_slice())
        }
        TrustedPath::AtTop(top) => path == Path::new(top),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(trusted: &[TrustedPath], yes: &[&str], no: &[&str]) {
        for path in yes {
            assert!(is_trusted(trusted, Path::new(path)), "{path} is trusted");
        }
        for path in no {
            assert!(
                !is_trusted(trusted, Path::new(path)),
                "{path} is not trusted"
            );
        }
    }

    #[test]
    fn pytest_trusts_its_hooks_tests_and_configuration() {
        check(
            PYTEST,
            &[
                "conftest.py",
                "pkg/sub/conftest.py",
                "test_calc.py",
                "pkg/calc_test.py",
                "tests/helpers.py",
                "tests/__init__.py",
                "pytest.ini",
                "pyproject.toml",
                "setup.cfg",
                "tox.ini",
            ],
            &[
                "calc.py",
                "pkg/__init__.py",
                "pkg/testing.py",
                "contest.py",
                ".venv/lib/conftest.py",
                "node_modules/x/tests/a.py",
                "pkg/__pycache__/conftest.cpython-311.pyc",
                "../conftest.py",
                "/conftest.py",
            ],
        );
    }

    #[test]
    fn unittest_trusts_test_modules_and_django_runtests() {
        check(
            UNITTEST,
            &[
                "tests/runtests.py",
                "runtests.py",
                "app/tests.py",
                "test_x.py",
            ],
            &["app/models.py", "manage.py", "app/settings.py"],
        );
    }

    #[test]
    fn javascript_trusts_configs_setup_and_test_files() {
        check(
            JS,
            &[
                "package.json",
                "jest.config.js",
                "jest.config.ts",
                "jest.setup.js",
                "src/setupTests.ts",
                "vitest.config.mts",
                "vite.config.js",
                ".mocharc.yml",
                ".mocharc.json",
                "babel.config.js",
                ".babelrc",
                "src/sum.test.js",
                "src/sum.spec.ts",
                "src/__tests__/sum.js",
                "test/sum.js",
            ],
            &[
                "src/sum.js",
                "index.js",
                "node_modules/jest/package.json",
                "node_modules/x/a.test.js",
                ".test.js",
                "src/latest.js",
                "contest/x.js",
                "src/testing.js",
            ],
        );
    }

    #[test]
    fn go_trusts_every_test_file_and_testdata() {
        check(
            GO,
            &[
                "calc_test.go",
                "pkg/main_test.go",
                "pkg/testdata/golden.txt",
            ],
            &["calc.go", "pkg/test.go", "pkg/testing.go", "_test.go.txt"],
        );
    }

    #[test]
    fn rust_trusts_test_targets_not_the_code_under_test() {
        check(
            RUST,
            &[
                "tests/it.rs",
                "crates/a/tests/it.rs",
                "benches/b.rs",
                ".config/nextest.toml",
                ".cargo/config.toml",
            ],
            &[
                "src/lib.rs",
                "src/tests.rs",
                "build.rs",
                "crates/a/.config/nextest.toml",
                "target/debug/tests/x",
            ],
        );
    }

    #[test]
    fn java_trusts_the_test_sources_of_every_module() {
        check(
            JAVA,
            &[
                "src/test/java/CalcTest.java",
                "core/src/test/resources/a.txt",
            ],
            &[
                "src/main/java/Calc.java",
                "test/Calc.java",
                "src/testx/A.java",
            ],
        );
    }
}
