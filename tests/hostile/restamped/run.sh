# A suite that hides a change to the tree from a later check that trusts
# a file's size and modification time: `sh run.sh MARKER OUTSIDE WHAT`
# where WHAT is
#   forge  rewrites data.txt in place with other bytes of the same size and
#          sets its modification time back (`touch -d`): only its
#          status-change time, which no process can set, moves
#   undo   writes data.txt's submitted bytes back
# Checked with --keep-changes, forge leaves the forged file in the tree;
# the next check, of that tree, must see undo change it (Inconclusive
# tree_changed naming data.txt). A record that took data.txt's content
# from an earlier check by size and modification time would hold the
# submitted bytes, see undo change nothing, and pass.
export HOSTILE_MARKER="$1"
case "$3" in
forge)
    stamp=$(stat -c %y data.txt)
    printf 'expected answer: 41\n' > data.txt
    touch -d "$stamp" data.txt ;;
undo) printf 'expected answer: 42\n' > data.txt ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
echo "1 passed"
exit 0
