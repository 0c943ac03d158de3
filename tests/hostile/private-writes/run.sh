# What a check writes that a later check or the host reads: `sh run.sh
# MARKER OUTSIDE WHAT [PATH]`, WHAT read from the file `what` when it is
# `from-file` (the driver changes it between two checks, as a new commit
# would):
#   bytecode   forged bytecode for pkg/mod.py (VALUE = 5, unchecked-hash:
#              Python loads it whatever the source holds), in
#              pkg/__pycache__ and in the bytecode prefix the sandbox
#              names ($PYTHONPYCACHEPREFIX); passes
#   test       python3 -m pytest: the commit is broken (pkg/mod.py holds
#              VALUE = 4, the test wants 5)
#   installed  a .pth planted in .venv's site-packages and a module
#              rewritten there, node_modules/dep/index.js rewritten, a
#              test binary replaced in target/debug/deps; passes
#   shared     a binary of another project's replaced in PATH (the host's
#              shared CARGO_TARGET_DIR) and a file planted there; a file
#              written in $CARGO_TARGET_DIR (the sandbox's); passes
export HOSTILE_MARKER="$1"
outside="$2"
what="$3"
[ "$what" = from-file ] && what=$(cat what)
case "$what" in
bytecode)
    printf 'VALUE = 5\n' > "forged-$1.py" || exit 3
    python3 - "$1" <<'PY' || echo "refused: bytecode"
import importlib.util, os, py_compile, sys
source = os.path.abspath("pkg/mod.py")
places = [os.path.join("pkg", "__pycache__", os.path.basename(importlib.util.cache_from_source(source)))]
if sys.pycache_prefix:
    places.append(importlib.util.cache_from_source(source))
for place in places:
    py_compile.compile("forged-%s.py" % sys.argv[1], cfile=place,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    print("planted", place)
PY
    rm -f "forged-$1.py" ;;
test)
    exec python3 -m pytest -q -p no:cacheprovider ;;
installed)
    site=.venv/lib/python3/site-packages
    printf 'import os; open("%s/%s-pth", "w").write("ran")\n' "$outside" "$1" \
        2>/dev/null > "$site/evil-$1.pth" || echo "refused: pth"
    printf 'raise SystemExit("planted")\n' 2>/dev/null > "$site/dep.py" || echo "refused: site-packages"
    printf 'require("fs").writeFileSync("%s/%s-node", "ran")\n' "$outside" "$1" \
        2>/dev/null > node_modules/dep/index.js || echo "refused: node_modules"
    printf '#!/bin/sh\nexit 0\n' 2>/dev/null > target/debug/deps/unit-0123456789abcdef \
        || echo "refused: target"
    rm -f target/debug/deps/unit-0123456789abcdef 2>/dev/null || echo "refused: target rm" ;;
shared)
    printf '#!/bin/sh\nexit 0\n' 2>/dev/null > "$4/debug/deps/other-0123456789abcdef" \
        || echo "refused: shared binary"
    touch "$4/planted-$1" 2>/dev/null || echo "refused: shared plant"
    mkdir -p "$CARGO_TARGET_DIR" && touch "$CARGO_TARGET_DIR/built-$1" \
        && echo "built in $CARGO_TARGET_DIR" ;;
*) echo "unknown attack $what"; exit 2 ;;
esac
echo "1 passed, 0 failed"
exit 0
