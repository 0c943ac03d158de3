# testgate's standard error goes to tg.log in the project (the user ran
# `testgate check ... 2> tg.log`), a file testgate leaves out of the tree
# comparison. The suite tries to smuggle a change through that exclusion,
# then passes: `sh run.sh MARKER OUTSIDE WHAT` where WHAT is
#   link     hard-links tg.log as conftest.py (runs at the next pytest) and
#            writes a payload through it
#   replace  replaces its own failing test file by a hard link to tg.log
#   rename   renames tg.log to conftest.py and writes a payload
# testgate must answer Inconclusive tree_changed naming the other path: the
# exclusion holds for the path tg.log had, as the same file, and nothing
# else.
export HOSTILE_MARKER="$1"
case "$3" in
link)
    ln tg.log conftest.py
    printf 'import os  # %s\n' "$HOSTILE_MARKER" >> conftest.py ;;
replace)
    rm -f test_math.sh
    ln tg.log test_math.sh ;;
rename)
    mv tg.log conftest.py
    printf 'import os  # %s\n' "$HOSTILE_MARKER" >> conftest.py ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
echo "1 passed, 0 failed"
exit 0
