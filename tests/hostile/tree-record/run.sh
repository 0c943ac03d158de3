# Reaches for what testgate learnt of the project's tree in earlier
# checks, its private state <cache root>/<project>/tree-record (the
# stamps it trusts, the copies it puts files back from): `sh run.sh MARKER
# OUTSIDE ROOT`, ROOT the host's cache root. It looks there by the host's
# path, and beside every cache the sandbox shows (the folders GOCACHE,
# PIP_CACHE_DIR, npm_config_cache, XDG_CACHE_HOME and ~/.cache name, and
# their parents), and tries to list, read and write each record it finds,
# noting in dump.bin what it could do. The harness checks that it could
# do nothing and that the host's record holds nothing of the suite's.
export HOSTILE_MARKER="$1"
root="$3"
: > dump.bin
try() {
    record="$1"
    [ -d "$record" ] || return 0
    echo "found $record" >> dump.bin
    ls "$record" > /dev/null 2>&1 && echo "listed $record" >> dump.bin
    cat "$record/stamps" > /dev/null 2>&1 && echo "read $record/stamps" >> dump.bin
    echo forged-by-the-test >> "$record/stamps" 2>/dev/null && echo "wrote $record/stamps" >> dump.bin
    echo forged-by-the-test > "$record/copies/planted" 2>/dev/null && echo "planted in $record/copies" >> dump.bin
}
for record in "$root"/*/tree-record; do try "$record"; done
for cache in "${GOCACHE:-}" "${PIP_CACHE_DIR:-}" "${npm_config_cache:-}" "${XDG_CACHE_HOME:-}" "$HOME/.cache"; do
    [ -n "$cache" ] || continue
    dir=$cache
    for up in 1 2 3 4; do
        try "$dir/tree-record"
        for record in "$dir"/*/tree-record; do try "$record"; done
        dir=$(dirname "$dir")
    done
done
echo "1 passed"
exit 0
