# Exits with the code given ($3): 124 to 127 and 137 look like timeout(1),
# testgate's own 125, a shell's "cannot execute" / "not found", a SIGKILL.
export HOSTILE_MARKER="$1"
echo "exiting $3 on purpose"
exit "$3"
