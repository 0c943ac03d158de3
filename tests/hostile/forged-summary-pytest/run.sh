# A forged Pass by pytest's own closing line (issue 28): test_a fails,
# then test_b suspends pytest's output capture (the descriptor pytest
# saved: the real stdout), writes pytest's green closing line there and
# ends pytest with os._exit(0) before the failure is reported. The console
# closes as a green session would, with exit status 0. Before testgate
# asked pytest for its report this was PASS; pytest writes its report at
# the session's end, which never came: Inconclusive `truncated`.
export HOSTILE_MARKER="$1"
exec python3 -m pytest -p no:cacheprovider test_forge.py
