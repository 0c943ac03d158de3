# A detached grandchild that writes into the workspace after the command
# has exited. $3 is the mode: `late` (default) writes after a second;
# `trap` writes from its SIGTERM handler, so a teardown that sends SIGTERM
# to what the run left behind (and grants it a grace) lets it write.
export HOSTILE_MARKER="$1"
case "${3:-late}" in
    trap)
        setsid sh -c 'trap "echo late > late.txt; exit 0" TERM; sleep 30 & wait' \
            </dev/null >/dev/null 2>&1 &
        ;;
    *)
        setsid sh -c 'sleep 1; echo late > late.txt' </dev/null >/dev/null 2>&1 &
        ;;
esac
echo "exiting before the grandchild writes"
