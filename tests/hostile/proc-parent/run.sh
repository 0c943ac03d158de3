# A test reaching into its runner through /proc (issue 35): the shell that
# runs this script stands in for the runner (nextest, go test, jest), a
# python child for the test. The test opens /proc/PPID/mem for writing
# (then it could rewrite the runner's in-memory verdict) and, for the
# record, for reading, and /proc/PPID/fd/1 (the runner's stdout) for
# writing. Passes when the memory cannot be opened for writing; the other
# two are said (`reach: …`) and not judged: docs/security.md says what
# holds there.
export HOSTILE_MARKER="$1"
python3 - <<'PY'
import errno, os, sys

parent = os.getppid()
escaped = 0


def attempt(what, path, flags):
    try:
        fd = os.open(path, flags)
    except OSError as e:
        return f"refused ({errno.errorcode.get(e.errno, e.errno)})"
    os.close(fd)
    return "allowed"


said = attempt("write", f"/proc/{parent}/mem", os.O_RDWR)
if said == "allowed":
    print("DID open the parent's memory for writing")
    escaped = 1
else:
    print(f"refused: open the parent's memory for writing: {said}")
print(f"reach: read the parent's memory: {attempt('read', f'/proc/{parent}/mem', os.O_RDONLY)}")
print(f"reach: the parent's stdout through /proc: {attempt('fd', f'/proc/{parent}/fd/1', os.O_WRONLY)}")
print("1 passed, 0 failed" if not escaped else "0 passed, 1 failed")
sys.exit(escaped)
PY
