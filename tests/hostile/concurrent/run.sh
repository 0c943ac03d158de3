# Two runs in the same project at once: each marks itself started, waits
# (bounded) to see the other, and passes only if it did.
export HOSTILE_MARKER="$1"
touch "started-$1"
i=0
while [ $i -lt 300 ]; do
    if ls started-* | grep -v -x -q -- "started-$1"; then
        echo "ran alongside another run"
        exit 0
    fi
    sleep 0.1
    i=$((i + 1))
done
echo "never saw the other run"
exit 1
