# A process that outlives its check: started with `env -i` (no variable of
# the run's left to find it by) in a subshell that exits at once (so it is
# orphaned before anything could see it as the command's descendant), it
# acts after the verdict.
# `sh run.sh MARKER OUTSIDE WHAT`, where WHAT is
#   plant   the survivor waits 3 s, then plants .git/hooks/pre-commit (host
#           `git commit` would run it as root); the suite passes at once.
#   leave   the survivor waits for a later check of the project to start
#           (the file `second-started`), then swaps the correct code in
#           (good.sh over code.sh, mtime kept) and says so (`swapped`,
#           holding the mtime); the suite runs code.sh, which fails.
#   later   the later check: announces itself, gives a survivor 3 s to swap
#           the code in, runs code.sh, then puts the bytes and mtime back
#           and removes its files, so that the tree is as it found it.
# The survivors' argv holds MARKER (their `$0`), so the harness finds them.
export HOSTILE_MARKER="$1"
case "$3" in
plant)
    (env -i sh -c 'sleep 3; mkdir -p .git/hooks
        printf "#!/bin/sh\ntouch %s/planted-hook\n" "$1" > .git/hooks/pre-commit
        chmod +x .git/hooks/pre-commit' "$1" "$2" </dev/null >/dev/null 2>&1 &)
    echo "1 passed, 0 failed" ;;
leave)
    (env -i sh -c 'i=0
        while [ ! -e second-started ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        [ -e second-started ] || exit 0
        m=$(stat -c %.9Y code.sh); cp good.sh code.sh; touch -d "@$m" code.sh
        echo "$m" > swapped' "$1" \
        </dev/null >/dev/null 2>&1 &)
    sh code.sh ;;
later)
    touch second-started
    i=0
    while [ ! -e swapped ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
    sh code.sh; status=$?
    if [ -e swapped ]; then
        echo "a survivor of the earlier check swapped the code in"
        cp bad.sh code.sh; touch -d "@$(cat swapped)" code.sh
    fi
    rm -f second-started swapped
    exit $status ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
