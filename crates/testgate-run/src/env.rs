//! The environment policy: which variables a run's command sees.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::Toolchain;

/// Variables passed by default, by exact name, besides those of the
/// toolchains the caller names ([`crate::Toolchain::variables`]). Each is
/// read by a shell, a toolchain or a package manager and holds no secret
/// by design; a name here
/// is passed whatever its words (`GOPRIVATE` lists module paths), but a
/// value holding a URL that carries a credential is still held back.
/// docs/cli.md prints this list: keep the two in step.
pub(crate) const EXACT: &[&str] = &[
    // The shell and the terminal.
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "NO_COLOR",
    "TZ",
    "TMPDIR",
    "LANG",
    "LANGUAGE",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    // CI: runners behave as in the user's CI (jest and vitest write no
    // missing snapshot under `CI=true`).
    "CI",
    // Certificate bundles and proxies (a proxy URL with a password is held
    // back by its value).
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    // C toolchains that cgo, build scripts and native modules call.
    "CC",
    "CXX",
    "AR",
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "LDFLAGS",
    "PKG_CONFIG_PATH",
    // Each toolchain's own (Go's `GOFLAGS`, Python's `PYTHONPATH`, …) are
    // its caller's to give ([`crate::Toolchain::variables`]).
    // The JVM.
    "JAVA_HOME",
];

/// Variables passed by default, by prefix: each is one tool's own
/// namespace, closed by `_`, so it cannot admit another vendor's variables
/// (`GO` would admit `GOOGLE_API_KEY`). A name admitted by a prefix is
/// still held back when it looks like a secret ([`looks_secret`]).
/// A toolchain's namespaces (`CARGO_`) are its caller's to give
/// ([`crate::Toolchain::prefixes`]), and a test runner's (`PYTEST_`) too
/// ([`EnvPolicy::pass_prefixed`]): no toolchain's or runner's namespace
/// is listed here (the few names this crate does know are in its crate
/// docs).
pub(crate) const PREFIXES: &[&str] = &["LC_"];

/// Words of a variable's name that mark a secret: a name holding one of
/// these anywhere (`NPM_CONFIG__AUTH`, `CARGO_REGISTRY_TOKEN`,
/// `PYTHON_KEYRING_PASS`, `CARGO_CREDS`) is held back.
const SECRET_PARTS: &[&str] = &[
    "TOKEN", "SECRET", "PASS", "CRED", "AUTH", "PRIVATE", "SESSION", "COOKIE", "BEARER",
];

/// Which variables of the runner's environment the command sees.
///
/// The default passes an allowlist: exact names (`PATH`, `HOME`, `CI`,
/// locale, certificate bundles, proxies, and the variables Go, Rust,
/// Python, Node and the JVM read: `GOPATH`, `GOFLAGS`, `RUSTFLAGS`,
/// `PYTHONPATH`, `NODE_OPTIONS`, …, the whole list in docs/cli.md) and the
/// prefixes `LC_`, `CARGO_`, `RUSTUP_`, `RUST_`, `CGO_`, `PIP_` and
/// `NPM_CONFIG_` (any case), and those the caller adds
/// ([`pass_prefixed`](EnvPolicy::pass_prefixed): testgate's runner
/// profiles add `NEXTEST_` and `PYTEST_`) — minus a prefixed name that looks
/// like a secret (it holds `TOKEN`, `SECRET`, `PASS`, `CRED`, `AUTH`,
/// `PRIVATE`, `SESSION`, `COOKIE` or `BEARER`, or has `PAT` or a `…KEY` as a
/// word) and minus any value that holds a URL carrying a credential: a
/// user or password (`GOPROXY=https://user:pass@host`), a query parameter
/// such as `token=` or `key=`, or a path segment that looks like a token
/// (`PIP_EXTRA_INDEX_URL=https://host/TOKEN/simple`). A name given to
/// [`pass`](EnvPolicy::pass) is passed whatever it looks like or holds; a
/// variable given to [`set`](EnvPolicy::set) is added whatever the host has.
///
/// ```
/// use testgate_run::{EnvPolicy, Toolchain};
///
/// let host = [
///     ("GOFLAGS", "-mod=mod"),
///     ("GOOGLE_API_KEY_2", "k"),
///     ("GOPROXY", "https://user:pass@proxy.example"),
///     ("NPM_CONFIG__AUTH", "a"),
///     ("CI", "true"),
/// ];
/// // Go's variables and the prefix npm reads, as a caller names them.
/// const GO: Toolchain = Toolchain {
///     variables: &["GOFLAGS", "GOPROXY"],
///     prefixes_any_case: &["NPM_CONFIG_"],
///     ..Toolchain::NONE
/// };
/// let host = host.iter().map(|(k, v)| (k.into(), v.into()));
/// let env = EnvPolicy::new().resolve_for(host, &[GO]);
/// let names: Vec<_> = env.iter().map(|(k, _)| k.to_str().unwrap()).collect();
/// assert_eq!(names, ["CI", "GOFLAGS"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    passed: Vec<OsString>,
    prefixes: Vec<String>,
    set: Vec<(OsString, OsString)>,
    no_defaults: bool,
}

