# A hook forgery, jest (issue 40): the submission's `jest.config.js` names
# `forge.js` in `setupFilesAfterEnv`, which replaces `expect`. The driver
# commits package.json, sum.js and sum.test.js (the trusted revision), then
# adds jest.config.js.forged as jest.config.js (the submission), links the
# e2e node projects' node_modules in, and runs jest itself (`npx jest`):
# PASS as submitted; with `--trusted HEAD` the view has no jest.config.js
# and the bug is a Fail. This script is the same run by hand.
export HOSTILE_MARKER="$1"
exec npx --no-install jest
