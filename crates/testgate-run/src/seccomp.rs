//! The seccomp filter handed to bwrap: no AF_UNIX sockets, no io_uring.
//!
//! A Unix socket on a path the sandbox can see (read-only mounts do not stop
//! `connect`) would otherwise be reachable, and as root file permissions do
//! not stop it either. `socketpair` stays allowed, so pipes-like IPC within
//! the command works. io_uring is denied because its socket operation would
//! bypass the filter.

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

/// The filter program; a process of a foreign architecture (32-bit x86 on
/// x86_64) gets EACCES from every syscall rather than dodging the filter.
fn program() -> [Instruction; 13] {
    let ins = |code, jt, jf, k| Instruction { code, jt, jf, k };
    let deny = |errno: i32| ins(RET_K, 0, 0, RET_ERRNO | errno as u32);
    [
        ins(LD_W_ABS, 0, 0, 4), // arch
        ins(JEQ_K, 1, 0, NATIVE_ARCH),
        deny(libc::EACCES),
        ins(LD_W_ABS, 0, 0, 0), // syscall number
        ins(JGE_K, 0, 1, X32_BIT),
        deny(libc::EACCES),
        ins(JEQ_K, 0, 1, libc::SYS_io_uring_setup as u32),
        deny(libc::EPERM),
        ins(JEQ_K, 0, 3, libc::SYS_socket as u32),
        ins(LD_W_ABS, 0, 0, 16), // low half of args[0], the domain
        ins(JEQ_K, 0, 1, libc::AF_UNIX as u32),
        deny(libc::EACCES),
        ins(RET_K, 0, 0, RET_ALLOW),
    ]
}

/// The filter as the bytes bwrap's `--seccomp FD` reads.
pub(crate) fn filter_bytes() -> Vec<u8> {
    program()
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
    fn verdict(arch: u32, nr: u32, domain: u32) -> u32 {
        let program = program();
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

    const SOCKET: u32 = libc::SYS_socket as u32;

    #[test]
    fn unix_sockets_are_denied_others_allowed() {
        let unix = libc::AF_UNIX as u32;
        let inet = libc::AF_INET as u32;
        assert_eq!(
            verdict(NATIVE_ARCH, SOCKET, unix),
            RET_ERRNO | libc::EACCES as u32
        );
        assert_eq!(verdict(NATIVE_ARCH, SOCKET, inet), RET_ALLOW);
        let pair = libc::SYS_socketpair as u32;
        assert_eq!(verdict(NATIVE_ARCH, pair, unix), RET_ALLOW);
        assert_eq!(verdict(NATIVE_ARCH, libc::SYS_read as u32, unix), RET_ALLOW);
    }

    #[test]
    fn io_uring_x32_and_foreign_arches_are_denied() {
        let uring = libc::SYS_io_uring_setup as u32;
        assert_eq!(
            verdict(NATIVE_ARCH, uring, 0),
            RET_ERRNO | libc::EPERM as u32
        );
        assert_eq!(
            verdict(NATIVE_ARCH, X32_BIT | SOCKET, 1),
            RET_ERRNO | libc::EACCES as u32
        );
        assert_eq!(verdict(0x4000_0003, 1, 0), RET_ERRNO | libc::EACCES as u32);
    }

    #[test]
    fn bytes_are_eight_per_instruction() {
        assert_eq!(filter_bytes().len(), 13 * 8);
    }
}
