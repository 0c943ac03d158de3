//! The seccomp filter handed to bwrap: socket families by allowlist, no
//! kernel keyrings, no io_uring, no tampering with other processes, no
//! set-user-ID or set-group-ID modes.
//!
//! `socket()` is allowed for AF_INET, AF_INET6 and AF_NETLINK (and AF_UNIX
//! when the caller allows Unix sockets); every other family fails with
//! EAFNOSUPPORT, as on a kernel built without it. AF_VSOCK is the reason:
//! a network namespace does not isolate it, and on a VM it reaches the
//! hypervisor and the host. AF_UNIX, when not allowed, fails with EACCES:
//! a Unix socket on a path the sandbox can see (read-only mounts do not stop
//! `connect`, and as root file permissions do not either) would otherwise be
//! reachable. `socketpair` stays allowed, so pipe-like IPC within the
//! command works.
//!
//! `add_key`, `request_key` and `keyctl` fail with EPERM (as in Docker's
//! default profile, so software already copes): kernel keyrings are not
//! namespaced by bwrap, and a session keyring inherited from the caller
//! would be readable and writable inside. io_uring is denied because its
//! socket operation would bypass the filter.
//!
//! `ptrace`, `process_vm_readv`, `process_vm_writev` and `pidfd_getfd` fail
//! with EPERM: the runner that judges the tests runs in the same sandbox as
//! the same user, and a test could otherwise attach to it and rewrite its
//! report or exit status. The scheduling of another process is refused
//! the same way (EPERM): `sched_setscheduler`, `sched_setparam`,
//! `sched_setattr`, `migrate_pages` and `move_pages` with a pid other than
//! 0, `setpriority` and `ioprio_set` other than on the caller itself (a
//! process, pid 0); `sched_setaffinity` is left alone (glibc sets a
//! thread's CPUs by its id). `chmod`, `fchmod`, `fchmodat`, `fchmodat2`
//! (and `open`, `creat`, `openat`, `mknod`, `mknodat`, which set the mode
//! of what they create) fail with EPERM when the mode has `S_ISUID` or
//! `S_ISGID`; `openat2`, whose mode the filter cannot read, fails with
//! ENOSYS.

/// One classic-BPF instruction, as the kernel reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Instruction {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

/// BPF_LD | BPF_W | BPF_ABS (the first two are 0).
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x05 | 0x10;
const JGE_K: u16 = 0x05 | 0x30;
const JSET_K: u16 = 0x05 | 0x40;
const RET_K: u16 = 0x06;
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
/// The x32 ABI's syscall numbers on x86_64; denied, they would dodge the
/// checks below.
const X32_BIT: u32 = 0x4000_0000;

/// The audit architecture of the running kernel's native syscalls.
#[cfg(target_arch = "x86_64")]
const NATIVE_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const NATIVE_ARCH: u32 = 0xC000_00B7;
#[cfg(target_arch = "riscv64")]
const NATIVE_ARCH: u32 = 0xC000_00F3;

/// The socket families the command may create (AF_UNIX is added when
/// allowed).
const FAMILIES: [libc::c_int; 3] = [libc::AF_INET, libc::AF_INET6, libc::AF_NETLINK];

/// The kernel-keyring syscalls, refused with EPERM.
const KEYRING_CALLS: [libc::c_long; 3] =
    [libc::SYS_add_key, libc::SYS_request_key, libc::SYS_keyctl];

/// The syscalls that reach into another process's memory or descriptors,
/// refused with EPERM: a test could otherwise attach to the runner that
/// judges it (its parent, in the same sandbox and as the same user) and
/// rewrite its report, its counters or its exit status.
const TAMPERING_CALLS: [libc::c_long; 4] = [
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
];

/// `prlimit64(2)` sets the limits of the process its first argument names
/// (0: the caller): on another process (the runner, testgate itself, a
/// host process under Landlock, as the same user) `RLIMIT_CPU=0` kills it.
/// With a pid other than 0 and a new limit it fails with EPERM; reading
/// another process's limits (a null new limit) stays allowed. `setrlimit`,
/// `getrlimit` and glibc's wrappers act on the caller (pid 0). The filter
/// cannot know the caller's pid, so `prlimit --pid $$` on itself is
/// refused too.
const LIMIT_CALL: libc::c_long = libc::SYS_prlimit64;

