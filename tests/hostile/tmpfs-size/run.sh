# The sandbox's tmpfs mounts are the host's memory: each must be capped at
# $3 KiB (/tmp, /run, /dev/shm), and /dev itself, a tmpfs bwrap cannot
# size, must refuse new files. Writes $4 MiB (more than the cap) into each
# capped mount and passes when every write stopped at the cap.
export HOSTILE_MARKER="$1"
cap_kib="$3"
fill_mib="$4"
escaped=0
for dir in /tmp /run /dev/shm; do
    size=$(df -k --output=size "$dir" | tail -n 1 | tr -d ' ')
    if [ "$size" -gt "$cap_kib" ]; then echo "UNCAPPED $dir: $size KiB"; escaped=1; else echo "capped: $dir at $size KiB"; fi
    head -c "${fill_mib}M" /dev/zero > "$dir/$1-fill" 2>/dev/null
    kib=$(du -k "$dir/$1-fill" | cut -f 1)
    if [ "$kib" -gt "$cap_kib" ]; then echo "OVERFILLED $dir: $kib KiB"; escaped=1; else echo "filled: $dir stopped at $kib KiB"; fi
    rm -f "$dir/$1-fill"
done
if (: > "/dev/$1") 2>/dev/null; then echo "WROTE /dev/$1"; escaped=1; else echo "refused: a new file in /dev"; fi
exit $escaped
