//! Recognisers of an environment that failed before the tests ran: no
//! network for the dependencies, a read-only path the toolchain needed, a
//! runner that is not installed, a toolchain older than the project asks for,
//! an interpreter that cannot start because the sandbox hides a path it needs.
//!
//! Each recogniser is a named function of one line, anchored on the
//! toolchain's own prefix (`error:` from cargo, `go:` from go, `npm error`
//! from npm, `ERROR:`/`WARNING: Retrying` from pip, the shell's `not
//! found`), never on words a test may print in an assertion message. The
//! policy reads the evidence only when no failing test is named, so a test
//! that prints "Could not resolve host" and fails is still a failure.
//!
//! git's `Author identity unknown` is deliberately not recognised: the
//! sandbox gives git an identity, so under it the message means that the
//! test removed it itself (its own `HOME` or `GIT_CONFIG_GLOBAL`), often to
//! test that very error, and the outcome is the test's.

use crate::line::LineSplitter;

/// What kind of environment failure a line showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnvironmentKind {
    /// The toolchain could not reach the network to fetch dependencies.
    NoNetwork,
    /// The toolchain could not write a path it needed (a cache, a lock).
    ReadOnlyPath,
    /// The runner, or the interpreter module that is the runner, is not
    /// installed.
    RunnerNotFound,
    /// The toolchain is older than the one the project declares it needs
    /// (go.mod's `go` line, Cargo.toml's `rust-version`).
    ToolchainTooOld,
    /// The interpreter could not start: a path it needed lies outside what
    /// the sandbox shows (a virtual environment linked to or built at
    /// another path, the Python install its `pyvenv.cfg` names).
    HiddenPath,
}

/// An environment failure: which toolchain, what failed, and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EnvironmentFailure {
    /// The kind of failure.
    pub kind: EnvironmentKind,
    /// What failed, in one line: `cargo could not download its dependencies:
    /// the network is off`.
    pub what: String,
    /// The fix, in one line, naming the option that gives it.
    pub fix: String,
    /// The line that showed it, cut to 200 bytes.
    pub evidence: String,
}

/// A streaming scan for environment failures: feed it the output in
/// chunks of any size; it keeps only the first failure and the current
/// line (at most [`MAX_LINE`](crate::MAX_LINE) bytes). Lines are cut and cleaned as the
/// parser's are (ANSI escapes, the trailing CR and invalid UTF-8); a
/// [`StreamParser::with_scans`](crate::StreamParser::with_scans) runs the
/// same scan on the lines it splits itself, so that output is cut into
/// lines once.
///
/// ```
/// use testgate_parse::{EnvironmentKind, EnvironmentScan};
///
/// let mut scan = EnvironmentScan::new();
/// scan.feed(b"    Updating crates.io index\nerror: failed to get `rand` as a dependency of package `app v0.1.0 (/p)`\n");
/// let found = scan.finish().unwrap();
/// assert_eq!(found.kind, EnvironmentKind::NoNetwork);
/// assert!(found.fix.contains("--allow-network"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct EnvironmentScan {
    /// The lines of what [`feed`](Self::feed) is given; unused where a
    /// parser gives the lines.
    splitter: LineSplitter,
    seen: Seen,
}

/// What the scan keeps between lines: the first failure, and the standard
/// library's folder Python printed in its path configuration (the fatal
/// error that follows does not name it).
#[derive(Debug, Clone, Default)]
struct Seen {
    found: Option<EnvironmentFailure>,
    python_stdlib: Option<String>,
}

impl EnvironmentScan {
    /// A scan that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads `chunk`.
    pub fn feed(&mut self, chunk: &[u8]) {
        if self.seen.found.is_some() {
            return;
        }
        let EnvironmentScan { splitter, seen } = self;
        splitter.feed(chunk, |line| see_output(seen, line));
    }

    /// Reads one cleaned line (the parser's recogniser form), `may` its
    /// pre-filter's answer ([`Wanted`](crate::scans::Wanted)).
    pub(crate) fn line(&mut self, text: &str, may: bool) {
        see(&mut self.seen, text, may);
    }

    /// The first environment failure the output showed, if any.
    pub fn finish(mut self) -> Option<EnvironmentFailure> {
        let EnvironmentScan { splitter, seen } = &mut self;
        splitter.finish(|line| see_output(seen, line));
        self.seen.found
    }
}

/// A line of the output as fed, through [`see`] without the CI's
/// prefixes, as the parser gives its lines (a CI's own line is none).
fn see_output(seen: &mut Seen, line: &str) {
    if let Some(line) = crate::ci::runner_text(line) {
        see(seen, line, may_be_environment(line));
    }
}

/// `line` through the recognisers, unless a failure was found already;
/// `may` is [`may_be_environment`] of it.
fn see(seen: &mut Seen, line: &str, may: bool) {
    if seen.found.is_some() {
        return;
    }
    let line = line.trim_end_matches('\r');
    if let Some(dir) = python_stdlib_dir(line) {
        seen.python_stdlib = Some(dir.to_owned());
    } else if may {
        seen.found = recognise(line)
            .or_else(|| python_without_its_stdlib(line, seen.python_stdlib.as_deref()));
    }
}

