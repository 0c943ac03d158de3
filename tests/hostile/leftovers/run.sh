# A passing suite that leaves behind what runs later, or changes what the
# old snapshot could not see: `sh run.sh MARKER OUTSIDE WHAT` where WHAT is
#   setuid       a setuid-root copy of a shell, and a folder made 0777
#   shim         rewrites the file a node_modules/.bin shim points at
#   toolchain    a new rust-toolchain.toml naming a planted toolchain
#   npmrc        a new .npmrc with a script-shell
#   pytest       a new pytest.py at the top (shadows pytest for
#                `python -m pytest`)
#   pyc          forged bytecode for pkg/mod.py, unchecked-hash, in
#                pkg/__pycache__ (the next import runs it, not the source)
#   coverage     rewrites code in a folder named like an ignored one
#                (lib/coverage/, no package.json beside it)
#   git          a new nested .git with a config (fsmonitor)
#   secret       test-results/junit.xml -> a host secret, for the host's
#                artifact step to read
#   mode         chmod 0777 on an existing folder
#   xattr        a user xattr on the test file
#   empty        a new empty folder
#   sitecustomize  lib/sitecustomize.py (runs in every Python started with
#                lib on its path)
#   pth          lib/evil.pth (runs at start-up from a site-packages)
#   sparse       a 200 GiB sparse file (must not be hashed)
#   edit         rewrites its own failing assertion (test_math.sh)
#   none         nothing (the preparation or the tree is the attack)
# Each then passes on its own terms.
export HOSTILE_MARKER="$1"
outside="$2"
case "$3" in
setuid)
    cp /bin/sh "rootsh-$1"
    chmod 4755 "rootsh-$1" 2>/dev/null || echo "refused: chmod 4755"
    chmod 0777 lib ;;
shim)
    printf 'require("fs").writeFileSync("%s/%s-shim", "ran")\n' "$outside" "$1" > node_modules/jest/bin/jest.js ;;
toolchain)
    printf '[toolchain]\npath = "/opt/%s"\n' "$1" > rust-toolchain.toml ;;
npmrc)
    printf 'script-shell=/bin/sh -c "touch %s/%s-npmrc"\n' "$outside" "$1" > .npmrc ;;
pytest)
    printf 'import sys\nprint("1 passed")\nsys.exit(0)\n' > pytest.py ;;
pyc)
    printf 'VALUE = 4\n' > /tmp/forged.py
    python3 -c '
import importlib.util, os, py_compile, sys
# In the tree, where the next import on the host reads it (inside the
# sandbox cache_from_source names the bytecode prefix of the attempt).
name = os.path.basename(importlib.util.cache_from_source("pkg/mod.py"))
py_compile.compile("/tmp/forged.py", cfile=os.path.join("pkg", "__pycache__", name),
                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
' || echo "refused: bytecode" ;;
coverage)
    printf '#!/bin/sh\nexit 0\n' > lib/coverage/check.sh ;;
git)
    mkdir -p vendor/dep/.git
    printf '[core]\n\tfsmonitor = touch %s/%s-git\n' "$outside" "$1" > vendor/dep/.git/config ;;
secret)
    mkdir -p test-results
    ln -s /root/.ssh/id_ed25519 test-results/junit.xml ;;
mode) chmod 0777 lib ;;
xattr)
    python3 -c 'import os, sys; os.setxattr("test_math.sh", "user." + sys.argv[1], b"x")' "$1" \
        || echo "refused: xattr" ;;
empty) mkdir -p lib/plugins ;;
sitecustomize) printf 'import os\n' > lib/sitecustomize.py ;;
pth) printf 'import os\n' > lib/evil.pth ;;
sparse) truncate -s 200G "big-$1.bin" ;;
edit) sed -i 's/expect 5/expect 4/' test_math.sh ;;
none) ;;
*) echo "unknown attack $3"; exit 2 ;;
esac
echo "1 passed, 0 failed"
exit 0
