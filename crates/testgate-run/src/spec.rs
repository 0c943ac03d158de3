//! What to run and how: [`RunSpec`], [`Sandbox`], [`BwrapOptions`] and
//! [`LandlockOptions`].

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use crate::cancel::Cancel;
use crate::env::EnvPolicy;
use crate::host_view::ToolCache;
use crate::toolchain::Toolchain;

/// Durations are capped here (about 136 years) so that adding one to an
/// `Instant` cannot overflow: `Duration::MAX` means "never".
const LONGEST: Duration = Duration::from_secs(u32::MAX as u64);

/// The options of the bubblewrap sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BwrapOptions {
    /// Share the host's network (off: a new, empty network namespace).
    pub allow_network: bool,
    /// Let the command create Unix-domain sockets. Off by default: a socket
    /// on any path the sandbox can see (read-only or not) could otherwise be
    /// connected to; `socketpair` works either way. The seccomp filter stays
    /// on either way: other families than AF_INET, AF_INET6 and AF_NETLINK
    /// (AF_VSOCK above all) and the kernel-keyring calls are refused.
    pub allow_unix_sockets: bool,
    /// Paths bound read-write besides the run's directory.
    pub writable: Vec<PathBuf>,
    /// A cap on the number of processes (RLIMIT_NPROC). The kernel never
    /// enforces it for uid 0, so a run as root that asks for it is refused.
    pub max_processes: Option<u32>,
    /// The directories searched, in order, for the `bwrap` executable. The
    /// runner's `PATH` is never used, so a `bwrap` planted earlier in `PATH`
    /// is not picked up.
    pub bwrap_dirs: Vec<PathBuf>,
    /// The size cap, in bytes, of each of the sandbox's tmpfs mounts
    /// (`/tmp`, `/run`, `/dev/shm`); tmpfs pages are the host's memory.
    /// Default [`BwrapOptions::DEFAULT_TMPFS_SIZE`].
    pub tmpfs_size: u64,
    /// Host files shown empty inside (`/dev/null` bound over each, after
    /// every other mount, so that no writable path uncovers one), wherever
    /// they lie: secrets testgate itself holds during the run, such as the
    /// key `check --sign` signs the record with. Symbolic links are
    /// resolved; a path that does not exist is skipped.
    pub hidden_files: Vec<PathBuf>,
}

impl BwrapOptions {
    /// The default cap of each tmpfs mount: 1 GiB, the same on every
    /// machine so that a suite fills `/tmp` alike on a laptop and in CI.
    pub const DEFAULT_TMPFS_SIZE: u64 = 1 << 30;
}

impl Default for BwrapOptions {
    fn default() -> BwrapOptions {
        BwrapOptions {
            allow_network: false,
            allow_unix_sockets: false,
            writable: Vec::new(),
            max_processes: None,
            bwrap_dirs: ["/usr/bin", "/bin", "/usr/local/bin"]
                .iter()
                .map(PathBuf::from)
                .collect(),
            tmpfs_size: BwrapOptions::DEFAULT_TMPFS_SIZE,
            hidden_files: Vec::new(),
        }
    }
}

/// The options of the Landlock sandbox.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LandlockOptions {
    /// Let the command use the host's network (off: sockets of the
    /// internet families are refused, and so are TCP bind and connect).
    pub allow_network: bool,
    /// Let the command create Unix-domain sockets, as
    /// [`BwrapOptions::allow_unix_sockets`]: without a network namespace a
    /// socket on a path the command can see would reach a host service.
    pub allow_unix_sockets: bool,
    /// Paths writable besides the run's directory.
    pub writable: Vec<PathBuf>,
    /// A cap on the number of processes (RLIMIT_NPROC); refused as root,
    /// as under bubblewrap.
    pub max_processes: Option<u32>,
}

