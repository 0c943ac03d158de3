# As root inside the sandbox, tries the host-root paths of /proc and /sys:
# kernel.core_pattern (a pipe there runs a program as host root on the next
# crash), kernel.pid_max, a net.* sysctl, binfmt_misc, sysrq-trigger, and a
# /sys tunable. Passes when every one is refused.
#
# Safe on a shared machine even if the sandbox failed: each sysctl gets its
# own current value written back, and the other files are only opened for
# writing, never written; the harness checks core_pattern on the host too.
export HOSTILE_MARKER="$1"
escaped=0
write_back() {
    if [ ! -e "$1" ]; then echo "absent: $1"; return; fi
    value=$(cat "$1") || { echo "unreadable: $1"; return; }
    if (printf '%s\n' "$value" > "$1") 2>/dev/null; then
        echo "WROTE $1"; escaped=1
    else
        echo "refused: $1"
    fi
}
open_for_write() {
    if [ ! -e "$1" ]; then echo "absent: $1"; return; fi
    if (exec 3>>"$1") 2>/dev/null; then
        echo "OPENED FOR WRITING $1"; escaped=1
    else
        echo "refused: $1"
    fi
}
write_back /proc/sys/kernel/core_pattern
write_back /proc/sys/kernel/pid_max
write_back /proc/sys/net/ipv4/ip_forward
write_back /proc/sys/net/core/somaxconn
open_for_write /proc/sysrq-trigger
open_for_write /proc/sys/fs/binfmt_misc/register
open_for_write /proc/sys/vm/drop_caches
open_for_write /sys/kernel/mm/transparent_hugepage/enabled
open_for_write /sys/kernel/uevent_helper
# Every other sysctl: count the ones root could still open for writing.
writable=0
for f in $(find /proc/sys -type f 2>/dev/null); do
    if (exec 3>>"$f") 2>/dev/null; then writable=$((writable + 1)); fi
done
echo "sysctls open for writing: $writable"
[ "$writable" -eq 0 ] || escaped=1
# The rest of /proc but the processes' own directories, and the first
# 2,000 files of /sys (read-only as one mount: a sample shows it).
for f in $(find /proc -mindepth 1 -maxdepth 4 \( -path '/proc/[0-9]*' -o -path /proc/self \
        -o -path /proc/thread-self -o -path /proc/sys \) -prune -o -type f -print 2>/dev/null) \
        $(find /sys -type f 2>/dev/null | head -n 2000); do
    if (exec 3>>"$f") 2>/dev/null; then echo "OPENED FOR WRITING $f"; escaped=1; fi
done
# Host-wide state that is masked.
for f in /proc/kcore /proc/keys /proc/timer_list /proc/sched_debug; do
    if [ -e "$f" ] && head -c 1 "$f" >/dev/null 2>&1; then echo "READ $f"; escaped=1; fi
done
exit $escaped
