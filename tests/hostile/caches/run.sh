# Plants into every host cache the sandbox shows: Go's build cache, Go's
# module cache (extracted and cache/download), npm's cache, pip's cache and
# cargo's registry. The harness put one entry of its own in each (the
# path relative to the home in ARGS); the suite reads it (the host's
# contents are visible), then overwrites it in place, appends to it,
# truncates it, and adds a new entry beside it. It records each outcome in
# dump.bin; the harness checks the host's entries are byte for byte what
# it wrote, that nothing was added, and that the copies the sandbox wrote
# are the project's own.
export HOSTILE_MARKER="$1"
shift 2
: > dump.bin
for rel in "$@"; do
    # Where the toolchain looks: its cache variable where the sandbox set
    # one (Landlock points them at the private copies), else the home.
    case "$rel" in
    .cache/go-build/*) f="${GOCACHE:-$HOME/.cache/go-build}/${rel#.cache/go-build/}" ;;
    .npm/*) f="${npm_config_cache:-$HOME/.npm}/${rel#.npm/}" ;;
    .cache/pip/*) f="${PIP_CACHE_DIR:-$HOME/.cache/pip}/${rel#.cache/pip/}" ;;
    *) f="$HOME/$rel" ;;
    esac
    dir=$(dirname "$f")
    {
        echo "== $rel"
        echo "read: $(cat "$f")"
        # In place: through a hard link this would be the host's inode.
        chmod u+w "$f" "$dir" 2>/dev/null
        if echo "planted-by-the-test" > "$f" 2>/dev/null; then
            echo "overwrote $rel"
        fi
        if echo "appended-by-the-test" >> "$f" 2>/dev/null; then
            echo "appended $rel"
        fi
        if echo "planted-by-the-test" > "$dir/planted-entry" 2>/dev/null; then
            echo "added beside $rel"
        fi
        if ln -sf /etc/passwd "$dir/planted-link" 2>/dev/null; then
            echo "linked beside $rel"
        fi
        echo "after: $(cat "$f")"
    } >> dump.bin 2>&1
done
exit 0