/// Where the command runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sandbox {
    /// Inside bubblewrap: read-only `/`, `/proc/sys` and
    /// `.git`, the run's directory writable, private size-capped `/tmp` and
    /// `/run`, no network, credential stores in `$HOME` hidden, no
    /// capabilities, no kernel keyrings. git finds a `~/.gitconfig` of the
    /// sandbox's own (a neutral identity, the project marked safe), and
    /// without the network npm is told to stay offline
    /// (`npm_config_offline=true`, unless the command's environment sets
    /// it). See `docs/sandbox.md`.
    Bubblewrap(BwrapOptions),
    /// Under Landlock, which needs no namespace, capability or root: for
    /// containers and machines where bubblewrap cannot start. Read and
    /// execute only what bubblewrap's view shows (an allowlist: the homes,
    /// `/tmp`, `/run` and `/dev` but a few devices are not granted), write
    /// only the project, its private caches, the `writable` paths and a
    /// private temporary directory of the attempt (`TMPDIR`); no
    /// capabilities, no new privileges, the seccomp filter, no network,
    /// signals and abstract Unix sockets scoped to the sandbox where the
    /// kernel has it (Landlock ABI 6). There is no PID namespace and no
    /// private `/tmp` mount, and `.git` inside the project stays writable
    /// (changes there are found by the tree check). See `docs/sandbox.md`.
    Landlock(LandlockOptions),
    /// The default: [`Sandbox::Bubblewrap`] where bubblewrap can start,
    /// else [`Sandbox::Landlock`] where the kernel has it (with the options
    /// it knows of these), else refused, naming both refusals: never the
    /// host. See [`choose_sandbox`](crate::choose_sandbox).
    Auto(BwrapOptions),
    /// Directly on the host, with only the environment policy, the process
    /// group and the timeout. Only ever chosen explicitly.
    Host,
}

impl Sandbox {
    /// The sandbox's name as `--sandbox` takes it: `bwrap`, `landlock`,
    /// `auto` or `none`.
    pub fn name(&self) -> &'static str {
        match self {
            Sandbox::Bubblewrap(_) => "bwrap",
            Sandbox::Landlock(_) => "landlock",
            Sandbox::Auto(_) => "auto",
            Sandbox::Host => "none",
        }
    }
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::Auto(BwrapOptions::default())
    }
}

/// What to run: program, arguments, directory, environment, limits.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub(crate) program: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) dir: Option<PathBuf>,
    pub(crate) env: EnvPolicy,
    pub(crate) timeout: Option<Duration>,
    pub(crate) grace: Duration,
    pub(crate) drain: Duration,
    pub(crate) sandbox: Sandbox,
    pub(crate) cancel: Option<Cancel>,
    pub(crate) caches: Option<Vec<String>>,
    pub(crate) tool_caches: Vec<ToolCache>,
    pub(crate) toolchains: Vec<Toolchain>,
    pub(crate) writes: ProjectWrites,
}

/// What of its project a sandboxed command may write ([`RunSpec::writes`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProjectWrites {
    /// The project but the folders the host installs into or builds in
    /// and runs from later (a virtual environment, `node_modules`, `target`
    /// beside a `Cargo.toml`): those are read-only. What a test run gets.
    #[default]
    AllButInstalled,
    /// The whole project: a step that installs the project's dependencies
    /// (`npm ci`, `pip install -e .`).
    All,
    /// Nothing: a question asked of the toolchain (`pytest --version`),
    /// which has no reason to write and must not plant anything.
    Nothing,
}

impl RunSpec {
    /// Runs `program` with `args`, in the current directory, with the default
    /// environment policy, no timeout, inside the default sandbox
    /// ([`Sandbox::Auto`]).
    /// A `program` without a `/` is looked up in the command's `PATH`.
    pub fn new<P, I, A>(program: P, args: I) -> RunSpec
    where
        P: Into<OsString>,
        I: IntoIterator<Item = A>,
        A: Into<OsString>,
    {
        RunSpec {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            dir: None,
            env: EnvPolicy::default(),
            timeout: None,
            grace: Duration::from_secs(2),
            drain: Duration::from_secs(1),
            sandbox: Sandbox::default(),
            cancel: None,
            caches: None,
            tool_caches: Vec::new(),
            toolchains: Vec::new(),
            writes: ProjectWrites::default(),
        }
    }

