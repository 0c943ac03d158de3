# As root inside the sandbox: remount / read-write, mount over a host
# directory, open a nested user namespace (and a mount namespace in it).
# Passes when all of them failed.
export HOSTILE_MARKER="$1"
escaped=0
try() {
    if "$@" 2>/dev/null; then echo "SUCCEEDED: $*"; escaped=1; else echo "refused: $*"; fi
}
try mount -o remount,rw /
try mount -t tmpfs none "$2"
try unshare --user --map-root-user true
try unshare --user true
try unshare --mount true
if (echo "pwned by $1" > "/etc/$1") 2>/dev/null; then echo "WROTE /etc/$1"; escaped=1; fi
exit $escaped
