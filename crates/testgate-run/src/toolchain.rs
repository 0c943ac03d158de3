//! A toolchain as data: what of the host a command of that ecosystem
//! needs shown and passed, named by the caller ([`crate::RunSpec::toolchains`]),
//! since this crate knows no toolchain and no runner by name.

use std::ffi::OsString;
use std::path::Path;

/// What a toolchain (Rust's, Python's, Node's, Go's) needs of the host
/// inside the sandbox: the folders of the homes it is installed in, the
/// variables that name where it lives, and the variables it reads. The
/// caller hands every toolchain a command may use to [`crate::RunSpec::toolchains`]
/// (testgate's facade: every runner profile's); one not handed is neither
/// shown nor passed.
///
/// ```
/// use testgate_run::{EnvPolicy, Toolchain};
///
/// const GO: Toolchain = Toolchain {
///     homes: &["go"],
///     directories: &["GOPATH"],
///     variables: &["GOFLAGS"],
///     ..Toolchain::NONE
/// };
/// let host = [("GOFLAGS", "-mod=mod"), ("CI", "true")];
/// let host = || host.iter().map(|(k, v)| (k.into(), v.into()));
/// assert_eq!(EnvPolicy::new().resolve_for(host(), &[GO]).len(), 2);
/// assert_eq!(EnvPolicy::new().resolve(host()).len(), 1);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Toolchain {
    /// Folders under each home it is installed in (`.cargo/bin`,
    /// `.rustup`): shown read-only where they exist, every other part of
    /// a home hidden. Nothing here may hold a credential.
    pub homes: &'static [&'static str],
    /// Variables naming one folder it lives in (`GOROOT`, `VIRTUAL_ENV`):
    /// shown read-only, and refused to an untrusted caller
    /// ([`crate::caller_may_set`]).
    pub directories: &'static [&'static str],
    /// Variables holding a `:`-separated list of folders it searches
    /// (`PYTHONPATH`): shown read-only, and refused to an untrusted caller.
    pub search_paths: &'static [&'static str],
    /// Variables it reads, passed by default by exact name
    /// ([`crate::EnvPolicy`]): no secret by design.
    pub variables: &'static [&'static str],
    /// Its namespaces, closed by `_` (`CARGO_`), passed by default unless a
    /// name looks like a secret or a value holds a URL with a credential.
    pub prefixes: &'static [&'static str],
    /// Namespaces matched without regard to case (`NPM_CONFIG_`, which npm
    /// reads as `npm_config_…`).
    pub prefixes_any_case: &'static [&'static str],
    /// Its caches under the home: each project gets a private, persistent
    /// one, seeded from the host's ([`HomeCache`]).
    pub caches: &'static [HomeCache],
    /// Variables naming where its build tool writes what it builds, and
    /// the project's private folder each is pointed at inside, whatever
    /// the host's value (`CARGO_TARGET_DIR`, `cargo-target`): the host's
    /// folder is never written, and what a check builds is reused by the
    /// project's next check.
    pub build_outputs: &'static [(&'static str, &'static str)],
    /// The project's folders it installs into or builds in, and runs code
    /// from afterwards (`node_modules`, `target` beside `Cargo.toml`, a
    /// virtual environment): read-only inside unless the run may write
    /// them ([`crate::ProjectWrites`]).
    pub installed: &'static [Installed],
    /// Folders inside an installed folder that a tool writes while it runs
    /// and reads nothing from after (vite's `node_modules/.vite-temp`):
    /// writable, a fresh tmpfs each under bubblewrap.
    pub scratch: &'static [InstalledPart],
    /// Folders inside an installed folder that a tool writes data to while
    /// it runs and reads only data from later (vitest's
    /// `node_modules/.vite/vitest`): read-only under bubblewrap, left out of
    /// Landlock's watch.
    pub data_caches: &'static [InstalledPart],
    /// Variables set when the sandbox has no network, unless the command
    /// sets them itself in any case (npm's `npm_config_offline=true`: a
    /// package npm lacks then fails at once, not at the timeout).
    pub offline: &'static [(&'static str, &'static str)],
    /// Variables whose tool reads no `TMPDIR`, and the option that names
    /// its temporary directory (the JVM's `JAVA_TOOL_OPTIONS`,
    /// `-Djava.io.tmpdir=`): where the sandbox gives the attempt no
    /// private `/tmp` (Landlock), the option and the attempt's own
    /// directory are appended to the variable's value.
    pub temporary_options: &'static [(&'static str, &'static str)],
}

/// A folder of the project a toolchain installs into or builds in
/// ([`Toolchain::installed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Installed {
    /// Any folder of this name (`node_modules`).
    Named(&'static str),
    /// A folder of this name beside this file (`target` beside
    /// `Cargo.toml`).
    Beside {
        /// The folder's name.
        name: &'static str,
        /// The file beside it.
        manifest: &'static str,
    },
    /// Any folder holding this regular file (a venv's `pyvenv.cfg`).
    HoldingFile(&'static str),
    /// Any folder holding this folder (conda's `conda-meta`).
    HoldingFolder(&'static str),
}

/// A folder inside an installed folder of a given name that lies beside a
/// given file ([`Toolchain::scratch`], [`Toolchain::data_caches`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstalledPart {
    /// The installed folder's name (`node_modules`).
    pub installed: &'static str,
    /// The file beside the installed folder (`package.json`).
    pub beside: &'static str,
    /// The part, relative to the installed folder (`.vite-temp`).
    pub path: &'static str,
}

/// A cache a toolchain keeps under the home (Go's build cache, pip's,
/// npm's): inside, the project's private one, seeded from the host's on
/// the project's first run (never shared: docs/sandbox.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HomeCache {
    /// What it is, for a note (`Go build cache`).
    pub what: &'static str,
    /// The variables naming where the toolchain keeps it, the first set
    /// winning (`GOCACHE`): inside, pointed at the private one.
    pub variables: &'static [&'static str],
    /// Where it is when no variable says.
    pub place: CachePlace,
}

