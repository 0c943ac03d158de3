# Writes to /etc, a file outside the project, /usr, and to the homes and
# /tmp (private: allowed inside, invisible outside: the harness looks for
# the files on the host). Passes when every write outside the project,
# the homes and /tmp failed.
export HOSTILE_MARKER="$1"
escaped=0
for target in "/etc/$1" "$2/victim" "$2/$1" "/usr/$1"; do
    if (echo "pwned by $1" > "$target") 2>/dev/null; then
        echo "WROTE $target"; escaped=1
    else
        echo "could not write $target"
    fi
done
for target in "$HOME/$1" "/root/$1"; do
    (echo "private to the run" > "$target") 2>/dev/null && echo "wrote the private $target"
done
echo "tmp is private" > "/tmp/$1" && echo "wrote the private /tmp/$1"
exit $escaped
