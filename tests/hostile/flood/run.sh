# A flood on stdout and stderr at once: $3 MiB on each (5 GiB in all was
# measured once; CI floods less, see docs/security.md). Then a pass.
export HOSTILE_MARKER="$1"
head -c "${3}M" /dev/zero &
head -c "${3}M" /dev/zero >&2
wait

echo "flooded ${3} MiB on each stream"