/// The calls that change how another process is scheduled (its policy
/// and priority, where its memory lies), given its pid as their first
/// argument, 0 meaning the caller: with any other pid they fail with
/// EPERM. As the same user a test could otherwise set its runner or
/// (under Landlock) the host's processes of its user `SCHED_IDLE`, a
/// change that outlives the run. The filter cannot know the caller's own
/// pid, nor its threads' ids: a thread's policy set by its id
/// (`pthread_setschedparam`) is refused too. `sched_setaffinity` is not
/// among them: glibc sets a thread's CPUs by its id
/// (`pthread_setaffinity_np`, and `pthread_create` with an affinity, which
/// libgomp uses under `OMP_PROC_BIND`, fails if it is refused), and
/// another process's CPUs only slow it (docs/sandbox.md, "What it does not
/// promise").
const OWN_SCHEDULING_CALLS: [libc::c_long; 5] = [
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setparam,
    libc::SYS_sched_setattr,
    libc::SYS_migrate_pages,
    libc::SYS_move_pages,
];

/// `setpriority(2)`'s `PRIO_PROCESS` (libc's type for it differs between
/// C libraries).
const PRIO_PROCESS: u32 = 0;

/// `ioprio_set(2)`'s `IOPRIO_WHO_PROCESS`; the kernel headers' value,
/// which libc does not name.
const IOPRIO_WHO_PROCESS: u32 = 1;

/// The calls that set a priority by (which, who): allowed only for one
/// process (`PRIO_PROCESS`, `IOPRIO_WHO_PROCESS`) and who 0, the caller
/// (`nice`, `ionice -c3 cmd`, `os.nice`); on another pid, a process group
/// or a user's every process (under Landlock, for a user other than root,
/// the host's processes of that user) they fail with EPERM.
const OWN_PRIORITY_CALLS: [(libc::c_long, u32); 2] = [
    (libc::SYS_setpriority, PRIO_PROCESS),
    (libc::SYS_ioprio_set, IOPRIO_WHO_PROCESS),
];

/// `fchmodat2(2)` (Linux 6.6), the same number on every architecture;
/// libc does not name it everywhere yet.
const SYS_FCHMODAT2: libc::c_long = 452;

/// The set-user-ID and set-group-ID bits of a file mode.
const SETID_BITS: u32 = libc::S_ISUID | libc::S_ISGID;

/// The syscalls that set a file's mode, with the index of their mode
/// argument: a mode with [`SETID_BITS`] fails with EPERM, so a test cannot
/// leave a set-user-ID copy of a shell in the project (as root in the
/// sandbox its owner is root on the host). `open` and `mknod` apply their
/// mode to the file they create, so they are checked too; `openat2` takes
/// its mode in a structure the filter cannot read, and fails with ENOSYS
/// (C libraries fall back to `openat`).
#[cfg(target_arch = "x86_64")]
const MODE_CALLS: [(libc::c_long, u32); 9] = [
    (libc::SYS_chmod, 1),
    (libc::SYS_fchmod, 1),
    (libc::SYS_fchmodat, 2),
    (SYS_FCHMODAT2, 2),
    (libc::SYS_open, 2),
    (libc::SYS_creat, 1),
    (libc::SYS_openat, 3),
    (libc::SYS_mknod, 1),
    (libc::SYS_mknodat, 2),
];
#[cfg(not(target_arch = "x86_64"))]
const MODE_CALLS: [(libc::c_long, u32); 5] = [
    (libc::SYS_fchmod, 1),
    (libc::SYS_fchmodat, 2),
    (SYS_FCHMODAT2, 2),
    (libc::SYS_openat, 3),
    (libc::SYS_mknodat, 2),
];

/// The offset in `struct seccomp_data` of the low 32 bits of argument
/// `index` (every supported architecture is little-endian).
const fn argument(index: u32) -> u32 {
    16 + 8 * index
}

/// The shared return instructions that close the program, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Return {
    AfNoSupport,
    Acces,
    Perm,
    NoSys,
    Allow,
}

impl Return {
    const ALL: [Return; 5] = [
        Return::AfNoSupport,
        Return::Acces,
        Return::Perm,
        Return::NoSys,
        Return::Allow,
    ];

