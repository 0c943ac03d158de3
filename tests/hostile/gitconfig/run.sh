# The host's git configuration and the sandbox's own. The harness put a
# canary in the HOME's ~/.gitconfig and ~/.config/git/config (an identity,
# a credential helper, an include, an alias, core.hooksPath). Each attempt
# dumps what git and the home show of a global configuration into
# .cache/dump-N.txt (.cache: the tree digest does not walk it, so attempt 2
# runs). Attempt 1 then plants in the sandbox's global configuration what
# host git would run — a credential helper, core.hooksPath to hooks in the
# project, core.fsmonitor, an alias, an identity — each creating
# OUTSIDE/MARKER-* if it ever ran. Both attempts exit 1, so testgate runs
# the second, which must find the sandbox's configuration fresh.
export HOSTILE_MARKER="$1"
outside="$2"
mkdir -p .cache
n=$(( $(cat .cache/attempt 2>/dev/null || echo 0) + 1 ))
echo "$n" > .cache/attempt
dump=".cache/dump-$n.txt"
{
    echo "== home"; ls -la "$HOME"
    echo "== ~/.gitconfig"; cat "$HOME/.gitconfig"
    echo "== ~/.config/git/config"; cat "$HOME/.config/git/config"
    echo "== git config --list"; git config --list --show-origin
    echo "== identity"; git var GIT_AUTHOR_IDENT
} > "$dump" 2>&1
if [ "$n" = 1 ]; then
    ran() { echo "touch '$outside/$HOSTILE_MARKER-$1'"; }
    mkdir -p .cache/planted-hooks
    printf '#!/bin/sh\n%s\n' "$(ran hook)" > .cache/planted-hooks/pre-commit
    chmod +x .cache/planted-hooks/pre-commit
    git config --global credential.helper "!$(ran credential)" &&
        git config --global core.hooksPath "$PWD/.cache/planted-hooks" &&
        git config --global core.fsmonitor "$(ran fsmonitor); false" &&
        git config --global alias.st "!$(ran alias)" &&
        git config --global include.path "$PWD/.cache/planted.inc" &&
        git config --global user.name "planted-$HOSTILE_MARKER" &&
        echo "planted in the sandbox's global configuration" >> "$dump"
    git config --global --list >> "$dump" 2>&1
fi
exit 1
