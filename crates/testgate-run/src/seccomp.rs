//! The seccomp filter handed to bwrap: socket families by allowlist, no
//! kernel keyrings, no io_uring.
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

/// The filter program; a process of a foreign architecture (32-bit x86 on
/// x86_64) gets EACCES from every syscall rather than dodging the filter.
/// Jumps are relative, so the program is laid out from fixed return
/// instructions at its end.
fn program(allow_unix_sockets: bool) -> Vec<Instruction> {
    let ins = |code, jt, jf, k| Instruction { code, jt, jf, k };
    let ret_errno = |errno: i32| ins(RET_K, 0, 0, RET_ERRNO | errno as u32);
    let mut families: Vec<u32> = FAMILIES.iter().map(|&f| f as u32).collect();
    if allow_unix_sockets {
        families.push(libc::AF_UNIX as u32);
    }
    // The shared returns, in this order, close the program.
    let tail = [
        ret_errno(libc::EAFNOSUPPORT),
        ret_errno(libc::EACCES),
        ret_errno(libc::EPERM),
        ins(RET_K, 0, 0, RET_ALLOW),
    ];
    let mut body = vec![
        ins(LD_W_ABS, 0, 0, 4), // arch
        ins(JEQ_K, 1, 0, NATIVE_ARCH),
        ret_errno(libc::EACCES),
        ins(LD_W_ABS, 0, 0, 0), // syscall number
        ins(JGE_K, 0, 1, X32_BIT),
        ret_errno(libc::EACCES),
    ];
    // Each conditional is placed knowing how many instructions follow it
    // up to the tail; `to(target, at)` is the jump from instruction `at`.
    let checks = 1 + KEYRING_CALLS.len() + 2 + families.len() + usize::from(!allow_unix_sockets);
    let first_tail = body.len() + checks;
    // The program is under 30 instructions: every jump fits in a u8.
    let to = |target: usize, at: usize| (first_tail + target - at - 1) as u8;
    const ACCES: usize = 1;
    const PERM: usize = 2;
    const ALLOW: usize = 3;
    let at = body.len();
    body.push(ins(JEQ_K, to(PERM, at), 0, libc::SYS_io_uring_setup as u32));
    for call in KEYRING_CALLS {
        let at = body.len();
        body.push(ins(JEQ_K, to(PERM, at), 0, call as u32));
    }
    let at = body.len();
    body.push(ins(JEQ_K, 0, to(ALLOW, at), libc::SYS_socket as u32));
    body.push(ins(LD_W_ABS, 0, 0, 16)); // low half of args[0], the domain
    for family in families {
        let at = body.len();
        body.push(ins(JEQ_K, to(ALLOW, at), 0, family));
    }
    if !allow_unix_sockets {
        let at = body.len();
        body.push(ins(JEQ_K, to(ACCES, at), 0, libc::AF_UNIX as u32));
    }
    // Any other family falls through to the first return: EAFNOSUPPORT.
    debug_assert_eq!(body.len(), first_tail);
    body.extend(tail);
    body
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

    /// Runs the filter on (arch, nr, domain) the way the kernel would.
    fn verdict_of(allow_unix_sockets: bool, arch: u32, nr: u32, domain: u32) -> u32 {
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
                        16 => domain,
                        other => panic!("load of offset {other}"),
                    };
                    pc += 1;
                }
                JEQ_K | JGE_K => {
                    let taken = if i.code == JEQ_K {
                        acc == i.k
                    } else {
                        acc >= i.k
                    };
                    pc += 1 + usize::from(if taken { i.jt } else { i.jf });
                }
                RET_K => return i.k,
                other => panic!("unknown op {other}"),
            }
        }
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
}