    fn instruction(self) -> Instruction {
        let k = match self {
            Return::AfNoSupport => RET_ERRNO | libc::EAFNOSUPPORT as u32,
            Return::Acces => RET_ERRNO | libc::EACCES as u32,
            Return::Perm => RET_ERRNO | libc::EPERM as u32,
            Return::NoSys => RET_ERRNO | libc::ENOSYS as u32,
            Return::Allow => RET_ALLOW,
        };
        Instruction {
            code: RET_K,
            jt: 0,
            jf: 0,
            k,
        }
    }
}

/// Where a conditional jump goes: the next instruction, over `n` of them
/// (set by [`Body::when_call`], never counted by hand), or to one of the
/// shared returns.
#[derive(Debug, Clone, Copy)]
enum To {
    Next,
    Over(usize),
    Ret(Return),
}

/// The program's body as it is built, section by section: instructions
/// whose jumps name their targets, resolved by [`Body::assemble`].
#[derive(Debug, Default)]
struct Body {
    ops: Vec<(u16, To, To, u32)>,
}

impl Body {
    fn op(&mut self, code: u16, jt: To, jf: To, k: u32) {
        self.ops.push((code, jt, jf, k));
    }

    /// Loads the word at `offset` of `struct seccomp_data`.
    fn load(&mut self, offset: u32) {
        self.op(LD_W_ABS, To::Next, To::Next, offset);
    }

    /// When the syscall number (loaded) is `call`, the instructions `then`
    /// adds decide, each path ending in a return; any other number goes on
    /// past them. The jump over them is computed from what `then` added.
    fn when_call(&mut self, call: libc::c_long, then: impl FnOnce(&mut Body)) {
        let at = self.ops.len();
        self.op(JEQ_K, To::Next, To::Over(0), call as u32);
        then(self);
        let added = self.ops.len() - at - 1;
        self.ops[at].2 = To::Over(added);
    }

    /// The program: the body's jumps resolved, then the shared returns.
    fn assemble(self) -> Vec<Instruction> {
        let first_return = self.ops.len();
        let resolve = |to: To, at: usize| -> u8 {
            let distance = match to {
                To::Next => 0,
                To::Over(n) => n,
                // Return::ALL is in declaration order.
                To::Ret(ret) => first_return + ret as usize - at - 1,
            };
            // The program is well under 255 instructions (a unit test holds
            // it there): every jump fits.
            u8::try_from(distance).unwrap_or(u8::MAX)
        };
        let mut program: Vec<Instruction> = self
            .ops
            .iter()
            .enumerate()
            .map(|(at, &(code, jt, jf, k))| Instruction {
                code,
                jt: resolve(jt, at),
                jf: resolve(jf, at),
                k,
            })
            .collect();
        program.extend(Return::ALL.map(Return::instruction));
        program
    }
}

/// The filter program; a process of a foreign architecture (32-bit x86 on
/// x86_64) gets EACCES from every syscall rather than dodging the filter.
/// Jumps are relative: each section names its targets ([`To`]) and they
/// are resolved once the body's length, and so the returns' place, is
/// known. The sections run in this order; a syscall a section decides
/// never reaches the next.
fn program(allow_unix_sockets: bool) -> Vec<Instruction> {
    let mut body = Body::default();
    native_calls_only(&mut body);
    refused_calls(&mut body);
    own_limits(&mut body);
    own_scheduling(&mut body);
    own_priority(&mut body);
    no_set_id_modes(&mut body);
    socket_families(&mut body, allow_unix_sockets);
    body.assemble()
}

/// A foreign architecture and the x32 ABI get EACCES; the syscall number
/// is left loaded for the sections after.
fn native_calls_only(body: &mut Body) {
    body.load(4); // arch
    body.op(JEQ_K, To::Next, To::Ret(Return::Acces), NATIVE_ARCH);
    body.load(0); // syscall number
    body.op(JGE_K, To::Ret(Return::Acces), To::Next, X32_BIT);
}

/// io_uring, the kernel keyrings and the calls that reach into another
/// process get EPERM.
fn refused_calls(body: &mut Body) {
    let refused = [libc::SYS_io_uring_setup]
        .into_iter()
        .chain(KEYRING_CALLS)
        .chain(TAMPERING_CALLS);
    for call in refused {
        body.op(JEQ_K, To::Ret(Return::Perm), To::Next, call as u32);
    }
}

