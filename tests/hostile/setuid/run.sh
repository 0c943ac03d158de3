# A set-user-ID root shell left in the project: any local user who runs it
# afterwards gets euid 0. The test copies sh into the project and tries
# `chmod u+s`, `chmod g+s`, `chmod 4755` through fchmodat, fchmod,
# fchmodat2, and creating a file set-ID from the start with open(O_CREAT)
# and mknod. Passes when every one is refused and an ordinary chmod still
# works.
# It works in `target/` (beside the suite's Cargo.toml), a build folder
# the tree check does not judge, so that seccomp alone must hold.
export HOSTILE_MARKER="$1"
mkdir -p target && cd target || exit 2
escaped=0
shell="./sh-$1"
cp /bin/sh "$shell" || exit 2
for mode in u+s g+s 4755 6755; do
    if chmod "$mode" "$shell" 2>/dev/null; then
        echo "DID chmod $mode"; escaped=1
    else
        echo "refused: chmod $mode"
    fi
done
if chmod 0755 "$shell"; then echo "allowed: chmod 0755"; else echo "BROKEN: chmod 0755"; escaped=1; fi
python3 - "$1" <<'PY' || escaped=1
import ctypes, os, stat, sys

libc = ctypes.CDLL(None, use_errno=True)
marker = sys.argv[1]
escaped = 0


def attempt(name, call):
    global escaped
    try:
        call()
    except OSError as e:
        print(f"refused: {name} ({e.strerror})")
        return
    print(f"DID {name}")
    escaped = 1


shell = f"./sh-{marker}"
fd = os.open(shell, os.O_RDONLY)
attempt("fchmod 4755", lambda: os.fchmod(fd, 0o4755))
os.close(fd)
attempt("chmod 2755", lambda: os.chmod(shell, 0o2755))


def fchmodat2():
    # fchmodat2(AT_FDCWD, path, mode, 0); ENOSYS before Linux 6.6.
    if libc.syscall(452, -100, shell.encode(), 0o4755, 0) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


attempt("fchmodat2 4755", fchmodat2)
attempt("open O_CREAT 4755",
        lambda: os.close(os.open(f"./open-{marker}", os.O_CREAT | os.O_WRONLY, 0o4755)))
attempt("mknod S_IFREG 6755", lambda: os.mknod(f"./mknod-{marker}", stat.S_IFREG | 0o6755))
for name in os.listdir("."):
    mode = os.lstat(name).st_mode
    if mode & (stat.S_ISUID | stat.S_ISGID):
        print(f"SET-ID FILE {name} {oct(mode)}")
        escaped = 1
sys.exit(escaped)
PY
exit $escaped
