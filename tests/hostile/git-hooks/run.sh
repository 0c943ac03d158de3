# Persistence through the repository: plants code that host git runs
# later, as root, outside the sandbox — a pre-commit hook, core.fsmonitor
# (run by `git status`), an alias, core.hooksPath — in the git directory
# and, for a linked worktree, in the main repository's; then tries to
# replace .git itself (move it, or rewrite a `.git` file to point at a
# planted git directory in the project). Each planted command would create
# OUTSIDE/MARKER-*, which the harness looks for after running host git.
# Passes when every write was refused.
export HOSTILE_MARKER="$1"
outside="$2"
escaped=0
gitdir=$(git rev-parse --path-format=absolute --git-dir) || exit 2
common=$(git rev-parse --path-format=absolute --git-common-dir) || exit 2
echo "git dir: $gitdir, common dir: $common"
ran() { echo "touch '$outside/$HOSTILE_MARKER-$1'"; }
plant() {
    if (printf '%s\n' "$2" >> "$1") 2>/dev/null; then echo "PLANTED $1"; escaped=1; else echo "refused: $1"; fi
}
hook="#!/bin/sh
$(ran hook)"
for dir in "$common" "$gitdir"; do
    plant "$dir/hooks/pre-commit" "$hook"
    chmod +x "$dir/hooks/pre-commit" 2>/dev/null
    plant "$dir/config" "[core]
	fsmonitor = $(ran fsmonitor); false
	hooksPath = $PWD/planted-hooks
[alias]
	st = !$(ran alias)"
    plant "$dir/config.worktree" "[alias]
	ci = !$(ran alias)"
done
mkdir -p planted-hooks && printf '%s\n' "$hook" > planted-hooks/pre-commit && chmod +x planted-hooks/pre-commit
if git config core.fsmonitor "$(ran fsmonitor-by-git-config); false" 2>/dev/null; then echo "SET core.fsmonitor"; escaped=1; fi
if git config alias.co "!$(ran alias-by-git-config)" 2>/dev/null; then echo "SET alias.co"; escaped=1; fi
# Replace .git: a planted git directory in the project, with its own hook.
mkdir -p planted-git && git init -q planted-git && mkdir -p planted-git/.git/hooks
printf '%s\n' "$hook" > planted-git/.git/hooks/pre-commit && chmod +x planted-git/.git/hooks/pre-commit
if [ -f .git ]; then
    if (printf 'gitdir: %s\n' "$PWD/planted-git/.git" > .git) 2>/dev/null; then echo "REWROTE the .git file"; escaped=1; else echo "refused: rewriting the .git file"; fi
fi
if mv .git .git-moved 2>/dev/null; then echo "MOVED .git"; escaped=1; mv .git-moved .git 2>/dev/null; else echo "refused: moving .git"; fi
exit $escaped
