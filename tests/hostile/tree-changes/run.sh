# A suite that changes the tree it is judged on, then passes: `sh run.sh
# MARKER OUTSIDE WHAT` where WHAT is
#   edit      rewrites its own failing assertion (test_math.sh)
#   delete    deletes the failing test file
#   commit    edits the assertion and commits it from inside (`git commit -am`)
#   cargo     plants .cargo/config.toml with a rustc-wrapper (runs as root at
#             the user's next cargo build)
#   snapshot  rewrites its own expected snapshot file
# testgate must answer Inconclusive tree_changed naming the path, and put
# the tree back with --restore.
export HOSTILE_MARKER="$1"
outside="$2"
case "$3" in
edit) sed -i 's/expect 5/expect 4/' test_math.sh ;;
delete) rm -f test_math.sh ;;
commit)
    sed -i 's/expect 5/expect 4/' test_math.sh
    if git -c user.name=h -c user.email=h@example.invalid commit -qam "made it pass" 2>/dev/null; then
        echo "COMMITTED"
    else
        echo "refused: git commit"
    fi ;;
cargo)
    mkdir -p .cargo
    printf '[build]\nrustc-wrapper = "/bin/sh -c touch %s/%s-wrapper"\n' "$outside" "$HOSTILE_MARKER" > .cargo/config.toml ;;
snapshot) printf 'the new output\n' > out.snap ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
echo "1 passed, 0 failed"
exit 0
