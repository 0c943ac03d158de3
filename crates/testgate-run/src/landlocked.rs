//! The Landlock sandbox: the rules, made in the runner, and the
//! [`Confinement`] the child applies to itself before exec.
//!
//! Landlock is an allowlist: what is not granted cannot be read, executed or
//! written, whoever the process is (root included). The grants mirror
//! bubblewrap's view ([`crate::host_view`]): `/` read-only but the homes, the
//! host's password hashes and host keys, `/tmp`, `/var/tmp`, `/run` and
//! `/dev` (a few harmless devices are granted by name); the toolchains the
//! view shows read-only; the project, its private caches, the `writable`
//! paths and a private temporary directory of the attempt writable.
//!
//! The child, between fork and exec, clears its capabilities, sets
//! no-new-privileges, enters the ruleset (`landlock_restrict_self`) and
//! installs the seccomp filter of [`crate::seccomp`] and, without the
//! network, a second one refusing sockets of the internet families (the
//! network namespace does that under bubblewrap). Every call there is a
//! raw system call on data made before the fork.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
};

/// What is hidden besides the view's homes and files: shared temporary
/// directories (each attempt gets its own) and the devices (a disk read as
/// root would bypass every rule).
const HIDDEN: &[&str] = &["/tmp", "/var/tmp", "/run", "/dev", "/var/lock"];

/// The devices granted, read and write: what bubblewrap's `--dev` holds but
/// the terminal ones.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// The Landlock ABI of the running kernel, or why there is none.
pub(crate) fn kernel_abi() -> Result<i32, String> {
    // SAFETY: with a null attribute, size 0 and the VERSION flag the call
    // only returns the ABI version (or fails); nothing is written.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    if version < 1 {
        let error = io::Error::last_os_error();
        return Err(match error.raw_os_error() {
            Some(libc::ENOSYS) => "the kernel has no Landlock (landlock_create_ruleset: ENOSYS)".to_owned(),
            Some(libc::EOPNOTSUPP) => {
                "Landlock is not enabled in this kernel (landlock_create_ruleset: EOPNOTSUPP; add `landlock` to the `lsm=` boot parameter)".to_owned()
            }
            _ => format!("the kernel refused Landlock (landlock_create_ruleset: {error})"),
        });
    }
    Ok(i32::try_from(version).unwrap_or(i32::MAX))
}

/// The newest Landlock ABI whose rights testgate has weighed; a kernel
/// with an older one gets what it has of them (the crate's best effort),
/// one with a newer one no more than these.
const TARGET: ABI = ABI::V9;

/// What the command may touch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Grants {
    /// Read and execute, everything beneath.
    pub(crate) read: Vec<PathBuf>,
    /// Read, execute and write, everything beneath.
    pub(crate) write: Vec<PathBuf>,
    /// Device files: read and write.
    pub(crate) devices: Vec<PathBuf>,
}

/// The grants of a run: `hidden` (the view's hidden homes and files) taken
/// out of `/` with [`HIDDEN`], `shown` (the view's read-only toolchains)
/// added back, `writable` (the project, caches, temporary directory)
/// writable whole. The project's installed folders are not split out of
/// the project's grant (Landlock can only add rights: the project's top
/// would lose the right to create anything); [`crate::installed`] watches
/// them instead.
pub(crate) fn grants(hidden: &[PathBuf], shown: &[PathBuf], writable: &[PathBuf]) -> Grants {
    let hidden: Vec<PathBuf> = hidden
        .iter()
        .cloned()
        .chain(HIDDEN.iter().map(PathBuf::from))
        .collect();
    let mut read = Vec::new();
    readable_beneath(Path::new("/"), &hidden, &mut read);
    read.extend(shown.iter().cloned());
    Grants {
        read,
        write: writable.to_vec(),
        devices: DEVICES.iter().map(PathBuf::from).collect(),
    }
}

/// Adds to `out` the entries of `dir` that hide nothing: an entry that is
/// hidden is left out, one holding something hidden is walked (only the
/// ancestors of hidden paths are, so the walk is as deep as they are).
/// Symbolic links are left out: a grant would follow them, and what they
/// lead to is granted (or not) where it is.
fn readable_beneath(dir: &Path, hidden: &[PathBuf], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_symlink() || hidden.contains(&path) {
            continue;
        }
        if kind.is_dir() && hidden.iter().any(|h| h.starts_with(&path)) {
            readable_beneath(&path, hidden, out);
        } else {
            out.push(path);
        }
    }
}

