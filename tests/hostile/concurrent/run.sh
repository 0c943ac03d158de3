# Two checks of the same project at once: testgate holds the project for one
# check at a time (each puts the tree back after every attempt), so each
# run marks itself started and passes only if no other run's mark appears
# while it watches (bounded: 3 s).
export HOSTILE_MARKER="$1"
touch "started-$1"
i=0
while [ $i -lt 30 ]; do
    if ls started-* | grep -v -x -q -- "started-$1"; then
        echo "ran alongside another run"
        exit 1
    fi
    sleep 0.1
    i=$((i + 1))
done
echo "ran alone"
exit 0