impl EnvPolicy {
    /// The default allowlist.
    pub fn new() -> EnvPolicy {
        EnvPolicy::default()
    }

    /// Nothing from the host unless passed by name or set.
    pub fn empty() -> EnvPolicy {
        EnvPolicy {
            no_defaults: true,
            ..EnvPolicy::default()
        }
    }

    /// Passes the host's variable `name` (if set) even if it looks like a
    /// secret, holds a URL with a password, or is outside the allowlist.
    pub fn pass(mut self, name: impl Into<OsString>) -> EnvPolicy {
        self.passed.push(name.into());
        self
    }

    /// Passes by default, as [`new`](EnvPolicy::new)'s prefixes are, the
    /// host's variables whose name starts with `prefix` (a tool's own
    /// namespace closed by `_`, such as a test runner's `PYTEST_`), unless
    /// the name looks like a secret or the value holds a URL carrying a
    /// credential. Nothing for [`empty`](EnvPolicy::empty).
    pub fn pass_prefixed(mut self, prefix: impl Into<String>) -> EnvPolicy {
        self.prefixes.push(prefix.into());
        self
    }

    /// Sets `name` to `value` for the command, overriding the host.
    pub fn set(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> EnvPolicy {
        self.set.push((name.into(), value.into()));
        self
    }

    /// The command's environment, given the host's, for a command of no
    /// toolchain ([`resolve_for`](EnvPolicy::resolve_for) with none).
    pub fn resolve<I>(&self, host_env: I) -> Vec<(OsString, OsString)>
    where
        I: IntoIterator<Item = (OsString, OsString)>,
    {
        self.resolve_for(host_env, &[])
    }

    /// The command's environment, given the host's, passing by default the
    /// variables of `toolchains` too. Pure: the runner calls it with
    /// `std::env::vars_os()` and [`RunSpec::toolchains`](crate::RunSpec::toolchains).
    /// Sorted by name, one entry per name.
    pub fn resolve_for<I>(&self, host_env: I, toolchains: &[Toolchain]) -> Vec<(OsString, OsString)>
    where
        I: IntoIterator<Item = (OsString, OsString)>,
    {
        let mut out: Vec<(OsString, OsString)> = host_env
            .into_iter()
            .filter(|(name, value)| {
                self.passed.iter().any(|p| p == name)
                    || (!self.no_defaults
                        && passes_by_default(name, value, &self.prefixes, toolchains))
            })
            .collect();
        for (name, value) in &self.set {
            out.retain(|(n, _)| n != name);
            out.push((name.clone(), value.clone()));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out.dedup_by(|later, earlier| later.0 == earlier.0);
        out
    }
}

/// Why an untrusted caller may not set a variable ([`caller_may_set`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallerRefusal {
    /// The sandbox reads it to decide what it mounts (a home, a toolchain,
    /// a build output, a cache): setting it would show or open a host
    /// directory of the caller's choice.
    #[error("the sandbox mounts what it names")]
    Mount,
    /// It names a directory or a file (`*_DIR`, `*_HOME`, `*_FILE`,
    /// `*CACHE*`, `XDG_*`, `TMPDIR`, `*_PREFIX`).
    #[error("it names a path")]
    Path,
    /// It is a search path (`*PATH`, `*LIB`, `CLASSPATH`), a program to run
    /// in another's place (`RUSTC`, `CC`, `*_WRAPPER`, `SHELL`), or flags
    /// that add either (`*FLAGS`, `*_OPTIONS`, `*OPT`).
    #[error("it is a search path, a program or flags that add one")]
    SearchPath,
    /// It changes what the loader or an interpreter loads first (`LD_*`,
    /// `DYLD_*`, `*PRELOAD*`, `PYTHONSTARTUP`, `BASH_ENV`, `PYTEST_PLUGINS`).
    #[error("it changes what the loader loads")]
    Loader,
    /// It is git's own (`GIT_*`: its directory, work tree, configuration).
    #[error("git reads it to find a repository or its configuration")]
    Git,
    /// Not a variable name (empty, or holding `=` or NUL).
    #[error("it is not a variable name")]
    NotAName,
}

/// Names refused whole beyond the patterns of [`caller_may_set`].
const CALLER_REFUSED: &[(&str, CallerRefusal)] = &[
    ("TMPDIR", CallerRefusal::Path),
    ("TMP", CallerRefusal::Path),
    ("TEMP", CallerRefusal::Path),
    ("GOROOT", CallerRefusal::Path),
    ("GOBIN", CallerRefusal::Path),
    ("GOENV", CallerRefusal::Path),
    ("GOTMPDIR", CallerRefusal::Path),
    ("GOWORK", CallerRefusal::Path),
    ("GOTOOLCHAIN", CallerRefusal::SearchPath),
    ("VIRTUAL_ENV", CallerRefusal::Path),
    ("PYTHONUSERBASE", CallerRefusal::Path),
    ("PYTHONPYCACHEPREFIX", CallerRefusal::Path),
    ("RUSTC", CallerRefusal::SearchPath),
    ("RUSTDOC", CallerRefusal::SearchPath),
    ("CC", CallerRefusal::SearchPath),
    ("CXX", CallerRefusal::SearchPath),
    ("AR", CallerRefusal::SearchPath),
    ("SHELL", CallerRefusal::SearchPath),
    ("CLASSPATH", CallerRefusal::SearchPath),
    ("PYTHONSTARTUP", CallerRefusal::Loader),
    ("PYTEST_PLUGINS", CallerRefusal::Loader),
    ("BASH_ENV", CallerRefusal::Loader),
    ("ENV", CallerRefusal::Loader),
    ("IFS", CallerRefusal::Loader),
];

/// Whether a caller that is not trusted — the agent calling `testgate
/// mcp`'s `check` tool, whose tests run — may set the variable `name` for
/// the command; or why not. The rule: a variable may change what the
/// command does inside the sandbox, never what the sandbox is — no mount
/// (every variable the sandbox's view reads, `host_view.rs`), no path
/// (`*_TARGET_DIR`, `*_DIR`, `*_HOME`, `HOME`, `*_FILE`, `*_PREFIX`,
/// `*CACHE*`, `XDG_*`, `TMPDIR`, `CARGO_HOME`), no search path or program
/// (`*PATH`, `PATH`, `PYTHONPATH`, `NODE_PATH`, `*LIB`, `RUSTC`, `CC`,
/// `*_WRAPPER`, `*FLAGS` such as `GOFLAGS` and `RUSTFLAGS`, `*_OPTIONS` such
/// as `NODE_OPTIONS`, `*_OPTS` such as `MAVEN_OPTS`), no loader (`LD_*`, `DYLD_*`, `*PRELOAD*`), nothing
/// of git's (`GIT_*`) and not testgate's own marker. Names are compared
/// without regard to case (npm reads `npm_config_cache` so). What passes:
/// `CI`, `RUST_BACKTRACE`, `TZ`, `NODE_ENV`, `DJANGO_SETTINGS_MODULE`, a
/// suite's own switches.
///
/// ```
/// use testgate_run::{CallerRefusal, Toolchain, caller_may_set};
///
/// const PYTHON: Toolchain = Toolchain {
///     directories: &["VIRTUAL_ENV"],
///     search_paths: &["PYTHONPATH"],
///     ..Toolchain::NONE
/// };
/// assert!(caller_may_set("RUST_BACKTRACE", &[PYTHON]).is_ok());
/// assert!(caller_may_set("CARGO_TARGET_DIR", &[PYTHON]).is_err());
/// assert_eq!(caller_may_set("PYTHONPATH", &[PYTHON]), Err(CallerRefusal::Mount));
/// ```
///
/// `toolchains` are those the command may use, as
/// [`RunSpec::toolchains`](crate::RunSpec::toolchains) names them: every
/// variable the view reads of them is refused as a mount.
pub fn caller_may_set(name: &str, toolchains: &[Toolchain]) -> Result<(), CallerRefusal> {
    if name.is_empty() || name.contains(['=', '\0']) {
        return Err(CallerRefusal::NotAName);
    }
    if crate::host_view::mounts_by(name, toolchains) {
        return Err(CallerRefusal::Mount);
    }
    let upper = name.to_ascii_uppercase();
    if let Some((_, why)) = CALLER_REFUSED.iter().find(|(n, _)| *n == upper) {
        return Err(*why);
    }
    let ends = |suffixes: &[&str]| suffixes.iter().any(|s| upper.ends_with(s));
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| upper.starts_with(p));
    if starts(&["LD_", "DYLD_"]) || upper.contains("PRELOAD") {
        return Err(CallerRefusal::Loader);
    }
    if starts(&["GIT_"]) {
        return Err(CallerRefusal::Git);
    }
    if ends(&[
        "PATH", "LIB", "FLAGS", "_OPTIONS", "OPT", "_OPTS", "_WRAPPER", "_RUNNER", "_LINKER",
    ]) {
        return Err(CallerRefusal::SearchPath);
    }
    if starts(&["XDG_"])
        || upper.contains("CACHE")
        || ends(&["_DIR", "HOME", "_FILE", "_PREFIX", "_ROOT", "CONFIG"])
    {
        return Err(CallerRefusal::Path);
    }
    Ok(())
}

