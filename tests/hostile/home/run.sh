# Reads what the home directory holds and writes into each toolchain cache
# where the toolchain looks for it. The harness planted a canary in
# credential files, a shell history, another directory of the home, the
# runner's own home and another user's home; it checks none reaches
# dump.bin, that the toolchains and the host's Go build cache (a copy)
# stay readable, and that every write landed in testgate's private cache,
# not in the host's.
export HOSTILE_MARKER="$1"
# Where Go and npm look for their caches: the variable where the sandbox
# set one (Landlock points them at the private copies), else the home.
gocache="${GOCACHE:-$HOME/.cache/go-build}"
npmcache="${npm_config_cache:-$HOME/.npm}"
gradlecaches="${GRADLE_USER_HOME:-$HOME/.gradle}/caches"
{
    echo "== home"; ls -la "$HOME"
    for f in .git-credentials .config/rclone/rclone.conf .bash_history \
        .vault-token .cache/huggingface/token notes/secret.txt \
        .m2/settings.xml .gradle/gradle.properties; do
        echo "== $f"; cat "$HOME/$f"
    done
    echo "== other homes"; shift 2; for f in "$@"; do cat "$f"; done
    ls -la /root /home
    echo "== shadow"; cat /etc/shadow /etc/gshadow
    echo "== toolchain"; cat "$HOME/.cargo/bin/tool"
    echo "== host go cache"; cat "$gocache/00/object"
    echo "== maven repository"; cat "$HOME/.m2/repository/org/example/x.pom"
    echo "== host gradle caches"; cat "$gradlecaches/modules-2/seed"
} > dump.bin 2>&1
# Writes: each into the cache where its toolchain writes.
mkdir -p "$gocache" "$npmcache" "$gradlecaches" && \
    echo planted > "$gocache/planted" && \
    echo planted > "$npmcache/planted" && \
    echo planted > "$gradlecaches/planted" && \
    echo wrote-private-caches >> dump.bin
echo planted > "$HOME/.cargo/registry/planted" 2>/dev/null && echo "WROTE registry" >> dump.bin
echo planted > "$HOME/.cargo/bin/tool" 2>/dev/null && echo "WROTE cargo bin" >> dump.bin
echo planted > "$HOME/.m2/repository/planted" 2>/dev/null && echo "WROTE maven repository" >> dump.bin
echo planted > "$HOME/notes/secret.txt" 2>/dev/null
exit 0