/// Whether `line` may be one a recogniser knows: it starts as the
/// toolchains' own lines do ([`starts_as_a_toolchain`]), or holds what
/// each of the recognisers' searches within a line needs, found from its
/// rarest byte ([`word_at`]). Most lines of a test run are neither, and
/// cost a byte comparison and one pass of `memchr3`, not the recognisers'
/// searches. The parser's scans read the same in one pass with the
/// coverage scan's ([`Wanted`](crate::scans::Wanted)).
pub(crate) fn may_be_environment(line: &str) -> bool {
    let bytes = line.as_bytes();
    let [g, n, z] = RARE_BYTES;
    starts_as_a_toolchain(line)
        || memchr::memchr3_iter(g, n, z, bytes)
            .any(|at| word_at(bytes.get(at..).unwrap_or_default()))
}

/// Whether `line` starts as one of the toolchains' own lines does.
pub(crate) fn starts_as_a_toolchain(line: &str) -> bool {
    match line.as_bytes().first() {
        Some(b'n') => {
            line.starts_with("note: ") || line.starts_with("npm ") || line.starts_with("node: ")
        }
        Some(b'g') => line.starts_with("go: "),
        Some(b'e') => line.starts_with("error: "),
        Some(b'w') => line.starts_with("warning: "),
        Some(b'W') => line.starts_with("WARNING: "),
        Some(b'E') => line.starts_with("ERROR: "),
        Some(b's') => line.starts_with("sh: "),
        Some(b'b') => line.starts_with("bash: "),
        Some(b' ') => line.starts_with("  Read-only"),
        Some(b'P') => line.starts_with("PermissionError: [Errno 13] "),
        Some(b'F') => line.starts_with("Fatal Python error: init_fs_encoding"),
        Some(b'C') => line.starts_with("Could not find platform independent libraries"),
        Some(b'[') => line.starts_with("[ERROR] "),
        _ => false,
    }
}

/// The bytes [`word_at`] starts from: `GOROOT (` and `Get "http` from a
/// `G`, `No module named ` from an `N`, `ze build cache at ` from the `z`
/// of `initialize`.
pub(crate) const RARE_BYTES: [u8; 3] = [b'G', b'N', b'z'];

/// Whether `rest` (of a line, from one of [`RARE_BYTES`]) starts with
/// what one of the recognisers' searches within a line needs.
pub(crate) fn word_at(rest: &[u8]) -> bool {
    match rest.first() {
        Some(b'G') => rest.starts_with(b"GOROOT (") || rest.starts_with(b"Get \"http"),
        Some(b'N') => rest.starts_with(b"No module named "),
        _ => rest.starts_with(b"ze build cache at "),
    }
}

/// The first environment failure in `output`, if any.
pub fn environment_failure(output: impl AsRef<[u8]>) -> Option<EnvironmentFailure> {
    let mut scan = EnvironmentScan::new();
    scan.feed(output.as_ref());
    scan.finish()
}

/// One cleaned line through every recogniser, in order.
fn recognise(line: &str) -> Option<EnvironmentFailure> {
    const RECOGNISERS: [fn(&str) -> Option<EnvironmentFailure>; 9] = [
        python_venv_hidden,
        toolchain_too_old,
        cargo_without_network,
        go_without_network_or_cache,
        npm_without_network,
        pip_without_network,
        maven_without_network,
        read_only_for_the_toolchain,
        runner_not_found,
    ];
    RECOGNISERS.iter().find_map(|recognise| recognise(line))
}

fn failure(kind: EnvironmentKind, what: &str, fix: &str, line: &str) -> Option<EnvironmentFailure> {
    let mut evidence = line.trim().to_owned();
    if evidence.len() > 200 {
        let mut end = 200;
        while !evidence.is_char_boundary(end) {
            end -= 1;
        }
        evidence.truncate(end);
    }
    Some(EnvironmentFailure {
        kind,
        what: what.to_owned(),
        fix: fix.to_owned(),
        evidence,
    })
}

/// The fix for an interpreter that could not start on a hidden path.
const HIDDEN_PYTHON_FIX: &str = "create the virtual environment inside the project \
     (`python3 -m venv .venv` there, from an interpreter on the host's PATH), or show the folder \
     it lies in (or links to) to the command with --writable DIR";

/// Python's own refusal to read its virtual environment's `pyvenv.cfg` at
/// start (`PermissionError: [Errno 13] Permission denied: '/p/.venv/pyvenv.cfg'`,
/// unindented, after `Fatal Python error: init_import_site`): under
/// Landlock the venv is linked to, or lies in, a folder the sandbox hides.
/// A test that reads some file and fails on it prints another path, or
/// its traceback indented.
fn python_venv_hidden(line: &str) -> Option<EnvironmentFailure> {
    let path = line
        .strip_prefix("PermissionError: [Errno 13] Permission denied: '")?
        .strip_suffix('\'')?;
    let venv = path.strip_suffix("/pyvenv.cfg")?;
    let what = format!(
        "Python could not start: it may not read its virtual environment's pyvenv.cfg in \
         `{venv}`, which lies (or links) outside what the sandbox shows"
    );
    failure(EnvironmentKind::HiddenPath, &what, HIDDEN_PYTHON_FIX, line)
}

/// The standard library's folder in the path configuration Python prints
/// before a fatal error at start (`  stdlib dir = '/opt/py/lib/python3.11'`).
fn python_stdlib_dir(line: &str) -> Option<&str> {
    line.strip_prefix("  stdlib dir = '")?.strip_suffix('\'')
}

