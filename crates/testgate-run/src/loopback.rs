//! The loopback of a run that has no network namespace of its own: a run
//! may connect to the loopback ports it listens on itself, and nothing
//! else, supervised by testgate through a seccomp user notification.
//!
//! Under Landlock where no network namespace can be made (a container's
//! default profile) the ruleset refuses every TCP connect and every bind
//! but to port 0. The child adds a filter that hands each `listen` and
//! `connect` to testgate ([`hand_over`], before exec); [`Supervisor`]
//! answers them:
//!
//! - `listen(fd)`: the socket's inode (the kernel's, of the descriptor
//!   duplicated with `pidfd_getfd`; no memory is read) joins the run's
//!   listeners; the call then goes on (`SECCOMP_USER_NOTIF_FLAG_CONTINUE`).
//! - `connect(fd, addr)` on a TCP socket: the address is copied once from
//!   the caller's memory; when it is 127.0.0.0/8 or `::1` (or
//!   `::ffff:127.x`) and every socket listening on its port (the kernel's
//!   `/proc/net/tcp{,6}`) is one of the run's, **testgate connects the
//!   duplicated socket itself, to its own copy**, and answers with the
//!   result; otherwise it answers EACCES and counts a refusal. Nothing is
//!   ever continued on an address it read: a thread of the caller that
//!   swaps the address after the copy changes nothing testgate does, and
//!   the caller's own connect, never run, would be Landlock's to refuse.
//! - anything else (a socket of another family or type, a descriptor that
//!   is gone, a reused pid): the call goes on to the kernel, where Landlock
//!   and the filters decide as before.

use std::collections::HashSet;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// `SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV` (Linux 5.19): once testgate
/// has received a notification, only a fatal signal interrupts the wait,
/// so a connect testgate performs is never restarted by the caller's
/// other signals (the go runtime's preemption).
const WAIT_KILLABLE_RECV: libc::c_ulong = 1 << 5;

/// `SECCOMP_IOCTL_NOTIF_ID_VALID`.
const NOTIF_ID_VALID: libc::c_ulong = 0x4008_2102;

/// A socket pair for the listener's hand-over: (testgate's end, the
/// child's), close-on-exec both.
pub(crate) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: socketpair writes two fresh descriptors into `fds`.
    let made = unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    };
    if made != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just made and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The filter that hands `listen` and `connect` to testgate; the others
/// stacked before it have already refused foreign architectures.
fn program() -> [libc::sock_filter; 5] {
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
    let ret = libc::BPF_RET | libc::BPF_K;
    [
        stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0),
        jump(libc::SYS_connect as u32, 2, 0),
        jump(libc::SYS_listen as u32, 1, 0),
        stmt(ret, libc::SECCOMP_RET_ALLOW),
        stmt(ret, libc::SECCOMP_RET_USER_NOTIF),
    ]
}

/// In the child, between fork and exec, after its other filters: installs
/// [`program`] with a listener and sends the listener to testgate over
/// `socket` (SCM_RIGHTS). Async-signal-safe: raw system calls on the
/// stack's data.
pub(crate) fn hand_over(socket: RawFd) -> io::Result<()> {
    let filter = program();
    let prog = libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_ptr().cast_mut(),
    };
    // SAFETY: seccomp, sendmsg and close on data this function owns.
    unsafe {
        let install = |flags: libc::c_ulong| {
            libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                flags,
                &prog as *const libc::sock_fprog,
            )
        };
        let mut listener = install(libc::SECCOMP_FILTER_FLAG_NEW_LISTENER | WAIT_KILLABLE_RECV);
        if listener < 0 {
            listener = install(libc::SECCOMP_FILTER_FLAG_NEW_LISTENER);
        }
        if listener < 0 {
            return Err(io::Error::last_os_error());
        }
        let listener = listener as libc::c_int;
        let mut byte = [0u8; 1];
        let mut iov = libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        };
        // CMSG_SPACE(sizeof(int)), aligned for cmsghdr.
        let mut control = [0u64; 4];
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = libc::CMSG_SPACE(4) as _;
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(4) as _;
        std::ptr::copy_nonoverlapping(
            (&listener as *const libc::c_int).cast::<u8>(),
            libc::CMSG_DATA(header),
            4,
        );
        let sent = libc::sendmsg(socket, &message, 0);
        let error = io::Error::last_os_error();
        libc::close(listener);
        if sent < 0 {
            return Err(error);
        }
    }
    Ok(())
}

/// The thread that answers a run's `listen` and `connect` notifications;
/// stopped (and joined) when dropped.
#[derive(Debug)]
pub(crate) struct Supervisor {
    stop: OwnedFd,
    thread: Option<JoinHandle<()>>,
    /// The connects it refused.
    pub(crate) refused: Arc<AtomicU32>,
}

