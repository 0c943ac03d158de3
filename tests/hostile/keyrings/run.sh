# Kernel keyrings, both ways. testgate was started in a session keyring
# holding a key described $3 (the harness put it there); the run tries to
# find and read it, to list the keys root can view, and to add keys named
# after the marker to its session and user keyrings, which the harness then
# looks for on the host. Passes when every one is refused.
export HOSTILE_MARKER="$1"
host_key="$3"
escaped=0
for ring in @s @u @us; do
    if id=$(keyctl search "$ring" user "$host_key" 2>/dev/null); then
        echo "FOUND the host's key in $ring: $(keyctl print "$id" 2>&1)"; escaped=1
    else
        echo "search $ring: refused or absent"
    fi
    if keyctl add user "$1-inside$ring" planted "$ring" >/dev/null 2>&1; then
        echo "ADDED a key to $ring"; escaped=1
    else
        echo "add to $ring: refused"
    fi
done
if keyctl show @s 2>/dev/null; then echo "LISTED the session keyring"; escaped=1; fi
if grep -q "$host_key" /proc/keys 2>/dev/null; then echo "SAW the host's key in /proc/keys"; escaped=1; fi
exit $escaped
