//! What testgate knows of a runner's ecosystem rather than of the runner:
//! one [`Toolchain`] value per ecosystem (Rust, Go, Python, Node), which
//! each profile names ([`super::RunnerProfile::toolchain`]), so that a
//! second runner of a known ecosystem adds nothing here.

use std::path::Path;

use testgate_run::{CachePlace, HomeCache, Installed, InstalledPart};

/// What testgate knows of one ecosystem's toolchain: data, read by the
/// facade's caches (`caches.rs`) and its tree (`watch.rs`).
#[derive(Debug)]
pub(crate) struct Toolchain {
    /// Its programs, and the private caches each uses
    /// ([`super::caches_used_in`]). A runner's own program is its
    /// profile's ([`super::RunnerProfile::programs`]).
    pub(crate) programs: &'static [Program],
    /// The files that run later on the host, or change what runs
    /// (`build.rs`, `package.json`, `*.pth`): an attempt that creates or
    /// changes one gives `tree_changed` (docs/sandbox.md).
    pub(crate) host_files: &'static [HostFile],
    /// The modules that, lying where the toolchain imports from, would be
    /// imported instead of its own (`site.py`).
    pub(crate) shadowed: &'static [Module],
    /// The environment its runners' presets set, unless a profile says
    /// otherwise ([`super::RunnerProfile::preset_env`]).
    pub(crate) preset_env: &'static [(&'static str, &'static str)],
    /// What of the host it needs inside the sandbox (its folders of the
    /// homes, the variables naming where it lives, the variables it
    /// reads), handed to `testgate-run` as data ([`run_toolchains`]).
    pub(crate) run: testgate_run::Toolchain,
}

/// A program of a toolchain or a runner, and the project's private caches
/// it may use ([`testgate_run::HomeCache::private`] names, or a
/// [`testgate_run::ToolCache`]'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Program {
    /// Its file names (`cargo`, `cargo-nextest`).
    pub(crate) names: &'static [&'static str],
    /// Beginnings of its file names (`python` for `python3.12`).
    pub(crate) prefixes: &'static [&'static str],
    /// The private caches it uses; empty for none.
    pub(crate) caches: &'static [&'static str],
}

impl Program {
    /// Whether `file_name` is this program.
    pub(crate) fn is(&self, file_name: &str) -> bool {
        self.names.contains(&file_name) || self.prefixes.iter().any(|p| file_name.starts_with(p))
    }
}