/// Where a [`HomeCache`] lies when no variable says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePlace {
    /// A folder of the XDG cache (`$XDG_CACHE_HOME`, else `~/.cache`):
    /// Go's `go-build`. Its variables name that folder.
    XdgCache(&'static str),
    /// A folder of its own under the home (npm's `.npm`), of which only
    /// `seeded` (`_cacache`) is copied. Its variables name the folder.
    HomeFolder {
        /// The folder, relative to the home.
        folder: &'static str,
        /// What of it is copied from the host's.
        seeded: &'static str,
    },
}

impl HomeCache {
    /// Its name among the project's private caches, as
    /// [`RunSpec::caches`](crate::RunSpec::caches) names it:
    /// `home-cache/go-build`, `npm/_cacache`.
    pub fn private(&self) -> String {
        match self.place {
            CachePlace::XdgCache(name) => format!("home-cache/{name}"),
            CachePlace::HomeFolder { folder, seeded } => {
                format!("{}/{seeded}", home_folder_private(folder))
            }
        }
    }

    /// Where its variables point inside, relative to the home:
    /// `.cache/go-build`, `.npm`.
    pub(crate) fn inside(&self) -> String {
        match self.place {
            CachePlace::XdgCache(name) => format!(".cache/{name}"),
            CachePlace::HomeFolder { folder, .. } => folder.to_owned(),
        }
    }
}

/// The project's private folder bound at a home folder of a cache's own
/// (`.npm`: `npm`).
pub(crate) fn home_folder_private(folder: &str) -> String {
    folder.trim_start_matches('.').replace('/', "-")
}

impl Toolchain {
    /// A toolchain that needs nothing: the base of a `const` one
    /// (`Toolchain { homes: &[".cargo/bin"], ..Toolchain::NONE }`).
    pub const NONE: Toolchain = Toolchain {
        homes: &[],
        directories: &[],
        search_paths: &[],
        variables: &[],
        prefixes: &[],
        prefixes_any_case: &[],
        caches: &[],
        build_outputs: &[],
        installed: &[],
        scratch: &[],
        data_caches: &[],
        offline: &[],
        temporary_options: &[],
    };

    /// `env` with each of `toolchains`' [`Toolchain::temporary_options`]
    /// naming `tmp`: the option appended to the variable's value (the
    /// JVM reads its options left to right, the last one wins).
    pub(crate) fn point_at_temporary(
        env: &mut Vec<(OsString, OsString)>,
        toolchains: &[Toolchain],
        tmp: &Path,
    ) {
        for (name, option) in toolchains.iter().flat_map(|t| t.temporary_options) {
            let mut value = OsString::from(*option);
            value.push(tmp.as_os_str());
            match env.iter_mut().find(|(k, _)| k == name) {
                Some((_, old)) if !old.is_empty() => {
                    old.push(" ");
                    old.push(value);
                }
                Some((_, old)) => *old = value,
                None => env.push(((*name).into(), value)),
            }
        }
    }

    /// Whether the variable `name` is in one of its namespaces.
    pub(crate) fn has_prefix_of(&self, name: &str) -> bool {
        let longer = |prefix: &str| name.len() > prefix.len();
        self.prefixes
            .iter()
            .any(|prefix| name.starts_with(prefix) && longer(prefix))
            || self.prefixes_any_case.iter().any(|prefix| {
                name.get(..prefix.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
                    && longer(prefix)
            })
    }
}

/// The toolchains testgate's facade hands every run (its
/// `runners/ecosystems.rs`), copied for the tests of this crate's
/// mechanisms, which must not depend on the facade.
#[cfg(test)]
pub(crate) const FOR_TESTS: [Toolchain; 4] = [
    // Rust
    Toolchain {
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
    // Python
    Toolchain {
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
    // Go
    Toolchain {
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
    // Node
    Toolchain {
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
];

#[cfg(test)]
mod tests {
    use super::Toolchain;
    use std::ffi::OsString;
    use std::path::Path;

    /// The JVM reads no `TMPDIR`: its option is appended to the caller's
    /// options, or makes the variable; a toolchain without one adds
    /// nothing.
    #[test]
    fn a_temporary_option_names_the_attempts_directory() {
        const JVM: Toolchain = Toolchain {
            temporary_options: &[("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=")],
            ..Toolchain::NONE
        };
        let pointed = |env: &[(&str, &str)], toolchains: &[Toolchain]| {
            let mut env: Vec<(OsString, OsString)> =
                env.iter().map(|(k, v)| (k.into(), v.into())).collect();
            Toolchain::point_at_temporary(&mut env, toolchains, Path::new("/t/a1"));
            env.into_iter()
                .map(|(k, v)| format!("{}={}", k.display(), v.display()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            pointed(&[("PATH", "/bin")], &[JVM]),
            ["PATH=/bin", "JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=/t/a1"]
        );
        assert_eq!(
            pointed(&[("JAVA_TOOL_OPTIONS", "-Xmx1g")], &[JVM]),
            ["JAVA_TOOL_OPTIONS=-Xmx1g -Djava.io.tmpdir=/t/a1"]
        );
        assert_eq!(
            pointed(&[("JAVA_TOOL_OPTIONS", "")], &[JVM]),
            ["JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=/t/a1"]
        );
        assert_eq!(
            pointed(&[("PATH", "/bin")], &[Toolchain::NONE]),
            ["PATH=/bin"]
        );
    }
}
