# Closes stdout and stderr early and keeps running: end of output is not
# the end of the command. It proves it ran on by writing a file, then passes.
export HOSTILE_MARKER="$1"
echo "closing my output now"
exec >&- 2>&-
sleep 1
echo "ran on after closing its output" > after-close.txt
exit 0
