# A passing cargo suite (exit 0) that also prints pytest's failure lines,
# as a test that shells out to another runner's fixtures might.
export HOSTILE_MARKER="$1"
cat <<'OUT'
running 3 tests
test parses_a_log ... ok
test prints_fixture ... ok
test reads_stdin ... ok
FAILED tests/test_fixture.py::test_broken - assert 1 == 2
=========================== short test summary info ============================
FAILED tests/test_fixture.py::test_broken - assert 1 == 2
========================= 1 failed, 2 passed in 0.05s ==========================

test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

OUT
