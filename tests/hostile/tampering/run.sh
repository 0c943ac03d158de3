# Tampering with the runner that judges the tests: a test reaches its
# parent process (here the shell that runs it, as a test would reach
# pytest, nextest or node) with ptrace(PTRACE_ATTACH), PTRACE_TRACEME,
# process_vm_readv and process_vm_writev (writing back the bytes it read),
# and pidfd_getfd (stealing the parent's stdout); then strace, which needs
# ptrace too. Passes when every one is refused with EPERM.
export HOSTILE_MARKER="$1"
python3 - <<'PY'
import ctypes, os, platform, subprocess, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
# The kernel ABI's numbers: (ptrace, process_vm_readv, process_vm_writev,
# pidfd_open, pidfd_getfd).
NR = {"x86_64": (101, 310, 311, 434, 438), "aarch64": (117, 270, 271, 434, 438)}
PTRACE, VM_READV, VM_WRITEV, PIDFD_OPEN, PIDFD_GETFD = NR[platform.machine()]
PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_DETACH = 0, 16, 17
parent = os.getppid()
escaped = 0


def said(name, result):
    global escaped
    err = ctypes.get_errno()
    if result >= 0:
        print(f"DID {name}")
        escaped = 1
        return True
    if err == 1:
        print(f"refused: {name} (EPERM)")
    else:
        print(f"REFUSED OTHERWISE: {name} ({os.strerror(err)})")
        escaped = 1
    return False


if said("ptrace attach to the parent", libc.syscall(PTRACE, PTRACE_ATTACH, parent, 0, 0)):
    os.waitpid(parent, 0x40000000)  # __WALL: wait for the stop
    libc.syscall(PTRACE, PTRACE_DETACH, parent, 0, 0)

# PTRACE_TRACEME in a child, so that this process stays untraced.
child = os.fork()
if child == 0:
    ok = libc.syscall(PTRACE, PTRACE_TRACEME, 0, 0, 0) >= 0
    os._exit(0 if ok else ctypes.get_errno())
status = os.WEXITSTATUS(os.waitpid(child, 0)[1])
if status == 0:
    print("DID ptrace traceme")
    escaped = 1
elif status == 1:
    print("refused: ptrace traceme (EPERM)")
else:
    print(f"REFUSED OTHERWISE: ptrace traceme ({os.strerror(status)})")
    escaped = 1


class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


# A writable mapping of the parent's: its bytes are read, then written back
# unchanged (were the call allowed, the parent would go on as before).
with open(f"/proc/{parent}/maps") as maps:
    start = next(int(l.split("-")[0], 16) for l in maps if l.split()[1].startswith("rw"))
buffer = ctypes.create_string_buffer(16)
local = IoVec(ctypes.cast(buffer, ctypes.c_void_p), 16)
remote = IoVec(start, 16)
said("process_vm_readv of the parent",
     libc.syscall(VM_READV, parent, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0))
said("process_vm_writev into the parent",
     libc.syscall(VM_WRITEV, parent, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0))

pidfd = libc.syscall(PIDFD_OPEN, parent, 0)
if pidfd < 0:
    print(f"REFUSED OTHERWISE: pidfd_open ({os.strerror(ctypes.get_errno())})")
    escaped = 1
else:
    said("pidfd_getfd of the parent's stdout", libc.syscall(PIDFD_GETFD, pidfd, 1, 0))

try:
    traced = subprocess.run(["strace", "-o", "/dev/null", "true"], capture_output=True, timeout=30)
    if traced.returncode == 0:
        print("DID strace true")
        escaped = 1
    else:
        print("refused: strace true")
except FileNotFoundError:
    print("strace: not installed")
sys.stdout.flush()
sys.exit(escaped)
PY