impl Supervisor {
    /// Starts the thread on testgate's end of [`socket_pair`]: it waits
    /// for the child's listener (none comes when the child had a network
    /// namespace of its own) and answers until the run's processes are
    /// gone or it is dropped.
    pub(crate) fn start(ours: OwnedFd) -> io::Result<Supervisor> {
        let (stop_read, stop) = pipe()?;
        let refused = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&refused);
        let thread = std::thread::Builder::new()
            .name("testgate-loopback".to_owned())
            .spawn(move || supervise(&ours, &stop_read, &counter))?;
        Ok(Supervisor {
            stop,
            thread: Some(thread),
            refused,
        })
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        // SAFETY: a one-byte write to a pipe this value owns.
        unsafe { libc::write(self.stop.as_raw_fd(), [1u8].as_ptr().cast(), 1) };
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two fresh descriptors into `fds`.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just made and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Waits until `fd` is readable or `stop` is: whether `fd` is (and not
/// hung up).
fn wait_for(fd: RawFd, stop: RawFd) -> bool {
    let mut fds = [
        libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: stop,
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    loop {
        // SAFETY: poll on two pollfds this function owns.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
        if ready < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return false;
        }
        if fds[1].revents != 0 {
            return false;
        }
        return fds[0].revents & libc::POLLIN != 0;
    }
}

fn supervise(ours: &OwnedFd, stop: &OwnedFd, refused: &AtomicU32) {
    if !wait_for(ours.as_raw_fd(), stop.as_raw_fd()) {
        return;
    }
    let Some(listener) = receive_fd(ours.as_raw_fd()) else {
        return;
    };
    let listening: Arc<Mutex<HashSet<u64>>> = Arc::default();
    while wait_for(listener.as_raw_fd(), stop.as_raw_fd()) {
        // SAFETY: a zeroed seccomp_notif is a valid buffer for RECV.
        let mut notif: libc::seccomp_notif = unsafe { std::mem::zeroed() };
        // SAFETY: RECV fills `notif`.
        let got = unsafe {
            libc::ioctl(
                listener.as_raw_fd(),
                libc::SECCOMP_IOCTL_NOTIF_RECV,
                &mut notif as *mut libc::seccomp_notif,
            )
        };
        if got != 0 {
            // ENOENT: the caller died before it was received.
            continue;
        }
        let answer = answer(&listener, &notif, &listening);
        match answer {
            Answer::Continue => respond(&listener, notif.id, Response::Continue),
            Answer::Refuse => {
                refused.fetch_add(1, Ordering::Relaxed);
                respond(&listener, notif.id, Response::Error(libc::EACCES));
            }
            Answer::Connect { socket, address } => {
                let Ok(sender) = listener.try_clone() else {
                    respond(&listener, notif.id, Response::Error(libc::EAGAIN));
                    continue;
                };
                let id = notif.id;
                // A blocking connect waits for the server: on a thread of
                // its own, so the next notification is not held up.
                let spawned = std::thread::Builder::new()
                    .name("testgate-connect".to_owned())
                    .spawn(move || {
                        let result = connect(&socket, &address);
                        respond(&sender, id, result);
                    });
                if spawned.is_err() {
                    // The connect never ran.
                    respond(&listener, notif.id, Response::Error(libc::EAGAIN));
                }
            }
        }
    }
}

/// What a notification gets.
enum Answer {
    /// The kernel goes on with the call (Landlock decides).
    Continue,
    /// EACCES, counted.
    Refuse,
    /// testgate connects `socket` (the caller's, duplicated) to `address`
    /// (its own copy).
    Connect { socket: OwnedFd, address: Vec<u8> },
}

enum Response {
    Continue,
    Value(i64),
    Error(i32),
}

fn respond(listener: &OwnedFd, id: u64, response: Response) {
    let (val, error, flags) = match response {
        Response::Continue => (0, 0, libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32),
        Response::Value(val) => (val, 0, 0),
        Response::Error(errno) => (0, -errno, 0),
    };
    let mut resp = libc::seccomp_notif_resp {
        id,
        val,
        error,
        flags,
    };
    // SAFETY: SEND reads `resp`; ENOENT (the caller died) is no harm.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_SEND,
            &mut resp as *mut libc::seccomp_notif_resp,
        )
    };
}

fn id_valid(listener: &OwnedFd, id: u64) -> bool {
    let mut id = id;
    // SAFETY: ID_VALID reads the u64.
    unsafe { libc::ioctl(listener.as_raw_fd(), NOTIF_ID_VALID, &mut id as *mut u64) == 0 }
}