/// A Landlock ruleset of `grants`: every filesystem access of [`TARGET`]
/// the kernel knows handled, TCP (and, from ABI 9, UDP) bind and connect
/// too without the network, signals and abstract Unix sockets scoped (ABI
/// 6). A grant whose path is gone is skipped.
pub(crate) fn ruleset(grants: &Grants, allow_network: bool) -> Result<OwnedFd, String> {
    let abi = TARGET;
    let failed = |e: landlock::RulesetError| format!("the Landlock ruleset could not be made: {e}");
    let all = AccessFs::from_all(abi);
    let read = AccessFs::from_read(abi);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .map_err(failed)?;
    if !allow_network {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(abi))
            .map_err(failed)?;
    }
    let ruleset = ruleset.scope(Scope::from_all(abi)).map_err(failed)?;
    let mut created = ruleset.create().map_err(failed)?;
    let rules = grants
        .read
        .iter()
        .map(|path| (path, read))
        .chain(grants.write.iter().map(|path| (path, all)))
        .chain(grants.devices.iter().map(|path| {
            let device = AccessFs::ReadFile | AccessFs::WriteFile;
            (path, device)
        }));
    for (path, access) in rules {
        let Ok(fd) = PathFd::new(path) else {
            continue;
        };
        // A file (not a directory) takes only the file rights.
        let is_dir = path.is_dir();
        let access = if is_dir {
            access
        } else {
            access & AccessFs::from_file(abi)
        };
        created = created
            .add_rule(PathBeneath::new(fd, access))
            .map_err(|e| format!("{}: {e}", path.display()))
            .map_err(|e| format!("the Landlock ruleset could not be made: {e}"))?;
    }
    if !allow_network {
        // Binding to an ephemeral port (port 0) only: a test may listen on
        // a port of its own, and reach no port at all.
        created = created
            .add_rule(NetPort::new(0, AccessNet::BindTcp))
            .map_err(failed)?;
    }
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| "the kernel has no Landlock".to_owned())
}

/// Rewrites the values of `env` that lie under a private cache's place in
/// the home (bubblewrap binds it there) to the cache's real place, and
/// points the cache variables the command leaves unset there too, so that
/// the toolchains write where the command may.
pub(crate) fn caches_in_place(
    env: &mut Vec<(OsString, OsString)>,
    caches: &[(PathBuf, PathBuf)],
    cache_variables: &[(&str, PathBuf)],
) {
    let real = |path: &Path| {
        caches.iter().find_map(|(host, inside)| {
            path.strip_prefix(inside).ok().map(|rest| {
                if rest.as_os_str().is_empty() {
                    host.clone()
                } else {
                    host.join(rest)
                }
            })
        })
    };
    for (_, value) in env.iter_mut() {
        if let Some(moved) = real(Path::new(value)) {
            *value = moved.into_os_string();
        }
    }
    for (name, place) in cache_variables {
        if env.iter().any(|(k, _)| k == name) {
            continue;
        }
        if let Some(moved) = real(place) {
            env.push(((*name).into(), moved.into_os_string()));
        }
    }
}

/// The Landlock ABI from which TCP bind and connect are Landlock's to
/// refuse.
pub(crate) const TCP_RULES: i32 = 4;

