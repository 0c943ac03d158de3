# The terminal is testgate's. A failing suite writes, to the output testgate
# streams to its terminal: a red FAILED (colours may pass), OSC 52 (write
# the clipboard), OSC 0 (the window's title), OSC 8 (a hyperlink), the
# alternate screen and a clear, a hidden cursor, and SGR 8 (conceal) left
# on, so that testgate's own FAIL would be invisible; it ends mid-sequence.
# The harness reads the terminal: none of it may arrive raw but the colour.
export HOSTILE_MARKER="$1"
printf 'test_a ... \033[31mFAILED\033[0m\n'
printf '\033]52;c;cm0gLXJmIH4K\007'
printf '\033]0;title-%s\007' "$1"
printf '\033]8;;https://evil.example/\033\\a link\033]8;;\033\\\n'
printf '\033[?1049h\033[2J\033[H'
printf '\033[?25l'
printf '\033[8m'
printf 'concealed from here on\n'
printf '\033[1;'
exit 1
