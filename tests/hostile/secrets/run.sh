# Looks for the harness's canary everywhere a secret might leak: the
# planted ~/.ssh/id_rsa of the HOME it sees, its own and init's
# environment, every process's argv and environment, every open descriptor
# (an inherited one included). Everything read goes to dump.bin, which the
# harness searches; the script also passes only when it found nothing.
export HOSTILE_MARKER="$1"
{
    echo "== ssh"; cat "$HOME/.ssh/id_rsa"; ls -la "$HOME/.ssh"
    echo "== env"; env
    for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do
        echo "== $f"; cat "$f"; echo
    done
    for fd in /proc/self/fd/*; do
        echo "== $fd -> $(readlink "$fd")"
    done
    for n in 3 4 5 6 7 8 9 10 11 12; do
        echo "== fd $n"; cat "/proc/self/fd/$n" </dev/null
        (cat <&"$n") 2>/dev/null
    done
} > dump.bin 2>&1
if grep -a -q "canary" dump.bin; then echo "FOUND the canary"; exit 1; fi
echo "no canary anywhere"
