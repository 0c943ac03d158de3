# Another process's scheduling from inside (issue 35): on the command's
# parent and, where the sandbox shows it, the parent's parent (testgate
# itself under Landlock), `renice -p` (setpriority), `chrt -p`
# (sched_setscheduler), sched_setparam, `ionice -p` (ioprio_set), and
# setpriority of the caller's own process group (which holds its runner).
# Each sets what the target already has (SCHED_OTHER, nice 0, best-effort
# level 4), so the old code that allowed them changed nothing but said
# so. `taskset -p` (sched_setaffinity) of the parent, with its own mask,
# is said (`reach: …`), not judged: docs/sandbox.md says why it is
# allowed. Then what honest tools do on themselves (`nice`, `taskset -c`,
# `chrt -b`, `ionice -c`, python's `os.sched_setaffinity` by pid 0 and by
# its own pid, as glibc sets a thread's CPUs by its id), and reading the
# parent's. Passes when each change of another process is refused and
# the honest calls work.
export HOSTILE_MARKER="$1"
escaped=0
try() {
    # $1: what, $2: the target's name, then the command.
    what=$1; whom=$2; shift 2
    if "$@" >/dev/null 2>&1; then
        echo "DID $what on $whom"; escaped=1
    else
        echo "refused: $what on $whom"
    fi
}
attack() {
    whom=$1; pid=$2
    try "renice" "$whom" renice -n 0 -p "$pid"
    try "chrt" "$whom" chrt -o -p 0 "$pid"
    try "sched_setparam" "$whom" python3 -c "import os, sys; os.sched_setparam($pid, os.sched_param(0))"
    try "ionice" "$whom" ionice -c 2 -n 4 -p "$pid"
}
parent=$PPID
grand=$(cut -d' ' -f4 "/proc/$parent/stat")
attack "the parent" "$parent"
if [ "$grand" -gt 0 ]; then attack "the parent's parent" "$grand"; fi
mask=$(taskset -p "$parent" 2>/dev/null | awk '{print $NF}')
if taskset -p "${mask:-1}" "$parent" >/dev/null 2>&1; then reach=allowed; else reach=refused; fi
echo "reach: taskset -p of the parent: $reach"
try "setpriority" "the own process group" python3 -c "import os; os.setpriority(os.PRIO_PGRP, 0, os.getpriority(os.PRIO_PROCESS, 0))"
honest() {
    if "$@" >/dev/null 2>&1; then echo "honest: $*"; else echo "honest call refused: $*"; escaped=1; fi
}
honest nice -n 1 true
honest taskset -c 0 true
honest chrt -b 0 true
honest ionice -c 2 -n 7 true
honest python3 -c "import os; os.sched_setaffinity(0, os.sched_getaffinity(0)); os.nice(1)"
honest python3 -c "import os; os.sched_setaffinity(os.getpid(), os.sched_getaffinity(0))"
honest taskset -p "$parent"
honest chrt -p "$parent"
honest ionice -p "$parent"
if [ $escaped = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $escaped
