# A detached grandchild that writes into the workspace after the command
# has exited.
export HOSTILE_MARKER="$1"
setsid sh -c 'sleep 1; echo late > late.txt' </dev/null >/dev/null 2>&1 &
echo "exiting before the grandchild writes"
