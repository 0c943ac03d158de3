//! A toolchain as data: what of the host a command of that ecosystem
//! needs shown and passed, named by the caller ([`crate::RunSpec::toolchains`]),
//! since this crate knows no toolchain and no runner by name.

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
    };

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
/// `runners/toolchain.rs`), copied for the tests of this crate's
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
    },
];