/// Whether the default policy passes the host's `name=value`.
fn passes_by_default(
    name: &OsStr,
    value: &OsStr,
    prefixes: &[String],
    toolchains: &[Toolchain],
) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    let given = prefixes
        .iter()
        .any(|prefix| name.starts_with(prefix.as_str()) && name.len() > prefix.len())
        || toolchains.iter().any(|t| t.has_prefix_of(name));
    let exact = EXACT.contains(&name) || toolchains.iter().any(|t| t.variables.contains(&name));
    let listed = exact || ((by_prefix(name) || given) && !looks_secret(name));
    listed && !holds_url_credentials(value)
}

/// Whether `name` starts with one of [`PREFIXES`].
fn by_prefix(name: &str) -> bool {
    PREFIXES
        .iter()
        .any(|prefix| name.starts_with(prefix) && name.len() > prefix.len())
}

/// Whether `name` looks like it holds a secret: it contains one of
/// [`SECRET_PARTS`] (`NPM_CONFIG__AUTH`, `CARGO_REGISTRY_TOKEN`), or one of
/// its `_`-separated words is `PAT` (`GO_PAT`, but not `PATH`) or ends in
/// `KEY` (`CARGO_SIGNING_KEY`, `PIP_APIKEY_2`, but not `CARGO_KEYRING_DIR`).
pub(crate) fn looks_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_PARTS.iter().any(|part| upper.contains(part))
        || upper
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| word == "PAT" || word.ends_with("KEY") || word == "KEYS")
}

