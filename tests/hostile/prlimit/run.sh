# Another process's limits from inside: `prlimit --pid PID --cpu=0` (the
# kernel kills a process past a zero CPU limit) on the command's parent
# and, where the sandbox shows it, the parent's parent (testgate itself
# under Landlock, as the sandbox sees it). Then what honest tools do:
# `ulimit -t` on the shell itself (setrlimit, pid 0), and reading the
# parent's limit. Passes when each change of another process is refused
# and the honest calls work.
export HOSTILE_MARKER="$1"
escaped=0
try() {
    if prlimit --pid "$2" --cpu=0 2>/dev/null; then
        echo "DID prlimit --cpu=0 on $1 (pid $2)"; escaped=1
    else
        echo "refused: prlimit --cpu=0 on $1"
    fi
}
parent=$PPID
grand=$(cut -d' ' -f4 "/proc/$parent/stat")
try "the parent" "$parent"
if [ "$grand" -gt 0 ]; then try "the parent's parent" "$grand"; fi
if (ulimit -t 100000) 2>/dev/null; then echo "own limit set"; else echo "own limit refused"; escaped=1; fi
if prlimit --pid "$parent" --cpu >/dev/null 2>&1; then echo "read the parent's limit"; else echo "could not read the parent's limit"; escaped=1; fi
if [ $escaped = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $escaped