/// Python that could not find its standard library at start: `Fatal
/// Python error: init_fs_encoding: failed to get the Python codec of the
/// filesystem encoding` (`No module named 'encodings'` follows), or the
/// `Could not find platform independent libraries` it prints first on
/// some layouts. Under the sandbox, the install that a virtual
/// environment's `pyvenv.cfg` `home` names is hidden; `stdlib`, when
/// Python printed it, is named.
fn python_without_its_stdlib(line: &str, stdlib: Option<&str>) -> Option<EnvironmentFailure> {
    let fatal = line.starts_with("Fatal Python error: init_fs_encoding");
    if !fatal && !line.starts_with("Could not find platform independent libraries") {
        return None;
    }
    let place = stdlib.map_or_else(String::new, |dir| format!(" `{dir}`"));
    let what = format!(
        "Python could not start: it cannot read its standard library{place}; the interpreter \
         its virtual environment's pyvenv.cfg names (`home =`) is installed outside what the \
         sandbox shows"
    );
    failure(EnvironmentKind::HiddenPath, &what, HIDDEN_PYTHON_FIX, line)
}

// The host's registry is read-only in the sandbox: with the default
// CARGO_HOME neither a preparation nor the network can add a crate to it.
const NETWORK_FIX_CARGO: &str = "the sandbox has no network and cannot add to the host's cargo \
     registry: run `cargo fetch` in the project on the host first (with a CARGO_HOME of its own, \
     --env CARGO_HOME=DIR --writable DIR, --prepare 'cargo fetch' or --allow-network work too)";

const GO_TOO_OLD_FIX: &str = "install the Go that go.mod's `go` line names (or newer) on the host \
     and put it first on PATH";

/// The toolchain's own word that it is older than the project asks for:
/// go 1.19 and 1.20 end a failed build with `note: module requires Go
/// 1.21` when go.mod's `go` line is newer than themselves; cargo refuses
/// with `error: rustc 1.70.0 is not supported by the following package(s):`
/// when a `rust-version` is newer. The build's errors that come before say
/// nothing about the change: an older compiler judged it.
fn toolchain_too_old(line: &str) -> Option<EnvironmentFailure> {
    if line.starts_with("note: module requires Go ") {
        return failure(
            EnvironmentKind::ToolchainTooOld,
            "go is older than the version the project's go.mod requires, and the build failed",
            GO_TOO_OLD_FIX,
            line,
        );
    }
    if go_package_newer_than_the_toolchain(line) {
        return failure(
            EnvironmentKind::ToolchainTooOld,
            "go is older than the standard library the project imports (a package added in \
             go 1.21 or later)",
            GO_TOO_OLD_FIX,
            line,
        );
    }
    // go 1.21 and later refuse before building under GOTOOLCHAIN=local:
    // `go: go.mod requires go >= 1.99 (running go 1.21.0; GOTOOLCHAIN=local)`
    // (hand-made from cmd/go's gover.TooNewError: only go 1.19 is here).
    let go_refused = line.starts_with("go: ")
        && line.contains(" requires go >= ")
        && line.contains("(running go ");
    if go_refused {
        return failure(
            EnvironmentKind::ToolchainTooOld,
            "go is older than the version the project's go.mod requires",
            GO_TOO_OLD_FIX,
            line,
        );
    }
    // node before 18.15 refuses the reporter options testgate asks `node
    // --test` for its junit report with, before running anything (captured:
    // node 18.14.2, `environment-fixtures/node_too_old_for_the_report`).
    if line.starts_with("node: bad option: --test-reporter") {
        return failure(
            EnvironmentKind::ToolchainTooOld,
            "node is older than 18.15, whose --test-reporter options testgate asks node --test \
             for its junit report with",
            "update node to 18.15 or later; or run the tests from a script file (`sh run.sh`), \
             where testgate asks node for no report and the console judges alone",
            line,
        );
    }
    if line.starts_with("error: rustc ")
        && line.contains(" is not supported by the following package")
    {
        return failure(
            EnvironmentKind::ToolchainTooOld,
            "rustc is older than the rust-version a package of the project requires",
            "update the Rust toolchain to the version the packages named ask for (`rustup update`)",
            line,
        );
    }
    None
}

/// cargo's own errors when the registry cannot be reached: `error: failed
/// to get `X` as a dependency of package`, `error: failed to download
/// from`, `error: failed to query replaced source registry`, and the
/// `Could not resolve host` that follows `[6]` in its spurious-retry
/// warnings. Only lines cargo starts with `error:` or `warning: spurious
/// network error`.
fn cargo_without_network(line: &str) -> Option<EnvironmentFailure> {
    let dependency = line.starts_with("error: failed to get `")
        && line.contains("` as a dependency of package `");
    let download = line.starts_with("error: failed to download from `")
        || line.starts_with("error: failed to query replaced source registry `")
        || line.starts_with("error: failed to load source for dependency `");
    let spurious = line.starts_with("warning: spurious network error");
    if dependency || download || spurious {
        return failure(
            EnvironmentKind::NoNetwork,
            "cargo could not download the project's dependencies: the network is off",
            NETWORK_FIX_CARGO,
            line,
        );
    }
    None
}

/// Standard-library packages added in go 1.21 and later. A go older than
/// 1.21 does not refuse a go.mod that asks for a newer one: it loads the
/// packages and stops at the first import it lacks. Go 1.21 and later refuse
/// by go.mod's `go` line first, so the list only has to name what an older
/// toolchain can miss; a package not listed stays the code's error.
const GO_STD_SINCE_1_21: [&str; 17] = [
    "cmp",
    "crypto/fips140",
    "crypto/hkdf",
    "crypto/mlkem",
    "crypto/pbkdf2",
    "crypto/sha3",
    "go/version",
    "iter",
    "log/slog",
    "maps",
    "math/rand/v2",
    "slices",
    "structs",
    "testing/slogtest",
    "testing/synctest",
    "unique",
    "weak",
];

