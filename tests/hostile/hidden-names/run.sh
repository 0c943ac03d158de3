# Failing names that act on the reader's display instead of showing:
# `evil\rPASS` (a terminal prints "PASS" over the line), a backspace, a
# right-to-left override (U+202E) and a left-to-right isolate (U+2066).
# jest and vitest print a test's name as written, so a hostile suite can
# name its tests so; the output here is cargo-like and hand-made (printf),
# the names being the point.
export HOSTILE_MARKER="$1"
printf 'running 5 tests\n'
printf 'test fine ... ok\n'
printf 'test evil\rPASS ... FAILED\n'
printf 'test a\010b ... FAILED\n'
printf 'test rlo_\342\200\256gnp.exe ... FAILED\n'
printf 'test lri_\342\201\246x ... FAILED\n'
printf '\nfailures:\n\nfailures:\n    evil\rPASS\n    a\010b\n    rlo_\342\200\256gnp.exe\n    lri_\342\201\246x\n\n'
printf 'test result: FAILED. 1 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n'
exit 101
