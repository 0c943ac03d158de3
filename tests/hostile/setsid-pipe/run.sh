# The pipe trap: a detached double fork (new session) keeps stdout and
# stderr open for ever after the command itself has passed.
export HOSTILE_MARKER="$1"
setsid sh -c 'sleep 1000 & sleep 1000 >&2 &' &
echo "detached; exiting 0"
