# Changes what a file is rather than what it holds, outside the project:
# its mode (group- and world-writable, then set-user-ID), its owner, its
# times, on OUTSIDE/victim (the host's file, owned by the user running
# testgate). Reports each attempt; passes when every one was refused.
export HOSTILE_MARKER="$1"
victim="$2/victim"
escaped=0
try() {
    if "$@" 2>/dev/null; then echo "SUCCEEDED: $*"; escaped=1; else echo "refused: $*"; fi
}
try chmod 0666 "$victim"
try chmod 4755 "$victim"
try chown 65534 "$victim"
try touch -m -d 2000-01-01T00:00:00 "$victim"
exit $escaped
