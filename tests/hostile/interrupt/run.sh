# Starts a tree (a plain child, a detached one, one ignoring SIGTERM),
# says it is ready, and waits for ever: testgate is interrupted meanwhile.
export HOSTILE_MARKER="$1"
sleep 1000 &
setsid sh -c 'sleep 1000' &
sh -c 'trap "" TERM; while :; do sleep 1; done' &
touch ready
wait
