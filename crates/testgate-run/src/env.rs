//! The environment policy: which variables a run's command sees.

use std::ffi::{OsStr, OsString};

/// Variables passed by default, by exact name.
const EXACT: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LANG",
    "TERM",
    "TZ",
    "TMPDIR",
    "VIRTUAL_ENV",
    "JAVA_HOME",
];

/// Variables passed by default, by prefix (locale and toolchains).
const PREFIXES: &[&str] = &[
    "LC_",
    "CARGO_",
    "RUSTUP_",
    "RUST",
    "GO",
    "PYTHON",
    "NODE_",
    "NPM_CONFIG_",
];

/// Which variables of the runner's environment the command sees.
///
/// The default passes an allowlist — `PATH`, `HOME`, `USER`, `LANG`, `LC_*`,
/// `TERM`, `TZ`, `TMPDIR` and toolchains' variables (`CARGO_*`, `RUSTUP_*`,
/// `RUST*`, `GO*`, `PYTHON*`, `VIRTUAL_ENV`, `NODE_*`, `NPM_CONFIG_*`,
/// `JAVA_HOME`) — minus any name that looks like a secret (holding `TOKEN`,
/// `SECRET`, `PASSWORD` or `CREDENTIAL`, or ending in `_KEY`). A name given to
/// [`pass`](EnvPolicy::pass) is passed whatever it looks like; a variable
/// given to [`set`](EnvPolicy::set) is added whatever the host has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvPolicy {
    passed: Vec<OsString>,
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
    /// secret or is outside the allowlist.
    pub fn pass(mut self, name: impl Into<OsString>) -> EnvPolicy {
        self.passed.push(name.into());
        self
    }

    /// Sets `name` to `value` for the command, overriding the host.
    pub fn set(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> EnvPolicy {
        self.set.push((name.into(), value.into()));
        self
    }

    /// The command's environment, given the host's. Pure: the runner calls
    /// it with `std::env::vars_os()`. Sorted by name, one entry per name.
    pub fn resolve<I>(&self, host_env: I) -> Vec<(OsString, OsString)>
    where
        I: IntoIterator<Item = (OsString, OsString)>,
    {
        let mut out: Vec<(OsString, OsString)> = host_env
            .into_iter()
            .filter(|(name, _)| {
                self.passed.iter().any(|p| p == name)
                    || (!self.no_defaults && is_allowed(name) && !looks_secret(name))
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

/// Whether `name` is on the default allowlist.
fn is_allowed(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    EXACT.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Whether `name` looks like it holds a secret, so the allowlist must not
/// pass it (`CARGO_REGISTRY_TOKEN`, `GOPRIVATE_KEY`...).
fn looks_secret(name: &OsStr) -> bool {
    let upper = name.to_string_lossy().to_ascii_uppercase();
    ["TOKEN", "SECRET", "PASSWORD", "CREDENTIAL"]
        .iter()
        .any(|w| upper.contains(w))
        || upper.ends_with("_KEY")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(vars: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        vars.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    fn names(env: &[(OsString, OsString)]) -> Vec<String> {
        env.iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn default_passes_the_allowlist_and_drops_the_rest() {
        let env = EnvPolicy::new().resolve(host(&[
            ("PATH", "/bin"),
            ("HOME", "/h"),
            ("LC_ALL", "C"),
            ("CARGO_HOME", "/c"),
            ("RUSTFLAGS", "-g"),
            ("GOPATH", "/g"),
            ("PYTHONPATH", "/p"),
            ("NODE_OPTIONS", "x"),
            ("NPM_CONFIG_CACHE", "/n"),
            ("JAVA_HOME", "/j"),
            ("AWS_REGION", "eu"),
            ("SSH_AUTH_SOCK", "/s"),
            ("DISPLAY", ":0"),
        ]));
        assert_eq!(
            names(&env),
            [
                "CARGO_HOME",
                "GOPATH",
                "HOME",
                "JAVA_HOME",
                "LC_ALL",
                "NODE_OPTIONS",
                "NPM_CONFIG_CACHE",
                "PATH",
                "PYTHONPATH",
                "RUSTFLAGS"
            ]
        );
    }

    #[test]
    fn secrets_are_dropped_even_inside_the_allowlist() {
        let env = EnvPolicy::new().resolve(host(&[
            ("CARGO_REGISTRY_TOKEN", "t"),
            ("NPM_CONFIG__AUTH_TOKEN", "t"),
            ("GO_SECRET", "s"),
            ("PYTHON_PASSWORD", "p"),
            ("CARGO_CREDENTIAL_PROVIDER", "c"),
            ("GOOGLE_API_KEY", "k"),
            ("CARGO_target_dir", "/t"),
        ]));
        assert_eq!(names(&env), ["CARGO_target_dir"]);
    }

    #[test]
    fn key_only_matches_as_a_suffix() {
        // `_KEY` must end the name: `CARGO_KEYRING_DIR` is no key.
        let env = EnvPolicy::new().resolve(host(&[("CARGO_KEYRING_DIR", "/k")]));
        assert_eq!(names(&env), ["CARGO_KEYRING_DIR"]);
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
}
