# Under Landlock an attempt's TMPDIR is named for the project, so that the
# next attempt's is the same path (jest keys its transform cache on it).
# The suite tries to carry something into that next attempt: a file, jest's
# cache link pointed at a forged cache in the project, and a child that
# recreates the directory and plants in it after testgate removed it. What
# it finds at its start (the path, the entries, where jest's link leads)
# goes into found-N.txt, N counting the checks.
export HOSTILE_MARKER="$1"
shift 2
n=1
while [ -e "found-$n.txt" ]; do n=$((n + 1)); done
{
    echo "tmpdir=$TMPDIR"
    ls -A "$TMPDIR"
    for link in "$TMPDIR"/jest_*; do
        echo "link=$(readlink "$link")"
    done
} > "found-$n.txt" 2>&1
mkdir -p forged-cache
echo "forged by the test" > "forged-cache/entry-$HOSTILE_MARKER"
echo "planted by the test" > "$TMPDIR/planted-$HOSTILE_MARKER"
for link in "$TMPDIR"/jest_*; do
    rm -f "$link"
    ln -sfn "$PWD/forged-cache" "$link"
done
dir="$TMPDIR"
(
    while :; do
        mkdir -p "$dir" 2>/dev/null
        echo late > "$dir/late-$HOSTILE_MARKER" 2>/dev/null
        ln -sfn "$PWD/forged-cache" "$dir/jest_0" 2>/dev/null
        sleep 0.01
    done
) > /dev/null 2>&1 &
exit 0
