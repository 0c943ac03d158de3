# Persistence through what git follows from .git rather than through
# .git/config and .git/hooks themselves: a `commondir` naming a copy of the
# repository whose configuration sets core.fsmonitor (run by host
# `git status`), an `objects/info/alternates`, a submodule's git directory
# (`.git/modules/NAME`, its config and a hook), and the file the project's
# own `include.path` names (`target/gitconfig.local`, in a folder the walk
# otherwise leaves alone). Each planted command would create
# OUTSIDE/MARKER-*, which the harness looks for after running host git.
# Passes when every write was refused.
#
# With the argument `gitdir`, instead: moves `.git` aside and makes `.git` a
# file naming OUTSIDE/evil.git (a repository the driver made there, whose
# configuration sets core.fsmonitor), so host git uses that one.
export HOSTILE_MARKER="$1"
outside="$2"
escaped=0
if [ "$3" = gitdir ]; then
    if mv .git .git-aside 2>/dev/null; then
        if (printf 'gitdir: %s\n' "$outside/evil.git" > .git) 2>/dev/null; then echo "REPOINTED .git"; escaped=1; fi
    else
        echo "refused: moving .git"
    fi
    exit $escaped
fi
ran() { echo "touch '$outside/$HOSTILE_MARKER-$1'"; }
plant() {
    mkdir -p "$(dirname "$1")" 2>/dev/null
    if (printf '%s\n' "$2" >> "$1") 2>/dev/null; then echo "PLANTED $1"; escaped=1; else echo "refused: $1"; fi
}
# The include the project's configuration names.
plant target/gitconfig.local "[core]
	fsmonitor = $(ran include); false"
# A copy of the repository with a configuration of the suite's, made the
# common directory (build/ is the suite's own: writable wherever it runs).
mkdir -p build/gitcopy && cp -r .git/HEAD .git/config .git/objects .git/refs build/gitcopy/ 2>/dev/null
printf '[core]\n\tfsmonitor = %s; false\n' "$(ran commondir)" >> build/gitcopy/config
plant .git/commondir "../build/gitcopy"
plant .git/objects/info/alternates "$PWD/build/gitcopy/objects"
# The submodule's git directory.
plant .git/modules/vendor/config "[core]
	fsmonitor = $(ran submodule); false"
plant .git/modules/vendor/hooks/pre-commit "#!/bin/sh
$(ran submodule-hook)"
chmod +x .git/modules/vendor/hooks/pre-commit 2>/dev/null
exit $escaped