/// go's `FILE:LINE:COL: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)`
/// for a package of [`GO_STD_SINCE_1_21`]. A mistyped import (`package fmtt
/// is not in GOROOT`) is the code's error and does not match.
fn go_package_newer_than_the_toolchain(line: &str) -> bool {
    let Some((location, rest)) = line.split_once(": package ") else {
        return false;
    };
    let Some((package, tail)) = rest.split_once(" is not in GOROOT (") else {
        return false;
    };
    // The location go prints first, `context.go:6:2`, is never indented.
    let located = !location.starts_with(char::is_whitespace) && location.contains(".go:");
    located && tail.ends_with(')') && GO_STD_SINCE_1_21.contains(&package)
}

/// go's module downloads without network (`go: example.com/m@v1: Get
/// "https://proxy.golang.org/...": dial tcp: lookup proxy.golang.org ...`)
/// and a build or module cache it cannot create (`go: could not create
/// module cache: ... read-only file system`, `failed to initialize build
/// cache at ...`).
fn go_without_network_or_cache(line: &str) -> Option<EnvironmentFailure> {
    let go = line.starts_with("go: ");
    // The module proxy's download path (`/@v/`) names go's own fetch, also
    // where go prefixes the line with the importing file (`app.go:3:8:`).
    let fetch = go || (line.contains(": Get \"http") && line.contains("/@v/"));
    if fetch
        && (line.contains("dial tcp: lookup ")
            || line.contains(": no such host")
            || line.contains("network is unreachable"))
    {
        return failure(
            EnvironmentKind::NoNetwork,
            "go could not download the project's modules: the network is off",
            "the sandbox has no network and cannot add to the host's module cache: run `go mod \
             download` in the project on the host first (with a GOMODCACHE of its own, --env \
             GOMODCACHE=DIR --writable DIR, --prepare 'go mod download' or --allow-network work \
             too)",
            line,
        );
    }
    let cache = (go && line.contains("could not create module cache"))
        || line.contains("failed to initialize build cache at ")
        || (go && line.contains("read-only file system"));
    if cache {
        return failure(
            EnvironmentKind::ReadOnlyPath,
            "go could not write its module or build cache",
            "point the cache at a writable place (--env GOCACHE=/tmp/go-build \
             --env GOMODCACHE=/tmp/go-mod) or make it writable with --writable PATH",
            line,
        );
    }
    None
}

/// npm's network error codes (`npm error code EAI_AGAIN`, `ENOTFOUND`,
/// `ECONNREFUSED`, `ETIMEDOUT`; `npm ERR!` on npm 9 and older), its
/// `network request ... failed` line, and `ENOTCACHED`: offline, a package
/// in no cache.
fn npm_without_network(line: &str) -> Option<EnvironmentFailure> {
    let rest = line
        .strip_prefix("npm error ")
        .or_else(|| line.strip_prefix("npm ERR! "))?;
    let code = rest.strip_prefix("code ").map(str::trim);
    let network_code = matches!(
        code,
        Some("EAI_AGAIN" | "ENOTFOUND" | "ECONNREFUSED" | "ETIMEDOUT" | "ENETUNREACH")
    );
    let network_line = rest.starts_with("network request to ") && rest.contains(" failed");
    // Offline (testgate's sandbox tells npm so when it has no network):
    // what is in no cache fails at once, `npx vitest run` without
    // node_modules above all, where npx would fetch the runner.
    if code == Some("ENOTCACHED") {
        return failure(
            EnvironmentKind::NoNetwork,
            "npm needed a package that is in no cache, and the sandbox has no network (npm is \
             told to stay offline)",
            "install the project's dependencies first: `npm ci` in the project on the host, or \
             --prepare 'npm ci'; or pass --allow-network",
            line,
        );
    }
    if network_code || network_line {
        return failure(
            EnvironmentKind::NoNetwork,
            "npm could not reach the registry: the network is off",
            "the sandbox has no network: install the dependencies first with \
             --prepare 'npm ci', or pass --allow-network",
            line,
        );
    }
    if matches!(code, Some("EROFS" | "EACCES")) {
        return failure(
            EnvironmentKind::ReadOnlyPath,
            "npm could not write a path it needed",
            "make the path writable with --writable PATH (npm's cache: --env npm_config_cache=/tmp/npm)",
            line,
        );
    }
    None
}

/// pip retrying a connection that the sandbox refuses (`WARNING: Retrying
/// (Retry(total=4, ...)) after connection broken by
/// 'NewConnectionError(...)'`), which always precedes its final error.
fn pip_without_network(line: &str) -> Option<EnvironmentFailure> {
    let retrying = line.starts_with("WARNING: Retrying (Retry(total=")
        && (line.contains("NewConnectionError")
            || line.contains("Temporary failure in name resolution")
            || line.contains("Network is unreachable"));
    let no_index = line
        .starts_with("ERROR: Could not find a version that satisfies the requirement")
        && line.contains("(from versions: none)");
    if retrying || no_index {
        return failure(
            EnvironmentKind::NoNetwork,
            "pip could not reach the package index: the network is off",
            "the sandbox has no network: install the dependencies on the host first (`pip \
             install -e .` into the environment the tests use); a venv outside the project is \
             read-only in the sandbox, so --prepare 'pip install -e .' and --allow-network \
             work only for one inside it or given with --writable VENV",
            line,
        );
    }
    None
}

