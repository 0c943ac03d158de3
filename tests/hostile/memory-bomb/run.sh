# A memory bomb, capped at 512 MiB of address space so that it ends by
# itself and never endangers the machine. Its death is the command's exit.
export HOSTILE_MARKER="$1"
prlimit --as=536870912 perl -e 'my @hog; push @hog, "x" x (16 << 20) while 1'
status=$?
echo "the memory bomb ended with status $status"
exit $status