/// prlimit64: pid 0 (the kernel reads a pid_t, the low half), or no new
/// limit (both halves of the pointer zero), or EPERM.
fn own_limits(body: &mut Body) {
    body.when_call(LIMIT_CALL, |body| {
        body.load(argument(0));
        body.op(JEQ_K, To::Ret(Return::Allow), To::Next, 0);
        body.load(argument(2));
        body.op(JEQ_K, To::Next, To::Ret(Return::Perm), 0);
        body.load(argument(2) + 4);
        body.op(JEQ_K, To::Ret(Return::Allow), To::Ret(Return::Perm), 0);
    });
}

/// The scheduling calls: the pid (a pid_t, the low half) decides.
fn own_scheduling(body: &mut Body) {
    for call in OWN_SCHEDULING_CALLS {
        body.when_call(call, |body| {
            body.load(argument(0));
            body.op(JEQ_K, To::Ret(Return::Allow), To::Ret(Return::Perm), 0);
        });
    }
}

/// The priority calls: which must be one process, who the caller.
fn own_priority(body: &mut Body) {
    for (call, process) in OWN_PRIORITY_CALLS {
        body.when_call(call, |body| {
            body.load(argument(0));
            body.op(JEQ_K, To::Next, To::Ret(Return::Perm), process);
            body.load(argument(1));
            body.op(JEQ_K, To::Ret(Return::Allow), To::Ret(Return::Perm), 0);
        });
    }
}

/// openat2 gets ENOSYS; on a mode-setting call the mode decides, and
/// nothing else applies.
fn no_set_id_modes(body: &mut Body) {
    body.op(
        JEQ_K,
        To::Ret(Return::NoSys),
        To::Next,
        libc::SYS_openat2 as u32,
    );
    for (call, mode) in MODE_CALLS {
        body.when_call(call, |body| {
            body.load(argument(mode));
            body.op(
                JSET_K,
                To::Ret(Return::Perm),
                To::Ret(Return::Allow),
                SETID_BITS,
            );
        });
    }
}

/// Every call but `socket` allowed; `socket` by its domain: the listed
/// families (AF_UNIX when `allow_unix_sockets`) allowed, AF_UNIX otherwise
/// EACCES, any other family EAFNOSUPPORT (the first return, which it falls
/// through to).
fn socket_families(body: &mut Body, allow_unix_sockets: bool) {
    let mut families: Vec<u32> = FAMILIES.iter().map(|&f| f as u32).collect();
    if allow_unix_sockets {
        families.push(libc::AF_UNIX as u32);
    }
    body.op(
        JEQ_K,
        To::Next,
        To::Ret(Return::Allow),
        libc::SYS_socket as u32,
    );
    body.load(argument(0)); // the domain
    for family in families {
        body.op(JEQ_K, To::Ret(Return::Allow), To::Next, family);
    }
    if !allow_unix_sockets {
        body.op(
            JEQ_K,
            To::Ret(Return::Acces),
            To::Next,
            libc::AF_UNIX as u32,
        );
    }
}

