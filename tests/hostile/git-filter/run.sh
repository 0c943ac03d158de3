# testgate's own git, turned against it. The project has no `.git` of its
# own (it is a subfolder of a repository, or none), so the suite can make
# one: a repository with one commit whose configuration defines a
# `filter.<x>.clean` command (and a textconv and an external diff driver)
# and whose `.gitattributes` gives every file that filter, then a tracked
# file changed so that git must run the filter to compare it. The next
# `check --record` reads the commit and whether the tree is dirty; had it
# run `git status`/`git diff` on this repository, the filter would run on
# the host, as root, and leave `OUTSIDE/MARKER-filter-ran`. Always passes.
export HOSTILE_MARKER="$1"
ran="$2/$1-filter-ran"
if [ ! -e .git ]; then
    git init -q . || exit 2
    rm -rf .git/hooks
    git config filter.hostile.clean "sh -c 'touch $ran; cat'"
    git config filter.hostile.smudge "sh -c 'touch $ran; cat'"
    git config filter.hostile.required true
    git config diff.hostile.textconv "sh -c 'touch $ran; cat \"\$0\"'"
    git config diff.external "sh -c 'touch $ran'"
    printf '* filter=hostile diff=hostile\n' > .gitattributes
    echo committed > tracked.txt
    git add .gitattributes tracked.txt run.sh
    git -c user.name=hostile -c user.email=hostile@example.invalid \
        -c filter.hostile.clean=cat commit -qm planted || exit 2
    echo "planted a repository with a filter"
fi
# A tracked file whose size no longer matches the index: git must hash it,
# through the clean filter.
echo "changed by the run, $(date +%s%N)" >> tracked.txt
exit 0