/// The second seccomp filter without the network. With `tcp_by_landlock`
/// (a kernel of ABI [`TCP_RULES`] or later, whose ruleset refuses TCP
/// connect and binds but to an ephemeral port) `socket()` of AF_INET and
/// AF_INET6 is allowed for plain TCP only (SOCK_STREAM, protocol 0 or
/// IPPROTO_TCP: a test may listen on a port of its own, as
/// pytest-rerunfailures does at start); without it, and for every other
/// type and protocol (UDP, SCTP, MPTCP), it fails with EACCES. Stacked on
/// [`crate::seccomp`]'s (which refuses foreign architectures and x32
/// before this one matters).
fn no_inet_filter(tcp_by_landlock: bool) -> Vec<libc::sock_filter> {
    let stmt = |code: u32, k: u32| libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |k: u32, jt: u8, jf: u8| libc::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    };
    let load = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
    let ret = libc::BPF_RET | libc::BPF_K;
    let and = libc::BPF_ALU | libc::BPF_AND | libc::BPF_K;
    let allow = stmt(ret, libc::SECCOMP_RET_ALLOW);
    let refuse = stmt(ret, libc::SECCOMP_RET_ERRNO | libc::EACCES as u32);
    if !tcp_by_landlock {
        return vec![
            stmt(load, 0), // syscall number
            jump(libc::SYS_socket as u32, 0, 3),
            stmt(load, 16), // low half of args[0], the domain
            jump(libc::AF_INET as u32, 2, 0),
            jump(libc::AF_INET6 as u32, 1, 0),
            allow,
            refuse,
        ];
    }
    vec![
        stmt(load, 0), // 0: syscall number
        jump(libc::SYS_socket as u32, 0, 3),
        stmt(load, 16), // 2: the domain
        jump(libc::AF_INET as u32, 2, 0),
        jump(libc::AF_INET6 as u32, 1, 0),
        allow,          // 5: another call or family
        stmt(load, 24), // 6: low half of args[1], the type and its flags
        stmt(and, 0xf),
        jump(libc::SOCK_STREAM as u32, 0, 4),
        stmt(load, 32), // 9: low half of args[2], the protocol
        jump(0, 1, 0),
        jump(libc::IPPROTO_TCP as u32, 0, 1),
        allow, // 12
        refuse,
    ]
}

/// A seccomp program from the bytes bwrap's `--seccomp` reads.
fn program_of(bytes: &[u8]) -> Vec<libc::sock_filter> {
    bytes
        .chunks_exact(8)
        .map(|c| libc::sock_filter {
            code: u16::from_ne_bytes([c[0], c[1]]),
            jt: c[2],
            jf: c[3],
            k: u32::from_ne_bytes([c[4], c[5], c[6], c[7]]),
        })
        .collect()
}

/// What the child applies to itself before exec, made before the fork.
///
/// Without the network it holds two ways to confine: `private`, for a
/// child that could enter a network namespace of its own (as root with
/// `CAP_SYS_ADMIN`: a loopback of its own, as bubblewrap gives, so a test
/// may connect to the servers it starts and to nothing else), and
/// `strict`, for one that could not (in a container without that
/// capability): Landlock and seccomp refuse the internet sockets then.
#[derive(Debug)]
pub(crate) struct Confinement {
    strict: (OwnedFd, Vec<Vec<libc::sock_filter>>),
    private: Option<(OwnedFd, Vec<Vec<libc::sock_filter>>)>,
    /// The child's end of the loopback supervisor's socket pair
    /// ([`crate::loopback`]), for the strict confinement.
    loopback: Option<OwnedFd>,
}

/// A [`Confinement`] as the child's pre-exec closure holds it: the
/// rulesets by number, valid while the [`Confinement`] lives (it does
/// until the spawn returns).
#[derive(Debug, Clone)]
pub(crate) struct InChild {
    strict: (libc::c_int, Vec<Vec<libc::sock_filter>>),
    private: Option<(libc::c_int, Vec<Vec<libc::sock_filter>>)>,
    loopback: Option<libc::c_int>,
}

impl Confinement {
    /// The confinement of a ruleset (from [`ruleset`]) with the seccomp
    /// filter, and without the network the internet families refused (but
    /// for plain TCP when the kernel's Landlock, of ABI `abi`, refuses its
    /// connects). `private_network` (a ruleset that leaves the network
    /// alone, without the network) is what the child enters if it can
    /// make a network namespace of its own.
    pub(crate) fn new(
        ruleset: OwnedFd,
        private_network: Option<OwnedFd>,
        allow_unix_sockets: bool,
        allow_network: bool,
        abi: i32,
    ) -> Self {
        let seccomp = program_of(&crate::seccomp::filter_bytes(allow_unix_sockets));
        let mut filters = vec![seccomp.clone()];
        if !allow_network {
            filters.push(no_inet_filter(abi >= TCP_RULES));
        }
        let private = private_network
            .filter(|_| !allow_network)
            .map(|ruleset| (ruleset, vec![seccomp]));
        Confinement {
            strict: (ruleset, filters),
            private,
            loopback: None,
        }
    }

