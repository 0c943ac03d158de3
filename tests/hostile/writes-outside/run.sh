# Writes to /etc, the home directory, /root, a file outside the project and
# /tmp (private: allowed inside, invisible outside). Passes when every
# write outside the project and /tmp failed.
export HOSTILE_MARKER="$1"
escaped=0
for target in "/etc/$1" "$HOME/$1" "/root/$1" "$2/victim" "$2/$1" "/usr/$1"; do
    if (echo "pwned by $1" > "$target") 2>/dev/null; then
        echo "WROTE $target"; escaped=1
    else
        echo "could not write $target"
    fi
done
echo "tmp is private" > "/tmp/$1" && echo "wrote the private /tmp/$1"
exit $escaped