/// The bytes that end a URL inside a list of them: `GOPROXY`'s `a,b|c`,
/// pip's space-separated index URLs, `;`-separated lists.
const URL_ENDS: &[u8] = b",|; \t\n\r";

/// Whether `value` holds a URL that carries a credential, anywhere in it
/// (lists such as `GOPROXY`'s `a,b|c` and pip's space-separated index URLs
/// included): userinfo (`scheme://user:pass@host`, `https://TOKEN@host`), a
/// query parameter named for a secret (`?token=`, `&api_key=`,
/// `?X-Amz-Signature=`, [`secret_parameter`]) or whose value looks like a
/// token, or a path segment that looks like one
/// (`https://host/AbC9dE…/simple`, [`looks_like_token`]).
fn holds_url_credentials(value: &OsStr) -> bool {
    let bytes = value.as_encoded_bytes();
    let mut rest = bytes;
    while let Some(at) = find(rest, b"://") {
        let after = &rest[at + 3..];
        let end = after
            .iter()
            .position(|b| URL_ENDS.contains(b))
            .unwrap_or(after.len());
        let url = &after[..end];
        let authority_end = url
            .iter()
            .position(|b| b"/?#".contains(b))
            .unwrap_or(url.len());
        if url[..authority_end].contains(&b'@') {
            return true;
        }
        let url = &url[authority_end..];
        let url = url.split(|&b| b == b'#').next().unwrap_or_default();
        let (path, query) = match url.iter().position(|&b| b == b'?') {
            Some(q) => (&url[..q], &url[q + 1..]),
            None => (url, &b""[..]),
        };
        if path.split(|&b| b == b'/').any(looks_like_token) {
            return true;
        }
        let secret_query = query.split(|&b| b == b'&').any(|pair| {
            let (name, value) = match pair.iter().position(|&b| b == b'=') {
                Some(eq) => (&pair[..eq], &pair[eq + 1..]),
                None => (pair, &b""[..]),
            };
            secret_parameter(name) || looks_like_token(value)
        });
        if secret_query {
            return true;
        }
        rest = &after[end..];
    }
    false
}

/// Words of a URL query parameter's name that mark a credential:
/// `token=`, `access_token=`, `key=`, `api_key=`, `secret=`, `password=`,
/// `auth=`, `sig=` (signed URLs), `credential=`, `session=`.
const SECRET_PARAMETER_PARTS: &[&str] = &[
    "token",
    "key",
    "secret",
    "pass",
    "auth",
    "sig",
    "credential",
    "session",
];

/// Whether a query parameter's name names a credential (any case).
fn secret_parameter(name: &[u8]) -> bool {
    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
    SECRET_PARAMETER_PARTS
        .iter()
        .any(|part| name.contains(part))
}

/// Whether a URL's path segment or query value looks like a token: it
/// holds a run of at least 16 letters and digits with a digit and a
/// letter in it, whose characters change class (digit, lower, upper) at
/// least once every four characters — as random text does (`ghp_…`,
/// `pypi-AgEI…`, a 16-character lower-case Cloudsmith token) and words do
/// not (`simple`, `pypi-remote`, `artifactory2024`, `node-v20.11.1`).
fn looks_like_token(segment: &[u8]) -> bool {
    segment.split(|b| !b.is_ascii_alphanumeric()).any(|run| {
        let class = |b: &u8| match b {
            b'0'..=b'9' => 0u8,
            b'a'..=b'z' => 1,
            _ => 2,
        };
        let changes = run
            .windows(2)
            .filter(|w| class(&w[0]) != class(&w[1]))
            .count();
        run.len() >= 16
            && run.iter().any(u8::is_ascii_digit)
            && run.iter().any(u8::is_ascii_alphabetic)
            && changes * 4 >= run.len()
    })
}

/// Adds what the command's environment gets when the sandbox has no
/// network, each of `toolchains`' [`Toolchain::offline`] (npm told to stay
/// offline), but for a name `env` already holds in any case: a setting of
/// the command's own, in any case and to any value, is left as it is.
pub(crate) fn stay_offline(env: &mut Vec<(OsString, OsString)>, toolchains: &[Toolchain]) {
    for (name, value) in toolchains.iter().flat_map(|t| t.offline) {
        let own = env
            .iter()
            .any(|(k, _)| k.as_encoded_bytes().eq_ignore_ascii_case(name.as_bytes()));
        if !own {
            env.push((name.into(), value.into()));
        }
    }
}

