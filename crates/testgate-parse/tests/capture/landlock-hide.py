#!/usr/bin/env python3
"""landlock-hide.py HIDDEN... -- COMMAND...: runs COMMAND under a Landlock
ruleset that grants reading and executing everything but the HIDDEN paths
(and writing nothing), as testgate's Landlock sandbox hides the homes and
/tmp: a denial there is EACCES, as in testgate. Linux 5.13+, no root needed."""
import ctypes, os, sys

SYS_CREATE, SYS_ADD_RULE, SYS_RESTRICT = 444, 445, 446  # every architecture
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
READ = EXECUTE | READ_FILE | READ_DIR
libc = ctypes.CDLL(None, use_errno=True)


class RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def check(result, what):
    if result < 0:
        sys.exit(f"landlock-hide: {what}: {os.strerror(ctypes.get_errno())}")
    return result


def grant(ruleset, path):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    access = READ if os.path.isdir(path) else EXECUTE | READ_FILE
    rule = PathBeneath(access, fd)
    check(libc.syscall(SYS_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0), path)
    os.close(fd)


def readable_beneath(ruleset, directory, hidden):
    """Grants the entries of `directory` but the hidden ones, walking only
    into the ancestors of hidden paths."""
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        if path in hidden or os.path.islink(path):
            continue
        if os.path.isdir(path) and any(h.startswith(path + "/") for h in hidden):
            readable_beneath(ruleset, path, hidden)
        else:
            grant(ruleset, path)


def main():
    split = sys.argv.index("--")
    hidden = [os.path.realpath(p) for p in sys.argv[1:split]]
    command = sys.argv[split + 1:]
    attr = RulesetAttr(READ | WRITE_FILE)
    ruleset = check(libc.syscall(SYS_CREATE, ctypes.byref(attr), ctypes.sizeof(attr), 0), "create")
    readable_beneath(ruleset, "/", hidden)
    for device in ("/dev/null", "/dev/urandom"):
        rule = PathBeneath(READ_FILE | WRITE_FILE, os.open(device, os.O_PATH))
        check(libc.syscall(SYS_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0), device)
    check(libc.prctl(38, 1, 0, 0, 0), "no_new_privs")  # PR_SET_NO_NEW_PRIVS
    check(libc.syscall(SYS_RESTRICT, ruleset, 0), "restrict_self")
    os.execvp(command[0], command)


main()
