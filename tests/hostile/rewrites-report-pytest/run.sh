# A forged Pass by rewriting pytest's JUnit report (issue 28): test_a
# fails; an atexit handler, registered by the tests, runs after pytest
# wrote its reports and rewrites every one it can find (the `--junitxml`
# of the command line and of PYTEST_ADDOPTS) to say that every test passed,
# then ends Python with status 0. The console still shows `FAILED` and
# `1 failed`. With `--structured` (or `--report`) testgate believed the
# report over the console: PASS. Now the report never overrides a console
# that names a failure: Inconclusive `contradiction`.
export HOSTILE_MARKER="$1"
shift 2
exec python3 -m pytest -p no:cacheprovider "$@" test_rewrite.py
