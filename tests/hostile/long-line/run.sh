# One line of $3 MiB with no newline at all, then a failure.
export HOSTILE_MARKER="$1"
head -c "${3}M" /dev/zero | tr '\0' 'a'
exit 1
