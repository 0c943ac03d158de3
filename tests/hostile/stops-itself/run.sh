# The command stops itself (SIGSTOP) with a child running: a stopped
# process does not act on SIGTERM, only SIGKILL ends it.
export HOSTILE_MARKER="$1"
sleep 1000 &
kill -STOP $$