    /// Under the strict confinement the child hands its `listen` and
    /// `connect` calls to [`crate::loopback::Supervisor`] over `socket`.
    pub(crate) fn supervise_loopback(&mut self, socket: OwnedFd) {
        self.loopback = Some(socket);
    }

    /// What the child's closure captures.
    pub(crate) fn in_child(&self) -> InChild {
        InChild {
            strict: (self.strict.0.as_raw_fd(), self.strict.1.clone()),
            private: self
                .private
                .as_ref()
                .map(|(ruleset, filters)| (ruleset.as_raw_fd(), filters.clone())),
            loopback: self.loopback.as_ref().map(AsRawFd::as_raw_fd),
        }
    }
}

impl InChild {
    /// Confines the calling process: no capabilities (ambient,
    /// inheritable, permitted, effective), no new privileges, the Landlock
    /// ruleset, the seccomp filters. Async-signal-safe: raw system calls on
    /// data made before the fork, for the child between fork and exec.
    pub(crate) fn apply(&self) -> io::Result<()> {
        let check = |result: libc::c_long| {
            if result < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(())
            }
        };
        // A network namespace of its own first, while the capabilities
        // last; where the kernel refuses it, the strict confinement.
        let (ruleset, filters, loopback) = match &self.private {
            Some((ruleset, filters)) if private_loopback()? => (*ruleset, filters, None),
            _ => (self.strict.0, &self.strict.1, self.loopback),
        };
        // SAFETY: prctl and capset with valid arguments; each only changes
        // the calling process.
        unsafe {
            // Ambient capabilities: EINVAL on kernels before 4.3, which
            // have none.
            libc::prctl(
                libc::PR_CAP_AMBIENT,
                libc::PR_CAP_AMBIENT_CLEAR_ALL,
                0,
                0,
                0,
            );
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0).into())?;
            // No new privileges keeps exec from granting any (root's
            // included), so the empty sets stay empty in the command.
            let mut header = CapHeader {
                version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3
                pid: 0,
            };
            let empty = [CapData::default(); 2];
            check(libc::syscall(libc::SYS_capset, &mut header, empty.as_ptr()))?;
            check(libc::syscall(
                libc::SYS_landlock_restrict_self,
                ruleset,
                0u32,
            ))?;
            for filter in filters {
                let program = libc::sock_fprog {
                    len: filter.len() as u16,
                    filter: filter.as_ptr().cast_mut(),
                };
                check(
                    libc::prctl(
                        libc::PR_SET_SECCOMP,
                        libc::SECCOMP_MODE_FILTER,
                        &program as *const libc::sock_fprog,
                    )
                    .into(),
                )?;
            }
        }
        if let Some(socket) = loopback {
            crate::loopback::hand_over(socket)?;
        }
        Ok(())
    }
}

/// Enters a new network namespace and brings its loopback up: whether it
/// could. `unshare(CLONE_NEWNET)` needs `CAP_SYS_ADMIN`, which a
/// container's root lacks; there a user namespace of its own, the caller's
/// ids mapped to themselves, gives it one (container runtimes' default
/// profiles allow it: bubblewrap gets as far as mounting `/proc` in
/// podman). The command runs with no capability either way, so a user
/// namespace that maps its ids to themselves changes no access it has.
/// Async-signal-safe: raw system calls on the stack's data. A namespace
/// entered whose loopback stays down is no harm: nothing is reachable in
/// it, as under the strict confinement; one entered whose ids could not be
/// mapped is an error (the command would run as the overflow user).
fn private_loopback() -> io::Result<bool> {
    // SAFETY: geteuid, getegid and unshare with valid arguments; each only
    // reads or changes the calling process.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        if unsafe { libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) } != 0 {
            return Ok(false);
        }
        // Without setgroups denied, an unprivileged gid_map is refused.
        write_proc(c"/proc/self/setgroups", b"deny")?;
        write_proc(c"/proc/self/uid_map", id_map(uid).as_bytes())?;
        write_proc(c"/proc/self/gid_map", id_map(gid).as_bytes())?;
    }
    // SAFETY: socket, ioctl and close on a zeroed request this function
    // owns; each only changes the calling process's namespace.
    unsafe {
        let socket = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if socket < 0 {
            return Ok(true);
        }
        let mut request: libc::ifreq = std::mem::zeroed();
        for (to, from) in request.ifr_name.iter_mut().zip(b"lo") {
            *to = *from as libc::c_char;
        }
        request.ifr_ifru.ifru_flags = (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
        libc::ioctl(socket, libc::SIOCSIFFLAGS, &request as *const libc::ifreq);
        libc::close(socket);
    }
    Ok(true)
}