fn answer(
    listener: &OwnedFd,
    notif: &libc::seccomp_notif,
    listening: &Mutex<HashSet<u64>>,
) -> Answer {
    let pid = notif.pid as libc::pid_t;
    let args = notif.data.args;
    // The caller's descriptor, duplicated: the kernel's file, whatever
    // the caller does with the number afterwards.
    let Some(socket) = caller_fd(pid, args[0] as libc::c_int) else {
        return Answer::Continue;
    };
    // The pid was the caller's when the file was taken.
    if !id_valid(listener, notif.id) {
        return Answer::Continue;
    }
    if notif.data.nr == libc::SYS_listen as i32 {
        if let Some(inode) = socket_inode(&socket)
            && let Ok(mut set) = listening.lock()
        {
            set.insert(inode);
        }
        return Answer::Continue;
    }
    let (Some(domain), Some(kind)) = (
        option(&socket, libc::SO_DOMAIN),
        option(&socket, libc::SO_TYPE),
    ) else {
        return Answer::Continue;
    };
    if !(domain == libc::AF_INET || domain == libc::AF_INET6) || kind != libc::SOCK_STREAM {
        return Answer::Continue;
    }
    let len = (args[2] as usize).min(128);
    let Some(address) = read_memory(pid, args[1], len) else {
        return Answer::Continue;
    };
    if !id_valid(listener, notif.id) {
        return Answer::Continue;
    }
    let Some(port) = loopback_port(&address) else {
        // AF_UNSPEC and the like: the kernel's, and Landlock's.
        if is_inet(&address) {
            return Answer::Refuse;
        }
        return Answer::Continue;
    };
    let set = listening.lock().map(|set| set.clone()).unwrap_or_default();
    if the_runs_port(port, &set) {
        Answer::Connect { socket, address }
    } else {
        Answer::Refuse
    }
}

fn caller_fd(pid: libc::pid_t, fd: libc::c_int) -> Option<OwnedFd> {
    // SAFETY: pidfd_open and pidfd_getfd return fresh descriptors or -1.
    unsafe {
        let pidfd = libc::syscall(libc::SYS_pidfd_open, pid, 0) as libc::c_int;
        if pidfd < 0 {
            return None;
        }
        let pidfd = OwnedFd::from_raw_fd(pidfd);
        let got = libc::syscall(libc::SYS_pidfd_getfd, pidfd.as_raw_fd(), fd, 0) as libc::c_int;
        (got >= 0).then(|| OwnedFd::from_raw_fd(got))
    }
}

fn socket_inode(socket: &OwnedFd) -> Option<u64> {
    // SAFETY: fstat fills a zeroed stat.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    let done = unsafe { libc::fstat(socket.as_raw_fd(), &mut stat) };
    (done == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFSOCK).then_some(stat.st_ino)
}

fn option(socket: &OwnedFd, name: libc::c_int) -> Option<libc::c_int> {
    let mut value: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes an int.
    let done = unsafe {
        libc::getsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            name,
            (&mut value as *mut libc::c_int).cast(),
            &mut len,
        )
    };
    (done == 0).then_some(value)
}

fn read_memory(pid: libc::pid_t, at: u64, len: usize) -> Option<Vec<u8>> {
    let mut buffer = vec![0u8; len];
    let local = libc::iovec {
        iov_base: buffer.as_mut_ptr().cast(),
        iov_len: len,
    };
    let remote = libc::iovec {
        iov_base: at as *mut libc::c_void,
        iov_len: len,
    };
    // SAFETY: process_vm_readv writes at most `len` bytes into `buffer`.
    let read = unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) };
    (read == len as isize).then_some(buffer)
}

fn is_inet(address: &[u8]) -> bool {
    address.len() >= 2 && {
        let family = i32::from(u16::from_ne_bytes([address[0], address[1]]));
        family == libc::AF_INET || family == libc::AF_INET6
    }
}

/// The port of a loopback address (127.0.0.0/8, `::1`, `::ffff:127.x`), or
/// `None` for any other.
fn loopback_port(address: &[u8]) -> Option<u16> {
    if address.len() < 4 {
        return None;
    }
    let family = i32::from(u16::from_ne_bytes([address[0], address[1]]));
    let port = u16::from_be_bytes([address[2], address[3]]);
    let loopback = match family {
        libc::AF_INET if address.len() >= 16 => address[4] == 127,
        libc::AF_INET6 if address.len() >= 24 => {
            let ip = &address[8..24];
            ip == std::net::Ipv6Addr::LOCALHOST.octets()
                || (ip[..12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] && ip[12] == 127)
        }
        _ => false,
    };
    loopback.then_some(port)
}

