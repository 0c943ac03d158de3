# Symlinks in the project pointing outside it (a file, a directory), then
# writes through them. Passes when every write failed.
export HOSTILE_MARKER="$1"
ln -s "$2/victim" victim-link
ln -s /etc etc-link
ln -s "$2" outside-link
escaped=0
for target in victim-link "etc-link/$1" "outside-link/$1"; do
    if (echo "pwned by $1" > "$target") 2>/dev/null; then
        echo "WROTE through $target"; escaped=1
    else
        echo "could not write through $target"
    fi
done
exit $escaped
