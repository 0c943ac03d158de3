# A fork bomb, bounded so it cannot take the machine down: a binary tree
# of depth 11 (about 4,000 processes) whose leaves sleep for ever. No
# process cap applies as root, so it is the timeout that must end it.
export HOSTILE_MARKER="$1"
bomb() {
    if [ "$1" -eq 0 ]; then exec sleep 1000; fi
    bomb $(($1 - 1)) &
    bomb $(($1 - 1)) &
    wait
}
bomb 11