/// Maven's own `[ERROR]` that a plugin or dependency is in no local
/// repository and cannot be fetched: offline (`-o`: `Cannot access central
/// (…) in offline mode and the artifact … has not been downloaded from it
/// before`), or with the network off (`Could not transfer artifact … from/to
/// central (…): … Unknown host …`). A test's own failure is never Maven's
/// `[ERROR]` at the start of a line with these words.
fn maven_without_network(line: &str) -> Option<EnvironmentFailure> {
    let rest = line.strip_prefix("[ERROR] ")?;
    let offline =
        rest.contains("Cannot access ") && rest.contains(" in offline mode and the artifact ");
    let unreachable = rest.contains("Could not transfer artifact ")
        && [
            "Unknown host ",
            "Temporary failure in name resolution",
            "Network is unreachable",
        ]
        .iter()
        .any(|why| rest.contains(why));
    if offline || unreachable {
        return failure(
            EnvironmentKind::NoNetwork,
            "Maven needed a plugin or dependency that is not in the local repository \
             (~/.m2/repository, read-only in the sandbox), and the sandbox has no network",
            "fetch them on the host first: `mvn test` (or `mvn dependency:go-offline`) in the \
             project, then check again (with `-o` if you like)",
            line,
        );
    }
    None
}

/// A toolchain's own error that a path is read-only: cargo's `error: ...
/// Read-only file system (os error 30)`, pip's `ERROR: Could not install
/// packages due to an OSError: [Errno 30] Read-only file system`. A test's
/// assertion about a read-only file is printed by the test (a panic, a
/// traceback), never at the start of a line as the toolchain's `error:`.
fn read_only_for_the_toolchain(line: &str) -> Option<EnvironmentFailure> {
    let cargo = line.starts_with("error: ") && line.contains("Read-only file system (os error 30)");
    let pip = line.starts_with("ERROR: Could not install packages due to an OSError")
        && line.contains("Read-only file system");
    // cargo unpacking a crate whose archive the host downloaded but whose
    // source its clean-up removed: the read-only registry is the error's
    // last `Caused by:`, indented two spaces, alone on its line (anyhow's
    // chains, which a test's `Error:` prints, indent four).
    if line == "  Read-only file system (os error 30)" {
        return failure(
            EnvironmentKind::ReadOnlyPath,
            "cargo could not unpack a dependency into its registry, which is read-only in \
             the sandbox",
            "run `cargo fetch` in the project on the host first: the sandbox reads the \
             host's registry and cannot add to it",
            line,
        );
    }
    if cargo || pip {
        return failure(
            EnvironmentKind::ReadOnlyPath,
            "the toolchain could not write a path it needed: it is read-only in the sandbox",
            "make the path writable with --writable PATH, or point the toolchain's cache \
             at /tmp with --env (CARGO_HOME, PIP_CACHE_DIR)",
            line,
        );
    }
    None
}

