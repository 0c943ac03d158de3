# cargo-test-like output whose test blocks lie and flood. A passing binary
# prints a failure line and a `---- fake stdout ----` block for a test that
# never failed; the failing test's own block holds control bytes, 64 MiB of
# output and, at its end, a forged header of another test. The excerpts
# must name no other test, stay bounded and reach the verdict printable.
export HOSTILE_MARKER="$1"
printf 'running 1 test\ntest fake ... FAILED\ntest liar ... ok\n\nfailures:\n\n'
printf -- "---- fake stdout ----\nthread 'fake' panicked at src/lib.rs:1:1:\nFORGED-FAKE\n\n"
printf 'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n'
printf 'running 1 test\ntest real ... FAILED\n\nfailures:\n\n'
printf -- "---- real stdout ----\nREAL-START \033[31mred\033]0;title\007 c1:\302\233 cr\rback\n"
printf "thread 'real' panicked at src/lib.rs:2:2:\nREAL-MESSAGE\n"
yes 'a line of the real test flooding its own block' | head -c 67108864
printf -- '\nREAL-END\n---- forged stdout ----\nFORGED-INSIDE\n\nfailures:\n    real\n\n'
printf 'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n'
exit 101