    /// The working directory; under bubblewrap, the one writable project
    /// directory.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> RunSpec {
        self.dir = Some(dir.into());
        self
    }

    /// The environment policy.
    pub fn env(mut self, env: EnvPolicy) -> RunSpec {
        self.env = env;
        self
    }

    /// After this long the whole process tree is ended and the run reports
    /// [`Ending::TimedOut`](crate::Ending::TimedOut).
    pub fn timeout(mut self, timeout: Duration) -> RunSpec {
        self.timeout = Some(timeout.min(LONGEST));
        self
    }

    /// Time between SIGTERM and SIGKILL when ending the tree (default 2 s).
    pub fn grace(mut self, grace: Duration) -> RunSpec {
        self.grace = grace.min(LONGEST);
        self
    }

    /// How long, after the command exits, output is still read from pipes
    /// that a leftover process holds open (default 1 s). Past it those
    /// processes are ended.
    pub fn drain(mut self, drain: Duration) -> RunSpec {
        self.drain = drain.min(LONGEST);
        self
    }

    /// Where the command runs (default: [`Sandbox::Auto`]).
    pub fn sandbox(mut self, sandbox: Sandbox) -> RunSpec {
        self.sandbox = sandbox;
        self
    }

    /// Which of the project's private toolchain caches the command uses,
    /// by name ([`HomeCache::private`](crate::HomeCache::private), [`ToolCache::private`]): under bubblewrap only those are seeded
    /// from the host's on a project's first run (a copy costs time). `None`
    /// (the default): all of them, as for a shell or a script. The caller
    /// knows its tools; this crate knows none.
    pub fn caches(mut self, names: Option<Vec<String>>) -> RunSpec {
        self.caches = names;
        self
    }

    /// The caches tools keep at a fixed path outside the homes: under
    /// bubblewrap each is the project's private one, bound at that path
    /// (default: none).
    pub fn tool_caches(mut self, caches: Vec<ToolCache>) -> RunSpec {
        self.tool_caches = caches;
        self
    }

    /// The toolchains the command may use, which this crate knows only as
    /// the data given here (none by default): their variables are passed
    /// ([`EnvPolicy::resolve_for`]), and under a sandbox the folders of the
    /// homes they are installed in, and those their variables name, are
    /// shown read-only ([`Toolchain`]).
    pub fn toolchains(mut self, toolchains: Vec<Toolchain>) -> RunSpec {
        self.toolchains = toolchains;
        self
    }

    /// What of the project the command may write, in a sandbox (default:
    /// [`ProjectWrites::AllButInstalled`]). Without a sandbox it writes
    /// what its user may.
    pub fn writes(mut self, writes: ProjectWrites) -> RunSpec {
        self.writes = writes;
        self
    }

    /// A handle that, once tripped, ends the run's process tree and makes the
    /// run report [`Ending::Cancelled`](crate::Ending::Cancelled).
    pub fn cancel(mut self, cancel: Cancel) -> RunSpec {
        self.cancel = Some(cancel);
        self
    }

    /// The program as a displayable string, for messages.
    pub(crate) fn program_name(&self) -> String {
        self.program.to_string_lossy().into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_durations_are_capped_so_instants_cannot_overflow() {
        let spec = RunSpec::new("x", [""; 0])
            .timeout(Duration::MAX)
            .grace(Duration::MAX)
            .drain(Duration::MAX);
        let now = std::time::Instant::now();
        for d in [spec.timeout.unwrap_or_default(), spec.grace, spec.drain] {
            assert_eq!(d, LONGEST);
            assert!(now.checked_add(d).is_some());
        }
    }
}
