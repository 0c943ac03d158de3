# `kill -9 -1` from inside: every process the sandbox can signal. Outside a
# PID namespace this would kill the machine's processes, so it refuses to
# run unless it is the sandbox's second process. Linux spares the caller
# and the namespace's init; the background sleeper must die.
export HOSTILE_MARKER="$1"
if [ "$$" -gt 10 ] || ! tr '\0' ' ' < /proc/1/cmdline | grep -q bwrap; then
    echo "not in a PID namespace (pid $$): refusing to kill -9 -1"
    exit 3
fi
sleep 1000 &
sleeper=$!
kill -9 -1
wait $sleeper
echo "still alive after kill -9 -1; the sleeper ended with $?"
