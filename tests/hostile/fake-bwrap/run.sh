# Run with a fake `bwrap` first in testgate's PATH. Passes only inside a
# real PID namespace (the real bwrap's).
export HOSTILE_MARKER="$1"
if [ "$$" -lt 10 ]; then echo "pid $$: in a PID namespace"; exit 0; fi
echo "pid $$: not sandboxed"
exit 1