/// `ID ID 1\n`: one id mapped to itself, in a buffer on the stack.
struct IdMap {
    bytes: [u8; 36],
    len: usize,
}

impl IdMap {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

fn id_map(id: u32) -> IdMap {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = id;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let number = &digits[at..];
    let mut map = IdMap {
        bytes: [0; 36],
        len: 0,
    };
    for part in [number, b" ", number, b" 1\n"] {
        map.bytes[map.len..map.len + part.len()].copy_from_slice(part);
        map.len += part.len();
    }
    map
}

/// Writes `bytes` to the `/proc` file `path` in one `write`.
fn write_proc(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: open, write and close on a NUL-terminated path and a buffer
    // this function borrows.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let error = io::Error::last_os_error();
        libc::close(fd);
        if written != bytes.len() as isize {
            return Err(error);
        }
    }
    Ok(())
}

/// `struct __user_cap_header_struct`.
#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

/// `struct __user_cap_data_struct`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_maps_to_itself() {
        assert_eq!(id_map(0).as_bytes(), b"0 0 1\n");
        assert_eq!(id_map(1000).as_bytes(), b"1000 1000 1\n");
        assert_eq!(id_map(u32::MAX).as_bytes(), b"4294967295 4294967295 1\n");
    }

    #[test]
    fn hidden_paths_and_their_ancestors_are_not_granted_whole() {
        let root = tempfile::tempdir().unwrap();
        let base = root.path();
        for dir in ["etc/ssh", "usr/bin", "home/a"] {
            std::fs::create_dir_all(base.join(dir)).unwrap();
        }
        for file in ["etc/shadow", "etc/passwd", "etc/ssh/key", "etc/ssh/config"] {
            std::fs::write(base.join(file), "x").unwrap();
        }
        std::os::unix::fs::symlink(base.join("home"), base.join("link")).unwrap();
        let hidden = [
            base.join("etc/shadow"),
            base.join("etc/ssh/key"),
            base.join("home"),
        ];
        let mut out = Vec::new();
        readable_beneath(base, &hidden, &mut out);
        out.sort();
        let rel: Vec<_> = out
            .iter()
            .map(|p| p.strip_prefix(base).unwrap().to_path_buf())
            .collect();
        assert_eq!(
            rel,
            ["etc/passwd", "etc/ssh/config", "usr"].map(PathBuf::from),
            "{out:?}"
        );
    }

    #[test]
    fn the_hosts_homes_temporary_directories_and_devices_are_not_readable() {
        let grants = grants(&[PathBuf::from("/root"), PathBuf::from("/home")], &[], &[]);
        for path in ["/root", "/tmp", "/run", "/dev", "/home"] {
            assert!(
                !grants.read.iter().any(|g| Path::new(path).starts_with(g)),
                "{path} granted: {grants:?}"
            );
        }
        assert!(grants.read.contains(&PathBuf::from("/usr")), "{grants:?}");
        assert!(grants.devices.contains(&PathBuf::from("/dev/null")));
    }

    /// The project's grant is whole, whatever folders it holds: a
    /// `.venv` or `node_modules` inside takes nothing from its top.
    #[test]
    fn the_project_is_granted_writable_whole() {
        let project = PathBuf::from("/work/project");
        let tmp = PathBuf::from("/nonexistent/tmp");
        let grants = grants(&[], &[], &[project.clone(), tmp.clone()]);
        assert_eq!(grants.write, [project, tmp]);
    }

    #[test]
    fn caches_move_to_their_real_place_and_unset_variables_follow() {
        let caches = [
            (
                PathBuf::from("/c/p/home-cache"),
                PathBuf::from("/root/.cache"),
            ),
            (PathBuf::from("/c/p/npm"), PathBuf::from("/root/.npm")),
        ];
        let mut env: Vec<(OsString, OsString)> = vec![
            ("GOCACHE".into(), "/root/.cache/go-build".into()),
            ("PIP_CACHE_DIR".into(), "/elsewhere".into()),
        ];
        let variables = [
            ("XDG_CACHE_HOME", PathBuf::from("/root/.cache")),
            ("npm_config_cache", PathBuf::from("/root/.npm")),
            ("PIP_CACHE_DIR", PathBuf::from("/root/.cache/pip")),
        ];
        caches_in_place(&mut env, &caches, &variables);
        let get = |name: &str| {
            env.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.to_string_lossy().into_owned())
        };
        assert_eq!(get("GOCACHE").as_deref(), Some("/c/p/home-cache/go-build"));
        assert_eq!(get("XDG_CACHE_HOME").as_deref(), Some("/c/p/home-cache"));
        assert_eq!(get("npm_config_cache").as_deref(), Some("/c/p/npm"));
        assert_eq!(get("PIP_CACHE_DIR").as_deref(), Some("/elsewhere"));
    }

    /// Runs `program` on (nr, domain, type, protocol) the way the kernel
    /// would.
    fn verdict(program: &[libc::sock_filter], args: [u32; 4]) -> u32 {
        let mut acc = 0u32;
        let mut pc = 0usize;
        loop {
            let i = program[pc];
            match u32::from(i.code) {
                c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => {
                    acc = match i.k {
                        0 => args[0],
                        16 => args[1],
                        24 => args[2],
                        32 => args[3],
                        other => panic!("load of offset {other}"),
                    };
                    pc += 1;
                }
                c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => {
                    acc &= i.k;
                    pc += 1;
                }
                c if c == libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K => {
                    pc += 1 + usize::from(if acc == i.k { i.jt } else { i.jf });
                }
                _ => return i.k,
            }
        }
    }

    #[test]
    fn without_tcp_rules_the_inet_filter_refuses_every_internet_socket() {
        let program = no_inet_filter(false);
        let socket = libc::SYS_socket as u32;
        let refused = libc::SECCOMP_RET_ERRNO | libc::EACCES as u32;
        let stream = libc::SOCK_STREAM as u32;
        for family in [libc::AF_INET, libc::AF_INET6] {
            assert_eq!(
                verdict(&program, [socket, family as u32, stream, 0]),
                refused
            );
        }
        for family in [libc::AF_UNIX, libc::AF_NETLINK] {
            assert_eq!(
                verdict(&program, [socket, family as u32, stream, 0]),
                libc::SECCOMP_RET_ALLOW
            );
        }
        let read = libc::SYS_read as u32;
        assert_eq!(
            verdict(&program, [read, libc::AF_INET as u32, 0, 0]),
            libc::SECCOMP_RET_ALLOW
        );
    }

    #[test]
    fn with_tcp_rules_only_plain_tcp_sockets_are_made() {
        let program = no_inet_filter(true);
        let socket = libc::SYS_socket as u32;
        let refused = libc::SECCOMP_RET_ERRNO | libc::EACCES as u32;
        let allowed = libc::SECCOMP_RET_ALLOW;
        let stream = libc::SOCK_STREAM as u32;
        let flagged = stream | (libc::SOCK_CLOEXEC | libc::SOCK_NONBLOCK) as u32;
        let tcp = libc::IPPROTO_TCP as u32;
        for family in [libc::AF_INET as u32, libc::AF_INET6 as u32] {
            assert_eq!(verdict(&program, [socket, family, stream, 0]), allowed);
            assert_eq!(verdict(&program, [socket, family, flagged, tcp]), allowed);
            assert_eq!(
                verdict(&program, [socket, family, libc::SOCK_DGRAM as u32, 0]),
                refused
            );
            assert_eq!(
                verdict(&program, [socket, family, libc::SOCK_RAW as u32, 0]),
                refused
            );
            assert_eq!(
                verdict(
                    &program,
                    [socket, family, stream, libc::IPPROTO_SCTP as u32]
                ),
                refused
            );
            assert_eq!(verdict(&program, [socket, family, stream, 262]), refused); // MPTCP
        }
        assert_eq!(
            verdict(
                &program,
                [socket, libc::AF_UNIX as u32, libc::SOCK_DGRAM as u32, 0]
            ),
            allowed
        );
    }

    #[test]
    fn the_seccomp_bytes_round_trip() {
        let bytes = crate::seccomp::filter_bytes(false);
        assert_eq!(program_of(&bytes).len() * 8, bytes.len());
    }
}
