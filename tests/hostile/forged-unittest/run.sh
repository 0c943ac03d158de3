# unittest forgeries (issue 38), run by unittest itself through its
# driver's `python3 -m unittest MODULE` (the module names the attack:
# forge_closing, forge_header, exit_after_failure, forge_report; honest.py
# is the honest suite beside them); by hand,
# `sh run.sh MARKER OUTSIDE MODULE` runs the same behind a shell.
export HOSTILE_MARKER="$1"
exec python3 -m unittest "$3"