/// The effective uid of whoever runs testgate (tools name their caches
/// under `/tmp` after it).
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The home directories of whoever runs testgate: `$HOME` (when it is an
/// absolute path) and the effective uid's home in the password database,
/// which `$HOME` cannot hide. Each once, as given (not canonicalised).
pub fn home_directories() -> Vec<PathBuf> {
    let mut homes: Vec<PathBuf> = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|home| home.is_absolute())
        .into_iter()
        .collect();
    if let Some(home) = password_home()
        && !homes.contains(&home)
    {
        homes.push(home);
    }
    homes
}

/// The effective uid's home directory, from `getpwuid_r`.
fn password_home() -> Option<PathBuf> {
    let mut buffer = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: an all-zero passwd is a valid value of a C struct of
    // pointers and integers; getpwuid_r fills it.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call, the buffer's length is
    // its own, and `found` is only read after it returned.
    let status = unsafe {
        libc::getpwuid_r(
            libc::geteuid(),
            &mut entry,
            buffer.as_mut_ptr(),
            buffer.len(),
            &mut found,
        )
    };
    if status != 0 || found.is_null() || entry.pw_dir.is_null() {
        return None;
    }
    // SAFETY: pw_dir points into `buffer`, NUL-terminated by getpwuid_r.
    let dir = unsafe { std::ffi::CStr::from_ptr(entry.pw_dir) };
    let dir = PathBuf::from(OsStr::from_bytes(dir.to_bytes()));
    dir.is_absolute().then_some(dir)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchain::FOR_TESTS;

    fn host(vars: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        vars.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    fn names(env: &[(OsString, OsString)]) -> Vec<String> {
        env.iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect()
    }

    /// Names in, names out: every row is a host variable and whether the
    /// default policy passes it.
    #[test]
    fn the_default_policy_by_table() {
        let table: &[(&str, &str, bool)] = &[
            // The shell, locale, CI.
            ("PATH", "/bin", true),
            ("HOME", "/h", true),
            ("LANG", "C.UTF-8", true),
            ("LC_ALL", "C", true),
            ("LC_", "x", false),
            ("CI", "true", true),
            ("TERM", "xterm", true),
            // Certificate bundles and proxies.
            ("SSL_CERT_FILE", "/etc/ssl/certs/ca.pem", true),
            ("REQUESTS_CA_BUNDLE", "/ca.pem", true),
            ("NODE_EXTRA_CA_CERTS", "/ca.pem", true),
            ("HTTPS_PROXY", "http://proxy:3128", true),
            ("HTTPS_PROXY", "http://u:p@proxy:3128", false),
            // Go: exact names, no `GO*`.
            ("GOPATH", "/g", true),
            ("GOFLAGS", "-mod=mod", true),
            ("GOPRIVATE", "example.com/*", true),
            ("GOPROXY", "https://proxy.golang.org,direct", true),
            ("GOPROXY", "https://user:pass@host", false),
            (
                "GOPROXY",
                "https://proxy.golang.org,https://tok@host|direct",
                false,
            ),
            ("GOOGLE_API_KEY_2", "k", false),
            ("GOOGLE_APPLICATION_CREDENTIALS", "/k.json", false),
            ("GO_PAT", "p", false),
            ("GOSECRET", "s", false),
            ("CGO_ENABLED", "0", true),
            // Rust.
            ("RUSTFLAGS", "-g", true),
            ("RUST_BACKTRACE", "1", true),
            ("RUSTY_TOKEN_STORE", "t", false),
            ("RUSTUP_TOOLCHAIN", "stable", true),
            ("CARGO_HOME", "/c", true),
            ("CARGO_TARGET_DIR", "/t", true),
            ("CARGO_target_dir", "/t", true),
            ("CARGO_KEYRING_DIR", "/k", true),
            ("CARGO_REGISTRY_TOKEN", "t", false),
            ("CARGO_REGISTRIES_MY_TOKEN", "t", false),
            ("CARGO_REGISTRY_GLOBAL_CREDENTIAL_PROVIDERS", "c", false),
            ("CARGO_CREDS", "c", false),
            ("CARGO_SIGNING_KEY", "k", false),
            ("CARGO_REGISTRIES_X_INDEX", "sparse+https://u:p@reg/", false),
            ("NEXTEST_PROFILE", "ci", true),
            // Python.
            ("PYTHONPATH", "/p", true),
            ("VIRTUAL_ENV", "/v", true),
            ("PYTHON_KEYRING_PASS", "p", false),
            ("PYTHONANYWHERE_SITE", "s", false),
            ("PIP_INDEX_URL", "https://pypi.org/simple", true),
            (
                "PIP_INDEX_URL",
                "https://__token__:pypi-x@pypi.org/simple",
                false,
            ),
            (
                "PIP_EXTRA_INDEX_URL",
                "https://a.example/simple https://u:p@b.example/simple",
                false,
            ),
            ("PIP_CERT", "/ca.pem", true),
            ("PIP_PASSWORD", "p", false),
            ("PYTEST_ADDOPTS", "-x", true),
            // Node and npm.
            ("NODE_OPTIONS", "--max-old-space-size=4096", true),
            ("NODE_PATH", "/n", true),
            ("NODE_AUTH", "a", false),
            ("NODE_AUTH_TOKEN", "t", false),
            ("NODE_OTHER_VENDOR", "x", false),
            ("NPM_CONFIG_CACHE", "/n", true),
            ("npm_config_cache", "/n", true),
            ("npm_config_registry", "https://registry.npmjs.org/", true),
            (
                "npm_config_registry",
                "https://u:p@registry.example/",
                false,
            ),
            ("NPM_CONFIG__AUTH", "a", false),
            ("npm_config__authToken", "t", false),
            ("npm_config__password", "p", false),
            ("NPM_TOKEN", "t", false),
            // Other vendors and the rest.
            ("JAVA_HOME", "/j", true),
            ("AWS_REGION", "eu", false),
            ("AWS_SESSION_TOKEN", "t", false),
            ("SSH_AUTH_SOCK", "/s", false),
            ("GITHUB_PAT", "p", false),
            ("DISPLAY", ":0", false),
            ("DATABASE_URL", "postgres://u:p@db/x", false),
        ];
        for (name, value, passes) in table {
            // The runners' namespaces, as testgate's runner profiles give them.
            let env = EnvPolicy::new()
                .pass_prefixed("NEXTEST_")
                .pass_prefixed("PYTEST_")
                .resolve_for(host(&[(name, value)]), &FOR_TESTS);
            assert_eq!(
                !env.is_empty(),
                *passes,
                "{name}={value} must be {}",
                if *passes { "passed" } else { "held back" }
            );
        }
    }

    /// A runner's namespace is its caller's to give, and a name in it that
    /// looks like a secret is held back all the same.
    #[test]
    fn a_prefix_given_passes_its_namespace_and_no_secret() {
        let of = |policy: EnvPolicy, name: &str| !policy.resolve(host(&[(name, "v")])).is_empty();
        assert!(
            !of(EnvPolicy::new(), "PYTEST_ADDOPTS"),
            "no runner's by default"
        );
        let pytest = || EnvPolicy::new().pass_prefixed("PYTEST_");
        assert!(of(pytest(), "PYTEST_ADDOPTS"));
        // Where it must not fire: a secret, the prefix alone, another
        // vendor's name, a policy that passes nothing by default.
        assert!(!of(pytest(), "PYTEST_API_TOKEN"));
        assert!(!of(pytest(), "PYTEST_"));
        assert!(!of(pytest(), "PYTESTX_Y"));
        assert!(!of(
            EnvPolicy::empty().pass_prefixed("PYTEST_"),
            "PYTEST_ADDOPTS"
        ));
    }

    /// URLs that carry a credential, in the variables that hold index and
    /// registry URLs, and where the check must not fire.
    #[test]
    fn credentials_in_urls_by_table() {
        let token = "AbC9dEf3GhI7jKl1MnO5pQr";
        let held: &[(&str, String)] = &[
            (
                "PIP_EXTRA_INDEX_URL",
                format!("https://host.example/{token}/simple"),
            ),
            (
                "PIP_INDEX_URL",
                format!("https://dl.cloudsmith.io/{token}/org/repo/python/simple/"),
            ),
            (
                "PIP_INDEX_URL",
                "https://dl.cloudsmith.io/1a2b3c4d5e6f7a8b/org/repo/python/simple/".into(),
            ),
            (
                "NPM_CONFIG_REGISTRY",
                "https://registry.example/?token=abc".into(),
            ),
            (
                "npm_config_registry",
                "https://registry.example/npm/?foo=1&access_token=x".into(),
            ),
            (
                "CARGO_REGISTRIES_MINE_INDEX",
                format!("sparse+https://reg.example/{token}/index/"),
            ),
            (
                "CARGO_REGISTRIES_MINE_INDEX",
                "sparse+https://reg.example/index/?key=k".into(),
            ),
            (
                "GOPROXY",
                format!("https://proxy.golang.org,https://goproxy.example/{token}|direct"),
            ),
            ("GOPROXY", "https://proxy.example/?Password=p,direct".into()),
            (
                "PIP_FIND_LINKS",
                "https://bucket.example/wheels/?X-Amz-Signature=abc&X-Amz-Credential=c".into(),
            ),
            ("HTTPS_PROXY", "http://proxy:3128/?auth=x".into()),
            (
                "PIP_INDEX_URL",
                format!("https://host.example/simple?v={token}"),
            ),
            (
                "PIP_INDEX_URL",
                "https://host.example/simple/ghp_16C7e42F292c6912E7710c838347Ae178B4a".into(),
            ),
            (
                "PIP_INDEX_URL",
                "https://host.example/pypi-AgEIcHlwaS5vcmcCJDk2ZTY4/simple".into(),
            ),
        ];
        for (name, value) in held {
            let env = EnvPolicy::new().resolve_for(host(&[(name, value)]), &FOR_TESTS);
            assert!(env.is_empty(), "{name}={value} must be held back");
        }
        let passed = [
            ("PIP_INDEX_URL", "https://pypi.org/simple"),
            ("PIP_INDEX_URL", "https://pypi.org/simple/"),
            (
                "PIP_EXTRA_INDEX_URL",
                "https://download.pytorch.org/whl/cu121",
            ),
            (
                "PIP_EXTRA_INDEX_URL",
                "https://artifactory.example.com/artifactory/api/pypi/pypi-remote-virtual/simple",
            ),
            (
                "PIP_EXTRA_INDEX_URL",
                "https://gitlab.example.com/api/v4/projects/12345678/packages/pypi/simple",
            ),
            (
                "PIP_FIND_LINKS",
                "https://nodejs.org/dist/node-v20.11.1-linux-x64.tar.xz",
            ),
            (
                "PIP_INDEX_URL",
                "https://mirror.example/artifactory2024mirror/simple",
            ),
            ("npm_config_registry", "https://registry.npmjs.org/"),
            ("npm_config_registry", "https://registry.npmjs.org/?foo=bar"),
            ("CARGO_REGISTRIES_CRATES_IO_PROTOCOL", "sparse"),
            (
                "CARGO_REGISTRIES_MINE_INDEX",
                "sparse+https://index.crates.io/",
            ),
            (
                "CARGO_REGISTRIES_MINE_INDEX",
                "https://github.com/rust-lang/crates.io-index",
            ),
            ("GOPROXY", "https://proxy.golang.org,direct"),
            ("GOPROXY", "off"),
            ("GOFLAGS", "-mod=mod -tags=integration"),
            ("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"),
            ("HTTPS_PROXY", "http://proxy.example:3128"),
            ("NO_PROXY", "localhost,127.0.0.1,.example.com"),
        ];
        for (name, value) in passed {
            let env = EnvPolicy::new().resolve_for(host(&[(name, value)]), &FOR_TESTS);
            assert_eq!(names(&env), [name], "{name}={value} must be passed");
        }
    }

    #[test]
    fn what_looks_like_a_token_by_table() {
        for (segment, token) in [
            ("AbC9dEf3GhI7jKl1MnO5pQr", true),
            ("1a2b3c4d5e6f7a8b", true),
            ("da39a3ee5e6b4b0d3255bfef95601890afd80709", true),
            ("glpat-x9Yz3AbC7dEf1GhI2jK", true),
            ("simple", false),
            ("pypi-remote-virtual", false),
            ("artifactory2024mirror", false),
            ("node-v20.11.1-linux-x64.tar.xz", false),
            ("12345678901234567890", false),
            ("abcdefghijklmnopqrstuvwxyz", false),
            ("123e4567-e89b-12d3-a456-426614174000", false),
            ("", false),
            ("a1b2c3d4e5f6a7b", false),
        ] {
            assert_eq!(looks_like_token(segment.as_bytes()), token, "{segment}");
        }
    }

    #[test]
    fn the_secret_patterns_by_table() {
        for (name, secret) in [
            ("PYTHON_KEYRING_PASS", true),
            ("X_PASSWD", true),
            ("NPM_CONFIG__AUTH", true),
            ("CARGO_CREDS", true),
            ("MY_PRIVATE_THING", true),
            ("AWS_SESSION", true),
            ("GO_PAT", true),
            ("PAT", true),
            ("PATH", false),
            ("NODE_PATH", false),
            ("PATTERN", false),
            ("CARGO_KEYRING_DIR", false),
            ("API_KEY", true),
            ("APIKEY_2", true),
            ("GOOGLE_API_KEY_2", true),
            ("CARGO_HOME", false),
        ] {
            assert_eq!(looks_secret(name), secret, "{name}");
        }
    }

    #[test]
    fn no_exact_name_is_a_prefix_or_a_duplicate() {
        // An exact name that a prefix also admits would be passed with no
        // secret check by one and checked by the other: keep them apart.
        for (i, name) in EXACT.iter().enumerate() {
            assert!(!by_prefix(name), "{name} is also admitted by a prefix");
            assert!(!EXACT[..i].contains(name), "{name} twice");
        }
    }

    #[test]
    fn a_name_passed_by_name_keeps_a_url_with_a_password() {
        let env = EnvPolicy::new()
            .pass("GOPROXY")
            .resolve(host(&[("GOPROXY", "https://user:pass@host")]));
        assert_eq!(names(&env), ["GOPROXY"]);
    }

    #[test]
    fn the_home_directories_include_the_password_databases() {
        let homes = home_directories();
        assert!(homes.iter().all(|h| h.is_absolute()), "{homes:?}");
        // The test runs as some uid that has an entry (root in CI).
        assert!(password_home().is_some_and(|h| homes.contains(&h)));
    }

    #[test]
    fn pass_lets_a_named_variable_through() {
        let env = EnvPolicy::new()
            .pass("CARGO_REGISTRY_TOKEN")
            .pass("DATABASE_URL")
            .resolve(host(&[
                ("CARGO_REGISTRY_TOKEN", "t"),
                ("DATABASE_URL", "pg://"),
                ("OTHER", "o"),
            ]));
        assert_eq!(names(&env), ["CARGO_REGISTRY_TOKEN", "DATABASE_URL"]);
    }

    #[test]
    fn set_adds_and_overrides() {
        let env = EnvPolicy::new()
            .set("PATH", "/only")
            .set("EXTRA", "1")
            .resolve(host(&[("PATH", "/bin")]));
        assert_eq!(
            env,
            [
                ("EXTRA".into(), "1".into()),
                ("PATH".into(), "/only".into())
            ]
        );
    }

    #[test]
    fn empty_passes_nothing_by_default() {
        let env = EnvPolicy::empty()
            .pass("HOME")
            .resolve(host(&[("PATH", "/bin"), ("HOME", "/h")]));
        assert_eq!(names(&env), ["HOME"]);
    }

    #[test]
    fn what_an_untrusted_caller_may_set_by_table() {
        let refused = [
            ("CARGO_TARGET_DIR", CallerRefusal::Path),
            ("CARGO_BUILD_TARGET_DIR", CallerRefusal::Path),
            ("PYTHONPATH", CallerRefusal::Mount),
            ("PATH", CallerRefusal::Mount),
            ("NODE_PATH", CallerRefusal::Mount),
            ("HOME", CallerRefusal::Mount),
            ("GOPATH", CallerRefusal::Mount),
            ("GOCACHE", CallerRefusal::Mount),
            ("npm_config_cache", CallerRefusal::Mount),
            ("XDG_CONFIG_HOME", CallerRefusal::Path),
            ("PIP_CACHE_DIR", CallerRefusal::Mount),
            ("PIP_CONFIG_FILE", CallerRefusal::Path),
            ("CARGO_HOME", CallerRefusal::Path),
            ("PYTHONHOME", CallerRefusal::Path),
            ("JAVA_HOME", CallerRefusal::Path),
            ("TMPDIR", CallerRefusal::Path),
            ("SSL_CERT_FILE", CallerRefusal::Path),
            ("NODE_OPTIONS", CallerRefusal::SearchPath),
            // The JVM's (`-javaagent:PATH`), Maven's and Gradle's.
            ("MAVEN_OPTS", CallerRefusal::SearchPath),
            ("JAVA_TOOL_OPTIONS", CallerRefusal::SearchPath),
            ("GOFLAGS", CallerRefusal::SearchPath),
            ("RUSTFLAGS", CallerRefusal::SearchPath),
            ("RUSTC_WRAPPER", CallerRefusal::SearchPath),
            ("PERL5LIB", CallerRefusal::SearchPath),
            ("RUBYOPT", CallerRefusal::SearchPath),
            ("CC", CallerRefusal::SearchPath),
            ("LD_PRELOAD", CallerRefusal::Loader),
            ("LD_LIBRARY_PATH", CallerRefusal::Loader),
            ("DYLD_INSERT_LIBRARIES", CallerRefusal::Loader),
            ("PYTHONSTARTUP", CallerRefusal::Loader),
            ("GIT_DIR", CallerRefusal::Git),
            ("GIT_CONFIG_GLOBAL", CallerRefusal::Git),
            ("", CallerRefusal::NotAName),
            ("A=B", CallerRefusal::NotAName),
        ];
        for (name, why) in refused {
            assert_eq!(caller_may_set(name, &FOR_TESTS), Err(why), "{name}");
        }
        // Where the rule must not fire: a suite's own switches and the
        // variables that change what a test does, not where it runs.
        for name in [
            "CI",
            "RUST_BACKTRACE",
            "RUST_LOG",
            "TZ",
            "LANG",
            "NODE_ENV",
            "PYTHONHASHSEED",
            "PYTHONDONTWRITEBYTECODE",
            "DJANGO_SETTINGS_MODULE",
            "TESTGATE_FIXTURE",
            "MODE",
            "PATHOLOGICAL",
        ] {
            assert_eq!(caller_may_set(name, &FOR_TESTS), Ok(()), "{name}");
        }
    }

    #[test]
    fn offline_npm_unless_the_command_says_otherwise() {
        let offline = |vars: &[(&str, &str)]| {
            let mut env = host(vars);
            stay_offline(&mut env, &FOR_TESTS);
            env.iter()
                .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            offline(&[("PATH", "/bin")]),
            ["PATH=/bin", "npm_config_offline=true"]
        );
        // The command's own setting, in any case, to any value, stays alone.
        assert_eq!(
            offline(&[("npm_config_offline", "false")]),
            ["npm_config_offline=false"]
        );
        assert_eq!(
            offline(&[("NPM_CONFIG_OFFLINE", "")]),
            ["NPM_CONFIG_OFFLINE="]
        );
        assert_eq!(
            offline(&[("Npm_Config_Offline", "0")]),
            ["Npm_Config_Offline=0"]
        );
        // A neighbour is not the setting.
        assert_eq!(
            offline(&[("npm_config_prefer_online", "true")]),
            ["npm_config_prefer_online=true", "npm_config_offline=true"]
        );
    }
}
