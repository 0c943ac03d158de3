# Fills /tmp with $3 MiB (bounded; the tmpfs is the sandbox's own) and
# passes if the write worked: the host's /tmp must not see it.
export HOSTILE_MARKER="$1"
head -c "${3}M" /dev/zero > "/tmp/$1-fill" || exit 1
ls -l "/tmp/$1-fill"