/// The filter as the bytes bwrap's `--seccomp FD` reads.
pub(crate) fn filter_bytes(allow_unix_sockets: bool) -> Vec<u8> {
    program(allow_unix_sockets)
        .iter()
        .flat_map(|i| {
            let mut bytes = Vec::with_capacity(8);
            bytes.extend_from_slice(&i.code.to_ne_bytes());
            bytes.push(i.jt);
            bytes.push(i.jf);
            bytes.extend_from_slice(&i.k.to_ne_bytes());
            bytes
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the filter on (arch, nr, args) the way the kernel would.
    fn verdict_with(allow_unix_sockets: bool, arch: u32, nr: u32, args: [u64; 6]) -> u32 {
        let program = program(allow_unix_sockets);
        let mut acc = 0u32;
        let mut pc = 0usize;
        loop {
            let i = program[pc];
            match i.code {
                LD_W_ABS => {
                    acc = match i.k {
                        0 => nr,
                        4 => arch,
                        k if (16..64).contains(&k) && k % 4 == 0 => {
                            let arg = args[(k as usize - 16) / 8];
                            if k % 8 == 0 {
                                arg as u32
                            } else {
                                (arg >> 32) as u32
                            }
                        }
                        other => panic!("load of offset {other}"),
                    };
                    pc += 1;
                }
                JEQ_K | JGE_K | JSET_K => {
                    let taken = match i.code {
                        JEQ_K => acc == i.k,
                        JGE_K => acc >= i.k,
                        _ => acc & i.k != 0,
                    };
                    pc += 1 + usize::from(if taken { i.jt } else { i.jf });
                }
                RET_K => return i.k,
                other => panic!("unknown op {other}"),
            }
        }
    }

    /// Runs the filter on (arch, nr, domain as the first argument).
    fn verdict_of(allow_unix_sockets: bool, arch: u32, nr: u32, domain: u32) -> u32 {
        verdict_with(
            allow_unix_sockets,
            arch,
            nr,
            [u64::from(domain), 0, 0, 0, 0, 0],
        )
    }

    fn verdict(arch: u32, nr: u32, domain: u32) -> u32 {
        verdict_of(false, arch, nr, domain)
    }

    const SOCKET: u32 = libc::SYS_socket as u32;
    const EAFNOSUPPORT: u32 = RET_ERRNO | libc::EAFNOSUPPORT as u32;
    const EACCES: u32 = RET_ERRNO | libc::EACCES as u32;
    const EPERM: u32 = RET_ERRNO | libc::EPERM as u32;

    /// Every family the kernel knows (AF_UNSPEC to past AF_MCTP) and a few
    /// out-of-range values: allowed only when listed.
    #[test]
    fn socket_families_are_allowed_by_list() {
        for allow_unix in [false, true] {
            for domain in (0..64).chain([255, 0x7fff_ffff, u32::MAX]) {
                let listed = FAMILIES.iter().any(|&f| f as u32 == domain);
                let expected = match domain {
                    _ if listed => RET_ALLOW,
                    d if d == libc::AF_UNIX as u32 && allow_unix => RET_ALLOW,
                    d if d == libc::AF_UNIX as u32 => EACCES,
                    _ => EAFNOSUPPORT,
                };
                assert_eq!(
                    verdict_of(allow_unix, NATIVE_ARCH, SOCKET, domain),
                    expected,
                    "domain {domain}, unix allowed: {allow_unix}"
                );
            }
        }
    }

    #[test]
    fn vsock_packet_alg_and_friends_are_refused() {
        for family in [
            libc::AF_VSOCK,
            libc::AF_PACKET,
            libc::AF_ALG,
            libc::AF_TIPC,
            libc::AF_CAN,
            libc::AF_BLUETOOTH,
            libc::AF_RDS,
            libc::AF_XDP,
            libc::AF_KEY,
        ] {
            assert_eq!(verdict(NATIVE_ARCH, SOCKET, family as u32), EAFNOSUPPORT);
            assert_eq!(
                verdict_of(true, NATIVE_ARCH, SOCKET, family as u32),
                EAFNOSUPPORT
            );
        }
        for family in [libc::AF_INET, libc::AF_INET6, libc::AF_NETLINK] {
            assert_eq!(verdict(NATIVE_ARCH, SOCKET, family as u32), RET_ALLOW);
        }
    }

    #[test]
    fn socketpair_and_other_calls_are_not_filtered_by_domain() {
        let unix = libc::AF_UNIX as u32;
        let vsock = libc::AF_VSOCK as u32;
        let pair = libc::SYS_socketpair as u32;
        assert_eq!(verdict(NATIVE_ARCH, pair, unix), RET_ALLOW);
        assert_eq!(
            verdict(NATIVE_ARCH, libc::SYS_read as u32, vsock),
            RET_ALLOW
        );
        assert_eq!(
            verdict(NATIVE_ARCH, libc::SYS_connect as u32, vsock),
            RET_ALLOW
        );
    }

    #[test]
    fn keyring_calls_are_refused_whatever_the_options() {
        for allow_unix in [false, true] {
            for call in KEYRING_CALLS {
                assert_eq!(verdict_of(allow_unix, NATIVE_ARCH, call as u32, 0), EPERM);
            }
        }
    }

    #[test]
    fn io_uring_x32_and_foreign_arches_are_denied() {
        let uring = libc::SYS_io_uring_setup as u32;
        assert_eq!(verdict(NATIVE_ARCH, uring, 0), EPERM);
        assert_eq!(verdict(NATIVE_ARCH, X32_BIT | SOCKET, 1), EACCES);
        assert_eq!(
            verdict(NATIVE_ARCH, X32_BIT | libc::SYS_keyctl as u32, 1),
            EACCES
        );
        assert_eq!(verdict(0x4000_0003, 1, 0), EACCES);
        assert_eq!(verdict_of(true, 0x4000_0003, SOCKET, 2), EACCES);
    }

    #[test]
    fn bytes_are_eight_per_instruction() {
        for allow_unix in [false, true] {
            assert_eq!(
                filter_bytes(allow_unix).len(),
                program(allow_unix).len() * 8
            );
        }
    }

    #[test]
    fn tampering_with_other_processes_is_refused_whatever_the_options() {
        for allow_unix in [false, true] {
            for call in TAMPERING_CALLS {
                assert_eq!(verdict_of(allow_unix, NATIVE_ARCH, call as u32, 0), EPERM);
            }
        }
        // Their neighbours stay allowed: waiting on and signalling a pidfd.
        for call in [
            libc::SYS_pidfd_open,
            libc::SYS_pidfd_send_signal,
            libc::SYS_kill,
        ] {
            assert_eq!(verdict(NATIVE_ARCH, call as u32, 1), RET_ALLOW);
        }
    }

    /// Every mode from 0 to 0o7777 on every mode-setting call: refused
    /// exactly when a set-ID bit is there, whatever else the high half of
    /// the argument holds.
    #[test]
    fn set_id_modes_are_refused_and_every_other_mode_allowed() {
        for (call, index) in MODE_CALLS {
            for mode in 0..=0o7777u64 {
                for high in [0u64, 0xffff_ffff_0000_0000] {
                    let mut args = [0u64; 6];
                    args[index as usize] = mode | high;
                    // The other arguments must not matter.
                    for (i, arg) in args.iter_mut().enumerate() {
                        if i != index as usize {
                            *arg = 0o6777;
                        }
                    }
                    let expected = if mode & 0o6000 != 0 { EPERM } else { RET_ALLOW };
                    assert_eq!(
                        verdict_with(false, NATIVE_ARCH, call as u32, args),
                        expected,
                        "call {call}, mode {mode:o}"
                    );
                }
            }
        }
        // A set-ID mode elsewhere (chown's, write's) is not a mode.
        let args = [0o4755u64; 6];
        for call in [libc::SYS_fchown, libc::SYS_write, libc::SYS_mkdirat] {
            assert_eq!(
                verdict_with(false, NATIVE_ARCH, call as u32, args),
                RET_ALLOW
            );
        }
    }

    #[test]
    fn limits_of_another_process_cannot_be_set_only_read() {
        let call = LIMIT_CALL as u32;
        let new = 0x7ffd_1234_5678u64;
        let cases = [
            // (pid, new limit, allowed): the caller's own (pid 0), set or read.
            (0u64, new, true),
            (0, 0, true),
            // The kernel reads a pid_t: a high half is ignored, as here.
            (0xffff_ffff_0000_0000, new, true),
            // Another process: read only.
            (1, 0, true),
            (4242, new, false),
            (u64::from(u32::MAX), new, false),
            (4242, 0x1_0000_0000, false),
            (4242, 0x8000, false),
        ];
        for allow_unix in [false, true] {
            for (pid, limit, allowed) in cases {
                let args = [pid, u64::from(libc::RLIMIT_CPU), limit, 0, 0, 0];
                let expected = if allowed { RET_ALLOW } else { EPERM };
                assert_eq!(
                    verdict_with(allow_unix, NATIVE_ARCH, call, args),
                    expected,
                    "pid {pid:#x}, new limit {limit:#x}"
                );
            }
        }
        // setrlimit acts on the caller only.
        let args = [u64::from(libc::RLIMIT_CPU), 0x8000, 0, 0, 0, 0];
        assert_eq!(
            verdict_with(false, NATIVE_ARCH, libc::SYS_setrlimit as u32, args),
            RET_ALLOW
        );
    }

    #[test]
    fn another_processs_scheduling_cannot_be_set_only_the_callers() {
        let pids = [
            // (pid, allowed): the caller (0; the kernel reads a pid_t, so a
            // high half is ignored, as here), or another process.
            (0u64, true),
            (0xffff_ffff_0000_0000, true),
            (1, false),
            (4242, false),
            (u64::from(u32::MAX), false),
        ];
        for allow_unix in [false, true] {
            for call in OWN_SCHEDULING_CALLS {
                for (pid, allowed) in pids {
                    // The other arguments must not matter.
                    let args = [pid, 8, 0x7ffd_1234_5678, 0, 0, 0];
                    let expected = if allowed { RET_ALLOW } else { EPERM };
                    assert_eq!(
                        verdict_with(allow_unix, NATIVE_ARCH, call as u32, args),
                        expected,
                        "call {call}, pid {pid:#x}"
                    );
                }
            }
            for (call, process) in OWN_PRIORITY_CALLS {
                let process = u64::from(process);
                for (which, who, allowed) in [
                    (process, 0u64, true),
                    (process | 0xffff_ffff_0000_0000, 0xffff_ffff_0000_0000, true),
                    (process, 4242, false),
                    (process, 1, false),
                    // A process group or a user: refused even for who 0
                    // (the caller's group holds its runner, the caller's
                    // user the host's processes).
                    (process + 1, 0, false),
                    (process + 2, 0, false),
                    (process + 1, 4242, false),
                    (7, 0, false),
                ] {
                    let args = [which, who, 19, 0, 0, 0];
                    let expected = if allowed { RET_ALLOW } else { EPERM };
                    assert_eq!(
                        verdict_with(allow_unix, NATIVE_ARCH, call as u32, args),
                        expected,
                        "call {call}, which {which:#x}, who {who:#x}"
                    );
                }
            }
        }
        // Reading another process's scheduling stays allowed, and so does
        // setting its CPUs (a thread's, by its id).
        for call in [
            libc::SYS_sched_setaffinity,
            libc::SYS_sched_getaffinity,
            libc::SYS_sched_getscheduler,
            libc::SYS_sched_getparam,
            libc::SYS_getpriority,
            libc::SYS_ioprio_get,
        ] {
            let args = [1, 4242, 0, 0, 0, 0];
            assert_eq!(
                verdict_with(false, NATIVE_ARCH, call as u32, args),
                RET_ALLOW
            );
        }
    }

    #[test]
    fn openat2_says_it_is_not_there() {
        let enosys = RET_ERRNO | libc::ENOSYS as u32;
        assert_eq!(verdict(NATIVE_ARCH, libc::SYS_openat2 as u32, 0), enosys);
    }

    #[test]
    fn every_jump_stays_inside_the_program() {
        for allow_unix in [false, true] {
            let program = program(allow_unix);
            assert!(program.len() < 200, "{} instructions", program.len());
            for (at, i) in program.iter().enumerate() {
                if i.code != RET_K && i.code != LD_W_ABS {
                    assert!(at + 1 + usize::from(i.jt.max(i.jf)) < program.len());
                }
            }
            assert_eq!(program.last().map(|i| i.k), Some(RET_ALLOW));
        }
    }

    /// The program on x86_64 without Unix sockets, instruction by
    /// instruction, as it stood when its jumps were counted by hand (before
    /// the sections and [`Body::when_call`]): (code, jt, jf, k).
    #[cfg(target_arch = "x86_64")]
    const COUNTED_X86_64: [(u16, u8, u8, u32); 83] = [
        (0x0020, 0, 0, 0x4),
        (0x0015, 0, 77, 0xc000003e),
        (0x0020, 0, 0, 0x0),
        (0x0035, 75, 0, 0x40000000),
        (0x0015, 75, 0, 0x1a9),
        (0x0015, 74, 0, 0xf8),
        (0x0015, 73, 0, 0xf9),
        (0x0015, 72, 0, 0xfa),
        (0x0015, 71, 0, 0x65),
        (0x0015, 70, 0, 0x136),
        (0x0015, 69, 0, 0x137),
        (0x0015, 68, 0, 0x1b6),
        (0x0015, 0, 6, 0x12e),
        (0x0020, 0, 0, 0x10),
        (0x0015, 67, 0, 0x0),
        (0x0020, 0, 0, 0x20),
        (0x0015, 0, 63, 0x0),
        (0x0020, 0, 0, 0x24),
        (0x0015, 63, 61, 0x0),
        (0x0015, 0, 2, 0x90),
        (0x0020, 0, 0, 0x10),
        (0x0015, 60, 58, 0x0),
        (0x0015, 0, 2, 0x8e),
        (0x0020, 0, 0, 0x10),
        (0x0015, 57, 55, 0x0),
        (0x0015, 0, 2, 0x13a),
        (0x0020, 0, 0, 0x10),
        (0x0015, 54, 52, 0x0),
        (0x0015, 0, 2, 0x100),
        (0x0020, 0, 0, 0x10),
        (0x0015, 51, 49, 0x0),
        (0x0015, 0, 2, 0x117),
        (0x0020, 0, 0, 0x10),
        (0x0015, 48, 46, 0x0),
        (0x0015, 0, 4, 0x8d),
        (0x0020, 0, 0, 0x10),
        (0x0015, 0, 43, 0x0),
        (0x0020, 0, 0, 0x18),
        (0x0015, 43, 41, 0x0),
        (0x0015, 0, 4, 0xfb),
        (0x0020, 0, 0, 0x10),
        (0x0015, 0, 38, 0x1),
        (0x0020, 0, 0, 0x18),
        (0x0015, 38, 36, 0x0),
        (0x0015, 36, 0, 0x1b5),
        (0x0015, 0, 2, 0x5a),
        (0x0020, 0, 0, 0x18),
        (0x0045, 32, 34, 0xc00),
        (0x0015, 0, 2, 0x5b),
        (0x0020, 0, 0, 0x18),
        (0x0045, 29, 31, 0xc00),
        (0x0015, 0, 2, 0x10c),
        (0x0020, 0, 0, 0x20),
        (0x0045, 26, 28, 0xc00),
        (0x0015, 0, 2, 0x1c4),
        (0x0020, 0, 0, 0x20),
        (0x0045, 23, 25, 0xc00),
        (0x0015, 0, 2, 0x2),
        (0x0020, 0, 0, 0x20),
        (0x0045, 20, 22, 0xc00),
        (0x0015, 0, 2, 0x55),
        (0x0020, 0, 0, 0x18),
        (0x0045, 17, 19, 0xc00),
        (0x0015, 0, 2, 0x101),
        (0x0020, 0, 0, 0x28),
        (0x0045, 14, 16, 0xc00),
        (0x0015, 0, 2, 0x85),
        (0x0020, 0, 0, 0x18),
        (0x0045, 11, 13, 0xc00),
        (0x0015, 0, 2, 0x103),
        (0x0020, 0, 0, 0x20),
        (0x0045, 8, 10, 0xc00),
        (0x0015, 0, 9, 0x29),
        (0x0020, 0, 0, 0x10),
        (0x0015, 7, 0, 0x2),
        (0x0015, 6, 0, 0xa),
        (0x0015, 5, 0, 0x10),
        (0x0015, 1, 0, 0x1),
        (0x0006, 0, 0, 0x50061),
        (0x0006, 0, 0, 0x5000d),
        (0x0006, 0, 0, 0x50001),
        (0x0006, 0, 0, 0x50026),
        (0x0006, 0, 0, 0x7fff0000),
    ];

    /// The assembled program is the one whose jumps were counted, word for
    /// word: with Unix sockets allowed, only the AF_UNIX test's target
    /// differs (the allow return, not EACCES).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_sections_assemble_into_the_counted_program() {
        for allow_unix in [false, true] {
            let assembled: Vec<(u16, u8, u8, u32)> = program(allow_unix)
                .iter()
                .map(|i| (i.code, i.jt, i.jf, i.k))
                .collect();
            let mut counted = COUNTED_X86_64.to_vec();
            if allow_unix {
                counted[77] = (JEQ_K, 4, 0, libc::AF_UNIX as u32);
            }
            assert_eq!(assembled.len(), counted.len(), "unix allowed: {allow_unix}");
            for (at, (assembled, counted)) in assembled.iter().zip(&counted).enumerate() {
                assert_eq!(
                    assembled, counted,
                    "instruction {at}, unix allowed: {allow_unix}"
                );
            }
        }
    }
}