/// Whether a socket listens on `port` and every one that does (on any
/// address: the kernel's tables) is one of the run's.
fn the_runs_port(port: u16, runs: &HashSet<u64>) -> bool {
    let mut found = false;
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for inode in listeners_on(&text, port) {
            if !runs.contains(&inode) {
                return false;
            }
            found = true;
        }
    }
    found
}

/// The inodes of the sockets `/proc/net/tcp{,6}`'s `text` shows listening
/// (state `0A`) on `port`.
fn listeners_on(text: &str, port: u16) -> Vec<u64> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let local = fields.get(1)?;
            let (_, hex_port) = local.rsplit_once(':')?;
            let listening = *fields.get(3)? == "0A";
            let on_port = u16::from_str_radix(hex_port, 16).ok()? == port;
            (listening && on_port).then(|| fields.get(9)?.parse().ok())?
        })
        .collect()
}

fn receive_fd(socket: RawFd) -> Option<OwnedFd> {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut control = [0u64; 4];
    // SAFETY: recvmsg into buffers this function owns; the descriptor it
    // carries (if any) is fresh and ours.
    unsafe {
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = std::mem::size_of_val(&control) as _;
        if libc::recvmsg(socket, &mut message, libc::MSG_CMSG_CLOEXEC) <= 0 {
            return None;
        }
        let header = libc::CMSG_FIRSTHDR(&message);
        if header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            return None;
        }
        let mut fd: libc::c_int = -1;
        std::ptr::copy_nonoverlapping(
            libc::CMSG_DATA(header),
            (&mut fd as *mut libc::c_int).cast::<u8>(),
            4,
        );
        (fd >= 0).then(|| OwnedFd::from_raw_fd(fd))
    }
}

/// Connects `socket` to `address` as testgate: the call's result, as the
/// caller's `connect` would return it.
fn connect(socket: &OwnedFd, address: &[u8]) -> Response {
    // SAFETY: connect reads `address.len()` bytes of `address`.
    let done = unsafe {
        libc::connect(
            socket.as_raw_fd(),
            address.as_ptr().cast(),
            address.len() as libc::socklen_t,
        )
    };
    if done == 0 {
        Response::Value(0)
    } else {
        Response::Error(
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EACCES),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(ip: [u8; 4], port: u16) -> Vec<u8> {
        let mut a = vec![0u8; 16];
        a[..2].copy_from_slice(&(libc::AF_INET as u16).to_ne_bytes());
        a[2..4].copy_from_slice(&port.to_be_bytes());
        a[4..8].copy_from_slice(&ip);
        a
    }

    fn v6(ip: std::net::Ipv6Addr, port: u16) -> Vec<u8> {
        let mut a = vec![0u8; 28];
        a[..2].copy_from_slice(&(libc::AF_INET6 as u16).to_ne_bytes());
        a[2..4].copy_from_slice(&port.to_be_bytes());
        a[8..24].copy_from_slice(&ip.octets());
        a
    }

    #[test]
    fn only_loopback_addresses_have_a_port_to_check() {
        assert_eq!(loopback_port(&v4([127, 0, 0, 1], 8080)), Some(8080));
        assert_eq!(loopback_port(&v4([127, 1, 2, 3], 1)), Some(1));
        assert_eq!(
            loopback_port(&v6(std::net::Ipv6Addr::LOCALHOST, 443)),
            Some(443)
        );
        let mapped: std::net::Ipv6Addr = "::ffff:127.0.0.1".parse().unwrap();
        assert_eq!(loopback_port(&v6(mapped, 80)), Some(80));
        // Where it must not fire: another host, any address, a short or
        // foreign sockaddr.
        assert_eq!(loopback_port(&v4([10, 0, 0, 1], 80)), None);
        assert_eq!(loopback_port(&v4([0, 0, 0, 0], 80)), None);
        let other: std::net::Ipv6Addr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(loopback_port(&v6(other, 80)), None);
        assert_eq!(
            loopback_port(&v6(std::net::Ipv6Addr::UNSPECIFIED, 80)),
            None
        );
        assert_eq!(loopback_port(&v4([127, 0, 0, 1], 80)[..8]), None);
        assert_eq!(loopback_port(&[0, 0, 0, 80]), None);
    }

    #[test]
    fn listeners_are_read_from_the_kernels_table() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0\n\
   1: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4343 1 0000000000000000 100 0 0 10 0\n\
   2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 4444 1 0000000000000000 100 0 0 10 0\n\
   3: 0100007F:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4545 1 0000000000000000 100 0 0 10 0\n";
        assert_eq!(listeners_on(table, 8080), [4242, 4343]);
        assert_eq!(listeners_on(table, 80), [4545]);
        assert!(listeners_on(table, 81).is_empty());
        assert!(listeners_on("garbage\nmore garbage", 80).is_empty());
    }
}
