# A child that ignores SIGTERM and outlives the timeout: SIGKILL must follow.
export HOSTILE_MARKER="$1"
sh -c 'trap "" TERM; while :; do sleep 1; done' &
trap '' TERM
wait