/// The runner is not installed: a shell's `sh: 1: jest: not found` and
/// `bash: jest: command not found`, `npx --no-install`'s `could not
/// determine executable to run`, cargo's `error: no such command:
/// `nextest``, an interpreter's `python3: No module named pytest` (the
/// runner's own module: `-m` could not find it). A `ModuleNotFoundError`
/// in a traceback is *not* recognised: the module may be the code under
/// test, and a test that imports a missing module is the code's failure.
/// The fix is the one for the toolchain that said it: a misspelt cargo
/// subcommand gets no npm or pip advice.
fn runner_not_found(line: &str) -> Option<EnvironmentFailure> {
    const WHAT: &str = "the test runner is not installed in the environment the command ran in";
    let shell = (line.starts_with("sh: ") || line.starts_with("bash: "))
        && (line.ends_with(": not found") || line.ends_with(": command not found"));
    let npx = (line.starts_with("npm error ") || line.starts_with("npm ERR! "))
        && (line.contains("could not determine executable to run")
            || line.contains("npx canceled due to missing packages"));
    let python_m = line.contains("python")
        && line.contains(": No module named ")
        && !line.contains("Error")
        && !line.starts_with(' ');
    let fix = if let Some(rest) = line.strip_prefix("error: no such command: `") {
        let sub = rest.split('`').next().unwrap_or_default();
        match sub {
            "nextest" => {
                "install cargo-nextest on the host (`cargo install --locked cargo-nextest`), \
                 or run `cargo test`"
                    .to_owned()
            }
            _ => format!(
                "`cargo {sub}` is not a cargo command: check its spelling (cargo's own \
                 suggestion is in the output), or install the subcommand on the host"
            ),
        }
    } else if npx {
        "install the project's packages on the host (`npm ci`), or with --prepare 'npm ci'"
            .to_owned()
    } else if python_m {
        "install it into the interpreter the command runs (--prepare 'pip install -e .', or on \
         the host), or run the interpreter of the project's virtual environment"
            .to_owned()
    } else if shell {
        let program = line
            .trim_end_matches(": command not found")
            .trim_end_matches(": not found")
            .rsplit(": ")
            .next()
            .unwrap_or_default();
        format!(
            "`{program}` is not on the command's PATH: check its spelling, install it (on the \
             host, or into the project: --prepare 'npm ci', --prepare 'pip install -e .'), or \
             run it through the project's tools (npx, python3 -m)"
        )
    } else {
        return None;
    };
    failure(EnvironmentKind::RunnerNotFound, WHAT, &fix, line)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn kind(output: &str) -> Option<EnvironmentKind> {
        environment_failure(output).map(|f| f.kind)
    }

    /// Every captured environment failure (`tests/environment-fixtures/`).
    pub(crate) const FIXTURES: [&str; 21] = [
        include_str!("../tests/environment-fixtures/cargo_compile_error.log"),
        include_str!("../tests/environment-fixtures/cargo_no_network.log"),
        include_str!("../tests/environment-fixtures/cargo_no_such_command.log"),
        include_str!("../tests/environment-fixtures/cargo_rust_version_too_new.log"),
        include_str!("../tests/environment-fixtures/cargo_test_prints_resolver_error.log"),
        include_str!("../tests/environment-fixtures/go_mistyped_std_import.log"),
        include_str!("../tests/environment-fixtures/go_no_network.log"),
        include_str!("../tests/environment-fixtures/go_read_only_cache.log"),
        include_str!("../tests/environment-fixtures/go_std_package_too_new.log"),
        include_str!("../tests/environment-fixtures/go_toolchain_too_old.log"),
        include_str!("../tests/environment-fixtures/npm_ci_no_network.log"),
        include_str!("../tests/environment-fixtures/npm_test_runner_missing.log"),
        include_str!("../tests/environment-fixtures/npx_offline_not_cached.log"),
        include_str!("../tests/environment-fixtures/node_too_old_for_the_report.log"),
        include_str!("../tests/environment-fixtures/npx_runner_missing.log"),
        include_str!("../tests/environment-fixtures/pip_no_network.log"),
        include_str!("../tests/environment-fixtures/pytest_test_import_error.log"),
        include_str!("../tests/environment-fixtures/python_home_hidden.log"),
        include_str!("../tests/environment-fixtures/python_m_missing.log"),
        include_str!("../tests/environment-fixtures/python_venv_cfg_hidden.log"),
        include_str!("../tests/environment-fixtures/shell_127.log"),
    ];

    /// The pre-filter passes every line a recogniser knows: each
    /// fixture's evidence, and lines built for each search within a line.
    /// Where it must not fire: the runners' ordinary lines.
    #[test]
    fn the_pre_filter_passes_every_line_a_recogniser_knows() {
        let fixtures = FIXTURES;
        let mut lines: Vec<String> = fixtures
            .iter()
            .flat_map(|text| text.lines().map(str::to_owned))
            .collect();
        lines.extend(
            [
                "a.go:6:2: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)",
                "app.go:3:8: example.com/m@v1.0.0: Get \"https://proxy.golang.org/x/@v/v1.zip\": dial tcp: lookup proxy.golang.org: no such host",
                "failed to initialize build cache at /x: mkdir /x: read-only file system",
                "/usr/bin/python3: No module named pytest",
                "  Read-only file system (os error 30)",
            ]
            .map(str::to_owned),
        );
        let mut recognised = 0;
        for line in &lines {
            if recognise(line.trim_end_matches('\r')).is_some() {
                recognised += 1;
                assert!(may_be_environment(line), "{line:?}");
            }
        }
        assert!(recognised >= 15, "only {recognised} lines recognised");
        for line in [
            "test tests::adds ... ok",
            "=== RUN   TestParse/empty_input",
            "    --- PASS: TestParse/empty_input (0.00s)",
            "tests/test_x.py::test_parse[empty-1] PASSED                [ 50%]",
            "  ✓ adds (3 ms)",
        ] {
            assert!(!may_be_environment(line), "{line:?}");
        }
    }

    #[test]
    fn every_chunking_finds_the_same() {
        let log = "   Compiling x\nnpm error code EAI_AGAIN\nmore\n";
        for size in 1..log.len() {
            let mut scan = EnvironmentScan::new();
            for chunk in log.as_bytes().chunks(size) {
                scan.feed(chunk);
            }
            assert_eq!(
                scan.finish().map(|f| f.kind),
                Some(EnvironmentKind::NoNetwork)
            );
        }
    }

    /// npm offline (the sandbox without network) and a package in no
    /// cache: the environment, with the fix that installs it first. The
    /// test's own `npm error`-less output about a cache is not.
    #[test]
    fn npm_offline_without_the_package() {
        let found = environment_failure(
            "npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/vitest \
             failed: cache mode is 'only-if-cached' but no cached response is available.\n",
        )
        .unwrap();
        assert_eq!(found.kind, EnvironmentKind::NoNetwork);
        assert!(
            found.fix.contains("`npm ci` in the project on the host"),
            "{}",
            found.fix
        );
        assert!(found.fix.contains("--allow-network"), "{}", found.fix);
        assert_eq!(
            kind("    Error: request failed: ENOTCACHED (only-if-cached)"),
            None
        );
    }

    /// Maven offline without the artifact, and online without the network
    /// (Maven 3.8.7's lines, captured under testgate's sandbox).
    #[test]
    fn maven_without_the_artifact_or_the_network() {
        for line in [
            "[ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:3.3.1 or one of \
             its dependencies could not be resolved: Cannot access central \
             (https://repo.maven.apache.org/maven2) in offline mode and the artifact \
             org.apache.maven.plugins:maven-resources-plugin:jar:3.3.1 has not been downloaded \
             from it before. -> [Help 1]",
            "[ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:3.3.1 or one of \
             its dependencies could not be resolved: Failed to read artifact descriptor for \
             org.apache.maven.plugins:maven-resources-plugin:jar:3.3.1: Could not transfer \
             artifact org.apache.maven.plugins:maven-resources-plugin:pom:3.3.1 from/to central \
             (https://repo.maven.apache.org/maven2): transfer failed for \
             https://repo.maven.apache.org/maven2/org/apache/maven/plugins/maven-resources-plugin/3.3.1/maven-resources-plugin-3.3.1.pom: \
             Unknown host repo.maven.apache.org: Temporary failure in name resolution -> [Help 1]",
        ] {
            let found = environment_failure(format!("{line}\n")).unwrap();
            assert_eq!(found.kind, EnvironmentKind::NoNetwork);
            assert!(found.fix.contains("mvn test"), "{}", found.fix);
        }
        // Where it must not fire: a test's failure, and the words not as
        // Maven's own `[ERROR]`.
        assert_eq!(
            kind("[ERROR] CalcTest.adds:9 expected: <3> but was: <2>"),
            None
        );
        assert_eq!(
            kind(" Cannot access central in offline mode and the artifact x"),
            None
        );
    }

    /// Each toolchain gets its own fix: a misspelt cargo subcommand is not
    /// told to run npm or pip.
    #[test]
    fn the_fix_for_a_missing_runner_is_the_toolchains_own() {
        let fix = |line: &str| environment_failure(line).map(|f| f.fix).unwrap_or_default();
        let cargo = fix("error: no such command: `tset`\n");
        assert!(
            cargo.contains("`cargo tset` is not a cargo command"),
            "{cargo}"
        );
        assert!(!cargo.contains("npm") && !cargo.contains("pip"), "{cargo}");
        assert!(fix("error: no such command: `nextest`\n").contains("cargo-nextest"));
        let shell = fix("sh: 1: jest: not found\n");
        assert!(
            shell.starts_with("`jest` is not on the command's PATH"),
            "{shell}"
        );
        assert!(fix("bash: pytset: command not found\n").starts_with("`pytset` is not"));
        let python = fix("/usr/bin/python3: No module named pytest\n");
        assert!(python.contains("pip install"), "{python}");
        assert!(!python.contains("npm"), "{python}");
        let npx = fix("npm error could not determine executable to run\n");
        assert!(npx.contains("npm ci") && !npx.contains("pip"), "{npx}");
    }

    #[test]
    fn a_last_line_without_newline_counts() {
        assert_eq!(
            kind("sh: 1: jest: not found"),
            Some(EnvironmentKind::RunnerNotFound)
        );
    }

    #[test]
    fn cargo_unpacking_into_the_read_only_registry() {
        // `testgate check -- cargo test` under bwrap, as root, on a crate
        // depending on itoa whose unpacked source was moved out of the host's
        // registry (the archive kept), as cargo's clean-up leaves it: the
        // cause is the last, indented line.
        let log = "error: failed to download `itoa v1.0.19`\n\nCaused by:\n  unable to get \
                   packages from source\n\nCaused by:\n  failed to unpack package `itoa \
                   v1.0.19`\n\nCaused by:\n  failed to create directory `/root/.cargo/registry/\
                   src/index.crates.io-1949cf8c6b5b557f/itoa-1.0.19`\n\nCaused by:\n  \
                   Read-only file system (os error 30)\n";
        assert_eq!(kind(log), Some(EnvironmentKind::ReadOnlyPath));
        // A test returning an anyhow error prints its chain indented by four.
        let test = "Error: cannot save\n\nCaused by:\n    Read-only file system (os error 30)\n";
        assert_eq!(kind(test), None);
    }

    #[test]
    fn a_toolchain_older_than_the_project_asks_for() {
        // Captured in tests/environment-fixtures (go 1.19, cargo 1.95); the
        // go 1.21 refusal is hand-made from cmd/go's message.
        for line in [
            "./error.go:83:12: undefined: max\nnote: module requires Go 1.21\nFAIL\tgithub.com/BurntSushi/toml [build failed]",
            "error: rustc 1.95.0 is not supported by the following package:\n  app@0.1.0 requires rustc 1.999",
            "go: go.mod requires go >= 1.99 (running go 1.21.0; GOTOOLCHAIN=local)",
            "node: bad option: --test-reporter=tap",
        ] {
            assert_eq!(kind(line), Some(EnvironmentKind::ToolchainTooOld), "{line}");
        }
        assert_eq!(
            kind("context.go:6:2: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)"),
            Some(EnvironmentKind::ToolchainTooOld)
        );
        // A mistyped import is the code's.
        assert_eq!(
            kind("app.go:3:8: package fmtt is not in GOROOT (/usr/lib/go-1.19/src/fmtt)"),
            None
        );
        // What a test prints is indented (go) or not at a line's start.
        for line in [
            "    version_test.go:9: note: module requires Go 1.21",
            "thread 'main' panicked: error: rustc 1.2 is not supported by the following package",
            "--- FAIL: TestGo (0.00s)\n    go_test.go:3: go: go.mod requires go >= 1.99 (running go 1.21.0)",
            "    x_test.go:3: package slices is not in GOROOT (/usr/lib/go-1.19/src/slices)",
            "# node: bad option: --test-reporter=tap",
            "node: bad option: --inspect-brk=x",
        ] {
            assert_eq!(kind(line), None, "{line}");
        }
    }

    /// The host's cargo registry, Go module cache and a venv outside the
    /// project are read-only in the sandbox: with them where they are by
    /// default, `--prepare` and `--allow-network` fail the same way (field
    /// test: `--prepare 'cargo fetch'` ended in `Read-only file system`), so
    /// the fix leads with the command to run on the host.
    #[test]
    fn without_network_the_fix_leads_with_what_works_by_default() {
        for (log, first) in [
            (
                "error: failed to get `rand` as a dependency of package `app v0.1.0 (/p)`",
                "run `cargo fetch` in the project on the host first",
            ),
            (
                "go: golang.org/x/text@v0.3.7: Get \"https://proxy.golang.org/golang.org/x/text/@v/v0.3.7.mod\": dial tcp: lookup proxy.golang.org: no such host",
                "run `go mod download` in the project on the host first",
            ),
            (
                "WARNING: Retrying (Retry(total=4, connect=None)) after connection broken by 'NewConnectionError(...)'",
                "install the dependencies on the host first",
            ),
        ] {
            let fix = environment_failure(log).unwrap().fix;
            let host = fix.find(first).unwrap_or_else(|| panic!("{fix}"));
            let prepare = fix.find("--prepare").unwrap_or_else(|| panic!("{fix}"));
            assert!(host < prepare, "{fix}");
        }
    }

    /// Python that cannot start on a path the sandbox hides names the path
    /// and the fix (the captured logs are in tests/environment-fixtures);
    /// `Could not find platform independent libraries` is hand-made from
    /// CPython's getpath. Where it must not fire: a test's own denial on
    /// another file, or the same line indented in a traceback it prints.
    #[test]
    fn python_that_cannot_start_on_a_hidden_path() {
        let venv = environment_failure(include_str!(
            "../tests/environment-fixtures/python_venv_cfg_hidden.log"
        ))
        .unwrap();
        assert_eq!(venv.kind, EnvironmentKind::HiddenPath);
        assert!(
            venv.what.contains("`/work/venv-hidden/project/.venv`"),
            "{}",
            venv.what
        );
        assert!(venv.fix.contains("--writable DIR"), "{}", venv.fix);
        let home = environment_failure(include_str!(
            "../tests/environment-fixtures/python_home_hidden.log"
        ))
        .unwrap();
        assert_eq!(home.kind, EnvironmentKind::HiddenPath);
        assert!(
            home.what
                .contains("`/work/python-hidden/install/lib/python3.11`"),
            "{}",
            home.what
        );
        assert_eq!(
            kind("Could not find platform independent libraries <prefix>\n"),
            Some(EnvironmentKind::HiddenPath)
        );
        for line in [
            "PermissionError: [Errno 13] Permission denied: '/data/config.json'",
            "E       PermissionError: [Errno 13] Permission denied: '/p/.venv/pyvenv.cfg'",
            "    Fatal Python error: init_fs_encoding: failed to get the Python codec",
        ] {
            assert_eq!(kind(line), None, "{line}");
        }
    }

    /// Where the recognisers must not fire: words a test prints.
    #[test]
    fn not_what_a_test_prints() {
        for line in [
            // a test that itself fails to resolve a host
            "thread 'tests::fetches' panicked at src/lib.rs:9:5:\ncalled `Result::unwrap()` on an `Err` value: Could not resolve host: example.invalid",
            "E       requests.exceptions.ConnectionError: Temporary failure in name resolution",
            "    Error: getaddrinfo EAI_AGAIN example.invalid",
            // a test asserting on a read-only file
            "thread 'tests::saves' panicked at src/lib.rs:3:1:\nRead-only file system (os error 30)",
            "E       OSError: [Errno 30] Read-only file system: '/data/x'",
            // a missing module imported by the code under test
            "E   ModuleNotFoundError: No module named 'app.helpers'",
            "ModuleNotFoundError: No module named 'requests'",
            // a compile error in the user's code
            "error[E0425]: cannot find value `x` in this scope",
            "error: could not compile `app` (lib) due to 1 previous error",
            "--- FAIL: TestFetch (0.00s)\n    fetch_test.go:9: dial tcp: lookup example.invalid: no such host",
            // git without an identity: the sandbox gives one, so the test
            // took it away (and may be testing this very error).
            "Author identity unknown\n\n*** Please tell me who you are.\n\nfatal: unable to auto-detect email address (got 'root@vm.(none)')",
        ] {
            assert_eq!(kind(line), None, "{line}");
        }
    }

    #[test]
    fn colours_are_ignored() {
        assert_eq!(
            kind(
                "\u{1b}[1m\u{1b}[31merror\u{1b}[0m: failed to get `rand` as a dependency of package `app`"
            ),
            Some(EnvironmentKind::NoNetwork),
            "`error` and the colon split by a reset: cargo's real colouring"
        );
        assert_eq!(
            kind("\u{1b}[31merror: failed to get `rand` as a dependency of package `app`\u{1b}[0m"),
            Some(EnvironmentKind::NoNetwork)
        );
    }

    #[test]
    fn long_lines_are_bounded() {
        let mut scan = EnvironmentScan::new();
        let long = vec![b'x'; 10 * crate::MAX_LINE];
        scan.feed(&long);
        assert!(scan.splitter.held() <= crate::MAX_LINE);
        scan.feed(b"\n");
        assert!(scan.finish().is_none());
    }
}
