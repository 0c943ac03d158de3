# cargo-test-like output full of what a terminal or a JSON reader must not
# be handed raw: NUL, invalid UTF-8, a C1 CSI, CSI colours, OSC title and
# hyperlink sequences, BEL, a bare CR. One test fails, named with escapes.
export HOSTILE_MARKER="$1"
printf 'running 2 tests\n'
printf 'test ok_one ... ok\n'
printf 'test evil_\033[31mred\033[0m ... FAILED\n'
printf '\033]0;pwned title\007\033]8;;http://example.invalid\033\\link\033]8;;\033\\\n'
printf 'nul:\000:invalid utf8:\377\376:c1:\302\233:bell\007:cr\rback:del\177\n'
printf '\nfailures:\n\nfailures:\n    evil_\033[31mred\033[0m\n\n'
printf 'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n'
exit 101