/// A file that runs later on the host, by where it lies in the project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HostFile {
    /// A file of this name, at any depth.
    Named(&'static str),
    /// A file whose name begins so (`.yarnrc`, `.yarnrc.yml`).
    NameStarting(&'static str),
    /// A file whose name ends so (`.pth`).
    NameEnding(&'static str),
    /// A file whose name begins with `name` in a folder named `folder`
    /// (`.cargo/config.toml`).
    In {
        /// The folder's name.
        folder: &'static str,
        /// The beginning of the file's name.
        name: &'static str,
    },
    /// Any entry of a folder named `folder` that lies, at any depth,
    /// under a folder named `under` (`node_modules/.bin`'s shims).
    Beneath {
        /// The folder holding the entry.
        folder: &'static str,
        /// A folder above it.
        under: &'static str,
    },
}

impl HostFile {
    /// Whether `path` (relative to the project) is such a file.
    pub(crate) fn matches(&self, path: &Path) -> bool {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let parent = || {
            path.parent()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        match *self {
            HostFile::Named(named) => name == named,
            HostFile::NameStarting(start) => name.starts_with(start),
            HostFile::NameEnding(end) => name.ends_with(end),
            HostFile::In {
                folder,
                name: start,
            } => parent() == folder && name.starts_with(start),
            HostFile::Beneath { folder, under } => {
                parent() == folder && path.iter().any(|c| c == under)
            }
        }
    }
}

/// A module a runner or its toolchain imports by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Module {
    /// Its name (`pytest`): `pytest.py` shadows it.
    pub(crate) name: &'static str,
    /// Whether a folder of its name (a package, `pytest/`) shadows it too.
    pub(crate) package: bool,
}

/// A toolchain no profile names (a runner this facade has no profile for):
/// no program, no file, no module.
pub(crate) static NONE: Toolchain = Toolchain {
    programs: &[],
    host_files: &[],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain::NONE,
};

/// Rust's: cargo (whose registry is the host's, read-only: no private
/// cache), its configuration, build scripts and toolchain files.
pub(crate) static RUST: Toolchain = Toolchain {
    programs: &[Program {
        names: &["cargo", "cargo-nextest", "rustc"],
        prefixes: &[],
        caches: &[],
    }],
    host_files: &[
        HostFile::Named("build.rs"),
        HostFile::Named("rust-toolchain"),
        HostFile::Named("rust-toolchain.toml"),
        HostFile::In {
            folder: ".cargo",
            name: "config",
        },
    ],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain {
        homes: &[
            ".cargo/bin",
            ".cargo/env",
            ".cargo/registry",
            ".cargo/git",
            ".rustup",
        ],
        directories: &["RUSTUP_HOME"],
        search_paths: &[],
        variables: &[
            "RUSTFLAGS",
            "RUSTDOCFLAGS",
            "RUSTC",
            "RUSTDOC",
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
            "RUSTC_BOOTSTRAP",
        ],
        // rustup's `RUSTUP_*`, cargo's `CARGO_*` and `RUST_*`.
        prefixes: &["CARGO_", "RUSTUP_", "RUST_"],
        prefixes_any_case: &[],
        caches: &[],
        build_outputs: &[("CARGO_TARGET_DIR", "cargo-target")],
        installed: &[Installed::Beside {
            name: "target",
            manifest: "Cargo.toml",
        }],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    },
};

/// Go's: its build cache.
pub(crate) static GO: Toolchain = Toolchain {
    programs: &[Program {
        names: &["go", "gotestsum"],
        prefixes: &[],
        caches: &["home-cache/go-build"],
    }],
    host_files: &[],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain {
        homes: &["go", ".config/go"],
        directories: &["GOPATH", "GOROOT", "GOMODCACHE"],
        search_paths: &[],
        variables: &[
            "GOPATH",
            "GOROOT",
            "GOBIN",
            "GOFLAGS",
            "GOCACHE",
            "GOMODCACHE",
            "GOTMPDIR",
            "GOENV",
            "GOTOOLCHAIN",
            "GOPROXY",
            "GONOPROXY",
            "GOPRIVATE",
            "GONOSUMDB",
            "GOSUMDB",
            "GOINSECURE",
            "GOVCS",
            "GOWORK",
            "GO111MODULE",
            "GOOS",
            "GOARCH",
            "GOAMD64",
            "GOARM",
            "GOARM64",
            "GO386",
            "GOEXPERIMENT",
            "GODEBUG",
            "GOMAXPROCS",
            "GOGC",
            "GOMEMLIMIT",
            "GOTRACEBACK",
            "GOCOVERDIR",
        ],
        // Not `GO_`: `GO` would admit `GOOGLE_API_KEY`.
        prefixes: &["CGO_"],
        prefixes_any_case: &[],
        caches: &[HomeCache {
            what: "Go build cache",
            variables: &["GOCACHE"],
            place: CachePlace::XdgCache("go-build"),
        }],
        build_outputs: &[],
        installed: &[],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    },
};

/// Python's: pip's cache for its interpreters and project tools; its
/// start-up files, the files its tools run, and the standard modules a
/// project's file would shadow.
pub(crate) static PYTHON: Toolchain = Toolchain {
    programs: &[Program {
        names: &["tox", "nox", "uv", "poetry", "pdm", "hatch"],
        prefixes: &["python", "pip"],
        caches: &["home-cache/pip"],
    }],
    host_files: &[
        HostFile::Named("sitecustomize.py"),
        HostFile::Named("usercustomize.py"),
        HostFile::NameEnding(".pth"),
        HostFile::Named("tox.ini"),
        HostFile::Named("noxfile.py"),
        HostFile::Named("setup.cfg"),
        HostFile::Named("setup.py"),
    ],
    shadowed: &[
        Module {
            name: "unittest",
            package: true,
        },
        Module {
            name: "site",
            package: false,
        },
        Module {
            name: "doctest",
            package: false,
        },
    ],
    preset_env: &[],
    run: testgate_run::Toolchain {
        homes: &[
            ".pyenv",
            ".local/share/uv",
            ".conda",
            "miniconda3",
            "miniforge3",
            "anaconda3",
        ],
        directories: &["VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_ROOT"],
        search_paths: &["PYTHONPATH"],
        variables: &[
            "PYTHONPATH",
            "PYTHONHOME",
            "PYTHONHASHSEED",
            "PYTHONDONTWRITEBYTECODE",
            "PYTHONUNBUFFERED",
            "PYTHONWARNINGS",
            "PYTHONIOENCODING",
            "PYTHONUTF8",
            "PYTHONNOUSERSITE",
            "PYTHONSAFEPATH",
            "PYTHONDEVMODE",
            "PYTHONFAULTHANDLER",
            "PYTHONOPTIMIZE",
            "VIRTUAL_ENV",
            "CONDA_PREFIX",
            "CONDA_DEFAULT_ENV",
        ],
        // pip's `PIP_*`.
        prefixes: &["PIP_"],
        prefixes_any_case: &[],
        caches: &[HomeCache {
            what: "pip cache",
            variables: &["PIP_CACHE_DIR"],
            place: CachePlace::XdgCache("pip"),
        }],
        build_outputs: &[],
        installed: &[
            Installed::HoldingFile("pyvenv.cfg"),
            Installed::HoldingFolder("conda-meta"),
        ],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    },
};

/// Node's: node and npx (which may start jest, whose cache they use), the
/// package managers (npm's download cache too), their configuration and
/// `node_modules/.bin`'s shims.
pub(crate) static NODE: Toolchain = Toolchain {
    programs: &[
        Program {
            names: &["node", "npx"],
            prefixes: &[],
            caches: &["jest"],
        },
        Program {
            names: &PACKAGE_MANAGERS,
            prefixes: &[],
            caches: &[NPM_CACHE, "jest"],
        },
    ],
    host_files: &[
        HostFile::Named("package.json"),
        HostFile::Named(".npmrc"),
        HostFile::Named(".pnpmfile.cjs"),
        HostFile::NameStarting(".yarnrc"),
        HostFile::Beneath {
            folder: ".bin",
            under: "node_modules",
        },
    ],
    shadowed: &[],
    // jest and vitest then fail a snapshot never stored instead of
    // writing it (docs/policy.md).
    preset_env: &[("CI", "true")],
    run: testgate_run::Toolchain {
        homes: &[".nvm", ".volta", ".bun", ".deno", ".local/share/pnpm"],
        directories: &["NVM_DIR", "VOLTA_HOME", "BUN_INSTALL", "DENO_DIR"],
        search_paths: &["NODE_PATH"],
        variables: &[
            "NODE_OPTIONS",
            "NODE_PATH",
            "NODE_ENV",
            "NODE_NO_WARNINGS",
            "NODE_PRESERVE_SYMLINKS",
            "NODE_ICU_DATA",
            "NODE_V8_COVERAGE",
            "NODE_COMPILE_CACHE",
            "NVM_DIR",
            "NVM_BIN",
            "VOLTA_HOME",
            "PNPM_HOME",
            "BUN_INSTALL",
            "COREPACK_HOME",
        ],
        prefixes: &[],
        // npm reads `npm_config_*` in any case.
        prefixes_any_case: &["NPM_CONFIG_"],
        caches: &[HomeCache {
            what: "npm cache",
            variables: &["npm_config_cache", "NPM_CONFIG_CACHE"],
            place: CachePlace::HomeFolder {
                folder: ".npm",
                seeded: "_cacache",
            },
        }],
        build_outputs: &[],
        installed: &[Installed::Named("node_modules")],
        // vite (vitest's configuration) bundles an ES module configuration
        // into `node_modules/.vite-temp/<name>.<random>.mjs`, imports it and
        // removes it, and fails when it cannot (`EROFS`).
        scratch: &[InstalledPart {
            installed: "node_modules",
            beside: "package.json",
            path: ".vite-temp",
        }],
        // vitest's results cache (`.vite/vitest/<hash>/results.json`, the
        // durations and failures it orders the next run's files by): data,
        // never code. (`.vite/deps`, vite's bundled dependencies, is code
        // the host's `vite` serves: watched.)
        data_caches: &[InstalledPart {
            installed: "node_modules",
            beside: "package.json",
            path: ".vite/vitest",
        }],
        // npm (and npx) stay offline without the network: a package not in
        // the cache fails at once (`ENOTCACHED`), not after npm retried the
        // registry for the whole timeout.
        offline: &[("npm_config_offline", "true")],
        temporary_options: &[],
    },
};

/// Java's: Maven and Gradle (and their wrappers). Maven's local
/// repository (`~/.m2/repository`) is shown read-only: a run whose
/// plugins and dependencies are all there writes nothing to it (measured
/// on Maven 3.8.7, online and `-o`), and Maven has no variable that would
/// point it at a private copy under Landlock. Gradle writes its locks and
/// journals into its caches on every run: `~/.gradle/caches` is the
/// project's private copy, `GRADLE_USER_HOME` pointed at it. The rest of
/// `~/.m2` and `~/.gradle` (`settings.xml`, `gradle.properties`: a
/// repository's credentials) is never shown. The build files run later
/// on the host (their plugins are code).
pub(crate) static JAVA: Toolchain = Toolchain {
    programs: &[
        Program {
            names: &["mvn", "mvnw", "java"],
            prefixes: &[],
            caches: &[],
        },
        Program {
            names: &["gradle", "gradlew"],
            prefixes: &[],
            caches: &[GRADLE_CACHES],
        },
    ],
    host_files: &[
        HostFile::Named("pom.xml"),
        HostFile::Named("build.gradle"),
        HostFile::Named("build.gradle.kts"),
        HostFile::Named("settings.gradle"),
        HostFile::Named("settings.gradle.kts"),
        HostFile::Named("gradle.properties"),
        HostFile::Named("gradle-wrapper.properties"),
        HostFile::Named("maven-wrapper.properties"),
        HostFile::Named("mvnw"),
        HostFile::Named("gradlew"),
        HostFile::In {
            folder: ".mvn",
            name: "",
        },
    ],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain {
        // mvnw's Maven distributions are code, like the repository.
        homes: &[".sdkman", ".jdks", ".m2/repository", ".m2/wrapper"],
        directories: &["JAVA_HOME", "MAVEN_HOME", "M2_HOME", "GRADLE_HOME"],
        search_paths: &[],
        // The JVM's and the tools' options: code the command could run
        // anyway (`-javaagent`), passed as `NODE_OPTIONS` is.
        variables: &[
            "JAVA_TOOL_OPTIONS",
            "JDK_JAVA_OPTIONS",
            "_JAVA_OPTIONS",
            "JAVA_OPTS",
            "MAVEN_OPTS",
            "MAVEN_ARGS",
            "GRADLE_OPTS",
        ],
        // Not `ORG_GRADLE_PROJECT_`: a build's signing keys and
        // repository passwords travel there.
        prefixes: &[],
        prefixes_any_case: &[],
        caches: &[HomeCache {
            what: "Gradle cache",
            variables: &["GRADLE_USER_HOME"],
            place: CachePlace::HomeFolder {
                folder: ".gradle",
                seeded: "caches",
            },
        }],
        // Maven and Gradle have no variable that moves `target/` and
        // `build/`: they are the project's, put back after every attempt.
        build_outputs: &[],
        installed: &[],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        // Every JVM (Gradle's, its test workers, Surefire's forks) makes
        // its temporary files in `java.io.tmpdir`, `/tmp` whatever
        // `TMPDIR` says: under Landlock, where `/tmp` is not writable,
        // Gradle failed at start and an honest test's temporary file
        // failed. Every JVM then prints "Picked up JAVA_TOOL_OPTIONS".
        temporary_options: &[("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=")],
    },
};

/// C and C++'s: CMake, CTest and the compilers, installed on the system
/// (nothing of the homes shown); the files CMake runs when the project is
/// built later on the host.
pub(crate) static CXX: Toolchain = Toolchain {
    programs: &[Program {
        names: &["cmake", "ctest"],
        prefixes: &[],
        caches: &[],
    }],
    host_files: &[
        HostFile::Named("CMakeLists.txt"),
        HostFile::Named("CMakePresets.json"),
        HostFile::Named("CMakeUserPresets.json"),
        HostFile::NameEnding(".cmake"),
    ],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain {
        homes: &[],
        directories: &[],
        search_paths: &[],
        // CMake's own, which a build in a preparation reads (the
        // compilers and their flags, `CC`, `CXX`, `CFLAGS`…, are passed to
        // every command already).
        variables: &["CMAKE_GENERATOR", "CMAKE_BUILD_PARALLEL_LEVEL"],
        prefixes: &[],
        prefixes_any_case: &[],
        caches: &[],
        // The build folder is the project's (detection's `testgate-build`),
        // put back after every attempt.
        build_outputs: &[],
        installed: &[],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    },
};

/// PHP's: php and composer (whose download cache is made private), the
/// files that change what runs (`composer.json`'s scripts and autoload,
/// PHPUnit's configuration and its bootstrap), and `vendor/`, which
/// composer installs into and the tests run from. Composer's home
/// (`~/.config/composer`, `~/.composer`) is shown read-only for its
/// globally required tools; its `auth.json` there is never shown.
pub(crate) static PHP: Toolchain = Toolchain {
    programs: &[Program {
        names: &["php", "composer"],
        prefixes: &["php8", "php7"],
        caches: &["home-cache/composer"],
    }],
    host_files: &[
        HostFile::Named("composer.json"),
        HostFile::Named("composer.lock"),
        HostFile::Named("phpunit.xml"),
        HostFile::Named("phpunit.xml.dist"),
        HostFile::Named("phpunit.dist.xml"),
    ],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain {
        homes: &[".config/composer/vendor", ".composer/vendor"],
        directories: &["COMPOSER_HOME"],
        search_paths: &[],
        // PHP's own (`PHPRC`, `PHP_INI_SCAN_DIR`: code the command could
        // load anyway, like `NODE_OPTIONS`), Xdebug's, and composer's that
        // hold no credential (not `COMPOSER_AUTH`).
        variables: &[
            "PHPRC",
            "PHP_INI_SCAN_DIR",
            "XDEBUG_MODE",
            "XDEBUG_CONFIG",
            "COMPOSER_VENDOR_DIR",
            "COMPOSER_BIN_DIR",
            "COMPOSER_ALLOW_SUPERUSER",
            "COMPOSER_NO_INTERACTION",
            "COMPOSER_PROCESS_TIMEOUT",
        ],
        prefixes: &[],
        prefixes_any_case: &[],
        caches: &[HomeCache {
            what: "composer cache",
            variables: &["COMPOSER_CACHE_DIR"],
            place: CachePlace::XdgCache("composer"),
        }],
        build_outputs: &[],
        installed: &[Installed::Beside {
            name: "vendor",
            manifest: "composer.json",
        }],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    },
};

/// Ruby's: RSpec and minitest, their gems (Debian's `ruby-*` packages, a
/// version manager's or bundler's under the home), the files bundler and
/// rake read.
pub(crate) static RUBY: Toolchain = Toolchain {
    programs: &[Program {
        names: &["ruby", "rspec", "rake", "bundle", "bundler", "gem"],
        prefixes: &[],
        caches: &[],
    }],
    host_files: &[
        HostFile::Named("Gemfile"),
        HostFile::Named("Gemfile.lock"),
        HostFile::Named("Rakefile"),
        HostFile::Named(".rspec"),
        HostFile::In {
            folder: ".bundle",
            name: "config",
        },
    ],
    shadowed: &[],
    preset_env: &[],
    run: testgate_run::Toolchain {
        // Gems are code, like Maven's repository: shown read-only.
        homes: &[".gem", ".rbenv", ".rvm", ".local/share/gem"],
        directories: &["GEM_HOME", "GEM_PATH", "RBENV_ROOT", "BUNDLE_PATH"],
        search_paths: &["RUBYLIB"],
        // Not a `BUNDLE_` namespace: bundler keeps a gem server's
        // credentials there (`BUNDLE_GEMS__EXAMPLE__COM`).
        variables: &[
            "RUBYOPT",
            "RUBYLIB",
            "GEM_HOME",
            "GEM_PATH",
            "BUNDLE_GEMFILE",
            "BUNDLE_PATH",
            "BUNDLE_WITHOUT",
            "BUNDLE_WITH",
            "BUNDLE_FROZEN",
            "BUNDLE_DEPLOYMENT",
            "SPEC_OPTS",
            "TESTOPTS",
        ],
        prefixes: &[],
        prefixes_any_case: &[],
        caches: &[],
        build_outputs: &[],
        installed: &[],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    },
};
/// Gradle's caches, by its [`testgate_run::HomeCache::private`] name.
const GRADLE_CACHES: &str = "gradle/caches";

/// Node's package managers, whose script commands are read
/// ([`super::caches_used_in`]).
pub(crate) const PACKAGE_MANAGERS: [&str; 4] = ["npm", "yarn", "pnpm", "bun"];

/// npm's download cache, by its [`testgate_run::HomeCache::private`] name.
pub(crate) const NPM_CACHE: &str = "npm/_cacache";

/// Every toolchain a profile names, each once, in [`testgate_parse::Runner::ALL`]'s
/// order of the first runner naming it.
pub(crate) fn toolchains() -> Vec<&'static Toolchain> {
    let mut out: Vec<&'static Toolchain> = Vec::new();
    for runner in testgate_parse::Runner::ALL {
        let toolchain = super::profile(runner).toolchain();
        if !out.iter().any(|known| std::ptr::eq(*known, toolchain)) {
            out.push(toolchain);
        }
    }
    out
}

/// What of the host every toolchain a profile names needs inside the
/// sandbox, handed to each run ([`testgate_run::RunSpec::toolchains`]).
pub(crate) fn run_toolchains() -> Vec<testgate_run::Toolchain> {
    toolchains()
        .into_iter()
        .map(|toolchain| toolchain.run)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use testgate_parse::Runner;

    #[test]
    fn every_ecosystem_is_named_by_a_profile() {
        let all = toolchains();
        assert_eq!(all.len(), 8);
        for (got, expected) in all
            .into_iter()
            .zip([&RUST, &PYTHON, &GO, &NODE, &JAVA, &CXX, &PHP, &RUBY])
        {
            assert!(std::ptr::eq(got, expected), "{got:?}");
        }
    }

    /// An exact name that a prefix also admits would be passed with no
    /// secret check by one and checked by the other: keep them apart.
    #[test]
    fn no_variable_is_a_prefix_or_a_duplicate() {
        let all = run_toolchains();
        let variables: Vec<&str> = all.iter().flat_map(|t| t.variables).copied().collect();
        for (i, name) in variables.iter().enumerate() {
            assert!(!variables[..i].contains(name), "{name} twice");
            let prefixed = all.iter().any(|t| {
                t.prefixes.iter().any(|p| name.starts_with(p))
                    || t.prefixes_any_case
                        .iter()
                        .any(|p| name.to_ascii_uppercase().starts_with(p))
            });
            assert!(!prefixed, "{name} is also admitted by a prefix");
        }
    }

    /// The toolchains hand testgate-run what its own lists held before
    /// the kit (issue 37), no more and no less: every home, variable,
    /// namespace, cache, build output and installed folder of Rust,
    /// Python, Go and Node; and Java's, the first ecosystem added on the
    /// kit (issue 42). A profile naming no toolchain, or a toolchain
    /// losing an entry, fails here.
    #[test]
    fn the_toolchains_hand_over_what_testgate_run_knew() {
        fn set<'a>(items: impl Iterator<Item = &'a str>) -> std::collections::BTreeSet<&'a str> {
            items.collect()
        }
        let all = run_toolchains();
        let homes = set(all.iter().flat_map(|t| t.homes).copied());
        assert_eq!(
            homes,
            set([
                ".cargo/bin",
                ".cargo/env",
                ".cargo/registry",
                ".cargo/git",
                ".rustup",
                ".pyenv",
                ".nvm",
                ".volta",
                ".bun",
                ".deno",
                ".local/share/uv",
                ".local/share/pnpm",
                "go",
                ".config/go",
                ".conda",
                "miniconda3",
                "miniforge3",
                "anaconda3",
                ".sdkman",
                ".jdks",
                ".m2/repository",
                ".m2/wrapper",
                ".config/composer/vendor",
                ".composer/vendor",
                ".gem",
                ".rbenv",
                ".rvm",
                ".local/share/gem",
            ]
            .into_iter())
        );
        let directories = set(all.iter().flat_map(|t| t.directories).copied());
        assert_eq!(
            directories,
            set([
                "VIRTUAL_ENV",
                "CONDA_PREFIX",
                "GOPATH",
                "GOROOT",
                "GOMODCACHE",
                "RUSTUP_HOME",
                "PYENV_ROOT",
                "NVM_DIR",
                "VOLTA_HOME",
                "BUN_INSTALL",
                "DENO_DIR",
                "JAVA_HOME",
                "MAVEN_HOME",
                "M2_HOME",
                "GRADLE_HOME",
                "COMPOSER_HOME",
                "GEM_HOME",
                "GEM_PATH",
                "RBENV_ROOT",
                "BUNDLE_PATH",
            ]
            .into_iter())
        );
        let lists = set(all.iter().flat_map(|t| t.search_paths).copied());
        assert_eq!(
            lists,
            set(["PYTHONPATH", "NODE_PATH", "RUBYLIB"].into_iter())
        );
        let variables = set(all.iter().flat_map(|t| t.variables).copied());
        assert_eq!(
            variables,
            set([
                "GOPATH",
                "GOROOT",
                "GOBIN",
                "GOFLAGS",
                "GOCACHE",
                "GOMODCACHE",
                "GOTMPDIR",
                "GOENV",
                "GOTOOLCHAIN",
                "GOPROXY",
                "GONOPROXY",
                "GOPRIVATE",
                "GONOSUMDB",
                "GOSUMDB",
                "GOINSECURE",
                "GOVCS",
                "GOWORK",
                "GO111MODULE",
                "GOOS",
                "GOARCH",
                "GOAMD64",
                "GOARM",
                "GOARM64",
                "GO386",
                "GOEXPERIMENT",
                "GODEBUG",
                "GOMAXPROCS",
                "GOGC",
                "GOMEMLIMIT",
                "GOTRACEBACK",
                "GOCOVERDIR",
                "RUSTFLAGS",
                "RUSTDOCFLAGS",
                "RUSTC",
                "RUSTDOC",
                "RUSTC_WRAPPER",
                "RUSTC_WORKSPACE_WRAPPER",
                "RUSTC_BOOTSTRAP",
                "PYTHONPATH",
                "PYTHONHOME",
                "PYTHONHASHSEED",
                "PYTHONDONTWRITEBYTECODE",
                "PYTHONUNBUFFERED",
                "PYTHONWARNINGS",
                "PYTHONIOENCODING",
                "PYTHONUTF8",
                "PYTHONNOUSERSITE",
                "PYTHONSAFEPATH",
                "PYTHONDEVMODE",
                "PYTHONFAULTHANDLER",
                "PYTHONOPTIMIZE",
                "VIRTUAL_ENV",
                "CONDA_PREFIX",
                "CONDA_DEFAULT_ENV",
                "NODE_OPTIONS",
                "NODE_PATH",
                "NODE_ENV",
                "NODE_NO_WARNINGS",
                "NODE_PRESERVE_SYMLINKS",
                "NODE_ICU_DATA",
                "NODE_V8_COVERAGE",
                "NODE_COMPILE_CACHE",
                "NVM_DIR",
                "NVM_BIN",
                "VOLTA_HOME",
                "PNPM_HOME",
                "BUN_INSTALL",
                "COREPACK_HOME",
                "JAVA_TOOL_OPTIONS",
                "JDK_JAVA_OPTIONS",
                "_JAVA_OPTIONS",
                "JAVA_OPTS",
                "MAVEN_OPTS",
                "MAVEN_ARGS",
                "GRADLE_OPTS",
                "CMAKE_GENERATOR",
                "CMAKE_BUILD_PARALLEL_LEVEL",
                "PHPRC",
                "PHP_INI_SCAN_DIR",
                "XDEBUG_MODE",
                "XDEBUG_CONFIG",
                "COMPOSER_VENDOR_DIR",
                "COMPOSER_BIN_DIR",
                "COMPOSER_ALLOW_SUPERUSER",
                "COMPOSER_NO_INTERACTION",
                "COMPOSER_PROCESS_TIMEOUT",
                "RUBYOPT",
                "RUBYLIB",
                "GEM_HOME",
                "GEM_PATH",
                "BUNDLE_GEMFILE",
                "BUNDLE_PATH",
                "BUNDLE_WITHOUT",
                "BUNDLE_WITH",
                "BUNDLE_FROZEN",
                "BUNDLE_DEPLOYMENT",
                "SPEC_OPTS",
                "TESTOPTS",
            ]
            .into_iter())
        );
        let prefixes = set(all.iter().flat_map(|t| t.prefixes).copied());
        assert_eq!(
            prefixes,
            set(["CARGO_", "RUSTUP_", "RUST_", "CGO_", "PIP_"].into_iter())
        );
        let any_case = set(all.iter().flat_map(|t| t.prefixes_any_case).copied());
        assert_eq!(any_case, set(["NPM_CONFIG_"].into_iter()));
        let runners = set(Runner::ALL
            .into_iter()
            .flat_map(|runner| super::super::profile(runner).env_prefixes())
            .copied());
        assert_eq!(
            runners,
            set(["NEXTEST_", "PYTEST_", "DJANGO_", "CTEST_", "GTEST_"].into_iter())
        );
        let caches: Vec<String> = all
            .iter()
            .flat_map(|t| t.caches)
            .map(testgate_run::HomeCache::private)
            .collect();
        let caches = set(caches.iter().map(String::as_str));
        assert_eq!(
            caches,
            set([
                "home-cache/go-build",
                "home-cache/pip",
                "npm/_cacache",
                "gradle/caches",
                "home-cache/composer",
            ]
            .into_iter())
        );
        let outputs: Vec<_> = all.iter().flat_map(|t| t.build_outputs).collect();
        assert_eq!(outputs, [&("CARGO_TARGET_DIR", "cargo-target")]);
        let installed: Vec<_> = all.iter().flat_map(|t| t.installed).collect();
        assert_eq!(installed.len(), 5, "{installed:?}");
        let offline: Vec<_> = all.iter().flat_map(|t| t.offline).collect();
        assert_eq!(offline, [&("npm_config_offline", "true")]);
    }

    #[test]
    fn host_file_rules_match_by_place() {
        let config = HostFile::In {
            folder: ".cargo",
            name: "config",
        };
        assert!(config.matches(Path::new("a/.cargo/config.toml")));
        // Where it must not fire: another folder, another name.
        assert!(!config.matches(Path::new("src/config.toml")));
        assert!(!config.matches(Path::new(".cargo/registry.toml")));
        let shim = HostFile::Beneath {
            folder: ".bin",
            under: "node_modules",
        };
        assert!(shim.matches(Path::new("web/node_modules/.bin/jest")));
        assert!(!shim.matches(Path::new("node_modules/jest/bin/jest.js")));
        assert!(!shim.matches(Path::new("tools/.bin/run")));
    }
}
